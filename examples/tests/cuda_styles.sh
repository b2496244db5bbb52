#!/usr/bin/env bash
# examples/cuda_styles as a user runs it: kverify configured with KVERIFY_VARIANT_DIRS pointing
# at the folder (emu only, no sanitizer flavors: short on the CI machine), only the CLI built;
# then `kverify check` must pass every example and fail (kill) every planted-bug copy.
#   cuda_styles.sh <kverify source> <work dir> [budget per property, default 20]
set -euo pipefail
src="$1" work="$2" budget="${3:-20}"
examples="$src/examples/cuda_styles"
jobs="$(nproc 2>/dev/null || echo 2)"
mkdir -p "$work"
work="$(cd "$work" && pwd)"
cd "$work"  # kverify check writes kverify-check.json into the working folder

echo "== configure and build kverify with KVERIFY_VARIANT_DIRS=$examples" >&2
cmake -S "$src" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKVERIFY_ENABLE_CUDA=OFF \
  -DKVERIFY_SANITIZER_FLAVORS=OFF -DKVERIFY_VARIANT_DIRS="$examples" >"$work/build.log" 2>&1 ||
  { cat "$work/build.log"; echo "FAIL: configuring kverify with the examples"; exit 1; }
cmake --build "$work/build" -j "$jobs" --target kverify >>"$work/build.log" 2>&1 ||
  { tail -60 "$work/build.log"; echo "FAIL: building kverify with the examples"; exit 1; }
kv="$work/build/tools/kverify"

# op variant, from the folder's registrations (one list, so a new example is checked too).
mapfile -t variants < <(sed -n 's/^kverify_add_variant(NAME \([a-z0-9_]*\) OP \([a-z_]*\).*/\2 \1/p' "$examples"/*/CMakeLists.txt)
[[ ${#variants[@]} -ge 12 ]] || { echo "FAIL: expected six examples and six mutants in $examples, found ${#variants[@]}"; exit 1; }
failed=0
for entry in "${variants[@]}"; do
  read -r op name <<<"$entry"
  rc=0
  "$kv" check --backend emu --op "$op" --variant "$name" --budget "$budget" --json "$work/$name.json" >"$work/$name.txt" 2>&1 || rc=$?
  summary="$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$work/$name.txt" | tail -1 || true)"
  if [[ $name == mutant_* ]]; then
    if [[ $rc -eq 1 ]]; then echo "killed  $op/$name: $summary"; else echo "SURVIVED $op/$name (exit $rc)"; tail -20 "$work/$name.txt"; failed=1; fi
  else
    if [[ $rc -eq 0 ]]; then echo "passed  $op/$name: $summary"; else echo "FAILED  $op/$name (exit $rc)"; tail -40 "$work/$name.txt"; failed=1; fi
  fi
done
[[ $failed -eq 0 ]] || { echo "FAIL: examples/cuda_styles"; exit 1; }
echo "PASS: examples/cuda_styles: every example passes kverify check on emu and every planted bug is caught"
