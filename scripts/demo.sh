#!/usr/bin/env bash
# The main job on the bundled example, on dlfl's fast path: seed a fault into
# examples/tensorlite, write a probed copy with `dlfl instrument`, build it with dlfl's
# runtime, collect every test's coverage from ONE run of its tests (`dlfl collect
# --runtime`) and rank. Prints how long collection took next to a plain run of the tests.
#
# Usage: scripts/demo.sh [--gcov] [FAULT_ID]
#   FAULT_ID: an id from examples/tensorlite/faults/faults.json (default grid_ceil_div)
#   --gcov:   the per-test gcov flow instead (a --coverage build; one process and one gcov
#             run per test: minutes instead of seconds)
# DLFL_BUILD_DIR=DIR builds dlfl and the example under DIR instead of build/.
#
# The verdict lines (`faulty line ...`, `faulty function ...`) give the faulty element's
# position under the average tie rule with its tie's best..worst positions, for DStar²
# (the headline) and Ochiai. The 10-fault table of docs/results.md is these lines for every fault.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode=runtime
if [ "${1:-}" = "--gcov" ]; then
  mode=gcov
  shift
fi
fault=${1:-grid_ceil_div}
build=${DLFL_BUILD_DIR:-$root/build}
demo=$build/demo/$mode/$fault
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# Ninja's progress in ten lines (compiler messages in full): a first build of dlfl takes
# a while, and silence looks like a hang.
progress() {
  awk '/^\[[0-9]+\/[0-9]+\] / {
         split(substr($1, 2), step, "/"); done = step[1] + 0; total = step[2] + 0
         tenth = int(done * 10 / total)
         if (tenth > shown || done == total) { shown = tenth; printf "   %d of %d build steps\n", done, total; fflush() }
         next
       }
       /^ninja: no work to do/ { next }
       { print; fflush() }'
}

"$root/scripts/install-deps.sh"
# The same configuration as scripts/test.sh, so running one after the other rebuilds nothing.
echo "== building dlfl in $build"
cmake -S "$root" -B "$build" -G Ninja -DDLFL_WARNINGS_AS_ERRORS=ON >/dev/null
cmake --build "$build" -j2 --target dlfl_cli dlfl_rt dlfl_rt_gtest 2>&1 | progress
dlfl=$build/tools/dlfl/dlfl
mkdir -p "$demo"
start=$(now)

# The plain build: its compilation database is what `dlfl instrument` reads, its test
# binary the plain run collection is compared with. The fault switch is private to the
# library, so switching faults recompiles the library only, not the tests.
if [ "$mode" = runtime ]; then
  plain=$build/demo/tensorlite
  echo "== building examples/tensorlite with fault '$fault'"
  cmake -S "$root/examples/tensorlite" -B "$plain" -G Ninja -DTENSORLITE_FAULT="$fault" >/dev/null
  cmake --build "$plain" -j2 2>&1 | progress

  echo "== dlfl instrument (a probed copy of examples/tensorlite, its tests left as they are)"
  fresh=$build/demo/instrumented-new
  instr=$build/demo/instrumented
  rm -rf "$fresh"
  "$dlfl" instrument -q -j2 -p "$plain" --root "$root/examples/tensorlite" --out "$fresh" --exclude tests/ >/dev/null
  # Copy over the previous copy only what changed, so ninja rebuilds only that.
  (cd "$fresh" && find . -type f) | while read -r f; do
    cmp -s "$fresh/$f" "$instr/$f" 2>/dev/null || { mkdir -p "$(dirname "$instr/$f")"; cp "$fresh/$f" "$instr/$f"; }
  done
  rm -rf "$fresh"

  echo "== building the probed copy with the runtime"
  cmake -S "$instr" -B "$instr/build" -G Ninja -DTENSORLITE_FAULT="$fault" \
    -DCMAKE_CXX_FLAGS="$("$dlfl" config --cflags)" -DCMAKE_EXE_LINKER_FLAGS="$("$dlfl" config --libs --gtest)" >/dev/null
  cmake --build "$instr/build" -j2 2>&1 | progress
  echo "   instrumented and built in $(since "$start") s"

  echo "== dlfl collect --runtime"
  collect_start=$(now)
  "$dlfl" collect --runtime --gtest "$instr/build/tensorlite_tests" -o "$demo/spectrum.dlfl"
  collection=$(since "$collect_start")
  plain_start=$(now)
  (cd "$plain" && ./tensorlite_tests >/dev/null 2>&1) || true
  echo "   collection took $collection s; a plain run of the same tests (uninstrumented build) takes $(since "$plain_start") s"
else
  gcov=$build/demo/tensorlite-gcov
  echo "== building examples/tensorlite with fault '$fault' and gcc --coverage"
  cmake -S "$root/examples/tensorlite" -B "$gcov" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_CXX_FLAGS=--coverage -DTENSORLITE_FAULT="$fault" >/dev/null
  cmake --build "$gcov" -j2 2>&1 | progress

  echo "== dlfl collect (gcov, one process per test)"
  collect_start=$(now)
  "$dlfl" collect --gtest "$gcov/tensorlite_tests" --source-root "$root/examples/tensorlite" \
    --exclude '*/tests/*' -o "$demo/spectrum.dlfl" -j2
  collection=$(since "$collect_start")
  plain_start=$(now)
  (cd "$gcov" && ./tensorlite_tests >/dev/null 2>&1) || true
  echo "   collection took $collection s; a plain run of the same tests (the --coverage build) takes $(since "$plain_start") s"
fi

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
echo "== the whole demo took $(since "$start") s after dlfl was built"
