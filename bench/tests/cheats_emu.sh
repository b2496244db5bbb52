#!/usr/bin/env bash
# The cheat catalogue (bench/tests/cheats) without a GPU, with the CLI ops:extended_build built
# with it: the nine cheats are listed as cheats and left out of the default variant sets; each
# passes the gate (its results are right: only the timing can catch it); the bench's repetitions,
# made and checked on emu as the GPU would time them (fresh inputs after the first), refuse the six
# that stop working, write only sampled rows, keep a previous call's output or a memoized one,
# overwrite their input, or work only on inputs they recognise. The side-stream, host-thread and
# persisting-L2 cheats get no time here (exit 3): refusing them is the GPU's half (gpu/run.sh
# bench_cheats), since emu's streams are synchronous and it has no L2.
# Then the same through `kverify mutants --bench`.
#   cheats_emu.sh KVERIFY_CLI WORK_DIR
set -u
kv="$1" work="$2"
fail() { echo "FAIL: $*"; exit 1; }
[[ -x $kv ]] || fail "no kverify CLI at $kv (ops:extended_build builds it)"
mkdir -p "$work"
listed="$("$kv" list | grep -c '\[cheat\]$')"
[[ $listed -eq 9 ]] || fail "kverify list shows $listed cheats, expected 9"
run() {  # run VARIANT WANT_EXIT PATTERN
  local v="$1" want="$2" pattern="$3" rc=0
  "$kv" bench --variant "$v" --quick --gate-extra 0 --seed 1 --json "$work/$v.json" --md "$work/$v.md" \
    >"$work/$v.txt" 2>&1 || rc=$?
  [[ $rc -eq $want ]] || { tail -20 "$work/$v.txt"; fail "bench --variant $v exited $rc, expected $want"; }
  grep -qE -- "$pattern" "$work/$v.txt" || { tail -20 "$work/$v.txt"; fail "bench --variant $v: no line matches '$pattern'"; }
  grep -qE "^gate op=.*variant=$v .* passed" "$work/$v.txt" || fail "bench --variant $v: the gate did not pass it"
  echo "as expected  $v: exit $rc, $(grep -m1 -oE -- "$pattern" "$work/$v.txt")"
}
refused='REFUSED the timing of .*call [0-9]+ of 58: \[not the gated result\]'
not_judged='58 repetitions on emu, each the gate.s result'
run cheat_first_calls_gelu 1 "$refused output y"
run cheat_side_stream_gelu 3 "$not_judged"
run cheat_host_thread_gelu 3 "$not_judged"
run cheat_persisting_l2_gelu 3 "$not_judged"
run cheat_memo_sgemm 1 "$refused output c"
run cheat_previous_output_gelu 1 "$refused output y"
run cheat_zero_inputs_gelu 1 "$refused input x"
run cheat_sampled_rows_softmax 1 "$refused output y"
run cheat_recognised_inputs_gelu 1 "$refused output y"
# Outside the bench, emu says what it cannot see of the side-stream cheat: its streams run in order.
out="$("$kv" run 'op=gelu_tanh variant=cheat_side_stream_gelu shape=3x5 backend=emu' 2>&1)"
grep -q "^  hint: the launcher launched on a side stream: emu runs every stream in order" <<<"$out" ||
  { echo "$out"; fail "run of cheat_side_stream_gelu on emu: no hint that emu runs streams in order"; }
echo "as expected  run cheat_side_stream_gelu: the Verdict says emu runs streams in order"
# The same nine through `kverify mutants --bench`: six refused, three not judged without a GPU (exit 3).
rc=0
"$kv" mutants --bench --out "$work/catalogue" >"$work/catalogue.txt" 2>&1 || rc=$?
[[ $rc -eq 3 ]] || { tail -20 "$work/catalogue.txt"; fail "mutants --bench exited $rc, expected 3 (not judged here)"; }
[[ $(grep -cE '^\| [a-z_]+/cheat_[a-z_]+ \|.*\| refused: .*\[not the gated result\]' "$work/catalogue.txt") -eq 6 ]] ||
  { cat "$work/catalogue.txt"; fail "mutants --bench: expected six cheats refused on emu"; }
[[ $(grep -cE '^\| gelu_tanh/cheat_(side_stream|host_thread|persisting_l2)_gelu \|.*\| not judged here: cannot time: no GPU' \
  "$work/catalogue.txt") -eq 3 ]] || { cat "$work/catalogue.txt"; fail "mutants --bench: expected three cheats not judged here"; }
[[ -s $work/catalogue/cheats.md ]] || fail "mutants --bench wrote no cheats.md"
echo "as expected  mutants --bench: exit 3, six refused, three not judged without a GPU"
# Outside the bench, a kernel that works only on its first calls fails `check` late in its process;
# its reproduce line passes alone, and the failure says so.
rc=0
"$kv" check --backend emu --variant cheat_first_calls_gelu --properties-only --property gelu_tanh.reference_agreement \
  --budget 30 --json "$work/check-first-calls.json" >"$work/check-first-calls.txt" 2>&1 || rc=$?
[[ $rc -eq 1 ]] && grep -q '^  alone: this Case PASSES when run by itself in a fresh process' "$work/check-first-calls.txt" ||
  { tail -30 "$work/check-first-calls.txt"; fail "check of cheat_first_calls_gelu (exit $rc): no failure that says it passes alone"; }
echo "as expected  check --variant cheat_first_calls_gelu: exit 1, its failure says the Case passes alone"
echo "PASS: the cheat catalogue on emu"
