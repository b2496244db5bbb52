#include "report/report.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/child_process.hpp"
#include "core/error.hpp"
#include "core/exit_codes.hpp"
#include "core/gpu_slots.hpp"
#include "core/home.hpp"
#include "core/input_file.hpp"
#include "core/output_file.hpp"
#include "core/progress.hpp"
#include "kernels/registry.hpp"
#include "pipeline/execute.hpp"
#include "pipeline/run_case.hpp"
#include "reference/baseline.hpp"
#include "reference/compare.hpp"
#include "report/writer.hpp"

#if KVERIFY_HAVE_CUDA
#include "runtime/cuda/device.hpp"
#endif

namespace kverify {
namespace {

constexpr std::uint64_t kSeed = 1;

using Options = ReportOptions;

// Value recipes per op (OpSpec::report_recipes): an ordinary one first, then the extreme ones that
// stress the op's policy.
std::vector<std::string> recipes_for(const OpSpec& op, bool quick) {
  std::vector<std::string> r(op.report_recipes.begin(), op.report_recipes.end());
  if (quick && r.size() > 2) r.resize(2);
  return r;
}

// Every tail class from 1 to the widest: 1, 2, 3, then 2^k - 1, 2^k, 2^k + 1, and the limit itself
// and one below it when the variant has one.
std::vector<std::int64_t> widths_for(std::int64_t widest, bool quick) {
  std::vector<std::int64_t> w;
  if (quick) {
    for (std::int64_t x : {1, 2, 33, 1025})
      if (x <= widest) w.push_back(x);
    return w;
  }
  for (std::int64_t x : {1, 2, 3}) w.push_back(x);
  for (std::int64_t p = 4; p - 1 <= widest; p *= 2)
    for (std::int64_t x : {p - 1, p, p + 1})
      if (x <= widest) w.push_back(x);
  w.push_back(widest - 1);
  w.push_back(widest);
  std::sort(w.begin(), w.end());
  w.erase(std::unique(w.begin(), w.end()), w.end());
  return w;
}

// The sizes token of a cell: the op's report_shape, else the width dimension at the width and
// every other dimension small (a count dimension 8 rows, 2 past width 1024 or with --quick; a tail
// dimension 8), each moved inside its domain; nullopt when the width is outside the width
// dimension's domain (no such cell).
std::optional<std::string> cell_sizes(const OpSpec& op, std::int64_t width, bool quick) {
  if (op.report_shape) return std::string(op.shape_form.empty() ? "dims=" : "shape=") + op.report_shape(width, quick);
  const std::size_t wd = op.report_width_dim >= 0 ? static_cast<std::size_t>(op.report_width_dim) : op.dims.size() - 1;
  const auto inside = [](const DimSpec& d, std::int64_t n) {
    n = std::clamp(n, d.min, d.max);
    n = (n + d.multiple - 1) / d.multiple * d.multiple;
    return n > d.max ? n - d.multiple : n;
  };
  std::vector<std::int64_t> sizes;
  for (std::size_t d = 0; d < op.dims.size(); ++d) {
    if (d == wd) {
      if (inside(op.dims[d], width) != width) return std::nullopt;
      sizes.push_back(width);
    } else {
      sizes.push_back(inside(op.dims[d], op.dims[d].draw == DimDraw::count && (quick || width > 1024) ? 2 : 8));
    }
  }
  return op.sizes_token(sizes);
}

Case make_case(const Variant& v, DType dtype, std::int64_t width, const std::string& recipe, Backend backend,
               bool quick) {
  const auto sizes = cell_sizes(*find_op(v.op), width, quick);
  if (!sizes)
    throw std::logic_error("report: width " + std::to_string(width) + " is outside op " + std::string(v.op) +
                           "'s domain");
  std::string line = "op=" + std::string(v.op) + " variant=" + std::string(v.name) +
                     " dtype=" + std::string(name(dtype)) + " " + *sizes;
  line += " values=" + recipe + " seed=" + std::to_string(kSeed) + " backend=" + std::string(name(backend));
  return parse_case(line);
}

// Percentiles by nth_element (the vector is reordered).
ReportStat stat_of(std::vector<double>& v) {
  ReportStat s;
  if (v.empty()) return s;
  const auto at = [&](double q) {
    const auto k = static_cast<std::size_t>(q * static_cast<double>(v.size() - 1));
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
    return v[k];
  };
  s.max = *std::max_element(v.begin(), v.end());
  s.p99 = at(0.99);
  s.median = at(0.5);
  return s;
}

// How much of its bound an element used; an exact expectation has no bound: 0 when met, inf when not.
double element_margin(const ElementError& e) {
  return e.margin >= 0 ? e.margin : (e.abs == 0 && e.ulp == 0 ? 0 : INFINITY);
}

ReportCell run_cell(const Variant& v, DType dtype, std::int64_t width, const Options& o) {
  const auto start = std::chrono::steady_clock::now();
  ReportCell cell{std::string(v.op), std::string(v.name), std::string(name(dtype)), width};
  std::vector<double> abs, rel, ulp;
  double worst_key = -1, worst_ulp = -1, worst_share = -1;
  cell.pass = true;
  for (const auto& recipe : recipes_for(*find_op(v.op), o.quick)) {
    const Case c = make_case(v, dtype, width, recipe, o.backend, o.quick);
    std::vector<ElementError> elements;
    const Verdict verdict = run_case(c, &elements);
    if (cell.shape.empty()) {
      for (auto n : c.shape) cell.shape += (cell.shape.empty() ? "" : "x") + std::to_string(n);
      cell.policy = verdict.tolerance;
    }
    ReportCase rc{verdict.reproduce, recipe, verdict.outcome == Outcome::pass,
                  verdict.outcome == Outcome::pass ? "" : verdict.reason};
    for (const auto& g : verdict.guards) rc.reason += " [" + g.guard + "] " + g.detail + ";";
    if (!rc.pass) rc.reason += " replay: ./kverify run '" + verdict.reproduce + "'";
    rc.max_ulp = verdict.stats.max_ulp;
    if (verdict.outcome == Outcome::pass) rc.note = verdict.accuracy_note;
    for (const auto& e : elements) {
      abs.push_back(e.abs);
      rel.push_back(e.rel);
      ulp.push_back(e.ulp);
      const double key = element_margin(e);
      rc.margin = std::max(rc.margin, key);
      if (key > worst_key || (key == worst_key && e.ulp > worst_ulp)) {
        worst_key = key;
        worst_ulp = e.ulp;
        cell.worst_case = verdict.reproduce;
        cell.worst_row = e.row;
        cell.worst_col = e.col;
      }
    }
    if (cell.worst_case.empty()) cell.worst_case = verdict.reproduce;  // no compared element (all NaN contract)
    // The baseline rule of the Case that used the largest share of its allowance.
    const double k = verdict.stats.baseline_kernel_ulps, e = verdict.stats.baseline_eager_ulps;
    if (k >= 0 && e >= 0) {
      const double share = k / (kBaselineFactor * e + kBaselineSlack);
      if (share > worst_share) {
        worst_share = share;
        cell.baseline_kernel = k;
        cell.baseline_eager = e;
        cell.baseline_share = share;
        cell.baseline_ratio = e > 0 ? k / e : (k > 0 ? INFINITY : 0);
      }
    }
    cell.pass = cell.pass && rc.pass;
    cell.cases.push_back(std::move(rc));
  }
  cell.elements = static_cast<std::int64_t>(abs.size());
  cell.margin = std::max(worst_key, 0.0);
  cell.abs = stat_of(abs);
  cell.rel = stat_of(rel);
  cell.ulp = stat_of(ulp);
  cell.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return cell;
}

std::string slug(const std::string& s) {
  std::string out;
  for (char ch : s) {
    if (std::isalnum(static_cast<unsigned char>(ch)))
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    else if (!out.empty() && out.back() != '-')
      out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.empty() ? "cuda" : out;
}

void describe_machine(Report& r, Backend backend) {
  if (const char* c = std::getenv("KVERIFY_COMMIT"); c && *c)
    r.commit = c;
  else
    r.commit = provenance().commit;
  if (r.commit.empty()) r.commit = "unknown";
  if (backend == Backend::emu) {
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line, cpu = "unknown CPU";
    while (std::getline(cpuinfo, line))
      if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos) {
        cpu = line.substr(line.find(':') + 2);
        break;
      }
    r.device = "emu (the CUDA model on the CPU): " + cpu;
    r.driver = "none (emu)";
    return;
  }
#if KVERIFY_HAVE_CUDA
  const auto& s = cuda::device_status();
  r.device = s.name;
  std::string smi = output_of({"nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"});
  smi = smi.substr(0, smi.find('\n'));  // the first GPU's
  r.driver = (smi.empty() ? std::string("unknown") : smi) + " (CUDA driver API " +
             std::to_string(s.driver_version / 1000) + "." + std::to_string(s.driver_version % 1000 / 10) +
             ", runtime " + std::to_string(s.runtime_version / 1000) + "." +
             std::to_string(s.runtime_version % 1000 / 10) + ")";
#endif
}

// The sweep as shards.size() child processes of this program (`report --shard i/n`), each pinned to
// its device; their cells, with their plan indices, sorted back into sweep order.
std::vector<std::pair<std::size_t, ReportCell>> sweep_in_shards(const Options& o, const GpuSlots& slots) {
  std::error_code ec;
  const std::filesystem::path scratch =
      std::filesystem::temp_directory_path(ec) / ("kverify-report-" + std::to_string(getpid()));
  std::filesystem::create_directories(scratch, ec);
  if (ec) throw std::runtime_error("cannot create " + scratch.string() + " for the report's shards: " + ec.message());
  const std::string exe = this_program();
  if (exe.empty()) throw std::runtime_error("cannot find this executable (/proc/self/exe) to start the shards");
  const std::size_t n = slots.size();
  std::vector<std::vector<std::pair<std::size_t, ReportCell>>> parts(n);
  std::vector<std::string> failures(n);
  run_on_slots(n, slots, [&](std::size_t shard, std::size_t slot) {
    const std::string cells = (scratch / ("shard-" + std::to_string(shard) + ".json")).string();
    std::vector<std::string> argv = {exe,           "report",
                                     "--backend",   std::string(name(o.backend)),
                                     "--shard",     std::to_string(shard) + "/" + std::to_string(n),
                                     "--cells-out", cells,
                                     "--out",       (scratch / ("out-" + std::to_string(shard))).string()};
    if (!o.op.empty()) argv.insert(argv.end(), {"--op", o.op});
    if (!o.variant.empty()) argv.insert(argv.end(), {"--variant", o.variant});
    if (o.dtype) argv.insert(argv.end(), {"--dtype", std::string(name(*o.dtype))});
    if (o.quick) argv.push_back("--quick");
    const std::string tag = slots.tag(slot);
    const ChildResult r = run_child(argv, {.env = slots.env(slot), .on_line = [&](const std::string& line) {
                                             std::fprintf(stderr, "%s%s\n", tag.c_str(), line.c_str());
                                           }});
    if (r.exit_code != kPass) {
      failures[shard] =
          "shard " + std::to_string(shard) + " of " + std::to_string(n) +
          (r.signal ? " ended by signal " + std::to_string(r.signal) : " exited " + std::to_string(r.exit_code));
      return;
    }
    std::ifstream in(cells);
    parts[shard] =
        cells_from_exchange(std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()), cells);
  });
  std::filesystem::remove_all(scratch, ec);
  std::string failed;
  for (const auto& f : failures)
    if (!f.empty()) failed += (failed.empty() ? "" : "; ") + f;
  if (!failed.empty()) throw std::runtime_error("the report's shards did not finish: " + failed);
  std::vector<std::pair<std::size_t, ReportCell>> all;
  for (auto& p : parts) std::move(p.begin(), p.end(), std::back_inserter(all));
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return all;
}

int sweep(const Options& o) {
  if (std::string why; !backend_available(o.backend, &why)) {
    std::printf("NOT RUN  report on %s: %s\n", std::string(name(o.backend)).c_str(), why.c_str());
    return kNotRun;
  }
  Report report;
  report.backend = std::string(name(o.backend));
  report.quick = o.quick;
  report.command = o.command;
  describe_machine(report, o.backend);
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  report.date = date;
  std::string out_dir = o.out_dir;
  if (out_dir.empty())
    out_dir = "reports/" + (o.backend == Backend::emu                         ? std::string("emu")
                            : report.device.find("H200") != std::string::npos ? std::string("h200")
                                                                              : slug(report.device));

  // The outputs' folder first: a sweep of minutes must not end in "cannot write".
  // Checked, not made: a command refused later leaves no empty folder behind.
  if (const auto problem = output_folder_problem(out_dir + "/plots")) throw InputError("--out: " + *problem);

  // The plan first, so progress can say "cell i of n".
  struct Planned {
    const Variant* variant;
    DType dtype;
    std::int64_t width;
  };
  std::vector<Planned> plan;
  for (const OpSpec* op : all_ops()) {
    if (!o.op.empty() && o.op != op->name) continue;
    for (const auto& v : all_variants()) {
      // Production variants; a mutant only when named (to see what a failing cell looks like).
      if (v.op != op->name || (!o.variant.empty() && o.variant != v.name) || (v.mutant && o.variant != v.name))
        continue;
      if (o.backend == Backend::emu ? !v.on_emu : !v.launch_cuda) continue;
      const std::int64_t cap = o.backend == Backend::emu ? op->report_widest_emu : op->report_widest_cuda;
      for (DType d : {DType::f32, DType::f16, DType::bf16}) {
        if (!v.supports(d) || (o.dtype && *o.dtype != d)) continue;
        for (auto w : widths_for(std::min(v.max_cols, cap), o.quick)) {
          if (!cell_sizes(*op, w, o.quick)) continue;  // not a width of this op
          // The variant's own limits (rows, columns, shared memory per dtype) decide, as in run_case.
          if (auto why = unsupported(v, make_case(v, d, w, "normal", o.backend, o.quick), o.backend)) {
            report.skipped.push_back(std::string(op->name) + "/" + std::string(v.name) + " " + std::string(name(d)) +
                                     " width " + std::to_string(w) + ": " + *why);
            continue;
          }
          plan.push_back({&v, d, w});
        }
      }
    }
  }
  if (plan.empty())
    throw InputError("no production variant matches --op/--variant/--dtype on " + report.backend +
                     " (see ./kverify list)");

  const auto start = std::chrono::steady_clock::now();
  // This process's cells: all of them, or a shard's share (every shards-th from shard on).
  const std::size_t first = o.shards > 0 ? static_cast<std::size_t>(o.shard) : 0;
  const std::size_t step = o.shards > 0 ? static_cast<std::size_t>(o.shards) : 1;
  const GpuSlots slots = o.shards > 0 ? gpu_slots(1, {}, false)
                                      : slots_for_option(o.gpus, o.backend == Backend::cuda, cuda_device_count());
  std::vector<std::pair<std::size_t, ReportCell>> done;
  if (slots.size() > 1) {
    done = sweep_in_shards(o, slots);
  } else {
    for (std::size_t i = first; i < plan.size(); i += step) {
      const auto& p = plan[i];
      done.emplace_back(i, run_cell(*p.variant, p.dtype, p.width, o));
      const auto& c = done.back().second;
      const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      const auto mine = static_cast<std::int64_t>((plan.size() - first + step - 1) / step);
      const std::string left = time_left(static_cast<std::int64_t>(done.size()), mine, elapsed);
      std::fprintf(stderr, "[%zu/%zu %5.0fs] %s/%s %s width %lld: margin %.3g, max ulp %.3g %s%s%s\n", i + 1,
                   plan.size(), elapsed, c.op.c_str(), c.variant.c_str(), c.dtype.c_str(),
                   static_cast<long long>(c.width), c.margin, c.ulp.max, c.pass ? "pass" : "FAIL",
                   left.empty() ? "" : "; ", left.c_str());
    }
  }
  if (o.shards > 0) {  // a shard child: its cells go to the parent, which writes the report
    if (const auto error = write_output_file(o.cells_out, cells_exchange_text(done))) {
      std::fprintf(stderr, "kverify report: %s\n", error->c_str());
      return kBadInput;
    }
    return kPass;
  }
  if (done.size() != plan.size())
    throw std::runtime_error("the report's shards returned " + std::to_string(done.size()) + " of its " +
                             std::to_string(plan.size()) + " cells");
  int failed = 0;
  for (auto& [index, cell] : done) {
    failed += !cell.pass;
    report.cells.push_back(std::move(cell));
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  OutputFiles files;  // all of them or none: never a new report.json beside an old report.html
  std::size_t count = 0;
  const auto put = [&](const std::string& path, std::string text) {
    files.add(path, std::move(text));
    ++count;
  };
  put(out_dir + "/report.json", report_json(report));
  put(out_dir + "/report.md", report_markdown(report));
  put(out_dir + "/report.html", report_html(report));
  for (const OpSpec* op : all_ops())
    for (const char* d : {"f32", "f16", "bf16"})
      if (const auto svg = report_svg(report, std::string(op->name), d); !svg.empty())
        put(out_dir + "/plots/" + std::string(op->name) + "_" + d + ".svg", svg);
      else  // an older sweep's plot must not stand beside this report as if it were its own
        files.retire(out_dir + "/plots/" + std::string(op->name) + "_" + d + ".svg");
  std::error_code made;
  std::filesystem::create_directories(out_dir + "/plots", made);  // commit() says why if this failed
  if (const auto error = files.commit()) {
    std::fprintf(stderr, "kverify report: %s (no file of the report was replaced)\n", error->c_str());
    return kBadInput;
  }

  std::printf(
      "%zu cells, %d failed, %zu skipped (outside what the variant takes: report.md lists them), %.0f s on "
      "%s (%s)\n",
      report.cells.size(), failed, report.skipped.size(), report.seconds, report.backend.c_str(),
      report.device.c_str());
  for (const auto& c : report.cells)
    if (!c.pass)
      std::printf("FAIL  %s/%s %s width %lld: replay ./kverify run '%s'\n", c.op.c_str(), c.variant.c_str(),
                  c.dtype.c_str(), static_cast<long long>(c.width), c.worst_case.c_str());
  std::printf("written: %s/report.json, report.md, report.html, plots/ (%zu files)\n", out_dir.c_str(), count);
  return failed ? kFail : kPass;
}

// ---- --compare -------------------------------------------------------------------------------

struct Loaded {
  std::string backend, device, commit, date;
  struct Cell {
    double margin = 0, max_ulp = 0;
    bool pass = false;
    std::string worst_case;
  };
  std::map<std::string, Cell> cells;  // "op/variant dtype width W"
  std::vector<std::string> order;
};

double number_or_inf(const nlohmann::json& j) { return j.is_null() ? INFINITY : j.get<double>(); }

// A cell's width: a whole number from 1 to 2^63 - 1 (JSON numbers can be anything; converting
// one out of range would be undefined behaviour).
long long width_of(const nlohmann::json& w, const std::string& where) {
  const bool in_range = w.is_number_unsigned()  ? w.get<std::uint64_t>() >= 1 && w.get<std::uint64_t>() <= INT64_MAX
                        : w.is_number_integer() ? w.get<std::int64_t>() >= 1
                                                : false;
  if (!in_range)
    throw InputError("--compare: " + where + " has a cell width " + w.dump().substr(0, 40) +
                     " (accepted: a whole number from 1 to 2^63 - 1)");
  return w.get<long long>();
}

// The command that replays a report's worst Case: only a Case this build parses, written back as
// its canonical line (whatever else the file holds never reaches a shell command line).
std::string replay_line(const std::string& case_line) {
  try {
    return "replay: ./kverify run '" + parse_case(case_line).to_text() + "'";
  } catch (const InputError&) {
    return "replay: none (the report's worst Case " + shown(case_line) + " is not a Case line this build reads)";
  }
}

Loaded parse_report(std::string_view text, const std::string& where);

Loaded load_report(const std::string& path) {
  std::error_code ec;
  // Anything readable but a folder: a pipe such as <(git show REV:reports/emu/report.json) too.
  if (!std::filesystem::exists(path, ec) || std::filesystem::is_directory(path, ec))
    throw InputError("--compare: cannot read " + path + ": " +
                     (std::filesystem::exists(path, ec) ? "a folder" : "no such file") +
                     " (accepted: a report.json written by kverify report)");
  constexpr std::size_t kMostReportBytes = 256u << 20;  // a full sweep's report.json is a few MB
  try {
    return parse_report(read_bounded(path, kMostReportBytes, "a report.json written by kverify report"), path);
  } catch (const InputError& e) {
    if (std::string_view(e.what()).rfind("--compare: ", 0) == 0) throw;
    throw InputError("--compare: " + std::string(e.what()));
  }
}

Loaded parse_report(std::string_view text, const std::string& where) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const std::exception& e) {  // a parse error
    throw InputError("--compare: " + where + " is not valid JSON: " + std::string(e.what()).substr(0, 200));
  }
  if (!j.is_object() || !j.contains("schema") || j["schema"] != kReportSchema)
    throw InputError("--compare: " + where + " is not a tolerance report (accepted: JSON with \"schema\": \"" +
                     kReportSchema + "\", as written by kverify report)");
  Loaded r;
  try {
    // Text from a file is shown, never replayed: control characters (terminal escapes) as '?', long
    // fields cut with their length.
    const auto text = [](const nlohmann::json& field) { return printable(field.get<std::string>(), 200); };
    r.backend = text(j.at("backend"));
    r.device = text(j.at("device"));
    r.commit = text(j.at("commit"));
    r.date = text(j.at("date"));
    for (const auto& c : j.at("cells")) {
      const std::string key = text(c.at("op")) + "/" + text(c.at("variant")) + " " + text(c.at("dtype")) + " width " +
                              std::to_string(width_of(c.at("width"), where));
      Loaded::Cell cell{number_or_inf(c.at("margin")), number_or_inf(c.at("ulp").at("max")), c.at("pass").get<bool>(),
                        c.at("worst").at("case").get<std::string>()};
      if (!r.cells.emplace(key, cell).second)
        throw InputError("--compare: " + where + " lists the cell " + key + " twice");
      r.order.push_back(key);
    }
  } catch (const nlohmann::json::exception& e) {
    throw InputError("--compare: " + where +
                     " lacks a field of the report schema (docs/report-schema.md): " + e.what());
  }
  return r;
}

