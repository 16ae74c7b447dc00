#!/usr/bin/env bash
# ASan + UBSan build (clang 14) of the libraries that build without libTooling, their unit
# tests and the libFuzzer harnesses, in its own build directory (default build-sanitize),
# then those unit tests under the sanitizers. Any sanitizer report fails the run.
# Usage: scripts/sanitize.sh [--fuzzers-only] [BUILD_DIR]
#   --fuzzers-only        configure and build the harnesses only, run nothing (scripts/fuzz.sh)
#   DLFL_SANITIZE_TESTS   ctest regex of what runs (default: the core, files, formats,
#                         report, eval and graph unit tests)
# Prints how long the build and the tests took (CI time, docs/reliability.md).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
targets=(dlfl_core_tests dlfl_files_tests dlfl_formats_tests dlfl_report_tests dlfl_eval_tests dlfl_graph_tests dlfl_fuzzers)
fuzzers_only=0
if [ "${1:-}" = --fuzzers-only ]; then fuzzers_only=1; targets=(dlfl_fuzzers); shift; fi
build=${1:-$root/build-sanitize}
"$root/scripts/install-deps.sh"
tests=${DLFL_SANITIZE_TESTS:-'^dlfl_(core|files|formats|report|eval|graph)_tests\.'}
start=$(date +%s)
# No libTooling (the instrumenter and the mutant finder): the sanitizers cover the
# libraries that read input; Clang's own code is not ours to check, and building it
# twice would double CI time. The collect, bench and CLI tests run programs (gcov, cmake,
# the dlfl binary) and belong to the normal suite; their readers are fuzzed instead.
cmake -S "$root" -B "$build" -G Ninja \
  -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DDLFL_SANITIZE=ON -DDLFL_BUILD_FUZZERS=ON -DDLFL_BUILD_BENCHMARKS=OFF -DDLFL_WARNINGS_AS_ERRORS=ON \
  -DCMAKE_DISABLE_FIND_PACKAGE_Clang=ON >/dev/null
cmake --build "$build" -j2 --target "${targets[@]}"
built=$(date +%s)
[ $fuzzers_only -eq 0 ] || exit 0
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
ctest --test-dir "$build" -R "$tests" -j2 --output-on-failure --timeout 600
echo "sanitize: build $((built - start)) s, tests $(($(date +%s) - built)) s"
