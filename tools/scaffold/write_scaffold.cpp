#include "tools/scaffold/write_scaffold.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <system_error>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "tools/scaffold/templates.hpp"

namespace kverify {
namespace {

std::string replaced(std::string text, std::string_view key, std::string_view value) {
  for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + value.size()))
    text.replace(at, key.size(), value);
  return text;
}

}  // namespace

int write_scaffold(const ScaffoldRequest& r) {
  const std::filesystem::path dir = r.dir;
  std::error_code ec;
  if (std::filesystem::exists(dir, ec) && !std::filesystem::is_empty(dir, ec))
    throw InputError("" + shown(dir.string()) +
                     " exists and is not empty (accepted: a new or empty folder; --dir names another)");
  std::filesystem::create_directories(dir, ec);
  if (ec)
    throw InputError("cannot create " + shown(dir.string()) + ": " + ec.message() +
                     " (accepted: a folder this user can create)");

  const auto fill = [&](std::string_view text) {
    std::string out(text);
    out = replaced(out, "@LAUNCHER@",
                   "// The launcher kverify calls (SIGNATURE " + std::string(r.signature) +
                       "), T from the "
                       "Case's dtype.\n" +
                       r.launcher);
    out = replaced(out, "@NAME@", r.name);
    out = replaced(out, "@OP@", r.op);
    out = replaced(out, "@SIGNATURE@", r.signature);
    out = replaced(out, "@LIMITS@", r.limits);
    out = replaced(out, "@STRATEGY@", r.strategy);
    out = replaced(out, "@KVERIFY_BUILD@", KVERIFY_BUILD_DIR);
    return out;
  };
  namespace t = cli::scaffold;
  const std::vector<std::pair<std::string, std::string_view>> files =
      r.op_folder
          ? std::vector<std::pair<std::string, std::string_view>>{{"CMakeLists.txt", t::kOp_CMakeLists_txt},
                                                                  {"@NAME@_op.cpp", t::kOp_op_cpp},
                                                                  {"@NAME@.cu", t::kOp_kernel_cu},
                                                                  {"README.md", t::kOp_README_md}}
          : std::vector<std::pair<std::string, std::string_view>>{
                {"CMakeLists.txt", t::kCMakeLists}, {"@NAME@.cu", t::kernel_source(r.op)}, {"README.md", t::kReadme}};
  std::string written;
  for (const auto& [file_template, text] : files) {
    const std::string file = replaced(file_template, "@NAME@", r.name);
    std::ofstream out(dir / file, std::ios::binary);
    out << fill(text);
    if (!out.flush())
      throw InputError("cannot write " + shown((dir / file).string()) + " (accepted: a folder this user can write)");
    written += (written.empty() ? "" : ", ") + file;
  }
  std::printf("created %s/: %s (%s, SIGNATURE %s)\n", dir.string().c_str(), written.c_str(), r.op.c_str(),
              std::string(r.signature).c_str());
  std::printf("next: %s/README.md (build it against %s, then ctest)\n", dir.string().c_str(), KVERIFY_BUILD_DIR);
  return 0;
}

}  // namespace kverify
