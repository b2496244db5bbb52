// `kverify bench`: plan -> gate every planned Case (Cases in parallel on cuda) -> time the Cases
// whose whole group passed, with the ceiling and a baseline in the same run -> table, JSON, Markdown.
#include "bench/bench_command.hpp"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>

#include "bench/device.hpp"
#include "bench/device_image.hpp"
#include "bench/gate.hpp"
#include "bench/plan.hpp"
#include "bench/row_rotation.hpp"
#include "bench/timing_rules.hpp"
#include "bench/writer.hpp"
#include "core/child_process.hpp"
#include "core/error.hpp"
#include "core/exit_codes.hpp"
#include "core/output_file.hpp"
#include "core/parallel.hpp"
#include "pipeline/execute.hpp"
#include "pipeline/run_case.hpp"  // kRandomPoisonSeed
#include "pipeline/sampled_check.hpp"

namespace kverify {
namespace {

using namespace kverify::bench;
constexpr std::size_t kFlushBytes = 256u << 20;  // > 4x the H200's 60 MB L2

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

std::string clocks_seen() {
  const std::string s =
      output_of({"nvidia-smi", "--query-gpu=clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw",
                 "--format=csv,noheader"});
  return s.empty() ? "not available (nvidia-smi did not answer)" : "sm, max sm, mem, temp, power: " + s;
}

// The timed tensors are the gate's device images (the same canaries, inputs drawn the same way at
// the same alignment), so a deterministic kernel's every timed repetition gives the image hashes
// the gate recorded after its run 1.
std::vector<std::unique_ptr<DeviceImage>> timed_images(const Case& c) {
  std::vector<std::unique_ptr<DeviceImage>> images;
  for (int t = 0; t < c.op->tensor_count(); ++t) {
    const TensorSpec& spec = c.op->tensors[static_cast<std::size_t>(t)];
    images.push_back(std::make_unique<DeviceImage>(std::string(spec.name), c.layout(t), tensor_dtype(c, t),
                                                   static_cast<std::uint64_t>(t) + 1));
    if (!spec.output) images.back()->draw(input_draw(c, t));
  }
  return images;
}

std::size_t element_bytes(const DeviceImage& image) { return bench::element_bytes(image.layout(), image.dtype()); }

// The kernel's timing, on the gate's images; returns the baseline's inputs, copied out of them.
std::vector<std::unique_ptr<DeviceMemory>> time_kernel(const PlannedCase& p, const GateResult& gate,
                                                       const DeviceInfo& info, Timer& timer, int warmup, int reps,
                                                       BenchRow& row) {
  const Case& c = p.c;
  const std::vector<std::unique_ptr<DeviceImage>> images = timed_images(c);
  LaunchRequest req = launch_request_of(c, Backend::cuda);
  req.stream = timer.stream();
  for (const auto& image : images)
    req.tensors.push_back(
        DeviceTensor::of(image->element0(), image->layout(), image->dtype(), c.op->tensors[req.tensors.size()].name));
  std::unique_ptr<DeviceMemory> workspace;
  if (const std::size_t ws = p.variant->workspace_bytes ? p.variant->workspace_bytes(req) : 0; ws > 0) {
    workspace = std::make_unique<DeviceMemory>(ws);
    req.workspace = workspace->data;
  }
  // Every repetition starts from outputs poisoned as the gate's run 1 began, and must end with the
  // gate's images: outputs written in full with the gated bits, inputs and canaries untouched.
  Repetitions each;
  const bool checked = gates_on_device(c) && gate.image_hashes.size() == images.size();
  std::vector<std::uint64_t> want = gate.image_hashes;
  const RowRotation rotation = checked ? row_rotation(c) : RowRotation{};
  std::vector<std::unique_ptr<DeviceMemory>> pristine(images.size());  // inputs cut with the rows; gated outputs
  std::vector<std::unique_ptr<DeviceImage>> expected(images.size());   // an output's gated image, rotated
  SecretShifts shifts;
  if (rotation.usable()) {
    // One untimed call checked against the gate gives the gated outputs to rotate.
    for (int t : c.op->outputs()) images[static_cast<std::size_t>(t)]->poison(Poison::nan, kRandomPoisonSeed);
    p.variant->launch_cuda(req);
    device_synchronize();
    if (std::string problem =
            first_image_mismatch(c, gate.image_hashes, [&](std::size_t t) { return images[t]->hash(); });
        !problem.empty())
      row.refusal = "the untimed call before the repetitions: " + problem;
    for (std::size_t t = 0; t < images.size(); ++t) {
      const TensorSpec& spec = c.op->tensors[t];
      if (!spec.output && !c.op->follows_rows(static_cast<int>(t))) continue;
      pristine[t] = std::make_unique<DeviceMemory>(element_bytes(*images[t]));
      pristine[t]->copy_from_device(images[t]->element0(), pristine[t]->bytes);
      if (spec.output)
        expected[t] = std::make_unique<DeviceImage>(std::string(spec.name), c.layout(static_cast<int>(t)),
                                                    tensor_dtype(c, static_cast<int>(t)), t + 1);
    }
  }
  if (checked) {
    each.before = [&](int) {
      if (rotation.usable()) {
        // Fresh inputs: the rows rotated by a secret shift, the gated outputs with them.
        const std::int64_t shift = shifts.next(rotation);
        for (std::size_t t = 0; t < images.size(); ++t) {
          if (!pristine[t]) continue;
          DeviceImage& target = expected[t] ? *expected[t] : *images[t];
          rotate_rows(target.element0(), pristine[t]->data, element_bytes(target), shift, rotation.rows, device_copy);
          want[t] = target.hash();
        }
      }
      for (int t : c.op->outputs()) images[static_cast<std::size_t>(t)]->poison(Poison::nan, kRandomPoisonSeed);
    };
    each.check = [&](int) -> std::string {
      std::string problem = first_image_mismatch(c, want, [&](std::size_t t) { return images[t]->hash(); });
      if (problem.empty()) ++row.repetitions_checked;
      return problem;
    };
  }
  if (row.refusal.empty()) {
    row.timing = timer.time([&] { p.variant->launch_cuda(req); }, warmup, reps, checked ? &each : nullptr);
    row.fresh_inputs = rotation.usable();
    for (std::size_t t = 0; t < images.size(); ++t)  // the baseline's inputs are the unrotated ones
      if (pristine[t] && !c.op->tensors[t].output) images[t]->copy_elements_from(pristine[t]->data);
    row.refusal = !each.problem.empty() ? each.problem
                                        : timing_refusal(c.variant, *row.timing, {row.read_bytes, row.flops}, info);
  }
  if (!row.refusal.empty()) {
    row.not_timed_reason = "refused: " + row.refusal;
    row.timing.reset();
  }
  // The baseline's inputs: copies at cudaMalloc's own alignment, as a library's users pass them
  // (CUB's one-block segmented sum measured 4.5 % slower on the H100 at the images' 1 KiB offset).
  std::vector<std::unique_ptr<DeviceMemory>> copies;
  if (!c.op->bench_baseline_name.empty())
    for (int t = 0; t < c.op->tensor_count(); ++t)
      if (!c.op->tensors[static_cast<std::size_t>(t)].output) {
        const auto& image = *images[static_cast<std::size_t>(t)];
        const std::size_t bytes = element_bytes(image);
        copies.push_back(std::make_unique<DeviceMemory>(bytes));
        copies.back()->copy_from_device(image.element0(), bytes);
      }
  return copies;
}

void time_row(const PlannedCase& p, const GateResult& gate, const DeviceInfo& info, Timer& timer, int warmup, int reps,
              BenchRow& row) {
  const Case& c = p.c;
  const std::vector<std::unique_ptr<DeviceMemory>> inputs = time_kernel(p, gate, info, timer, warmup, reps, row);
  // The op's baseline on the same input values (bench Cases are contiguous row-major), its own
  // outputs, under the same rules but the per-repetition check (its outputs have no gate).
  if (c.op->bench_baseline_name.empty()) return;  // an op without a GPU baseline: the row says "-"
  BaselineResult br;
  try {
    BaselineInputs in{c.dtype, c.shape, {}, timer.stream(), launch_request_of(c, Backend::cuda).params};
    for (const auto& input : inputs) in.inputs.push_back(input->data);
    const Baseline b = op_baseline(*c.op, in);
    br.name = b.name;
    br.detail = b.detail;
    br.timing = timer.time(b.run, warmup, reps);
    if (const std::string r = timing_refusal("the baseline " + b.name, *br.timing, {row.read_bytes, row.flops}, info);
        !r.empty()) {
      br.error = "refused: " + r;
      br.timing.reset();
    }
  } catch (const std::exception& e) {
    br.name = std::string(c.op->bench_baseline_name);
    br.error = e.what();
  }
  row.baseline = br;
}

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  char b[64];
  std::strftime(b, sizeof b, "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&t));
  return b;
}

}  // namespace

int run_bench(const BenchOptions& o) {
  PlanOptions plan = o.plan;
  const int reps = o.reps, warmup = o.warmup;
  std::string json_path = o.json_path, md_path = o.md_path;
  const bool seed_given = o.seed_given;
  const std::uint64_t reference_budget = o.reference_budget;
  std::vector<std::string> outputs;
  for (const auto& path : {o.json_path, o.md_path}) {  // before the gate's minutes
    if (path.empty()) continue;
    std::error_code ec;
    if (auto parent = std::filesystem::path(path).parent_path(); !parent.empty())
      std::filesystem::create_directories(parent, ec);
    outputs.push_back(path);
  }
  if (const auto problem = output_paths_problem(outputs)) {
    std::fprintf(stderr, "kverify bench: %s\n", problem->c_str());
    return kBadInput;
  }
  if (!seed_given) plan.seed = static_cast<std::uint64_t>(std::time(nullptr));

  BenchReport report;
  report.date = utc_now();
  report.reps = reps;
  report.warmup = warmup;
  report.flush_bytes = kFlushBytes;
  report.host = std::to_string(hardware_threads()) + " host threads";
  if (const char* env = std::getenv("KVERIFY_COMMIT"); env && *env)
    report.commit = env;
  else
    report.commit = output_of({"git", "rev-parse", "--short", "HEAD"});
  if (report.commit.empty()) report.commit = "unknown";

  std::string why_no_gpu;
  const bool gpu = backend_available(Backend::cuda, &why_no_gpu);
  plan.backend = gpu ? Backend::cuda : Backend::emu;
  report.backend = gpu ? "cuda" : "emu";
  if (!gpu && !plan.quick && plan.shape.empty()) {
    plan.quick = true;
    std::fprintf(stderr,
                 "kverify bench: no GPU here, so the gate runs on emu with the --quick shapes (the default shapes are "
                 "far too big for emu)\n");
  }
  std::vector<PlannedCase> cases;
  try {
    cases = plan_cases(plan, &report.skipped);
  } catch (const InputError& e) {
    std::fprintf(stderr, "kverify bench: %s\n", e.what());
    return kBadInput;
  }
  if (cases.empty()) {
    std::fprintf(stderr, "kverify bench: nothing to run: no variant takes the selected Cases\n");
    for (const auto& s : report.skipped) std::fprintf(stderr, "  %s\n", s.c_str());
    return kBadInput;
  }
  std::fprintf(stderr, "kverify bench: %zu Cases to gate on %s (seed %llu)%s\n", cases.size(), report.backend.c_str(),
               static_cast<unsigned long long>(plan.seed), gpu ? "" : "; timing needs a GPU");

  // 1. The gate. On cuda several Cases at once (host work dominates; the kernels are short); emu
  // runs one Case at a time (its __shared__ is static: one launch at a time per process).
  const auto gate_start = std::chrono::steady_clock::now();
  const unsigned hw = hardware_threads();
  const unsigned concurrent = gpu ? std::max(1u, std::min(4u, hw / 4)) : 1u;
  GateOptions go;
  go.threads = std::max(1u, hw / concurrent);
  go.sample_seed = plan.seed;
  go.reference_budget = reference_budget;
  std::vector<GateResult> gates(cases.size());
  std::atomic<std::size_t> next{0}, done{0};
  std::mutex print;
  {
    std::vector<std::thread> workers;
    for (unsigned w = 0; w < concurrent; ++w)
      workers.emplace_back([&] {
        for (std::size_t i; (i = next++) < cases.size();) {
          try {
            gates[i] = gate_case(cases[i].c, *cases[i].variant, go);
          } catch (const std::exception& e) {
            gates[i].verdict.outcome = Outcome::fail;
            gates[i].verdict.reproduce = cases[i].c.to_text();
            gates[i].verdict.subject = cases[i].c.to_text();
            gates[i].verdict.reason = std::string("the gate could not check it: ") + e.what();
          }
          std::lock_guard lock(print);
          std::fprintf(stderr, "  gate %zu/%zu %s %s (%.1f s)\n", ++done, cases.size(),
                       std::string(name(gates[i].verdict.outcome)).c_str(), cases[i].c.to_text().c_str(),
                       gates[i].seconds);
        }
      });
    for (auto& w : workers) w.join();
  }
  report.gate_seconds = seconds_since(gate_start);

  // Rows: one per timed Case, with its group's gate.
  bool any_fail = false;
  std::map<int, std::size_t> row_of;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto& p = cases[i];
    if (p.timed) {
      row_of[p.group] = report.rows.size();
      BenchRow row;
      row.op = std::string(p.c.op->name);
      row.variant = p.c.variant;
      row.dtype = std::string(name(p.c.dtype));
      row.shape = p.c.op->sizes_text(p.c.shape);
      row.case_line = p.c.to_text();
      row.gate_coverage = gates[i].coverage;
      row.goal = bench_goal(*p.c.op, p.c.dtype, p.c.shape);
      // Ideal: what the op says an ideal kernel moves, else every tensor read or written once.
      double output_bytes = 0;
      for (int t = 0; t < p.c.op->tensor_count(); ++t) {
        const double bytes =
            static_cast<double>(p.c.layout(t).elements()) * static_cast<double>(size_of(tensor_dtype(p.c, t)));
        row.ideal_bytes += bytes;
        if (p.c.op->tensors[static_cast<std::size_t>(t)].output) output_bytes += bytes;
      }
      if (p.c.op->bench_bytes) row.ideal_bytes = p.c.op->bench_bytes(p.c.shape, p.c.dtype);
      // What must come from DRAM after the L2 flush: the inputs an ideal kernel reads (outputs may
      // still sit in L2 when the stop event completes).
      row.read_bytes = std::max(0.0, row.ideal_bytes - output_bytes);
      if (p.c.op->bench_flops) row.flops = p.c.op->bench_flops(p.c.shape);
      report.rows.push_back(row);
    }
    BenchRow& row = report.rows[row_of.at(p.group)];
    const Verdict& v = gates[i].verdict;
    ++row.gate_cases;
    row.gate_seconds += gates[i].seconds;
    if (v.outcome == Outcome::skipped) {  // never timed: a kernel is timed only where its gate ran
      ++row.gate_not_run;
      row.not_timed_reason = "not timed: the gate did not run: " + v.reason;
      std::printf("NOT RUN  %s: %s\n", v.reproduce.c_str(), v.reason.c_str());
    }
    if (v.outcome == Outcome::fail) {
      ++row.gate_failed;
      any_fail = true;
      row.failing_lines.push_back(v.reproduce);
      std::printf("%s\n", format(v).c_str());
      if (!gates[i].coverage.empty()) std::printf("  gate coverage: %s\n", gates[i].coverage.c_str());
    }
  }
  for (auto& row : report.rows)
    if (row.gate_failed)
      row.not_timed_reason = "refused: the gate failed on " + std::to_string(row.gate_failed) + " of its " +
                             std::to_string(row.gate_cases) + " Cases";

