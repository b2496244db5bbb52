// What property bodies are written with (catalogue.cpp and ops/<op>/properties.cpp): the variants
// and dtypes a Context selects, pinning a Case to a variant, expecting a pass or a guard to hold,
// and running a Case with its input rewritten. Every helper fails the property through RapidCheck
// (RC_FAIL) with a message that ends in a reproduce line.
#pragma once

#include <rapidcheck.h>

#include <cstring>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/case.hpp"
#include "core/verdict.hpp"
#include "kernels/registry.hpp"
#include "properties/catalogue.hpp"
#include "properties/generators.hpp"

namespace kverify::properties {

std::vector<DType> dtypes_of(const Context& ctx);
// The op's production variants (or the one the Context names, a mutant too).
std::vector<const Variant*> variants_of(const Context& ctx, const OpSpec& op);
// The Case pinned to one variant and the Context's backend, moved inside the variant's declared
// domain (kernels/domain.hpp: a drawn Case the kernel never claimed to handle would spend the
// budget, and shrinking would end on it); false when the variant cannot take it.
bool pin(const Context& ctx, const Variant& v, Case& c);
// The same for a Case whose shape or layout is the property's point (not moved: skipped when outside).
bool pin_as_is(const Context& ctx, const Variant& v, Case& c);
// Records one Case of a variant in the Context's tally.
void count(const Context& ctx, const Variant& v, bool passed, double margin);
// The same for a Case judged by its Verdict, whose accuracy note (if any) is tallied too.
void count(const Context& ctx, const Variant& v, bool passed, const Verdict& verdict);

// Fails the property unless the Case passes on every variant (the message is the Verdict, whose
// reproduce line is the shrunk Case).
void expect_pass(const Context& ctx, const OpSpec& op, Case c);
// Fails only when a guard of this kind fired (so each guard has its own named property).
void expect_no_guard(const Context& ctx, const OpSpec& op, Case c, std::string_view guard);

// One run of a pinned Case with input 0 rewritten by `edit` (logical row, col, stored value -> new
// value); returns the stored outputs, each row-major, in tensor order, widened to f64.
using InputEdit = std::function<double(std::int64_t row, std::int64_t col, double stored)>;
std::vector<double> outputs_with(const Case& c, const Variant& v, const InputEdit& edit);
// The edit that keeps every input.
double keep_input(std::int64_t, std::int64_t, double stored);

// A normalisation's scale property: x * 2^k (k from 1 to 4) scales output t of the op by
// 2^(k * powers[t]) bit for bit (powers in the op's output order; 0: unchanged), for rows of at
// least 32 normal:1 values with the op's first parameter (its eps) at `negligible_eps`. Binary
// floating point changes no rounding under a power of two, so a kernel that computes what its
// contract says passes; one that misplaces eps, or rescales, clamps or offsets by an absolute
// amount, fails with the first element off.
void expect_power_of_two_scaling(const Context& ctx, const OpSpec& op, std::span<const int> powers,
                                 double negligible_eps);

// Same bits, or both NaN.
inline bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0 || (a != a && b != b); }

ValueRecipe recipe(const char* name, double param);

}  // namespace kverify::properties
