#include "kernels/registry.hpp"

#include <map>
#include <stdexcept>
#include <vector>

#include "core/error.hpp"
#include "core/op_spec.hpp"

namespace kverify {

std::span<const Variant> all_variants() {
  static const std::vector<Variant> all = [] {
    std::vector<Variant> v;
    const auto add = [&](std::span<const Variant> list) { v.insert(v.end(), list.begin(), list.end()); };
#define KVERIFY_KERNEL_FOLDER(op) add(kernels::op::variants());
#include "kernels/folders.def"
#undef KVERIFY_KERNEL_FOLDER
    add(added_variants());
    return v;
  }();
  return all;
}

std::span<const Variant> mutant_variants() {
  static const std::vector<Variant> mutants = [] {
    std::vector<Variant> v;
    for (const auto& a : added_variants())
      if (a.mutant && a.cheat.empty()) v.push_back(a);
    return v;
  }();
  return mutants;
}

const Variant* find_variant(std::string_view op, std::string_view name) {
  for (const auto& v : all_variants())
    if (v.op == op && v.name == name) return &v;
  return nullptr;
}

std::unique_ptr<Tolerance> tolerance_of(const Case& c, const Variant& v, int output) {
  if (v.custom_tolerance) return v.custom_tolerance(c);
  if (v.policy == "fast_math") {
    if (!c.op->fast_math_tolerance)
      throw InputError(std::string(v.op) + "/" + std::string(v.name) + " is registered with POLICY fast_math, and op " +
                       std::string(c.op->name) +
                       " has no fast-math policy derived yet (accepted: POLICY default, custom=<fn>; fast_math for "
                       "the ops whose spec sets fast_math_tolerance)");
    return c.op->fast_math_tolerance(c, output);
  }
  return c.op->tolerance(c, output);
}

std::vector<std::string> variant_problems(std::span<const Variant> variants) {
  std::vector<std::string> problems;
  std::map<std::pair<std::string_view, std::string_view>, int> seen;
  for (const auto& v : variants)
    if (++seen[{v.op, v.name}] == 2)
      problems.push_back(std::string(v.op) + "/" + std::string(v.name) +
                         " is registered twice (kverify's own variant and a kverify_add_kernel, or two "
                         "registrations): a Case naming it would run only one of them (accepted: variant names "
                         "unique per op; rename the registration, e.g. my_" +
                         std::string(v.name) + ")");
  for (const auto& v : variants) {
    const std::string who = std::string(v.op) + "/" + std::string(v.name);
    const OpSpec* op = find_op(v.op);
    if (!op) {
      problems.push_back(who + ": op " + std::string(v.op) + " is not declared in this build (accepted: " + op_names() +
                         ")");
      continue;
    }
    try {
      static_cast<void>(parse_domain(v.accepts, *op));
    } catch (const InputError& e) {
      problems.push_back(who + ": ACCEPTS " + e.what());
    }
  }
  return problems;
}

const std::vector<std::string>& registration_problems() {
  // The declarations are fixed when the program starts: checked once per process (the cli fuzz
  // target runs the command line thousands of times a second).
  static const std::vector<std::string> problems = [] {
    std::vector<std::string> problems;
    for (const OpSpec* op : all_ops())
      if (std::string p = op_declaration_problem(*op); !p.empty()) problems.push_back(p);
    for (std::string& p : variant_problems(all_variants())) problems.push_back(std::move(p));
    return problems;
  }();
  return problems;
}

const Domain& domain_of(const Variant& v) {
  static const std::map<std::pair<std::string_view, std::string_view>, Domain> domains = [] {
    std::map<std::pair<std::string_view, std::string_view>, Domain> out;
    for (const auto& variant : all_variants()) {
      const OpSpec* op = find_op(variant.op);
      try {
        if (!op) throw InputError("op " + std::string(variant.op) + " is not declared in this build");
        out[{variant.op, variant.name}] = parse_domain(variant.accepts, *op);
      } catch (const InputError& e) {  // kverify_add_variant checks the tokens: this is a registry bug
        throw std::logic_error(std::string(variant.op) + "/" + std::string(variant.name) + ": " + e.what());
      }
    }
    return out;
  }();
  static const Domain none;
  const auto it = domains.find({v.op, v.name});
  return it == domains.end() ? none : it->second;
}

std::optional<std::string> not_on_backend(const Variant& v, Backend backend) {
  const std::string who = std::string(v.op) + "/" + std::string(v.name);
  if (backend == Backend::emu && !v.on_emu)
    return who + " does not run on emu: " + std::string(v.emu_unsupported_reason);
  if (backend == Backend::cuda && !v.launch_cuda)
    return who + " has no cuda launcher in this build (built without CUDA)";
  return std::nullopt;
}

std::optional<std::string> unsupported(const Variant& v, const Case& c, Backend backend) {
  const std::string who = std::string(v.op) + "/" + std::string(v.name);
  if (!v.supports(c.dtype)) return who + " does not support dtype " + std::string(name(c.dtype));
  if (auto why = not_on_backend(v, backend)) return why;
  const Layout x = c.layout(0);
  if (x.rows() > v.max_rows) return who + " takes at most " + std::to_string(v.max_rows) + " rows";
  if (x.cols() > v.max_cols) return who + " takes at most " + std::to_string(v.max_cols) + " columns";
  if (v.not_applicable)
    if (std::string why = v.not_applicable(c); !why.empty()) return who + " " + why;
  if (auto why = outside_domain(domain_of(v), c)) return who + " does not take this Case: " + *why;
  return std::nullopt;
}

const Variant* choose_variant(const Case& c, std::string* why_none) {
  // An op with variants of kverify's own dispatches among them (their auto_when); an op with none
  // (a user's op) takes the first of its registered variants that supports the Case.
  const auto all = all_variants();
  const std::size_t own = all.size() - added_variants().size();
  bool op_has_own = false;
  for (std::size_t i = 0; i < own; ++i) op_has_own = op_has_own || all[i].op == c.op->name;
  std::string reasons;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const Variant& v = all[i];
    if (v.op != c.op->name || v.mutant) continue;
    const auto problem = unsupported(v, c, c.backend);
    const bool wanted = !op_has_own || !v.auto_when || v.auto_when(c);
    if (!problem && wanted) return &v;
    if (problem) reasons += (reasons.empty() ? "" : "; ") + *problem;
  }
  if (why_none)
    *why_none =
        reasons.empty() ? "op " + std::string(c.op->name) + " has no registered variants in this build yet" : reasons;
  return nullptr;
}

}  // namespace kverify
