#!/usr/bin/env bash
# The GPU run, reproducible by anyone with a GPU (and what the device tool runs on the lent H200).
#
#   gpu/run.sh build   on the build machine: statically linked binaries into build-gpu/
#                            (the GPU machine has no RapidCheck/MPFR and nothing can be installed),
#                            staged with their relative paths in gpu-stage/ (carry that one path)
#   gpu/run.sh list    the steps
#   gpu/run.sh run [--parallel] [STEP...]
#                            on the GPU machine, all steps or the named ones (--parallel: side by
#                            side; never with bench, which needs the device alone), with
#                            KVERIFY_REQUIRE_GPU=1: suites, properties, CLI runs, check --backend all,
#                            the new variants, the GEMMs (wgmma, simt), compute-sanitizer over the catalogue and on planted
#                            mutants, fault isolation, huge tensors, emu-GPU agreement, the
#                            mutation self-test, the fuzz targets on cuda, bench (quick and full),
#                            the tolerance report, Nsight Compute profiles; a summary and results.tgz (logs, reports) in $OUT
#                            (or gpu-out/)
#   gpu/run.sh pack    archive what a cut-short run left in $OUT
# The device tool copies the work tree without .git: pass KVERIFY_COMMIT=<hash> to `run`.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
ops=($(sed -n 's/^kverify_add_op(NAME \([a-z0-9_]*\) .*/\1/p' ops/CMakeLists.txt))  # the op fuzz targets: kverify's ops

# The binaries the run uses (built here, carried to the GPU machine under gpu-stage/).
kStaged=(build-gpu/tools/kverify build-gpu/runtime/cuda/cuda_tests build-gpu/pipeline/pipeline_tests
         build-gpu/runtime/emu/emu_tests build-gpu/properties/properties_tests build-gpu/mutation/mutants_tests
         build-gpu/fuzz/fuzz_run build-gpu/bench/bench_tests)
# fuzz_cuda (16 MiB) does not fit beside them in the device tool's 64 MiB: the fuzz_cuda step is a
# call of its own, carrying build-fuzz-gpu/fuzz/fuzz_cuda.

