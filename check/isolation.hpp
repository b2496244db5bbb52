// Fault isolation and sanitized runs for `kverify check` (docs/gpu.md).
//
// The parent (`kverify check`) runs the catalogue in child processes: one per backend x variant,
// a re-exec of this very binary with the internal flag --child (never fork() after CUDA is up).
// A child prints each Case line before the Case runs and its results as `@kv ...` protocol lines
// on stdout. If a child dies (a signal on emu, or a sticky CUDA error such as an illegal address
// on cuda), the Case that was running becomes a failing Verdict "device fault: ..." with its Case
// line, and a fresh child carries on with the Cases after it. With --sanitize TOOL the children
// run under `compute-sanitizer --tool TOOL`, whose reports (interleaved with the Case lines on the
// same stream) become failing Verdicts of the Case that was running.
#pragma once

#include <string>
#include <vector>

#include "check/catalogue.hpp"
#include "check/report.hpp"

namespace kverify {

// The parent: spawns the children, merges their results; returns the exit code.
int run_check_isolated(const CheckOptions& options);

// The child side: installs the Case-line trace and emits results as protocol lines.
void child_begin(Backend backend);
void child_part(int part);
void child_flush(CheckReport& report);  // emits what was added to the report since the last call
void child_done();

// compute-sanitizer: KVERIFY_COMPUTE_SANITIZER, else PATH, else /usr/local/cuda/bin; "" if none.
std::string find_compute_sanitizer();

// What one child said: the protocol parsed line by line (exposed for tests).
struct ChildTranscript {
  CheckReport report;
  int part = 0;                   // the part running last (0: boundary Cases, i: i-th property)
  int cases_in_part = 0;          // Case lines seen in that part
  std::string running;            // the last Case line (the one running when the child stopped)
  std::vector<std::string> ran;   // every Case line, in order (a failure's `before`)
  std::string fault;              // a "@kv fault" line: the CUDA error that ended the child
  std::string timeout;            // a "@kv timeout" line: the emu block that never ended
  bool done = false;              // the child finished normally
  std::vector<std::string> tail;  // the last non-protocol lines (e.g. an ASan report)
  // compute-sanitizer records, attributed to the Case line that was running
  std::vector<std::pair<std::string, std::vector<std::string>>> findings;
  void feed(const std::string& line);
};

}  // namespace kverify
