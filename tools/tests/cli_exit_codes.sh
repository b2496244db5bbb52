#!/usr/bin/env bash
# The CLI's exit codes and one-line errors, as a user sees them.
set -u
k="$1"
fail=0
expect() {  # expect CODE PATTERN -- ARGS...
  local code="$1" pattern="$2"; shift 3
  local out rc
  out="$("$k" "$@" 2>&1)"; rc=$?
  if [[ $rc -ne $code ]]; then echo "FAIL: kverify $* exited $rc, expected $code"; echo "$out"; fail=1; return; fi
  if ! grep -qE -- "$pattern" <<<"$out"; then echo "FAIL: kverify $*: output lacks /$pattern/"; echo "$out"; fail=1; return; fi
  echo "ok: kverify $* -> $rc"
}
expect 0 "^PASS" -- run 'op=softmax dtype=f32 shape=3x1000 backend=emu'
expect 0 "^PASS" -- run op=softmax shape=2x7 dtype=bf16 backend=emu
expect 2 "^kverify run: bad Case token 'shape=0x5': .*accepted" -- run 'op=softmax shape=0x5'
expect 2 "^kverify run: bad Case token 'op=nosuch': unknown op 'nosuch' \(accepted: softmax" -- run 'op=nosuch'
expect 2 "missing .<case line>." -- run
expect 2 "unknown key 'colour'" -- run 'op=softmax shape=2x2 colour=red'
expect 2 "'abc' is not a seed" -- run 'op=softmax shape=2x2 seed=abc'
expect 2 "share an address" -- run 'op=softmax shape=4x5 y.strides=1,1'
expect 2 "unknown variant 'nosuch'" -- run 'op=softmax shape=4x5 variant=nosuch'
expect 3 "takes at most 1024 columns" -- run 'op=softmax shape=4x5000 variant=warp_per_row backend=emu'
expect 2 "unknown command" -- frobnicate
expect 2 "option --backend .gpu.: .*accepted: emu, cuda, all" -- check --backend gpu
expect 0 "usage: ./kverify run" -- run --help
expect 0 "usage: ./kverify check" -- check --help
expect 0 "x.strides|<t>.strides" -- help case
expect 0 "block_per_row" -- list
# Internal flags and environment variables: refused with the token and what is accepted, never a crash.
expect 2 "unknown option '--child'" -- check --child
expect 2 "kverify agree: --out: cannot write into /proc/x" -- agree --out /proc/x
expect 2 "kverify check: --json: an empty path \(accepted: a file path\)" -- check --json ''
refused_out="${TMPDIR:-/tmp}/kv-refused-report-$$"
expect 2 "no production variant matches" -- report --variant mutant_drop_tail --op softmax --out "$refused_out"
[[ ! -e $refused_out ]] || { echo "FAIL: a refused report left $refused_out behind"; rm -rf "$refused_out"; fail=1; }
for v in abc 1e30 -1 nan; do
  out="$(KVERIFY_MEMORY_LIMIT_GIB=$v "$k" run 'op=softmax shape=4x5 backend=emu' 2>&1)"; rc=$?
  if [[ $rc -ne 2 ]] || ! grep -q "KVERIFY_MEMORY_LIMIT_GIB='$v': not a memory size in GiB (accepted:" <<<"$out"; then
    echo "FAIL: KVERIFY_MEMORY_LIMIT_GIB=$v kverify run exited $rc: $out"; fail=1
  else
    echo "ok: KVERIFY_MEMORY_LIMIT_GIB=$v kverify run -> 2"
  fi
done
# Under an address-space limit (ulimit -v) every command answers and emu Cases run with the race
# detector on: it reserves nothing at start (its page table is taken on the first watched region,
# and where it cannot be, the detector scans its regions instead).
limited() { (ulimit -v 8000000; "$k" "$@") 2>&1; }
for args in "help" "help case" "run --help" "check --help"; do
  # shellcheck disable=SC2086
  out="$(limited $args)"; rc=$?
  [[ $rc -eq 0 ]] && echo "ok: ulimit -v 8000000; kverify $args -> 0" || { echo "FAIL: ulimit -v 8000000; kverify $args exited $rc: $out"; fail=1; }
