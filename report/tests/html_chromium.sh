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
# Every sweep (quick or full) covers 4 ops x 3 dtypes: 12 plots, each with its policy line and a series per variant.
ok=1
((svgs == 12)) || { echo "FAIL: expected 12 plot <svg> elements"; ok=0; }
((policy == svgs)) || { echo "FAIL: expected one policy line per plot"; ok=0; }
((polylines >= svgs && points >= polylines)) || { echo "FAIL: plots without plotted series/points"; ok=0; }
grep -q '<title>kverify tolerance report' "$dom" || { echo "FAIL: the page title is missing"; ok=0; }
((ok)) && echo "PASS" || exit 1
