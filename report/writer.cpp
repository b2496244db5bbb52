#include "report/writer.hpp"
#include "core/json.hpp"
#include "core/markup.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace kverify {
namespace {

std::string fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

// JSON has no inf or NaN: null stands for "infinite" (a NaN or inf where a finite value was due).
// Report numbers carry 6 significant digits: what a cell's comparison (--compare) needs, and stable
// text in review.
Json number6(double v) { return std::isfinite(v) ? Json(std::stod(fmt("%.6g", v))) : Json(nullptr); }

std::string text_number(double v) { return std::isfinite(v) ? fmt("%.3g", v) : "inf"; }

Json json_stat(const ReportStat& s) {
  return {{"max", number6(s.max)}, {"p99", number6(s.p99)}, {"median", number6(s.median)}};
}

std::string width_label(std::int64_t w) {
  if (w >= 1024 && w % 1024 == 0) return std::to_string(w / 1024) + "K";
  return std::to_string(w);
}

// Ops and dtypes in the order the cells were swept (the sweep's order is the registry's).
std::vector<std::string> ops_of(const Report& r) {
  std::vector<std::string> ops;
  for (const auto& c : r.cells)
    if (std::find(ops.begin(), ops.end(), c.op) == ops.end()) ops.push_back(c.op);
  return ops;
}
std::vector<std::string> dtypes_of(const Report& r, const std::string& op) {
  std::vector<std::string> dtypes;
  for (const auto& d : {"f32", "f16", "bf16"})
    for (const auto& c : r.cells)
      if (c.op == op && c.dtype == d) {
        dtypes.push_back(d);
        break;
      }
  return dtypes;
}

std::string header_lines(const Report& r, bool markdown) {
  int failed = 0;
  for (const auto& c : r.cells) failed += !c.pass;
  const std::string b = markdown ? "- " : "";
  return b + "backend: " + r.backend + "\n" + b + "device: " + r.device + "\n" + b + "driver: " + r.driver + "\n" + b +
         "commit: " + r.commit + "\n" + b + "date: " + r.date + "\n" + b + "sweep: " + (r.quick ? "quick" : "full") +
         " (`" + r.command + "`)\n" + b + "cells: " + std::to_string(r.cells.size()) +
         ", failed: " + std::to_string(failed) + "\n";
}

}  // namespace

std::string report_json(const Report& r) {
  Json j = {{"schema", kReportSchema}, {"backend", r.backend}, {"device", r.device},
            {"driver", r.driver},      {"commit", r.commit},   {"date", r.date},
            {"command", r.command},    {"quick", r.quick},     {"seconds", number6(r.seconds)}};
  j["skipped"] = r.skipped;
  Json& cells = j["cells"] = Json::array();
  for (const auto& c : r.cells) {
    Json cases = Json::array();
    for (const auto& cs : c.cases)
      cases.push_back({{"recipe", cs.recipe},
                       {"pass", cs.pass},
                       {"max_ulp", number6(cs.max_ulp)},
                       {"margin", number6(cs.margin)},
                       {"reason", cs.reason},
                       {"accuracy_note", cs.note}});
    cells.push_back({{"op", c.op},
                     {"variant", c.variant},
                     {"dtype", c.dtype},
                     {"width", c.width},
                     {"shape", c.shape},
                     {"elements", c.elements},
                     {"abs", json_stat(c.abs)},
                     {"rel", json_stat(c.rel)},
                     {"ulp", json_stat(c.ulp)},
                     {"margin", number6(c.margin)},
                     {"pass", c.pass},
                     {"policy", c.policy},
                     {"baseline",
                      {{"kernel_units", number6(c.baseline_kernel)},
                       {"eager_units", number6(c.baseline_eager)},
                       {"ratio", number6(c.baseline_ratio)},
                       {"share", number6(c.baseline_share)}}},
                     {"worst", {{"case", c.worst_case}, {"row", c.worst_row}, {"col", c.worst_col}}},
                     {"seconds", std::stod(fmt("%.3f", c.seconds))},
                     {"cases", std::move(cases)}});
  }
  return json_text(j);
}

