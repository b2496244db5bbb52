#include "bench/gate.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <span>
#include <stdexcept>

#include "bench/device_image.hpp"
#include "bench/row_rotation.hpp"
#include "core/parallel.hpp"
#include "pipeline/execute.hpp"
#include "pipeline/guard_patterns.hpp"
#include "pipeline/guarded_image.hpp"
#include "pipeline/memory_plan.hpp"
#include "pipeline/run_case.hpp"  // materialize, guarded_run, compare_runs, decide_outcome, subject_of
#include "pipeline/sampled_check.hpp"

namespace kverify::bench {

std::vector<std::int64_t> reference_rows(const Case& c, const GateOptions& o, std::string* how) {
  return sampled_rows(c, SampleOptions{o.reference_budget, 8, o.sample_seed}, how);
}

bool gates_on_device(const Case& c) {
  if (c.backend != Backend::cuda) return false;
  for (int t = 0; t < c.op->tensor_count(); ++t)
    if (GuardedImage::sparse_bytes(c.layout(t), tensor_dtype(c, t)) || !DeviceImage::takes(c.layout(t)))
      return false;  // a far layout (its pages), or dimensions that do not collapse: the host path
  return true;
}

namespace {

// The inputs the device drew for the checked rows, against the host's recipe, bit for bit: what a
// replay of the Case on emu will give the kernel.
constexpr std::int64_t kReplayChecked = std::int64_t{1} << 22;
// Returns {elements checked, elements copied}.
// `rows`: the tensor's logical rows that were copied, in order.
std::pair<std::int64_t, std::int64_t> check_replayable(const Case& c, int t, const std::vector<std::int64_t>& rows,
                                                       const std::vector<unsigned char>& got, unsigned threads) {
  const Layout l = c.layout(t);
  const DType dtype = tensor_dtype(c, t);
  const std::size_t es = size_of(dtype);
  const recipe_math::Draw draw = input_draw(c, t);
  std::mutex m;
  std::string first_difference;
  // Every copied element up to kReplayChecked, else that many spread evenly over them (one in
  // `stride`, at a seeded place in each stretch): a host and a device that drew differently differ
  // on most elements (another rounding somewhere in the arithmetic), so a sample sees it, where
  // recomputing a gigabyte tensor's recipe on the host cost seconds (the test on the GPU,
  // bench/tests/device_image_test.cpp, compares every recipe in every dtype element by element).
  const auto elements = static_cast<std::int64_t>(rows.size()) * l.cols();
  const std::int64_t stride = (elements + kReplayChecked - 1) / kReplayChecked;
  parallel_for((elements + stride - 1) / stride, threads, [&](std::int64_t j0, std::int64_t j1) {
    for (auto j = j0; j < j1; ++j) {
      const std::int64_t i = std::min(
          elements - 1, j * stride + static_cast<std::int64_t>(guard_patterns::mix(static_cast<std::uint64_t>(j)) %
                                                               static_cast<std::uint64_t>(stride)));
      const std::int64_t r = rows[static_cast<std::size_t>(i / l.cols())], col = i % l.cols();
      recipe_math::Draw d = draw;
      d.row = r, d.col = col;
      const std::uint64_t want = storage_bits(dtype, recipe_math::value(d));
      std::uint64_t have = 0;
      std::memcpy(&have, got.data() + static_cast<std::size_t>(i) * es, es);
      if (have == want) continue;
      char buf[160];
      std::snprintf(buf, sizeof buf, "tensor %s element (%lld,%lld): the device drew bits 0x%llx, the host 0x%llx",
                    std::string(c.op->tensors[static_cast<std::size_t>(t)].name).c_str(), static_cast<long long>(r),
                    static_cast<long long>(col), static_cast<unsigned long long>(have),
                    static_cast<unsigned long long>(want));
      std::lock_guard lock(m);
      if (first_difference.empty()) first_difference = buf;
      return;
    }
  });
  if (!first_difference.empty())
    throw std::runtime_error("the inputs drawn on the device differ from the host's recipe (" + first_difference +
                             "): a replay on emu would not see the kernel's inputs");
  return {(elements + stride - 1) / stride, elements};
}

// The gate's checks with every tensor on the device: inputs drawn there, two guarded runs (NaN
// then random poison), canaries, input hashes and the run comparison counted there; a guard that
// fails brings its whole image to the host, whose own checks then describe it exactly as run_case
// does. Only the sampled rows (and tensors read whole, e.g. matmul's B) come to the host for the
// reference, after they are checked against the host's recipe.
// Returns what the replay check covered, for the gate's coverage line; `hashes` gets every image's
// hash after run 1 (bench/gate.hpp: GateResult::image_hashes).
std::string check_on_device(const Case& c, const Variant& v, std::span<const Tolerance* const> tolerances,
                            const std::vector<std::int64_t>& rows, unsigned threads, Verdict& verdict,
                            std::vector<std::uint64_t>& hashes) {
  const int n = c.op->tensor_count();
  const std::vector<int> outputs = c.op->outputs();
  const auto spec = [&](int t) -> const TensorSpec& { return c.op->tensors[static_cast<std::size_t>(t)]; };
  const auto image_of = [&](int t) {
    return std::make_unique<DeviceImage>(std::string(spec(t).name), c.layout(t), tensor_dtype(c, t),
                                         static_cast<std::uint64_t>(t) + 1);
  };
  std::vector<std::unique_ptr<DeviceImage>> images;
  std::vector<std::uint64_t> pristine(static_cast<std::size_t>(n), 0);
  for (int t = 0; t < n; ++t) {
    images.push_back(image_of(t));
    if (spec(t).output) continue;
    images.back()->draw(input_draw(c, t));
    pristine[static_cast<std::size_t>(t)] = images.back()->hash();
  }
  const auto guarded_run_on_device = [&](const char* run_name, Poison poison) {
    for (const int t : outputs) images[static_cast<std::size_t>(t)]->poison(poison, kRandomPoisonSeed);
    LaunchRequest request = launch_request_of(c, Backend::cuda);
    for (const auto& image : images)
      request.tensors.push_back(DeviceTensor::of(image->element0(), image->layout(), image->dtype(),
                                                 c.op->tensors[request.tensors.size()].name));
    try {
      launch_on_device(v, request);
    } catch (const std::exception& e) {
      verdict.guards.push_back({"launch", "", e.what()});
      verdict.reason = std::string("the launch failed: ") + e.what();
      return false;
    }
    for (int t = 0; t < n; ++t) {
      DeviceImage& image = *images[static_cast<std::size_t>(t)];
      const bool modified = !spec(t).output && image.hash() != pristine[static_cast<std::size_t>(t)];
      std::vector<std::string> damaged;
      std::size_t total = 0;
      if (image.damaged_canary_bytes() > 0) damaged = image.to_host().damaged_canaries(Verdict::kMaxListed, &total);
      report_guards(run_name, image.name(), damaged, total, modified, verdict);
      // The next run starts from pristine images, as run_case's second run does.
      if (total > 0) image.rewrite_canaries();
      if (modified) image.draw(input_draw(c, t));
    }
    return true;
  };
  if (!guarded_run_on_device("run 1", Poison::nan)) return "";
  for (const auto& image : images) hashes.push_back(image->hash());
  // Run 1's outputs are kept for the comparison and the reference; run 2 writes fresh images.
  std::vector<std::unique_ptr<DeviceImage>> first(static_cast<std::size_t>(n));
  for (const int t : outputs) {
    first[static_cast<std::size_t>(t)] = std::move(images[static_cast<std::size_t>(t)]);
    images[static_cast<std::size_t>(t)] = image_of(t);
  }
  if (!guarded_run_on_device("run 2", Poison::random_finite)) return "";
  for (const int t : outputs) {
    const DeviceImage& second = *images[static_cast<std::size_t>(t)];
    const DeviceImage& one = *first[static_cast<std::size_t>(t)];
    if (const auto d = DeviceImage::compare_runs(one, second, kRandomPoisonSeed); d.unwritten + d.changed > 0)
      compare_runs(one.to_host(), second.to_host(), verdict, threads, &c, &c);
  }

  // The sampled rows on the host: compact copies, checked against the host's recipe. A tensor cut
  // with the op's rows gives its logical rows of the sampled ones, any other all of its rows.
  std::int64_t replay_checked = 0, replay_copied = 0;
  std::vector<std::vector<unsigned char>> compact(static_cast<std::size_t>(n));
  std::vector<std::int64_t> per_op_row(static_cast<std::size_t>(n), 0);
  for (int t = 0; t < n; ++t) {
    std::vector<std::int64_t> r;
    if (c.op->follows_rows(t)) {
      const std::int64_t per = logical_rows(c, t, 0, 1).second;
      per_op_row[static_cast<std::size_t>(t)] = per;
      for (const std::int64_t row : rows)
        for (std::int64_t i = 0; i < per; ++i) r.push_back(row * per + i);
    } else {
      r.resize(static_cast<std::size_t>(c.layout(t).rows()));
      std::iota(r.begin(), r.end(), std::int64_t{0});
    }
    const DeviceImage& image =
        spec(t).output ? *first[static_cast<std::size_t>(t)] : *images[static_cast<std::size_t>(t)];
    compact[static_cast<std::size_t>(t)] = image.gather_rows(r);
    if (!spec(t).output) {
      const auto [checked, copied] = check_replayable(c, t, r, compact[static_cast<std::size_t>(t)], threads);
      replay_checked += checked;
      replay_copied += copied;
    }
  }
  const RowBlockSource from_copies = [&](std::int64_t r0, std::int64_t count) {
    const auto at = static_cast<std::size_t>(std::lower_bound(rows.begin(), rows.end(), r0) - rows.begin());
    RowBlock block;
    for (int t = 0; t < n; ++t) {
      const Layout l = c.layout(t);
      const DType dtype = tensor_dtype(c, t);
      const std::size_t row_bytes = static_cast<std::size_t>(l.cols()) * size_of(dtype);
      // A compact copy: the tensor's sizes (the cut ones with `count` rows), contiguous.
      std::array<std::int64_t, kMaxRank> sizes = l.sizes;
      std::size_t first_row = 0;
      if (c.op->follows_rows(t)) {
        sizes[0] = count;
        first_row = at * static_cast<std::size_t>(per_op_row[static_cast<std::size_t>(t)]);
      }
      const TensorView view{compact[static_cast<std::size_t>(t)].data() + first_row * row_bytes,
                            Layout::contiguous({sizes.data(), static_cast<std::size_t>(l.rank)}), dtype};
      (spec(t).output ? block.outputs : block.inputs).push_back(view);
    }
    return block;
  };
  check_sampled_rows(c, rows, from_copies, tolerances, threads, verdict);
  return "; inputs drawn on the device, " +
         (replay_checked == replay_copied
              ? "every copied element"
              : std::to_string(replay_checked) + " of the " + std::to_string(replay_copied) + " copied elements") +
         " equal to the host's recipe bit for bit";
}

}  // namespace

GateResult gate_case(const Case& c, const Variant& v, const GateOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  GateResult result;
  Verdict& verdict = result.verdict;
  verdict.reproduce = c.to_text();
  verdict.subject = subject_of(c);
  const auto finish = [&]() -> GateResult& {
    verdict.seconds = result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
  };
  if (std::string why; !backend_available(c.backend, &why)) {
    verdict.outcome = Outcome::skipped;
    verdict.reason = "backend " + std::string(name(c.backend)) + " is not available here: " + why;
    return finish();
  }
  const unsigned threads = std::max(1u, o.threads);
  std::vector<std::unique_ptr<Tolerance>> owned;
  std::vector<const Tolerance*> tolerances;
  for (std::size_t k = 0; k < c.op->outputs().size(); ++k) {
    owned.push_back(tolerance_of(c, v, static_cast<int>(k)));
    tolerances.push_back(owned.back().get());
    verdict.tolerance += (k ? "; " : "") + owned.back()->describe();
  }
  const std::vector<std::int64_t> rows = reference_rows(c, o, &result.coverage);
  result.rows_checked = static_cast<std::int64_t>(rows.size());
  result.rows_total = op_rows(c);
  const bool on_device = gates_on_device(c);
  const std::int64_t reference_elements =
      result.rows_checked * (output_elements(c) / std::max<std::int64_t>(1, result.rows_total));
  const MemoryNeed need = on_device ? device_check_need(c, reference_elements) : memory_need(c, 2, reference_elements);
  if (const auto refusal = memory_refusal(need, c.backend)) {
    verdict.outcome = Outcome::skipped;
    verdict.reason = "the gate " + *refusal;
    return finish();
  }
  if (on_device) {
    result.coverage += check_on_device(c, v, tolerances, rows, threads, verdict, result.image_hashes);
    decide_outcome(verdict);
    if (verdict.outcome != Outcome::pass) result.image_hashes.clear();
    return finish();
  }

  std::vector<GuardedImage> first = materialize(c, threads);
  std::vector<GuardedImage> second = first;  // pristine inputs for the reference and run 2
  if (guarded_run(c, v, first, Poison::nan, verdict, threads)) {
    for (const auto& image : first) result.image_hashes.push_back(image.hash());
    check_sampled_rows(c, rows, second, first, tolerances, threads, verdict);
    const Case run2 = second_run_of(c);
    if (guarded_run(run2, v, second, Poison::random_finite, verdict, threads))
      for (const int t : c.op->outputs()) compare_runs(first[t], second[t], verdict, threads, &c, &run2);
  }
  decide_outcome(verdict);
  if (verdict.outcome != Outcome::pass) result.image_hashes.clear();
  return finish();
}

std::string not_the_gated_image(const Case& c, int t) {
  const TensorSpec& spec = c.op->tensors[static_cast<std::size_t>(t)];
  return "[not the gated result] " + std::string(spec.output ? "output " : "input ") + std::string(spec.name) +
         " is not what the gate saw after the same call (" +
         (spec.output ? "its bytes differ from the gated run's: elements left unwritten, another result, or bytes "
                        "written around them"
                      : "the kernel changed its input") +
         ")";
}

std::string first_image_mismatch(const Case& c, const std::vector<std::uint64_t>& want,
                                 const std::function<std::uint64_t(std::size_t t)>& hash) {
  for (std::size_t t = 0; t < want.size(); ++t)
    if (hash(t) != want[t]) return not_the_gated_image(c, static_cast<int>(t));
  return "";
}

std::string check_repetitions_on_host(const Case& c, const Variant& v, const std::vector<std::uint64_t>& hashes,
                                      int calls, unsigned threads, int& checked, bool& fresh) {
  checked = 0;
  std::vector<GuardedImage> images = materialize(c, threads);
  if (hashes.size() != images.size()) return "";
  const RowRotation rotation = row_rotation(c);
  fresh = rotation.usable() && calls > 1;
  std::vector<std::uint64_t> want = hashes;
  std::vector<std::vector<unsigned char>> pristine(images.size());   // inputs cut with the rows; gated outputs
  std::vector<std::optional<GuardedImage>> expected(images.size());  // an output's gated image, rotated
  SecretShifts shifts;
  const auto element0 = [](GuardedImage& image) {
    return image.data() + image.origin() + static_cast<std::size_t>(image.layout().offset) * size_of(image.dtype());
  };
  const auto host_copy = [](unsigned char* to, const unsigned char* from, std::size_t n) { std::memcpy(to, from, n); };
  for (int call = 0; call < calls; ++call) {
    if (call > 0 && fresh) {
      const std::int64_t shift = shifts.next(rotation);
      for (std::size_t t = 0; t < images.size(); ++t) {
        if (pristine[t].empty()) continue;
        GuardedImage& target = expected[t] ? *expected[t] : images[t];
        rotate_rows(element0(target), pristine[t].data(), pristine[t].size(), shift, rotation.rows, host_copy);
        want[t] = target.hash();
      }
    }
    for (const int t : c.op->outputs())
      images[static_cast<std::size_t>(t)].poison(Poison::nan, kRandomPoisonSeed, threads);
    const std::string where = "call " + std::to_string(call + 1) + " of " + std::to_string(calls) + ": ";
    try {
      execute(c.backend, v, c, images);
    } catch (const std::exception& e) {
      return where + "[launch] " + e.what();
    }
    if (std::string problem = first_image_mismatch(c, want, [&](std::size_t t) { return images[t].hash(); });
        !problem.empty())
      return where + problem;
    ++checked;
    if (call == 0 && fresh)  // the gated images, before any rotation: what later calls' are cut from
      for (std::size_t t = 0; t < images.size(); ++t) {
        const TensorSpec& spec = c.op->tensors[t];
        if (!spec.output && !c.op->follows_rows(static_cast<int>(t))) continue;
        const unsigned char* first = element0(images[t]);
        pristine[t].assign(first, first + element_bytes(images[t].layout(), images[t].dtype()));
        if (spec.output) expected[t] = images[t];
      }
  }
  return "";
}

}  // namespace kverify::bench
