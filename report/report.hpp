// `kverify report`: tolerance reports per op x variant x dtype x width (reports/<backend>/report.
// {json,md,html}, docs/report-schema.md), and `kverify report --compare A.json B.json`, the
// regression view between two runs.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/case.hpp"

namespace kverify {

struct ReportOptions {
  Backend backend = Backend::emu;
  std::string op, variant;  // "": every one
  std::optional<DType> dtype;
  bool quick = false;
  std::string out_dir;  // "": reports/<device>/
  std::string command;  // the command line, recorded in the report
  // --gpus: "" (this process), "all" or N: the cells dealt to N child processes side by side, one
  // per device (pinned with CUDA_VISIBLE_DEVICES on cuda), merged back in sweep order: the same report.
  std::string gpus;
  // A shard child's part (internal): cells shard, shard + shards, ... of the plan, written to
  // cells_out (report/writer.hpp's exchange) instead of a report.
  int shard = -1, shards = 0;
  std::string cells_out;
};
// Returns the exit code: 0 every cell passed, 1 a cell failed, 3 the backend cannot run here.
int run_report(const ReportOptions& options);
// Returns 0, or 1 when a cell that passed in A fails in B; InputError on unreadable files.
int compare_reports(const std::string& a, const std::string& b);
// A report.json's text as --compare reads it: its number of cells, or an InputError that names
// `where` and what is wrong (the fuzz target report_json gives it any bytes).
std::size_t report_cells(std::string_view json_text, const std::string& where);
// What --compare prints of a report's text fields, each as it would reach a terminal: the header
// fields, each cell's key, and each cell's replay line (the fuzz target report_json holds them to
// "no control character, and a replay only of a canonical Case line").
std::vector<std::string> report_shown_text(std::string_view json_text, const std::string& where);

}  // namespace kverify
