// `kverify check`, the main job: on each backend, (1) the boundary Cases (a fixed list per op:
// tail widths, layouts, recipes, schedules) on every production variant, with a table of worst
// ULP, margin and baseline share per op/variant/dtype, and (2) the property catalogue
// (properties/catalogue.hpp) through RapidCheck, with a table of property x variant. Progress on
// stderr, tables on stdout, everything as JSON too.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/case.hpp"

namespace kverify {

struct CheckOptions {
  std::vector<Backend> backends;  // empty: emu, plus cuda when a GPU is present
  bool backends_requested = false;
  std::optional<std::string> op;
  std::optional<std::string> variant;  // also a mutant, by name
  std::optional<DType> dtype;
  std::optional<std::string> property;  // one property of the catalogue
  std::uint64_t seed = 2026;            // RapidCheck's seed
  int cases = 30;                       // RapidCheck cases per property (--budget N)
  double seconds = 0;                   // or a time budget for all properties (--budget Ns)
  std::string json_path = "kverify-check.json";
  std::string junit_path;  // --junit: the JUnit XML file ("" writes none)
  bool boundary_cases = true;
  bool quick = false;  // emu: the boundary Cases past the grid limits are SKIPPED (past_grid_limits)
  // Fault isolation (check/isolation.hpp): the parent runs each backend x variant in a child
  // process; --no-isolate runs everything in this process.
  bool isolate = true;
  std::string sanitize;  // memcheck, racecheck, initcheck or synccheck: children under compute-sanitizer
  // --gpus: "" (one child at a time), "all" or N: the backend x variant children on N devices side
  // by side (each cuda child pinned to its own; on emu N processes), merged in the one-at-a-time order.
  std::string gpus;
  // Internal, for the children: --child (print protocol lines), --first-part N (0: the boundary
  // Cases, i: the i-th property of the op), --skip-cases N (boundary Cases already done).
  bool child = false;
  int first_part = 0;
  int skip_cases = 0;
};

// Prints progress and a summary table; returns the exit code (0, 1 or 3).
int run_check_catalogue(const CheckOptions& options);

}  // namespace kverify
