#!/usr/bin/env bash
# Fault isolation (docs/gpu.md): `kverify check` over a mutant that writes
# 2^36 bytes past its output (a device fault: SIGSEGV on emu, an illegal address on cuda) must report
# each faulting Case as a failing Verdict "device fault: ..." with its Case line and go on with the
# rest in fresh children: every boundary Case and every property still gets its own Verdict.
#   fault_isolation.sh KVERIFY BACKEND
# On cuda without a GPU: skipped (exit 77) with CUDA's reason, a failure when KVERIFY_REQUIRE_GPU=1.
set -uo pipefail
k="$1"; backend="$2"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

if [[ "$backend" == cuda ]]; then
  out="$("$k" run "op=gelu_tanh shape=1x1 backend=cuda" 2>&1)"; rc=$?
  if [[ $rc -eq 3 ]]; then
    echo "SKIPPED: no GPU here: $(grep -o 'cudaGetDeviceCount.*\|no cuda backend.*' <<<"$out" | head -1)"
    [[ "${KVERIFY_REQUIRE_GPU:-}" == 1 ]] && fail "KVERIFY_REQUIRE_GPU=1 but cuda cannot run"
    exit 77
  fi
fi

# What a clean run of the same Cases checks, from a production variant with the same limits: the
# number of boundary Cases and of properties (derived, not hard-coded).
"$k" check --backend "$backend" --variant strided --dtype f32 --budget 1 --json "$work/ref.json" >"$work/ref.out" 2>&1 ||
  fail "the production variant failed: $(tail -5 "$work/ref.out")"
boundary=$(awk '$2 == "gelu_tanh/strided" && $3 == "f32" {print $4}' "$work/ref.out")
# Properties that ran cases on this backend (schedule_independent runs on emu only).
properties=$(grep -cE "^$backend +gelu_tanh\.[a-z_]+ +strided +[1-9]" "$work/ref.out")
[[ -n "$boundary" && "$properties" -gt 0 ]] || fail "could not read the reference run's counts"

# Under GITHUB_ACTIONS=true, with --junit: the CI formats of a run whose every testcase faults.
src="$(cd "$(dirname "$0")/../.." && pwd)"
GITHUB_ACTIONS=true GITHUB_WORKSPACE="$src" "$k" check --backend "$backend" --variant mutant_gpuv_far_oob_write \
  --dtype f32 --budget 1 --json "$work/fault.json" --junit "$work/fault.xml" >"$work/fault.out" 2>"$work/fault.err"
rc=$?
[[ $rc -eq 1 ]] || fail "exit $rc, expected 1 (a kernel failed); output: $(tail -5 "$work/fault.out")"
case "$backend" in
  emu) want='device fault: signal SIGSEGV' ;;
  cuda) want='device fault: cudaError' ;;
esac
grep -q "$want" "$work/fault.out" || fail "no '$want' Verdict: $(head -5 "$work/fault.out")"
faults=$(grep -c '^FAILED device fault' "$work/fault.out")
cases=$(grep "the Case that was running: op=" "$work/fault.out" | sort -u | wc -l)
# Each boundary Case faults in its own child; each property faults on its first Case and the next
# property starts in a fresh child.
expected=$((boundary + properties))
[[ $faults -eq $expected ]] || fail "$faults device-fault Verdicts, expected $expected ($boundary boundary Cases + $properties properties); the other failures:
$(grep -v -e '^FAILED device fault' -e 'device fault: ' -e 'the Case that was running' -e '^  replay' -e '^$' "$work/fault.out" | head -20)"
[[ $cases -ge $boundary ]] || fail "only $cases distinct Case lines named"
grep -q "^0 passed, $expected failed" "$work/fault.out" || fail "summary line: $(tail -1 "$work/fault.out")"
[[ -s "$work/fault.json" ]] || fail "no JSON summary written"
first=$(grep -m1 "the Case that was running:" "$work/fault.out" | sed 's/.*running: //')
"$k" run "$first" >"$work/run.out" 2>&1; rc=$?
[[ $rc -eq 1 ]] || fail "kverify run of the faulting Case exited $rc, expected 1"
grep -q "device fault" "$work/run.out" || fail "kverify run printed no device fault: $(cat "$work/run.out")"
# The JUnit fails each faulting testcase; the annotations point at the registration's CMake line (a
# device fault names no kernel line), at most 20 and a warning that counts the rest.
if command -v xmllint >/dev/null; then
  xmllint --noout --schema "$src/check/junit.xsd" "$work/fault.xml" 2>"$work/schema.err" ||
    fail "the JUnit does not validate: $(head -3 "$work/schema.err")"
  j_failed=$(xmllint --xpath 'count(//testcase[failure])' "$work/fault.xml")
  [[ $j_failed -eq $expected ]] || fail "the JUnit fails $j_failed testcases, expected $expected"
else
  fail "xmllint not found (Debian package libxml2-utils; ./kverify test installs it)"
fi
errors=$(grep -c '^::error ' "$work/fault.out")
[[ $errors -eq $((expected < 20 ? expected : 20)) ]] || fail "$errors ::error lines for $expected failures"
((expected <= 20)) || grep -q "^::warning title=kverify::$((expected - 20)) more failures" "$work/fault.out" ||
  fail "no warning counting the $((expected - 20)) failures past the 20 annotated"
at=$(grep -m1 '^::error ' "$work/fault.out" | sed -En 's/^::error file=([^,]*),line=([0-9]+),.*/\1:\2/p')
[[ "${at%%:*}" == kernels/gelu_tanh/mutants/CMakeLists.txt ]] || fail "annotation at '$at', expected the registration's CMakeLists.txt"
sed -n "${at##*:}p" "$src/${at%%:*}" | grep -q 'NAME mutant_gpuv_far_oob_write' ||
  fail "line ${at##*:} of ${at%%:*} is not the registration: $(sed -n "${at##*:}p" "$src/${at%%:*}")"
echo "ok: JUnit fails the $expected testcases; ::error at the registration, $at"
echo "ok: $faults device-fault Verdicts on $backend ($boundary boundary Cases + $properties properties), each in a fresh child; first: $first"
