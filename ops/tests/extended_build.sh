#!/usr/bin/env bash
# kverify as users extend it, built once for every test that checks a way in (the ways in share one
# project):
#   - kverify as a Debian package: the build tree under test packaged by CPack
#     (kverify_<version>_amd64.deb, its Depends the `project` packages of tools/debian-packages.txt)
#     and installed into a fresh root by extracting it (dpkg-deb -x: what `apt install` unpacks, no
#     root, no container; the Depends are checked to be Debian packages installed here). Nothing
#     installed names this checkout or this build tree;
#   - a user's own project outside the checkout, as the README's "Check your own kernel" starts it:
#     `kverify new softmax my_kernel` of the installed kverify, configured with find_package(kverify)
#     against that root only (CMAKE_PREFIX_PATH): the project links the installed libraries and
#     compiles only what it registers (cmake/KverifyPackage.cmake), and neither its configure nor
#     its build names a kverify source or build file;
#   - ops of the user's own in that project, declared with kverify_add_op and no edit to kverify:
#     examples/your_op (embed_rmsnorm: five tensors, an i32 index input, two outputs, a parameter;
#     its kernel and a planted-bug copy) and `kverify new op my_scaled` (the op scaffold), each
#     added with add_subdirectory;
#   - variants from outside folders: the project is configured with KVERIFY_VARIANT_DIRS naming the
#     checkout's examples/cuda_styles, examples/your_terms, examples/my_softmax and bench/tests/cheats.
# The project builds its kverify CLI and fuzz_run (emu: its kernels are not compiled with nvcc).
# ops/tests/your_op.sh, examples/tests/cuda_styles.sh, examples/tests/example_builds.sh and
# bench/tests/cheats_emu.sh then run WORK_DIR/cli.
#   extended_build.sh SOURCE_DIR BUILD_DIR (the package) WORK_DIR KVERIFY_CLI (BUILD_DIR's)
set -u
src="$1" package="$2" work="$3" kv="$4"
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work"
mkdir -p "$work"
work="$(cd "$work" && pwd)"
[[ -f $package/CPackConfig.cmake ]] || fail "$package has no CPackConfig.cmake (a configured kverify build tree writes it)"

