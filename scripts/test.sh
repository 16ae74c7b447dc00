#!/usr/bin/env bash
# Installs the dependencies, builds dlfl and runs the whole test suite (CTest).
# Usage: scripts/test.sh [BUILD_DIR]   (default: build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
"$root/scripts/install-deps.sh"
# Dead links in the user docs fail here, before the build (a second of python3).
"$root/scripts/check-doc-links.sh"
"$root/scripts/check-citation.py"
# The same configuration as scripts/demo.sh, so running one after the other rebuilds nothing.
cmake -S "$root" -B "$build" -G Ninja -DDLFL_WARNINGS_AS_ERRORS=ON
cmake --build "$build" -j2
# The per-test limit is a safety net against a hang, not a speed target: on a loaded
# 2-core machine the gcov-vs-runtime comparison of tensorlite alone took over 600 s.
ctest --test-dir "$build" -j2 --output-on-failure --timeout 1800
