#!/usr/bin/env bash
# examples/cuda_styles and examples/your_terms as a user runs them: kverify configured with
# KVERIFY_VARIANT_DIRS pointing at the folders (ops/tests/extended_build.sh builds it: emu only, no
# sanitizer flavors); then `kverify check` must pass every cuda_styles example, `kverify mutants` must
# kill every planted-bug copy (and `check` fail one of them), and each your_terms registration must
# show what its declaration does: SKIPPED
# outside a declared domain with draws inside it, a launcher's assert failing its Cases while the
# run completes, a fast-math build passing under POLICY fast_math only.
#   cuda_styles.sh <examples folder the CLI was built with> <that kverify CLI> <work dir> [budget per property, default 20]
# A passing `check` takes 5 Cases a property (what it shows here is that each example and
# registration goes through check as declared; the random search is the catalogue suites'), with
# --quick (the boundary Cases past 65535, seconds each on emu, are cli:check_catalogue_emu's); the
# planted bugs keep the budget and every boundary Case.
set -euo pipefail
examples_root="$1" kv="$2" work="$3" budget="${4:-20}"
pass_budget=$((budget < 5 ? budget : 5))
examples="$examples_root/cuda_styles"
[[ -x $kv ]] || { echo "FAIL: no kverify CLI at $kv (ops:extended_build builds it)"; exit 1; }
mkdir -p "$work"
work="$(cd "$work" && pwd)"
cd "$work"  # kverify check writes kverify-check.json into the working folder

