#!/usr/bin/env bash
# Adding an op touches its own folders and one table line: a copy of this checkout gets the toy op
# `scale` (ops/tests/toy_op: ops/scale/ and kernels/scale/) and the line KVERIFY_OP(scale) in
# ops/ops.def, nothing else; it must build (emu only) and the op must be in every table: the Case
# parser, `kverify list`, `kverify run`, the check catalogue with its generic and its own
# properties, the report sweep, the bench's gate.
#   add_op.sh SOURCE_DIR WORK_DIR
set -u
src="$1" work="$2"
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work"
mkdir -p "$work/tree"
# The checkout as committed (tracked files), then the op's two folders and the table line.
(cd "$src" && git ls-files -z | xargs -0 tar -cf - 2>/dev/null) | tar -xf - -C "$work/tree" || fail "cannot copy the checkout"
cp -r "$src/ops/tests/toy_op/." "$work/tree/"
echo "KVERIFY_OP(scale)" >>"$work/tree/ops/ops.def"
changed="$(cd "$work/tree" && find ops/scale kernels/scale -type f | sort | tr '\n' ' ')"
echo "added: $changed+ one line in ops/ops.def"
cmake -S "$work/tree" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKVERIFY_ENABLE_CUDA=OFF \
  -DKVERIFY_SANITIZER_FLAVORS=OFF >"$work/configure.log" 2>&1 || { tail -20 "$work/configure.log"; fail "configure"; }
cmake --build "$work/build" -j "$(nproc)" --target kverify >"$work/build.log" 2>&1 || { grep -m5 -A3 error "$work/build.log"; fail "build"; }
k="$work/build/tools/kverify"
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
