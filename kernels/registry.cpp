#include "kernels/registry.hpp"

#include <vector>

namespace kverify {

namespace kernels::softmax::emu {
void block_per_row(const LaunchRequest&);
}
#if KVERIFY_HAVE_CUDA
namespace kernels::softmax::cuda {
void block_per_row(const LaunchRequest&);
}
#define KV_CUDA_LAUNCHER(f) &f
#else
#define KV_CUDA_LAUNCHER(f) nullptr
#endif

namespace {

const Variant kVariants[] = {
    {.op = "softmax",
     .name = "block_per_row",
     .strategy = "one block per row, strided columns, block reductions of max (-inf padding) and sum",
     .max_rows = 0x7fffffff,
     .launch_emu = &kernels::softmax::emu::block_per_row,
     .launch_cuda = KV_CUDA_LAUNCHER(kernels::softmax::cuda::block_per_row)},
};

}  // namespace

std::span<const Variant> all_variants() { return kVariants; }

const Variant* find_variant(std::string_view op, std::string_view name) {
  for (const auto& v : kVariants)
    if (v.op == op && v.name == name) return &v;
  return nullptr;
}

std::optional<std::string> unsupported(const Variant& v, const Case& c, Backend backend) {
  const std::string who = std::string(v.op) + "/" + std::string(v.name);
  if (!v.supports(c.dtype)) return who + " does not support dtype " + std::string(name(c.dtype));
  if (backend == Backend::emu && !v.on_emu) return who + " does not run on emu: " + std::string(v.emu_unsupported_reason);
  if (backend == Backend::cuda && !v.launch_cuda) return who + " has no cuda launcher in this build (built without CUDA)";
  const Layout2D x = c.layout(0);
  if (x.rows > v.max_rows) return who + " takes at most " + std::to_string(v.max_rows) + " rows";
  if (x.cols > v.max_cols) return who + " takes at most " + std::to_string(v.max_cols) + " columns";
  return std::nullopt;
}

const Variant* choose_variant(const Case& c, std::string* why_none) {
  std::string reasons;
  for (const auto& v : kVariants) {
    if (v.op != c.op->name || v.mutant) continue;
    const auto problem = unsupported(v, c, c.backend);
    if (!problem) return &v;
    reasons += (reasons.empty() ? "" : "; ") + *problem;
  }
  if (why_none)
    *why_none = reasons.empty() ? "op " + std::string(c.op->name) + " has no registered variants in this build yet"
                                : reasons;
  return nullptr;
}

}  // namespace kverify
