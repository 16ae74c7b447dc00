#!/bin/sh
# Runs one calc test: tests/cases/NAME.calc through CALC, its output and exit status
# compared with tests/expected/NAME.out (the last line there is `[exit N]`).
#   tests/run_one.sh CALC NAME
# Exit 0 when they match, 1 (and a diff) when not. When calc dies of a signal (a crash),
# this script dies of the same signal, so a test runner sees the crash, not a mismatch.
here=$(dirname "$0")
calc=$1
name=$2
expected="$here/expected/$name.out"
[ -f "$here/cases/$name.calc" ] || { echo "run_one.sh: no test case '$name'" >&2; exit 2; }
actual=$("$calc" "$here/cases/$name.calc" 2>&1; echo "[exit $?]")
status=${actual##*\[exit }
status=${status%\]}
if [ "$status" -gt 128 ]; then
  printf '%s\n' "$actual" >&2
  trap - "$((status - 128))"
  kill -s "$(kill -l "$((status - 128))")" $$
fi
[ "$actual" = "$(cat "$expected")" ] && exit 0
printf '%s\n' "$actual" | diff -u "$expected" - >&2
exit 1
