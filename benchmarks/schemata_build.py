#!/usr/bin/env python3
"""schemata_build.py: what mutation-based localization costs on the tensorlite suite.

  compile time of the mutant-schemata tree / compile time of the plain tree   target <= 1.5

Usage:
  cmake -S . -B build -G Ninja && cmake --build build --target dlfl_cli
  benchmarks/schemata_build.py --build build [--work /tmp/dlfl-schemata-bench] [--repeat 3]
                               [--fault adam_bias_correction] [--budget 200] [--per-line 10]

Builds examples/tensorlite with gcov (-O0) and one seeded fault, collects its spectrum, and
runs `dlfl kill-matrix` with the given budget (mutants of the top lines compiled into one
tree, OUT/tree). Then compiles the plain source and the schemata tree from scratch, the
same way (-O0, Ninja, -j2, no ccache), alternating, --repeat times each, and prints the
median compile times and their ratio, with the kill matrix's cost: mutants generated,
compiled in and dropped, test runs, and the kill-matrix command's wall time (its build
and runs). Standard library only; needs cmake, ninja, g++ and gcov (Debian: cmake
ninja-build g++ gcc), which it installs with apt-get when missing and run as root.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TENSORLITE = os.path.join(os.path.dirname(HERE), "examples", "tensorlite")


def run(cmd, env=None):
    """Runs a shell command, failing loudly with its output."""
    r = subprocess.run(cmd, shell=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    if r.returncode != 0:
        sys.exit(f"schemata_build: command failed ({r.returncode}): {cmd}\n{r.stdout[-4000:]}")
    return r.stdout


def ensure_tools():
    missing = [p for t, p in (("cmake", "cmake"), ("ninja", "ninja-build"), ("g++", "g++"), ("gcov", "gcc"))
               if shutil.which(t) is None]
    if not missing:
        return
    if os.geteuid() != 0:
        sys.exit(f"schemata_build: needs {' '.join(missing)} (apt-get install -y {' '.join(missing)})")
    run(f"apt-get install -y {' '.join(missing)}")


def gcov_spectrum(dlfl, flags, gcov, spectrum, launcher=""):
    """Builds tensorlite's tests with gcov (-O0) in `gcov` and collects the whole suite's
    spectrum into `spectrum`."""
    run(f"cmake -S {TENSORLITE} -B {gcov} -G Ninja {flags}{launcher} '-DCMAKE_CXX_FLAGS=-O0 --coverage' "
        f"-DCMAKE_EXE_LINKER_FLAGS=--coverage >/dev/null && cmake --build {gcov} -j2 --target tensorlite_tests "
        ">/dev/null")
    run(f"{dlfl} collect -q -j2 --gtest {gcov}/tensorlite_tests --source-root {TENSORLITE} --exclude 'tests/*' "
        f"-o {spectrum}")


def kill_matrix(dlfl, flags, gcov, spectrum, out, budget, per_line, extra="", launcher=""):
    """`dlfl kill-matrix` on the spectrum (its schemata tree built -O0 in OUT/build);
    returns its wall time in seconds."""
    build = (f"cmake -S {{tree}} -B {{out}}/build -G Ninja {flags}{launcher} -DCMAKE_CXX_FLAGS=-O0 >/dev/null && "
             "cmake --build {out}/build -j2 --target tensorlite_tests >/dev/null")
    start = time.monotonic()
    run(f"{dlfl} kill-matrix -q -j2 --budget {budget} --per-line {per_line} -s {spectrum} -p {gcov} "
        f"--root {TENSORLITE} -o {out} {extra} --build '{build}' --gtest '{{out}}/build/tensorlite_tests'")
    return time.monotonic() - start


def journal_runs(out):
    """(test runs, of them the original program's) in OUT/kill-journal.jsonl."""
    runs = original_runs = 0
    with open(os.path.join(out, "kill-journal.jsonl")) as journal:
        for line in journal:
            entry = json.loads(line) if line.strip() else {}
            if "m" in entry:
                runs += 1
                original_runs += entry["m"] == 0
    return runs, original_runs


def compile_seconds(source, build_dir, flags):
    """A fresh configure (not timed) and a from-scratch build (timed) of the test binary."""
    shutil.rmtree(build_dir, ignore_errors=True)
    env = dict(os.environ, CCACHE_DISABLE="1")
    run(f"cmake -S {source} -B {build_dir} -G Ninja {flags}", env)
    start = time.monotonic()
    run(f"cmake --build {build_dir} -j2 --target tensorlite_tests", env)
    return time.monotonic() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", required=True, help="dlfl build directory")
    ap.add_argument("--work", default="/tmp/dlfl-schemata-bench", help="where the builds go (replaced)")
    ap.add_argument("--repeat", type=int, default=3, help="from-scratch builds of each tree")
    ap.add_argument("--fault", default="adam_bias_correction", help="seeded fault (examples/tensorlite/faults)")
    ap.add_argument("--budget", type=int, default=200, help="kill-matrix --budget (mutants)")
    ap.add_argument("--per-line", type=int, default=10, help="kill-matrix --per-line")
    a = ap.parse_args()
    ensure_tools()
    dlfl = os.path.abspath(os.path.join(a.build, "tools", "dlfl", "dlfl"))
    if not os.access(dlfl, os.X_OK):
        sys.exit(f"schemata_build: {dlfl} not built (see --help)")
    w = os.path.abspath(a.work)
    shutil.rmtree(w, ignore_errors=True)
    os.makedirs(w)
    flags = f"-DCMAKE_BUILD_TYPE= -DTENSORLITE_WARNINGS=OFF -DTENSORLITE_FAULT={a.fault}"

    print("building tensorlite with gcov and collecting its spectrum ...", file=sys.stderr)
    gcov = os.path.join(w, "gcov")
    spectrum = os.path.join(w, "sfl.dlfl")
    gcov_spectrum(dlfl, flags, gcov, spectrum)
    print(f"dlfl kill-matrix --budget {a.budget} --per-line {a.per_line} ...", file=sys.stderr)
    out = os.path.join(w, "mbfl")
    kill_matrix_s = kill_matrix(dlfl, flags, gcov, spectrum, out, a.budget, a.per_line, "--regenerate")
    manifest = json.load(open(os.path.join(out, "mutants.json")))
    runs, original_runs = journal_runs(out)

    print(f"compiling both trees from scratch, {a.repeat} times each ...", file=sys.stderr)
    plain_t, schemata_t = [], []
    for _ in range(a.repeat):
        plain_t.append(compile_seconds(TENSORLITE, os.path.join(w, "plain"), flags + " -DCMAKE_CXX_FLAGS=-O0"))
        schemata_t.append(compile_seconds(os.path.join(out, "tree"), os.path.join(w, "schemata"),
                                          flags + " -DCMAKE_CXX_FLAGS=-O0"))
    plain, schemata = statistics.median(plain_t), statistics.median(schemata_t)
    ratio = schemata / plain
    load = os.getloadavg()[0]
    print(f"tensorlite, fault {a.fault}, budget {a.budget}, {a.per_line} a line; load {load:.1f}")
    print(f"  mutants generated              {manifest['generated']:8d}")
    print(f"  compiled into the schemata     {len(manifest['mutants']):8d}   (dropped: "
          f"{manifest['dropped_uncompilable']} do not compile, {manifest['dropped_unguardable']} have no place "
          "for a switch)")
    print(f"  test runs                      {runs:8d}   ({original_runs} of them the original program's, "
          "each test twice)")
    print(f"  kill-matrix wall time          {kill_matrix_s:8.1f} s   (generation, one build, the runs)")
    print(f"  plain compile (median of {a.repeat})    {plain:8.1f} s   {' '.join(f'{t:.1f}' for t in plain_t)}")
    print(f"  schemata compile (median of {a.repeat}) {schemata:8.1f} s   {' '.join(f'{t:.1f}' for t in schemata_t)}")
    print(f"  schemata / plain               {ratio:8.2f}x   (target <= 1.5)")
    return 0 if ratio <= 1.5 else 1


if __name__ == "__main__":
    sys.exit(main())
