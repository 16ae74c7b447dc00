#!/usr/bin/env bash
# The main job on the bundled example: seed a fault into examples/tensorlite, build it
# with gcc --coverage, collect per-test coverage of its 432 GoogleTest tests, and rank.
# Usage: scripts/demo.sh [FAULT_ID]   (ids: examples/tensorlite/faults/faults.json;
# default slice_offset). Takes a few minutes on 2 cores (one process + gcov per test).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
fault=${1:-slice_offset}
build=$root/build
demo=$build/demo/$fault
"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$build" -G Ninja >/dev/null
cmake --build "$build" -j2 --target dlfl_cli >/dev/null
dlfl=$build/tools/dlfl/dlfl

echo "== building examples/tensorlite with fault '$fault' and gcc --coverage"
cmake -S "$root/examples/tensorlite" -B "$demo/tensorlite" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_FLAGS=--coverage -DTENSORLITE_FAULT="$fault" >/dev/null
cmake --build "$demo/tensorlite" -j2 >/dev/null

echo "== dlfl collect"
"$dlfl" collect --gtest "$demo/tensorlite/tensorlite_tests" --source-root "$root/examples/tensorlite" \
  --exclude '*/tests/*' -o "$demo/spectrum.dlfl" -j2

echo "== ground truth (examples/tensorlite/faults/faults.json) and where DStar² ranks it"
"$dlfl" rank "$demo/spectrum.dlfl" --formula dstar2 --format csv -o "$demo/ranking.csv"
python3 - "$root/examples/tensorlite/faults/faults.json" "$fault" "$demo/ranking.csv" <<'PY'
import csv, json, sys
fault = next(f for f in json.load(open(sys.argv[1])) if f["id"] == sys.argv[2])
print(f'{fault["file"]}:{",".join(map(str, fault["lines"]))} in {fault["function"]} ({fault["bug_type"]}): {fault["description"]}')
for row in csv.DictReader(open(sys.argv[3])):
    if row["file"] == fault["file"] and row["line"] and int(row["line"]) in fault["lines"]:
        print(f'line {row["line"]}: position {row["rank_best"]} (best) .. {row["rank_worst"]} (worst), average {row["rank"]}, score {row["score"]}')
PY

echo "== dlfl rank: lines (DStar², ties reported best..worst)"
"$dlfl" rank "$demo/spectrum.dlfl" --formula dstar2 --top 5
echo "== dlfl rank: functions (DStar², average tie rule)"
"$dlfl" rank "$demo/spectrum.dlfl" --formula dstar2 --granularity function --top 5
