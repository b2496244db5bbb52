#!/usr/bin/env bash
# The tolerance report's HTML renders in headless Chromium and its plots are in the rendered DOM:
# an <svg> per plot, the plotted polylines and points, and the policy line. Without chromium this
# FAILS (the kverify driver installs Debian's chromium); it never passes unchecked.
#   report_html_chromium.sh REPORT_DIR
set -uo pipefail
html="$1/report.html"
[[ -f "$html" ]] || { echo "FAIL: $html is missing (cli:report_quick_emu writes it)"; exit 1; }
chromium_bin="$(command -v chromium || command -v chromium-browser || true)"
[[ -n "$chromium_bin" ]] || { echo "FAIL: chromium is not installed (Debian package chromium; ./kverify installs it)"; exit 1; }
dom="$(mktemp)"
trap 'rm -f "$dom"' EXIT
# A throwaway profile: the test must not depend on (or write to) a user's profile.
profile="$(mktemp -d)"
timeout 60 "$chromium_bin" --headless --no-sandbox --disable-gpu --user-data-dir="$profile" \
  --dump-dom "file://$(realpath "$html")" >"$dom" 2>/dev/null
rc=$?
rm -rf "$profile"
[[ $rc -eq 0 && -s "$dom" ]] || { echo "FAIL: chromium exited $rc or rendered nothing"; exit 1; }
count() { grep -o "$1" "$dom" | wc -l; }
svgs=$(count '<svg[^>]*class="plot"') polylines=$(count '<polyline') points=$(count '<circle class="cell') \
  policy=$(count '<line class="policy"')
echo "rendered DOM: $svgs plot svgs, $polylines polylines, $points points, $policy policy lines"
# Every sweep (quick or full) covers each of its ops in each dtype: a plot per op and dtype of its
# report.json, each with its policy line and a series per variant.
json="$1/report.json"
ops=$(grep -o '"op": *"[a-z0-9_]*"' "$json" | sort -u | wc -l) dtypes=$(grep -o '"dtype": *"[a-z0-9]*"' "$json" | sort -u | wc -l)
ok=1
((ops > 0 && svgs == ops * dtypes)) || { echo "FAIL: expected $ops ops x $dtypes dtypes = $((ops * dtypes)) plot <svg> elements"; ok=0; }
((policy == svgs)) || { echo "FAIL: expected one policy line per plot"; ok=0; }
((polylines >= svgs && points >= polylines)) || { echo "FAIL: plots without plotted series/points"; ok=0; }
grep -q '<title>kverify tolerance report' "$dom" || { echo "FAIL: the page title is missing"; ok=0; }
((ok)) && echo "PASS" || exit 1