int compare(const std::string& path_a, const std::string& path_b) {
  const Loaded a = load_report(path_a), b = load_report(path_b);
  std::size_t common = 0;
  for (const auto& key : a.order) common += b.cells.count(key);
  if (common == 0)
    throw InputError(
        "--compare: " + path_a + " and " + path_b +
        " have no cell in common (accepted: two reports of overlapping sweeps, same op/variant/dtype/width)");
  std::printf("A: %s  %s (%s), commit %s, %s\nB: %s  %s (%s), commit %s, %s\n", path_a.c_str(), a.backend.c_str(),
              a.device.c_str(), a.commit.c_str(), a.date.c_str(), path_b.c_str(), b.backend.c_str(), b.device.c_str(),
              b.commit.c_str(), b.date.c_str());
  if (a.backend != b.backend) std::printf("note: different backends (%s, %s)\n", a.backend.c_str(), b.backend.c_str());
  // A change counts when the margin moves by more than 1% of the bound or the worst ulp changes.
  int better = 0, worse = 0, same = 0, crossed = 0, recovered = 0;
  std::string lines;
  for (const auto& key : a.order) {
    const auto it = b.cells.find(key);
    if (it == b.cells.end()) continue;
    const auto& x = a.cells.at(key);
    const auto& y = it->second;
    const double dm = (std::isinf(x.margin) && std::isinf(y.margin)) ? 0 : y.margin - x.margin;
    const bool changed = std::fabs(dm) > 0.01 || x.max_ulp != y.max_ulp || x.pass != y.pass;
    if (!changed) {
      ++same;
      continue;
    }
    const char* tag = "";
    if (x.pass && !y.pass)
      tag = "CROSSED POLICY (passed in A, fails in B)", ++crossed;
    else if (!x.pass && y.pass)
      tag = "now passes", ++recovered;
    else if (dm > 0.01 || (std::fabs(dm) <= 0.01 && y.max_ulp > x.max_ulp))
      tag = "less accurate", ++worse;
    else
      tag = "more accurate", ++better;
    char buf[512];
    std::snprintf(buf, sizeof buf, "%-44s margin %7.3g -> %-7.3g max ulp %7.3g -> %-7.3g %s\n", key.c_str(), x.margin,
                  y.margin, x.max_ulp, y.max_ulp, tag);
    lines += buf;
    if (x.pass && !y.pass) lines += "    " + replay_line(y.worst_case) + "\n";
  }
  std::printf("%s", lines.c_str());
  for (const auto& key : a.order)
    if (!b.cells.count(key)) std::printf("only in A: %s\n", key.c_str());
  for (const auto& key : b.order)
    if (!a.cells.count(key)) std::printf("only in B: %s\n", key.c_str());
  std::printf(
      "%zu cells in common: %d more accurate, %d less accurate, %d unchanged, %d crossed the policy, %d now pass\n",
      common, better, worse, same, crossed, recovered);
  return crossed ? kFail : kPass;
}

}  // namespace

int run_report(const ReportOptions& options) { return sweep(options); }

int compare_reports(const std::string& a, const std::string& b) { return compare(a, b); }

std::size_t report_cells(std::string_view json_text, const std::string& where) {
  return parse_report(json_text, where).cells.size();
}

std::vector<std::string> report_shown_text(std::string_view json_text, const std::string& where) {
  const Loaded r = parse_report(json_text, where);
  std::vector<std::string> shown = {r.backend, r.device, r.commit, r.date};
  for (const auto& key : r.order) {
    shown.push_back(key);
    shown.push_back(replay_line(r.cells.at(key).worst_case));
  }
  return shown;
}

}  // namespace kverify
