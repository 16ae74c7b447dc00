#!/usr/bin/env bash
# `dlfl merge` benchmark (issue #17): 16 shards of the 1M x 10k benchmark spectrum (1%
# density, binary outcomes, 1% failing), merged, against `cat` of the same input files
# into one file; peak memory against the output's raw coverage size (nnz x 4 bytes).
# Ratios measured in one run, best of 3, warm page cache.
# Usage: benchmarks/merge.sh [--size small]   (small: 100k x 2k)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
elements=1000000 tests=10000
[ "${1:-}" = "--size" ] && [ "${2:-}" = small ] && elements=100000 tests=2000
"$root/scripts/install-deps.sh"
build=${DLFL_BENCH_BUILD:-$root/build-bench}
data=${DLFL_BENCH_DIR:-/tmp/dlfl-bench}/merge-e$elements-t$tests
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDLFL_BUILD_BENCHMARKS=ON >/dev/null
targets=(make_spectrum make_shards)
[ -n "${DLFL:-}" ] || targets+=(dlfl_cli)
cmake --build "$build" -j2 --target "${targets[@]}" >/dev/null
dlfl=${DLFL:-$build/tools/dlfl/dlfl}  # DLFL=PATH: an already built dlfl instead
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)"
echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ ! -f "$data/shards/shard-15.dlfl" ]; then
  "$build/benchmarks/make_spectrum" $elements $tests 0.01 "$data" 0.01 0 >&2
  "$build/benchmarks/make_shards" "$data/spectrum.dlfl" 16 "$data/shards" >&2
  rm -f "$data"/*.u32 "$data"/*.f64  # numpy's arrays are not needed here
fi
shards=("$data"/shards/shard-{0..15}.dlfl)
read -r _ _ nnz < "$data/shape.txt"

# best_of CMD... -> "SECONDS PEAK_KB" (best wall time of 3 runs, peak RSS of that run)
best_of() {
  local best="" line
  for _ in 1 2 3; do
    line=$( { /usr/bin/time -f '%e %M' "$@" >/dev/null; } 2>&1 | tail -1)
    if [ -z "$best" ] || awk -v a="${line% *}" -v b="${best% *}" 'BEGIN { exit !(a < b) }'; then best=$line; fi
  done
  echo "$best"
}
cat "${shards[@]}" >/dev/null  # warm the page cache
cat_run=$(best_of sh -c 'cat "$@" > "$0"' "$data/cat.out" "${shards[@]}")
cat_sync=$(best_of sh -c 'cat "$@" > "$0" && sync "$0"' "$data/cat.out" "${shards[@]}")
merge_run=$(best_of "$dlfl" merge -q "${shards[@]}" -o "$data/merged.dlfl")
rm -f "$data/cat.out"
inputs=$(du -cb "${shards[@]}" | tail -1 | cut -f1)
raw=$((nnz * 4))
ratio() { awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN { printf "%.*f", d, a / b }'; }
echo "# 16 shards of $elements x $tests (nnz $nnz): inputs $(ratio "$inputs" 1048576 0) MiB, output $(ratio "$(stat -c %s "$data/merged.dlfl")" 1048576 0) MiB, raw $(ratio $raw 1048576 0) MiB"
echo "# cat ${cat_run% *} s, cat + fsync ${cat_sync% *} s, dlfl merge ${merge_run% *} s (it fsyncs: AtomicFile)"
echo "merge time vs cat: $(ratio "${merge_run% *}" "${cat_run% *}")x"
echo "merge time vs cat + fsync: $(ratio "${merge_run% *}" "${cat_sync% *}")x"
echo "merge peak memory vs output raw: $(ratio $(( ${merge_run#* } * 1024 )) $raw 3)x ($(ratio "${merge_run#* }" 1024 0) MiB)"
echo "# load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
