#!/usr/bin/env bash
# The main job on the bundled example: seed a fault into examples/tensorlite, build it
# with gcc --coverage, collect per-test coverage of its GoogleTest tests, and rank.
# Usage: scripts/demo.sh [FAULT_ID]   (ids: examples/tensorlite/faults/faults.json;
# default grid_ceil_div). Takes a few minutes on 2 cores (one process + gcov per test).
# DLFL_BUILD_DIR=DIR builds dlfl and the example under DIR instead of build/.
#
# The verdict lines (`faulty line ...`, `faulty function ...`) give the faulty element's
# position under the average tie rule with its tie's best..worst positions, for DStar²
# (the headline) and Ochiai. The README's 10-fault table is these lines for every fault.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
fault=${1:-grid_ceil_div}
build=${DLFL_BUILD_DIR:-$root/build}
demo=$build/demo/$fault
"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$build" -G Ninja >/dev/null
cmake --build "$build" -j2 --target dlfl_cli >/dev/null
dlfl=$build/tools/dlfl/dlfl

# One tensorlite build for every fault: the fault switch is private to the library, so
# switching faults recompiles the library only, not the tests.
echo "== building examples/tensorlite with fault '$fault' and gcc --coverage"
cmake -S "$root/examples/tensorlite" -B "$build/demo/tensorlite" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_FLAGS=--coverage -DTENSORLITE_FAULT="$fault" >/dev/null
cmake --build "$build/demo/tensorlite" -j2 >/dev/null
mkdir -p "$demo"

echo "== dlfl collect"
"$dlfl" collect --gtest "$build/demo/tensorlite/tensorlite_tests" --source-root "$root/examples/tensorlite" \
  --exclude '*/tests/*' -o "$demo/spectrum.dlfl" -j2

echo "== ground truth (examples/tensorlite/faults/faults.json) and where it ranks"
for formula in dstar2 ochiai; do
  for granularity in line function; do
    "$dlfl" rank "$demo/spectrum.dlfl" --formula "$formula" --granularity "$granularity" --ties average \
      --format csv -o "$demo/$formula-$granularity.csv"
  done
done
python3 - "$root/examples/tensorlite/faults/faults.json" "$fault" "$demo" <<'PY'
import csv, json, sys
faults, fault_id, demo = sys.argv[1:]
fault = next(f for f in json.load(open(faults)) if f["id"] == fault_id)
print(f'{fault["file"]}:{",".join(map(str, fault["lines"]))} in {fault["function"]} ({fault["bug_type"]}): '
      f'{fault["description"]}')

def where(row):
    return f'position {row["rank"]} (ties: {row["rank_best"]}..{row["rank_worst"]}, average rule)'

for formula in ("dstar2", "ochiai"):
    lines = list(csv.DictReader(open(f"{demo}/{formula}-line.csv")))
    # A fault with several lines is found when its best-ranked line is.
    hits = [r for r in lines if r["file"] == fault["file"] and r["line"] and int(r["line"]) in fault["lines"]]
    if hits:
        best = min(hits, key=lambda r: float(r["rank"]))
        print(f'faulty line {fault["file"]}:{best["line"]} at {where(best)}, formula {formula}, '
              f'{len(lines)} lines ranked')
    else:
        print(f'faulty line {fault["file"]}:{fault["lines"]} was not executed by any test, formula {formula}')
    functions = list(csv.DictReader(open(f"{demo}/{formula}-function.csv")))
    # The function itself, not a lambda defined inside it (those names share its prefix).
    hits = [r for r in functions if r["file"] == fault["file"] and "lambda" not in r["function"]
            and r["function"].split("(")[0] == fault["function"]]
    if hits:
        print(f'faulty function {fault["function"]} at {where(hits[0])}, formula {formula}, '
              f'{len(functions)} functions ranked')
PY

# The reports engineers read: SARIF for code scanning, a self-contained HTML heatmap.
"$dlfl" rank "$demo/spectrum.dlfl" --formula dstar2 --formula ochiai --format sarif \
  --source-root "$root/examples/tensorlite" -o "$demo/dlfl.sarif"
"$dlfl" rank "$demo/spectrum.dlfl" --formula dstar2 --formula ochiai --format html \
  --source-root "$root/examples/tensorlite" -o "$demo/report.html"
echo "== reports: $demo/dlfl.sarif, $demo/report.html"

echo "== dlfl rank: lines (DStar², ties reported best..worst)"
"$dlfl" rank "$demo/spectrum.dlfl" --formula dstar2 --top 5
echo "== dlfl rank: functions (DStar², average tie rule)"
"$dlfl" rank "$demo/spectrum.dlfl" --formula dstar2 --granularity function --top 5
