// `kverify report`: the option table and the adapter to report/report.hpp.
#include <charconv>
#include <optional>
#include <tuple>
#include <utility>

#include "core/error.hpp"
#include "report/report.hpp"
#include "tools/command.hpp"

namespace kverify::cli {
namespace {

// "I/N" with 0 <= I < N <= 1024.
std::optional<std::pair<int, int>> parse_shard(std::string_view v) {
  const auto slash = v.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  int i = -1, n = 0;
  const auto a = std::from_chars(v.data(), v.data() + slash, i);
  const auto b = std::from_chars(v.data() + slash + 1, v.data() + v.size(), n);
  if (a.ec != std::errc() || a.ptr != v.data() + slash || b.ec != std::errc() || b.ptr != v.data() + v.size() ||
      i < 0 || n < 1 || n > 1024 || i >= n)
    return std::nullopt;
  return std::pair{i, n};
}
std::string shard_problem(std::string_view v) { return parse_shard(v) ? "" : "I/N with 0 <= I < N <= 1024"; }

constexpr Option kOptions[] = {
    {"--backend", "emu|cuda", ValueKind::choice, "where the kernels run", "emu", "emu|cuda"},
    {"--op", "NAME", ValueKind::op, "only this op"},
    {"--variant", "NAME", ValueKind::variant,
     "only this variant (a mutant of kernels/<op>/mutants/ is swept only when named)"},
    {"--dtype", "f32|f16|bf16", ValueKind::dtype, "only this dtype"},
    {"--quick", "", ValueKind::flag, "a small sweep for CI (widths 1, 2, 33, 1025; two recipes; two rows)"},
    {"--out", "DIR", ValueKind::text, "where the files go",
     "reports/emu, or for cuda reports/h200 on an H200, else reports/<device name slug>"},
    {"--compare", "", ValueKind::flag, "per cell, what got more or less accurate from A.json to B.json (the operands)"},
    {"--gpus", "all|N", ValueKind::text,
     "sweep on N GPUs of this host side by side (all: every visible one), a process per GPU pinned\n"
     "with CUDA_VISIBLE_DEVICES; on emu N processes; the report is that of one process",
     "one process", "all or N", 0, 0, &gpus_value_problem},
    // A shard of a --gpus sweep (report/report.hpp): cells shard, shard + shards, ... into --cells-out.
    {"--shard", "I/N", ValueKind::text, "", "", "", 0, 0, &shard_problem, false, true},
    {"--cells-out", "PATH", ValueKind::text, "", "", "", 0, 0, nullptr, false, true},
    kStrict,
    kNoRaceDetector,
};

int report(const ParsedOptions& p) {
  if (p.has("--compare")) {
    if (p.operands.size() != 2 || p.values.size() != 1)
      throw InputError(
          "--compare takes exactly two report files and no other option (accepted: --compare A.json B.json)");
    return compare_reports(p.operands[0], p.operands[1]);
  }
  if (!p.operands.empty())
    throw InputError("unexpected argument " + shown(p.operands[0]) + " (report files are operands of --compare only)");
  ReportOptions o;
  if (p.text("--backend", "emu") == "cuda") o.backend = Backend::cuda;
  o.op = p.text("--op", "");
  o.variant = p.text("--variant", "");
  if (const auto d = p.get("--dtype")) o.dtype = *parse_dtype(*d);
  o.quick = p.has("--quick");
  o.out_dir = p.text("--out", "");
  o.gpus = p.text("--gpus", "");
  if (const auto shard = p.get("--shard")) {
    std::tie(o.shard, o.shards) = *parse_shard(*shard);
    o.cells_out = p.text("--cells-out", "");
    if (o.cells_out.empty()) throw InputError("option --shard needs --cells-out PATH (where the shard's cells go)");
  }
  o.command = "kverify report";
  for (const auto& [name, values] : p.values)
    for (std::size_t i = 0; i < std::max<std::size_t>(1, values.size()); ++i)
      if (name != "--gpus")  // how the sweep was spread is not what it measured
        o.command += " " + name + (values.empty() ? "" : " " + values[i]);
  return run_report(o);
}

}  // namespace

const Command kReportCommand{
    "report",
    {"[A.json B.json]", 0, 2},
    "tolerance reports per op, variant, dtype and width (JSON, Markdown, HTML)",
    "Sweeps every production variant x dtype x width (tail classes 1, 2, 3, 2^k-1, 2^k, 2^k+1 up to the\n"
    "variant's widest: its column limit, else the op's report width) with a few rows and several value\n"
    "recipes per cell, each a Case through the pipeline (guards, exact reference, tolerance policy,\n"
    "baseline rule). Per cell: max / p99 / median abs, rel and ulp error, the worst element's Case line,\n"
    "the baseline ratio, the policy and its margin (worst |error| / bound), pass/fail. Writes report.json\n"
    "(docs/report-schema.md), report.md and report.html (inline SVG plots of margin against width per op\n"
    "and dtype) and plots/<op>_<dtype>.svg. Progress goes to stderr, one line per cell.\n"
    "  ./kverify report --compare A.json B.json   what got more or less accurate between two reports\n",
    kOptions,
    "0 every cell passed (compare: no cell crossed its policy), 1 a cell failed (compare: a cell that\n"
    "passed in A fails in B), 2 bad input or unreadable/mismatched files, 3 the backend cannot run here",
    &report};

}  // namespace kverify::cli
