#!/usr/bin/env bash
# Each command honest under bad input and limits: one ctest entry per item (cli:honest:<item>),
# each a reproduction as a new user would type it, with the exit code and the one-line message it
# must give. Exit 3 from this script: the item needs what this machine lacks (said on stdout).
#   honest_cli.sh ITEM KVERIFY_BINARY SOURCE_DIR
set -u
item="$1" k="$2" src="$3"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2
fail=0

# expect CODE PATTERN -- ARGS...: exit code CODE and output matching the extended regex PATTERN.
expect() {
  local code="$1" pattern="$2"
  shift 3
  local out rc
  out="$("$k" "$@" 2>&1)"
  rc=$?
  if [[ $rc -ne $code ]]; then
    echo "FAIL: kverify $* exited $rc, expected $code"
    head -c 2000 <<<"$out"
    fail=1
    return
  fi
  if ! grep -qE -- "$pattern" <<<"$out"; then
    echo "FAIL: kverify $*: output lacks /$pattern/"
    head -c 2000 <<<"$out"
    fail=1
    return
  fi
  echo "ok: kverify $* -> $rc"
}
# one_line ARGS...: the error is a single line (stdout and stderr together).
one_line() {
  local n
  n="$("$k" "$@" 2>&1 | wc -l)"
  if [[ $n -ne 1 ]]; then
    echo "FAIL: kverify $* printed $n lines, expected one:"
    "$k" "$@" 2>&1 | head -5
    fail=1
  else
    echo "ok: kverify $*: one line"
  fi
}
has_gpu() { "$k" run 'op=softmax shape=2x3 backend=cuda' >/dev/null 2>&1; }

case "$item" in
  failed_launch_fails)  # a variant whose every launch fails passes no property, the guard-only ones included
    expect 1 "row_sum.no_out_of_bounds_writes +mutant_refuses_every_case .*FAILED" -- check --backend emu --op row_sum \
      --variant mutant_refuses_every_case --properties-only --budget 3 --no-isolate --json "$work/c.json"
    expect 1 "row_sum.deterministic +mutant_refuses_every_case .*FAILED" -- check --backend emu --op row_sum \
      --variant mutant_refuses_every_case --properties-only --budget 3 --no-isolate --json "$work/c.json"
    ;;
  quick_left_out)  # check --quick leaves the grid-limit Cases out on emu and says so: SKIPPED, never passed
    expect 0 "^SKIPPED  emu: 1 boundary Case past the grid limits left out by --quick, e\.g\. \./kverify run 'op=row_sum variant=warp_per_row dtype=f32 shape=65537x1 backend=emu'" \
      -- check --backend emu --op row_sum --variant warp_per_row --quick --budget 1 --json "$work/q.json" --junit "$work/q.xml"
    python3 - "$work/q.json" "$work/q.xml" <<'PY' || fail=1
import json, sys, xml.etree.ElementTree as ET
report = json.load(open(sys.argv[1]))
left = [t for t in ET.parse(sys.argv[2]).getroot().iter("testcase")
        if any("left out by --quick" in (s.get("message") or "") for s in t.iter("skipped"))]
names = sorted(t.get("name") for t in left)
ran = sum(r["cases"] for r in report["boundary_cases"])
want = ["boundary op=row_sum variant=warp_per_row dtype=f32 shape=65537x1 backend=emu"]
if names != want or not any("left out by --quick" in s for s in report["skipped"]) or ran == 0:
    sys.exit("FAIL: --quick: %d JUnit testcases skipped by it (%s), JSON skipped %s, %d boundary Cases run" %
             (len(left), names, report["skipped"], ran))
