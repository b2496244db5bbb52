// The build-time source rewrite for the two uses of __shared__ that no macro can give their CUDA
// meaning on the host compiler (cuda_model.hpp says why):
//
//   extern __shared__ SPECS NAME[]DIMS;   in a function  ->
//       SPECS (*const NAME)DIMS = reinterpret_cast<decltype(NAME)>(::kverify::emu::dynamic_shared_memory());
//   extern __shared__ SPECS NAME[]DIMS;   at namespace scope  ->
//       inline ::kverify::emu::ExternShared<SPECS' DIMS> NAME;   (SPECS' without alignment attributes)
//   static __shared__                     ->  __shared__   (which is `static` already)
//
// So every `extern __shared__` array of a kernel is the launch's one dynamic shared block, as in
// CUDA. Everything else is copied unchanged, comments, strings and preprocessor lines included,
// and every line keeps its number (barrier sites are reported by line). A declaration the rewrite
// does not understand (several declarators, no `[]`) is left as written, and the compiler then
// reports it.
//
// The `<<<>>>` launch rewrite runs over the same files; an integrator may call this function
// from it or chain the tool kv_emu_rewrite_shared. Headers a .cu file includes need the rewrite
// too (the tool takes one file; rewrite the tree, not only the .cu).
#pragma once

#include <string>
#include <string_view>

namespace kverify::emu {

std::string rewrite_shared_declarations(std::string_view source);

}  // namespace kverify::emu
