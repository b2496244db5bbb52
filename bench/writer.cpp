#include "bench/writer.hpp"
#include "bench/device.hpp"  // kWallRepetitions
#include "core/json.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace kverify::bench {
namespace {

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

double gbps(const BenchRow& r) { return r.timing ? r.ideal_bytes / (r.timing->median * 1e-3) / 1e9 : 0; }

std::string gate_cell(const BenchRow& r) {
  if (r.gate_failed) return "FAIL " + std::to_string(r.gate_failed) + "/" + std::to_string(r.gate_cases);
  if (r.gate_not_run) return "NOT RUN " + std::to_string(r.gate_not_run) + "/" + std::to_string(r.gate_cases);
  return "pass " + std::to_string(r.gate_cases) + " Cases";
}

// Ours over the baseline in speed: baseline time / our time (> 1: ours is faster).
std::string ratio_cell(const BenchRow& r) {
  if (!r.baseline) return "-";
  if (!r.baseline->timing) return "not run";
  if (!r.timing) return "-";
  return fmt("%.2fx", r.baseline->timing->median / r.timing->median);
}

// The row's measure against its goal: the fraction of the ceiling, or ours over the baseline.
std::optional<double> goal_measure(const BenchRow& r, double ceiling_gbps) {
  if (!r.goal || !r.timing) return std::nullopt;
  if (!r.goal->of_baseline) {
    if (ceiling_gbps <= 0) return std::nullopt;
    return gbps(r) / ceiling_gbps;
  }
  if (!r.baseline || !r.baseline->timing) return std::nullopt;
  return r.baseline->timing->median / r.timing->median;
}

std::string goal_cell(const BenchRow& r) {
  if (!r.goal) return "-";
  return r.goal->of_baseline ? fmt(">= %.2fx base", r.goal->value) : fmt(">= %.2f ceil", r.goal->value);
}

// Met, or the gap to the goal (in the goal's unit); "-" when there is nothing to compare.
std::string met_cell(const BenchRow& r, double ceiling_gbps) {
  const auto m = goal_measure(r, ceiling_gbps);
  if (!m) return r.goal ? "not measured" : "-";
  return *m >= r.goal->value - 0.005 ? "met" : fmt("gap %.2f", r.goal->value - *m);
}

Json timing_json(const Timing& t) {
  Json j = {{"median_ms", t.median},
            {"p10_ms", t.p10},
            {"p90_ms", t.p90},
            {"min_ms", t.min},
            {"reps", t.ms.size()},
            {"device_busy_after_stop_median_ms", t.busy_after_median},
            {"flush_median_ms", t.flush_ms}};
  if (!std::isnan(t.wall_median)) j["wall_clock_median_ms"] = t.wall_median;  // null in JSON otherwise
  return j;
}

}  // namespace

std::string format_table(const BenchReport& r) {
  std::ostringstream o;
  char line[512];
  std::snprintf(line, sizeof line,
                "%-12s %-14s %-5s %-16s %-14s %10s %10s %10s %9s %6s %8s  %-18s %10s %9s  %-15s %s\n", "op", "variant",
                "dtype", "shape", "gate", "median ms", "p10", "p90", "GB/s", "ceil", "TFLOP/s", "baseline", "base ms",
                "ours/base", "goal", "");
  o << line;
  for (const auto& row : r.rows) {
    const bool t = row.timing.has_value();
    std::snprintf(line, sizeof line,
                  "%-12s %-14s %-5s %-16s %-14s %10s %10s %10s %9s %6s %8s  %-18s %10s %9s  %-15s %s\n", row.op.c_str(),
                  row.variant.c_str(), row.dtype.c_str(), row.shape.c_str(), gate_cell(row).c_str(),
                  t ? fmt("%.4f", row.timing->median).c_str()
                    : (row.gate_failed || !row.refusal.empty() ? "REFUSED" : "not timed"),
                  t ? fmt("%.4f", row.timing->p10).c_str() : "-", t ? fmt("%.4f", row.timing->p90).c_str() : "-",
                  t ? fmt("%.0f", gbps(row)).c_str() : "-",
                  t && r.ceiling_gbps > 0 ? fmt("%.2f", gbps(row) / r.ceiling_gbps).c_str() : "-",
                  t && row.flops > 0 ? fmt("%.1f", row.flops / (row.timing->median * 1e-3) / 1e12).c_str() : "-",
                  row.baseline ? row.baseline->name.c_str() : "-",
                  row.baseline && row.baseline->timing ? fmt("%.4f", row.baseline->timing->median).c_str() : "-",
                  ratio_cell(row).c_str(), goal_cell(row).c_str(), met_cell(row, r.ceiling_gbps).c_str());
    o << line;
  }
  return o.str();
}