print("ok: --quick: the 65537-row Case a JUnit skip, in the JSON's skipped, %d boundary Cases run" % ran)
PY
    ;;
  runs_once)  # a Case past 65535 rows runs once on emu and says so; what it never writes still fails
    expect 0 "held: .*every output written; one run, not two \(more than 65535 rows on emu" -- \
      run 'op=row_sum variant=warp_per_row dtype=f32 shape=65537x1 backend=emu'
    expect 0 "held: .*two runs bitwise equal \(schedule=0 then schedule=1" -- \
      run 'op=row_sum variant=warp_per_row dtype=f32 shape=65535x1 backend=emu'
    expect 1 "\[unwritten\] y: element \(65536,0\) kept the poison of the Case's one run: never written" -- \
      run 'op=row_sum variant=mutant_capped_grid dtype=f32 shape=65537x1 values=zeros backend=emu'
    # A right bf16 value equal to a random finite poison's bits is no unwritten element (a fuzz finding).
    expect 0 "one run, not two" -- run 'op=matmul_relu variant=tiled_smem dtype=bf16 shape=65536x1x7 values=heavy backend=emu'
    ;;
  memory_plan)  # too big for this machine: NOT RUN with the numbers, before anything is allocated
    expect 3 "the check needs [0-9.]+ GiB of host memory, [0-9.]+ [MG]iB available" -- \
      run 'op=softmax shape=100000x100000 backend=emu'
    expect 3 "the check needs [0-9.]+ GiB of host memory" -- run 'op=softmax shape=4x8 x.strides=1000000000000,1 backend=emu'
    KVERIFY_MEMORY_LIMIT_GIB=0.001 expect 3 "the check needs 7.[0-9] MiB of host memory, 1.0 MiB available" -- \
      run 'op=row_sum shape=1000x1000 backend=emu'
    ;;
  unwritable_outputs)  # an output that cannot be written is an error (2), found before the run, nothing claimed
    expect 2 "cannot read .*reports/emu: a folder" -- report --compare "$src/reports/emu" "$src/reports/emu/report.json"
    expect 2 "cannot write into /proc/x" -- mutants --budget 1 --fuzz-time 0 --out /proc/x
    expect 2 "cannot write /proc/x/c.json" -- check --op softmax --budget 1 --json /proc/x/c.json
    expect 2 "cannot write /proc/x/c.xml" -- check --op softmax --budget 1 --junit /proc/x/c.xml
    # --junit onto the JSON's file would leave one of the two outputs lost: refused before the run.
    expect 2 "kverify-check.json and kverify-check.json name the same file" -- check --op softmax --budget 1 \
      --junit kverify-check.json
    expect 2 "cannot write /proc/x/b.json" -- bench --quick --json /proc/x/b.json
    expect 2 "cannot write into /proc/x/plots" -- report --quick --out /proc/x
    if grep -q written <("$k" mutants --budget 1 --fuzz-time 0 --out /proc/x 2>&1); then
      echo "FAIL: mutants claims an output it did not write"
      fail=1
    fi
    ;;
  not_run_here)  # a variant that runs only on the GPU is "not run here" (3) on emu, not bad input (2)
    if has_gpu; then
      expect 0 "^PASS" -- run 'op=softmax variant=cluster_bulk shape=4x8'
    else
      expect 3 "does not run on emu" -- run 'op=softmax variant=cluster_bulk shape=4x8'
      expect 3 "nothing was checked here" -- check --variant cluster_bulk --json "$work/c.json"
    fi
    expect 3 "does not run on emu" -- run 'op=softmax variant=cluster_bulk shape=4x8 backend=emu'
    expect 3 "NOT RUN +emu: softmax/cluster_bulk" -- check --variant cluster_bulk --backend emu --json "$work/c.json"
    ;;
  progress)  # a Case that takes more than 5 s says what it is doing, how far, and the time left
    # (a Case of about 25 s, stopped at its first progress line, which comes at 5 s, or after 12 s)
    line="^kverify run: [0-9]+ s so far: .*(rows|blocks) \([0-9.]+ %\)"
    "$k" run 'op=matmul_relu shape=1536x1024x1024 backend=emu' 2>"$work/progress.txt" >/dev/null &
    running=$!
    for _ in $(seq 1 120); do
      grep -qE "$line" "$work/progress.txt" && break
      sleep 0.1
    done
    kill "$running" 2>/dev/null
    wait "$running" 2>/dev/null
    out="$(cat "$work/progress.txt")"
    if grep -qE "$line" <<<"$out"; then
      echo "ok: progress lines:"
      echo "$out"
    else
      echo "FAIL: no progress line in 5+ s: $out"
      fail=1
    fi
    ;;
  recipe_help_true)  # help values claims only what holds
    if "$k" help values | grep -q "negative.*catches"; then
      echo "FAIL: help values still says negative catches something it does not"
      fail=1
    fi
    expect 0 "const:-200 catches a max padded with 0" -- help values
    expect 1 "^FAIL" -- run 'op=softmax variant=mutant_zero_padding shape=4x33 values=const:-200 backend=emu'
    ;;
  schedule_is_emus)  # a thread order on the GPU would be a claim the GPU never kept
    expect 2 "bad Case token 'schedule=5': a thread order is emu's" -- run 'op=softmax shape=4x8 backend=cuda schedule=5'
    ;;
  replay_case_files)  # a .case line names its op; an empty or malformed one is bad input before anything runs
    cp "$(ls "$src"/corpus/row_sum/regressions/*.case | head -1)" "$work/regression.case"
    : >"$work/empty.case"
    echo "op=softmax shape=0x3" >"$work/bad.case"
    expect 2 "empty.case': no Case line in it" -- replay "$work/empty.case"
    expect 2 "bad.case': bad Case token 'shape=0x3'" -- replay "$work/bad.case"
    out="$("$k" replay "$work/regression.case" 2>&1)"
    rc=$?
    if [[ $rc -eq 3 ]]; then
      echo "NOT RUN: the fuzz tree is not built here ($out)"
      exit 3
    fi
    [[ $rc -eq 0 ]] && echo "ok: a .case file replays without --target" || {
      echo "FAIL: replay regression.case exited $rc: $out"
      fail=1
    }
    ;;
  messages)  # one line, naming the token and what is accepted
    expect 2 "accepted: run, check, list, fuzz, replay, report, huge, agree, mutants, bench" -- frobnicate
    for args in "check --nosuch" "mutants --nosuch" "list --nosuch" "help --nosuch"; do
      # shellcheck disable=SC2086
      if $k $args 2>&1 | grep -qE "kverify [a-z]+: kverify"; then
        echo "FAIL: doubled prefix: $($k $args 2>&1)"
        fail=1
      fi
    done
    expect 2 "option --budget '-1': too small \(accepted: a whole number in 1\.\." -- mutants --budget -1
    expect 2 "option --fuzz-time '-1'" -- mutants --fuzz-time -1
    expect 2 "unexpected argument 'extra'" -- list extra
    expect 2 "too large \(accepted: a size .*at most 9223372036854775807\)" -- run 'op=softmax shape=99999999999999999999x1'
    n="$("$k" run "op=softmax shape=2x$(head -c 100000 /dev/zero | tr '\0' 9)" 2>&1 | wc -c)"
    [[ $n -lt 400 ]] && echo "ok: a 100 KB token gives a $n-byte message" || {
      echo "FAIL: a 100 KB token gives a $n-byte message"
      fail=1
    }
    one_line bench --variant nosuch
    one_line check --op softmax --variant split_vec
    expect 2 "not a variant of softmax \(accepted with --op softmax: " -- check --op softmax --variant split_vec
    [[ -e kverify-check.json ]] && {
      echo "FAIL: a refused check wrote kverify-check.json"
      fail=1
    }
    for v in zeros:3 ties:-3 normal:-1; do expect 2 "'values=$v': .*(must be|takes no parameter)" -- run "op=softmax shape=2x3 values=$v"; done
    # Both bounds of a recipe's parameter, past either end.
    expect 2 "dominant:D: D must be a number in -1e\+300\.\.1e\+300" -- run 'op=softmax shape=2x3 values=dominant:1e308'
    expect 2 "normal:S: S must be a number in 0\.\.1e\+300" -- run 'op=softmax shape=2x3 values=normal:1e301'
    # A key that was meant as op= is named, with what is wrong with it.
    expect 2 "no op=NAME token: the key of 'Op=softmax' is not op \(keys are lower-case\)" -- run 'Op=softmax shape=2x3'
    expect 2 "holds byte 0xEF at position 0, outside ASCII" -- run $'\xef\xbb\xbfop=softmax shape=2x3'
    expect 2 "holds byte 0xEF at position 0, outside ASCII" -- run $'\xef\xbd\x8fp=softmax shape=2x3'
    expect 2 "unknown option '--op' \(kverify list takes none; ./kverify list --help\)" -- list --op softmax
    expect 2 "unexpected argument 'extra'" -- help run extra
    expect 2 "unknown option '--nosuch'" -- help case --nosuch
    expect 2 "says backend=cuda but --backend is emu" -- huge --backend emu --case 'op=row_sum shape=4x8 backend=cuda'
    expect 2 "is a Case of row_sum but --op is softmax" -- huge --case 'op=row_sum shape=4x8' --op softmax
    expect 2 "needs --backend cuda" -- check --sanitize memcheck --backend emu
    # Without --backend, --sanitize means cuda: never an emu child under compute-sanitizer.
    out="$("$k" check --sanitize memcheck --op row_sum --budget 2 --json "$work/s.json" 2>&1)"
    rc=$?
    expected_rc=3  # here: no GPU (or no compute-sanitizer), so NOT RUN
    command -v nvidia-smi >/dev/null && expected_rc=0
    if [[ $rc -ne $expected_rc ]] || grep -q " on emu" <<<"$out"; then
      echo "FAIL: check --sanitize without --backend exited $rc (expected $expected_rc, cuda only):"
      head -c 2000 <<<"$out"
      fail=1
    fi
    ;;
  rapidcheck_quiet)  # kverify's seed and replay line, not RapidCheck's noise
    out="$("$k" check --backend emu --op row_sum --variant mutant_drop_tail --seed 7 --budget 5 --no-isolate \
      --properties-only --property row_sum.reference_agreement --json "$work/c.json" 2>&1)"
    for noise in "Using configuration" "RC_PARAMS" "RC_FAIL\(" "-nan"; do
      if grep -qE -- "$noise" <<<"$out"; then
        echo "FAIL: check prints /$noise/"
        fail=1
      fi
    done
    grep -q "replay: ./kverify check --backend emu --property row_sum.reference_agreement --seed 7" <<<"$out" &&
      echo "ok: the failure carries kverify's replay line" || {
      echo "FAIL: no replay line: $out"
      fail=1
    }
    expect 1 "y\(0,[0-9]+\): NaN vs" -- run 'op=gelu_tanh variant=mutant_exp_tanh shape=1x1024 values=uniform:30 backend=emu'
    ;;
  accuracy_tier)  # the framework's own formula: a PASS (accuracy note), listed apart; a FAIL under --strict
    line='op=gelu_tanh variant=mutant_tanhf_cancels dtype=bf16 shape=2x9 values=const:-6 backend=emu'
    expect 0 "^PASS \(accuracy note\)  gelu_tanh/mutant_tanhf_cancels" -- run "$line"
    expect 0 "accuracy note: y: 18 element\(s\) outside the derived bound, within that of PyTorch's F.gelu" -- run "$line"
    expect 1 "why: --strict: an accuracy note fails" -- run "$line" --strict
    KVERIFY_STRICT=1 expect 1 "^FAIL  gelu_tanh/mutant_tanhf_cancels" -- run "$line"
    check=(check --backend emu --op gelu_tanh --variant mutant_tanhf_cancels --properties-only
      --property gelu_tanh.reference_agreement --budget 20)
    expect 0 "^ACCURACY NOTE gelu_tanh.reference_agreement on emu: .* Cases noted; the first" -- \
      "${check[@]}" --json "$work/noted.json"
    python3 - "$work/noted.json" <<'PY' || fail=1
