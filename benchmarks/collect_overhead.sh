#!/usr/bin/env bash
# collect_overhead.sh: `dlfl collect` wall time on the tensorlite suite against a plain
# run of the same suite, for both coverage backends with -j1 and -j2, as ratios of
# timings taken back to back in one run (see benchmarks/README.md).
#
# Usage: benchmarks/collect_overhead.sh [--build DIR] [--work DIR] [--fault ID] [--filter F]
#   --build   dlfl build directory holding tools/dlfl/dlfl (default: build)
#   --work    where the three tensorlite builds are kept (default: $DLFL_BENCH_DIR/collect,
#             DLFL_BENCH_DIR defaulting to /tmp/dlfl-bench); rebuilt incrementally
#   --fault   seeded fault (faults/faults.json id; default slice_offset): collect needs a
#             failing test
#   --filter  GoogleTest filter for a quicker, partial measurement (default: all tests)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
work=${DLFL_BENCH_DIR:-/tmp/dlfl-bench}/collect
fault=slice_offset
filter=
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --fault) fault=$2; shift 2 ;;
    --filter) filter=$2; shift 2 ;;
    *) echo "collect_overhead: unknown argument $1" >&2; exit 2 ;;
  esac
done
dlfl=$build/tools/dlfl/dlfl
[ -x "$dlfl" ] || { echo "collect_overhead: no $dlfl; build dlfl_cli first" >&2; exit 2; }
clangxx=$(command -v clang++-14 || command -v clang++ || true)
[ -n "$clangxx" ] || { echo "collect_overhead: clang++ not found" >&2; exit 2; }
example=$root/examples/tensorlite

# All three at -O0, so the ratios measure collection, not optimization levels. The clang
# build uses runtime counter relocation: dlfl then runs it in LLVM's continuous mode.
build_variant() {  # name compiler flags
  local dir=$work/$1
  if [ ! -f "$dir/CMakeCache.txt" ]; then
    cmake -S "$example" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER="$2" \
      -DCMAKE_CXX_FLAGS="$3" -DTENSORLITE_FAULT="$fault" >/dev/null
  fi
  echo "collect_overhead: building $1 ..." >&2
  cmake --build "$dir" -j2 --target tensorlite_tests >/dev/null
}
mkdir -p "$work"
build_variant plain g++ ""
build_variant gcov g++ "--coverage"
build_variant llvm "$clangxx" "-fprofile-instr-generate -fcoverage-mapping -mllvm -runtime-counter-relocation"

now() { echo "$EPOCHREALTIME"; }
seconds_since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a / b }'; }
gtest_filter=${filter:+--gtest_filter=$filter}

# The plain run: the suite's one process, uninstrumented; failing tests are expected.
start=$(now)
"$work/plain/tensorlite_tests" $gtest_filter >/dev/null 2>&1 || true
plain=$(seconds_since "$start")
tests=$("$work/plain/tensorlite_tests" --gtest_list_tests $gtest_filter | grep -c '^  ' || true)

# The floor of any per-test collection: every test alone in its own process, no coverage.
start=$(now)
"$work/plain/tensorlite_tests" --gtest_list_tests $gtest_filter |
  awk '/^[^ ]/ { suite = $1 } /^  / { print suite $1 }' |
  while read -r name; do "$work/plain/tensorlite_tests" --gtest_filter="$name" >/dev/null 2>&1 || true; done
isolated=$(seconds_since "$start")

echo "tensorlite ($tests tests, fault $fault): plain run ${plain} s"
echo "one process per test, no coverage, -j1: $(ratio "$isolated" "$plain")x plain run (${isolated} s)"
for backend in gcov llvm; do
  for jobs in 1 2; do
    start=$(now)
    "$dlfl" collect --gtest "$work/$backend/tensorlite_tests" --coverage "$backend" -j "$jobs" -q \
      --source-root "$example" --exclude '*/tests/*' ${filter:+--filter "$filter"} \
      -o "$work/$backend-j$jobs.dlfl" >/dev/null
    took=$(seconds_since "$start")
    echo "$backend -j$jobs: $(ratio "$took" "$plain")x plain run (${took} s)"
  done
done