std::string to_json(const BenchReport& r) {
  Json j = {{"date", r.date},
            {"commit", r.commit},
            {"backend", r.backend},
            {"device", r.device},
            {"driver", r.driver},
            {"runtime", r.runtime},
            {"host", r.host},
            {"clocks_before", r.clocks_before},
            {"clocks_after", r.clocks_after},
            {"note", r.note},
            {"reps", r.reps},
            {"warmup", r.warmup},
            {"l2_flush_bytes", r.flush_bytes},
            {"gate_seconds", r.gate_seconds},
            {"timing_seconds", r.timing_seconds}};
  j["ceiling"] = r.ceiling_timing ? Json{{"what", "cudaMemcpyAsync device to device, bytes read + written"},
                                         {"bytes_copied", r.ceiling_bytes},
                                         {"gbps", r.ceiling_gbps},
                                         {"timing", timing_json(*r.ceiling_timing)}}
                                  : Json(nullptr);
  Json& results = j["results"] = Json::array();
  for (const auto& row : r.rows) {
    Json x = {{"op", row.op},
              {"variant", row.variant},
              {"dtype", row.dtype},
              {"shape", row.shape},
              {"case", row.case_line},
              {"gate",
               {{"cases", row.gate_cases},
                {"failed", row.gate_failed},
                {"not_run", row.gate_not_run},
                {"coverage", row.gate_coverage},
                {"seconds", row.gate_seconds},
                {"failing", row.failing_lines}}},
              {"ideal_bytes", row.ideal_bytes}};
    if (row.flops > 0) x["flops"] = row.flops;
    x["read_bytes"] = row.read_bytes;
    x["repetitions_checked"] = row.repetitions_checked;
    x["fresh_inputs_per_repetition"] = row.fresh_inputs;
    if (!row.refusal.empty()) x["refused"] = row.refusal;
    if (row.timing) {
      x["timing"] = timing_json(*row.timing);
      x["gbps"] = gbps(row);
      if (r.ceiling_gbps > 0) x["fraction_of_ceiling"] = gbps(row) / r.ceiling_gbps;
      if (row.flops > 0) x["tflops"] = row.flops / (row.timing->median * 1e-3) / 1e12;
    } else {
      x["timing"] = nullptr;
      x["not_timed"] = row.not_timed_reason;
    }
    if (row.goal) {
      Json g = {{"of", row.goal->of_baseline ? "baseline" : "ceiling"}, {"value", row.goal->value}};
      if (const auto m = goal_measure(row, r.ceiling_gbps)) {
        g["measured"] = *m;
        g["met"] = *m >= row.goal->value - 0.005;
      }
      x["goal"] = g;
    }
    if (row.baseline) {
      Json b = {{"name", row.baseline->name}, {"detail", row.baseline->detail}};
      if (row.baseline->timing) {
        b["timing"] = timing_json(*row.baseline->timing);
        if (row.timing) b["ours_speed_over_baseline"] = row.baseline->timing->median / row.timing->median;
      } else {
        b["error"] = row.baseline->error;
      }
      x["baseline"] = b;
    }
    results.push_back(std::move(x));
  }
  j["skipped"] = r.skipped;
  return json_text(j);
}

