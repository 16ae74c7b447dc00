#!/usr/bin/env bash
# Ranking-core benchmark: dlfl vs a numpy reference vs a plain memory read, as ratios
# measured in one run. Usage: benchmarks/run.sh [--size small|target|full]
#   small   100k elements x 2k tests at 1% (under a minute)
#   target  1M elements x 10k tests at 1% (the default; the scale the ranking was built for, see benchmarks/README.md), with
#           fractional outcomes and then with binary ones
#   full    target, then growth tables over nnz and a dense 20% case
# Spectra are generated once into ${DLFL_BENCH_DIR:-/tmp/dlfl-bench} and reused; the
# build goes to ${DLFL_BENCH_BUILD:-build-bench}.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
size=target
while [ $# -gt 0 ]; do
  case "$1" in
    --size) size=$2; shift 2 ;;
    --size=*) size=${1#--size=}; shift ;;
    *) echo "usage: $0 [--size small|target|full]" >&2; exit 2 ;;
  esac
done
case "$size" in small|target|full) ;; *) echo "unknown size '$size'" >&2; exit 2 ;; esac

build=${DLFL_BENCH_BUILD:-$root/build-bench}
data=${DLFL_BENCH_DIR:-/tmp/dlfl-bench}
python=/usr/bin/python3
"$root/scripts/install-deps.sh"  # python3-numpy among others, on a fresh machine
"$python" -c 'import numpy' 2>/dev/null || { echo "needs Debian's python3-numpy (/usr/bin/python3)" >&2; exit 2; }
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDLFL_BUILD_BENCHMARKS=ON >/dev/null
cmake --build "$build" -j2 --target make_spectrum rank_ratio >/dev/null

# The machine and how busy it is: the ratios are only comparable with that in mind.
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)"
echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"

# spectrum ELEMENTS TESTS DENSITY [binary] -> prints the directory (generated when
# missing). Default outcomes: 2% failing + 1% flaky (weight 1/4); binary: 1% failing,
# none flaky, so counts read only the failing tests' rows (native format version 2).
spectrum() {
  local dir=$data/v2-e$1-t$2-d$3${4:+-$4}
  if [ ! -f "$dir/spectrum.dlfl" ]; then
    if [ "${4:-}" = binary ]; then
      "$build/benchmarks/make_spectrum" "$1" "$2" "$3" "$dir" 0.01 0 >&2
    else
      "$build/benchmarks/make_spectrum" "$1" "$2" "$3" "$dir" >&2
    fi
  fi
  echo "$dir"
}

field() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }
ratio() { awk -v a="$1" -v b="$2" -v d="${3:-1}" 'BEGIN { printf "%.*f", d, a / b }'; }

# measure DIR -> runs dlfl and numpy on one spectrum, prints the ratio lines
measure() {
  local dir=$1 out
  out=$(mktemp)
  "$build/benchmarks/rank_ratio" "$dir/spectrum.dlfl" 2 "$dir/dlfl-top.txt" >"$out"
  "$python" "$root/benchmarks/numpy_reference.py" "$dir" "$dir/numpy-top.txt" >>"$out"
  grep -E '^(elements|breakdown_ms)' "$out" | sed 's/^/# /'
  local dlfl numpy read peak raw dlfl_cpu read_cpu numpy_cpu
  dlfl=$(field dlfl_seconds "$out"); numpy=$(field numpy_seconds "$out")
  read=$(field memory_read_seconds "$out"); peak=$(field peak_bytes "$out"); raw=$(field raw_bytes "$out")
  dlfl_cpu=$(field dlfl_cpu_seconds "$out"); read_cpu=$(field memory_read_cpu_seconds "$out")
  numpy_cpu=$(field numpy_cpu_seconds "$out")
  echo "# dlfl ${dlfl}s (cpu ${dlfl_cpu}s), numpy ${numpy}s (cpu ${numpy_cpu}s), memory read ${read}s (cpu ${read_cpu}s)," \
       "peak $(ratio "$peak" 1048576 0) MiB, raw $(ratio "$raw" 1048576 0) MiB, file $(ratio "$(stat -c %s "$dir/spectrum.dlfl")" 1048576 0) MiB"
  echo "speedup vs numpy: $(ratio "$numpy" "$dlfl")x"
  echo "time vs memory read: $(ratio "$dlfl" "$read")x"
  # The same in CPU time (all threads), far less sensitive to other processes' load.
  echo "cpu time speedup vs numpy: $(ratio "$numpy_cpu" "$dlfl_cpu")x"
  echo "cpu time vs memory read cpu time: $(ratio "$dlfl_cpu" "$read_cpu")x"
  echo "peak memory vs raw: $(ratio "$peak" "$raw" 3)x"
  # Same scores at the top (ties may be listed in another order by each tool).
  if ! diff -q <(awk '{ printf "%.5f\n", $2 }' "$dir/dlfl-top.txt") \
               <(awk '{ printf "%.5f\n", $2 }' "$dir/numpy-top.txt") >/dev/null; then
    echo "error: dlfl and numpy disagree on the top scores" >&2
    exit 1
  fi
  rm -f "$out"
}

# growth_row ELEMENTS TESTS DENSITY -> one table row: nnz, seconds, ns per nnz, vs read
growth_row() {
  local dir
  dir=$(spectrum "$1" "$2" "$3")
  "$build/benchmarks/rank_ratio" "$dir/spectrum.dlfl" 2 "" 5 >"$dir/ratio.txt"
  awk -v e="$1" '$1 == "elements" { nnz = $6 } $1 == "dlfl_seconds" { s = $2 } $1 == "dlfl_cpu_seconds" { c = $2 }
       $1 == "memory_read_seconds" { r = $2 }
       END { printf "  %-9d %-11d %-9.4f %-9.4f %-9.2f %-9.2f %.1fx\n", e, nnz, s, c, s / nnz * 1e9, c / nnz * 1e9, s / r }' \
    "$dir/ratio.txt"
}

case "$size" in
  small) measure "$(spectrum 100000 2000 0.01)" ;;
  target|full) measure "$(spectrum 1000000 10000 0.01)" ;;
esac
echo
echo "# binary outcomes, 1% failing: counts from the failing tests' rows + row lengths"
case "$size" in
  small) measure "$(spectrum 100000 2000 0.01 binary)" ;;
  target|full) measure "$(spectrum 1000000 10000 0.01 binary)" ;;
esac

if [ "$size" = full ]; then
  header="# elements  nnz         seconds   cpu s     ns/nnz    cpu ns/nnz vs read"
  echo
  echo "# growth with the spectrum (10k tests, 1%: nnz and elements grow together), 2 threads"
  echo "$header"
  for e in 10000 100000 1000000; do growth_row $e 10000 0.01; done
  echo
  echo "# growth in nnz alone (1M elements, 10k tests; per-element work fixed), 2 threads"
  echo "$header"
  for d in 0.0001 0.001 0.01; do growth_row 1000000 10000 $d; done
  echo
  echo "# dense: 100k elements x 10k tests at 20% (bitset storage)"
  measure "$(spectrum 100000 10000 0.2)"
fi
echo "# load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
