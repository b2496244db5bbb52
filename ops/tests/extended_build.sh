#!/usr/bin/env bash
# kverify as users extend it, built once for every test that checks a way in (each full build of
# kverify is minutes on the CI machine, so the ways in share one):
#   - a user's own project outside the checkout, as the README's "Check your own kernel" starts it:
#     `kverify new softmax my_kernel`, configured with find_package(kverify) against a configured
#     copy of this checkout (its tracked files, unchanged);
#   - ops of the user's own in that project, declared with kverify_add_op and no edit to kverify:
#     examples/your_op (embed_rmsnorm: five tensors, an i32 index input, two outputs, a parameter;
#     its kernel and a planted-bug copy) and `kverify new op my_scaled` (the op scaffold), each
#     added with add_subdirectory;
#   - variants from outside folders: the project is configured with KVERIFY_VARIANT_DIRS naming the
#     copy's examples/cuda_styles, examples/your_terms, examples/my_softmax and bench/tests/cheats.
# Only the project's kverify CLI and fuzz_run are built (emu, no sanitizer flavors).
# ops/tests/your_op.sh, examples/tests/cuda_styles.sh, examples/tests/example_builds.sh and
# bench/tests/cheats_emu.sh then run WORK_DIR/cli.
#   extended_build.sh SOURCE_DIR WORK_DIR KVERIFY_CLI (this checkout's, for `kverify new`)
set -u
src="$1" work="$2" kv="$3"
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work"
mkdir -p "$work/tree"
work="$(cd "$work" && pwd)"
tree="$work/tree"
(cd "$src" && git ls-files -z | xargs -0 tar -cf - 2>/dev/null) | tar -xf - -C "$tree" || fail "cannot copy the checkout"

# Release at the main build's -O2 (CMake's -O3 compiles a fifth slower); example_builds.sh reads
# the same options from $work/cmake-options.
opts=(-G Ninja -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG" -DKVERIFY_ENABLE_CUDA=OFF
  -DKVERIFY_SANITIZER_FLAVORS=OFF)
printf '%s\n' "${opts[@]}" >"$work/cmake-options"
cmake -S "$tree" -B "$work/kverify" "${opts[@]}" >"$work/configure.log" 2>&1 ||
  { tail -20 "$work/configure.log"; fail "configure the copy"; }
[[ -f $work/kverify/kverifyConfig.cmake ]] || fail "configuring the copy wrote no kverifyConfig.cmake"

project="$work/my_kernel"
"$kv" new softmax my_kernel --dir "$project" >"$work/new.log" 2>&1 || { cat "$work/new.log"; fail "kverify new softmax my_kernel"; }
"$kv" new op my_scaled --dir "$project/my_scaled" >>"$work/new.log" 2>&1 || { cat "$work/new.log"; fail "kverify new op my_scaled"; }
for f in CMakeLists.txt my_kernel.cu README.md my_scaled/CMakeLists.txt my_scaled/my_scaled_op.cpp my_scaled/my_scaled.cu; do
  [[ -s $project/$f ]] || fail "kverify new wrote no $f"
done
cp -r "$tree/examples/your_op" "$project/your_op"
printf '\n# Ops of this project (kverify_add_op), each with its kernels.\nadd_subdirectory(your_op)\nadd_subdirectory(my_scaled)\n' \
  >>"$project/CMakeLists.txt"
variant_dirs="$tree/examples/cuda_styles;$tree/examples/your_terms;$tree/examples/my_softmax;$tree/bench/tests/cheats"
echo "my_kernel (kverify new) with the ops embed_rmsnorm (examples/your_op) and my_scaled (kverify new op), configured with kverify_DIR=$work/kverify KVERIFY_VARIANT_DIRS=$variant_dirs"
cmake -S "$project" -B "$project/build" "${opts[@]}" -Dkverify_DIR="$work/kverify" -DKVERIFY_VARIANT_DIRS="$variant_dirs" \
  >>"$work/configure.log" 2>&1 || { tail -20 "$work/configure.log"; fail "configure my_kernel with find_package(kverify)"; }
cmake --build "$project/build" -j "$(nproc)" --target kverify fuzz_run >"$work/build.log" 2>&1 ||
  { grep -m5 -A3 error "$work/build.log"; fail "build (the whole log: $work/build.log)"; }
ln -sfn "$project/build/kverify/tools/kverify" "$work/cli"
echo "PASS: kverify with my_kernel, the ops embed_rmsnorm and my_scaled of the project, and the variants of examples/cuda_styles, examples/your_terms, examples/my_softmax and bench/tests/cheats built: $work/cli"
