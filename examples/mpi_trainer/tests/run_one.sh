#!/bin/sh
# Runs one test of the suite under its own mpirun, with as many ranks as its suite name
# ends with (CommNp2.AllreduceSumAddsEveryRank: 2 ranks). Exits with mpirun's status:
# non-zero when the test failed on any rank.
#   tests/run_one.sh MPI_TRAINER_TESTS TEST_NAME
set -eu
[ $# -eq 2 ] || { echo "usage: $0 MPI_TRAINER_TESTS TEST_NAME" >&2; exit 2; }
binary=$1 name=$2
suite=${name%%.*}
ranks=${suite##*Np}
case "$ranks" in
  '' | *[!0-9]*) echo "$0: $name: the suite name must end in NpK (run on K ranks)" >&2; exit 2 ;;
esac
# Open MPI refuses to start as root (containers, CI) unless told twice.
if [ "$(id -u)" = 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
# Each run keeps its session directory (and the files its ranks share) to itself, so
# that runs started side by side (ctest -j, dlfl collect -j) cannot meet there.
scratch=$(mktemp -d "${TMPDIR:-/tmp}/mpi_trainer_run.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
export OMPI_MCA_orte_tmpdir_base="$scratch"

# A start that failed before any rank ran the test is not the test's outcome: Open MPI's
# start-up can fail on a loaded machine. It is tried again, three times at most; once a
# rank printed the test's RUN line, mpirun's status is the test's.
attempt=1
while :; do
  status=0
  # --oversubscribe: 3 ranks on a 2-core machine.
  mpirun --oversubscribe -np "$ranks" "$binary" --gtest_filter="$name" --gtest_color=no >"$scratch/output" 2>&1 || status=$?
  cat "$scratch/output"
  if [ "$status" -eq 0 ] || grep -qF "[ RUN      ] $name" "$scratch/output" || [ "$attempt" -ge 3 ]; then
    exit "$status"
  fi
  echo "$0: $name: mpirun ended with status $status before any rank ran the test; starting it again" >&2
  attempt=$((attempt + 1))
done
