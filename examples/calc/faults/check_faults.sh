#!/usr/bin/env bash
# Builds calc once per seeded fault in faults.json and reports how many tests fail and how
# many of those crash (run_one.sh dies of calc's signal). Exits non-zero when the correct
# build fails a test, or a fault fails no test or every test.
#   faults/check_faults.sh [BUILD_DIR]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$(mktemp -d /tmp/calc-faults.XXXXXX)}"
total=$(wc -l < "$here/tests/tests.txt")
status=0

# Prints "failing crashed" for the current build.
run_suite() {
  local failing=0 crashed=0 rc
  while read -r name; do
    rc=0
    "$here/tests/run_one.sh" "$build/calc" "$name" > /dev/null 2>&1 || rc=$?
    if [ "$rc" -ne 0 ]; then
      failing=$((failing + 1))
      [ "$rc" -gt 128 ] && crashed=$((crashed + 1))
    fi
  done < "$here/tests/tests.txt"
  echo "$failing $crashed"
}

for fault in "" $(sed -n 's/^ *"id": *"\([^"]*\)".*/\1/p' "$here/faults/faults.json"); do
  cmake -S "$here" -B "$build" -G Ninja -DCALC_FAULT="$fault" > /dev/null
  cmake --build "$build" > /dev/null
  read -r failing crashed < <(run_suite)
  printf '%-20s %3d of %d tests fail, %d crash\n' "${fault:-(correct)}" "$failing" "$total" "$crashed"
  if [ -z "$fault" ] && [ "$failing" -ne 0 ]; then status=1; fi
  if [ -n "$fault" ] && { [ "$failing" -eq 0 ] || [ "$failing" -eq "$total" ]; }; then status=1; fi
done
exit $status
