#!/usr/bin/env bash
# Ops declared in a user's own project with no edit to kverify (ops/tests/extended_build.sh built
# it: embed_rmsnorm of examples/your_op, my_scaled of `kverify new op`): each op must be in every
# table and every command must take it: the Case parser, `kverify list` and `help case`, `run`,
# `check` with the generic and the op's own properties, the planted bug killed by `mutants` (and
# missed by the KernelBench-style check), `report`, `bench`'s gate, `fuzz` (through fuzz_run).
#   your_op.sh KVERIFY_CLI WORK_DIR
set -u
k="$1" work="$2"
fail() { echo "FAIL: $*"; exit 1; }
[[ -x $k ]] || fail "no kverify CLI at $k (ops:extended_build builds it)"
rm -rf "$work"
mkdir -p "$work"
cd "$work"  # kverify check writes kverify-check.json into the working folder
expect() {  # expect EXIT PATTERN ARGS...: that exit status and output matching PATTERN
  local want="$1" pattern="$2"; shift 2
  out="$("$k" "$@" 2>&1)"; rc=$?
  [[ $rc -eq $want ]] || { echo "$out" | tail -8; fail "kverify $* exited $rc, expected $want"; }
  grep -qE -- "$pattern" <<<"$out" || { echo "$out" | tail -8; fail "kverify $*: no /$pattern/"; }
  echo "ok: kverify $*"
}
expect 0 "^embed_rmsnorm +embed_rmsnorm_block" list
expect 0 "the operation: .*embed_rmsnorm, my_scaled" help case
expect 0 "^PASS  embed_rmsnorm/embed_rmsnorm_block f32 T:4,V:50,C:1000 on emu" run 'op=embed_rmsnorm dims=T:4,V:50,C:1000 backend=emu'
expect 0 "^PASS  embed_rmsnorm/embed_rmsnorm_block bf16 T:9,V:3,C:129 on emu" run 'op=embed_rmsnorm dtype=bf16 dims=T:9,V:3,C:129 eps=0.5 values=normal:1000 backend=emu'
# A fuzz finding kept: subnormal products round with an absolute error the relative bound cannot hold.
expect 0 "^PASS  embed_rmsnorm/embed_rmsnorm_strided f32" run 'op=embed_rmsnorm variant=embed_rmsnorm_strided dtype=f32 dims=T:1,V:1,C:65536 ids.strides=2 eps=1e-05 values=subnormal backend=emu'
expect 2 "takes dimension C in \[1, 65536\]" run 'op=embed_rmsnorm dims=T:4,V:50,C:70000'
expect 2 "parameter eps takes a finite number in \[1e-12, 1\]" run 'op=embed_rmsnorm dims=T:4,V:50,C:10 eps=2'
expect 0 "embed_rmsnorm.repeated_ids_repeat_rows" check --list
expect 0 "[0-9]+ passed, 0 failed" check --backend emu --op embed_rmsnorm --budget 5 --json "$work/check.json"
expect 0 "[0-9]+ passed, 0 failed" check --backend emu --op my_scaled --budget 5 --json "$work/check-my-scaled.json"
expect 0 "embed_rmsnorm/mutant_embed_rmsnorm_padded_mean \| .* \| killed \| embed_rmsnorm\.[a-z_]+ \|.* \*\*passed\*\* \| \*\*passed\*\* \|" \
  mutants --backend emu --budget 20 --fuzz-time 0 --out "$work/mutants" --only embed_rmsnorm/mutant_embed_rmsnorm_padded_mean
grep -h "mutant_embed_rmsnorm_padded_mean" "$work/mutants/mutants.md" | head -1
expect 0 "cells, 0 failed" report --quick --op embed_rmsnorm --out "$work/report"
expect 3 "cannot time: no GPU" bench --op embed_rmsnorm --quick --gate-extra 1 --seed 1
expect 0 "no finding" fuzz embed_rmsnorm --time 5 --work "$work/fuzz"
expect 1 "FINDING in embed_rmsnorm" fuzz embed_rmsnorm --variant mutant_embed_rmsnorm_padded_mean --time 30 --work "$work/fuzz-mutant"
echo "PASS: the ops embed_rmsnorm and my_scaled, declared in a project of their own through find_package(kverify), are in every table and every command"
