#!/usr/bin/env bash
# Every tracked C++/CUDA file is as clang-format-14 writes it under .clang-format, and no line is wider
# than its column limit (clang-format leaves some long string literals and macros alone).
set -euo pipefail
cd "$1"
command -v clang-format-14 >/dev/null || { echo "clang-format-14 not found: install the Debian package clang-format-14" >&2; exit 1; }
mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.cu' '*.cuh' '*.inl' '*.h')
clang-format-14 --dry-run -Werror "${files[@]}"
limit=$(sed -n 's/^ColumnLimit: *//p' .clang-format)
wide=$(awk -v limit="$limit" 'length > limit {print FILENAME ":" FNR ": " length " columns"}' "${files[@]}")
if [[ -n "$wide" ]]; then echo "lines wider than $limit columns:"; echo "$wide"; exit 1; fi
echo "${#files[@]} files formatted, no line wider than $limit"
