// The registry of kernel variants: per variant its op, the storage dtypes and backends it
// supports, its limits, and its launcher per backend. `variant=auto` asks choose_variant.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/case.hpp"
#include "kernels/domain.hpp"
#include "kernels/launch_request.hpp"

namespace kverify {

struct Variant {
  std::string_view op;
  std::string_view name;
  std::string_view strategy;  // one line: how it works
  bool f32 = true, f16 = true, bf16 = true;
  bool on_emu = true;
  bool on_cuda = true;
  std::string_view emu_unsupported_reason;  // set when on_emu is false (e.g. tensor-core PTX)
  std::int64_t max_rows = INT64_MAX;        // of the first tensor's logical rows and columns
  std::int64_t max_cols = INT64_MAX;
  bool mutant = false;  // deliberately wrong (or a cheat); never chosen by auto
  // False for a registration NO_STREAM: its function takes no stream, so its work goes to the
  // default stream by design (the pipeline gives every other launcher a stream of its own, and
  // work it puts on the default stream instead is a [stream] guard on emu).
  bool takes_stream = true;
  // A cheat's class (CHEAT "<class>" of kverify_add_kernel): right results, a timing it did not
  // earn; mutant is set too, and the mutation catalogue leaves it out (the bench must refuse it).
  std::string_view cheat;
  // The dispatcher (variant=auto) takes the first variant of the op, in registry order, that
  // supports the Case and whose auto_when accepts it (null: accepts every Case).
  bool (*auto_when)(const Case&) = nullptr;
  // A requirement on the Case beyond dtype, backend and the row/column limits (a layout, an
  // alignment, a width): returns why this variant cannot take the Case, or an empty string when it
  // can (null: no requirement). unsupported() reports it, so suites skip with the reason and auto
  // passes over the variant.
  std::string (*not_applicable)(const Case&) = nullptr;
  // The declared domain (tokens of kernels/preconditions.def, e.g. "contiguous aligned=16
  // cols_multiple=4"): unsupported() reports a Case outside it, and the generators and the fuzz
  // decoder draw inside it (domain_of, kernels/domain.hpp). Empty: every layout and shape.
  std::string_view accepts;
  // Device scratch memory the launcher needs (null: none); the pipeline allocates it, fills it
  // with 0xff bytes, and passes it as LaunchRequest::workspace.
  std::size_t (*workspace_bytes)(const LaunchRequest&) = nullptr;
  // The tolerance policy: "" or "default" (the op's), "fast_math" (the op's fast-math policy, for
  // __expf and flush-to-zero), or "custom=<fn>" with custom_tolerance the registration's function.
  std::string_view policy;
  std::unique_ptr<Tolerance> (*custom_tolerance)(const Case&) = nullptr;
  std::string_view cuda_flags;  // the registration's nvcc flags (--use_fast_math changes what is expected)
  // Where a CI annotation points (check/annotations.hpp): the registration's CMake call
  // ("<file>:<line>") and its source files (absolute paths, ';'-separated). Empty for kverify's
  // production variants, whose sources are kernels/<op>/.
  std::string_view registered_at;
  std::string_view sources;
  Launcher launch_emu = nullptr;
  Launcher launch_cuda = nullptr;  // null when this build has no CUDA

  bool supports(DType d) const {
    return d == DType::f32 ? f32 : d == DType::f16 ? f16 : d == DType::bf16 ? bf16 : false;
  }
};

std::span<const Variant> all_variants();

// What is wrong with this build's declarations, one line each (empty: nothing): an op whose
// declaration is inconsistent (op_declaration_problem), and variant_problems of all_variants(). The
// command line refuses to run on them.
const std::vector<std::string>& registration_problems();
// Of a list of variants: a name registered twice for one op (a registration named like one of
// kverify's own would never run), a variant of an op the build does not have, an ACCEPTS token
// that names no dimension of its op.
std::vector<std::string> variant_problems(std::span<const Variant> variants);

// Each kernel folder's production variants, in dispatch order: kernels::<op>::variants() in
// kernels/<op>/variants.cpp, for every folder of kernels/folders.def.
#define KVERIFY_KERNEL_FOLDER(op)      \
  namespace kernels::op {              \
  std::span<const Variant> variants(); \
  }
#include "kernels/folders.def"
#undef KVERIFY_KERNEL_FOLDER
// Variants registered through the CMake function kverify_add_variant (cmake/KverifyVariants.cmake):
// each op's mutants (kernels/<op>/mutants/) and users' own, in call order; the table is generated at configure time.
std::span<const Variant> added_variants();
std::span<const Variant> mutant_variants();  // the added variants marked mutant: deliberately wrong, never auto
// The GPU-side tools' mutants (compute-sanitizer, fault isolation, the huge Cases; kernels/gelu_tanh/mutants,
// kernels/row_sum/mutants): the in-process mutation self-test leaves them out (one ends the process);
// `kverify mutants`, a process per mutant, runs them on both backends.
inline bool killed_by_gpu_tools(const Variant& v) { return v.name.starts_with("mutant_gpuv_"); }
const Variant* find_variant(std::string_view op, std::string_view name);

// The tolerance output `output` (an index into OpSpec::outputs()) of a Case of this variant is
// judged by: its policy (the op's, the op's fast-math one, or the registration's own, which holds
// for every output); throws InputError when the op has no such policy.
std::unique_ptr<Tolerance> tolerance_of(const Case& c, const Variant& v, int output = 0);

// The variant's declared domain, parsed from `accepts` (an empty Domain when it declares none).
const Domain& domain_of(const Variant& v);

// The variant `auto` picks for this Case (never a mutant), or nullopt with the reason: among
// kverify's own variants of the op, the first whose auto_when takes it; for an op with none of
// kverify's (a user's op), the first registered variant that supports it.
const Variant* choose_variant(const Case& c, std::string* why_none);

// Why this variant cannot run on this backend whatever the Case (a cuda-only tensor-core kernel on
// emu, no cuda launcher in this build), or nullopt: "not run here", where the same Case runs elsewhere.
std::optional<std::string> not_on_backend(const Variant& v, Backend backend);

// Why this variant cannot run this Case on this backend (not_on_backend's reasons first), or nullopt.
std::optional<std::string> unsupported(const Variant& v, const Case& c, Backend backend);

}  // namespace kverify
