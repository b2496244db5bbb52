#!/usr/bin/env bash
# The bench's rules against cheats, measured on a GPU: every cheat of bench/tests/cheats refused by
# the new build, and the honest kernels' and baselines' medians and the bench's own time of the new
# build against an older one on the same card (the two full benches alternated, twice).
#   gpu/bench-rules.sh OLD_KVERIFY NEW_KVERIFY OUT_DIR     (NEW built with KVERIFY_VARIANT_DIRS naming bench/tests/cheats)
# Writes OUT_DIR/bench-rules.tgz (every JSON, Markdown and log) and prints a summary.
set -u
old="$1" new="$2" out="$3"
work=/tmp/bench-rules
rm -rf "$work" && mkdir -p "$work" "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | tee "$work/device.txt"
ok=0
for v in $("$new" list | awk '/\[cheat\]$/ {print $2}'); do
  "$new" bench --variant "$v" --gate-extra 0 --seed 1 --json "$work/cheat-$v.json" --md "$work/cheat-$v.md" >"$work/cheat-$v.log" 2>&1
  rc=$?
  echo "--- cheat $v: exit $rc (must be 1, refused)"
  grep -E "^REFUSED|^  timed|^  op=" "$work/cheat-$v.log" | cut -c1-400
  [[ $rc -eq 1 ]] || ok=1
done
for round in 1 2; do
  for build in old new; do
    bin="$old"; [[ $build == new ]] && bin="$new"
    started=$SECONDS
    "$bin" bench --seed 1 --json "$work/$build-$round.json" --md "$work/$build-$round.md" >"$work/$build-$round.log" 2>&1
    rc=$?
    echo "--- full bench $build round $round: exit $rc, $((SECONDS - started)) s"
    grep -E "^REFUSED" "$work/$build-$round.log" | cut -c1-300
  done
done
tar czf "$out/bench-rules.tgz" -C /tmp bench-rules
exit $ok
