#include "core/home.hpp"

#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>

#include "core/child_process.hpp"

namespace kverify {

namespace fs = std::filesystem;

namespace {
std::optional<Home>& current() {
  static std::optional<Home> h;
  return h;
}
}  // namespace

Home locate_home(const HomePlaces& places) {
  Home h{places.data ? places.data : "", places.package ? places.package : ""};
  // kverify's own binary is found from where it lies: an installed one's prefix can have moved
  // since the build (a package extracted under another root), and a build tree's checkout too (a
  // copy of it on the GPU machine, build-gpu/tools/kverify).
  if (places.installed_data && *places.installed_data) {
    const fs::path exe = this_program();
    std::error_code ec;
    if (!exe.empty()) {
      const fs::path prefix = exe.parent_path().parent_path();
      if (fs::exists(prefix / places.installed_data / "kverify-data", ec))
        h = {prefix / places.installed_data, prefix / places.installed_package};
      else if (fs::exists(prefix.parent_path() / "fuzz" / "target_names.hpp", ec))
        h = {prefix.parent_path(), prefix};
    }
  }
  if (const char* root = std::getenv("KVERIFY_ROOT"); root && *root) h.data = root;
  return h;
}

void set_home(Home home) { current() = std::move(home); }

const Home& home() {
  if (!current()) current() = locate_home({});
  return *current();
}

Provenance provenance() {
  const fs::path data = home().data;
  if (data.empty()) return {};
  // An install's mark first: its folder may lie inside some other git work tree.
  Provenance p;
  std::ifstream mark(data / "kverify-data");
  for (std::string line; std::getline(mark, line);) {
    if (line.rfind("commit ", 0) == 0) p.commit = line.substr(7);
    if (line.rfind("origin ", 0) == 0) p.origin = line.substr(7);
  }
  if (mark.is_open()) return p;
  return {output_of({"git", "-C", data.string(), "rev-parse", "HEAD"}),
          output_of({"git", "-C", data.string(), "remote", "get-url", "origin"})};
}

}  // namespace kverify