done
# rounding_unbiased: a truncating store fails it alone, with no claim that the Case passes alone
# (the judgment is the property's; run passes by design), production variants pass it judged, and
# an f32-only draw judges nothing and says so.
out="$("$k" check --backend emu --op gelu_tanh --variant mutant_truncating_store --property gelu_tanh.rounding_unbiased --properties-only --budget 10 --json "$(mktemp -u)" 2>&1)"; rc=$?
if [[ $rc -ne 1 ]] || ! grep -q "signed errors lean one way" <<<"$out" || grep -q "PASSES when run by itself" <<<"$out"; then
  echo "FAIL: check of mutant_truncating_store by rounding_unbiased exited $rc: $out"; fail=1
else
  echo "ok: a truncating store fails rounding_unbiased (exit 1), no 'alone' claim"
fi
out="$("$k" check --backend emu --op gelu_tanh --property gelu_tanh.rounding_unbiased --properties-only --budget 5 --json "$(mktemp -u)" 2>&1)"; rc=$?
if [[ $rc -ne 0 ]] || ! grep -qE "^emu +gelu_tanh.rounding_unbiased +strided +[1-9]" <<<"$out" || grep -q "NOT JUDGED" <<<"$out"; then
  echo "FAIL: check of gelu_tanh's rounding_unbiased exited $rc or judged nothing: $out"; fail=1
else
  echo "ok: gelu_tanh's variants pass rounding_unbiased, judged"
fi
out="$("$k" check --backend emu --op gelu_tanh --dtype f32 --property gelu_tanh.rounding_unbiased --properties-only --budget 2 --json "$(mktemp -u)" 2>&1)"; rc=$?
if [[ $rc -ne 0 ]] || ! grep -q "gelu_tanh.rounding_unbiased .*NOT JUDGED: no drawn Case could judge it here" <<<"$out"; then
  echo "FAIL: an f32-only rounding_unbiased exited $rc without NOT JUDGED: $out"; fail=1
else
  echo "ok: an f32-only rounding_unbiased is NOT JUDGED, not passed"
fi
# run --then: Cases in order in one process, exit the worst; a Case that needs an earlier one fails
# only after it; a bad --then line is bad input before anything runs.
m='op=row_sum variant=mutant_plan_cached_by_width dtype=f32 backend=emu'
verdicts() {  # verdicts CODE WANT -- ARGS...: the first word of each Case's Verdict, in order, is WANT
  local code="$1" want="$2"; shift 3
  local out rc got
  out="$("$k" "$@" 2>&1)"; rc=$?
  got="$(awk '/^\[([0-9]+\/[0-9]+|[0-9] of 2 at once)\] /{getline; printf "%s ", $1}' <<<"$out")"
  if [[ $rc -ne $code || "$got" != "$want " ]]; then echo "FAIL: kverify $* exited $rc (expected $code), Verdicts '$got' (expected '$want')"; echo "$out"; fail=1; return; fi
  echo "ok: kverify $* -> $rc, $want"
}
verdicts 1 "PASS FAIL" -- run "$m shape=5x1" --then "$m shape=20x1"
expect 0 "^PASS  row_sum/mutant_plan_cached_by_width f32 20x1" -- run "$m shape=20x1"
verdicts 0 "PASS PASS" -- run 'op=row_sum dtype=f32 shape=5x1 backend=emu' --then 'op=row_sum dtype=f32 shape=20x1 backend=emu'
out="$("$k" run 'op=row_sum shape=5x1 backend=emu' --then 'op=nosuch' 2>&1)"; rc=$?
if [[ $rc -ne 2 ]] || grep -q "^\[1/2\]" <<<"$out"; then echo "FAIL: a bad --then line exited $rc or ran the first Case: $out"; fail=1; else echo "ok: a bad --then line -> 2, nothing run"; fi
# run --alongside: two Cases at once (on emu their launches take turns): scratch a launcher keeps
# in a static buffer is shared by the two calls and fails one, though each passes alone; a
# launcher with the pipeline's scratch passes both; with --then it is bad input.
s='op=row_sum variant=mutant_static_scratch dtype=f32 shape=40x77 backend=emu'
verdicts 1 "FAIL PASS" -- run "$s" --alongside "$s seed=5"
expect 0 "^PASS  row_sum/mutant_static_scratch f32 40x77" -- run "$s"
verdicts 0 "PASS PASS" -- run 'op=row_sum variant=split_row dtype=f32 shape=40x77 backend=emu' --alongside 'op=row_sum variant=split_row dtype=f32 shape=40x77 seed=5 backend=emu'
expect 2 "--alongside and --then together" -- run "$s" --then "$s" --alongside "$s"
out="$("$k" check --backend emu --op row_sum --variant mutant_static_scratch --property row_sum.launched_at_once --properties-only --budget 5 --json "$(mktemp -u)" 2>&1)"; rc=$?
if [[ $rc -ne 1 ]] || ! grep -qE "reproduce \(two calls at once\): ./kverify run '[^']*' --alongside '[^']*'" <<<"$out" || grep -q "PASSES when run by itself" <<<"$out"; then
  echo "FAIL: launched_at_once on mutant_static_scratch exited $rc or lacks the pair as its reproduce line: $out"; fail=1
