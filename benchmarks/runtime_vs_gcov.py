#!/usr/bin/env python3
"""runtime_vs_gcov.py: the runtime's two performance targets on the tensorlite suite.

  1. instrumented run / uninstrumented run of the whole suite (both -O2)   target <= 1.5
  2. per-test gcov collection / runtime collection (both -O0)               target >= 10

Usage:
  cmake -S . -B build -G Ninja -DDLFL_BUILD_BENCHMARKS=ON
  cmake --build build --target dlfl_cli dlfl_rt dlfl_rt_gtest
  benchmarks/runtime_vs_gcov.py --build build [--work /tmp/dlfl-rt-bench] [--repeat 5] [--jobs 1]
                                [--fault slice_offset]

Builds examples/tensorlite four times under --work (kept, rebuilt incrementally): plain
-O2, the `dlfl instrument` tree at -O2 and -O0, and a gcov (--coverage -O0) build, all
with one seeded fault (so that some tests fail, as in a real localization).
Per-test gcov collection is `dlfl collect --gtest ... --coverage gcov -j JOBS`; runtime
collection is `dlfl collect --runtime --gtest ...` (one run of the binary). Wall times;
the overhead ratio uses the median of --repeat runs. Standard library only.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TENSORLITE = os.path.join(os.path.dirname(HERE), "examples", "tensorlite")


def run(cmd, **kw):
    """Runs a shell command, failing loudly with its output."""
    r = subprocess.run(cmd, shell=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)
    if r.returncode != 0:
        sys.exit(f"runtime_vs_gcov: command failed ({r.returncode}): {cmd}\n{r.stdout[-4000:]}")
    return r.stdout


def timed(cmd, env=None):
    start = time.monotonic()
    subprocess.run(cmd, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    return time.monotonic() - start


def build(source, build_dir, fault, cxx_flags="", linker_flags="", build_type=""):
    if not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")):
        run(f"cmake -S {source} -B {build_dir} -G Ninja -DCMAKE_BUILD_TYPE={build_type} -DTENSORLITE_FAULT={fault} "
            f"-DCMAKE_CXX_FLAGS='{cxx_flags}' -DCMAKE_EXE_LINKER_FLAGS='{linker_flags}'")
    run(f"cmake --build {build_dir} -j2")
    return os.path.join(build_dir, "tensorlite_tests")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", required=True, help="dlfl build directory")
    ap.add_argument("--work", default="/tmp/dlfl-rt-bench", help="where the tensorlite builds go")
    ap.add_argument("--repeat", type=int, default=5, help="runs per binary for the overhead ratio")
    ap.add_argument("--jobs", type=int, default=1, help="parallel tests for the gcov collection")
    ap.add_argument("--fault", default="slice_offset", help="seeded fault (examples/tensorlite/faults/faults.json)")
    a = ap.parse_args()
    dlfl = os.path.abspath(os.path.join(a.build, "tools", "dlfl", "dlfl"))
    if not os.access(dlfl, os.X_OK):
        sys.exit(f"runtime_vs_gcov: {dlfl} not built (see --help)")
    w = os.path.abspath(a.work)
    os.makedirs(w, exist_ok=True)
    cflags = run(f"{dlfl} config --cflags").strip()
    libs = run(f"{dlfl} config --libs --gtest").strip()

    print("building tensorlite (plain -O2, gcov -O0, instrumented -O2 and -O0) ...", file=sys.stderr)
    plain = build(TENSORLITE, os.path.join(w, "plain-O2"), a.fault, build_type="Release")
    gcov = build(TENSORLITE, os.path.join(w, "gcov-O0"), a.fault, "-O0 --coverage", "--coverage")
    tree = os.path.join(w, "instrumented")
    if not os.path.exists(os.path.join(tree, "dlfl-probes.map")):
        run(f"{dlfl} instrument -q -p {os.path.join(w, 'plain-O2')} --root {TENSORLITE} --out {tree} --exclude tests/")
    probe_map = os.path.join(tree, "dlfl-probes.map")
    instr_o2 = build(tree, os.path.join(w, "instr-O2"), a.fault, cflags, libs, build_type="Release")
    instr_o0 = build(tree, os.path.join(w, "instr-O0"), a.fault, f"-O0 {cflags}", libs)

    # 1. Overhead of the probes and per-test snapshots on one whole-suite run.
    snapshot = os.path.join(w, "overhead.map")
    env = dict(os.environ, DLFL_RT_FILE=snapshot)
    timed(plain), timed(instr_o2, env)  # warm the page cache
    plain_t, instr_t = [], []
    for _ in range(a.repeat):
        plain_t.append(timed(plain))
        if os.path.exists(snapshot):
            os.remove(snapshot)
        instr_t.append(timed(instr_o2, env))
    overhead = statistics.median(instr_t) / statistics.median(plain_t)

    # 2. Collection: every test alone under gcov vs one runtime run.
    gcov_t = timed(f"{dlfl} collect --gtest {gcov} --coverage gcov -j {a.jobs} --quiet -o {w}/gcov.dlfl")
    if not os.path.exists(f"{w}/gcov.dlfl"):
        sys.exit("runtime_vs_gcov: the gcov collection wrote no spectrum: run it by hand to see why:\n  "
                 f"{dlfl} collect --gtest {gcov} --coverage gcov -j {a.jobs} -o {w}/gcov.dlfl")
    runtime = f"{dlfl} collect --runtime --probe-map {probe_map} --quiet --gtest"
    runtime_t = timed(f"{runtime} {instr_o0} -o {w}/runtime.dlfl")
    if not os.path.exists(f"{w}/runtime.dlfl"):
        sys.exit("runtime_vs_gcov: the runtime collection wrote no spectrum: run it by hand to see why:\n  "
                 f"{runtime} {instr_o0} -o {w}/runtime.dlfl")
    runtime_o2_t = timed(f"{runtime} {instr_o2} -o {w}/runtime-O2.dlfl")
    tests = run(f"{plain} --gtest_list_tests").count("\n  ")

    print(f"tensorlite suite: {tests} tests, fault {a.fault}, median of {a.repeat} runs")
    print(f"  uninstrumented run (-O2)      {statistics.median(plain_t):8.3f} s")
    print(f"  instrumented run (-O2)        {statistics.median(instr_t):8.3f} s")
    print(f"  overhead ratio                {overhead:8.2f}x   (target <= 1.5)")
    print(f"  per-test gcov collection      {gcov_t:8.3f} s   (-O0, -j {a.jobs})")
    print(f"  runtime collection            {runtime_t:8.3f} s   (-O0, one run; -O2: {runtime_o2_t:.3f} s)")
    print(f"  collection speed-up           {gcov_t / runtime_t:8.1f}x   (target >= 10)")
    ok = overhead <= 1.5 and gcov_t / runtime_t >= 10
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
