// `kverify report`: tolerance reports per op x variant x dtype x width (reports/<backend>/report.
// {json,md,html}), and `kverify report --compare A.json B.json`, the regression view between two runs.
#pragma once

#include <span>
#include <string_view>

namespace kverify {

int report_command(std::span<const std::string_view> args);
inline constexpr std::string_view kReportUsage =
    "report [--backend emu|cuda] [--op O] [--variant V] [--dtype D] [--quick] [--out DIR] | --compare A.json B.json";
inline constexpr std::string_view kReportSummary = "tolerance reports per op, variant, dtype and width (JSON, Markdown, HTML)";
inline constexpr std::string_view kReportHelp =
    "Sweeps every production variant x dtype x width (tail classes 1, 2, 3, 2^k-1, 2^k, 2^k+1 up to the\n"
    "variant's widest: its column limit, else 262144; matmul_relu's width is N = K with M = 2, up to 1025\n"
    "on emu and 4097 on cuda) with a few rows and several value recipes per cell, each a Case through the\n"
    "pipeline (guards, exact reference, tolerance policy, baseline rule). Per cell: max / p99 / median abs,\n"
    "rel and ulp error, the worst element's Case line, the baseline ratio, the policy and its margin\n"
    "(worst |error| / bound), pass/fail. Writes report.json (docs/report-schema.md), report.md and\n"
    "report.html (inline SVG plots of margin against width per op and dtype) and plots/<op>_<dtype>.svg.\n"
    "Options:\n"
    "  --backend emu|cuda      where the kernels run (default emu)\n"
    "  --op NAME, --variant NAME, --dtype f32|f16|bf16   restrict the sweep (a mutant of\n"
    "                          kernels/<op>/mutants/ is swept only when --variant names it)\n"
    "  --quick                 a small sweep for CI (widths 1, 2, 33, 1025; two recipes; two rows)\n"
    "  --out DIR               where the files go (default reports/emu, or for cuda reports/h200 on an\n"
    "                          H200, else reports/<device name slug>)\n"
    "  --compare A.json B.json per cell what got more or less accurate from A to B\n"
    "Progress goes to stderr, one line per cell.\n"
    "Exit: 0 every cell passed (compare: no cell crossed its policy), 1 a cell failed (compare: a cell\n"
    "that passed in A fails in B), 2 bad input or unreadable/mismatched files, 3 the backend cannot run here.\n";

}  // namespace kverify
