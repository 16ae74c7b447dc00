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
# --oversubscribe: 3 ranks on a 2-core machine.
exec mpirun --oversubscribe -np "$ranks" "$binary" --gtest_filter="$name"
