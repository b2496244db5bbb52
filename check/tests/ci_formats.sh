#!/usr/bin/env bash
# `kverify check`'s CI formats (docs/properties.md#in-ci-junit-xml-and-github-annotations):
#  1. the JUnit XML of the whole emu catalogue (cli:check_catalogue_emu) validates against
#     check/junit.xsd, and its passes, failures and skips are the check's own summary line's;
#  2. a failing mutant whose emu failure names a kernel line (odd and even threads at two
#     __syncthreads) gives an ::error annotation at that line of its source, under GITHUB_ACTIONS=true,
#     and a JUnit file that fails exactly its failing testcases. (The annotation at the registration's
#     CMake line, for a failure without a kernel line, is held by check/tests/fault_isolation.sh.)
#   ci_formats.sh KVERIFY SOURCE_DIR CATALOGUE_OUTPUT CATALOGUE_JUNIT
set -uo pipefail
k="$1"; src="$2"; catalogue_out="$3"; catalogue_junit="$4"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v xmllint >/dev/null || fail "xmllint not found (Debian package libxml2-utils; ./kverify test installs it)"
count() { xmllint --xpath "$1" "$2"; }

# 1. The catalogue's JUnit against the schema and against the summary line "N passed, M failed".
[[ -s "$catalogue_junit" && -s "$catalogue_out" ]] || fail "cli:check_catalogue_emu left no JUnit or output"
xmllint --noout --schema "$src/check/junit.xsd" "$catalogue_junit" 2>"$work/schema.err" ||
  fail "the catalogue's JUnit does not validate: $(head -5 "$work/schema.err")"
read -r passed failed < <(sed -En 's/^([0-9]+) passed, ([0-9]+) failed.*/\1 \2/p' "$catalogue_out" | tail -1)
[[ -n "$passed" ]] || fail "no summary line in the catalogue's output"
j_passed=$(count 'count(//testcase[not(failure) and not(skipped)])' "$catalogue_junit")
j_failed=$(count 'count(//testcase[failure])' "$catalogue_junit")
[[ "$j_passed" -eq "$passed" && "$j_failed" -eq "$failed" ]] ||
  fail "JUnit: $j_passed passed, $j_failed failed; the check said $passed passed, $failed failed"
j_tests=$(count 'string(/testsuites/@tests)' "$catalogue_junit")
j_all=$(count 'count(//testcase)' "$catalogue_junit")
[[ "$j_tests" -eq "$j_all" ]] || fail "testsuites/@tests is $j_tests, the file holds $j_all testcases"
# Every table row has its testcases: boundary Cases per variant, properties per variant.
rows_boundary=$(awk '$1 == "emu" && $2 ~ /\// && $4 ~ /^[0-9]+$/ {n += $4 + $7} END {print n + 0}' "$catalogue_out")
j_boundary=$(count 'count(//testcase[starts-with(@name, "boundary ")])' "$catalogue_junit")
[[ "$j_boundary" -eq "$rows_boundary" ]] ||
  fail "$j_boundary boundary testcases, the table counts $rows_boundary boundary Cases (run + skipped)"
suites=$(count 'count(//testsuite)' "$catalogue_junit")
echo "ok: catalogue JUnit valid: $j_all testcases in $suites suites ($j_boundary boundary Cases), $j_passed passed as the check said"

# 2. A kernel line: the divergent-barrier mutant on emu, one property, under GITHUB_ACTIONS.
GITHUB_ACTIONS=true GITHUB_WORKSPACE="$src" "$k" check --backend emu --variant mutant_gpuv_divergent_barrier \
  --dtype f32 --properties-only --property row_sum.reference_agreement --budget 2 --json "$work/m.json" \
  --junit "$work/m.xml" >"$work/m.out" 2>"$work/m.err"
rc=$?
[[ $rc -eq 1 ]] || fail "the divergent-barrier mutant: exit $rc, expected 1: $(tail -5 "$work/m.out")"
xmllint --noout --schema "$src/check/junit.xsd" "$work/m.xml" 2>"$work/schema.err" ||
  fail "the mutant's JUnit does not validate: $(head -5 "$work/schema.err")"
[[ $(count 'count(//testcase[failure])' "$work/m.xml") -ge 1 ]] || fail "the mutant's JUnit has no failing testcase"
grep -q 'divergent\|different __syncthreads\|reached __syncthreads' <<<"$(count 'string(//failure)' "$work/m.xml")" ||
  fail "the JUnit failure does not carry the Verdict: $(count 'string(//failure)' "$work/m.xml" | head -3)"
annotation=$(grep -m1 '^::error ' "$work/m.out") || fail "no ::error line under GITHUB_ACTIONS=true: $(head -5 "$work/m.out")"
file=$(sed -En 's/^::error file=([^,]*),line=([0-9]+),.*/\1/p' <<<"$annotation")
line=$(sed -En 's/^::error file=([^,]*),line=([0-9]+),.*/\2/p' <<<"$annotation")
[[ "$file" == kernels/row_sum/mutants/mutants.cuh ]] || fail "annotation file '$file', expected the mutant's source relative to the workspace: $annotation"
sed -n "${line}p" "$src/$file" | grep -q '__syncthreads' ||
  fail "annotation line $line of $file is not a __syncthreads: $(sed -n "${line}p" "$src/$file")"
grep -q 'reproduce: ./kverify run' <<<"$annotation" || fail "the annotation does not carry the reproduce line: $annotation"
(unset GITHUB_ACTIONS; "$k" check --backend emu --variant mutant_gpuv_divergent_barrier --dtype f32 --properties-only \
  --property row_sum.reference_agreement --budget 2 --json "$work/m2.json" >"$work/m2.out" 2>&1)
! grep -q '^::' "$work/m2.out" || fail "annotations printed without GITHUB_ACTIONS=true"
# And a correct kernel under GITHUB_ACTIONS=true: it passes, and no annotation is printed.
GITHUB_ACTIONS=true GITHUB_WORKSPACE="$src" "$k" check --backend emu --variant warp_per_row --dtype f32 \
  --properties-only --property row_sum.reference_agreement --budget 2 --json "$work/ok.json" >"$work/ok.out" 2>&1 ||
  fail "row_sum/warp_per_row failed under GITHUB_ACTIONS=true: $(tail -5 "$work/ok.out")"
! grep -q '^::' "$work/ok.out" || fail "a passing run printed annotations: $(grep '^::' "$work/ok.out" | head -2)"
echo "ok: ::error at $file:$line ($(sed -n "${line}p" "$src/$file" | sed 's/^ *//'))"
