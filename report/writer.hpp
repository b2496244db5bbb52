// The tolerance report: one cell per op x variant x dtype x width, written as JSON (schema:
// docs/report-schema.md), Markdown (stable order, for review in a diff) and a self-contained HTML
// page with inline SVG plots of error/bound against width.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace kverify {

struct ReportStat {
  double max = 0, p99 = 0, median = 0;  // over every compared element of the cell (inf: a NaN output)
};

struct ReportCase {  // one value recipe of a cell: one Case
  std::string line;  // the resolved Case line (./kverify run '<line>')
  std::string recipe;
  bool pass = false;
  std::string reason;  // why it failed (empty on pass)
  double max_ulp = 0, margin = 0;
  std::string note;  // a pass's accuracy note (Verdict::accuracy_note); empty otherwise
};

struct ReportCell {
  std::string op, variant, dtype;
  std::int64_t width = 0;
  std::string shape;  // as in the Case line (RxC; matmul MxNxK)
  std::int64_t elements = 0;
  ReportStat abs, rel, ulp;
  double margin = 0;  // worst |error| / bound (1 is the limit; exact expectations: 0 if equal, inf if not)
  double baseline_kernel = 0, baseline_eager = 0;  // error units, of the Case with the largest share
  double baseline_ratio = 0;                       // kernel / eager (0/0 = 0, x/0 = inf)
  double baseline_share = 0;                       // kernel / (2 eager + 2): 1 is the rule's limit
  std::string policy;
  bool pass = false;
  std::string worst_case;  // Case line holding the worst element
  std::int64_t worst_row = -1, worst_col = -1;
  std::vector<ReportCase> cases;
  double seconds = 0;  // JSON only (never in the Markdown rows)
};

struct Report {
  std::string backend, device, driver, commit, date, command;
  bool quick = false;
  double seconds = 0;
  std::vector<ReportCell> cells;
  // Cells a variant does not take (its limits, its declared domain): "op/variant dtype width W: why".
  std::vector<std::string> skipped;
};

inline constexpr const char* kReportSchema = "kverify-report/1";

// Cells as one shard of a sweep hands them to the process that merges the shards (`report
// --gpus`): every field, every double exact (hex floats, inf and NaN included), each with its index
// in the sweep's plan. Not the report's schema: between kverify's own processes only.
std::string cells_exchange_text(const std::vector<std::pair<std::size_t, ReportCell>>& cells);
// Throws std::runtime_error naming `where` when the text is not such an exchange.
std::vector<std::pair<std::size_t, ReportCell>> cells_from_exchange(const std::string& text, const std::string& where);

std::string report_json(const Report& r);
std::string report_markdown(const Report& r);
std::string report_html(const Report& r);
// One plot (margin against width, per variant) of an op and dtype; empty when the report has no cell.
std::string report_svg(const Report& r, const std::string& op, const std::string& dtype);

}  // namespace kverify
