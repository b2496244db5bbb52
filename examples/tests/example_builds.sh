#!/usr/bin/env bash
# A user's own project, as the README's "Check your own kernel" starts it: `kverify new softmax
# my_kernel` in a fresh folder outside the repository, configured with find_package(kverify)
# against this checkout's configured build tree, only the CLI built (emu; no sanitizer flavors, no
# CUDA, to stay short on the CI machine), then the project's own `ctest` must run and pass
# kverify:my_kernel:emu. The same build carries examples/my_softmax (KVERIFY_VARIANT_DIRS):
# `kverify list` must show it and `kverify check --variant my_softmax` must pass. The two other
# ways in, add_subdirectory (KVERIFY_SOURCE) and KVERIFY_VARIANT_DIRS alone, are configured and
# must register it in the generated table.
#   example_builds.sh <kverify source> <kverify build (has kverifyConfig.cmake)> <work dir>
set -euo pipefail
src="$1" kv_build="$2" work="$3"
example="$src/examples/my_softmax"
jobs="$(nproc 2>/dev/null || echo 2)"
opts=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DKVERIFY_ENABLE_CUDA=OFF -DKVERIFY_SANITIZER_FLAVORS=OFF)
mkdir -p "$work"
work="$(cd "$work" && pwd)"
cd "$work"  # kverify check writes kverify-check.json into the working folder

step() { echo "== $*" >&2; }

step "kverify new softmax my_kernel, in a folder outside the repository"
outside="$(mktemp -d "${TMPDIR:-/tmp}/kverify-user.XXXXXX")"
trap 'rm -rf "$outside"' EXIT  # the project and its build (the logs stay in the work dir)
project="$outside/my_kernel"
"$kv_build/tools/kverify" new softmax my_kernel --dir "$project" ||
  { echo "FAIL: kverify new softmax my_kernel"; exit 1; }
for f in CMakeLists.txt my_kernel.cu README.md; do
  [[ -s $project/$f ]] || { echo "FAIL: kverify new wrote no $f"; exit 1; }
done

step "find_package: configure the new project (with examples/my_softmax) and build its kverify CLI"
build="$project/build"
cmake -S "$project" -B "$build" "${opts[@]}" -Dkverify_DIR="$kv_build" -DKVERIFY_VARIANT_DIRS="$example" \
  >"$work/find_package.log" 2>&1 ||
  { cat "$work/find_package.log"; echo "FAIL: configuring the new project with kverify_DIR=$kv_build"; exit 1; }
cmake --build "$build" -j "$jobs" --target kverify >>"$work/find_package.log" 2>&1 ||
  { tail -50 "$work/find_package.log"; echo "FAIL: building the new project's kverify"; exit 1; }
kv="$build/kverify/tools/kverify"

step "the project's own ctest runs kverify's catalogue on my_kernel"
rc=0
(cd "$outside" && ctest --test-dir "$build" --output-on-failure) >"$work/ctest.txt" 2>&1 || rc=$?
tail -5 "$work/ctest.txt"
grep -qE 'kverify:my_kernel:emu .*Passed' "$work/ctest.txt" && grep -q '100% tests passed' "$work/ctest.txt" &&
  [[ $rc -eq 0 ]] || { cat "$work/ctest.txt"; echo "FAIL: the new project's ctest (exit $rc)"; exit 1; }

step "kverify list shows my_softmax"
"$kv" list | tee "$work/list.txt" | grep -E '^softmax +my_softmax +f32 f16 bf16 +emu' ||
  { cat "$work/list.txt"; echo "FAIL: my_softmax is not in kverify list"; exit 1; }

step "kverify check --variant my_softmax"
rc=0
"$kv" check --backend emu --variant my_softmax --budget 5 >"$work/check.txt" 2>&1 || rc=$?
tail -3 "$work/check.txt"
[[ $rc -eq 0 ]] && grep -qE '^[0-9]+ passed, 0 failed' "$work/check.txt" ||
  { cat "$work/check.txt"; echo "FAIL: kverify check of my_softmax did not pass (exit $rc)"; exit 1; }

step "add_subdirectory (KVERIFY_SOURCE) and KVERIFY_VARIANT_DIRS: configure, the variant is registered"
cmake -S "$example" -B "$work/add_subdirectory" "${opts[@]}" -DKVERIFY_SOURCE="$src" >"$work/add_subdirectory.log" 2>&1 ||
  { cat "$work/add_subdirectory.log"; echo "FAIL: configuring the example with KVERIFY_SOURCE=$src"; exit 1; }
cmake -S "$src" -B "$work/variant_dirs" "${opts[@]}" -DKVERIFY_VARIANT_DIRS="$example" >"$work/variant_dirs.log" 2>&1 ||
  { cat "$work/variant_dirs.log"; echo "FAIL: configuring kverify with KVERIFY_VARIANT_DIRS=$example"; exit 1; }
for t in add_subdirectory/kverify variant_dirs; do
  grep -q '.name = "my_softmax"' "$work/$t/variants/kverify_added_variants.cpp" ||
    { echo "FAIL: $t: my_softmax missing from the generated registration table"; exit 1; }
done
echo "PASS: kverify new softmax my_kernel builds against kverify (find_package) outside the repository and its ctest passes; examples/my_softmax is listed and passes check; add_subdirectory and KVERIFY_VARIANT_DIRS register it"
