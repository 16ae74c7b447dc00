#!/usr/bin/env bash
# One task of a job array: collects shard I of N of the test suite into the directory all
# tasks share, as shard-I.dlfl (written atomically: it appears complete or not at all).
#   I: $SLURM_ARRAY_TASK_ID (Slurm), $JOB_COMPLETION_INDEX (Kubernetes Indexed Job),
#      else $DLFL_SHARD_INDEX
#   N: $DLFL_SHARDS, else $SLURM_ARRAY_TASK_COUNT
#   $DLFL_SHARED: the shared directory; $DLFL: the dlfl binary (default: dlfl on PATH)
#   $DLFL_COLLECT_ARGS: what to collect, as shell words, e.g.
#     --gtest build/tensorlite_tests --source-root examples/tensorlite --exclude '*/tests/*'
set -euo pipefail
dlfl=${DLFL:-dlfl}
index=${SLURM_ARRAY_TASK_ID:-${JOB_COMPLETION_INDEX:-${DLFL_SHARD_INDEX:-}}}
count=${DLFL_SHARDS:-${SLURM_ARRAY_TASK_COUNT:-}}
[ -n "$index" ] || { echo "collect-shard.sh: no shard index (SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX or DLFL_SHARD_INDEX)" >&2; exit 2; }
[ -n "$count" ] || { echo "collect-shard.sh: no shard count (DLFL_SHARDS or SLURM_ARRAY_TASK_COUNT)" >&2; exit 2; }
: "${DLFL_SHARED:?collect-shard.sh: set DLFL_SHARED to the directory all tasks share}"
: "${DLFL_COLLECT_ARGS:?collect-shard.sh: set DLFL_COLLECT_ARGS to the test source and options of dlfl collect}"
mkdir -p "$DLFL_SHARED"
eval "set -- $DLFL_COLLECT_ARGS"
exec "$dlfl" collect "$@" --shard "$index/$count" --quiet -o "$DLFL_SHARED/shard-$index.dlfl"
