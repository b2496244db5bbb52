#!/usr/bin/env bash
# examples/cuda_styles on the GPU: the same headers that pass on emu in ./kverify test
# (examples:cuda_styles), built by nvcc into a static kverify, checked on the H200; every
# example must pass and every planted-bug copy must fail, and the examples run clean under
# compute-sanitizer memcheck and racecheck.
#
#   tools/gpu-examples.sh build          here: build-gpu-examples/tools/kverify (sm_90, static);
#                                        carry that path to the GPU machine
#   tools/gpu-examples.sh run OUTDIR     on the GPU machine: OUTDIR/examples.txt and one log per
#                                        variant (KVERIFY_COMMIT names the commit in the header)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
kv=build-gpu-examples/tools/kverify
examples=examples/cuda_styles

case "${1:-}" in
  build)
    set -e
    [[ -x /usr/local/cuda/bin/nvcc ]] && export PATH="/usr/local/cuda/bin:$PATH"
    [[ -f build-gpu-examples/build.ninja ]] ||
      cmake -S . -B build-gpu-examples -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
        -DKVERIFY_STATIC=ON -DKVERIFY_SANITIZER_FLAVORS=OFF -DKVERIFY_VARIANT_DIRS="$root/$examples"
    cmake --build build-gpu-examples -j "$(nproc)" --target kverify
    strip "$kv"
    ;;
  run)
    out="${2:?usage: tools/gpu-examples.sh run OUTDIR}"
    mkdir -p "$out"
    summary="$out/examples.txt"
    {
      echo "# examples/cuda_styles on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1) (name, driver)"
      echo "# date: $(date -u +%Y-%m-%d), commit: ${KVERIFY_COMMIT:-unknown}"
    } > "$summary"
    mapfile -t variants < <(sed -n 's/^kverify_add_variant(NAME \([a-z0-9_]*\) OP \([a-z_]*\).*/\2 \1/p' "$examples"/*/CMakeLists.txt)
    failed=0
    for entry in "${variants[@]}"; do
      read -r op name <<<"$entry"
      rc=0
      "$kv" check --backend cuda --op "$op" --variant "$name" --budget 100 --json "$out/$name.json" > "$out/$name.txt" 2>&1 || rc=$?
      line="$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out/$name.txt" | tail -1)"
      if [[ $name == mutant_* ]]; then verdict=$([[ $rc -eq 1 ]] && echo killed || { failed=1; echo "SURVIVED (exit $rc)"; })
      else verdict=$([[ $rc -eq 0 ]] && echo passed || { failed=1; echo "FAILED (exit $rc)"; }); fi
      echo "$verdict $op/$name: $line" | tee -a "$summary"
      if [[ $name != mutant_* ]] && command -v compute-sanitizer > /dev/null; then
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
    sed -n '2,11p' "$0"
    exit 2
    ;;
esac