# op variant, from the folder's registrations (one list, so a new example is checked too).
mapfile -t variants < <(sed -En 's/^kverify_add_(variant|kernel)\(NAME ([a-z0-9_]*) OP ([a-z_]*).*/\3 \2/p' "$examples"/*/CMakeLists.txt)
[[ ${#variants[@]} -ge 18 ]] || { echo "FAIL: expected nine examples and nine mutants in $examples, found ${#variants[@]}"; exit 1; }
failed=0
check_variant() {  # check_variant OP NAME WANT: `kverify check` of one variant must exit WANT
  local op="$1" name="$2" want="$3" rc=0 summary
  "$kv" check --backend emu --op "$op" --variant "$name" --quick --budget "$pass_budget" --json "$work/$name.json" >"$work/$name.txt" 2>&1 || rc=$?
  summary="$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$work/$name.txt" | tail -1 || true)"
  if [[ $rc -eq $want ]]; then echo "check exit $rc  $op/$name: $summary"; else echo "WRONG   $op/$name: check exit $rc, expected $want"; tail -40 "$work/$name.txt"; failed=1; fi
}
mutants=()
for entry in "${variants[@]}"; do
  read -r op name <<<"$entry"
  if [[ $name == mutant_* ]]; then mutants+=(--only "$op/$name"); else check_variant "$op" "$name" 0; fi
done
# The planted bugs through the mutation self-test, which stops each at the first property that
# kills it (check runs every boundary Case of a mutant too: 40 s for a 256-thread block per row).
rc=0
"$kv" mutants --backend emu --budget "$budget" --fuzz-time 0 --out "$work/mutants" "${mutants[@]}" >"$work/mutants.txt" 2>&1 || rc=$?
planted=$((${#mutants[@]} / 2))  # --only NAME pairs
killed="$(grep -cE '^  \[[0-9/]+.*\] [a-z_]+/mutant_[a-z0-9_]+: killed by ' "$work/mutants.txt" || true)"
if [[ $rc -eq 0 && $killed -eq $planted ]]; then
  echo "killed  $killed planted bugs (kverify mutants): $(grep -E '^Catalogue:' "$work/mutants.txt" | cut -d. -f1)"
else
  echo "SURVIVED: kverify mutants exit $rc, $killed of $planted killed"; cat "$work/mutants.txt"; failed=1
fi
check_variant gelu_tanh mutant_half2_gelu_drop_tail 1  # and check, as a user runs it, fails one

# examples/your_terms: one expectation per registration (its CMakeLists.txt says which).
expect() {  # expect NAME EXIT PATTERN...: exit status and lines the output must hold
  local name="$1" want="$2" rc=0 pattern
  shift 2
  "$kv" check --backend emu --variant "$name" --quick --budget "$pass_budget" --json "$work/$name.json" \
    >"$work/$name.txt" 2>&1 || rc=$?
  if [[ $rc -ne $want ]]; then echo "WRONG   $name: exit $rc, expected $want"; tail -30 "$work/$name.txt"; failed=1; return; fi
  for pattern in "$@"; do
    if ! grep -qE -- "$pattern" "$work/$name.txt"; then
      echo "WRONG   $name: no line matches '$pattern'"; tail -30 "$work/$name.txt"; failed=1; return
    fi
  done
  grep -qE '^[0-9]+ passed, [0-9]+ failed' "$work/$name.txt" || { echo "WRONG   $name: the run did not complete"; failed=1; return; }
  echo "as declared  $name (exit $rc)"
}
expect vec4_softmax 0 \
  '^SKIPPED  emu softmax/vec4_softmax f32: [0-9]+ boundary Cases, e\.g\. .*\(ACCEPTS (contiguous|aligned=16|cols_multiple=4)\)' \
  '^DOMAIN   emu softmax/vec4_softmax accepts contiguous aligned=16 int32_indexing cols_multiple=4: [1-9][0-9]* of [0-9]+ boundary Cases outside it'
# Every drawn property Case was inside the domain (moved there where needed, none refused); only a
# property whose fixed shape is its point (a 1-column row, the 3x5 example) is skipped whole.
python3 - "$work/vec4_softmax.json" <<'PY' || failed=1
import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["properties"] if r["variant"] == "vec4_softmax"]
bad = [r["property"] for r in rows if r["outside_domain"] != 0 and r["cases"] != 0]
whole = [r["property"] for r in rows if r["outside_domain"] != 0 and r["cases"] == 0]
if not rows or bad or sum(r["moved_into_domain"] for r in rows) == 0 or \
        set(whole) - {"softmax.singleton_row_is_one", "softmax.seed_example"}:
    sys.exit("WRONG   vec4_softmax: property draws outside the domain: %s" % (bad or whole or "no Case moved"))
print("as declared  vec4_softmax: %d property Cases, %d moved inside the domain, none outside; skipped whole: %s" %
      (sum(r["cases"] for r in rows), sum(r["moved_into_domain"] for r in rows), ", ".join(whole)))
PY
expect vec4_softmax_undeclared 1 \
  "^FAIL  softmax/vec4_softmax_undeclared on emu: the launcher or kernel aborted: signal SIGABRT \(Aborted\): .*Assertion .cols % 4 == 0" \
  '^emu    softmax/vec4_softmax_undeclared +f32 +[0-9]+ +[0-9]+ +[1-9]'
expect fast_math_softmax 0 '^DOMAIN   emu softmax/fast_math_softmax accepts unit_col_stride'
"$kv" run 'op=softmax variant=fast_math_softmax shape=3x100 values=normal:20 backend=emu' 2>&1 |
  grep -q '^  tolerance: softmax f32 fast_math' || { echo "WRONG   fast_math_softmax: its Verdict names no fast_math policy"; failed=1; }
expect fast_math_softmax_default_policy 1 '^  hint: built with --use_fast_math: expf is __expf'
for name in fast_math_gelu fast_math_row_sum fast_math_matmul_relu; do  # each op's fast-math policy
  expect "$name" 0 "^DOMAIN   emu [a-z_]+/$name accepts"
done
"$kv" run 'op=row_sum variant=fast_math_row_sum shape=3x100 values=subnormal:-140 backend=emu' 2>&1 |
  grep -q '^  tolerance: row_sum f32 fast_math' || { echo "WRONG   fast_math_row_sum: its Verdict names no fast_math policy"; failed=1; }
expect two_pass_row_sum 0 '^emu    row_sum/two_pass_row_sum +f32 +[1-9]'
rc=0
"$kv" run 'op=row_sum variant=two_pass_row_sum shape=268435456x1 backend=emu' >"$work/precondition.txt" 2>&1 || rc=$?
[[ $rc -eq 3 ]] && grep -q '^  not run: .*indexes rows \* 8 partials with int' "$work/precondition.txt" ||
  { echo "WRONG   two_pass_row_sum: its PRECONDITION did not skip (exit $rc)"; cat "$work/precondition.txt"; failed=1; }
[[ $failed -eq 0 ]] || { echo "FAIL: examples/cuda_styles"; exit 1; }
echo "PASS: examples/cuda_styles: every example passes kverify check on emu and every planted bug is caught; examples/your_terms as declared"
