#!/usr/bin/env bash
# fuzz_run ends as a fuzz run must, whatever the kernel does:
#  - a kernel that crashes the process (a mutant's write 2^36 bytes past its output: SIGSEGV on
#    emu) is a finding, with the input and its Case line kept, not a dead process;
#  - --time holds while one input runs long: slow_softmax/ holds one input that runs for seconds
#    (65537 rows at a far stride); a 1 s run ends at 1 s with 0 inputs finished.
#   fuzz_run_ends.sh FUZZ_RUN WORKDIR
set -u
fuzz_run="$1" work="$2"
here="$(cd "$(dirname "$0")" && pwd)"
rm -rf "$work"
mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }

out="$("$fuzz_run" gelu_tanh --variant mutant_gpuv_far_oob_write --runs 20 --artifacts "$work/crash" 2>&1)"
rc=$?
echo "$out"
[[ $rc -eq 1 ]] || fail "the crashing mutant: expected a finding (exit 1), got exit $rc"
grep -q "^FINDING in gelu_tanh after 1 execs" <<<"$out" || fail "the crash is not reported as the first input's FINDING"
grep -q "crashed the process with signal SIGSEGV" <<<"$out" || fail "the report does not name the signal"
input="$(sed -n 's/^  input: //p' <<<"$out")"
[[ -f "$input" && -f "$input.case" ]] || fail "the crashing input '$input' and its .case line are not kept"
grep -q "variant=mutant_gpuv_far_oob_write" "$input.case" || fail "the kept Case line does not name the mutant: $(cat "$input.case")"

start_ms=$(($(date +%s%N) / 1000000))
out="$("$fuzz_run" softmax --time 1 --artifacts "$work/slow" "$here/slow_softmax" 2>&1)"
rc=$?
ms=$(($(date +%s%N) / 1000000 - start_ms))
echo "$out"
echo "wall: $ms ms"
[[ $rc -eq 0 ]] || fail "the slow input: expected no finding (exit 0), got exit $rc"
grep -q "^fuzz_run softmax on emu: 0 execs in 1.0 s" <<<"$out" ||
  fail "the run did not end at its 1 s budget with the slow input unfinished (has the decoder changed what slow_softmax/ decodes to?)"
((ms < 4000)) || fail "--time 1 took $ms ms"
echo "ok: a crash is a kept finding; --time holds while an input runs long"
