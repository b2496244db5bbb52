#!/usr/bin/env bash
# A user's own project, as the README's "Check your own kernel" starts it: ops/tests/extended_build.sh
# made it with `kverify new softmax my_kernel` of kverify's package (the .deb) installed into a fresh
# root, configured it with find_package(kverify) against that root only (the project links the
# installed libraries), with examples/my_softmax in KVERIFY_VARIANT_DIRS, and built its kverify CLI
# (its kernels on emu only). Here the project's own `ctest` must run and pass
# kverify:my_kernel:emu, `kverify list` must show my_softmax and `kverify check --variant
# my_softmax --properties-only` must pass (the property catalogue: the registration's way in; its
# boundary Cases, 40 s of emu for a block-per-row kernel's 65537-row Case, are those the project's
# ctest runs on my_kernel above). The two other ways in, add_subdirectory (KVERIFY_SOURCE) and
# KVERIFY_VARIANT_DIRS alone, are configured against this checkout and must register it in the
# generated table. find_package against kverify's build tree (kverify_DIR=<build>) configures too.
#   example_builds.sh <kverify source> <extended_build.sh's work dir> <work dir> <kverify build tree>
set -euo pipefail
src="$1" extended="$2" work="$3" kverify_build="$4"
example="$src/examples/my_softmax"
build="$extended/my_kernel/build"
kv="$extended/cli"
[[ -x $kv && -d $build && -f $extended/cmake-options ]] ||
  { echo "FAIL: no my_kernel build in $extended (ops:extended_build builds it)"; exit 1; }
mapfile -t opts <"$extended/cmake-options"  # the configure options of that build
mkdir -p "$work"
work="$(cd "$work" && pwd)"
cd "$work"  # kverify check writes kverify-check.json into the working folder

step() { echo "== $*" >&2; }

step "the project's own ctest runs kverify's catalogue on my_kernel"
# Its entry for the kernel the project was made for; the entries of its ops' kernels check what
# ops:your_op checks (each op's catalogue on this project's CLI) at four times the cost.
rc=0
(cd "$work" && ctest --test-dir "$build" -R '^kverify:my_kernel:emu$' --output-on-failure --output-junit ctest-junit.xml) \
  >"$work/ctest.txt" 2>&1 || rc=$?
tail -5 "$work/ctest.txt"
grep -qE 'kverify:my_kernel:emu .*Passed' "$work/ctest.txt" && grep -q '100% tests passed' "$work/ctest.txt" &&
  [[ $rc -eq 0 ]] || { cat "$work/ctest.txt"; echo "FAIL: the new project's ctest (exit $rc)"; exit 1; }
# A kernel that never ends fails its entry at the TIMEOUT kverify_add_tests sets, not at the CI job's limit.
(cd "$work" && ctest --test-dir "$build" --show-only=json-v1) | python3 -c '
import json, sys
tests = {t["name"]: t for t in json.load(sys.stdin)["tests"]}
props = {p["name"]: p["value"] for p in tests["kverify:my_kernel:emu"]["properties"]}
sys.exit(0 if props.get("TIMEOUT") == 1800 else "FAIL: kverify:my_kernel:emu has TIMEOUT %r, expected 1800" % props.get("TIMEOUT"))' ||
  exit 1

step "the CI job kverify new wrote: the files it uploads are those the project's ctest wrote"
project="$extended/my_kernel"
workflow="$project/.github/workflows/kverify.yml"
[[ -s $workflow ]] || { echo "FAIL: kverify new wrote no .github/workflows/kverify.yml"; exit 1; }
ref="$(git -C "$src" rev-parse HEAD 2>/dev/null || true)"
grep -q "^  KVERIFY_REF: \"$ref\"$" "$workflow" ||
  { echo "FAIL: the workflow's KVERIFY_REF is not this checkout's commit $ref: $(grep KVERIFY_REF: "$workflow")"; exit 1; }
uploads="$(sed -En 's/^ +(build\/[^ ]*)$/\1/p' "$workflow")"  # the upload step's paths, globs as written
for artifact in build/kverify-my_kernel-emu.junit.xml build/kverify-my_kernel-emu.json build/ctest-junit.xml; do
  [[ -s $project/$artifact ]] || { echo "FAIL: the project's ctest wrote no $artifact"; exit 1; }
  uploaded=""
  while read -r glob; do
    if [[ $artifact == $glob ]]; then uploaded="$glob"; fi
  done <<<"$uploads"
  [[ -n $uploaded ]] || { echo "FAIL: the workflow uploads no path matching $artifact (it uploads: $uploads)"; exit 1; }
done
xmllint --noout --schema "$src/check/junit.xsd" "$project/build/kverify-my_kernel-emu.junit.xml" ||
  { echo "FAIL: the project's JUnit does not validate against check/junit.xsd"; exit 1; }
# ctest's own row and kverify's file are one run: the entry passed, and the file fails nothing.
[[ $(xmllint --xpath 'count(//testcase[failure])' "$project/build/kverify-my_kernel-emu.junit.xml") -eq 0 &&
   $(xmllint --xpath 'count(//testcase)' "$project/build/kverify-my_kernel-emu.junit.xml") -gt 0 ]] ||
  { echo "FAIL: kverify:my_kernel:emu passed but its JUnit fails a testcase or holds none"; exit 1; }
