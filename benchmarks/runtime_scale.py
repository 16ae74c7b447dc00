#!/usr/bin/python3
"""runtime_scale.py: dlfl's runtime at framework scale, measured in ONE run.

Generates a synthetic C++ project (default: 300 translation units, ~12 probes in each of
40 functions per unit, i.e. ~10^5 probes; 10^4 value-parameterised GoogleTest tests in one
binary, each calling 8 of the functions, the middle one failing), then measures back to back:

  * `dlfl instrument -j1` vs `-j2`: translation units per second;
  * the plain (uninstrumented) run of the test binary vs the instrumented run recording a
    snapshot (DLFL_RT_FILE) vs `dlfl collect --runtime --gtest` (listing, run with the
    listener's failure messages, reading, spectrum written);
  * the snapshot's bytes vs its hit count (target: records <= 2 x hits x 4 + a fixed
    per-test header) and its fixed part;
  * the peak RSS of `dlfl collect` (VmHWM, polled) against the spectrum it wrote.

Usage: /usr/bin/python3 benchmarks/runtime_scale.py [--build DIR] [--work DIR]
           [--units N] [--tests N] [--loop N] [--small]
  --loop   iterations of each generated function's loop (default 2000): how heavy a test is
  --build  dlfl build directory (default: build; dlfl_cli and the runtime are built in it
           when missing)
  --work   where the project and its builds go (default: $DLFL_BENCH_DIR/runtime-scale,
           DLFL_BENCH_DIR defaulting to /tmp/dlfl-bench); regenerated every run
  --small  20 units, 500 tests: a quick check that everything works (minutes less)
Needs cmake, ninja, g++, GoogleTest and libclang (scripts/install-deps.sh is run when one
is missing). Not part of the test suite: it takes several minutes on 2 cores.
"""
import argparse
import os
import resource
import shutil
import struct
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FUNCTIONS_PER_UNIT = 40
CALLS_PER_TEST = 8


def say(text):
    print(text, flush=True)


def run(cmd, **kw):
    kw.setdefault("check", True)
    return subprocess.run(cmd, **kw)


