// `kverify huge` and `kverify agree`: docs/gpu.md.
#include "gpu/commands.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <thread>

#include "core/error.hpp"
#include "core/exit_codes.hpp"
#include "core/expectation.hpp"
#include "core/json.hpp"
#include "core/output_file.hpp"
#include "core/parallel.hpp"
#include "core/progress.hpp"
#include "core/tolerance.hpp"
#include "gpu/huge_plan.hpp"
#include "kernels/registry.hpp"
#include "pipeline/execute.hpp"
#include "pipeline/fault_report.hpp"
#include "pipeline/guarded_image.hpp"
#include "pipeline/run_case.hpp"
#include "pipeline/sampled_check.hpp"
#include "reference/compare.hpp"
#include "reference/metrics.hpp"

#if KVERIFY_HAVE_CUDA
#include "runtime/cuda/device.hpp"
#endif

namespace kverify {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Runs f(first_row, end_row) over [0, rows) on every core.
template <typename F>
void parallel_rows(std::int64_t rows, F f) {
  parallel_for(rows, hardware_threads(), f);
}

// ---- huge ----

int run_huge_case(const Case& base, Backend backend, const std::optional<std::string>& only, bool plan_only, int& ran) {
  Case c = base;
  c.backend = backend;
  std::vector<const Variant*> variants;
  for (const auto& v : all_variants()) {
    if (v.op != c.op->name) continue;
    if (only ? v.name != *only : v.mutant) continue;
    Case probe = c;
    probe.variant = std::string(v.name);
    if (!unsupported(v, probe, backend)) variants.push_back(&v);
  }
  std::string how;
  const auto rows = sampled_rows(c, SampleOptions{0, 10, c.seed + 17}, &how);
  const MemoryNeed need = huge_memory_need(c, static_cast<std::int64_t>(rows.size()));
  std::int64_t elements = 0, footprint = 0;  // of the largest tensor
  std::uint64_t last_byte = 0;
  for (int t = 0; t < c.op->tensor_count(); ++t) {
    elements = std::max(elements, c.layout(t).elements());
    footprint = std::max(footprint, c.layout(t).footprint());
    last_byte = std::max(last_byte, static_cast<std::uint64_t>(c.layout(t).footprint()) * size_of(tensor_dtype(c, t)));
  }
  std::string row_list;
  for (auto r : rows) row_list += (row_list.empty() ? "" : ",") + std::to_string(r);
  std::printf(
      "%s\n  largest tensor: %lld elements (2^31 %+lld), last byte offset %s; needs %s host, %s device; variants:",
      c.to_text().c_str(), static_cast<long long>(elements), static_cast<long long>(elements - (std::int64_t{1} << 31)),
      gib(last_byte).c_str(), gib(need.host).c_str(), gib(need.device).c_str());
  for (auto* v : variants) std::printf(" %s", std::string(v->name).c_str());
  if (static_cast<std::int64_t>(rows.size()) < op_rows(c))
    std::printf("\n  reference on %zu sampled rows: %s\n", rows.size(), row_list.c_str());
  else  // a list of every row says nothing
    std::printf("\n  %s%s\n", how.c_str(), rows_checked_apart(*c.op) ? "" : " (an output needs every row)");
  if (variants.empty()) {
    std::printf("  NOT RUN: no variant%s takes this Case on %s\n", only ? (" " + *only).c_str() : "",
                std::string(name(backend)).c_str());
    return kNotRun;
  }
  if (const auto refusal = memory_refusal(need, backend)) {
    std::printf("  NOT RUN: %s\n", refusal->c_str());
    return kNotRun;
  }
  if (plan_only) {
    std::printf("  fits here (plan only: nothing run)\n");
    return kPass;
  }
  std::fflush(stdout);
  const auto t0 = std::chrono::steady_clock::now();
  const ProgressWatch progress("kverify huge", &case_progress);  // a huge Case's steps take minutes
  begin_step("making the inputs");
  std::vector<GuardedImage> images = materialize(c, hardware_threads());
  std::vector<std::uint64_t> input_hash(static_cast<std::size_t>(c.op->tensor_count()), 0);
  for (int t = 0; t < c.op->tensor_count(); ++t)
    if (!c.op->tensors[static_cast<std::size_t>(t)].output) input_hash[t] = images[t].hash();
  const std::vector<int> outputs = c.op->outputs();
  std::fprintf(stderr, "  inputs materialised in %.1f s\n", seconds_since(t0));
  int worst = kPass;
  for (const Variant* v : variants) {
    const auto t1 = std::chrono::steady_clock::now();
    c.variant = std::string(v->name);
    for (const int t : outputs) {
      GuardedImage& y = images[static_cast<std::size_t>(t)];
      const std::uint64_t poison = y.poison_bits(Poison::nan, 0, 0, 0);
      const std::int64_t cols = y.layout().cols();
      const std::size_t esize = size_of(y.dtype());
      parallel_rows(y.layout().rows(), [&](std::int64_t r0, std::int64_t r1) {
        for (std::int64_t r = r0; r < r1; ++r)
          for (std::int64_t col = 0; col < cols; ++col) std::memcpy(y.element(r, col), &poison, esize);
      });
    }
    std::vector<std::string> problems;
    bool launched = true;
    try {
      begin_step("run 1 of 1 of the kernel");
      execute(backend, *v, c, images);
    } catch (const std::exception& e) {
      problems.push_back(std::string("[launch] ") + e.what());
      launched = false;
    }
    const double kernel_seconds = seconds_since(t1);
    std::string lost;
    const bool context_lost = !launched && device_context_lost(backend, &lost);
    Verdict sampled;
    if (launched) {
      begin_step("the guards and the reference on sampled rows");
      for (int t = 0; t < c.op->tensor_count(); ++t) {
        std::size_t total = 0;
        const auto damaged = images[t].damaged_canaries(4, &total);
        for (const auto& d : damaged) problems.push_back("[canary] " + images[t].name() + ": " + d);
        if (total > damaged.size())
          problems.push_back("[canary] " + images[t].name() + ": " + std::to_string(total) + " bytes in all");
        if (!c.op->tensors[static_cast<std::size_t>(t)].output && images[t].hash() != input_hash[t])
          problems.push_back("[input-modified] " + images[t].name() + ": the kernel wrote into its input");
      }
      for (const int t : outputs) {
        const GuardedImage& y = images[static_cast<std::size_t>(t)];
        const KeptPoison kept = kept_poison(y, Poison::nan, hardware_threads());
        if (kept.count > 0)
          problems.push_back("[unwritten] " + y.name() + ": " + std::to_string(kept.count) +
                             " elements kept the NaN poison (first in row " + std::to_string(kept.first[0].first) +
                             ")");
      }
      std::vector<std::unique_ptr<Tolerance>> owned;
      std::vector<const Tolerance*> tolerances;
      for (std::size_t k = 0; k < outputs.size(); ++k) {
        owned.push_back(tolerance_of(c, *v, static_cast<int>(k)));
        tolerances.push_back(owned.back().get());
      }
      check_sampled_rows(c, rows, images, images, tolerances, hardware_threads(), sampled);
      for (const auto& g : sampled.guards) problems.push_back("[" + g.guard + "] " + g.tensor + ": " + g.detail);
      if (sampled.stats.failed > 0) {
        problems.push_back("[tolerance] " + std::to_string(sampled.stats.failed) +
                           " element(s) of the sampled rows outside tolerance");
        for (const auto& m : sampled.first_mismatches) {
          char line[200];
          const auto text = [](double v) {
            char b[32];
            std::snprintf(b, sizeof b, "%.9g", v);
            return std::isnan(v) ? std::string("NaN") : std::string(b);
          };
          std::snprintf(line, sizeof line, "  (%lld,%lld): got %s, expected %s (%s where %s expected)",
                        static_cast<long long>(m.row), static_cast<long long>(m.col), text(m.got).c_str(),
                        text(m.expected).c_str(), m.got_class.c_str(), m.expected_class.c_str());
          problems.push_back(line);
        }
      }
    }
    ++ran;
    std::fprintf(stderr, "  %s: poison + copies + kernel %.1f s, guards + sampled reference %.1f s\n",
                 std::string(v->name).c_str(), kernel_seconds, seconds_since(t1) - kernel_seconds);
    const bool pass = problems.empty();
    const bool mutant = v->mutant;
    std::printf("  %s  %s/%s on %s (%.1f s): %s", pass ? "PASS" : "FAIL", std::string(v->op).c_str(),
                std::string(v->name).c_str(), std::string(name(backend)).c_str(), seconds_since(t1),
                pass ? "guards complete, every output written, inputs unchanged" : "");
    if (launched && pass)
      std::printf("; sampled rows: %lld elements, max ulp %.3g, margin %.3g",
                  static_cast<long long>(sampled.stats.checked), sampled.stats.max_ulp, sampled.stats.worst_margin);
    std::printf("\n");
    for (const auto& p : problems) std::printf("      %s\n", p.c_str());
    if (context_lost) std::printf("      device fault: %s (the CUDA context is lost)\n", lost.c_str());
    std::printf("      reproduce: ./kverify huge --case '%s' --variant %s --backend %s\n", base.to_text().c_str(),
                std::string(v->name).c_str(), std::string(name(backend)).c_str());
    if (mutant) {
      std::printf("      %s\n", pass ? "the mutant SURVIVED this Case" : "the mutant is caught");
      if (pass) worst = std::max(worst, kFail);
    } else if (!pass) {
      worst = kFail;
    }
    std::fflush(stdout);
    if (context_lost) {
      std::printf("  the CUDA context is lost: the remaining variants and Cases cannot run in this process\n");
      return worst | 0x100;  // 0x100: stop here
    }
  }
  return worst;
}

}  // namespace