grep -q 'name="kverify:my_kernel:emu"' "$project/build/ctest-junit.xml" ||
  { echo "FAIL: ctest's JUnit has no kverify:my_kernel:emu row"; exit 1; }

step "kverify list shows my_softmax"
"$kv" list | tee "$work/list.txt" | grep -E '^softmax +my_softmax +f32 f16 bf16 +emu' ||
  { cat "$work/list.txt"; echo "FAIL: my_softmax is not in kverify list"; exit 1; }

step "kverify check --variant my_softmax --properties-only"
rc=0
"$kv" check --backend emu --variant my_softmax --properties-only --budget 5 >"$work/check.txt" 2>&1 || rc=$?
tail -3 "$work/check.txt"
[[ $rc -eq 0 ]] && grep -qE '^[0-9]+ passed, 0 failed' "$work/check.txt" ||
  { cat "$work/check.txt"; echo "FAIL: kverify check of my_softmax did not pass (exit $rc)"; exit 1; }

step "add_subdirectory (KVERIFY_SOURCE) and KVERIFY_VARIANT_DIRS: configure, the variant is registered"
cmake -S "$example" -B "$work/add_subdirectory" "${opts[@]}" -DKVERIFY_SOURCE="$src" >"$work/add_subdirectory.log" 2>&1 ||
  { cat "$work/add_subdirectory.log"; echo "FAIL: configuring the example with KVERIFY_SOURCE=$src"; exit 1; }
cmake -S "$src" -B "$work/variant_dirs" "${opts[@]}" -DKVERIFY_VARIANT_DIRS="$example" >"$work/variant_dirs.log" 2>&1 ||
  { cat "$work/variant_dirs.log"; echo "FAIL: configuring kverify with KVERIFY_VARIANT_DIRS=$example"; exit 1; }
for t in add_subdirectory/kverify variant_dirs; do
  grep -q '.name = "my_softmax"' "$work/$t/variants/kverify_added_variants.cpp" ||
    { echo "FAIL: $t: my_softmax missing from the generated registration table"; exit 1; }
done
step "find_package against kverify's build tree: the project configures"
cmake -S "$example" -B "$work/build_tree_package" "${opts[@]}" -Dkverify_DIR="$kverify_build" >"$work/build_tree_package.log" 2>&1 ||
  { cat "$work/build_tree_package.log"; echo "FAIL: configuring the example with kverify_DIR=$kverify_build"; exit 1; }
step "find_package against a configured kverify that is not built: the configure says so"
rc=0
cmake -S "$example" -B "$work/unbuilt_package" "${opts[@]}" -Dkverify_DIR="$work/variant_dirs" >"$work/unbuilt_package.log" 2>&1 || rc=$?
[[ $rc -ne 0 ]] && tr -s ' \n' ' ' <"$work/unbuilt_package.log" | grep -q 'does not exist: build the kverify tree at' ||
  { cat "$work/unbuilt_package.log"; echo "FAIL: configuring against the unbuilt tree $work/variant_dirs (exit $rc) did not say to build it"; exit 1; }
# The package's version rule: a project asking for another minor version is refused, naming this one.
version="$("$kv" --version | sed -En 's/^kverify ([0-9]+)\.([0-9]+)\.[0-9]+$/\1 \2/p')"
read -r major minor <<<"$version"
[[ -n $major ]] || { echo "FAIL: kverify --version printed no version: $("$kv" --version)"; exit 1; }
package="$(sed -n 's/^kverify_DIR:[A-Z]*=//p' "$build/CMakeCache.txt")"
mkdir -p "$work/other_version"
printf 'cmake_minimum_required(VERSION 3.25)\nproject(other_version NONE)\nfind_package(kverify %s.%s CONFIG REQUIRED)\n' \
  "$major" "$((minor + 1))" >"$work/other_version/CMakeLists.txt"
rc=0
cmake -S "$work/other_version" -B "$work/other_version/build" -Dkverify_DIR="$package" >"$work/other_version.log" 2>&1 || rc=$?
[[ $rc -ne 0 ]] && tr -s ' \n' ' ' <"$work/other_version.log" | grep -q "version: $major.$minor" ||
  { cat "$work/other_version.log"; echo "FAIL: find_package(kverify $major.$((minor + 1))) against $major.$minor (exit $rc) was not refused naming the version"; exit 1; }
# An installed kverify has no sources to build again: KVERIFY_FROM_SOURCE is refused, saying why.
rc=0
cmake -S "$example" -B "$work/from_source_installed" "${opts[@]}" -Dkverify_DIR="$package" -DKVERIFY_FROM_SOURCE=ON \
  >"$work/from_source_installed.log" 2>&1 || rc=$?
[[ $rc -ne 0 ]] && tr -s ' \n' ' ' <"$work/from_source_installed.log" | grep -q "is an installed kverify with no sources" ||
  { cat "$work/from_source_installed.log"; echo "FAIL: KVERIFY_FROM_SOURCE=ON against the installed $package (exit $rc) was not refused saying why"; exit 1; }
echo "PASS: kverify new softmax my_kernel, built against the installed Debian package (find_package), passes its own ctest; examples/my_softmax is listed and passes check --properties-only; add_subdirectory and KVERIFY_VARIANT_DIRS register it; the build tree configures as a package; an unbuilt package, another minor version and KVERIFY_FROM_SOURCE against the installed one are refused"
