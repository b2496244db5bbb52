#!/usr/bin/env bash
# Every GPU of a host at once, checked with a faked device list (CUDA_VISIBLE_DEVICES) on any machine:
#  1. tools/gpu_resource_spec.sh lists the visible devices as CTest's `gpus` resource, refuses more
#     than there are, and ctest hands a test one of them, which the test's process is pinned to;
#  2. `check --gpus all`, `mutants --gpus 2` and `report --gpus all` (processes side by side) report
#     exactly what one process at a time reports.
#   test_gpus.sh <source dir> <build dir> <kverify>
set -euo pipefail
src="$1" build="$2" kv="$3"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

export CUDA_VISIBLE_DEVICES=4,7
"$src/tools/gpu_resource_spec.sh" all >"$work/spec.json"
grep -q '{"id": "4", "slots": 4}, {"id": "7", "slots": 4}' "$work/spec.json" || fail "spec: $(cat "$work/spec.json")"
if "$src/tools/gpu_resource_spec.sh" 3 >/dev/null 2>"$work/err"; then fail "3 of 2 GPUs accepted"; fi
grep -q "accepted: all, or a number of GPUs from 1 to 2" "$work/err" || fail "refusal: $(cat "$work/err")"
echo "ok: resource spec of the faked devices 4,7; --gpus 3 refused"

if [[ -x "$build/runtime/cuda/cuda_tests" ]]; then
  out="$(ctest --test-dir "$build" --resource-spec-file "$work/spec.json" -j 4 -R '^cuda:CtestGpu\.' 2>&1)" ||
    fail "ctest with the spec: $out"
  grep -q "100% tests passed, 0 tests failed out of 1" <<<"$out" || fail "$out"
  ! grep -q "Skipped" <<<"$out" || fail "the pinning test was skipped under the spec: $out"
  echo "ok: under the spec a test runs pinned to the GPU ctest gave it"
else
  echo "no cuda_tests in this build (no CUDA toolkit): the pinning test is not built"
fi

# The same tables from two processes side by side as from one at a time (timings aside).
same_json() {  # same_json A B KEY...: A and B agree on every KEY
  python3 - "$@" <<'PY'
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
def clean(x):
    if isinstance(x, dict):
        return {k: clean(v) for k, v in x.items() if "second" not in k and k != "date"}
    if isinstance(x, list):
        return [clean(v) for v in x]
    return x
bad = [k for k in sys.argv[3:] if clean(a.get(k)) != clean(b.get(k))]
sys.exit("differ: " + ", ".join(bad) if bad else 0)
PY
}
(cd "$work" && "$kv" check --backend emu --op gelu_tanh --budget 2 --json one.json >one.txt 2>&1) || fail "check: $(tail "$work/one.txt")"
(cd "$work" && "$kv" check --backend emu --op gelu_tanh --budget 2 --gpus all --json two.json >two.txt 2>&1) ||
  fail "check --gpus all: $(tail "$work/two.txt")"
grep -q "runs on 2 processes side by side" "$work/two.txt" || fail "check --gpus all did not run 2 processes: $(head -3 "$work/two.txt")"
same_json "$work/one.json" "$work/two.json" boundary_cases properties failures not_run skipped || fail "check tables"
echo "ok: check --gpus all (2 processes) reports what one process reports"
for g in 1 2; do
  args=(mutants --only row_sum/mutant_drop_tail --only softmax/mutant_zero_padding --only gelu_tanh/mutant_erf
        --fuzz-time 0 --budget 3 --out "$work/mutants$g")
  [[ $g == 1 ]] || args+=(--gpus 2)
  "$kv" "${args[@]}" >"$work/mutants$g.txt" 2>&1 || fail "mutants $g: $(tail "$work/mutants$g.txt")"
done
same_json "$work/mutants1/mutants.json" "$work/mutants2/mutants.json" mutants backend seed || fail "mutants tables"
echo "ok: mutants --gpus 2 reports what one process at a time reports"
for g in 1 2; do
  args=(report --backend emu --quick --op gelu_tanh --out "$work/report$g")
  [[ $g == 1 ]] || args+=(--gpus all)
  "$kv" "${args[@]}" >"$work/report$g.txt" 2>&1 || fail "report $g: $(tail "$work/report$g.txt")"
done
grep -q '^\[[01]\] ' "$work/report2.txt" || fail "report --gpus all did not run shards: $(head -3 "$work/report2.txt")"
same_json "$work/report1/report.json" "$work/report2/report.json" schema backend quick skipped cells || fail "report cells"
cmp -s "$work/report1/plots/gelu_tanh_bf16.svg" "$work/report2/plots/gelu_tanh_bf16.svg" || fail "report plots differ"
echo "ok: report --gpus all (2 shards) writes the report one process writes"
