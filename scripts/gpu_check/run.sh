#!/usr/bin/env bash
# The GPU half of scripts/gpu-check.sh, copied into the pack as run.sh:
#   run.sh OUTDIR             build for this machine's GPU, run, write the results to OUTDIR
#   run.sh OUTDIR --build-only  build only (any machine with nvcc: the CI check)
# Needs nvcc and the C/C++ compilers nvcc uses; no CMake, no packages, no network. OUTDIR
# gets at most 7 flat files: run.log, summary.txt, bench.txt, correct.rt, fault.rt,
# trap.rt, trap.log (scripts/gpu-check.sh verdict reads them).
set -u
pack=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: run.sh OUTDIR [--build-only]}
mode=${2:-run}
mkdir -p "$out" && out=$(cd "$out" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/gpu-check.XXXXXX")
log=$out/run.log
summary=$out/summary.txt
: >"$log"
: >"$summary"
say() { echo "$*" | tee -a "$log"; }
note() { echo "$1=$2" >>"$summary"; }
fail() {
  say "gpu-check: $*"
  note status "failed: $*"
  exit 1
}
# Runs "$@" under a limit of $1 seconds when coreutils' timeout exists.
limited() {
  local limit=$1
  shift
  if command -v timeout >/dev/null; then timeout "$limit" "$@"; else "$@"; fi
}

say "== machine"
nvcc=${NVCC:-}
for candidate in nvcc "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" /usr/local/cuda/bin/nvcc; do
  [ -z "$nvcc" ] && command -v "$candidate" >/dev/null && nvcc=$(command -v "$candidate")
done
[ -n "$nvcc" ] || fail "no nvcc (set NVCC=/path/to/nvcc)"
{ "$nvcc" --version | tail -2; nvidia-smi -L 2>&1 || echo "nvidia-smi: none";
  if command -v cmake >/dev/null; then cmake --version | head -1; else echo "cmake: none (not needed)"; fi
  uname -m; nproc; } | tee -a "$log"
cc=${CC:-}
for candidate in cc gcc clang; do [ -z "$cc" ] && command -v "$candidate" >/dev/null && cc=$candidate; done
cxx=${CXX:-}
for candidate in g++ c++ clang++; do [ -z "$cxx" ] && command -v "$candidate" >/dev/null && cxx=$candidate; done
[ -n "$cxx" ] || fail "no C++ compiler for GoogleTest"
# The GPU's own architecture (9.0 -> sm_90); nvcc's -arch=native when nvidia-smi cannot say.
arch=${GPU_CHECK_ARCH:-}
if [ -z "$arch" ]; then
  cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' .')
  arch=${cap:+sm_$cap}
  arch=${arch:-native}
fi
note nvcc "$("$nvcc" --version | tail -1)"
note gpu "$(nvidia-smi -L 2>/dev/null | head -1)"
note arch "$arch"
note probe_count "$(sed -n 's/^#define DLFL_RT_PROBE_COUNT \([0-9]*\).*/\1/p' "$pack/instr/kernels.cu" | head -1)"
note cuda_units 1
say "nvcc=$nvcc cc=${cc:-none} cxx=$cxx arch=$arch"

say "== build"
start=$(date +%s)
nv=("$nvcc" -O2 -std=c++17 "-arch=$arch" -I"$pack/rt/include")
gt=(-I"$pack/gtest/include" -I"$pack/gtest")
pids=()
build() { "$@" >>"$log" 2>&1 & pids+=($!); }
if [ -n "$cc" ]; then
  build "$cc" -O2 -std=c11 -fPIC -I"$pack/rt/include" -c "$pack/rt/src/dlfl_rt.c" -o "$work/dlfl_rt.o"
else
  build "$nvcc" -x c -O2 -I"$pack/rt/include" -c "$pack/rt/src/dlfl_rt.c" -o "$work/dlfl_rt.o"
fi
build "$cxx" -O1 -std=c++17 -pthread "${gt[@]}" -c "$pack/gtest/src/gtest-all.cc" -o "$work/gtest-all.o"
build "$cxx" -O1 -std=c++17 -pthread "${gt[@]}" -c "$pack/gtest/src/gtest_main.cc" -o "$work/gtest_main.o"
build "$cxx" -O2 -std=c++17 "${gt[@]}" -I"$pack/rt/include" -c "$pack/rt/src/dlfl_rt_gtest_listener.cpp" -o "$work/listener.o"
build "${nv[@]}" -I"$pack/instr" -c "$pack/instr/kernels.cu" -o "$work/kernels_instr.o"
build "${nv[@]}" -I"$pack/plain" -c "$pack/plain/kernels.cu" -o "$work/kernels_plain.o"
build "${nv[@]}" "${gt[@]}" -I"$pack/plain" -c "$pack/plain/gpu_check_test.cpp" -o "$work/test.o"
build "${nv[@]}" -I"$pack/plain" -c "$pack/plain/bench.cu" -o "$work/bench.o"
for pid in "${pids[@]}"; do wait "$pid" || fail "a compile failed (see run.log)"; done
link=("$nvcc" "-arch=$arch")
"${link[@]}" -o "$work/gpu_check_tests" "$work/test.o" "$work/kernels_instr.o" "$work/listener.o" \
  "$work/gtest-all.o" "$work/gtest_main.o" "$work/dlfl_rt.o" -lpthread >>"$log" 2>&1 || fail "linking the tests failed"
"${link[@]}" -o "$work/bench_plain" "$work/bench.o" "$work/kernels_plain.o" >>"$log" 2>&1 || fail "linking bench_plain failed"
"${link[@]}" -o "$work/bench_instr" "$work/bench.o" "$work/kernels_instr.o" "$work/dlfl_rt.o" -lpthread >>"$log" 2>&1 ||
  fail "linking bench_instr failed"
note build_s $(($(date +%s) - start))
say "built in $(($(date +%s) - start)) s: gpu_check_tests bench_plain bench_instr"
if [ "$mode" = --build-only ]; then
  # Without a GPU every test skips; the run still proves the runtime and the listener link.
  (cd "$work" && DLFL_RT_FILE="$out/build-only.rt" ./gpu_check_tests >>"$log" 2>&1) || fail "the test binary failed to run"
  note status built
  rm -rf "$work"
  exit 0
fi

say "== tests (runtime snapshots)"
cd "$work" || fail "no work directory"
# The trap test runs alone in its own process: after it the CUDA context is unusable.
DLFL_RT_FILE="$out/correct.rt" limited 300 ./gpu_check_tests --gtest_filter=-DeviceTrap.* >>"$log" 2>&1
note correct_exit $?
GPU_CHECK_FAULT=window_bound DLFL_RT_FILE="$out/fault.rt" limited 300 ./gpu_check_tests --gtest_filter=-DeviceTrap.* >>"$log" 2>&1
note fault_exit $?
GPU_CHECK_TRAP=1 DLFL_RT_FILE="$out/trap.rt" limited 120 ./gpu_check_tests --gtest_filter=DeviceTrap.* >"$out/trap.log" 2>&1
note trap_exit $?
cat "$out/trap.log" >>"$log"

say "== overhead (cudaEvents, us per launch; plain and instrumented alternate)"
: >"$out/bench.txt"
for _ in 1 2 3; do
  for variant in plain instr; do
    ./bench_$variant >"$work/bench.out" 2>>"$log" || { note bench "bench_$variant failed"; continue; }
    sed "s/^/$variant /" "$work/bench.out" >>"$out/bench.txt"
  done
done
cat "$out/bench.txt" >>"$log"
note status ran
say "done in $(($(date +%s) - start)) s: results in $out"
cd / && rm -rf "$work"
