#!/usr/bin/env bash
# Builds confeval once per seeded fault in faults.json and reports how many tests fail,
# running every test in its own process (as dlfl does) so a crash costs one test only.
#
#   faults/check_faults.sh [BUILD_DIR] [extra cmake args...]
#   VERBOSE=1 faults/check_faults.sh ...   # also list the failing tests
#   JOBS=4 faults/check_faults.sh ...      # parallel build and test jobs (default 2)
#
# One build directory is reused: the fault definition is private to the library, so
# switching faults recompiles only the library, not the tests. Exits non-zero when the
# correct build fails a test, or a fault fails no test or every test.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$(mktemp -d /tmp/confeval-faults.XXXXXX)}"
shift || true
jobs="${JOBS:-2}"
generator=()
command -v ninja > /dev/null && generator=(-G Ninja)

fault_ids() {
  sed -n 's/^ *"id": *"\([^"]*\)".*/\1/p' "$here/faults/faults.json"
}

bug_type() {
  grep -A1 "\"id\": \"$1\"" "$here/faults/faults.json" \
    | sed -n 's/.*"bug_type": *"\([^"]*\)".*/\1/p' || true
}

# "file:line" of a fault (its first faulty line), from the entry's "file" and "lines".
location() {
  local entry
  entry="$(grep -A6 "\"id\": \"$1\"" "$here/faults/faults.json")"
  printf '%s:%s' "$(printf '%s' "$entry" | sed -n 's/.*"file": *"\([^"]*\)".*/\1/p')" \
    "$(printf '%s' "$entry" | sed -n 's/.*"lines": *\[\([0-9]*\).*/\1/p')"
}

# Full gtest names (Suite.Test, including parameterized and typed ones), one per line.
list_tests() {
  "$build/confeval_tests" --gtest_list_tests \
    | awk '/^Running main/ { next }
           /^[^ ]/ { suite = $0; sub(/[ #].*/, "", suite); next }
           { print suite $1 }'
}

# Prints the tests that fail when each runs alone in its own process.
failing_tests() {
  list_tests | xargs -P "$jobs" -I{} \
    sh -c '"$0" --gtest_filter="$1" > /dev/null 2>&1 || echo "$1"' "$build/confeval_tests" {} \
    | sort
}

configure_and_build() {
  local id="$1"
  shift
  cmake -S "$here" -B "$build" "${generator[@]}" -DCONFEVAL_FAULT="$id" "$@" > "$build.log" 2>&1 \
    || { cat "$build.log"; exit 1; }
  cmake --build "$build" -j "$jobs" >> "$build.log" 2>&1 || { tail -50 "$build.log"; exit 1; }
}

status=0
printf '%-22s %-12s %-30s %s\n' "fault" "type" "location" "failing/total"
for id in "" $(fault_ids); do
  configure_and_build "$id" "$@"
  total="$(list_tests | wc -l)"
  failing="$(failing_tests)"
  failed="$(printf '%s' "$failing" | grep -c . || true)"
  type="$(bug_type "$id")"
  where="-"
  [[ -n "$id" ]] && where="$(location "$id")"
  printf '%-22s %-12s %-30s %d/%d\n' "${id:-(none)}" "${type:--}" "$where" "$failed" "$total"
  if [[ "${VERBOSE:-0}" == 1 && -n "$failing" ]]; then
    printf '%s\n' "$failing" | sed 's/^/    /'
  fi
  if [[ -z "$id" && "$failed" -ne 0 ]]; then
    echo "  error: the correct build fails tests" >&2
    status=1
  elif [[ -n "$id" && ( "$failed" -eq 0 || "$failed" -eq "$total" ) ]]; then
    echo "  error: fault $id fails no test or every test" >&2
    status=1
  fi
done
configure_and_build "" "$@"  # leave the directory with the correct build
exit "$status"
