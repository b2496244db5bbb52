// scale's registry entries.
#include "kernels/common/variant_launchers.hpp"
#include "kernels/registry.hpp"

namespace kverify::kernels::scale {
KV_DECLARE_LAUNCHER(strided)

const Variant kVariants[] = {
    {.op = "scale",
     .name = "strided",
     .strategy = "any layout: a grid-stride loop, 64-bit indices",
     KV_LAUNCHERS(strided)},
};
}  // namespace kverify::kernels::scale

std::span<const kverify::Variant> kverify::kernels::scale::variants() { return kernels::scale::kVariants; }
