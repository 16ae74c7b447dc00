#!/usr/bin/env bash
# The main job on the bundled example: rank the lines of examples/spectra/softmax.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
"$root/scripts/install-deps.sh"
if [ ! -x "$build/tools/dlfl/dlfl" ]; then
  cmake -S "$root" -B "$build" -G Ninja >/dev/null
  cmake --build "$build" -j2 --target dlfl >/dev/null
fi
"$build/tools/dlfl/dlfl" rank "$root/examples/spectra/softmax" --formula ochiai --formula dstar2 --top 5
