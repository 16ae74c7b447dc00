#!/bin/sh
# Records the expected output of every test case with CALC, which must be a build of the
# correct code (no CALC_FAULT): tests/update_expected.sh build/calc. Review the diff.
set -eu
here=$(dirname "$0")
mkdir -p "$here/expected"
while read -r name; do
  { "$1" "$here/cases/$name.calc" 2>&1 && echo "[exit 0]" || echo "[exit $?]"; } > "$here/expected/$name.out"
done < "$here/tests.txt"
