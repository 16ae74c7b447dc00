#!/usr/bin/env bash
# `dlfl merge` benchmark: 16 shards of the 1M x 10k benchmark spectrum (1%
# density, binary outcomes, 1% failing), merged, against `cat` of the same input files
# into one file; peak memory against the output's raw coverage size (nnz x 4 bytes).
# Ratios measured in one run, best of 5, warm page cache.
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

# best_of CMD... -> "SECONDS PEAK_KB CPU_SECONDS" (best wall time of 5 runs, peak RSS of
# that run, least user + system time of the 5: CPU time is far less sensitive to other
# processes' load, but the kernel's share (page cache copies, writeback) still swings)
best_of() {
  local best="" line cpu_min=""
  for _ in 1 2 3 4 5; do
    line=$( { /usr/bin/time -f '%e %M %U %S' "$@" >/dev/null; } 2>&1 | tail -1 | awk '{ print $1, $2, $3 + $4 }')
    if [ -z "$best" ] || awk -v a="${line%% *}" -v b="${best%% *}" 'BEGIN { exit !(a < b) }'; then best=$line; fi
    if [ -z "$cpu_min" ] || awk -v a="${line##* }" -v b="$cpu_min" 'BEGIN { exit !(a < b) }'; then cpu_min=${line##* }; fi
  done
  echo "${best% *} $cpu_min"
}
wall() { echo "${1%% *}"; }
peak_kb() { local rest=${1#* }; echo "${rest%% *}"; }
cpu() { echo "${1##* }"; }
cat "${shards[@]}" >/dev/null  # warm the page cache
cat_run=$(best_of sh -c 'cat "$@" > "$0"' "$data/cat.out" "${shards[@]}")
cat_sync=$(best_of sh -c 'cat "$@" > "$0" && sync "$0"' "$data/cat.out" "${shards[@]}")
merge_run=$(best_of "$dlfl" merge -q "${shards[@]}" -o "$data/merged.dlfl")
rm -f "$data/cat.out"
inputs=$(du -cb "${shards[@]}" | tail -1 | cut -f1)
raw=$((nnz * 4))
ratio() { awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN { printf "%.*f", d, a / b }'; }
echo "# 16 shards of $elements x $tests (nnz $nnz): inputs $(ratio "$inputs" 1048576 0) MiB, output $(ratio "$(stat -c %s "$data/merged.dlfl")" 1048576 0) MiB, raw $(ratio $raw 1048576 0) MiB"
echo "# wall: cat $(wall "$cat_run") s, cat + fsync $(wall "$cat_sync") s, dlfl merge $(wall "$merge_run") s (it fsyncs: AtomicFile)"
echo "# cpu (user + sys, least of the runs): cat $(cpu "$cat_run") s, cat + fsync $(cpu "$cat_sync") s, dlfl merge $(cpu "$merge_run") s"
echo "merge time vs cat: $(ratio "$(wall "$merge_run")" "$(wall "$cat_run")")x"
echo "merge time vs cat + fsync: $(ratio "$(wall "$merge_run")" "$(wall "$cat_sync")")x"
echo "merge cpu time vs cat cpu time: $(ratio "$(cpu "$merge_run")" "$(cpu "$cat_run")")x"
echo "merge peak memory vs output raw: $(ratio $(( $(peak_kb "$merge_run") * 1024 )) $raw 3)x ($(ratio "$(peak_kb "$merge_run")" 1024 0) MiB)"
echo "# load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