  // 2. Timing, one Case at a time, nothing else on the GPU.
  const bool any_not_run = std::any_of(report.rows.begin(), report.rows.end(), [](auto& r) { return r.gate_not_run; });
  int status = any_fail ? kFail : any_not_run ? kNotRun : kPass;
  if (!gpu) {
    // No timing, but the repetitions the GPU would time are made and checked as there.
    report.note = "cannot time: no GPU (" + why_no_gpu + "); the gate and the repetitions ran on emu";
    for (std::size_t i = 0; i < cases.size(); ++i) {
      if (!cases[i].timed) continue;
      BenchRow& row = report.rows[row_of.at(cases[i].group)];
      if (row.gate_failed || row.gate_not_run) continue;
      const std::string problem = check_repetitions_on_host(cases[i].c, *cases[i].variant, gates[i].image_hashes,
                                                            warmup + reps + kWallRepetitions, go.threads,
                                                            row.repetitions_checked, row.fresh_inputs);
      if (!problem.empty()) {
        row.refusal = problem;
        row.not_timed_reason = "refused: " + problem;
        any_fail = true;
      } else {
        row.not_timed_reason = "not timed: no GPU (" + std::to_string(row.repetitions_checked) +
                               " repetitions on emu, each the gate's result" +
                               (row.fresh_inputs ? ", on fresh inputs after the first)" : ")");
      }
      std::fprintf(stderr, "  repetitions %s: %s\n", row.case_line.c_str(), row.not_timed_reason.c_str());
    }
    status = any_fail ? kFail : kNotRun;
  } else {
    const auto timing_start = std::chrono::steady_clock::now();
    try {
      const DeviceInfo info = device_info();
      char peaks[160];
      std::snprintf(peaks, sizeof peaks, "; DRAM peak %.0f GB/s, dense 16-bit tensor peak %s", info.dram_peak_gbps,
                    info.tensor_peak_tflops > 0
                        ? (std::to_string(static_cast<int>(info.tensor_peak_tflops)) + " TFLOP/s").c_str()
                        : "unknown for this architecture");
      report.device = info.name + ", " + std::to_string(info.sm_count) + " SMs, " +
                      std::to_string(info.l2_bytes >> 20) + " MiB L2, " + std::to_string(info.memory_bytes >> 30) +
                      " GiB" + peaks;
#if defined(KVERIFY_CUDA_PTX_ONLY)
      report.device +=
          "; device code: PTX only, compiled by the driver when loaded (this build was configured "
          "with KVERIFY_CUDA_PTX_ONLY: no GPU was visible)";
#endif
      report.driver =
          std::to_string(info.driver_version / 1000) + "." + std::to_string(info.driver_version % 1000 / 10);
      const std::string smi = output_of({"nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"});
      if (!smi.empty()) report.driver = smi + " (CUDA " + report.driver + ")";
      report.runtime =
          std::to_string(info.runtime_version / 1000) + "." + std::to_string(info.runtime_version % 1000 / 10);
      report.clocks_before = clocks_seen();
      Timer timer(kFlushBytes);
      const Ceiling ceiling = copy_ceiling(timer, plan.quick ? (256u << 20) : (1ull << 30), reps);
      report.ceiling_gbps = ceiling.gbps;
      report.ceiling_timing = ceiling.timing;
      report.ceiling_bytes = ceiling.bytes;
      std::fprintf(stderr, "  ceiling: device copy %.0f GB/s\n", ceiling.gbps);
      for (std::size_t i = 0; i < cases.size(); ++i) {
        if (!cases[i].timed) continue;
        BenchRow& row = report.rows[row_of.at(cases[i].group)];
        if (row.gate_failed || row.gate_not_run) continue;
        time_row(cases[i], gates[i], info, timer, warmup, reps, row);
        if (row.timing)
          std::fprintf(stderr, "  timed %s: %.4f ms\n", row.case_line.c_str(), row.timing->median);
        else
          std::fprintf(stderr, "  %s: %s\n", row.case_line.c_str(), row.refusal.c_str());
      }
      report.clocks_after = clocks_seen();
      for (const auto& row : report.rows)
        if (!row.refusal.empty()) status = kFail;
    } catch (const std::exception& e) {
      report.note = std::string("timing stopped: ") + e.what();
      std::fprintf(stderr, "kverify bench: %s\n", report.note.c_str());
      status = kFail;
    }
    report.timing_seconds = seconds_since(timing_start);
    if (json_path.empty() || md_path.empty()) {
      const std::string dir = report.device.find("H200") != std::string::npos ? "reports/h200" : "reports/cuda";
      if (json_path.empty()) json_path = dir + "/bench.json";
      if (md_path.empty()) md_path = dir + "/bench.md";
    }
  }
  if (report.device.empty()) report.device = "none (emu: " + why_no_gpu + ")";

