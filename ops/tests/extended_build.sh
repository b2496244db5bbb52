#!/usr/bin/env bash
# kverify as a user extends it, built once for the tests that check each way in: a copy of this
# checkout (its tracked files) gets the toy op `scale` (ops/tests/toy_op: ops/scale/ and
# kernels/scale/) and the line KVERIFY_OP(scale) in ops/ops.def, nothing else in the tree, and is
# configured with KVERIFY_VARIANT_DIRS naming the copy's examples/cuda_styles and examples/your_terms
# (variants from outside folders); only the CLI is built (emu, no sanitizer flavors: short on the
# CI machine). ops/tests/add_op.sh and examples/tests/cuda_styles.sh then run its
# WORK_DIR/build/tools/kverify.
#   extended_build.sh SOURCE_DIR WORK_DIR
set -u
src="$1" work="$2"
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work"
mkdir -p "$work/tree"
(cd "$src" && git ls-files -z | xargs -0 tar -cf - 2>/dev/null) | tar -xf - -C "$work/tree" || fail "cannot copy the checkout"
cp -r "$src/ops/tests/toy_op/." "$work/tree/"
echo "KVERIFY_OP(scale)" >>"$work/tree/ops/ops.def"
changed="$(cd "$work/tree" && find ops/scale kernels/scale -type f | sort | tr '\n' ' ')"
echo "added: $changed+ one line in ops/ops.def"
variant_dirs="$work/tree/examples/cuda_styles;$work/tree/examples/your_terms"
echo "configured with KVERIFY_VARIANT_DIRS=$variant_dirs"
cmake -S "$work/tree" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKVERIFY_ENABLE_CUDA=OFF \
  -DKVERIFY_SANITIZER_FLAVORS=OFF -DKVERIFY_VARIANT_DIRS="$variant_dirs" >"$work/configure.log" 2>&1 ||
  { tail -20 "$work/configure.log"; fail "configure"; }
cmake --build "$work/build" -j "$(nproc)" --target kverify >"$work/build.log" 2>&1 ||
  { grep -m5 -A3 error "$work/build.log"; fail "build (the whole log: $work/build.log)"; }
echo "PASS: kverify with the op scale and the variants of examples/cuda_styles and examples/your_terms built: $work/build/tools/kverify"
