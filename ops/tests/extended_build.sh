#!/usr/bin/env bash
# kverify as users extend it, built once for every test that checks a way in (the ways in share one
# project):
#   - a user's own project outside the checkout, as the README's "Check your own kernel" starts it:
#     `kverify new softmax my_kernel`, configured with find_package(kverify) against the build tree
#     under test, used as a package: the project links that tree's libraries and compiles only what
#     it registers (cmake/KverifyPackage.cmake);
#   - ops of the user's own in that project, declared with kverify_add_op and no edit to kverify:
#     examples/your_op (embed_rmsnorm: five tensors, an i32 index input, two outputs, a parameter;
#     its kernel and a planted-bug copy) and `kverify new op my_scaled` (the op scaffold), each
#     added with add_subdirectory;
#   - variants from outside folders: the project is configured with KVERIFY_VARIANT_DIRS naming the
#     checkout's examples/cuda_styles, examples/your_terms, examples/my_softmax and bench/tests/cheats.
# The project builds its kverify CLI and fuzz_run (emu: its kernels are not compiled with nvcc).
# ops/tests/your_op.sh, examples/tests/cuda_styles.sh, examples/tests/example_builds.sh and
# bench/tests/cheats_emu.sh then run WORK_DIR/cli.
#   extended_build.sh SOURCE_DIR BUILD_DIR (the package) WORK_DIR KVERIFY_CLI (BUILD_DIR's, for `kverify new`)
set -u
src="$1" package="$2" work="$3" kv="$4"
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work"
mkdir -p "$work"
work="$(cd "$work" && pwd)"
[[ -f $package/kverifyConfig.cmake && -f $package/kverifyTargets.cmake ]] ||
  fail "$package has no kverifyConfig.cmake and kverifyTargets.cmake (a configured kverify build tree writes them)"

# Release at the main build's -O2 (CMake's -O3 compiles a fifth slower); example_builds.sh reads
# the same options from $work/cmake-options.
opts=(-G Ninja -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG" -DKVERIFY_ENABLE_CUDA=OFF)
printf '%s\n' "${opts[@]}" >"$work/cmake-options"

project="$work/my_kernel"
"$kv" new softmax my_kernel --dir "$project" >"$work/new.log" 2>&1 || { cat "$work/new.log"; fail "kverify new softmax my_kernel"; }
"$kv" new op my_scaled --dir "$project/my_scaled" >>"$work/new.log" 2>&1 || { cat "$work/new.log"; fail "kverify new op my_scaled"; }
for f in CMakeLists.txt my_kernel.cu README.md my_scaled/CMakeLists.txt my_scaled/my_scaled_op.cpp my_scaled/my_scaled.cu; do
  [[ -s $project/$f ]] || fail "kverify new wrote no $f"
done
cp -r "$src/examples/your_op" "$project/your_op"
printf '\n# Ops of this project (kverify_add_op), each with its kernels.\nadd_subdirectory(your_op)\nadd_subdirectory(my_scaled)\n' \
  >>"$project/CMakeLists.txt"
variant_dirs="$src/examples/cuda_styles;$src/examples/your_terms;$src/examples/my_softmax;$src/bench/tests/cheats"
echo "my_kernel (kverify new) with the ops embed_rmsnorm (examples/your_op) and my_scaled (kverify new op), configured with kverify_DIR=$package KVERIFY_VARIANT_DIRS=$variant_dirs"
cmake -S "$project" -B "$project/build" "${opts[@]}" -Dkverify_DIR="$package" -DKVERIFY_VARIANT_DIRS="$variant_dirs" \
  >>"$work/configure.log" 2>&1 || { tail -20 "$work/configure.log"; fail "configure my_kernel with find_package(kverify)"; }
cmake --build "$project/build" -j "$(nproc)" --target kverify fuzz_run >"$work/build.log" 2>&1 ||
  { grep -m5 -A3 error "$work/build.log"; fail "build (the whole log: $work/build.log)"; }
# Only the project's own: no library of kverify's is compiled again.
compiled="$(grep -E '^\[[0-9]+/[0-9]+\] Building' "$work/build.log" || true)"
kverifys="$(grep -vE 'kverify_project|tools/main\.cpp|fuzz/standalone_main\.cpp' <<<"$compiled" || true)"
[[ -z $kverifys ]] ||
  fail "the project compiled kverify's own sources again, e.g. $(head -1 <<<"$kverifys"); it should link the package's libraries"
echo "the project compiled $(grep -c . <<<"$compiled") files of its own and linked the package's libraries"
ln -sfn "$project/build/kverify" "$work/cli"
echo "PASS: kverify with my_kernel, the ops embed_rmsnorm and my_scaled of the project, and the variants of examples/cuda_styles, examples/your_terms, examples/my_softmax and bench/tests/cheats built: $work/cli"
