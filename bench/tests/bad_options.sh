#!/bin/sh
# Every bad bench option exits 2 with a one-line message that names the bad token.
k=$1; fail=0
check() {  # check PATTERN ARGS...: exit 2 and stderr matching PATTERN
  pattern=$1; shift
  err=$("$k" bench "$@" 2>&1 >/dev/null); got=$?
  if [ "$got" -ne 2 ] || ! printf '%s' "$err" | grep -q -- "$pattern"; then
    echo "FAIL: bench $* -> exit $got: $err"; fail=1
  else
    echo "ok: bench $* -> $err"
  fi
}
check "unknown option '--nosuch'" --nosuch
check "option --dtype 'f8': not a storage dtype" --dtype f8
check "option --shape '0x5'" --op softmax --shape 0x5
check "does not fit op softmax" --op softmax --shape 4x4x4
check "option --variant 'nosuch'" --variant nosuch
check "option --op 'conv': not an op" --op conv
check "option --reps '0': too small" --reps 0
check "needs a value" --reps
check "needs --op" --shape 4x4
# Outputs: never one file twice, never anything but a regular file replaced (checked before the gate).
dir=$(mktemp -d); mkfifo "$dir/pipe"
check "name the same file" --op row_sum --quick --json "$dir/same" --md "$dir/same"
check "is a FIFO (named pipe) (accepted: a regular file" --op row_sum --quick --json "$dir/pipe"
[ -p "$dir/pipe" ] || { echo "FAIL: bench --json $dir/pipe replaced the FIFO"; fail=1; }
rm -rf "$dir"
exit $fail
