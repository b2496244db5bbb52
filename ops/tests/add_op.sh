#!/usr/bin/env bash
# Adding an op touches its own folders and one table line: ops/tests/extended_build.sh gave a copy
# of this checkout the toy op `scale` (ops/tests/toy_op: ops/scale/ and kernels/scale/) and the line
# KVERIFY_OP(scale) in ops/ops.def, nothing else, and built it (emu only); here the op must be in
# every table: the Case parser, `kverify list`, `kverify run`, the check catalogue with its generic
# and its own properties, the report sweep, the bench's gate.
#   add_op.sh KVERIFY_CLI WORK_DIR
set -u
k="$1" work="$2"
fail() { echo "FAIL: $*"; exit 1; }
[[ -x $k ]] || fail "no kverify CLI at $k (ops:extended_build builds it)"
rm -rf "$work"
mkdir -p "$work"
expect() {  # expect PATTERN ARGS...: exit 0 and output matching PATTERN
  local pattern="$1"; shift
  out="$("$k" "$@" 2>&1)"; rc=$?
  [[ $rc -eq 0 ]] || { echo "$out" | tail -5; fail "kverify $* exited $rc"; }
  grep -qE -- "$pattern" <<<"$out" || { echo "$out" | tail -5; fail "kverify $*: no /$pattern/"; }
  echo "ok: kverify $*"
}
expect "^scale +strided" list
expect "the operation: .*scale" help case
expect "^PASS  scale/strided f32 3x33 on emu" run 'op=scale shape=3x33 backend=emu'
expect "^PASS  scale/strided bf16 5x7 on emu" run 'op=scale dtype=bf16 shape=5x7 x.strides=1,5 values=extreme backend=emu'
expect "scale.powers_of_two" check --list
expect "scale.tail_widths" check --list
expect "[0-9]+ passed, 0 failed" check --backend emu --op scale --budget 3 --json "$work/check.json"
expect "cells, 0 failed" report --quick --op scale --out "$work/report"
out="$("$k" bench --op scale --quick --gate-extra 1 --seed 1 2>&1)"; rc=$?
[[ $rc -eq 3 ]] && grep -q "cannot time" <<<"$out" || { echo "$out" | tail -5; fail "bench: exit $rc, expected 3 (gate passed, cannot time)"; }
echo "ok: kverify bench --op scale --quick (gate passed; cannot time without a GPU)"
echo "PASS: the op scale, added in its own folders and one line of ops/ops.def, is in every table"