  std::printf("\n%s", format_table(report).c_str());
  for (const auto& row : report.rows)
    std::printf("gate %s %s: %s\n", row.case_line.c_str(),
                row.gate_failed    ? "FAILED"
                : row.gate_not_run ? "NOT RUN"
                                   : "passed",
                row.gate_coverage.c_str());
  std::printf("gate: %zu Cases in %.1f s%s\n", cases.size(), report.gate_seconds,
              gpu ? ("; timing " + std::to_string(static_cast<int>(report.timing_seconds)) + " s").c_str() : "");
  for (const auto& row : report.rows) {
    if (row.gate_failed)
      std::printf("REFUSED to time %s: %s (failing Case lines above)\n", row.case_line.c_str(),
                  row.not_timed_reason.c_str());
    if (!row.refusal.empty()) std::printf("REFUSED the timing of %s: %s\n", row.case_line.c_str(), row.refusal.c_str());
  }
  if (!report.note.empty()) std::printf("%s\n", report.note.c_str());
  OutputFiles files;
  std::string written;
  for (const auto& [path, text] : {std::pair{json_path, to_json(report)}, std::pair{md_path, to_markdown(report)}}) {
    if (path.empty()) continue;
    std::error_code ec;
    if (auto parent = std::filesystem::path(path).parent_path(); !parent.empty())
      std::filesystem::create_directories(parent, ec);
    files.add(path, text);
    written += (written.empty() ? "" : ", ") + path;
  }
  if (const auto error = files.commit()) {
    std::fprintf(stderr, "kverify bench: %s\n", error->c_str());
    return kBadInput;  // an output that could not be written is never a pass, nor hidden behind "not timed"
  }
  if (!written.empty()) std::printf("wrote %s\n", written.c_str());
  return status;
}

}  // namespace kverify
