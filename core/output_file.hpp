// Writing output files all or nothing: each file's text goes to a temporary name beside it, and only
// when every one is written are they renamed over their targets, so a failure leaves the old files
// (or none) and never a half-written or mixed set. Only a regular file is ever replaced: a path that
// is a link is written through (the link stays, its target gets the text), and one that names a
// folder, a device node, a FIFO or a socket is refused, as are two paths naming one file.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kverify {

class OutputFiles {
 public:
  void add(std::string path, std::string text) { files_.emplace_back(std::move(path), std::move(text)); }
  // A file an earlier output of this set had and this one has not (a plot of a dtype no longer
  // reported): removed once the new files are in place, if it is a regular file (a link, or
  // anything else, is left).
  void retire(std::string path) { retired_.push_back(std::move(path)); }
  // nullopt when every file was written; else what went wrong, naming the path (nothing replaced).
  std::optional<std::string> commit();

 private:
  std::vector<std::pair<std::string, std::string>> files_;
  std::vector<std::string> retired_;
};

// One file, all or nothing.
std::optional<std::string> write_output_file(const std::string& path, std::string_view text);

// Whether a file can be created at `path` (checked before a long run starts): nullopt when it can,
// else why not. The second form checks outputs written together (also that no two name one file).
std::optional<std::string> output_path_problem(const std::string& path);
std::optional<std::string> output_paths_problem(const std::vector<std::string>& paths);
// Whether files can be written into the folder `dir`, which may not exist yet (checked without
// creating it: a refused command leaves no empty folder behind).
std::optional<std::string> output_folder_problem(const std::string& dir);

}  // namespace kverify
