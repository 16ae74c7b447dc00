#!/usr/bin/env bash
# A one-command check of dlfl's CUDA device coverage on a GPU machine, in two halves:
#   scripts/gpu-check.sh pack DIR            (here) instrument examples/gpu_check with
#                                            `dlfl instrument` and pack ONE folder (< 64 MiB)
#   DIR/run.sh OUTDIR                        (on the GPU machine: nvcc, no packages, no
#                                            network) build, run, write a few flat files
#   scripts/gpu-check.sh verdict DIR OUTDIR  (here) `dlfl collect` the snapshots, rank, and
#                                            print one line per verdict; exit 1 if one fails
# dlfl is $DLFL, else build/tools/dlfl/dlfl, else the one on PATH; GoogleTest's sources are
# $GTEST_SOURCE, else Debian's /usr/src/googletest/googletest (googletest package).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
subject=$root/examples/gpu_check
limit_mib=64

find_dlfl() {
  if [ -n "${DLFL:-}" ]; then echo "$DLFL"
  elif [ -x "$root/build/tools/dlfl/dlfl" ]; then echo "$root/build/tools/dlfl/dlfl"
  else command -v dlfl || { echo "gpu-check: no dlfl (build it, or set DLFL)" >&2; exit 2; }
  fi
}

pack() {
  local dir=$1 dlfl gtest cdb
  dlfl=$(find_dlfl)
  gtest=${GTEST_SOURCE:-/usr/src/googletest/googletest}
  [ -f "$gtest/src/gtest-all.cc" ] || { echo "gpu-check: no GoogleTest sources in $gtest (apt-get install googletest, or set GTEST_SOURCE)" >&2; exit 2; }
  rm -rf "$dir"
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  # The compile command CMake would give nvcc; clang parses it in CUDA mode, so the
  # instrumentation needs no CUDA here.
  cdb=$(mktemp -d)
  trap 'rm -rf "$cdb"' RETURN
  cat >"$cdb/compile_commands.json" <<JSON
[{"directory": "$subject", "command": "/usr/local/cuda/bin/nvcc -std=c++17 -I$subject -x cu -c $subject/kernels.cu -o kernels.o", "file": "$subject/kernels.cu"}]
JSON
  "$dlfl" instrument -p "$cdb" --root "$subject" --out "$dir/instr" --no-copy -q
  cp "$subject/kernels.h" "$dir/instr/"
  mkdir -p "$dir/plain" "$dir/rt/include/dlfl_rt" "$dir/rt/src" "$dir/gtest"
  cp "$subject"/*.cu "$subject"/*.h "$subject"/*.cpp "$dir/plain/"
  cp "$root"/include/dlfl_rt/*.h "$dir/rt/include/dlfl_rt/"
  cp "$root/lib/runtime/dlfl_rt.c" "$root/lib/runtime/dlfl_rt_gtest_listener.cpp" "$dir/rt/src/"
  cp -r "$gtest/include" "$gtest/src" "$dir/gtest/"
  cp "$root/scripts/gpu_check/run.sh" "$dir/run.sh"
  chmod +x "$dir/run.sh"
  local kib
  kib=$(du -sk "$dir" | cut -f1)
  if [ "$kib" -ge $((limit_mib * 1024)) ]; then
    echo "gpu-check: the pack is $kib KiB, over $limit_mib MiB" >&2
    exit 1
  fi
  echo "gpu-check: packed $dir ($kib KiB, $(grep -c $'\td$' "$dir/instr/dlfl-probes.map") device sites); on the GPU machine run $dir/run.sh OUTDIR"
}

case "${1:-}" in
  pack) [ $# -eq 2 ] || { echo "usage: $0 pack DIR" >&2; exit 2; }; pack "$2" ;;
  verdict)
    [ $# -eq 3 ] || { echo "usage: $0 verdict DIR OUTDIR" >&2; exit 2; }
    exec python3 "$root/scripts/gpu_check/verdict.py" --dlfl "$(find_dlfl)" "$2" "$3" ;;
  *) echo "usage: $0 pack DIR | verdict DIR OUTDIR   (between them: DIR/run.sh OUTDIR on the GPU machine)" >&2; exit 2 ;;
esac
