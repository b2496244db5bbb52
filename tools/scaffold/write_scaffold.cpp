#include "tools/scaffold/write_scaffold.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <system_error>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/home.hpp"
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

  // The kverify the CI job packages: this checkout's remote and commit, or those an installed
  // kverify recorded ("" when neither says: the workflow then says to set them).
  const Provenance built_from = provenance();
  const std::string& kverify_git = built_from.origin;
  const std::string& kverify_ref = built_from.commit;
  // The kverify_DIR of the project's configure: this build folder, or the installed package's.
  const std::string package = home().package.empty() ? "<kverify's lib/cmake/kverify>" : home().package.string();
  // find_package asks for this kverify's major.minor: any patch release of it is compatible.
  const std::string version(KVERIFY_VERSION);
  const std::string version_asked = version.substr(0, version.rfind('.'));
  const auto fill = [&](std::string_view text) {
    std::string out(text);
    out = replaced(out, "@CI@", cli::scaffold::kCiSection);  // first: it holds the keys below
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
    out = replaced(out, "@KVERIFY_PACKAGE@", package);
    out = replaced(out, "@VARIANT@", r.op_folder ? r.name + "_kernel" : r.name);
    out = replaced(out, "@KVERIFY_GIT@", kverify_git);
    out = replaced(out, "@KVERIFY_REF@", kverify_ref);
    out = replaced(out, "@KVERIFY_VERSION@", version_asked);
    return out;
  };
  namespace t = cli::scaffold;
  const std::vector<std::pair<std::string, std::string_view>> files =
      r.op_folder
          ? std::vector<std::pair<std::string, std::string_view>>{{"CMakeLists.txt", t::kOp_CMakeLists_txt},
                                                                  {"@NAME@_op.cpp", t::kOp_op_cpp},
                                                                  {"@NAME@.cu", t::kOp_kernel_cu},
                                                                  {"README.md", t::kOp_README_md},
                                                                  {".github/workflows/kverify.yml", t::kWorkflow}}
          : std::vector<std::pair<std::string, std::string_view>>{{"CMakeLists.txt", t::kCMakeLists},
                                                                  {"@NAME@.cu", t::kernel_source(r.op)},
                                                                  {"README.md", t::kReadme},
                                                                  {".github/workflows/kverify.yml", t::kWorkflow}};
  std::string written;
  for (const auto& [file_template, text] : files) {
    const std::string file = replaced(file_template, "@NAME@", r.name);
    std::filesystem::create_directories((dir / file).parent_path(), ec);
    std::ofstream out(dir / file, std::ios::binary);
    out << fill(text);
    if (!out.flush())
      throw InputError("cannot write " + shown((dir / file).string()) + " (accepted: a folder this user can write)");
    written += (written.empty() ? "" : ", ") + file;
  }
  std::printf("created %s/: %s (%s, SIGNATURE %s)\n", dir.string().c_str(), written.c_str(), r.op.c_str(),
              std::string(r.signature).c_str());
  if (kverify_git.empty() || kverify_ref.empty())
    std::printf(
        "note: %s/.github/workflows/kverify.yml needs KVERIFY_GIT and KVERIFY_REF, your kverify repository's URL "
        "and commit (this kverify's checkout, or the one it was installed from, has no remote 'origin' to take them "
        "from)\n",
        dir.string().c_str());
  std::printf("next: %s/README.md (build it against %s, then ctest)\n", dir.string().c_str(), package.c_str());
  return 0;
}

}  // namespace kverify