int run_huge(const HugeOptions& o) {
  const Backend backend = o.backend;
  const auto& op = o.op;
  const auto& variant = o.variant;
  const bool plan_only = o.plan_only;
  std::vector<std::string> lines = o.cases.empty() ? huge_case_lines() : o.cases;
  // Bad input is reported before anything runs: a Case that contradicts the options, or that the
  // filters would leave out, is an error, never a silent override or an empty run.
  for (const auto& line : lines) {
    const Case c = parse_case(line);
    if (o.cases.empty()) continue;
    if (c.backend != Backend::automatic && c.backend != backend)
      throw InputError("--case " + shown(line) + " says backend=" + std::string(name(c.backend)) +
                       " but --backend is " + std::string(name(backend)) +
                       " (accepted: the same backend, or none in the Case)");
    if (op && c.op->name != *op)
      throw InputError("--case " + shown(line) + " is a Case of " + std::string(c.op->name) + " but --op is " + *op +
                       " (accepted: Cases of --op's op, or no --op)");
    if (variant && !find_variant(c.op->name, *variant))
      throw InputError("--case " + shown(line) + ": --variant " + *variant + " is not a variant of " +
                       std::string(c.op->name) + " (accepted: one of `kverify list` for that op)");
  }
  if (!plan_only)
    report_faults_of("kverify huge (the Case and variant printed last)");  // emu: a wild write is a SIGSEGV here
  if (std::string why; !plan_only && !backend_available(backend, &why)) {
    std::printf("NOT RUN  huge on %s: %s\n", std::string(name(backend)).c_str(), why.c_str());
    return kNotRun;
  }
  const auto t0 = std::chrono::steady_clock::now();
  int ran = 0, failed = 0, not_run = 0;
  for (const auto& line : lines) {
    const Case c = parse_case(line);
    if (op && c.op->name != *op) continue;
    if (variant) {
      const Variant* v = nullptr;
      for (const auto& x : all_variants())
        if (x.name == *variant && x.op == c.op->name) v = &x;
      if (!v) continue;
    }
    const int rc = run_huge_case(c, backend, variant, plan_only, ran);
    if ((rc & 0xff) == kFail) ++failed;
    if (rc == kNotRun) ++not_run;
    if (rc & 0x100) break;
  }
  std::printf("%d variant runs, %d Case(s) with a failure, %d Case(s) not run (%.1f s)\n", ran, failed, not_run,
              seconds_since(t0));
  if (failed > 0) return kFail;
  if (ran == 0 && !plan_only) return kNotRun;
  return kPass;
}

