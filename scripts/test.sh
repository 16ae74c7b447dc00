#!/usr/bin/env bash
# Installs the dependencies, builds dlfl and runs the whole test suite (CTest).
# Usage: scripts/test.sh [BUILD_DIR]   (default: build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DDLFL_WARNINGS_AS_ERRORS=ON
cmake --build "$build" -j2
ctest --test-dir "$build" -j2 --output-on-failure --timeout 600