std::string report_markdown(const Report& r) {
  std::string md = "# Tolerance report: " + r.backend + "\n\n" + header_lines(r, true) +
                   "\nPer cell (op, variant, dtype, width): errors of every output element of every value recipe "
                   "against the exact reference. `margin` is the worst |error| / bound of the tolerance policy (1 is "
                   "the limit); `baseline` is the kernel's largest error over the eager composition's, in the "
                   "policy's error unit (the rule allows 2x + 2 units); `worst Case` replays the cell's worst element "
                   "with `./kverify run '<line>'`. Schema and field meanings: docs/report-schema.md.\n";
  std::vector<std::string> failures, notes;
  for (const auto& op : ops_of(r)) {
    md += "\n## " + op +
          "\n\n| variant | dtype | width | shape | max ulp | p99 ulp | median ulp | max abs | max rel | "
          "margin | baseline | result | worst Case |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (const auto& c : r.cells) {
      if (c.op != op) continue;
      md += "| " + c.variant + " | " + c.dtype + " | " + std::to_string(c.width) + " | " + c.shape + " | " +
            text_number(c.ulp.max) + " | " + text_number(c.ulp.p99) + " | " + text_number(c.ulp.median) + " | " +
            text_number(c.abs.max) + " | " + text_number(c.rel.max) + " | " + text_number(c.margin) + " | " +
            text_number(c.baseline_ratio) + " | " + (c.pass ? "pass" : "**FAIL**") + " | `" + c.worst_case + "` |\n";
      for (const auto& cs : c.cases) {
        if (!cs.pass) failures.push_back("- `" + cs.line + "`: " + cs.reason);
        if (cs.pass && !cs.note.empty()) notes.push_back("- `" + cs.line + "`: " + cs.note);
      }
    }
    md += "\nPolicies in force (at the widest width swept; n is the width):\n\n";
    std::map<std::string, std::string> policy;  // variant/dtype -> policy of its widest cell
    std::vector<std::string> order;
    for (const auto& c : r.cells) {
      if (c.op != op) continue;
      const std::string key = c.variant + " " + c.dtype;
      if (!policy.count(key)) order.push_back(key);
      policy[key] = c.policy + " (n=" + std::to_string(c.width) + ")";
    }
    for (const auto& k : order) md += "- " + k + ": " + policy[k] + "\n";
  }
  if (!r.skipped.empty()) {
    md += "\n## Skipped cells\n\nNot run: outside what the variant takes (never a pass).\n\n";
    for (const auto& s : r.skipped) md += "- " + s + "\n";
  }
  md += "\n## Failed Cases\n\n";
  if (failures.empty()) md += "None.\n";
  for (const auto& f : failures) md += f + "\n";
  md +=
      "\n## Accuracy notes\n\nPasses outside the derived bound, within the formula eager frameworks compute (a FAIL "
      "under --strict; `./kverify help tolerance`).\n\n";
  if (notes.empty()) md += "None.\n";
  for (const auto& n : notes) md += n + "\n";
  return md;
}

