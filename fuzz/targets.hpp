// The fuzz targets' common harness: run one input, replay files, write seeds. The libFuzzer
// entry (libfuzzer_main.cpp) and the standalone runner without libFuzzer (standalone_main.cpp,
// for g++/nvcc builds such as the GPU one) both call it.
//
// A finding is anything that must never happen: a failing Verdict (printed with its reproduce
// line), a skipped Verdict on a backend that is present, an exception other than InputError, a
// Case text that does not round-trip, a CLI exit code outside 0..3. The libFuzzer entry aborts
// on one so that libFuzzer saves the input; ASan/UBSan reports abort by themselves.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/case.hpp"
#include "fuzz/case_decoder.hpp"
#include "fuzz/target_names.hpp"

namespace kverify::fuzz {

enum class Kind { op, case_parser, cli, report_json };

struct Target {
  std::string_view name;
  Kind kind;
  const OpSpec* op = nullptr;  // Kind::op
  // The planted-bug demo: the one variant it fuzzes, a mutant (empty for every other target).
  std::string_view planted;
};

// The target of that name, or null (a LinkedTarget whose code this binary does not link: null).
const Target* find_target(std::string_view name);

struct RunOptions {
  Backend backend = Backend::emu;
  const Variant* pinned = nullptr;  // --variant / KVERIFY_FUZZ_VARIANT
};

struct InputResult {
  bool finding = false;
  std::string case_line;  // the decoded Case (op targets), or the input as text (text targets)
  std::string report;     // for a finding: what happened (a Verdict ends with its reproduce line)
  std::string summary;    // one line: PASS/SKIPPED/InputError/... for replay output
};

// Reads KVERIFY_FUZZ_BACKEND (emu|cuda) and KVERIFY_FUZZ_VARIANT; throws InputError on a bad value.
RunOptions options_from_environment(const Target& target);
// Throws InputError when the variant name is not one of the target's.
const Variant* variant_for(const Target& target, std::string_view name, Backend backend);

// What the target's inputs decode with: its op, the variants a choice names, auto or not.
DecodeOptions decode_options(const Target& target, const RunOptions& options);

// Runs one input. Never throws.
InputResult run_input(const Target& target, const std::uint8_t* data, std::size_t size, const RunOptions& options);
// A Case line (a .case file next to a regression input): parsed with the target's variants and run.
InputResult run_case_line(const Target& target, std::string_view line, const RunOptions& options);
// The decoded Case of an op target's input, without running it ("" for text targets).
std::string decode_only(const Target& target, const std::uint8_t* data, std::size_t size, const RunOptions& options);

// Replays files and folders (recursively; `<name>.case` files are Case lines, anything else an
// input). Prints one line per input ("PASS  <case>") and the full report of each finding.
// Returns 0 when nothing was found, 1 on a finding, 2 when a path cannot be read.
int replay(const Target& target, std::span<const std::string> paths, const RunOptions& options);

// The boundary Cases the seeds of corpus/<target>/ encode (op targets), or seed inputs (text
// targets), and writing them as files seed-NNN into `dir`.
std::vector<std::string> seed_lines(const Target& target);
int write_seeds(const Target& target, const std::string& dir, const RunOptions& options);

// The text targets that need more than the pipeline (the command line, the report reader): their
// code is linked into their own binary only (fuzz/cli_target.cpp, fuzz/report_json_target.cpp) and
// registers itself here; elsewhere find_target does not know them.
struct LinkedTarget {
  InputResult (*run)(const std::uint8_t* data, std::size_t size) = nullptr;
  std::vector<std::string> (*seeds)() = nullptr;  // seed inputs
  std::vector<std::string> (*words)() = nullptr;  // its dictionary's words beyond the Case text's
};
LinkedTarget& linked_target(Kind kind);

}  // namespace kverify::fuzz
