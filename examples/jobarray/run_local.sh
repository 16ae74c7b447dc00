#!/usr/bin/env bash
# Runs the job-array examples' own commands as local processes, the way CI proves them:
#   run_local.sh slurm       every task of slurm-collect.sbatch's --array (in parallel,
#                            SLURM_ARRAY_TASK_ID/COUNT set), then slurm-merge.sbatch
#   run_local.sh kubernetes  every Job of kubernetes-indexed-job.yaml in order: its
#                            container's args run under /bin/sh -c with its env, once per
#                            completion index (JOB_COMPLETION_INDEX) for an Indexed Job
# Run from the project root. DLFL, DLFL_SHARED and DLFL_COLLECT_ARGS from the environment
# replace what the files set (a local directory instead of the cluster's volume, a local
# test binary).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "run_local.sh: $*" >&2; exit 2; }
pids=()
wait_all() {  # every process must succeed, as every array task must
  local status=0
  for p in "${pids[@]}"; do wait "$p" || status=1; done
  pids=()
  [ $status -eq 0 ] || fail "a task failed"
}

case "${1:-}" in
  slurm)
    range=$(sed -n 's/^#SBATCH --array=\([0-9]*-[0-9]*\).*/\1/p' "$here/slurm-collect.sbatch")
    [ -n "$range" ] || fail "no #SBATCH --array=A-B in slurm-collect.sbatch"
    first=${range%-*} last=${range#*-}
    for i in $(seq "$first" "$last"); do
      SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_COUNT=$((last - first + 1)) bash "$here/slurm-collect.sbatch" &
      pids+=($!)
    done
    wait_all
    bash "$here/slurm-merge.sbatch"
    ;;
  kubernetes)
    manifest=$here/kubernetes-indexed-job.yaml
    # One line per Job: completions, Indexed or not, the env as NAME=VALUE words, the args.
    jobs=$(awk '
      /^---/ { if (kind == "Job") print out; kind = ""; out = ""; completions = 1; indexed = 0 }
      /^kind:/ { kind = $2 }
      /completionMode: Indexed/ { indexed = 1 }
      /^  completions:/ { completions = $2 }
      /- \{name: .*value: / { n = $0; sub(/.*name: /, "", n); sub(/,.*/, "", n)
                     v = $0; sub(/.*value: "/, "", v); sub(/"\}.*/, "", v)
                     env = env n "=" v "\x1f" }
      /^ *args:/ { getline; a = $0; sub(/^ *- /, "", a); out = completions "\x1e" indexed "\x1e" env "\x1e" a; env = "" }
      END { if (kind == "Job") print out }' "$manifest")
    [ -n "$jobs" ] || fail "no Job found in $manifest"
    while IFS=$'\x1e' read -r completions indexed env args; do
      vars=()
      IFS=$'\x1f' read -r -a pairs <<<"$env"
      for kv in "${pairs[@]}"; do
        name=${kv%%=*}
        # Local values win for what only makes sense on the cluster.
        case "$name" in DLFL_SHARED|DLFL_COLLECT_ARGS) [ -n "${!name:-}" ] && kv="$name=${!name}" ;; esac
        vars+=("$kv")
      done
      for i in $(seq 0 $((completions - 1))); do
        if [ "$indexed" = 1 ]; then
          env "${vars[@]}" JOB_COMPLETION_INDEX="$i" /bin/sh -c "$args" &
        else
          env "${vars[@]}" /bin/sh -c "$args" &
        fi
        pids+=($!)
      done
      wait_all
    done <<<"$jobs"
    ;;
  *) echo "usage: $0 slurm|kubernetes" >&2; exit 2 ;;
esac
