#!/usr/bin/env bash
# The fuzzer finds a tail bug: target softmax_planted (kernels/softmax/mutants: mutant_tail_zero_padding, warp_per_row with
# its tail lanes' max padded with 0) fuzzed from an empty corpus for at most 60 s must report a
# finding, minimize it, keep it with its Case line, and both must replay as a failure through
# `kverify replay`.   planted_bug_found.sh KVERIFY WORKDIR
set -u
k="$1" work="$2"
rm -rf "$work"
mkdir -p "$work"
kept="$work/softmax_planted"  # a folder named after the target: replay finds the target from it
out="$("$k" fuzz softmax_planted --time 60 --work "$work/run" --keep "$kept" 2>"$work/fuzz.stderr")"
rc=$?
echo "$out"
[[ $rc -eq 3 ]] && { tail -n 2 "$work/fuzz.stderr"; exit 3; }
fail() { echo "FAIL: $*"; tail -n 40 "$work/fuzz.stderr"; exit 1; }
[[ $rc -eq 1 ]] || fail "expected a finding (exit 1), got exit $rc"
grep -q "^FINDING in softmax_planted after" <<<"$out" || fail "no FINDING line"
line="$(sed -n 's/^  case: //p' <<<"$out")"
[[ "$line" == *"variant=mutant_tail_zero_padding"* ]] || fail "the finding's Case line does not name the planted variant: '$line'"
input="$(find "$kept" -type f ! -name '*.case' | head -n 1)"
[[ -n "$input" && -f "$input.case" ]] || fail "the minimized input and its .case line are not kept in $kept"
for replayed in "$input" "$input.case"; do
  r="$("$k" replay "$replayed" 2>&1)"
  rc=$?
  echo "$r" | tail -n 4
  [[ $rc -eq 1 ]] || fail "kverify replay $replayed exited $rc, expected 1 (a finding)"
  grep -q "FAIL  softmax/mutant_tail_zero_padding" <<<"$r" || fail "kverify replay $replayed did not print the FAIL verdict"
done
echo "ok: the planted tail bug was found, minimized to '$line', and replays as FAIL"