// ---- agree ----

namespace {

struct AgreeRow {
  std::string op, dtype;
  long cases = 0;
  std::int64_t elements = 0, equal_bits = 0;
  double max_abs = 0, max_ulp = 0, max_units = 0;
  std::string case_abs, case_ulp, case_units;
};

// Every output's elements, in tensor order, each row-major.
std::vector<double> outputs_on(const Case& c, const Variant& v, Backend backend, std::vector<GuardedImage>& images) {
  images = materialize(c);
  for (const int t : c.op->outputs()) images[t].poison(Poison::nan, 1);
  Case on = c;
  on.backend = backend;
  execute(backend, v, on, images);
  std::vector<double> out;
  for (const int t : c.op->outputs()) {
    const GuardedImage& y = images[static_cast<std::size_t>(t)];
    for (std::int64_t r = 0; r < y.layout().rows(); ++r)
      for (std::int64_t col = 0; col < y.layout().cols(); ++col) out.push_back(y.view().at(r, col));
  }
  return out;
}

std::vector<std::string> random_lines(const OpSpec& op, const std::string& dtype, int n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const auto pick = [&](auto const& list) { return list[rng() % list.size()]; };
  const std::vector<int> cols = {1, 2, 7, 31, 32, 33, 100, 255, 257, 1000, 1025, 2049, 4097, 20000};
  const std::vector<int> dims = {1, 3, 16, 17, 31, 64, 65, 100};
  const std::vector<std::string> recipes = {"normal", "normal:1e3", "uniform:30", "int:3", "negative:30", "uniform:1"};
  std::vector<std::string> lines;
  // A count dimension takes 1..12; a lone tail dimension the widths above; several tail dimensions
  // (a matmul's) the small sizes, their product being the work.
  int tails = 0;
  for (const auto& d : op.dims) tails += d.draw == DimDraw::tail;
  for (int i = 0; i < n; ++i) {
    std::vector<std::int64_t> sizes;
    for (const auto& d : op.dims) {
      std::int64_t v = d.draw == DimDraw::count ? 1 + static_cast<std::int64_t>(rng() % 12)
                       : tails > 1              ? pick(dims)
                                                : pick(cols);
      v = std::clamp(v, d.min, d.max);
      v = std::min(d.max / d.multiple * d.multiple, (v + d.multiple - 1) / d.multiple * d.multiple);
      sizes.push_back(v);
    }
    lines.push_back("op=" + std::string(op.name) + " dtype=" + dtype + " " + op.sizes_token(sizes) +
                    " values=" + pick(recipes) + " seed=" + std::to_string(rng() % 100000));
  }
  return lines;
}

}  // namespace

