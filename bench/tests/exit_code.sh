#!/bin/sh
# exit_code.sh WANT CMD...: runs CMD, prints its output, passes only when it exits with WANT.
want=$1; shift
"$@"; got=$?
if [ "$got" -ne "$want" ]; then echo "exit code $got, expected $want" >&2; exit 1; fi
echo "exit code $got as expected"
