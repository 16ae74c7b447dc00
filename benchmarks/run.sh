#!/usr/bin/env bash
# Ranking-core benchmark: dlfl vs a numpy reference vs a plain memory read, as ratios
# measured in one run. Usage: benchmarks/run.sh [--size small|target|full]
#   small   100k elements x 2k tests at 1% (under a minute)
#   target  1M elements x 10k tests at 1% (the default; issue #7's target spectrum)
#   full    target, then the growth curve over nnz = 1e6, 1e7, 1e8 and a dense 20% case
# Spectra are generated once into ${DLFL_BENCH_DIR:-/tmp/dlfl-bench} and reused.
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

build=$root/build-bench
data=${DLFL_BENCH_DIR:-/tmp/dlfl-bench}
python=/usr/bin/python3
"$python" -c 'import numpy' 2>/dev/null || { echo "needs Debian's python3-numpy (/usr/bin/python3)" >&2; exit 2; }
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDLFL_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" -j2 --target make_spectrum rank_ratio >/dev/null

# spectrum ELEMENTS TESTS DENSITY -> prints the directory (generated when missing)
spectrum() {
  local dir=$data/e$1-t$2-d$3
  if [ ! -f "$dir/spectrum.dlfl" ]; then
    "$build/benchmarks/make_spectrum" "$1" "$2" "$3" "$dir" >&2
  fi
  echo "$dir"
}

field() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }
ratio() { awk -v a="$1" -v b="$2" -v d="${3:-1}" 'BEGIN { printf "%.*f", d, a / b }'; }

# measure DIR -> runs dlfl and numpy on one spectrum, prints the three ratio lines
measure() {
  local dir=$1 out
  out=$(mktemp)
  DLFL_BENCH_BREAKDOWN=1 "$build/benchmarks/rank_ratio" "$dir/spectrum.dlfl" 2 "$dir/dlfl-top.txt" >"$out"
  "$python" "$root/benchmarks/numpy_reference.py" "$dir" "$dir/numpy-top.txt" >>"$out"
  cat "$out" | grep -E '^(elements|breakdown_ms)' | sed 's/^/# /'
  local dlfl numpy read peak raw
  dlfl=$(field dlfl_seconds "$out"); numpy=$(field numpy_seconds "$out")
  read=$(field memory_read_seconds "$out"); peak=$(field peak_bytes "$out"); raw=$(field raw_bytes "$out")
  echo "# dlfl ${dlfl}s, numpy ${numpy}s, memory read ${read}s, peak $((${peak%.*} / 1048576)) MiB, raw $((${raw%.*} / 1048576)) MiB"
  echo "speedup vs numpy: $(ratio "$numpy" "$dlfl")x"
  echo "time vs memory read: $(ratio "$dlfl" "$read")x"
  echo "peak memory vs raw: $(ratio "$peak" "$raw" 2)x"
  # Same scores at the top (ties may be listed in another order by each tool).
  if ! diff -q <(awk '{ printf "%.5f\n", $2 }' "$dir/dlfl-top.txt") \
               <(awk '{ printf "%.5f\n", $2 }' "$dir/numpy-top.txt") >/dev/null; then
    echo "error: dlfl and numpy disagree on the top scores" >&2
    exit 1
  fi
  rm -f "$out"
}

case "$size" in
  small) measure "$(spectrum 100000 2000 0.01)" ;;
  target|full) measure "$(spectrum 1000000 10000 0.01)" ;;
esac

if [ "$size" = full ]; then
  echo
  echo "# growth in nnz (1M elements x 10k tests), dlfl counts + Ochiai + full ranking, 2 threads"
  echo "# nnz         seconds    ns/nnz"
  for d in 0.0001 0.001 0.01; do
    dir=$(spectrum 1000000 10000 $d)
    "$build/benchmarks/rank_ratio" "$dir/spectrum.dlfl" 2 >"$dir/ratio.txt"
    awk '$1 == "elements" { nnz = $6 } $1 == "dlfl_seconds" { s = $2 }
         END { printf "  %-11d %-10.4f %.2f\n", nnz, s, s / nnz * 1e9 }' "$dir/ratio.txt"
  done
  echo
  echo "# dense: 100k elements x 10k tests at 20% (bitset storage)"
  measure "$(spectrum 100000 10000 0.2)"
fi
