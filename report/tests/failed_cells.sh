#!/usr/bin/env bash
# A failing cell is visible in every output: the sweep exits 1, the Markdown row says FAIL and the
# failed Case is listed with its replay line, the plot marks the cell. The failing kernel is a
# mutant (kernels/softmax/mutants: 0 padding of the max), swept because --variant names it.
#   report_failed_cells.sh KVERIFY OUT_DIR
set -uo pipefail
kverify="$1" out="$2"
rm -rf "$out"
"$kverify" report --quick --op softmax --variant mutant_zero_padding --dtype f32 --out "$out" >"$out.log" 2>&1
rc=$?
cat "$out.log"
ok=1
((rc == 1)) || { echo "FAIL: expected exit 1 for a failing cell, got $rc"; ok=0; }
grep -q '| mutant_zero_padding | f32 | 1 | .*| \*\*FAIL\*\* |' "$out/report.md" || { echo "FAIL: no FAIL row in report.md"; ok=0; }
grep -q "^- \`op=softmax variant=mutant_zero_padding .*replay: ./kverify run" "$out/report.md" ||
  { echo "FAIL: the failed Case is not listed with its replay line"; ok=0; }
grep -q 'class="cell fail"' "$out/plots/softmax_f32.svg" || { echo "FAIL: the plot does not mark the failed cell"; ok=0; }
grep -q '"pass": false' "$out/report.json" || { echo "FAIL: report.json has no failing cell"; ok=0; }
((ok)) && echo "PASS" || exit 1
