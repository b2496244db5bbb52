#!/usr/bin/env bash
# A launch-plan sweep on the GPU (docs/perf.md "Plans swept, not guessed"): each line of stdin,
#   op variant dtype shape VARIABLE=plan [VARIABLE=plan ...] | -
# is timed by `kverify bench` (the Case gated on its own shape first, the copy ceiling and the
# baseline measured in the same process) with the development hooks set to the plans (`-`: the
# launcher's own plan), ROUNDS times, lines interleaved within a round so that a drift of the
# device shows in every line alike. Prints one table row per line and round; the bench's own
# tables go to OUTDIR.
#   gpu/plan-sweep.sh [--rounds N] [--reps N] [--bin KVERIFY] [--out OUTDIR] < lines
set -uo pipefail
rounds=2 reps=30 bin=build-gpu/tools/kverify outdir=/tmp/plan-sweep
while [[ $# -gt 0 ]]; do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --reps) reps="$2"; shift 2 ;;
    --bin) bin="$2"; shift 2 ;;
    --out) outdir="$2"; shift 2 ;;
    -h|--help) sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "plan-sweep: unknown argument '$1' (accepted: --rounds N, --reps N, --bin PATH, --out DIR, --help)" >&2
       exit 2 ;;
  esac
done
mapfile -t lines < <(grep -vE '^\s*(#|$)')
[[ ${#lines[@]} -gt 0 ]] || { echo "plan-sweep: no lines on stdin (expected: op variant dtype shape VARIABLE=plan|-)" >&2; exit 2; }
mkdir -p "$outdir"
status=0
echo "| round | op | variant | dtype | shape | plan | median ms | p10 | p90 | of ceiling |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for ((round = 1; round <= rounds; ++round)); do
  for n in "${!lines[@]}"; do
    read -r op variant dtype shape plan <<<"${lines[$n]}"
    if [[ -z "$plan" ]]; then echo "plan-sweep: line '${lines[$n]}' has no plan field (VARIABLE=plan or -)" >&2; exit 2; fi
    md="$outdir/line$n-round$round.md"
    env_args=()
    [[ "$plan" != - ]] && read -r -a env_args <<<"$plan"
    if env "${env_args[@]}" "$bin" bench --op "$op" --variant "$variant" --dtype "$dtype" --shape "$shape" \
         --gate-extra 0 --reps "$reps" --seed 1 --json "$outdir/line$n-round$round.json" --md "$md" \
         >"$outdir/line$n-round$round.log" 2>&1; then
      awk -F'|' -v r="$round" -v p="$plan" '$2 ~ /^ [a-z_]+ $/ && $7 ~ /[0-9]/ {
        printf "| %d |%s|%s|%s|%s| %s |%s|%s|%s|%s|\n", r, $2, $3, $4, $5, p, $7, $8, $9, $11 }' "$md"
    else
      status=1
      echo "| $round | $op | $variant | $dtype | $shape | $plan | FAILED: $(tail -1 "$outdir/line$n-round$round.log") | | | |"
    fi
  done
done
exit $status
