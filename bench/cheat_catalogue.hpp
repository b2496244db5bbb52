// `kverify mutants --bench`: the cheat catalogue (variants registered with CHEAT "<class>", e.g.
// bench/tests/cheats/) through `kverify bench`, each at its op's bench shapes (the --quick ones
// without a GPU): every timing must be refused (docs/bench.md, what the bench refuses).
#pragma once

#include <string>
#include <vector>

namespace kverify {

struct CheatCatalogueOptions {
  std::vector<std::string> only;  // op/name or name; empty: every cheat of this build
  std::string out_dir;            // each cheat's bench JSON and Markdown, and cheats.md
};

// Returns 0 every cheat refused, 1 one got a time (or its gate refused it: a cheat must pass the
// gate), 2 bad input (no cheat in this build, an --only that names none), 3 some could not be
// judged here (no GPU: only the repetitions run, on emu).
int run_cheat_catalogue(const CheatCatalogueOptions& options);

}  // namespace kverify
