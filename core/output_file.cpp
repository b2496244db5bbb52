#include "core/output_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace kverify {
namespace {

namespace fs = std::filesystem;

std::string temporary_beside(const std::string& path) {
  return path + ".kverify-tmp-" + std::to_string(static_cast<long>(getpid()));
}

std::optional<std::string> write_whole(const std::string& path, std::string_view text) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return std::string(std::strerror(errno));
  const bool written = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  const int write_errno = errno;
  const bool closed = std::fclose(f) == 0;
  if (!written) return std::string(std::strerror(write_errno));
  if (!closed) return std::string(std::strerror(errno));
  return std::nullopt;
}

// Where a write to `path` lands: a link's final target (so the link stays a link and its target gets
// the new text), else the path itself.
std::string write_target(const std::string& path) {
  fs::path p = path;
  std::error_code ec;
  for (int hops = 0; hops < 40 && fs::is_symlink(fs::symlink_status(p, ec)); ++hops) {  // Linux's MAXSYMLINKS
    const fs::path to = fs::read_symlink(p, ec);
    if (ec) break;
    p = to.is_absolute() ? to : p.parent_path() / to;  // a dangling link's target is still where to write
  }
  return p.string();
}

// Why the file at `target` (what `path` names) may not be replaced: anything that exists and is
// not a regular file. nullopt: a regular file, or nothing yet.
std::optional<std::string> not_replaceable(const std::string& path, const std::string& target) {
  std::error_code ec;
  const fs::file_status st = fs::status(target, ec);
  const char* what = nullptr;
  switch (st.type()) {
    case fs::file_type::not_found:
    case fs::file_type::regular:
      return std::nullopt;
    case fs::file_type::directory:
      what = "a folder";
      break;
    case fs::file_type::character:
      what = "a character device";
      break;
    case fs::file_type::block:
      what = "a block device";
      break;
    case fs::file_type::fifo:
      what = "a FIFO (named pipe)";
      break;
    case fs::file_type::socket:
      what = "a socket";
      break;
    default:
      if (ec) return std::nullopt;  // unreadable: the write itself will say why
      what = "not a regular file";
  }
  return path + (target == path ? "" : " (a link to " + target + ")") + " is " + what +
         " (accepted: a regular file, a link to one, or a new path: kverify replaces whole files and "
         "nothing else)";
}

// What is wrong with writing these paths together: one not replaceable, or two naming one file.
std::optional<std::string> paths_problem(const std::vector<std::string>& paths, std::vector<std::string>* targets) {
  std::vector<std::string> seen;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    if (paths[i].empty()) return std::string("an empty path (accepted: a file path)");
    const std::string target = write_target(paths[i]);
    if (auto why = not_replaceable(paths[i], target)) return why;
    std::error_code ec;
    const fs::path absolute = fs::weakly_canonical(target, ec);
    const std::string key = ec ? target : absolute.string();
    for (std::size_t k = 0; k < seen.size(); ++k)
      if (seen[k] == key)
        return paths[k] + " and " + paths[i] + " name the same file (accepted: a path of its own for each output)";
    seen.push_back(key);
    if (targets) targets->push_back(target);
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> OutputFiles::commit() {
  std::vector<std::string> paths, targets;
  for (const auto& file : files_) paths.push_back(file.first);
  if (auto why = paths_problem(paths, &targets)) return "cannot write: " + *why;
  std::vector<std::string> staged;
  const auto discard = [&] {
    for (const auto& t : staged) std::remove(t.c_str());
  };
  for (std::size_t i = 0; i < files_.size(); ++i) {
    const std::string tmp = temporary_beside(targets[i]);
    if (const auto why = write_whole(tmp, files_[i].second)) {
      std::remove(tmp.c_str());
      discard();
      return "cannot write " + files_[i].first + ": " + *why;
    }
    staged.push_back(tmp);
  }
  for (std::size_t i = 0; i < files_.size(); ++i)
    if (std::rename(staged[i].c_str(), targets[i].c_str()) != 0) {
      const std::string why = std::strerror(errno);
      for (std::size_t k = i; k < staged.size(); ++k) std::remove(staged[k].c_str());
      return "cannot write " + files_[i].first + ": " + why;
    }
  for (const auto& path : retired_)
    if (struct stat st; ::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) std::remove(path.c_str());
  files_.clear();
  retired_.clear();
  return std::nullopt;
}

std::optional<std::string> write_output_file(const std::string& path, std::string_view text) {
  OutputFiles out;
  out.add(path, std::string(text));
  return out.commit();
}

std::optional<std::string> output_path_problem(const std::string& path) {
  return output_paths_problem(std::vector<std::string>{path});
}

std::optional<std::string> output_paths_problem(const std::vector<std::string>& paths) {
  std::vector<std::string> targets;
  if (auto why = paths_problem(paths, &targets)) return why;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    const std::string& path = paths[i];
    std::error_code ec;
    const fs::path dir =
        fs::path(targets[i]).parent_path().empty() ? fs::path(".") : fs::path(targets[i]).parent_path();
    if (!fs::exists(dir, ec)) return "cannot write " + path + ": the folder " + dir.string() + " does not exist";
    if (!fs::is_directory(dir, ec)) return "cannot write " + path + ": " + dir.string() + " is not a folder";
    const std::string probe = temporary_beside((dir / ".kverify-probe").string());
    if (const auto why = write_whole(probe, "")) return "cannot write into " + dir.string() + ": " + *why;
    std::remove(probe.c_str());
  }
  return std::nullopt;
}

std::optional<std::string> output_folder_problem(const std::string& dir) {
  std::error_code ec;
  fs::path existing = dir.empty() ? fs::path(".") : fs::path(dir);
  while (!fs::exists(existing, ec) && existing.has_parent_path() && existing != existing.parent_path())
    existing = existing.parent_path();
  if (!fs::exists(existing, ec)) existing = ".";
  if (!fs::is_directory(existing, ec))
    return "cannot write into " + dir + ": " + existing.string() +
           " is not a folder (accepted: a folder, or a path "
           "kverify can create one at)";
  // A probe folder, made and removed: what access() cannot tell for root or on /proc.
  const fs::path probe = existing / (".kverify-probe-" + std::to_string(static_cast<long>(getpid())));
  if (!fs::create_directory(probe, ec) || ec)
    return "cannot write into " + dir + ": " + (existing == fs::path(dir) ? "" : existing.string() + ": ") +
           ec.message() + " (accepted: a folder kverify can write into or create)";
  fs::remove(probe, ec);
  return std::nullopt;
}

}  // namespace kverify