case "${1:-}" in
  build)
    set -e
    [[ -x /usr/local/cuda/bin/nvcc ]] && export PATH="/usr/local/cuda/bin:$PATH"
    [[ -f build-gpu/build.ninja ]] || cmake --preset gpu
    cmake --build build-gpu -j "$(nproc)" --target kverify cuda_tests pipeline_tests emu_tests properties_tests mutants_tests fuzz_run \
      bench_tests
    # The op fuzz targets with libFuzzer on the GPU: clang (ASan+UBSan, coverage of the host side) + nvcc kernels.
    [[ -f build-fuzz-gpu/build.ninja ]] || cmake --preset fuzz-gpu
    cmake --build build-fuzz-gpu -j "$(nproc)" --target fuzz_cuda
    strip build-fuzz-gpu/fuzz/fuzz_cuda  # carried to the GPU machine: 8 MB instead of 16
    du -sh build-gpu/fuzz/fuzz_run build-fuzz-gpu/fuzz/fuzz_cuda
    # Everything the run needs, at the same relative paths, in one folder: the device tool's `carry`
    # takes at most 8 paths and 64 MiB, so the run is carried as `gpu-stage`.
    rm -rf gpu-stage
    for f in "${kStaged[@]}"; do install -D "$f" "gpu-stage/$f" && strip "gpu-stage/$f"; done
    du -sh gpu-stage
    echo "carry: gpu-stage   (then on the GPU machine: gpu/run.sh run)"
    ;;
  list)
    grep -oE '^ *step [a-z0-9_"$]+' "${BASH_SOURCE[0]}" | awk '{print $2}' | tr -d '"' |
      sed 's/^sanitize_\$tool$/sanitize_memcheck sanitize_racecheck sanitize_initcheck sanitize_synccheck/'
    ;;
  run)
    shift
    # A carried stage puts the binaries where the steps expect them.
    [[ -d gpu-stage ]] && cp -a gpu-stage/. .
    out="${OUT:-$root/gpu-out}"
    mkdir -p "$out"
    export KVERIFY_REQUIRE_GPU=1
    summary="$out/summary.txt"
    : >"$summary"
    # `run --parallel STEP...`: the named steps run at the same time (they share the GPU: never
    # with bench, whose timings need the device alone); their summaries appear as each one ends.
    parallel=0
    if [[ "${1:-}" == --parallel ]]; then parallel=1; shift; fi
    selected=("$@")
    run_step() {
      local name="$1"; shift
      local started=$SECONDS
      "$@" >"$out/$name.log" 2>&1
      local rc=$?
      { echo "=== $name: $*"; tail -n 4 "$out/$name.log" | sed 's/^/    /'
        echo "    -> exit $rc ($((SECONDS - started)) s)"; } | tee -a "$summary"
    }
    step() {  # step NAME COMMAND...: run (when selected), log to $out/NAME.log, record the exit code
      local name="$1"
      if [[ ${#selected[@]} -gt 0 && " ${selected[*]} " != *" $name "* ]]; then
        echo "=== $name: not selected, not run" >>"$summary"
        return
      fi
      if [[ $parallel -eq 1 ]]; then run_step "$@" & else run_step "$@"; fi
    }
    {
      date -u +"date: %Y-%m-%dT%H:%M:%SZ"
      # The device tool copies the work tree without .git: the caller passes the commit.
      echo "commit: ${KVERIFY_COMMIT:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}"
      nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv,noheader
    } | tee -a "$summary"
    k="${KVERIFY_BIN:-build-gpu/tools/kverify}"  # KVERIFY_BIN: another static build (tools/gpu-examples.sh's)
    suites() {
      build-gpu/runtime/cuda/cuda_tests && build-gpu/pipeline/pipeline_tests && build-gpu/runtime/emu/emu_tests &&
        build-gpu/bench/bench_tests
    }
    step suites suites
    # The property catalogue on emu and cuda (CI's fixed seed and 20 cases per property), then the
    # mutation self-test on both backends.
    properties() {
      RC_PARAMS="seed=2026 max_success=20" build-gpu/properties/properties_tests && build-gpu/mutation/mutants_tests
    }
    step properties properties
    runs() {
      "$k" run 'op=softmax dtype=f32 shape=3x1000 backend=cuda' &&
        "$k" run 'op=softmax dtype=bf16 shape=33x65 x.strides=1,33 y.strides=70,1 backend=cuda'
    }
    step cli_runs runs
    step check_all "$k" check --backend all --budget 30 --json "$out/check.json"
    user_op() {  # an op of a user's project (examples/your_op, built in with KVERIFY_VARIANT_DIRS=$PWD/examples/your_op)
      "$k" list | grep -q '^embed_rmsnorm ' || { echo "embed_rmsnorm is not in this build: not run"; return 3; }
      local ok=0
      "$k" check --backend cuda --op embed_rmsnorm --budget 20 --json "$out/check-embed_rmsnorm.json" | tail -3 || ok=1
      "$k" mutants --backend cuda --no-gpu-tools --fuzz-time 0 --out "$out/mutants-embed_rmsnorm" \
        --only embed_rmsnorm/mutant_embed_rmsnorm_padded_mean | grep -E "mutant_embed_rmsnorm|Catalogue" || ok=1
      compute-sanitizer --tool memcheck --error-exitcode 99 "$k" run 'op=embed_rmsnorm dtype=bf16 dims=T:7,V:33,C:4097 backend=cuda' |
        grep -E "^(PASS|FAIL)|ERROR SUMMARY" || ok=1
      "$k" bench --op embed_rmsnorm --json "$out/bench-embed_rmsnorm.json" --md "$out/bench-embed_rmsnorm.md" || ok=1
      return $ok
    }
    step user_op user_op
    # One op alone, all of it (KVERIFY_OP, default rmsnorm, the newest): its catalogue and boundary
    # Cases, its mutants, its cuda properties, compute-sanitizer on each production variant, and
    # the bench of every variant (reports/h100/NOTES.md, "rmsnorm").
    one_op() {
      local op="${KVERIFY_OP:-rmsnorm}" ok=0 mutants=() v tool
      for v in $("$k" list | awk -v op="$op" '$1 == op && $2 ~ /^mutant_/ {print $2}'); do mutants+=(--only "$op/$v"); done
      "$k" check --backend cuda --op "$op" --budget 20 --json "$out/check-$op.json" | tail -2 || ok=1
      "$k" mutants --backend cuda --fuzz-time 0 --out "$out/mutants-$op" "${mutants[@]}" | grep -E "killed|SURVIV" || ok=1
      RC_PARAMS="seed=2026 max_success=10" build-gpu/properties/properties_tests --gtest_filter="cuda_$op.*" | tail -2 || ok=1
      # KVERIFY_OP_CASES: the Cases (without op=) each variant runs under each tool; rmsnorm's default
      # takes the vector path, the element-by-element one (padded rows) and a narrow row.
      local cases="${KVERIFY_OP_CASES:-dtype=bf16 shape=7x5000;dtype=f32 shape=3x4097 x.strides=4100,1;dtype=f16 shape=9x1000}"
      for v in $("$k" list | awk -v op="$op" '$1 == op && $2 !~ /^mutant_/ && / cuda / {print $2}'); do
        while IFS= read -r c; do
          for tool in memcheck racecheck synccheck initcheck; do
            compute-sanitizer --tool "$tool" --error-exitcode 99 "$k" run "op=$op variant=$v $c backend=cuda" \
              >"$out/sanitize.log" 2>&1 || ok=1
            echo "$tool $v [$c]: $(grep -E '^(PASS|FAIL|SKIPPED)' "$out/sanitize.log" | head -1 | cut -c1-50) $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/sanitize.log" | tail -1)"
          done
        done < <(tr ';' '\n' <<<"$cases")
      done
      "$k" bench --op "$op" --variant all --json "$out/bench-$op.json" --md "$out/bench-$op.md" | tail -3 || ok=1
      return $ok
    }
    step one_op one_op
    # The accuracy-note tier and the fast-math policies against the device's own tanhf, __expf,
    # __fdividef and flush-to-zero (built with KVERIFY_VARIANT_DIRS naming examples/your_terms).
    tiers() {
      "$k" list | grep -q '^gelu_tanh  *fast_math_gelu ' || { echo "examples/your_terms is not in this build: not run"; return 3; }
      local ok=0 v rc
      for v in fast_math_gelu fast_math_row_sum fast_math_matmul_relu fast_math_softmax; do
        "$k" check --backend cuda --variant "$v" --budget 30 --json "$out/check-$v.json" >"$out/check-$v.txt" 2>&1 || ok=1
        tail -1 "$out/check-$v.txt"
      done
      # PyTorch's formula: a PASS (accuracy note) with CUDA's tanhf (exit 0), a FAIL under --strict (exit 1).
      "$k" check --backend cuda --variant mutant_tanhf_cancels --budget 30 --json "$out/check-tanhf_cancels.json" \
        >"$out/check-tanhf_cancels.txt" 2>&1 || ok=1
      grep -E "of the passes with an accuracy note" "$out/check-tanhf_cancels.txt" || ok=1
      rc=0
      "$k" check --backend cuda --variant mutant_tanhf_cancels --budget 30 --strict --json "$out/check-strict.json" \
        >"$out/check-strict.txt" 2>&1 || rc=$?
      tail -1 "$out/check-strict.txt"
      [[ $rc -eq 1 ]] || ok=1
      # Every production variant of the four ops on the device: no accuracy note, no failure (the
      # examples registered beside them, some failing by design, are left out of the count).
      "$k" check --backend cuda --budget 30 --json "$out/check-cuda.json" >"$out/check-cuda.txt" 2>&1
      python3 - "$out/check-cuda.json" "$root/examples/your_terms/CMakeLists.txt" <<'PY' || ok=1
import json, re, sys
examples = set(re.findall(r"kverify_add_kernel\(NAME (\w+)", open(sys.argv[2]).read()))
j = json.load(open(sys.argv[1]))
ours = lambda v: v.split("/")[-1] not in examples
rows = [r for r in j["boundary_cases"] if ours(r["variant"])]
props = [r for r in j["properties"] if ours(r["variant"])]
fails = [f for f in j["failures"] if not any(e in f["message"] or e in f["replay"] for e in examples)]
noted = sum(r["noted"] for r in rows) + sum(r["noted"] for r in props)
print("production variants on cuda: %d boundary Cases, %d property Cases, %d noted, %d failures" %
      (sum(r["cases"] for r in rows), sum(r["cases"] for r in props), noted, len(fails)))
sys.exit(1 if noted or fails else 0)
PY
      return $ok
    }
    step tiers tiers
    far_layouts() {  # rows 2^31 elements apart on tiny tensors (the virtual memory API): production
      local ok=0     # variants pass, the 32-bit offset mutant fails; then the catalogue on cuda, which draws them
      for v in warp_per_row block_per_row rows_vec split_row split_vec; do
        "$k" run "op=row_sum variant=$v shape=3x5 x.strides=2147483659,1 backend=cuda" | head -1
        [[ ${PIPESTATUS[0]} -eq 0 ]] || ok=1
      done
      "$k" run 'op=softmax shape=2x300 x.strides=2147483700,1 y.strides=2147483650,1 backend=cuda' | head -1 || ok=1
      "$k" run 'op=gelu_tanh dtype=bf16 shape=4x33 x.strides=1,2147483651 backend=cuda' | head -1 || ok=1
      "$k" run 'op=matmul_relu shape=5x7x3 a.strides=2147483651,1 backend=cuda' | head -1 || ok=1
      "$k" run 'op=row_sum variant=mutant_int32_offsets shape=3x5 x.strides=2147483659,1 backend=cuda'
      [[ $? -eq 1 ]] || { echo "the 32-bit offset mutant was not caught"; ok=1; }
      "$k" check --backend cuda --budget 5 --json /tmp/check-far.json | tail -2 || ok=1
      return $ok
    }
    step far_layouts far_layouts
    sanitizers() {  # compute-sanitizer over CLI runs that use shared memory, barriers and shuffles
      local ok=0
      for c in 'op=softmax dtype=f16 shape=5x4097 backend=cuda' 'op=softmax variant=block_on_chip shape=4x3000 backend=cuda' \
               'op=row_sum variant=split_row shape=3x70000 backend=cuda' 'op=matmul_relu shape=70x65x33 backend=cuda' \
               'op=gelu_tanh dtype=bf16 shape=9x1001 backend=cuda'; do
        for tool in memcheck racecheck synccheck initcheck; do
          echo "--- $tool: $c"
          compute-sanitizer --tool "$tool" --error-exitcode 99 "$k" run "$c" | grep -E "^(PASS|FAIL)|ERROR SUMMARY|Error" || ok=1
          [[ ${PIPESTATUS[0]} -eq 0 ]] || ok=1
        done
      done
      compute-sanitizer --tool memcheck --error-exitcode 99 build-gpu/runtime/cuda/cuda_tests --gtest_filter=-*BadLaunch* | tail -3 || ok=1
      return $ok
    }
    step sanitizers sanitizers
    fuzz_cuda() {  # the op fuzz targets on backend=cuda, 30 s each: libFuzzer (fuzz_cuda, coverage of the
      local ok=0   # host side) from each corpus; findings in $out/fuzz-findings (replay: fuzz_run --replay)
      mkdir -p "$out/fuzz-findings" /tmp/kverify-fuzz-work
      for t in "${ops[@]}"; do
        echo "--- $t"
        KVERIFY_FUZZ_TARGET="$t" build-fuzz-gpu/fuzz/fuzz_cuda --write-dict "/tmp/kverify-fuzz-work/$t.dict"
        mkdir -p "/tmp/kverify-fuzz-work/$t"
        KVERIFY_FUZZ_TARGET="$t" KVERIFY_FUZZ_BACKEND=cuda ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=0 \
          build-fuzz-gpu/fuzz/fuzz_cuda -max_total_time=30 -print_final_stats=1 -max_len=64 -len_control=0 \
          -timeout=60 -dict="/tmp/kverify-fuzz-work/$t.dict" -artifact_prefix="$out/fuzz-findings/$t-" \
          "/tmp/kverify-fuzz-work/$t" "corpus/$t" 2>&1 | grep -E "INITED|DONE|stat::|==kverify-fuzz==|ERROR|NOT RUN|case line" || ok=1
        [[ ${PIPESTATUS[0]} -eq 0 ]] || ok=1
      done
      return $ok
    }
    step fuzz_cuda fuzz_cuda
    fuzz_run_cuda() {  # the same targets without libFuzzer (no ASan): corpus, then 15 s of mutations each
      local ok=0
      for t in "${ops[@]}"; do
        build-gpu/fuzz/fuzz_run "$t" --backend cuda --time 15 --artifacts "$out/fuzz-findings" "corpus/$t" || ok=1
      done
      return $ok
    }
    step fuzz_run_cuda fuzz_run_cuda
    # Each mutant in a process of its own, the GPU-side tools on what the catalogue leaves.
    step mutants "$k" mutants --backend cuda --fuzz-time "${KVERIFY_MUTANTS_FUZZ_TIME:-10}" --out "$out"
    bench_quick() {  # the timing path and every baseline on small shapes, then the gate refusing a mutant
      "$k" bench --quick --seed 1 --json "$out/bench-quick.json" --md "$out/bench-quick.md" || return 1
      "$k" bench --variant mutant_drop_tail --shape 268435x1000 --dtype f32 --gate-extra 0 \
        --json /tmp/bench-mutant.json --md /tmp/bench-mutant.md
      local rc=$?
      echo "bench of mutant_drop_tail: exit $rc (the gate must refuse it: 1)"
      [[ $rc -eq 1 ]]
    }
    step bench_quick bench_quick
    # The cheat catalogue (bench/tests/cheats, built in with KVERIFY_VARIANT_DIRS): correct on every
    # call the gate makes, each must have its timing refused (`kverify mutants --bench`: exit 0).
    bench_cheats() {
      "$k" list | grep -q '\[cheat\]$' || { echo "no cheats in this build (KVERIFY_VARIANT_DIRS): not run"; return 3; }
      "$k" mutants --bench --out "$out/cheats"
    }
    step bench_cheats bench_cheats
    # The gate's own speed on the device: one 1 GiB Case with its two extra Cases (the bench's timing
    # lines give the seconds per Case), then a planted fault the device gate must refuse.
    gate_speed() {
      local started=$SECONDS
      "$k" bench --op softmax --dtype bf16 --shape 4096x65536 --seed 1 --json /tmp/gate-speed.json --md /tmp/gate-speed.md ||
        return 1
      echo "bench --op softmax --dtype bf16 --shape 4096x65536: $((SECONDS - started)) s in all"
      "$k" bench --variant mutant_skip_last_column --shape 4096x65536 --dtype f32 --gate-extra 0 --seed 1 \
        --json /tmp/gate-mutant.json --md /tmp/gate-mutant.md
      local rc=$?
      echo "bench of mutant_skip_last_column: exit $rc (the device gate must refuse it: 1)"
      [[ $rc -eq 1 ]]
    }
    step gate_speed gate_speed
    # The full bench at every op's bench shapes: reports/h200/bench.{json,md}.
    # KVERIFY_BENCH_ARGS adds options (e.g. --gate-extra 0 when device time is short).
    bench_full() {
      "$k" bench --seed 1 ${KVERIFY_BENCH_ARGS:-}
      local rc=$?
      cp reports/h200/bench.json reports/h200/bench.md "$out/"
      return $rc
    }
    step bench bench_full
    # The performance work's variants (reports/h200/perf.md): their cuda tests, the GPU-only ones under
    # compute-sanitizer, and nvcc's resource report of every kernel as evidence.
    new_variants() {
      local rc=0
      build-gpu/pipeline/pipeline_tests --gtest_filter='SoftmaxRegister*:RowSumVector*:VectorVariants*:MatmulRelu.*' || rc=1
      for tool in racecheck synccheck memcheck; do
        "$k" check --backend cuda --op softmax --variant cluster_bulk --sanitize "$tool" --budget 5 \
          --json "/tmp/check-cluster-$tool.json" || rc=1
      done
      compute-sanitizer --tool memcheck --error-exitcode 99 "$k" run 'op=matmul_relu variant=mma_sync dtype=bf16 shape=300x600x130 backend=cuda' || rc=1
      compute-sanitizer --tool racecheck --error-exitcode 99 "$k" run 'op=matmul_relu variant=mma_sync dtype=f16 shape=100x70x40 a.offset=1 backend=cuda' || rc=1
      cuobjdump --dump-resource-usage "$k" | grep -E -A1 'Function .*(softmax|gelu|row_sum|matmul)' >"$out/resources.txt" || true
      return $rc
    }
    step new_variants new_variants
    # A matmul_relu variant (wgmma: sm_90a; simt: f32): the op's tests on the GPU (every kernel
    # instantiation), the op's catalogue, the catalogue on the variant under compute-sanitizer, and
    # the variant's mutation neighbourhood (mutant_<variant>_*) when it has one.
    matmul_variant() {
      local variant="$1" rc=0 only=()
      build-gpu/pipeline/pipeline_tests --gtest_filter='MatmulRelu.*:WgmmaPlan.*:SimtPlan.*' || rc=1
      "$k" check --backend cuda --op matmul_relu --budget 10 --json "/tmp/check-matmul-$variant.json" \
        >"/tmp/check-matmul-$variant.log" || rc=1
      tail -14 "/tmp/check-matmul-$variant.log"
      for tool in memcheck racecheck synccheck; do
        "$k" check --backend cuda --op matmul_relu --variant "$variant" --sanitize "$tool" --budget 2 \
          --json "/tmp/check-$variant-$tool.json" >"/tmp/check-$variant-$tool.log" || rc=1
        echo "--- compute-sanitizer $tool:"; tail -4 "/tmp/check-$variant-$tool.log"
      done
      for m in $("$k" list | awk -v prefix="^mutant_${variant}_" '$2 ~ prefix {print $1 "/" $2}'); do only+=(--only "$m"); done
      if [[ ${#only[@]} -gt 0 ]]; then
        "$k" mutants --backend cuda "${only[@]}" --fuzz-time 0 --out "$out/mutants-$variant" >"/tmp/mutants-$variant.log" || rc=1
        tail -4 "/tmp/mutants-$variant.log"
      fi
      return $rc
    }
    step wgmma matmul_variant wgmma
    step simt matmul_variant simt
    # GPU-side verification (docs/gpu.md). The catalogue under each
    # compute-sanitizer tool (f32, 2 cases per property), then each tool on the mutant with its bug.
    for tool in memcheck racecheck initcheck synccheck; do
      step "sanitize_$tool" timeout 480 "$k" check --backend cuda --sanitize "$tool" --dtype f32 --budget 2 \
        --json "/tmp/sanitize-$tool.json"
    done
    planted() {  # planted TOOL VARIANT PROPERTY: the tool must fire (check exits 1 with its Verdict)
      "$k" check --backend cuda --sanitize "$1" --variant "$2" --dtype f32 --properties-only --property "$3" \
        --budget 2 --json "/tmp/planted-$1.json"
      local rc=$?
      echo "compute-sanitizer $1 on $2: check exit $rc (it must fire: 1)"
      [[ $rc -eq 1 ]]
    }
    sanitize_planted() {
      local ok=0
      planted memcheck mutant_gpuv_far_oob_write gelu_tanh.reference_agreement || ok=1
      planted racecheck mutant_missing_barrier softmax.tail_widths || ok=1
      planted initcheck mutant_gpuv_uninit_scratch row_sum.reference_agreement || ok=1
      planted synccheck mutant_gpuv_divergent_barrier row_sum.reference_agreement || ok=1
      return $ok
    }
    step sanitize_planted sanitize_planted
    step fault_isolation check/tests/fault_isolation.sh "$k" cuda
    step huge timeout 480 "$k" huge --backend cuda
    step huge_int32 timeout 300 "$k" huge --backend cuda --variant mutant_gpuv_int32_index
    agree() { timeout 480 "$k" agree --budget 10 --out "$out"; }
    step agree agree
    # The tolerance report on the GPU: reports/h200/{report.json,md,html,plots/}.
    # KVERIFY_REPORT_ARGS narrows it (e.g. --op matmul_relu when device time is short).
    step report timeout 480 "$k" report --backend cuda ${KVERIFY_REPORT_ARGS:-} --out "$out/report-h200"
    # Nsight Compute on one launch of each kernel the bench found short of its goal (reports/h200/perf.md):
    # the evidence of what limits it. KVERIFY_PROFILE_CASES replaces the list (one
    # "op variant dtype shape kernel-name-regex" per line). Row counts are a quarter of the bench
    # shapes (the same per-row work, still many waves) so the gate before the launch is short.
    profile() {
      local ok=0 cases="${KVERIFY_PROFILE_CASES:-
softmax rows_vec bf16 65536x1024 softmax_rows_vec
softmax cluster_bulk bf16 4096x16384 softmax_cluster_bulk
softmax cluster_bulk f32 256x262144 softmax_cluster_bulk
softmax cluster_bulk bf16 1024x65536 softmax_cluster_bulk
gelu_tanh vec_ilp f32 4096x16384 gelu_tanh_vec_ilp
gelu_tanh vec_ilp bf16 4096x16384 gelu_tanh_vec_ilp
row_sum split_vec bf16 1x67108864 row_sum_split_vec
row_sum rows_vec bf16 2097152x32 row_sum_rows_vec
matmul_relu wgmma bf16 4096x4096x4096 matmul_relu_wgmma
matmul_relu wgmma bf16 8192x8192x8192 matmul_relu_wgmma
matmul_relu wgmma bf16 1000x1000x1000 matmul_relu_wgmma
matmul_relu wgmma bf16 64x8192x8192 matmul_relu_wgmma
matmul_relu simt f32 4096x4096x4096 matmul_relu_simt
matmul_relu simt f32 64x8192x8192 matmul_relu_simt}"
      while read -r op variant dtype shape kernel; do
        [[ -n "$op" ]] || continue
        echo "--- ncu: $op $variant $dtype $shape (kernel $kernel)"
        ncu --clock-control none -k "regex:$kernel" --launch-count 1 --section SpeedOfLight \
          --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis --section LaunchStats \
          --section Occupancy --section WarpStateStats --section SchedulerStats --section InstructionStats \
          "$k" bench --op "$op" --variant "$variant" --dtype "$dtype" --shape "$shape" --reps 1 --warmup 0 \
          --gate-extra 0 --seed 1 --json /tmp/profile.json --md /tmp/profile.md 2>&1 | grep -vE '^\s*$' || ok=1
      done <<<"$cases"
      return $ok
    }
    step profile profile
    wait  # the parallel steps
    "${BASH_SOURCE[0]}" pack
    ;;
  pack)
    # At most a few files come back from the device tool: everything but the summary travels as one
    # archive (logs, reports, findings). Also the way to save a run that was cut short:
    #   timeout 550 gpu/run.sh run ...; gpu/run.sh pack
    out="${OUT:-$root/gpu-out}"
    rmdir "$out/fuzz-findings" 2>/dev/null || true
    [[ -f "$out/results.tgz" ]] && exit 0
    (cd "$out" && tar czf /tmp/kverify-results.tgz --exclude=./summary.txt . &&
       find . -mindepth 1 -maxdepth 1 ! -name summary.txt -exec rm -rf {} + && mv /tmp/kverify-results.tgz results.tgz)
    ;;
  *)
    echo "usage: gpu/run.sh build | list | run [--parallel] [STEP...] | pack   (see the top of this file)" >&2
    exit 2
    ;;
esac