else
  echo "ok: launched_at_once fails a launcher's static scratch (exit 1), the pair its reproduce line"
fi
# ignored_rows_unread: a kernel whose rows share a max with an ignored neighbour (two rows a warp)
# fails it: the neighbour's logits at 1e30 leave the row no term.
out="$("$k" check --backend emu --variant mutant_packed_shared_max --property cross_entropy.ignored_rows_unread --properties-only --budget 30 --json "$(mktemp -u)" 2>&1)"; rc=$?
if [[ $rc -ne 1 ]] || ! grep -q "the logits of the ignored rows (target = ignore_index .*) rewritten to" <<<"$out"; then
  echo "FAIL: ignored_rows_unread on mutant_packed_shared_max exited $rc: $out"; fail=1
else
  echo "ok: ignored_rows_unread fails a max shared with an ignored row (exit 1)"
fi
# state_between_cases: a plan cached per width fails it with the sequence as its reproduce line;
# check's alone-rerun finds the earlier Case it fails after; a failure that reproduces alone gets
# neither line.
out="$("$k" check --backend emu --op row_sum --variant mutant_plan_cached_by_width --property row_sum.state_between_cases --properties-only --budget 5 --json "$(mktemp -u)" 2>&1)"; rc=$?
if [[ $rc -ne 1 ]] || ! grep -qE "reproduce \(one process, in this order\): ./kverify run '[^']*' --then '[^']*' --then '[^']*'" <<<"$out"; then
  echo "FAIL: state_between_cases on mutant_plan_cached_by_width exited $rc or lacks the sequence: $out"; fail=1
else
  echo "ok: state_between_cases fails a plan cached per width (exit 1), the sequence its reproduce line"
fi
out="$("$k" check --backend emu --op row_sum --variant mutant_plan_cached_by_width --property row_sum.reference_agreement --properties-only --budget 10 --json "$(mktemp -u)" 2>&1)"; rc=$?
if [[ $rc -ne 1 ]] || ! grep -q "PASSES when run by itself" <<<"$out" || ! grep -qE "after: .* ./kverify run '[^']*' --then '[^']*'" <<<"$out"; then
  echo "FAIL: check of mutant_plan_cached_by_width exited $rc or lacks the alone and after lines: $out"; fail=1
else
  echo "ok: a failure that needs an earlier Case says so and gives the sequence it fails after"
fi
out="$("$k" check --backend emu --op row_sum --variant mutant_packed_rows_grid --property row_sum.reference_agreement --properties-only --budget 10 --json "$(mktemp -u)" 2>&1)"; rc=$?
if [[ $rc -ne 1 ]] || grep -qE "PASSES when run by itself|after: " <<<"$out"; then
  echo "FAIL: check of mutant_packed_rows_grid exited $rc or claims it passes alone: $out"; fail=1
else
  echo "ok: a failure that reproduces alone gets no alone or after line"
fi
# A launcher on the stream it was given: held, and no side-stream hint (that is for other streams).
out="$("$k" run 'op=row_sum shape=5x40 backend=emu' 2>&1)"; rc=$?
if [[ $rc -ne 0 ]] || ! grep -q "its work on the stream it was given" <<<"$out" || grep -q "side stream" <<<"$out"; then
  echo "FAIL: kverify run of row_sum on its own stream exited $rc, or lacks the held stream check, or hints at a side stream: $out"; fail=1
else
  echo "ok: kverify run on the caller's stream -> 0, held, no side-stream hint"
fi
out="$(limited run 'op=softmax shape=4x5 backend=emu')"; rc=$?
if [[ $rc -ne 0 ]] || ! grep -q "no data race, no out-of-bounds read (emu race detector)" <<<"$out"; then
  echo "FAIL: ulimit -v 8000000; kverify run exited $rc without the race detector's 'no data race': $out"; fail=1
else
  echo "ok: ulimit -v 8000000; kverify run -> 0 (PASS, the race detector on)"
