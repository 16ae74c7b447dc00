#!/usr/bin/env bash
# Runs the libFuzzer harnesses (fuzz/*_fuzzer.cpp) of the sanitizer build, each on a copy
# of its seed corpus (fuzz/corpus/NAME), and fails on any finding (crash, sanitizer
# report, leak, an exception other than dlfl::Error, a timeout or memory blow-up).
# Usage: scripts/fuzz.sh [--seconds N | --runs N] [--jobs J] [--no-build] [HARNESS...]
#   --seconds N   each harness for N seconds (default 15)
#   --runs N      each harness for N executions instead (the long run: --runs 1000000)
#   --jobs J      harnesses run at once (default 2)
#   --no-build    run the harnesses in DLFL_FUZZ_BUILD/fuzz as they are (e.g. a copy
#                 fuzzed for hours while the build directory is rebuilt)
#   HARNESS       names without _fuzzer (default: all)
#   DLFL_FUZZ_BUILD  the sanitizer build (default build-sanitize; brought up to date by
#                    scripts/sanitize.sh --fuzzers-only first)
#   DLFL_FUZZ_OUT    where grown corpora, logs and crashing inputs go (default BUILD/fuzz-out)
# Prints one line per harness (executions, seconds, executions per second, corpus size)
# and the total wall time.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${DLFL_FUZZ_BUILD:-$root/build-sanitize}
limit=(-max_total_time=15)
jobs=2
build_first=1
names=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) limit=(-max_total_time="$2"); shift 2 ;;
    --runs) limit=(-runs="$2"); shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --no-build) build_first=0; shift ;;
    -*) echo "usage: $0 [--seconds N | --runs N] [--jobs J] [--no-build] [HARNESS...]" >&2; exit 2 ;;
    *) names+=("$1"); shift ;;
  esac
done
if [ ${#names[@]} -eq 0 ]; then
  for f in "$root"/fuzz/*_fuzzer.cpp; do n=$(basename "$f" .cpp); names+=("${n%_fuzzer}"); done
fi
for name in "${names[@]}"; do
  [ -f "$root/fuzz/${name}_fuzzer.cpp" ] || { echo "fuzz: no harness fuzz/${name}_fuzzer.cpp" >&2; exit 2; }
done
[ $build_first -eq 0 ] || "$root/scripts/sanitize.sh" --fuzzers-only "$build" >/dev/null
out=${DLFL_FUZZ_OUT:-$build/fuzz-out}
mkdir -p "$out"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# The harnesses hand inputs to file readers through files (fuzz/fuzz_support.h): in memory
# when /dev/shm is there.
[ -d /dev/shm ] && [ -w /dev/shm ] && export TMPDIR=${DLFL_FUZZ_TMPDIR:-/dev/shm}

# run NAME -> fuzzes one harness; its log is $out/NAME.log, findings $out/NAME-crashes/
run() {
  local name=$1 corpus=$out/$1-corpus crashes=$out/$1-crashes
  mkdir -p "$corpus" "$crashes"
  cp -n "$root/fuzz/corpus/$name"/* "$corpus/" 2>/dev/null || true
  local start=$SECONDS status=0
  # -rss_limit_mb / -malloc_limit_mb: a reader that allocates by what a tiny input
  # declares is a finding (issue #14). -timeout: a hang is one too.
  "$build/fuzz/${name}_fuzzer" "${limit[@]}" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 \
    -print_final_stats=1 -artifact_prefix="$crashes/" "$corpus" >"$out/$name.log" 2>&1 || status=$?
  local execs seconds=$((SECONDS - start))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$name.log" | tail -1)
  printf '%-18s %-6s %10s execs %6s s %8s/s corpus %s\n' "$name" "$([ $status -eq 0 ] && echo ok || echo FAILED)" \
    "${execs:-?}" "$seconds" "$(( ${execs:-0} / (seconds > 0 ? seconds : 1) ))" "$(ls "$corpus" | wc -l)"
  if [ $status -ne 0 ]; then
    grep -m5 -E 'ERROR|SUMMARY|runtime error|deadly signal|uncaught|out-of-memory|timeout' "$out/$name.log" >&2 || true
    echo "  log: $out/$name.log, input: $crashes/$(ls "$crashes" | head -1)" >&2
  fi
  return $status
}
started=$SECONDS
failed=0
running=0
for name in "${names[@]}"; do
  run "$name" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n || failed=1
    running=$((running - 1))
  fi
done
while [ "$running" -gt 0 ]; do
  wait -n || failed=1
  running=$((running - 1))
done
[ $failed -eq 0 ] || { echo "fuzz: findings (see above), $((SECONDS - started)) s" >&2; exit 1; }
echo "fuzz: ${#names[@]} harnesses, no findings, $((SECONDS - started)) s"
