#!/usr/bin/env bash
# The default dlfl benchmark: builds dlfl (the tool, the runtime and its GoogleTest
# listener), then runs `dlfl bench benchmarks/default-bench.json` and prints the
# comparison table. Resumable: run it again after an interruption and it continues.
# Usage: scripts/bench.sh [OUT_DIR] [BUILD_DIR] [extra `dlfl bench` options...]
#        (defaults: BUILD_DIR/bench-out, build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${2:-$root/build}
out=${1:-$build/bench-out}
shift $(( $# > 2 ? 2 : $# ))
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -G Ninja
fi
cmake --build "$build" -j2 --target dlfl_cli dlfl_rt dlfl_rt_gtest
start=$(date +%s)
"$build/tools/dlfl/dlfl" bench "$root/benchmarks/default-bench.json" -o "$out" "$@"
echo "scripts/bench.sh: $(( $(date +%s) - start )) s wall for dlfl bench (tables: $out/summary.md)" >&2
