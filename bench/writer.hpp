// The bench's results as a table on screen, JSON and Markdown.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bench/plan.hpp"  // Goal
#include "bench/stats.hpp"

namespace kverify::bench {

struct BaselineResult {
  std::string name, detail;
  std::optional<Timing> timing;
  std::string error;  // why it could not run
};

struct BenchRow {
  std::string op, variant, dtype, shape, case_line;
  // The gate over the timed Case and its extra Cases.
  int gate_cases = 0, gate_failed = 0, gate_not_run = 0;  // not run: too big for this machine, say
  std::string gate_coverage;                              // the timed Case's reference coverage
  double gate_seconds = 0;
  std::vector<std::string> failing_lines;  // reproduce lines of the failing Cases
  std::optional<Timing> timing;            // none when refused or not timed
  std::string not_timed_reason;
  // Set when the timing itself was refused (a repetition's outputs not the gated ones, work left
  // running after the window, a time no device can reach): the reason, with the cheat class.
  std::string refusal;
  int repetitions_checked = 0;        // timed repetitions whose images matched the gate's
  bool fresh_inputs = false;          // each repetition on its own rotation of the rows
  double ideal_bytes = 0, flops = 0;  // flops 0 except matmul
  double read_bytes = 0;              // of ideal_bytes, what must come from DRAM (the inputs)
  std::optional<BaselineResult> baseline;
  std::optional<Goal> goal;  // the op's bench goal (OpSpec::bench_goal), for its shapes
};

struct BenchReport {
  std::string date, commit, backend, device, driver, runtime, clocks_before, clocks_after, host;
  std::string note;  // e.g. "cannot time: no GPU ..."
  int reps = 0, warmup = 0;
  std::size_t flush_bytes = 0;
  double ceiling_gbps = 0;  // 0: not measured
  std::optional<Timing> ceiling_timing;
  std::size_t ceiling_bytes = 0;
  double gate_seconds = 0, timing_seconds = 0;
  std::vector<BenchRow> rows;
  std::vector<std::string> skipped;  // Cases no variant could take
};

std::string format_table(const BenchReport& r);
std::string to_json(const BenchReport& r);
std::string to_markdown(const BenchReport& r);

}  // namespace kverify::bench