std::string report_svg(const Report& r, const std::string& op, const std::string& dtype) {
  std::vector<const ReportCell*> cells;
  std::vector<std::string> variants;
  std::int64_t max_width = 2;
  double max_margin = 0;
  for (const auto& c : r.cells) {
    if (c.op != op || c.dtype != dtype) continue;
    cells.push_back(&c);
    if (std::find(variants.begin(), variants.end(), c.variant) == variants.end()) variants.push_back(c.variant);
    max_width = std::max(max_width, c.width);
    if (std::isfinite(c.margin)) max_margin = std::max(max_margin, c.margin);
  }
  if (cells.empty()) return "";
  // y: error / bound, linear, the policy line at 1; points above the top are drawn on it.
  const double ymax = std::clamp(std::ceil(max_margin * 1.15 * 4) / 4, 1.25, 2.0);
  const double left = 56, right = 150, top = 30, bottom = 44, w = 720, h = 320;
  const double pw = w - left - right, ph = h - top - bottom;
  const double xmax = std::log2(static_cast<double>(max_width));
  const auto X = [&](std::int64_t width) { return left + pw * std::log2(static_cast<double>(width)) / xmax; };
  const auto Y = [&](double m) { return top + ph * (1 - std::min(std::isfinite(m) ? m : ymax, ymax) / ymax); };
  static const char* kColors[] = {"#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf"};

  std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" data-op=\"" + op + "\" data-dtype=\"" +
                  dtype + "\" width=\"" + fmt("%.0f", w) + "\" height=\"" + fmt("%.0f", h) + "\" viewBox=\"0 0 " +
                  fmt("%.0f", w) + " " + fmt("%.0f", h) + "\" font-family=\"sans-serif\" font-size=\"11\">\n";
  s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  s += "<text x=\"" + fmt("%.0f", left) + "\" y=\"18\" font-size=\"13\" font-weight=\"bold\">" + op + " " + dtype +
       " on " + r.backend + ": worst |error| / bound against width</text>\n";
  // Axes and grid.
  s += "<g class=\"axes\" stroke=\"#999\" stroke-width=\"1\">\n";
  s += "<line x1=\"" + fmt("%.1f", left) + "\" y1=\"" + fmt("%.1f", top + ph) + "\" x2=\"" + fmt("%.1f", left + pw) +
       "\" y2=\"" + fmt("%.1f", top + ph) + "\"/>\n<line x1=\"" + fmt("%.1f", left) + "\" y1=\"" + fmt("%.1f", top) +
       "\" x2=\"" + fmt("%.1f", left) + "\" y2=\"" + fmt("%.1f", top + ph) +
       "\"/>\n</g>\n<g class=\"ticks\" fill=\"#333\">\n";
  const int step = xmax > 12 ? 3 : xmax > 6 ? 2 : 1;
  for (int k = 0; k <= static_cast<int>(xmax); k += step) {
    const double x = X(std::int64_t{1} << k);
    s += "<line x1=\"" + fmt("%.1f", x) + "\" y1=\"" + fmt("%.1f", top) + "\" x2=\"" + fmt("%.1f", x) + "\" y2=\"" +
         fmt("%.1f", top + ph) + "\" stroke=\"#eee\"/><text x=\"" + fmt("%.1f", x) + "\" y=\"" +
         fmt("%.1f", top + ph + 14) + "\" text-anchor=\"middle\">" + width_label(std::int64_t{1} << k) + "</text>\n";
  }
  for (double m = 0; m <= ymax + 1e-9; m += ymax > 1.5 ? 0.5 : 0.25)
    s += "<line x1=\"" + fmt("%.1f", left) + "\" y1=\"" + fmt("%.1f", Y(m)) + "\" x2=\"" + fmt("%.1f", left + pw) +
         "\" y2=\"" + fmt("%.1f", Y(m)) + "\" stroke=\"#eee\"/><text x=\"" + fmt("%.1f", left - 6) + "\" y=\"" +
         fmt("%.1f", Y(m) + 4) + "\" text-anchor=\"end\">" + fmt("%.2g", m) + "</text>\n";
  s += "<text x=\"" + fmt("%.1f", left + pw / 2) + "\" y=\"" + fmt("%.1f", h - 8) +
       "\" text-anchor=\"middle\">width (columns; matmul: N = K), log scale</text>\n";
  s += "<text transform=\"translate(14," + fmt("%.1f", top + ph / 2) +
       ") rotate(-90)\" text-anchor=\"middle\">|error| / bound</text>\n</g>\n";
  // The policy: an element at 1 uses its whole bound.
  s += "<line class=\"policy\" x1=\"" + fmt("%.1f", left) + "\" y1=\"" + fmt("%.1f", Y(1)) + "\" x2=\"" +
       fmt("%.1f", left + pw) + "\" y2=\"" + fmt("%.1f", Y(1)) +
       "\" stroke=\"#d62728\" stroke-width=\"1.5\" stroke-dasharray=\"6 3\"><title>the tolerance policy: |error| = "
       "bound</title></line>\n<text x=\"" +
       fmt("%.1f", left + pw - 4) + "\" y=\"" + fmt("%.1f", Y(1) - 4) +
       "\" text-anchor=\"end\" fill=\"#d62728\">policy (bound)</text>\n";
  for (std::size_t v = 0; v < variants.size(); ++v) {
    const std::string color = kColors[v % std::size(kColors)];
    std::string points;
    for (const auto* c : cells)
      if (c->variant == variants[v]) points += fmt("%.1f,", X(c->width)) + fmt("%.1f ", Y(c->margin));
    // Variants often coincide: earlier series are drawn wider so that every one stays visible.
    const double stroke = 1.2 + 1.1 * static_cast<double>(variants.size() - 1 - v);
    s += "<g class=\"series\" data-variant=\"" + variants[v] + "\">\n<polyline points=\"" + points +
         "\" fill=\"none\" stroke=\"" + color + "\" stroke-width=\"" + fmt("%.1f", stroke) +
         "\" stroke-opacity=\"0.85\"/>\n";
    for (const auto* c : cells) {
      if (c->variant != variants[v]) continue;
      const std::string tip =
          "<title>" +
          markup_text(c->variant + " width " + std::to_string(c->width) + ": margin " + text_number(c->margin) +
                      ", max ulp " + text_number(c->ulp.max) + (c->pass ? ", pass" : ", FAIL") + "\n" + c->worst_case) +
          "</title>";
      const double x = X(c->width), y = Y(c->margin);
      if (c->pass) {
        s += "<circle class=\"cell pass\" cx=\"" + fmt("%.1f", x) + "\" cy=\"" + fmt("%.1f", y) +
             "\" r=\"2.5\" fill=\"" + color + "\">" + tip + "</circle>\n";
      } else {  // failed cells: a red ring and cross, whatever the variant's color
        s += "<g class=\"cell fail\"><circle cx=\"" + fmt("%.1f", x) + "\" cy=\"" + fmt("%.1f", y) +
             "\" r=\"6\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"2\">" + tip + "</circle><path d=\"M" +
             fmt("%.1f", x - 4) + "," + fmt("%.1f", y - 4) +
             " l8,8 m0,-8 l-8,8\" stroke=\"#d62728\" stroke-width=\"2\"/></g>\n";
      }
    }
    s += "</g>\n";
    const double ly = top + 14 + 16 * static_cast<double>(v);
    s += "<line x1=\"" + fmt("%.1f", left + pw + 12) + "\" y1=\"" + fmt("%.1f", ly) + "\" x2=\"" +
         fmt("%.1f", left + pw + 30) + "\" y2=\"" + fmt("%.1f", ly) + "\" stroke=\"" + color +
         "\" stroke-width=\"2\"/><text x=\"" + fmt("%.1f", left + pw + 34) + "\" y=\"" + fmt("%.1f", ly + 4) + "\">" +
         variants[v] + "</text>\n";
  }
  const double ly = top + 14 + 16 * static_cast<double>(variants.size());
  s += "<circle cx=\"" + fmt("%.1f", left + pw + 21) + "\" cy=\"" + fmt("%.1f", ly) +
       "\" r=\"5\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"2\"/><text x=\"" + fmt("%.1f", left + pw + 34) +
       "\" y=\"" + fmt("%.1f", ly + 4) + "\">failed cell</text>\n</svg>\n";
  return s;
}

