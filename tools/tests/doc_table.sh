#!/usr/bin/env bash
# A table in the docs must be exactly what its source table prints: the lines between
# <!-- MARKER:begin --> and <!-- MARKER:end --> of FILE equal `kverify help TOPIC --markdown`.
#   doc_table.sh <kverify> <file> <marker> <topic>
set -euo pipefail
k="$1"; file="$2"; marker="$3"; topic="$4"
diff <(sed -n "/<!-- $marker:begin -->/,/<!-- $marker:end -->/p" "$file" | sed '1d;$d') \
     <("$k" help "$topic" --markdown) && echo "$(basename "$file") $marker table matches kverify help $topic"