fi
out="$(limited run 'op=softmax variant=mutant_missing_barrier shape=4x300 backend=emu')"; rc=$?
if [[ $rc -ne 1 ]] || ! grep -q "race" <<<"$out"; then
  echo "FAIL: ulimit -v 8000000; kverify run of a racy mutant exited $rc without a race: $out"; fail=1
else
  echo "ok: ulimit -v 8000000; a racy mutant -> 1 (the race found)"
fi
# A block that runs past KVERIFY_EMU_BLOCK_SECONDS fails with where it was (a 2M-column row is one
# block of over a second on emu, so a 1 ms limit always sees it running); a limit that is not a
# number of seconds is bad input.
out="$(KVERIFY_EMU_BLOCK_SECONDS=0.001 "$k" run 'op=softmax variant=block_per_row shape=1x2000000 backend=emu' 2>&1)"; rc=$?
if [[ $rc -ne 1 ]] || ! grep -q "^kverify emu: time limit: block (0,0,0) of a launch of grid (1,1,1) x block (256,1,1) (thread .* running.*the running thread is at .*softmax_block_per_row.cuh:[0-9]" <<<"$out"; then
  echo "FAIL: KVERIFY_EMU_BLOCK_SECONDS=0.001 kverify run of a 1x2000000 row exited $rc: $out"; fail=1
else
  echo "ok: KVERIFY_EMU_BLOCK_SECONDS=0.001 kverify run of a long block -> 1, with the block, thread and line"
fi
# Under check the child reports the block to its parent, which fails the Case that was running and
# runs none of the variant's other Cases (each would likely cost the whole limit again).
hang_json="$(mktemp -d)/hang.json"
out="$(KVERIFY_EMU_BLOCK_SECONDS=0.001 "$k" check --backend emu --op softmax --variant block_per_row --dtype f32 --budget 1 --json "$hang_json" 2>&1)"; rc=$?
if [[ $rc -ne 1 ]] || ! grep -q "FAIL  softmax/block_per_row on emu: time limit: block .* has run .* without ending" <<<"$out" ||
   ! grep -q "the variant's remaining Cases were not run" <<<"$out"; then
  echo "FAIL: KVERIFY_EMU_BLOCK_SECONDS=0.001 kverify check of block_per_row exited $rc: $out"; fail=1
else
  echo "ok: KVERIFY_EMU_BLOCK_SECONDS=0.001 kverify check -> 1, the running Case failed as a time limit, the rest not run"
fi
rm -rf "$(dirname "$hang_json")"
out="$(KVERIFY_EMU_BLOCK_SECONDS=soon "$k" run 'op=softmax shape=2x3 backend=emu' 2>&1)"; rc=$?
if [[ $rc -ne 2 ]] || ! grep -q "KVERIFY_EMU_BLOCK_SECONDS=.soon.: accepted: seconds" <<<"$out"; then
  echo "FAIL: KVERIFY_EMU_BLOCK_SECONDS=soon kverify run exited $rc: $out"; fail=1
else
  echo "ok: KVERIFY_EMU_BLOCK_SECONDS=soon -> 2"
fi
# `kverify new` refuses a name a registration could not carry: one of kverify's own variants (a
# registration of it would never run), a C++ keyword (the scaffold's namespace).
expect 2 "variant softmax/rows_vec exists already \(one of kverify's own\)" -- new softmax rows_vec --dir "${TMPDIR:-/tmp}/kv-new-taken-$$"
expect 2 "name 'int' is a C\+\+ keyword" -- new softmax int --dir "${TMPDIR:-/tmp}/kv-new-keyword-$$"
[[ ! -e ${TMPDIR:-/tmp}/kv-new-taken-$$ && ! -e ${TMPDIR:-/tmp}/kv-new-keyword-$$ ]] || { echo "FAIL: a refused kverify new wrote files"; fail=1; }
expect 0 "special:S" -- help values
if ! "$k" run 'op=softmax shape=2x3 backend=cuda' >/dev/null 2>&1; then :; fi
out="$("$k" run 'op=softmax shape=2x3 backend=cuda' 2>&1)"; rc=$?
if [[ $rc -eq 3 ]]; then
  grep -q "^SKIPPED" <<<"$out" && echo "ok: backend=cuda without a GPU -> 3, SKIPPED with reason" || { echo "FAIL: $out"; fail=1; }
elif [[ $rc -eq 0 ]]; then
  echo "ok: backend=cuda ran on a GPU -> 0"
else
  echo "FAIL: backend=cuda exited $rc"; echo "$out"; fail=1
fi
exit $fail