std::string report_html(const Report& r) {
  std::string page =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>kverify tolerance report: " +
      markup_text(r.backend) +
      "</"
      "title>\n<style>\nbody{font-family:sans-serif;margin:1.5em;color:#222}\ntable{border-collapse:collapse;font-size:"
      "12px}\ntd,th{border:1px solid #ccc;padding:2px 6px;text-align:right}\ntd.l,th.l{text-align:left}\ntr.fail{"
      "background:#fdd}\ncode{font-size:11px}\n.plots{display:flex;flex-wrap:wrap;gap:8px}\n</style>\n</head>\n<body>\n"
      "<h1>Tolerance report: " +
      markup_text(r.backend) + "</h1>\n<pre>" + markup_text(header_lines(r, false)) +
      "</pre>\n<p>Each point is one cell (op, variant, dtype, width): the worst |error| / bound over every element of "
      "every value recipe, against the exact reference. The dashed red line is the tolerance policy (1: an element "
      "used its whole bound); failed cells are circled in red. Hover a point for its worst Case line.</p>\n";
  for (const auto& op : ops_of(r)) {
    page += "<h2 id=\"" + op + "\">" + op + "</h2>\n<div class=\"plots\">\n";
    for (const auto& d : dtypes_of(r, op)) page += report_svg(r, op, d);
    page +=
        "</div>\n<details><summary>cells of " + op +
        "</summary>\n<table>\n<tr><th class=\"l\">variant</th><th "
        "class=\"l\">dtype</th><th>width</th><th>max ulp</th><th>p99 ulp</th><th>median ulp</th><th>max abs</th><th>"
        "max rel</th><th>margin</th><th>baseline</th><th class=\"l\">result</th><th class=\"l\">worst Case</th></tr>\n";
    for (const auto& c : r.cells) {
      if (c.op != op) continue;
      page += std::string("<tr") + (c.pass ? "" : " class=\"fail\"") + "><td class=\"l\">" + c.variant +
              "</td><td class=\"l\">" + c.dtype + "</td><td>" + std::to_string(c.width) + "</td><td>" +
              text_number(c.ulp.max) + "</td><td>" + text_number(c.ulp.p99) + "</td><td>" + text_number(c.ulp.median) +
              "</td><td>" + text_number(c.abs.max) + "</td><td>" + text_number(c.rel.max) + "</td><td>" +
              text_number(c.margin) + "</td><td>" + text_number(c.baseline_ratio) + "</td><td class=\"l\">" +
              (c.pass ? "pass" : "FAIL") + "</td><td class=\"l\"><code>" + markup_text(c.worst_case) +
              "</code></td></tr>\n";
    }
    page += "</table>\n</details>\n";
  }
  return page + "</body>\n</html>\n";
}

