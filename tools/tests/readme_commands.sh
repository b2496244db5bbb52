#!/usr/bin/env bash
# The README's command list must be exactly what the commands' option tables print.
set -euo pipefail
k="$1"; readme="$2"
diff <(sed -n '/<!-- commands:begin -->/,/<!-- commands:end -->/p' "$readme" | sed '1d;$d') \
     <("$k" help --markdown) && echo "README command list matches the option tables"
