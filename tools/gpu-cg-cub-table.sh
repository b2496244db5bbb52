#!/usr/bin/env bash
# The GPU's table of cooperative-groups and CUB results (runtime/emu/tests/cg_cub_table.cu, built
# by nvcc against the toolkit's cooperative_groups and CCCL), which emu's build of the same file
# must reproduce bit for bit (ctest emu_cg_cub_table_matches_h200 compares it with
# reports/h200/cg_cub_table.txt).
#
#   tools/gpu-cg-cub-table.sh build          here: build/runtime/emu/emu_cg_cub_table_cuda (sm_90,
#                                            static cudart); carry that path to the GPU machine
#   tools/gpu-cg-cub-table.sh run OUTDIR     on the GPU machine: OUTDIR/cg_cub_table.txt (with the
#                                            device, driver and KVERIFY_COMMIT in its header) and
#                                            compute-sanitizer memcheck and racecheck logs
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bin=build/runtime/emu/emu_cg_cub_table_cuda

case "${1:-}" in
  build)
    [[ -x /usr/local/cuda/bin/nvcc ]] && export PATH="/usr/local/cuda/bin:$PATH"
    [[ -f build/build.ninja ]] || cmake --preset default
    cmake --build build --target emu_cg_cub_table_cuda emu_cg_cub_table
    ;;
  run)
    out="${2:?usage: tools/gpu-cg-cub-table.sh run OUTDIR}"
    mkdir -p "$out"
    {
      echo "# cooperative groups and CUB on the GPU: runtime/emu/tests/cg_cub_table.cu built by nvcc $(nvcc --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\).*/\1/p')"
      echo "# device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1) (name, driver)"
      echo "# date: $(date -u +%Y-%m-%d), commit: ${KVERIFY_COMMIT:-unknown}"
      "$bin"
    } > "$out/cg_cub_table.txt"
    if command -v compute-sanitizer > /dev/null; then
      compute-sanitizer --tool memcheck --error-exitcode 3 "$bin" > "$out/memcheck.txt" 2>&1 || echo "memcheck: exit $?" >> "$out/memcheck.txt"
      compute-sanitizer --tool racecheck --error-exitcode 3 "$bin" > "$out/racecheck.txt" 2>&1 || echo "racecheck: exit $?" >> "$out/racecheck.txt"
      tail -2 "$out/memcheck.txt" "$out/racecheck.txt"
    fi
    ;;
  *)
    sed -n '2,14p' "$0"
    exit 2
    ;;
esac
