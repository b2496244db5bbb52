#!/usr/bin/env bash
# The README's Case field table must be exactly what the field table in core/case.cpp prints.
set -euo pipefail
k="$1"; readme="$2"
diff <(sed -n '/<!-- case-fields:begin -->/,/<!-- case-fields:end -->/p' "$readme" | sed '1d;$d') \
     <("$k" help case --markdown) && echo "README case fields match core/case.cpp"
