#!/bin/bash -eu
# Builds kverify's fuzz targets the way OSS-Fuzz and ClusterFuzzLite expect: with the engine's
# compilers and flags ($CC $CXX $CFLAGS $CXXFLAGS $LIB_FUZZING_ENGINE), everything linked
# statically but glibc, and into $OUT: one binary per target (fuzz_<target>), its seed corpus
# (fuzz_<target>_seed_corpus.zip from corpus/<target>/), its dictionary and its .options.
# Called by .clusterfuzzlite/build.sh (and by an OSS-Fuzz project's build.sh); runs here too:
#   CC=clang-14 CXX=clang++-14 CFLAGS="-fsanitize=address,fuzzer-no-link" \
#   CXXFLAGS="-fsanitize=address,fuzzer-no-link" LIB_FUZZING_ENGINE=-fsanitize=fuzzer \
#   OUT=/tmp/out SRC=$PWD/.. fuzz/build.sh
# The planted-bug demo target (softmax_planted) is left out: it always finds its bug.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
: "${OUT:?set OUT to the output folder}" "${CXX:?}" "${LIB_FUZZING_ENGINE:?}"
build="${WORK:-/tmp}/kverify-fuzz-build"
ops=($(sed -n 's/^kverify_add_op(NAME \([a-z0-9_]*\) .*/\1/p' "$root/ops/CMakeLists.txt"))  # the op targets: kverify's ops
targets=("${ops[@]}" case_parser cli report_json)
if [[ "${CXXFLAGS:-}" == *-stdlib=libc++* ]]; then
  # fuzz_cli links RapidCheck (check's property catalogue); Debian's is built against libstdc++.
  echo "kverify: libc++ build: leaving out the cli target (it needs a RapidCheck built with libc++)" >&2
  targets=("${ops[@]}" case_parser report_json)
fi

cmake -S "$root" -B "$build" -G Ninja \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_CXX_FLAGS="${CXXFLAGS:-}" \
  -DKVERIFY_FUZZ=ON -DKVERIFY_FUZZ_ENGINE="$LIB_FUZZING_ENGINE" \
  -DKVERIFY_ENABLE_CUDA=OFF -DKVERIFY_SANITIZER_FLAVORS=OFF -DKVERIFY_STATIC=ON
cmake --build "$build" -j "$(nproc)" --target $(printf 'fuzz_%s ' "${targets[@]}")

for t in "${targets[@]}"; do
  cp "$build/fuzz/fuzz_$t" "$OUT/"
  kind=op
  [[ " ${ops[*]} " == *" $t "* ]] || kind=text
  # The dictionary is generated from kverify's tables by the target itself (fuzz/dictionary.hpp).
  "$OUT/fuzz_$t" --write-dict "$OUT/fuzz_$t.dict"
  { cat "$root/fuzz/options/$kind.options"; echo "dict = fuzz_$t.dict"; } >"$OUT/fuzz_$t.options"
  if [[ -d "$root/corpus/$t" ]]; then
    (cd "$root/corpus/$t" && find . -type f ! -name '*.case' ! -name 'README*' -print | zip -q -j -@ "$OUT/fuzz_${t}_seed_corpus.zip")
  fi
done
echo "kverify: fuzz targets in $OUT: ${targets[*]}"
