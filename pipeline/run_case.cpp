#include "pipeline/run_case.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <optional>

#include "core/error.hpp"
#include "core/parallel.hpp"
#include "core/progress.hpp"
#include "core/tolerance.hpp"
#include "kernels/registry.hpp"
#include "pipeline/case_trace.hpp"
#include "pipeline/execute.hpp"
#include "pipeline/guarded_image.hpp"
#include "pipeline/memory_plan.hpp"
#include "reference/baseline.hpp"
#include "reference/compare.hpp"
#include "runtime/emu/detectors/race_detector.hpp"
#include "runtime/emu/model/scheduler.hpp"
#include "runtime/emu/model/streams.hpp"

namespace kverify {
namespace {

bool is_output(const Case& c, int t) { return c.op->tensors[static_cast<std::size_t>(t)].output; }

std::vector<TensorView> input_views(const Case& c, const std::vector<GuardedImage>& images) {
  std::vector<TensorView> inputs;
  for (int t = 0; t < c.op->tensor_count(); ++t)
    if (!is_output(c, t)) inputs.push_back(images[t].view());
  return inputs;
}

}  // namespace

void note_accuracy(Verdict& verdict, std::string_view tensor, std::int64_t noted, const Tolerance& tolerance) {
  if (noted <= 0) return;
  verdict.accuracy_note += (verdict.accuracy_note.empty() ? "" : "; ") + std::string(tensor) + ": " +
                           std::to_string(noted) + " element(s) outside the derived bound, within that of " +
                           tolerance.framework_formula();
}

void decide_outcome(Verdict& verdict) {
  if (verdict.guards.empty()) {
    verdict.checks_passed = {"canaries and row gaps intact", "inputs unchanged", "every output written",
                             "two runs bitwise equal"};
  }
  if (verdict.guards.empty() && verdict.stats.failed == 0 && verdict.accuracy_note.empty()) {
    verdict.outcome = Outcome::pass;
  } else if (verdict.guards.empty() && verdict.stats.failed == 0) {
    verdict.outcome = strict_verdicts() ? Outcome::fail : Outcome::pass;
    if (strict_verdicts()) verdict.reason = std::string(kStrictNoteReason) + " (" + verdict.accuracy_note + ")";
  } else {
    verdict.outcome = Outcome::fail;
    if (verdict.reason.empty())
      verdict.reason = verdict.stats.failed > 0
                           ? std::to_string(verdict.stats.failed) + " element(s) outside tolerance" +
                                 (verdict.guards.empty() ? "" : ", and guards violated")
                           : "guards violated";
  }
}

std::string subject_of(const Case& c) {
  const std::string shape = c.op->sizes_text(c.shape);
  return std::string(c.op->name) + "/" + c.variant + " " + std::string(name(c.dtype)) + " " + shape + " on " +
         std::string(name(c.backend));
}

bool runs_once(const Case& c) {
  if (c.backend != Backend::emu || c.shape[static_cast<std::size_t>(c.op->rows_dim)] <= 65535) return false;
  for (const int t : c.op->outputs())
    if (info(tensor_dtype(c, t)).integer) return false;
  return true;
}

Case second_run_of(const Case& c) {
  Case second = c;
  if (c.backend == Backend::emu) second.schedule = c.schedule == 0 ? 1 : c.schedule ^ 1;  // the other parity:
  return second;  // the block order reversed too (block_order), and the thread order changed
}

std::vector<GuardedImage> materialize(const Case& c, unsigned threads) {
  std::vector<GuardedImage> images;
  for (int t = 0; t < c.op->tensor_count(); ++t) {
    const TensorSpec& spec = c.op->tensors[static_cast<std::size_t>(t)];
    const DType dtype = element_dtype(spec.element, c.dtype);
    images.emplace_back(std::string(spec.name), c.layout(t), dtype, static_cast<std::uint64_t>(t) + 1);
    if (spec.output) continue;
    GuardedImage& image = images.back();
    const Layout& l = image.layout();
    const recipe_math::Draw draw = input_draw(c, t);
    parallel_for(l.rows(), threads, [&](std::int64_t r0, std::int64_t r1) {
      recipe_math::Draw d = draw;
      for (auto r = r0; r < r1; ++r)
        for (std::int64_t col = 0; col < l.cols(); ++col) {
          d.row = r, d.col = col;
          store_from_f64(dtype, recipe_math::value(d), image.element(r, col));
        }
    });
  }
  return images;
}

bool guarded_run(const Case& c, const Variant& v, std::vector<GuardedImage>& images, Poison poison, Verdict& verdict,
                 unsigned threads) {
  const int n = c.op->tensor_count();
  const unsigned per_tensor = threads > 1 ? static_cast<unsigned>(n) : 1;  // hashes and canaries: a tensor each
  std::vector<std::uint64_t> before(n);
  for (int t = 0; t < n; ++t)
    if (is_output(c, t)) images[t].poison(poison, kRandomPoisonSeed, threads);
  parallel_for(n, per_tensor, [&](std::int64_t b, std::int64_t e) {
    for (auto t = b; t < e; ++t) before[t] = images[t].hash();
  });
  // The emu race detector's reports of this run's launches (they complete: the other guards still hold
  // or not).
  emu::race::Collector races;
  // On emu the launcher gets a stream of its own, as a framework's caller gives one; work it puts
  // on the default stream instead is not ordered with the caller's (a NO_STREAM registration has
  // no stream to take).
  std::optional<emu::CallerStream> caller;
  if (c.backend == Backend::emu && v.takes_stream) caller.emplace();
  std::string left_on_default_stream;
  try {
    left_on_default_stream = execute(c.backend, v, c, images);
  } catch (const std::exception& e) {
    verdict.guards.push_back({"launch", "", e.what()});
    verdict.reason = std::string("the launch failed: ") + e.what();
    return false;
  }
  const char* run_name = poison == Poison::nan ? "run 1" : "run 2";
  if (!left_on_default_stream.empty()) {
    const std::string said = std::string(run_name) + ": work left on another stream: " + left_on_default_stream +
                             " (a launch or copy without it): in a program that runs on its own stream, that work "
                             "is not ordered with it";
    if (verdict.reason.empty()) verdict.reason = said;
    verdict.guards.push_back({"stream", "", said});
  }
  std::vector<std::vector<std::string>> damaged(n);
  std::vector<std::size_t> totals(n);
  std::vector<std::uint64_t> after(n);
  parallel_for(n, per_tensor, [&](std::int64_t b, std::int64_t e) {
    for (auto t = b; t < e; ++t) {
      damaged[t] = images[t].damaged_canaries(Verdict::kMaxListed, &totals[t]);
      after[t] = images[t].hash();
    }
  });
  for (const emu::race::Finding& finding : races.findings()) {
    const std::string said = std::string(run_name) + ": " + finding.line();
    if (verdict.reason.empty()) verdict.reason = said;
    verdict.guards.push_back({finding.guard, "", said});
  }
  if (caller && caller->default_stream_work() > 0) {
    const std::string said = std::string(run_name) + ": the launcher put " +
                             std::to_string(caller->default_stream_work()) +
                             " piece(s) of work on the default stream, not on the stream it was given (first: " +
                             caller->first_default_stream_work() +
                             "): in a program that runs on its own stream, that work is not ordered with it";
    if (verdict.reason.empty()) verdict.reason = said;
    verdict.guards.push_back({"stream", "", said});
  }
  for (int t = 0; t < n; ++t)
    report_guards(run_name, images[t].name(), damaged[t], totals[t], !is_output(c, t) && after[t] != before[t],
                  verdict);
  return true;
}

void report_guards(const std::string& run_name, const std::string& tensor, const std::vector<std::string>& damaged,
                   std::size_t damaged_total, bool input_modified, Verdict& verdict) {
  for (const auto& where : damaged) verdict.guards.push_back({"canary", tensor, run_name + ": " + where});
  if (damaged_total > damaged.size())
    verdict.guards.push_back({"canary", tensor, std::to_string(damaged_total) + " canary bytes changed in all"});
  if (input_modified)
    verdict.guards.push_back({"input-modified", tensor, run_name + ": the kernel wrote into its input"});
}

namespace {
// The first kMaxListed elements of `where` (row-major) as guards of `kind`, then the count in all.
void list_elements(Verdict& verdict, const char* kind, const GuardedImage& image,
                   const std::vector<std::pair<std::int64_t, std::int64_t>>& where, std::int64_t total,
                   const std::string& each, const char* in_all) {
  for (std::size_t i = 0; i < std::min(where.size(), Verdict::kMaxListed); ++i)
    verdict.guards.push_back(
        {kind, image.name(), "element " + index_text(image.layout(), where[i].first, where[i].second) + each});
  if (total > static_cast<std::int64_t>(Verdict::kMaxListed))
    verdict.guards.push_back({kind, image.name(), std::to_string(total) + in_all});
}
}  // namespace

void compare_runs(const GuardedImage& first, const GuardedImage& second, Verdict& verdict, unsigned threads,
                  const Case* run1, const Case* run2) {
  const Layout& l = first.layout();
  std::mutex m;
  std::int64_t unwritten = 0, changed = 0;
  std::vector<std::pair<std::int64_t, std::int64_t>> listed_unwritten, listed_changed;
  parallel_for(l.rows(), threads, [&](std::int64_t r0, std::int64_t r1) {
    std::int64_t u = 0, ch = 0;
    std::vector<std::pair<std::int64_t, std::int64_t>> lu, lc;
    for (auto r = r0; r < r1; ++r)
      for (std::int64_t col = 0; col < l.cols(); ++col) {
        const auto a = first.element_bits(r, col), b = second.element_bits(r, col);
        if (a == b) continue;
        const bool kept = a == first.poison_bits(Poison::nan, kRandomPoisonSeed, r, col) &&
                          b == second.poison_bits(Poison::random_finite, kRandomPoisonSeed, r, col);
        auto& list = kept ? lu : lc;
        if (list.size() < Verdict::kMaxListed) list.emplace_back(r, col);
        ++(kept ? u : ch);
      }
    std::lock_guard lock(m);
    unwritten += u, changed += ch;
    listed_unwritten.insert(listed_unwritten.end(), lu.begin(), lu.end());
    listed_changed.insert(listed_changed.end(), lc.begin(), lc.end());
  });
  // Row-major order whatever the thread count: the first kMaxListed of each kind are listed.
  std::sort(listed_unwritten.begin(), listed_unwritten.end());
  std::sort(listed_changed.begin(), listed_changed.end());
  const std::string orders = run1 && run2 && run1->backend == Backend::emu
                                 ? " (emu schedule=" + std::to_string(run1->schedule) +
                                       " then schedule=" + std::to_string(run2->schedule) +
                                       ": other block and thread orders)"
                                 : "";
  list_elements(verdict, "unwritten", first, listed_unwritten, unwritten,
                " kept the poison of both runs: never written", " elements never written in all");
  list_elements(verdict, "nondeterministic", first, listed_changed, changed,
                " differs between two runs of the same Case" + orders, " elements differ in all");
}

KeptPoison kept_poison(const GuardedImage& image, Poison poison, unsigned threads) {
  const Layout& l = image.layout();
  KeptPoison kept;
  std::mutex m;
  parallel_for(l.rows(), threads, [&](std::int64_t r0, std::int64_t r1) {
    KeptPoison part;
    for (auto r = r0; r < r1; ++r)
      for (std::int64_t col = 0; col < l.cols(); ++col) {
        if (image.element_bits(r, col) != image.poison_bits(poison, kRandomPoisonSeed, r, col)) continue;
        if (part.first.size() < Verdict::kMaxListed) part.first.emplace_back(r, col);
        ++part.count;
      }
    std::lock_guard lock(m);
    kept.count += part.count;
    kept.first.insert(kept.first.end(), part.first.begin(), part.first.end());
  });
  std::sort(kept.first.begin(), kept.first.end());
  if (kept.first.size() > Verdict::kMaxListed) kept.first.resize(Verdict::kMaxListed);
  return kept;
}

void find_unwritten(const GuardedImage& image, Poison poison, Verdict& verdict) {
  const KeptPoison kept = kept_poison(image, poison);
  list_elements(verdict, "unwritten", image, kept.first, kept.count,
                " kept the poison of the Case's one run: never written", " elements never written in all");
}

std::string case_progress() {
  const StepCounter& step = current_step();
  const std::string name = step.name.load(std::memory_order_relaxed);
  if (name.empty()) return "starting";
  if (const auto total = step.total.load(std::memory_order_relaxed); total > 0)
    return name + ": " +
           fraction_with_estimate(step.done.load(std::memory_order_relaxed), total, "rows", seconds_in_step());
  const emu::LaunchProgress& p = emu::launch_progress();  // the GPU's blocks are not counted
  const auto done = p.blocks_done.load(std::memory_order_relaxed),
             total = p.blocks_total.load(std::memory_order_relaxed);
  if (!name.starts_with("run ") || total == 0 || done > total) return name;
  // Every block of the last launch ran, and the step goes on: the launcher's own host work, or the
  // time before its next launch. A "100 %" would say the step is about to end.
  if (done == total) {
    char text[160];
    std::snprintf(text, sizeof text, ": the last launch's %llu blocks done, the launcher still running (%.0f s so far)",
                  static_cast<unsigned long long>(total), seconds_in_step());
    return name + text;
  }
  return name + ": " +
         fraction_with_estimate(static_cast<std::int64_t>(done), static_cast<std::int64_t>(total), "blocks",
                                seconds_in_step());
}

namespace {
// A Case not run here, with the reason: never a pass or a fail.
Verdict skipped(const Case& c, std::string reason) {
  Verdict verdict;
  verdict.outcome = Outcome::skipped;
  verdict.reproduce = c.to_text();
  verdict.subject = subject_of(c);
  verdict.reason = std::move(reason);
  return verdict;
}
std::optional<std::string> backend_missing(const Case& c) {
  std::string why;
  if (backend_available(c.backend, &why)) return std::nullopt;
  return "backend " + std::string(name(c.backend)) + " is not available here: " + why;
}
}  // namespace

Verdict run_case(const Case& input, std::vector<ElementError>* elements) {
  Case c = input;
  c.backend = resolve_backend(input.backend);
  if (c.schedule != 0 && c.backend == Backend::cuda)
    throw InputError("bad Case token 'schedule=" + std::to_string(c.schedule) +
                     "': backend auto is cuda on this machine, and a thread order is emu's to choose "
                     "(accepted: schedule with backend=emu)");
  // Before a variant is chosen: in a build without CUDA no variant has a cuda launcher, and the
  // same line runs where there is one.
  if (auto why = backend_missing(c)) return skipped(c, *why);

  const Variant* variant = nullptr;
  if (c.variant == "auto") {
    std::string why;
    variant = choose_variant(c, &why);
    if (!variant) throw InputError("no variant can run '" + input.to_text() + "': " + why);
  } else {
    variant = find_variant(c.op->name, c.variant);
    if (!variant) {
      std::string known;
      for (const auto& v : all_variants())
        if (v.op == c.op->name) known += (known.empty() ? "" : ", ") + std::string(v.name);
      throw InputError("unknown variant '" + c.variant + "' of op " + std::string(c.op->name) +
                       " (registered: " + (known.empty() ? "none yet" : known) + "; see `kverify list`)");
    }
    // Not this variant's Case: on this backend (the same line runs on the other), or outside what
    // it takes (its limits, its declared domain). SKIPPED with the reason, never a pass or a fail.
    if (auto why = unsupported(*variant, c, c.backend)) return skipped(c, *why);
  }
  c.variant = std::string(variant->name);
  return run_case_with(c, *variant, elements);
}

Verdict run_case_with(const Case& c, const Variant& variant_to_run, std::vector<ElementError>* elements) {
  trace_case(c);  // before anything can fault: a parent process names the Case that was running
  const auto start = std::chrono::steady_clock::now();
  const Variant* variant = &variant_to_run;
  Verdict verdict;
  verdict.reproduce = c.to_text();
  verdict.subject = subject_of(c);
  const auto finish = [&](Verdict& v) -> Verdict& {
    v.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return v;
  };

  if (auto why = backend_missing(c)) {
    verdict.outcome = Outcome::skipped;
    verdict.reason = *why;
    return finish(verdict);
  }
  if (const auto refusal = memory_refusal(full_check_need(c), c.backend)) {
    verdict.outcome = Outcome::skipped;
    verdict.reason = "the check " + *refusal;
    return finish(verdict);
  }

  const std::vector<int> outputs = c.op->outputs();
  std::vector<std::unique_ptr<Tolerance>> tolerances;
  for (std::size_t k = 0; k < outputs.size(); ++k) {
    tolerances.push_back(tolerance_of(c, *variant, static_cast<int>(k)));
    const std::string text = tolerances.back()->describe();
    verdict.tolerance +=
        outputs.size() == 1
            ? text
            : (k ? "; " : "") + std::string(c.op->tensors[static_cast<std::size_t>(outputs[k])].name) + ": " + text;
  }

  const bool once = runs_once(c);
  begin_step("making the inputs");
  std::vector<GuardedImage> first, second;
  try {
    first = materialize(c);
    // The second run's images: a copy of materialize(c)'s (a pure function of the Case), taken
    // before anything runs; generating the values again cost as much as copying them ten times.
    if (!once) second = first;
  } catch (const std::runtime_error& e) {  // a far layout's address range this host cannot reserve
    verdict.outcome = Outcome::skipped;
    verdict.reason = std::string("the Case's buffers could not be made here: ") + e.what();
    return finish(verdict);
  }
  begin_step("the exact reference");
  const OutputExpectations want = c.op->reference(c, input_views(c, first));  // inputs are never written: checked below
  if (want.size() != outputs.size())
    throw std::logic_error("op " + std::string(c.op->name) + "'s reference gave " + std::to_string(want.size()) +
                           " outputs' expectations, the op declares " + std::to_string(outputs.size()));
  const std::uint64_t side_stream_launches_before = emu::side_stream_launches();
  const Case run2 = second_run_of(c);
  if (once) {
    begin_step("run 1 of 1 of the kernel");
    if (!guarded_run(c, *variant, first, Poison::nan, verdict)) return finish(verdict);
    for (const int t : outputs) find_unwritten(first[t], Poison::nan, verdict);
  } else {
    begin_step("run 1 of 2 of the kernel");
    if (!guarded_run(c, *variant, first, Poison::nan, verdict)) return finish(verdict);
    begin_step("run 2 of 2 of the kernel");
    if (!guarded_run(run2, *variant, second, Poison::random_finite, verdict)) return finish(verdict);
  }
  begin_step("the comparison against the reference and the eager baseline");

  if (!once)
    for (const int t : outputs) compare_runs(first[t], second[t], verdict, 1, &c, &run2);
  const OutputValues eager = c.op->eager_baseline(c, input_views(c, first));
  for (std::size_t k = 0; k < outputs.size(); ++k) {
    const int t = outputs[k];
    const TensorSpec& spec = c.op->tensors[static_cast<std::size_t>(t)];
    Comparison cmp =
        compare_output(first[t].view(), first[t].name(), want[k], *tolerances[k], spec.rows_sum_to_one, elements);
    const BaselineCheck base = check_against_baseline(first[t].view(), eager.at(k), want[k], *tolerances[k]);
    cmp.stats.baseline_kernel_ulps = base.kernel_max_ulps;
    cmp.stats.baseline_eager_ulps = base.baseline_max_ulps;
    if (!base.ok)
      verdict.guards.push_back(
          {"baseline", first[t].name(), baseline_rule_violation(base.kernel_max_ulps, base.baseline_max_ulps)});
    note_accuracy(verdict, first[t].name(), cmp.stats.noted, *tolerances[k]);
    if (outputs.size() > 1) verdict.outputs.push_back({first[t].name(), cmp.stats, tolerances[k]->describe()});
    if (k == 0) {
      verdict.stats = cmp.stats;
    } else {
      merge_into(verdict.stats, cmp.stats);
    }
    for (auto& m : cmp.first_mismatches)
      if (verdict.first_mismatches.size() < Verdict::kMaxListed) verdict.first_mismatches.push_back(std::move(m));
    for (auto r : cmp.failed_rows) verdict.failed_rows.push_back(r);
  }
  // Rows of several outputs: each row once, the count the largest output's (their rows are the op's).
  std::sort(verdict.failed_rows.begin(), verdict.failed_rows.end());
  verdict.failed_rows.erase(std::unique(verdict.failed_rows.begin(), verdict.failed_rows.end()),
                            verdict.failed_rows.end());
  if (verdict.failed_rows.size() > Verdict::kMaxListed) verdict.failed_rows.resize(Verdict::kMaxListed);
  for (const auto& o : verdict.outputs)
    verdict.stats.failed_rows = std::max(verdict.stats.failed_rows, o.stats.failed_rows);

  decide_outcome(verdict);
  if (once && !verdict.checks_passed.empty())
    verdict.checks_passed.back() =
        "one run, not two (more than 65535 rows on emu: its orders are compared on the variant's other Cases)";
  else if (c.backend == Backend::emu && !verdict.checks_passed.empty())
    verdict.checks_passed.back() += " (schedule=" + std::to_string(c.schedule) +
                                    " then schedule=" + std::to_string(run2.schedule) +
                                    ": other block and thread orders)";
  if (c.backend == Backend::emu && !verdict.checks_passed.empty())
    verdict.checks_passed.push_back(emu::race::enabled()
                                        ? "no data race, no out-of-bounds read (emu race detector)"
                                        : "data races not looked for: emu race detector " + emu::race::status_text());
  if (c.backend == Backend::emu && !verdict.checks_passed.empty() && variant->takes_stream)
    verdict.checks_passed.push_back("its work on the stream it was given (none on the default stream)");
  if (c.backend == Backend::cuda && !verdict.checks_passed.empty() && variant->takes_stream && !CasesAtOnce::active())
    verdict.checks_passed.push_back(
        "the default streams idle when the stream it was given had finished (work already ended is not seen)");
  const bool fast_math_build = variant->cuda_flags.find("use_fast_math") != std::string_view::npos;
  if (verdict.outcome == Outcome::fail && fast_math_build && variant->policy != "fast_math")
    verdict.hint =
        "built with --use_fast_math: expf is __expf (2 + 1.173|x| ulp on the device, its argument rounded to f32 "
        "first), x / y is __fdividef and subnormals flush to zero, past this policy's expf (2 ulp); a kernel that "
        "means it registers with POLICY fast_math";
  if (c.backend == Backend::emu && emu::side_stream_launches() > side_stream_launches_before)
    verdict.hint += std::string(verdict.hint.empty() ? "" : "; ") +
                    "the launcher launched on a side stream: emu runs every stream in order, so work left there "
                    "without its join cannot show as wrong here (the GPU can: run the Case with backend=cuda)";
  return finish(verdict);
}

}  // namespace kverify