std::string to_markdown(const BenchReport& r) {
  std::ostringstream o;
  o << "# kverify bench\n\n"
    << "- date: " << r.date << "\n- commit: " << r.commit << "\n- device: " << r.device << " (" << r.backend
    << "), driver " << r.driver << ", runtime " << r.runtime << "\n- host: " << r.host
    << "\n- clocks before: " << r.clocks_before << "\n- clocks after: " << r.clocks_after << "\n";
  if (r.ceiling_timing)
    o << "- ceiling: device-to-device copy " << fmt("%.0f", r.ceiling_gbps) << " GB/s (bytes read + written, "
      << r.ceiling_bytes << " bytes copied, median of " << r.ceiling_timing->ms.size() << ")\n";
  o << "- timing: " << r.warmup << " warm-up runs, then " << r.reps
    << " repetitions timed with CUDA events on one stream, an L2 flush (" << r.flush_bytes
    << "-byte read, which leaves no dirty line) before each; median, p10, p90; each repetition starts from "
       "poisoned outputs (and, where the op's rows are independent, its rows rotated by a secret shift) and must "
       "end with the gate's device images, rotated alike; the device idle after the stop event, no L2 kept "
       "persisting, and "
    << kWallRepetitions
    << " more repetitions timed by the host's clock in agreement "
       "(docs/bench.md, what the bench refuses)\n"
    << "- gate: " << fmt("%.1f", r.gate_seconds) << " s; timing: " << fmt("%.1f", r.timing_seconds) << " s\n";
  if (!r.note.empty()) o << "- **" << r.note << "**\n";
  o << "\nGB/s = ideal bytes (the op's model: by default every input read once and every output written once) / "
       "median time; ceil = that / the copy ceiling; "
       "ours/base = baseline median / our median (above 1: ours is faster); goal: the op's bench goal "
       "(reports/h200/perf.md) "
       "for its "
       "shapes, on the ceiling fraction or on ours/base (met within 0.005, else the gap; what limits each gap: "
       "reports/h200/perf.md).\n\n";
  int goals = 0, met = 0;
  for (const auto& row : r.rows)
    if (const auto m = goal_measure(row, r.ceiling_gbps)) {
      ++goals;
      met += *m >= row.goal->value - 0.005;
    }
  if (goals) o << "Goals met: " << met << " of " << goals << " measured.\n\n";
  o << "| op | variant | dtype | shape | gate | median ms | p10 | p90 | GB/s | ceil | TFLOP/s | baseline | base ms | "
       "ours/base | goal | met |\n"
    << "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& row : r.rows) {
    const bool t = row.timing.has_value();
    o << "| " << row.op << " | " << row.variant << " | " << row.dtype << " | " << row.shape << " | " << gate_cell(row)
      << " | "
      << (t                                         ? fmt("%.4f", row.timing->median)
          : row.gate_failed || !row.refusal.empty() ? "**REFUSED**"
                                                    : "not timed")
      << " | " << (t ? fmt("%.4f", row.timing->p10) : "-") << " | " << (t ? fmt("%.4f", row.timing->p90) : "-") << " | "
      << (t ? fmt("%.0f", gbps(row)) : "-") << " | "
      << (t && r.ceiling_gbps > 0 ? fmt("%.2f", gbps(row) / r.ceiling_gbps) : "-") << " | "
      << (t && row.flops > 0 ? fmt("%.1f", row.flops / (row.timing->median * 1e-3) / 1e12) : "-") << " | "
      << (row.baseline ? row.baseline->name : "-") << " | "
      << (row.baseline && row.baseline->timing ? fmt("%.4f", row.baseline->timing->median) : "-") << " | "
      << ratio_cell(row) << " | " << goal_cell(row) << " | " << met_cell(row, r.ceiling_gbps) << " |\n";
  }
  bool any_refused = false;
  for (const auto& row : r.rows)
    if (!row.refusal.empty()) {
      if (!any_refused) o << "\n## Timings refused\n\n";
      any_refused = true;
      o << "- " << row.case_line << ": " << row.refusal << "\n";
    }
  o << "\n## Gate coverage\n\n";
  for (const auto& row : r.rows) {
    o << "- " << row.case_line << ": " << gate_cell(row) << ", " << fmt("%.1f", row.gate_seconds) << " s; "
      << row.gate_coverage << "\n";
    for (const auto& f : row.failing_lines) o << "  - failing: `" << f << "`\n";
  }
  bool any_base = false;
  for (const auto& row : r.rows)
    if (row.baseline && !any_base) {
      any_base = true;
      o << "\n## Baselines\n\n";
    }
  if (any_base) {
    std::string seen;
    for (const auto& row : r.rows)
      if (row.baseline && seen.find(row.baseline->name + " " + row.dtype + ";") == std::string::npos) {
        seen += row.baseline->name + " " + row.dtype + ";";
        o << "- " << row.baseline->name << " (" << row.dtype << "): " << row.baseline->detail
          << (row.baseline->error.empty() ? "" : " — not run: " + row.baseline->error) << "\n";
      }
  }
  if (!r.skipped.empty()) {
    o << "\n## Not planned\n\n";
    for (const auto& s : r.skipped) o << "- " << s << "\n";
  }
  return o.str();
}

}  // namespace kverify::bench
