#!/usr/bin/env bash
# The bench's rules against cheats, measured on a GPU: every cheat of bench/tests/cheats refused by
# the new build, and the honest kernels' and baselines' medians and the bench's own time of the new
# build against an older one on the same card (the two full benches alternated, twice).
#   gpu/bench-rules.sh OLD_KVERIFY NEW_KVERIFY OUT_DIR     (NEW built with KVERIFY_VARIANT_DIRS naming bench/tests/cheats)
# Writes OUT_DIR/bench-rules.tgz (every JSON, Markdown and log) and prints a summary with the
# comparison of the medians, which
#   gpu/bench-rules.sh --compare DIR     (DIR: old-1.json old-2.json new-1.json new-2.json)
# BENCH_RULES_ROUNDS (default "1 2") and BENCH_RULES_CHEATS (default 1) split the run over two
# calls of a device with a per-command limit: e.g. "1" with the cheats, then "2" without.
# prints again: per row new/old of the kernel and of its baseline, beside the old build's own
# round-to-round ratio (the card's spread).
set -u
compare() {
  python3 - "$1" <<'PY'
import json,sys,statistics as st
d=sys.argv[1]
def rows(f):
    j=json.load(open(f)); out={}
    for r in j['results']:
        k=(r['op'],r['variant'],r['dtype'],r['shape'])
        out[k]=(r['timing']['median_ms'] if r.get('timing') else None,
                r.get('baseline',{}).get('timing',{}).get('median_ms') if r.get('baseline') and r['baseline'].get('timing') else None)
    return j,out
J={}
for b in ['old','new']:
    for r in [1,2]:
        J[(b,r)]=rows(f'{d}/{b}-{r}.json')
for b in ['old','new']:
    for r in [1,2]:
        j=J[(b,r)][0]; print(b,r,'gate',round(j['gate_seconds'],1),'timing',round(j['timing_seconds'],1),'rows',len(j['results']))
keys=sorted(J[('old',1)][1])
worst=[];worstb=[];noise=[]
print(f"{'case':60s} {'old ms':>9s} {'new ms':>9s} {'new/old':>8s} {'old2/old1':>9s} | {'base old':>9s} {'base new':>9s} {'new/old':>8s}")
for k in keys:
    o=[J[('old',r)][1].get(k,(None,None)) for r in [1,2]]; n=[J[('new',r)][1].get(k,(None,None)) for r in [1,2]]
    if None in [x[0] for x in o+n]: print(k,'missing',o,n); continue
    om=st.median([x[0] for x in o]); nm=st.median([x[0] for x in n])
    ratio=nm/om; worst.append((abs(ratio-1),ratio,k)); noise.append(abs(o[1][0]/o[0][0]-1))
    bo=[x[1] for x in o if x[1]]; bn=[x[1] for x in n if x[1]]
    br=(st.median(bn)/st.median(bo)) if bo and bn else None
    if br: worstb.append((abs(br-1),br,k))
    print(f"{'/'.join(k):60s} {om:9.4f} {nm:9.4f} {ratio:8.3f} {o[1][0]/o[0][0]:9.3f} | {st.median(bo) if bo else 0:9.4f} {st.median(bn) if bn else 0:9.4f} {br if br else 0:8.3f}")
worst.sort(reverse=True); worstb.sort(reverse=True)
print('kernels: median |new/old-1|',round(st.median([w[0] for w in worst]),4),'max',worst[:3])
print('baselines: max',worstb[:3])
print('old round-to-round median |diff|',round(st.median(noise),4),'max',round(max(noise),4))
PY
}
if [[ "${1:-}" == --compare ]]; then compare "$2"; exit; fi
old="$1" new="$2" out="$3"
rounds="${BENCH_RULES_ROUNDS:-1 2}"
work=/tmp/bench-rules
rm -rf "$work" && mkdir -p "$work" "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | tee "$work/device.txt"
ok=0
if [[ ${BENCH_RULES_CHEATS:-1} == 1 ]]; then
  started=$SECONDS
  "$new" mutants --bench --out "$work/cheats" >"$work/cheats.log" 2>&1
  rc=$?
  echo "--- kverify mutants --bench: exit $rc (0: every cheat refused), $((SECONDS - started)) s"
  sed -n '/^The cheat catalogue through kverify bench:/,$p' "$work/cheats.log" | cut -c1-600
  [[ $rc -eq 0 ]] || ok=1
fi
for round in $rounds; do
  for build in old new; do
    bin="$old"; [[ $build == new ]] && bin="$new"
    started=$SECONDS
    "$bin" bench --seed 1 --json "$work/$build-$round.json" --md "$work/$build-$round.md" >"$work/$build-$round.log" 2>&1
    rc=$?
    echo "--- full bench $build round $round: exit $rc, $((SECONDS - started)) s"
    grep -E "^REFUSED" "$work/$build-$round.log" | cut -c1-300
  done
done
[[ -f $work/old-1.json && -f $work/old-2.json ]] && compare "$work" | tee "$work/comparison.txt" | tail -3
tar czf "$out/bench-rules.tgz" -C /tmp bench-rules
exit $ok
