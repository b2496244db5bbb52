#!/usr/bin/env bash
# How `kverify fuzz` reads what libFuzzer leaves: an input slower than -report_slow_units that ended
# within -timeout (libFuzzer writes slow-unit-* and goes on, exit 0) is named and is not a finding;
# an input past -timeout (timeout-*, exit 70) is a finding, kept with its Case line. libFuzzer is
# played by a script that prints what it prints (its "Test unit written to" lines, as a real run
# shows them), so that both outcomes take a second rather than a slow Case under ASan (25 s).
#   slow_unit.sh KVERIFY WORKDIR
set -u
k="$1" work="$2"
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work"
mkdir -p "$work/tree/fuzz"
cat >"$work/tree/fuzz/fuzz_softmax" <<'FAKE'
#!/usr/bin/env bash
prefix=""
for a in "$@"; do
  case "$a" in
    -artifact_prefix=*) prefix="${a#-artifact_prefix=}" ;;
    -minimize_crash=1) exit 0 ;;  # nothing smaller found: the driver keeps the input as found
  esac
done
if [[ ${1:-} == --write-dict ]]; then : >"$2"; exit 0; fi
if [[ ${1:-} == --replay ]]; then echo "  case line: op=softmax dtype=f32 shape=1x1 backend=emu"; exit 0; fi
echo "#2	INITED cov: 10 ft: 10 corp: 1/1b exec/s: 1 rss: 30Mb"
case "$KV_FAKE_LIBFUZZER" in
  slow)
    echo "Slowest unit: 12 s:"
    echo x >"${prefix}slow-unit-0123"
    echo "artifact_prefix='$prefix'; Test unit written to ${prefix}slow-unit-0123"
    echo "Done 10 runs in 12 second(s)"
    exit 0 ;;
  timeout)
    echo "ALARM: working on the last Unit for 601 seconds"
    echo y >"${prefix}timeout-0456"
    echo "artifact_prefix='$prefix'; Test unit written to ${prefix}timeout-0456"
    echo "SUMMARY: libFuzzer: timeout"
    exit 70 ;;
esac
FAKE
chmod +x "$work/tree/fuzz/fuzz_softmax"
run() {  # run MODE: kverify fuzz softmax against the stand-in; sets out and rc
  out="$(KVERIFY_FUZZ_BUILD="$work/tree" KV_FAKE_LIBFUZZER="$1" "$k" fuzz softmax --time 5 --work "$work/$1" \
    --keep "$work/$1/kept" 2>"$work/$1.stderr")"
  rc=$?
  echo "$out"
}

run slow
[[ $rc -eq 0 ]] || fail "a slow unit: kverify fuzz exited $rc, expected 0 (not a finding)"
grep -q "^an input ran past libFuzzer's -report_slow_units .*(not a finding): $work/slow/artifacts/slow-unit-0123$" <<<"$out" ||
  fail "the slow unit is not named"
grep -q "^no finding" <<<"$out" || fail "no 'no finding' line"
[[ ! -e $work/slow/kept ]] || [[ -z "$(ls -A "$work/slow/kept")" ]] || fail "a slow unit was kept as a regression input"

run timeout
[[ $rc -eq 1 ]] || fail "a timeout: kverify fuzz exited $rc, expected 1 (a finding)"
grep -q "^FINDING in softmax" <<<"$out" || fail "the timeout is not reported as a FINDING"
[[ -f $work/timeout/kept/timeout-0456 && -f $work/timeout/kept/timeout-0456.case ]] ||
  fail "the timeout's input and its Case line are not kept in --keep"
grep -qx "op=softmax dtype=f32 shape=1x1 backend=emu" "$work/timeout/kept/timeout-0456.case" || fail "the kept Case line is not the input's"
echo "ok: a slow unit is named and not a finding; a timeout is a kept finding"
