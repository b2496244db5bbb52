#!/usr/bin/env bash
# A kernel's source cannot put a timer of its own in the bench's place (the "timer or event
# interposition" cheat): kverify carries the CUDA runtime inside itself (cudart static), so there
# is no libcudart.so for LD_PRELOAD to stand in for, the runtime's entry points are not in
# kverify's dynamic symbol table, and a source that defines one of those the timer calls cannot be
# linked beside the runtime (the one definition rule, enforced by the linker). What this cannot
# see: code that patches the process's memory at run time (docs/bench.md).
#   timer_interposition.sh CXX LIBCUDART_STATIC KVERIFY_CLI WORK_DIR
set -u
cxx="$1" cudart="$2" kv="$3" work="$4"
fail() { echo "FAIL: $*"; exit 1; }
timer_calls=(cudaEventRecord cudaEventSynchronize cudaEventElapsedTime cudaStreamSynchronize cudaDeviceSynchronize)
mkdir -p "$work"
[[ -x $kv ]] || fail "no kverify CLI at $kv"
needed="$(readelf -d "$kv")" || fail "readelf -d $kv"
grep -q 'NEEDED.*libcudart' <<<"$needed" && fail "$kv loads libcudart.so: a preloaded library could replace the timer"
exported="$(nm -D --defined-only "$kv")" || fail "nm -D $kv"
for f in "${timer_calls[@]}"; do
  grep -qE " $f\$" <<<"$exported" && fail "$kv exports $f: a shared library loaded first could stand in for it"
done
echo "as expected  $kv: the CUDA runtime linked in, none of ${timer_calls[*]} exported"

{
  echo '// What a cheating kernel source would add: its own timer entry points.'
  echo 'extern "C" int cudaGetDeviceCount(int*);'
  for f in "${timer_calls[@]}"; do echo "extern \"C\" int $f() { return 0; }"; done
  echo 'int main() { int n = 0; return cudaGetDeviceCount(&n); }'
} >"$work/interposer.cpp"
rc=0
"$cxx" "$work/interposer.cpp" "$cudart" -ldl -lpthread -lrt -o "$work/interposer" >"$work/link.txt" 2>&1 || rc=$?
[[ $rc -ne 0 ]] || fail "a source that defines ${timer_calls[*]} linked beside the CUDA runtime ($work/interposer)"
for f in "${timer_calls[@]}"; do
  grep -q "multiple definition of .$f'" "$work/link.txt" || { cat "$work/link.txt"; fail "the link did not refuse $f"; }
done
echo "as expected  a source defining ${timer_calls[*]}: the link refuses each (multiple definition)"
echo "PASS: no timer can be put in the bench's place"