# Release at the main build's -O2 (CMake's -O3 compiles a fifth slower); example_builds.sh reads
# the same options from $work/cmake-options.
opts=(-G Ninja -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG" -DKVERIFY_ENABLE_CUDA=OFF)
printf '%s\n' "${opts[@]}" >"$work/cmake-options"

version="$("$kv" --version | sed -En '1s/^kverify ([0-9.]+)$/\1/p')"
[[ -n $version ]] || fail "kverify --version printed no version: $("$kv" --version)"
start=$SECONDS
cpack --config "$package/CPackConfig.cmake" -B "$work/package" >"$work/cpack.log" 2>&1 ||
  { tail -20 "$work/cpack.log"; fail "cpack of $package (the whole log: $work/cpack.log)"; }
deb="$work/package/kverify_${version}_$(dpkg --print-architecture).deb"
[[ -s $deb ]] || fail "cpack wrote no $deb: $(ls "$work/package")"
depends="$(dpkg-deb -f "$deb" Depends)"
want="$("$src/kverify" packages --depends)"
[[ $depends == "$want" ]] || fail "the package's Depends are '$depends', expected those marked project in tools/debian-packages.txt: '$want'"
for p in ${depends//,/ }; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    fail "Depends names $p, which dpkg-query does not list as installed here"
done
root="$work/root"
dpkg-deb -x "$deb" "$root" || fail "dpkg-deb -x $deb"
named="$(grep -rlIF -e "$src/" -e "$package/" "$root" || true)"
[[ -z $named ]] || fail "installed files name this checkout or build tree, e.g. $(head -1 <<<"$named"): $(grep -m1 -IF -e "$src/" -e "$package/" "$(head -1 <<<"$named")")"
installed="$root/usr/bin/kverify"
"$installed" --version | grep -qx "kverify $version" || fail "the installed kverify --version: $("$installed" --version)"
echo "$(basename "$deb") ($(du -h "$deb" | cut -f1), Depends: $depends) built and extracted into $root in $((SECONDS - start)) s"

project="$work/my_kernel"
"$installed" new softmax my_kernel --dir "$project" >"$work/new.log" 2>&1 || { cat "$work/new.log"; fail "kverify new softmax my_kernel"; }
"$installed" new op my_scaled --dir "$project/my_scaled" >>"$work/new.log" 2>&1 || { cat "$work/new.log"; fail "kverify new op my_scaled"; }
for f in CMakeLists.txt my_kernel.cu README.md my_scaled/CMakeLists.txt my_scaled/my_scaled_op.cpp my_scaled/my_scaled.cu; do
  [[ -s $project/$f ]] || fail "kverify new wrote no $f"
done
cp -r "$src/examples/your_op" "$project/your_op"
printf '\n# Ops of this project (kverify_add_op), each with its kernels.\nadd_subdirectory(your_op)\nadd_subdirectory(my_scaled)\n' \
  >>"$project/CMakeLists.txt"
variant_dirs="$src/examples/cuda_styles;$src/examples/your_terms;$src/examples/my_softmax;$src/bench/tests/cheats"
echo "my_kernel (kverify new) with the ops embed_rmsnorm (examples/your_op) and my_scaled (kverify new op), configured with CMAKE_PREFIX_PATH=$root/usr KVERIFY_VARIANT_DIRS=$variant_dirs"
start=$SECONDS
cmake -S "$project" -B "$project/build" "${opts[@]}" -DCMAKE_PREFIX_PATH="$root/usr" -DKVERIFY_VARIANT_DIRS="$variant_dirs" \
  >>"$work/configure.log" 2>&1 || { tail -20 "$work/configure.log"; fail "configure my_kernel with find_package(kverify)"; }
grep -q "^kverify_DIR:PATH=$root/usr/lib/cmake/kverify$" "$project/build/CMakeCache.txt" ||
  fail "find_package(kverify) did not find the installed package: $(grep '^kverify_DIR' "$project/build/CMakeCache.txt")"
cmake --build "$project/build" -j "$(nproc)" --target kverify fuzz_run >"$work/build.log" 2>&1 ||
  { grep -m5 -A3 error "$work/build.log"; fail "build (the whole log: $work/build.log)"; }
echo "configured and built against the installed package in $((SECONDS - start)) s"
# Against the package only: the project's build names no file of kverify's checkout (but the
# variant folders of the user's, which lie in it here) and none of its build tree (but this test's
# own folder, which lies in it).
reached="$(cat "$project/build/build.ninja" "$project/build/CMakeCache.txt" | grep -oE "($src|$package)/[^ ;\"]*" |
  grep -vE "^$src/(examples|bench/tests/cheats)(/|$)" | grep -vF "$work/" | sort -u || true)"
[[ -z $reached ]] || fail "the project's build reaches kverify's own files: $(head -3 <<<"$reached" | tr '\n' ' ')"
# Only the project's own: no library of kverify's is compiled again.
compiled="$(grep -E '^\[[0-9]+/[0-9]+\] Building' "$work/build.log" || true)"
kverifys="$(grep -vE 'kverify_project|tools/main\.cpp|fuzz/standalone_main\.cpp' <<<"$compiled" || true)"
[[ -z $kverifys ]] ||
  fail "the project compiled kverify's own sources again, e.g. $(head -1 <<<"$kverifys"); it should link the package's libraries"
echo "the project compiled $(grep -c . <<<"$compiled") files of its own and linked the package's libraries"
ln -sfn "$project/build/kverify" "$work/cli"
echo "PASS: kverify with my_kernel, the ops embed_rmsnorm and my_scaled of the project, and the variants of examples/cuda_styles, examples/your_terms, examples/my_softmax and bench/tests/cheats built: $work/cli"
