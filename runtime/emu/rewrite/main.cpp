// kv_emu_launch_rewrite: writes the emu build's copy of a CUDA source with its <<<>>> launches
// (rewrite.hpp) and its `extern __shared__` / `static __shared__` declarations
// (runtime/emu/rewrite/shared_declarations.hpp) rewritten, plus a rewritten copy of every header it reaches.
//
//   kv_emu_launch_rewrite --mirror DIR --output FILE [--depfile FILE] [--launch-header PATH] SOURCE
//
// PATH is what the rewritten files #include for the launch macro (default
// "runtime/emu/model/launch_syntax.hpp", found through the include path; the CMake function passes the
// absolute path, so that no include path is needed for it).
//
// Headers: a launcher may sit in a header, and a header may be reached through another one, so
// every file reached through `#include "..."` relative to the including file's own directory
// (the first place the compiler looks) is rewritten too, into DIR followed by its absolute path.
// The output of SOURCE must lie in DIR followed by SOURCE's directory (cmake/KverifyEmuSources.cmake
// puts it there): the compiler then finds the rewritten copies exactly where it found the
// originals. Headers reached through the include path (-I) are not rewritten; a launch in such
// a header is reported by the compiler. The depfile names SOURCE and every header read, so an
// edit to any of them runs the rewrite again. Files are written only when their text changes
// (no needless recompiles), through a rename, so two rewrites sharing a header never expose a
// half-written copy.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "runtime/emu/rewrite/launches.hpp"
#include "runtime/emu/rewrite/shared_declarations.hpp"

namespace fs = std::filesystem;
namespace lr = kverify::emu::launch_rewrite;

namespace {

bool read_file(const fs::path& p, std::string& out) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

bool write_if_changed(const fs::path& p, const std::string& text) {
  std::string old;
  if (read_file(p, old) && old == text) return true;
  std::error_code ec;
  fs::create_directories(p.parent_path(), ec);
  const fs::path tmp = p.string() + ".tmp" + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out || !out.write(text.data(), static_cast<std::streamsize>(text.size()))) return false;
  }
  fs::rename(tmp, p, ec);
  return !ec;
}

// DIR + an absolute path: where the rewritten copy of that file lives.
fs::path mirrored(const fs::path& mirror, const fs::path& original) { return mirror / original.relative_path(); }

std::string make_escape(const std::string& path) {
  std::string out;
  for (char c : path) {
    if (c == ' ' || c == '#' || c == '\\') out += '\\';
    if (c == '$') out += '$';
    out += c;
  }
  return out;
}

struct Job {
  fs::path mirror;
  std::string launch_header;
  std::set<std::string> seen;
  std::vector<fs::path> read;
  int warnings = 0;
  bool failed = false;

  // Rewrites `original` (an absolute, lexically normal path) into `out`; follows its includes.
  void process(const fs::path& original, const fs::path& out) {
    std::string text;
    if (!read_file(original, text)) {
      std::cerr << original.string() << ": error: kv_emu_launch_rewrite cannot read this file\n";
      failed = true;
      return;
    }
    read.push_back(original);
    const lr::Result r = lr::rewrite(kverify::emu::rewrite_shared_declarations(text));
    for (const auto& w : r.warnings) {
      std::cerr << original.string() << ":" << w.line << ":" << w.column
                << ": warning: emu launch rewrite: " << w.message << "\n";
      ++warnings;
    }
    if (!write_if_changed(out, lr::emit(r, original.string(), launch_header))) {
      std::cerr << out.string() << ": error: kv_emu_launch_rewrite cannot write this file\n";
      failed = true;
      return;
    }
    for (const std::string& inc : r.quote_includes) {
      const fs::path header = (original.parent_path() / inc).lexically_normal();
      std::error_code ec;
      if (!fs::is_regular_file(header, ec)) continue;  // found through the include path, or absent
      if (!seen.insert(header.string()).second) continue;
      process(header, mirrored(mirror, header));
    }
  }
};

int usage() {
  std::cerr
      << "usage: kv_emu_launch_rewrite --mirror DIR --output FILE [--depfile FILE] [--launch-header PATH] SOURCE\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  fs::path mirror, output, depfile, source;
  std::string launch_header = "runtime/emu/model/launch_syntax.hpp";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::cout << "usage: kv_emu_launch_rewrite --mirror DIR --output FILE [--depfile FILE] [--launch-header PATH] "
                   "SOURCE\n  writes SOURCE with its <<<>>> launches and extern/static __shared__ declarations "
                   "rewritten for emu, and a rewritten copy of every header it includes by a relative path "
                   "under DIR (cmake/KverifyEmuSources.cmake says how kverify_emu_rewrite calls it)\n";
      return 0;
    }
    if (a == "--launch-header" && i + 1 < argc) {
      launch_header = argv[++i];
    } else if ((a == "--mirror" || a == "--output" || a == "--depfile") && i + 1 < argc) {
      (a == "--mirror" ? mirror : a == "--output" ? output : depfile) = argv[++i];
    } else if (!a.empty() && a[0] != '-' && source.empty()) {
      source = a;
    } else {
      return usage();
    }
  }
  if (mirror.empty() || output.empty() || source.empty()) return usage();
  mirror = fs::absolute(mirror).lexically_normal();
  source = fs::absolute(source).lexically_normal();
  output = fs::absolute(output).lexically_normal();
  if (output.parent_path() != mirrored(mirror, source.parent_path()))
    std::cerr << output.string() << ": warning: not in " << mirrored(mirror, source.parent_path()).string()
              << ": its #include \"...\" of rewritten headers will find the originals\n";

  Job job{mirror, launch_header, {source.string()}, {}, 0, false};
  job.process(source, output);
  if (job.failed) return 1;
  if (!depfile.empty()) {
    std::string d = make_escape(output.string()) + ":";
    for (const auto& p : job.read) d += " \\\n  " + make_escape(p.string());
    d += "\n";
    if (!write_if_changed(depfile, d)) {
      std::cerr << depfile.string() << ": error: kv_emu_launch_rewrite cannot write the depfile\n";
      return 1;
    }
  }
  return 0;
}
