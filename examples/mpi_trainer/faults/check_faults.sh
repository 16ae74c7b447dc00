#!/usr/bin/env bash
# Builds mpi_trainer once per seeded fault in faults.json and lists the tests that fail
# (CTest, each test under its own mpirun). Exits non-zero when the correct build fails a
# test, or a fault fails no test or every test.
#   faults/check_faults.sh [BUILD_DIR]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$(mktemp -d /tmp/mpi-trainer-faults.XXXXXX)}"
total=$(wc -l < "$here/tests/tests.txt")
status=0
for fault in "" $(sed -n 's/^ *"id": *"\([^"]*\)".*/\1/p' "$here/faults/faults.json"); do
  cmake -S "$here" -B "$build" -G Ninja -DMPI_TRAINER_FAULT="$fault" > /dev/null
  cmake --build "$build" > /dev/null
  failing=$( (ctest --test-dir "$build" -j2 --timeout 60 2>/dev/null || true) | sed -n 's/^[[:space:]]*[0-9]* - \([^ ]*\) (.*/\1/p' | sort)
  count=$(printf '%s' "$failing" | grep -c . || true)
  printf '%-24s %2d of %d tests fail: %s\n' "${fault:-(correct)}" "$count" "$total" "$(echo $failing)"
  if [ -z "$fault" ] && [ "$count" -ne 0 ]; then status=1; fi
  if [ -n "$fault" ] && { [ "$count" -eq 0 ] || [ "$count" -eq "$total" ]; }; then status=1; fi
done
exit $status
