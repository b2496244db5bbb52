#!/usr/bin/env bash
# The outside project examples/my_softmax as a user builds it (docs/extending.md): find_package(kverify) against this checkout's configured build tree, only the CLI
# built (emu; no sanitizer flavors, no CUDA, to stay short on the CI machine), then `kverify list`
# must show my_softmax and `kverify check --variant my_softmax` must pass. The two other ways in,
# add_subdirectory (KVERIFY_SOURCE) and KVERIFY_VARIANT_DIRS, are configured and must register it
# in the generated table.
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

step "find_package: configure and build the example's kverify CLI"
cmake -S "$example" -B "$work/find_package" "${opts[@]}" -Dkverify_DIR="$kv_build" >"$work/find_package.log" 2>&1 ||
  { cat "$work/find_package.log"; echo "FAIL: configuring the example with kverify_DIR=$kv_build"; exit 1; }
cmake --build "$work/find_package" -j "$jobs" --target kverify >>"$work/find_package.log" 2>&1 ||
  { tail -50 "$work/find_package.log"; echo "FAIL: building the example's kverify"; exit 1; }
kv="$work/find_package/kverify/tools/kverify"

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
echo "PASS: examples/my_softmax builds against kverify (find_package), is listed and passes check; add_subdirectory and KVERIFY_VARIANT_DIRS register it"
