#!/usr/bin/env bash
# A report given to --compare is a file from anywhere: its text is shown, never run. A worst Case
# that is not a Case line (here one that would run a shell command when pasted) gets no replay line;
# terminal escapes are shown as '?'; a 5000-character field is cut; a report that never ends (a
# link to /dev/zero) is refused after its bound, as is a .case file for `kverify replay`.
#   untrusted_report.sh KVERIFY COMMITTED_REPORT_JSON WORK_DIR
set -u
k="$1" a="$2" work="$3"
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work"
python3 - "$a" "$work" <<'PY'
import json, sys
a, work = sys.argv[1], sys.argv[2]
b = json.load(open(a))
b["cells"][0]["pass"] = False
b["cells"][0]["worst"]["case"] = "op=softmax shape=4x5'; touch " + work + "/pasted; echo '"
b["device"] = "\x1b[31mred\x1b[0m" + "x" * 5000
json.dump(b, open(work + "/crafted.json", "w"))
PY
out="$("$k" report --compare "$a" "$work/crafted.json" 2>&1)"
grep -q "replay: none (the report's worst Case 'op=softmax shape=4x5'; touch" <<<"$out" || { echo "$out" | head; fail "no refusal of the crafted replay line"; }
grep -q "replay: ./kverify run '.*touch" <<<"$out" && fail "the crafted Case reached a replay command line"
grep -q $'\x1b' <<<"$out" && fail "a terminal escape from the report was printed raw"
grep -q "?\[31mred?\[0mx* *\.\.\. (5012 characters)" <<<"$out" || { echo "$out" | head -3; fail "the long escaped field was not cut and shown"; }
echo "as expected  --compare: the crafted worst Case gets no replay line, escapes shown as '?', the long field cut"
ln -sf /dev/zero "$work/endless.json"
ln -sf /dev/zero "$work/endless.case"
rc=0; out="$(timeout 60 "$k" report --compare "$a" "$work/endless.json" 2>&1)" || rc=$?
[[ $rc -eq 2 ]] && grep -q "holds more than 268435456 bytes" <<<"$out" || fail "report --compare of /dev/zero: exit $rc: $out"
rc=0; out="$(timeout 60 "$k" replay "$work/endless.case" 2>&1)" || rc=$?
[[ $rc -eq 2 ]] && grep -q "holds more than 1048576 bytes" <<<"$out" || fail "replay of /dev/zero: exit $rc: $out"
echo "as expected  a report and a .case that never end: refused after their bounds (exit 2)"
echo "PASS: untrusted files are shown, bounded, never run"
