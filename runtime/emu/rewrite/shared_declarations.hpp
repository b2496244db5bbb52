// The build-time source rewrite for the two uses of __shared__ that no macro can give their CUDA
// meaning on the host compiler (cuda_model.hpp says why):
//
//   extern __shared__ SPECS NAME[]DIMS;   in a function  ->
//       SPECS (*const NAME)DIMS = reinterpret_cast<decltype(NAME)>(::kverify::emu::dynamic_shared_memory());
//   extern __shared__ SPECS NAME[]DIMS;   at namespace scope  ->
//       inline ::kverify::emu::ExternShared<SPECS' DIMS> NAME;   (SPECS' without alignment attributes)
//   __shared__ SPECS NAME DIMS;           in a function  ->
//       auto& NAME = ::kverify::emu::static_shared<SPECS' DIMS>(alignment, "NAME", [] {});
//   static __shared__                     ->  __shared__   (then as above, or `static` where left)
//
// So every `extern __shared__` array of a kernel is the launch's one dynamic shared block, as in
// CUDA, and every static one a slot of emu's static shared arena, where the race detector sees it
// (the unique lambda type gives each declaration, in each template instance, its own slot).
// Everything else is copied unchanged, comments, strings and preprocessor lines included, and every
// line keeps its number (barrier sites are reported by line). A declaration the rewrite does not
// understand (several declarators, no `[]` after extern) is left as written: the compiler then
// reports an extern one, and a plain one stays `static`.
//
// The tool kv_emu_launch_rewrite (rewrite/main.cpp) applies it before the `<<<>>>` rewrite, to a
// .cu file and to every header it reaches.
#pragma once

#include <string>
#include <string_view>

namespace kverify::emu {

std::string rewrite_shared_declarations(std::string_view source);

}  // namespace kverify::emu