namespace {

std::string exact(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%a", v);  // inf, -inf, nan, or a hex float: strtod reads each back exactly
  return buf;
}
double exact_of(const Json& j) { return std::strtod(j.get<std::string>().c_str(), nullptr); }
Json exact_stat(const ReportStat& s) { return {exact(s.max), exact(s.p99), exact(s.median)}; }
ReportStat stat_of(const Json& j) { return {exact_of(j.at(0)), exact_of(j.at(1)), exact_of(j.at(2))}; }

}  // namespace

std::string cells_exchange_text(const std::vector<std::pair<std::size_t, ReportCell>>& cells) {
  Json out = Json::array();
  for (const auto& [index, c] : cells) {
    Json cases = Json::array();
    for (const auto& cs : c.cases)
      cases.push_back({cs.line, cs.recipe, cs.pass, cs.reason, exact(cs.max_ulp), exact(cs.margin), cs.note});
    out.push_back({{"index", index},
                   {"cell",
                    {c.op,
                     c.variant,
                     c.dtype,
                     c.width,
                     c.shape,
                     c.elements,
                     exact_stat(c.abs),
                     exact_stat(c.rel),
                     exact_stat(c.ulp),
                     exact(c.margin),
                     exact(c.baseline_kernel),
                     exact(c.baseline_eager),
                     exact(c.baseline_ratio),
                     exact(c.baseline_share),
                     c.policy,
                     c.pass,
                     c.worst_case,
                     c.worst_row,
                     c.worst_col,
                     std::move(cases),
                     exact(c.seconds)}}});
  }
  return out.dump();
}

std::vector<std::pair<std::size_t, ReportCell>> cells_from_exchange(const std::string& text, const std::string& where) {
  std::vector<std::pair<std::size_t, ReportCell>> out;
  try {
    for (const Json& e : Json::parse(text)) {
      const Json& j = e.at("cell");
      ReportCell c;
      c.op = j.at(0);
      c.variant = j.at(1);
      c.dtype = j.at(2);
      c.width = j.at(3);
      c.shape = j.at(4);
      c.elements = j.at(5);
      c.abs = stat_of(j.at(6));
      c.rel = stat_of(j.at(7));
      c.ulp = stat_of(j.at(8));
      c.margin = exact_of(j.at(9));
      c.baseline_kernel = exact_of(j.at(10));
      c.baseline_eager = exact_of(j.at(11));
      c.baseline_ratio = exact_of(j.at(12));
      c.baseline_share = exact_of(j.at(13));
      c.policy = j.at(14);
      c.pass = j.at(15);
      c.worst_case = j.at(16);
      c.worst_row = j.at(17);
      c.worst_col = j.at(18);
      for (const Json& cs : j.at(19))
        c.cases.push_back({cs.at(0), cs.at(1), cs.at(2), cs.at(3), exact_of(cs.at(4)), exact_of(cs.at(5)), cs.at(6)});
      c.seconds = exact_of(j.at(20));
      out.emplace_back(e.at("index").get<std::size_t>(), std::move(c));
    }
  } catch (const Json::exception& e) {
    throw std::runtime_error(where + " is not a shard's cells: " + e.what());
  }
  return out;
}

}  // namespace kverify
