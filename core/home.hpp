// Where this kverify's own files are, for the commands that read them: the seed corpus and the fuzz
// options (fuzz, mutants), kverify's kernel sources (a CI annotation's file and line), the commit a
// report names, the package a new project builds against (new).
//   - a build tree (build/tools/kverify): the checkout it was configured from, and that build folder;
//   - an installed kverify (<prefix>/bin/kverify): <prefix>/share/kverify and its CMake package folder;
//   - a project's own kverify built against a package: what that package's config named.
// main() says which (set_home); KVERIFY_ROOT overrides the data folder.
#pragma once

#include <filesystem>
#include <string>

namespace kverify {

struct Home {
  std::filesystem::path data;     // corpus/, fuzz/options/, kernels/<op>/: a checkout or <prefix>/share/kverify
  std::filesystem::path package;  // the folder of kverifyConfig.cmake ("" when unknown)
};

// The compiled-in places of the program's main(), each "" when it has none.
struct HomePlaces {
  const char* data = "";     // the checkout (kverify's tree), or the package's data folder (a project)
  const char* package = "";  // the build folder, or the package's config folder (a project)
  // Relative to <prefix>, for a binary installed as <prefix>/bin/kverify (kverify's own only).
  const char* installed_data = "";
  const char* installed_package = "";
};

// Where this program's files are: for kverify's own binary (installed places given), the prefix it
// is installed in (its data folder holds the mark `kverify-data`) or the checkout its build tree
// lies in (<checkout>/<build>/tools/kverify); else the compiled-in places. KVERIFY_ROOT overrides
// the data folder.
Home locate_home(const HomePlaces& places);
void set_home(Home home);
// What set_home set; before that (a test binary, a fuzz target), locate_home({}).
const Home& home();

// The kverify this program was built from: the commit and the repository's URL, from the
// mark an install wrote (kverify-data), else from the checkout's git; each "" when neither says.
struct Provenance {
  std::string commit;
  std::string origin;
};
Provenance provenance();

}  // namespace kverify
