#!/usr/bin/env bash
# examples/cuda_styles, examples/your_terms and a `kverify new` scaffold of every op and signature
# on the GPU: the same sources that pass on emu in ./kverify test, built by nvcc into a static
# kverify, checked on the H200; every example and scaffold must pass, every planted-bug copy
# (mutant_*) and every registration meant to fail (*_undeclared, *_default_policy: see
# examples/your_terms/CMakeLists.txt) must fail, and the passing ones run clean under
# compute-sanitizer memcheck and racecheck.
#
#   tools/gpu-examples.sh build          here: build-gpu-examples/tools/kverify (sm_90, static);
#                                        carry that path to the GPU machine
#   tools/gpu-examples.sh run OUTDIR     on the GPU machine: OUTDIR/examples.txt and one log per
#                                        variant (KVERIFY_COMMIT names the commit in the header;
#                                        SANITIZE, a regex, limits the sanitizer runs to those names;
#                                        BUDGET, the check budget, default 100)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
kv=build-gpu-examples/tools/kverify
examples="examples/cuda_styles examples/your_terms"
scaffolds=build-gpu-examples-scaffolds

case "${1:-}" in
  build)
    set -e
    [[ -x /usr/local/cuda/bin/nvcc ]] && export PATH="/usr/local/cuda/bin:$PATH"
    # The scaffolds, written by this checkout's own kverify (./kverify builds it).
    rm -rf "$scaffolds"
    ./kverify list > /dev/null
    dirs=""
    for spec in softmax:strided_2d softmax:rows_strided softmax:rows gelu_tanh:strided_2d gelu_tanh:rows_strided \
                gelu_tanh:rows gelu_tanh:flat row_sum:row_reduce_strided row_sum:rows_strided row_sum:rows \
                matmul_relu:blas_row_major matmul_relu:blas_col_major; do
      op=${spec%%:*} signature=${spec##*:}
      build/tools/kverify new "$op" "new_${op}_${signature}" --signature "$signature" --dir "$scaffolds/$op-$signature" > /dev/null
      dirs="$dirs;$root/$scaffolds/$op-$signature"
    done
    for e in $examples; do dirs="$dirs;$root/$e"; done
    cmake -S . -B build-gpu-examples -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
      -DKVERIFY_STATIC=ON -DKVERIFY_SANITIZER_FLAVORS=OFF -DKVERIFY_VARIANT_DIRS="${dirs#;}" > /dev/null
    cmake --build build-gpu-examples -j "$(nproc)" --target kverify
    strip "$kv"
    ;;
  run)
    out="${2:?usage: tools/gpu-examples.sh run OUTDIR}"
    mkdir -p "$out"
    summary="$out/examples.txt"
    {
      echo "# examples/cuda_styles, examples/your_terms and kverify new scaffolds on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1) (name, driver)"
      echo "# date: $(date -u +%Y-%m-%d), commit: ${KVERIFY_COMMIT:-unknown}"
    } > "$summary"
    # op name: the examples' registrations, then the scaffolds (`kverify list`: op, name, ...)
    mapfile -t variants < <(sed -En 's/^kverify_add_(variant|kernel)\(NAME ([a-z0-9_]*) OP ([a-z_]*).*/\3 \2/p' \
      $(for e in $examples; do echo "$e"/CMakeLists.txt "$e"/*/CMakeLists.txt; done 2>/dev/null) 2>/dev/null;
      "$kv" list | awk '$2 ~ /^new_/ {print $1, $2}')
    failed=0
    for entry in "${variants[@]}"; do
      read -r op name <<<"$entry"
      rc=0
      "$kv" check --backend cuda --op "$op" --variant "$name" --budget "${BUDGET:-100}" --json "$out/$name.json" > "$out/$name.txt" 2>&1 || rc=$?
      line="$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out/$name.txt" | tail -1)"
      if [[ $name == mutant_* || $name == *_undeclared || $name == *_default_policy ]]; then verdict=$([[ $rc -eq 1 ]] && echo killed || { failed=1; echo "SURVIVED (exit $rc)"; })
      else verdict=$([[ $rc -eq 0 ]] && echo passed || { failed=1; echo "FAILED (exit $rc)"; }); fi
      echo "$verdict $op/$name: $line" | tee -a "$summary"
      # SANITIZE: a regex of the names run under the sanitizers too (default: every passing one).
      if [[ $name != mutant_* && $name != *_undeclared && $name != *_default_policy && $name =~ ${SANITIZE:-.} ]] &&
        command -v compute-sanitizer > /dev/null; then
        for tool in memcheck racecheck; do
          rc=0
          "$kv" check --sanitize "$tool" --op "$op" --variant "$name" --budget 10 --properties-only \
            --json "$out/$name.$tool.json" > "$out/$name.$tool.txt" 2>&1 || rc=$?
          echo "  $tool: exit $rc, $(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out/$name.$tool.txt" | tail -1)" | tee -a "$summary"
          [[ $rc -eq 0 ]] || failed=1
        done
      fi
    done
    echo "exit: $failed" | tee -a "$summary"
    exit "$failed"
    ;;
  *)
    awk 'NR > 1 && /^#/ {print; next} NR > 1 {exit}' "$0"
    exit 2
    ;;
esac
