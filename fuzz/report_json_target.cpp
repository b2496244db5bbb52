// The report_json target: any bytes as the report.json that `kverify report --compare` reads
// (report/report.hpp: report_cells). It must give a report's cells or a one-line InputError that
// names the file and what is wrong, never crash, hang or throw anything else; and what --compare
// would print of it must hold no control character and replay nothing but a canonical Case line.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/case.hpp"
#include "core/error.hpp"
#include "fuzz/targets.hpp"
#include "report/report.hpp"
#include "report/writer.hpp"

namespace kverify::fuzz {
namespace {

InputResult run_report_json(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  InputResult r;
  r.case_line = shown(text.substr(0, 160));
  try {
    const std::vector<std::string> lines = report_shown_text(text, "the input");
    for (const auto& line : lines) {
      // Untrusted text reaches the terminal only without control characters (escape sequences), and
      // a shell command line only as the canonical text of a Case this build parses.
      for (const char ch : line)
        if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) {
          r.finding = true;
          r.report = "a control character reaches the terminal: " + shown(line) + " for input " + r.case_line;
          return r;
        }
      constexpr std::string_view kReplay = "replay: ./kverify run '";
      if (line.rfind(kReplay, 0) == 0) {
        const std::string body = line.substr(kReplay.size(), line.size() - kReplay.size() - 1);
        if (line.back() != '\'' || body.find('\'') != std::string::npos || parse_case(body).to_text() != body) {
          r.finding = true;
          r.report = "a replay line that is not a canonical Case: " + shown(line) + " for input " + r.case_line;
          return r;
        }
      }
    }
    r.summary = "a report of " + std::to_string(report_cells(text, "the input")) + " cell(s)";
  } catch (const InputError& e) {
    const std::string message = e.what();
    if (message.empty() || message.find('\n') != std::string::npos) {
      r.finding = true;
      r.report = "InputError is not one line: " + shown(message) + " for input " + r.case_line;
      return r;
    }
    r.summary = "InputError: " + message;
  }
  return r;  // any other exception: run_input reports it as a finding
}

// A report as kverify report writes one, cut down to the fields --compare reads: two cells, one with
// a null margin (an infinite one), and the same with each kind of damage the reader must name.
std::vector<std::string> report_seeds() {
  const nlohmann::json cell = {
      {"op", "softmax"}, {"variant", "rows_vec"}, {"dtype", "f32"}, {"width", 33},
      {"margin", 0.25},  {"ulp", {{"max", 2}}},   {"pass", true},   {"worst", {{"case", "op=softmax shape=3x33"}}}};
  nlohmann::json inf_cell = cell;
  inf_cell["width"] = 1;
  inf_cell["margin"] = nullptr;
  inf_cell["pass"] = false;
  const nlohmann::json report = {{"schema", kReportSchema}, {"backend", "emu"},
                                 {"device", "emu"},         {"commit", "0123abc"},
                                 {"date", "2026-01-01"},    {"cells", nlohmann::json::array({cell, inf_cell})}};
  std::vector<std::string> out = {report.dump(), report.dump(2)};
  nlohmann::json twice = report;
  twice["cells"].push_back(cell);  // a cell listed twice
  out.push_back(twice.dump());
  nlohmann::json missing = report;
  missing["cells"][0].erase("margin");
  out.push_back(missing.dump());
  nlohmann::json wrong = report;
  wrong["cells"][0]["width"] = "33";  // a field of the wrong type
  out.push_back(wrong.dump());
  nlohmann::json other = report;
  other["schema"] = "kverify-check/1";
  out.push_back(other.dump());
  nlohmann::json crafted = report;  // what a crafted report would slip into a terminal or a shell
  crafted["backend"] = "\x1b[2J\x1b]0;title\x07emu";
  crafted["cells"][1]["worst"]["case"] = "op=softmax shape=3x33'; touch owned; echo '";
  out.push_back(crafted.dump());
  for (const char* s : {"", "{", "[]", "null", "{\"schema\": \"kverify-report/1\"}", "[[[[[[[[[[]]]]]]]]]]"})
    out.emplace_back(s);
  return out;
}

std::vector<std::string> report_words() {
  return {"\"schema\"",  kReportSchema, "\"backend\"", "\"device\"", "\"commit\"", "\"date\"", "\"cells\"", "\"op\"",
          "\"variant\"", "\"dtype\"",   "\"width\"",   "\"margin\"", "\"ulp\"",    "\"max\"",  "\"pass\"",  "\"worst\"",
          "\"case\"",    "null",        "true",        "false",      "{",          "}",        "[",         "]",
          ":",           ",",           "1e308",       "-0",         "\"\\u0000\""};
}

struct Register {
  Register() { linked_target(Kind::report_json) = {&run_report_json, &report_seeds, &report_words}; }
} register_report_json;

}  // namespace
}  // namespace kverify::fuzz