import json, sys
j = json.load(open(sys.argv[1]))
rows = j["properties"]
if not j["accuracy_notes"] or not rows or rows[0]["noted"] < 1 or rows[0]["passed"] != rows[0]["cases"]:
    sys.exit("FAIL: the check JSON lists no accuracy note: %s" % json.dumps(rows))
print("ok: the check JSON lists %d accuracy note(s); %d of %d Cases noted" %
      (len(j["accuracy_notes"]), rows[0]["noted"], rows[0]["cases"]))
PY
    expect 1 "^FAILED gelu_tanh.reference_agreement on emu" -- "${check[@]}" --strict --json "$work/strict.json"
    expect 0 "framework:  PyTorch's F.gelu" -- help tolerance
    ;;
  terminated)  # a check stopped by SIGTERM leaves none of its child processes running
    "$k" check --backend emu --op softmax --budget 1000 --json "$work/t.json" >"$work/t.txt" 2>&1 &
    parent=$!
    children=""
    for _ in $(seq 1 50); do
      children="$(pgrep -P "$parent" || true)"
      [[ -n $children ]] && break
      sleep 0.2
    done
    [[ -n $children ]] || { echo "FAIL: check started no child process"; fail=1; }
    kill -TERM "$parent"
    wait "$parent" 2>/dev/null
    sleep 1
    for c in $children; do
      # Still running: present and not a zombie (an ended child whose new parent has not reaped it).
      if [[ -n "$(ps -o stat= -p "$c" 2>/dev/null | grep -v Z)" ]]; then
        echo "FAIL: child $c of the terminated check still runs"
        fail=1
        kill -KILL "$c"
      fi
    done
    [[ $fail -eq 0 ]] && echo "ok: SIGTERM to check ended its child process(es) too: $children"
    ;;
  environment)  # a KVERIFY_* value outside its form is bad input before anything runs, naming it
    KVERIFY_SIMT_PLAN=3,1 expect 2 "KVERIFY_SIMT_PLAN='3,1': expected tile_m,splits" -- run 'op=matmul_relu shape=4x4x4'
    KVERIFY_STRICT=yes expect 2 "KVERIFY_STRICT='yes': accepted: 1 or 0" -- list
    KVERIFY_EMU_RACE_DETECTOR=maybe expect 2 "KVERIFY_EMU_RACE_DETECTOR='maybe': accepted: on, off, 1 or 0" -- \
      run 'op=softmax shape=2x3'
    KVERIFY_MEMORY_LIMIT_GIB=abc expect 2 "KVERIFY_MEMORY_LIMIT_GIB='abc': not a memory size" -- run 'op=softmax shape=2x3'
    KVERIFY_SIMT_PLAN=3,1 expect 0 "KVERIFY_SIMT_PLAN \(development" -- help environment
    ;;
  *)
    echo "unknown item '$item'"
    exit 2
    ;;
esac
exit $fail