int run_agree(const AgreeOptions& o) {
  const auto& op = o.op;
  const auto& dtype = o.dtype;
  const int budget = o.budget;
  const std::uint64_t seed = o.seed;
  std::string out_dir = o.out_dir;
  if (const auto problem = out_dir.empty() ? std::nullopt : output_folder_problem(out_dir)) {
    std::fprintf(stderr, "kverify agree: --out: %s\n", problem->c_str());  // before the GPU's answer
    return 2;
  }
  if (std::string why; !backend_available(Backend::cuda, &why)) {
    std::printf("NOT RUN  agree: the agreement of emu with the GPU needs a GPU: %s\n", why.c_str());
    return kNotRun;
  }
  std::string device = "gpu";
#if KVERIFY_HAVE_CUDA
  device = cuda::device_status().name;
#endif
  if (out_dir.empty()) {
    std::string dir;
    for (char ch : device)
      dir += std::isalnum(static_cast<unsigned char>(ch)) ? static_cast<char>(std::tolower(ch)) : '-';
    if (dir.find("h200") != std::string::npos) dir = "h200";
    out_dir = "reports/" + dir;
  }
  const auto t0 = std::chrono::steady_clock::now();
  std::map<std::string, AgreeRow> rows;
  std::vector<std::string> failures;
  long cases = 0;
  for (const OpSpec* info : all_ops()) {
    const std::string op_name(info->name);
    if (op && op_name != *op) continue;
    for (const char* dt : {"f32", "f16", "bf16"}) {
      if (dtype && name(*dtype) != dt) continue;
      std::vector<std::string> lines;
      for (const auto& l : boundary_case_lines(*info))
        if (l.find(std::string("dtype=") + dt + " ") != std::string::npos) lines.push_back(l);
      for (const auto& l : random_lines(*info, dt, budget, seed ^ std::hash<std::string>{}(op_name + dt)))
        lines.push_back(l);
      AgreeRow& row = rows[op_name + " " + dt];
      row.op = op_name;
      row.dtype = dt;
      for (const auto& v : all_variants()) {
        if (v.op != op_name || v.mutant || !v.on_emu || !v.launch_cuda) continue;
        for (const auto& line : lines) {
          Case c = parse_case(line);
          c.variant = std::string(v.name);
          if (unsupported(v, c, Backend::emu) || unsupported(v, c, Backend::cuda)) continue;
          ++cases;
          ++row.cases;
          bool both_pass = true;
          for (Backend b : {Backend::emu, Backend::cuda}) {
            Case on = c;
            on.backend = b;
            const Verdict verdict = run_case(on);
            if (verdict.outcome != Outcome::pass) {
              both_pass = false;
              failures.push_back(format(verdict));
            }
          }
          if (!both_pass) continue;
          std::vector<GuardedImage> emu_images, cuda_images;
          const auto e = outputs_on(c, v, Backend::emu, emu_images);
          const auto g = outputs_on(c, v, Backend::cuda, cuda_images);
          std::vector<TensorView> inputs;
          for (int t = 0; t < c.op->tensor_count(); ++t)
            if (!c.op->tensors[static_cast<std::size_t>(t)].output) inputs.push_back(emu_images[t].view());
          const OutputExpectations per_output = c.op->reference(c, inputs);
          // Every output's expectations, bounds and dtypes, in the order outputs_on lists the elements.
          std::vector<Expected> want_all;
          std::vector<double> bounds;
          std::vector<DType> dtypes;
          for (std::size_t o = 0; o < per_output.size(); ++o) {
            const auto tol = tolerance_of(c, v, static_cast<int>(o));
            const DType out_dtype = tensor_dtype(c, c.op->outputs()[o]);
            for (const Expected& x : per_output[o].values) {
              want_all.push_back(x);
              bounds.push_back(x.kind == Expected::Kind::approx ? tol->bound(x) : 0.0);
              dtypes.push_back(out_dtype);
            }
          }
          const std::string pinned = c.to_text();
          for (std::size_t k = 0; k < e.size(); ++k) {
            ++row.elements;
            if (std::memcmp(&e[k], &g[k], sizeof(double)) == 0 || (std::isnan(e[k]) && std::isnan(g[k]))) {
              ++row.equal_bits;
              continue;
            }
            const double abs = std::fabs(e[k] - g[k]);
            const double ulps = ulp_distance(dtypes[k], e[k], g[k]);
            const double bound = bounds[k];
            const double units = bound > 0 ? abs / bound : INFINITY;
            if (abs > row.max_abs) row.max_abs = abs, row.case_abs = pinned;
            if (ulps > row.max_ulp) row.max_ulp = ulps, row.case_ulp = pinned;
            if (units > row.max_units) row.max_units = units, row.case_units = pinned;
          }
        }
      }
      std::fprintf(stderr, "  agree %s %s: %ld Cases, %.1f s so far\n", op_name.c_str(), dt, row.cases,
                   seconds_since(t0));
    }
  }
  const double secs = seconds_since(t0);
  std::ostringstream md;
  md << "# emu against " << device << ": agreement of the two backends\n\n"
     << "Generated by `./kverify agree" << (op ? " --op " + *op : "") << " --budget " << budget << " --seed " << seed
     << "`: " << cases << " Cases (the boundary Cases of `kverify check` and " << budget
     << " random Cases per op and dtype) on every production variant that runs on both backends, each "
        "passing its full check on both; then the two outputs compared element by element. \"units\" is "
        "|emu - cuda| divided by the policy's bound at that element (1 would be a whole tolerance apart).\n\n"
     << "| op | dtype | Cases | elements | bitwise equal | max abs diff | max ulp diff | max units | worst Case "
        "(units) |\n"
     << "|---|---|---|---|---|---|---|---|---|\n";
  Json js = {{"device", device}, {"cases", cases}, {"seconds", secs}, {"failures", failures.size()}};
  Json& json_rows = js["rows"] = Json::array();
  for (const auto& [key, r] : rows) {
    char buf[512];
    std::snprintf(buf, sizeof buf, "| %s | %s | %ld | %lld | %.4f | %.3g | %.3g | %.3g | `%s` |\n", r.op.c_str(),
                  r.dtype.c_str(), r.cases, static_cast<long long>(r.elements),
                  r.elements ? static_cast<double>(r.equal_bits) / static_cast<double>(r.elements) : 1.0, r.max_abs,
                  r.max_ulp, r.max_units, r.case_units.empty() ? "-" : r.case_units.c_str());
    md << buf;
    json_rows.push_back({{"op", r.op},
                         {"dtype", r.dtype},
                         {"cases", r.cases},
                         {"elements", r.elements},
                         {"bitwise_equal", r.equal_bits},
                         {"max_abs", json_number(r.max_abs)},
                         {"max_ulp", json_number(r.max_ulp)},
                         {"max_units", json_number(r.max_units)},
                         {"case_abs", r.case_abs},
                         {"case_ulp", r.case_ulp},
                         {"case_units", r.case_units}});
  }
  if (!failures.empty()) {
    md << "\n## Cases that failed on a backend\n\n";
    for (const auto& f : failures) md << "```\n" << f << "\n```\n";
  }
  for (const auto& f : failures) std::printf("%s\n\n", f.c_str());
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  OutputFiles files;
  files.add(out_dir + "/agreement.md", md.str());
  files.add(out_dir + "/agreement.json", json_text(js));
  if (const auto error = files.commit()) {
    std::fprintf(stderr, "kverify agree: %s\n", error->c_str());
    return 2;
  }
  std::printf("%ld Cases on emu and %s, %zu failed on a backend (%.1f s); report: %s/agreement.md, agreement.json\n",
              cases, device.c_str(), failures.size(), secs, out_dir.c_str());
  return failures.empty() ? kPass : kFail;
}

}  // namespace kverify