def ensure_tools(build):
    if not all(shutil.which(t) for t in ("cmake", "ninja", "g++")) or not os.path.exists("/usr/include/gtest/gtest.h"):
        run([os.path.join(ROOT, "scripts", "install-deps.sh")])
    dlfl = os.path.join(build, "tools", "dlfl", "dlfl")
    if not os.path.exists(dlfl):
        if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
            run(["cmake", "-S", ROOT, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release"])
        run(["cmake", "--build", build, "-j2", "--target", "dlfl_cli", "dlfl_rt", "dlfl_rt_gtest"])
    return dlfl


def function_body(unit, f):
    return f"""int f_{unit}_{f}(int x) {{
  int acc = x + {unit * 131 + f};
  for (int i = 0; i < (x & 7) + LOOP; ++i) {{
    acc = acc * 31 + i;
    if (acc & 1)
      acc ^= 0x5bd1e995;
    else
      acc += 7;
  }}
  switch (x % 3) {{
    case 0: acc += 1; break;
    case 1: acc -= 2; break;
    default: acc ^= 3;
  }}
  g_sink += acc;
  return acc >> 3;
}}
"""


def generate(src, units, tests, loop):
    if os.path.exists(src):
        shutil.rmtree(src)
    os.makedirs(os.path.join(src, "lib"))
    os.makedirs(os.path.join(src, "tests"))
    names = [f"f_{u}_{f}" for u in range(units) for f in range(FUNCTIONS_PER_UNIT)]
    with open(os.path.join(src, "lib", "scale.h"), "w") as h:
        h.write("#pragma once\nusing Function = int (*)(int);\nextern const Function kFunctions[];\n"
                "extern const int kFunctionCount;\nextern volatile int g_sink;\n")
    for u in range(units):
        with open(os.path.join(src, "lib", f"unit{u}.cpp"), "w") as f:
            f.write(f'#include "scale.h"\n#define LOOP {loop}\n\n')
            for k in range(FUNCTIONS_PER_UNIT):
                f.write(function_body(u, k))
    with open(os.path.join(src, "lib", "table.cpp"), "w") as f:
        f.write('#include "scale.h"\nvolatile int g_sink;\n')
        f.write("".join(f"int {n}(int);\n" for n in names))
        f.write("const Function kFunctions[] = {\n" + ",\n".join(names) + "};\n")
        f.write(f"const int kFunctionCount = {len(names)};\n")
    with open(os.path.join(src, "tests", "scale_test.cpp"), "w") as f:
        f.write(f"""#include <gtest/gtest.h>
#include "scale.h"

class Scale : public ::testing::TestWithParam<int> {{}};

TEST_P(Scale, Run) {{
  const int k = GetParam();
  int acc = 0;
  for (unsigned j = 0; j < {CALLS_PER_TEST}; ++j)
    acc += kFunctions[(k * 7919u + j * 104729u) % static_cast<unsigned>(kFunctionCount)](k + static_cast<int>(j));
  if (k == {tests // 2}) EXPECT_EQ(acc, acc + 1) << "the seeded failure";
}}

INSTANTIATE_TEST_SUITE_P(All, Scale, ::testing::Range(0, {tests}));
""")
    with open(os.path.join(src, "CMakeLists.txt"), "w") as f:
        f.write("""cmake_minimum_required(VERSION 3.25)
project(scale CXX)
find_package(GTest REQUIRED)
file(GLOB units lib/*.cpp)
add_library(scale STATIC ${units})
target_include_directories(scale PUBLIC lib)
add_executable(scale_tests tests/scale_test.cpp)
target_link_libraries(scale_tests PRIVATE scale GTest::gtest GTest::gtest_main)
""")


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmd, **kw):
    """Wall seconds of `cmd`; with cpu=True (wall, CPU seconds of it and its children)."""
    want_cpu = kw.pop("cpu", False)
    start, cpu = time.monotonic(), children_cpu()
    run(cmd, **kw)
    wall = time.monotonic() - start
    return (wall, children_cpu() - cpu) if want_cpu else wall


def cmake_build(src, build, cxx_flags="", linker_flags=""):
    run(["cmake", "-S", src, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
         "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", f"-DCMAKE_CXX_FLAGS={cxx_flags}",
         f"-DCMAKE_EXE_LINKER_FLAGS={linker_flags}"], stdout=subprocess.DEVNULL)
    run(["cmake", "--build", build, "-j2"], stdout=subprocess.DEVNULL)


def snapshot_stats(path):
    """(file bytes, fixed bytes, record bytes, tests, hits, per-test header bytes)."""
    data = open(path, "rb").read()
    header = struct.Struct("<8sIIQQiIIIQQQQQ")  # dlfl_rt_file_header, version 2
    record = struct.Struct("<IIiIQQIIQQ8x")      # dlfl_rt_record_header
    fields = header.unpack_from(data, 0)
    if fields[0] != b"DLFLRT02":
        sys.exit(f"runtime_scale: {path}: not a version 2 snapshot")
    records, end = fields[12], fields[13]
    at, tests, hits, headers = records, 0, 0, 0
    while at < end:
        _, _, _, _, _, _, name_len, _, payload, hit_count = record.unpack_from(data, at)
        name = (name_len + 7) // 8 * 8
        at += record.size + name + (payload + 7) // 8 * 8
        tests += 1
        hits += hit_count
        headers += record.size + name
    return len(data), records, end - records, tests, hits, headers


def peak_rss_run(cmd):
    """Runs `cmd`; returns (seconds, CPU seconds with its children, peak RSS in bytes of that
    process: VmHWM, polled)."""
    start, cpu = time.monotonic(), children_cpu()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    peak = 0
    while p.poll() is None:
        try:
            with open(f"/proc/{p.pid}/status") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        peak = max(peak, int(line.split()[1]) * 1024)
        except OSError:
            pass
        time.sleep(0.02)
    seconds = time.monotonic() - start
    if p.returncode != 0:
        sys.exit(f"runtime_scale: {' '.join(cmd)} failed ({p.returncode})")
    return seconds, children_cpu() - cpu, peak


def mib(n):
    return f"{n / 2**20:.1f} MiB"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--work", default=os.path.join(os.environ.get("DLFL_BENCH_DIR", "/tmp/dlfl-bench"),
                                                   "runtime-scale"))
    ap.add_argument("--units", type=int, default=300)
    ap.add_argument("--tests", type=int, default=10000)
    ap.add_argument("--loop", type=int, default=2000, help="loop iterations per function call: the tests' weight")
    ap.add_argument("--small", action="store_true")
    ap.add_argument("--runs", type=int, default=5, help="alternating runs of each timing; the best is kept")
    a = ap.parse_args()
    if a.small:
        a.units, a.tests = 20, 500
    dlfl = ensure_tools(os.path.abspath(a.build))
    work = os.path.abspath(a.work)
    src, plain, instr = (os.path.join(work, d) for d in ("src", "build-plain", "instr"))
    os.makedirs(work, exist_ok=True)
    say(f"# generating {a.units} units x {FUNCTIONS_PER_UNIT} functions, {a.tests} tests in {src}")
    generate(src, a.units, a.tests, a.loop)
    say("# building the plain project")
    cmake_build(src, plain)

    units = a.units + 2  # + table.cpp and the test file
    times = {}
    for jobs in (1, 2):
        out = f"{instr}-j{jobs}"
        if os.path.exists(out):
            shutil.rmtree(out)
        times[jobs] = timed([dlfl, "instrument", "-p", plain, "--root", src, "--out", out, "--exclude", "tests/",
                             "-j", str(jobs), "-q"], stdout=subprocess.DEVNULL)
    if os.path.exists(instr):
        shutil.rmtree(instr)
    os.rename(f"{instr}-j2", instr)
    shutil.rmtree(f"{instr}-j1")
    probe_map = os.path.join(instr, "dlfl-probes.map")
    probes = next(int(l.split("\t")[1]) for l in open(probe_map) if l.startswith("probes\t"))

    say("# building the instrumented project")
    cflags = run([dlfl, "config", "--cflags"], capture_output=True, text=True).stdout.strip()
    libs = run([dlfl, "config", "--libs", "--gtest"], capture_output=True, text=True).stdout.strip()
    instr_build = os.path.join(instr, "build")
    cmake_build(instr, instr_build, cflags, libs)

    # Back to back, alternating (plain run, instrumented run recording a snapshot, dlfl
    # collect) --runs times, each keeping its best wall and best CPU time: on a shared
    # machine the least disturbed run of each is the comparable one. The peak RSS comes
    # from one more collection, polled, whose own times are not used (polling every 20 ms
    # would round its wall time up).
    plain_bin = os.path.join(plain, "scale_tests")
    instr_bin = os.path.join(instr_build, "scale_tests")
    snapshot = os.path.join(work, "run.map")
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "check": False}
    env = dict(os.environ, DLFL_RT_FILE=snapshot)
    spectrum = os.path.join(work, "scale.dlfl")
    collect_cmd = [dlfl, "collect", "--runtime", "--gtest", instr_bin, "--probe-map", probe_map, "-q", "-o", spectrum]
    inf = float("inf")
    plain_s = plain_cpu = instr_s = instr_cpu = collect_s = collect_cpu = inf
    for _ in range(a.runs):
        w, c = timed([plain_bin], cpu=True, **quiet)
        plain_s, plain_cpu = min(plain_s, w), min(plain_cpu, c)
        w, c = timed([instr_bin], env=env, cpu=True, **quiet)
        instr_s, instr_cpu = min(instr_s, w), min(instr_cpu, c)
        w, c = timed(collect_cmd, cpu=True, stdout=subprocess.DEVNULL)
        collect_s, collect_cpu = min(collect_s, w), min(collect_cpu, c)
    _, _, peak = peak_rss_run(collect_cmd)
    size, fixed, record_bytes, tests, hits, headers = snapshot_stats(snapshot)

    say(f"# {time.strftime('%Y-%m-%d %H:%M')} on {os.uname().nodename}, {os.cpu_count()} cores, "
        f"load {os.getloadavg()[0]:.1f}")
    say(f"project: {a.units} units, {probes} probes, {a.tests} tests x {CALLS_PER_TEST} calls")
    say(f"instrument: {units} TUs, -j1 {times[1]:.1f} s ({units / times[1]:.1f} TUs/s), -j2 {times[2]:.1f} s "
        f"({units / times[2]:.1f} TUs/s), speedup {times[1] / times[2]:.2f}x")
    say(f"best of {a.runs} alternating runs each:")
    say(f"plain run {plain_s:.3f} s; instrumented run (recording) {instr_s:.3f} s = {instr_s / plain_s:.2f}x; "
        f"dlfl collect --runtime {collect_s:.3f} s = {collect_s / plain_s:.2f}x plain (target <= 1.2x)")
    say(f"  CPU (the stable number on a busy machine): plain {plain_cpu:.3f} s; instrumented {instr_cpu:.3f} s = "
        f"{instr_cpu / plain_cpu:.2f}x; collect (with its test process) {collect_cpu:.3f} s = "
        f"{collect_cpu / plain_cpu:.2f}x; per test {1e6 * plain_cpu / a.tests:.0f} us plain, "
        f"{1e6 * (collect_cpu - plain_cpu) / a.tests:.0f} us added by collection "
        f"({1e6 * (collect_cpu - instr_cpu) / a.tests:.0f} us over the instrumented run)")
    payload = record_bytes - headers
    verdict = "met" if record_bytes <= 2 * hits * 4 + headers else "MISSED"
    say(f"snapshot: {tests} tests, {hits} hits: records {record_bytes} B = payload {payload} B "
        f"({payload / max(hits * 4, 1):.2f} x hits x 4) + per-test headers {headers} B (64 B + name); "
        f"target records <= 2 x hits x 4 + headers: {verdict}; file {size} B incl. a fixed {fixed} B "
        f"(one byte map per test would take {tests * probes} B)")
    say(f"peak RSS of dlfl collect: {mib(peak)}; spectrum {mib(os.path.getsize(spectrum))}, "
        f"snapshot {mib(size)}")


if __name__ == "__main__":
    main()
