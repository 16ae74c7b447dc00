#!/usr/bin/python3
"""incremental_instrument.py: instrument + rebuild after a one-line edit vs a plain rebuild.

Generates a CMake project (--units translation units of --functions functions each, a
program calling them all), builds it plain, instruments it with `dlfl instrument` and
builds the instrumented copy with the runtime. Then, --repeat times, edits one line of
one unit (a statement added, so its probes change) and times back to back:

  plain         cmake --build PLAIN (ninja rebuilds the edited unit and links)
  instrumented  dlfl instrument into the same tree + cmake --build INSTR/build

and counts the objects each rebuild compiled. Prints the best times, the ratio
instrumented/plain, and, for reference, a full rebuild of the instrumented tree (what
every edit cost while each instrumented file carried the probe count of the whole run).

Usage: /usr/bin/python3 benchmarks/incremental_instrument.py [--dlfl DLFL] [--units N]
           [--functions N] [--repeat N] [--work DIR] [-j N]
Needs cmake, ninja, g++ and a dlfl built with the instrumenter (default: build/tools/dlfl/dlfl).
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

UNIT = '''\
#include "common.h"
{functions}
'''
FUNCTION = '''\
int f{u}_{k}(int x) {{
  int acc = 0;
  for (int i = 0; i < x; ++i) {{
    if ((i + {k}) % 3 == 0) acc += i;
    else acc -= scale(i);
  }}
  return acc;
}}
'''


def write_project(src, units, functions):
    os.makedirs(os.path.join(src, "src"))
    with open(os.path.join(src, "src", "common.h"), "w") as f:
        f.write("#pragma once\ninline int scale(int x) {\n  return 2 * x;\n}\n")
    calls = []
    for u in range(units):
        body = "".join(FUNCTION.format(u=u, k=k) for k in range(functions))
        with open(os.path.join(src, "src", "unit%d.cpp" % u), "w") as f:
            f.write(UNIT.format(functions=body))
        calls += ["f%d_%d" % (u, k) for k in range(functions)]
    with open(os.path.join(src, "src", "main.cpp"), "w") as f:
        f.write("".join("int %s(int);\n" % c for c in calls))
        f.write("int main() {\n  int s = 0;\n" + "".join("  s += %s(5);\n" % c for c in calls) +
                "  return s == 12345;\n}\n")
    with open(os.path.join(src, "CMakeLists.txt"), "w") as f:
        f.write("cmake_minimum_required(VERSION 3.16)\nproject(synth CXX)\n"
                "file(GLOB sources src/*.cpp)\nadd_executable(synth ${sources})\n")


def run(argv, **kwargs):
    r = subprocess.run(argv, capture_output=True, text=True, **kwargs)
    if r.returncode != 0:
        sys.exit("incremental_instrument: %s failed:\n%s%s" % (" ".join(argv), r.stdout[-3000:], r.stderr[-3000:]))
    return r


def timed(argv, **kwargs):
    start = time.perf_counter()
    r = run(argv, **kwargs)
    return time.perf_counter() - start, r.stdout.count("Building CXX object")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dlfl", default=os.path.join(ROOT, "build", "tools", "dlfl", "dlfl"))
    parser.add_argument("--units", type=int, default=40)
    parser.add_argument("--functions", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("-j", type=int, default=2, help="build and instrument jobs")
    parser.add_argument("--work", default=os.path.join(os.environ.get("DLFL_BENCH_DIR", "/tmp/dlfl-bench"),
                                                       "incremental-instrument"))
    args = parser.parse_args()
    dlfl = os.path.abspath(args.dlfl)
    shutil.rmtree(args.work, ignore_errors=True)
    src, plain, instr = (os.path.join(args.work, d) for d in ("src", "plain", "instr"))
    write_project(src, args.units, args.functions)
    jobs = ["--", "-j", str(args.j)]
    run(["cmake", "-S", src, "-B", plain, "-G", "Ninja", "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON",
         "-DCMAKE_BUILD_TYPE=Release"])
    run(["cmake", "--build", plain] + jobs)
    instrument = [dlfl, "instrument", "-p", plain, "--root", src, "--out", instr, "-j", str(args.j), "--quiet"]
    run(instrument)
    cflags = run([dlfl, "config", "--cflags"]).stdout.strip()
    libs = run([dlfl, "config", "--libs"]).stdout.strip()
    run(["cmake", "-S", instr, "-B", os.path.join(instr, "build"), "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
         "-DCMAKE_CXX_FLAGS=" + cflags, "-DCMAKE_EXE_LINKER_FLAGS=" + libs])
    build_instr = ["cmake", "--build", os.path.join(instr, "build")] + jobs
    full, full_objects = float("inf"), 0
    for _ in range(1):
        run(["cmake", "--build", os.path.join(instr, "build"), "--target", "clean"])
        full, full_objects = timed(build_instr)

    best = {"plain": (float("inf"), 0), "instrumented": (float("inf"), 0)}
    edited = os.path.join(src, "src", "unit%d.cpp" % (args.units // 2))
    for r in range(args.repeat):
        with open(edited) as f:
            text = f.read()
        with open(edited, "w") as f:  # one line: a statement more in the first function
            f.write(text.replace("  int acc = 0;\n", "  int acc = 0;\n  acc += %d;\n" % (r + 1), 1))
        plain_time = timed(["cmake", "--build", plain] + jobs)
        start = time.perf_counter()
        run(instrument)
        instrument_time = time.perf_counter() - start
        build_time, objects = timed(build_instr)
        instrumented = (instrument_time + build_time, objects)
        best["plain"] = min(best["plain"], plain_time)
        best["instrumented"] = min(best["instrumented"], instrumented)
        print("edit %d: plain %.2f s (%d objects); instrument %.2f s + build %.2f s (%d objects)"
              % (r + 1, plain_time[0], plain_time[1], instrument_time, build_time, objects))
    print("# %d units x %d functions, -j %d, best of %d" % (args.units, args.functions, args.j, args.repeat))
    print("plain rebuild: %.2f s (%d objects)" % best["plain"])
    print("instrument + rebuild: %.2f s (%d objects)" % best["instrumented"])
    print("full instrumented rebuild (for reference): %.2f s (%d objects)" % (full, full_objects))
    print("ratio instrumented/plain: %.2fx" % (best["instrumented"][0] / best["plain"][0]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
