#!/usr/bin/env bash
# The final step of a job array: merges shard-0.dlfl ... shard-(N-1).dlfl of the shared
# directory into $DLFL_SHARED/${DLFL_OUTPUT:-sfl.dlfl}. With DLFL_WAIT=S it first waits up
# to S seconds for all N shards (a Kubernetes Job cannot depend on another); a shard
# still missing then is an error naming it, so a lost task never goes unnoticed.
set -euo pipefail
dlfl=${DLFL:-dlfl}
: "${DLFL_SHARDS:?merge.sh: set DLFL_SHARDS to the number of shards}"
: "${DLFL_SHARED:?merge.sh: set DLFL_SHARED to the directory the shards are in}"
deadline=$(( $(date +%s) + ${DLFL_WAIT:-0} ))
shards=()
for i in $(seq 0 $((DLFL_SHARDS - 1))); do
  f=$DLFL_SHARED/shard-$i.dlfl
  until [ -f "$f" ] || [ "$(date +%s)" -ge "$deadline" ]; do sleep 5; done
  [ -f "$f" ] || { echo "merge.sh: $f is missing: did task $i of the array fail?" >&2; exit 2; }
  shards+=("$f")
done
exec "$dlfl" merge "${shards[@]}" -o "$DLFL_SHARED/${DLFL_OUTPUT:-sfl.dlfl}"
