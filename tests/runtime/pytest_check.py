#!/usr/bin/env python3
"""examples/pytest_conftest/conftest.py under a real pytest, on a real instrumented extension.

Usage: pytest_check.py --dlfl DLFL --rt-lib LIBDLFL_RT_SO --cxx CXX [--pytest PYTEST]

Instruments pytest_ext/tinyext.cpp with `dlfl instrument`, builds it as a shared library
with $(dlfl config ...), runs pytest_ext/test_tinyext.py under the example conftest with
DLFL_RT_FILE set, and checks the snapshot file: one slot per pytest node id in run order,
the right outcome for each, and per test exactly the `@name` lines of tinyext.cpp it
reached (via the probe map). Then turns the snapshot into a spectrum with
`dlfl collect --runtime --snapshot` and checks its tests, outcomes and covered lines; runs
pytest_ext/test_crash.py (a test that aborts the interpreter) and checks that its test is
kept as a crashed failing test with its partial coverage, both snapshots merged in one
spectrum, and a probe map of another tree refused. Exits 77 (a CTest skip) with the
reason when pytest or the instrumenter is not available.
"""
import argparse
import csv
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CONFTEST = os.path.join(HERE, "..", "..", "examples", "pytest_conftest", "conftest.py")
SKIP = 77

HEADER = struct.Struct("<8sIIQQiIIIQQQQQ")  # dlfl_rt_file_header (dlfl_rt_file.h, version 2)
SLOT = struct.Struct("<IiQQII")              # dlfl_rt_slot_header without its reserved tail
RECORD = struct.Struct("<IIiIQQIIQQ8x")      # dlfl_rt_record_header
SLOT_HEADER_SIZE = 64
PASSED, FAILED, SKIPPED = 0, 1, 2
ENDED = 2

# The expectation: which markers each test reaches; every other marker it must not reach.
EXPECTED = [
    ("test_tinyext.py::test_add", PASSED, {"add"}),
    ("test_tinyext.py::test_clamp_low", PASSED, {"clamp", "clamp-low"}),
    ("test_tinyext.py::test_clamp_high_fails", FAILED, {"clamp", "clamp-mid", "clamp-high"}),
    ("test_tinyext.py::test_skipped", SKIPPED, set()),
    ("test_tinyext.py::test_twice_max[1]", PASSED, {"twice-max", "twice"}),
    ("test_tinyext.py::test_twice_max[2]", PASSED, {"twice-max", "twice"}),
    ("test_tinyext.py::test_python_only", PASSED, set()),
]
OUTSIDE = {"add"}  # the module's import-time call, during collection
# test_crash.py: test_crashes aborts the interpreter after reaching clamp and clamp-low;
# test_after never runs. Nothing of tinyext is reached outside its tests.
CRASH_EXPECTED = [
    ("test_crash.py::test_before", "PASS", {"add"}),
    ("test_crash.py::test_crashes", "FAIL", {"clamp", "clamp-low"}),
]


def skip(reason):
    print("SKIP: " + reason)
    sys.exit(SKIP)


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def run(argv, **kwargs):
    return subprocess.run(argv, capture_output=True, text=True, **kwargs)


def markers(source):
    """line number -> marker name, from the `// @name` comments."""
    out = {}
    with open(source) as f:
        for number, line in enumerate(f, 1):
            m = re.search(r"// @([\w-]+)", line)
            if m:
                out[number] = m.group(1)
    return out


def read_probe_map(path, file_name):
    """probe id -> lines of `file_name` it stands for; and the map's id."""
    files, sites, map_id = {}, [], 0
    with open(path) as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if fields[0] == "file":
                files[int(fields[1])] = fields[2]
            elif fields[0] == "site":
                sites.append((int(fields[1]), int(fields[2]), int(fields[3])))
            elif fields[0] == "id":
                map_id = int(fields[1], 16)
    lines = {}
    for probe, file_index, line in sites:
        if os.path.basename(files[file_index]) == file_name:
            lines.setdefault(probe, set()).add(line)
    return lines, map_id


def read_snapshot(path):
    """(map id, outside probes, [(name, state, outcome, probes)])."""
    data = open(path, "rb").read()
    (magic, version, _, probes, map_id, _, _, name_cap, _, live_header, outside, live, records,
     end) = HEADER.unpack_from(data, 0)
    if magic != b"DLFLRT02" or version != 2:
        fail("%s: not a version 2 snapshot (%r, %d)" % (path, magic, version))
    slots, at = [], records
    while at < end:  # ended tests: ascending probe ids or a bitset
        _, _, outcome, encoding, _, _, name_len, _, payload, _ = RECORD.unpack_from(data, at)
        name = data[at + 64:at + 64 + name_len].decode()
        body = data[at + 64 + (name_len + 7) // 8 * 8:][:payload]
        if encoding == 1:
            hit = set(struct.unpack("<%dI" % (payload // 4), body))
        else:
            hit = {i for i in range(probes) if body[i // 8] >> (i % 8) & 1}
        slots.append((name, 2, outcome, hit))
        at += 64 + (name_len + 7) // 8 * 8 + (payload + 7) // 8 * 8
    state, _, _, _, name_len, _ = SLOT.unpack_from(data, live_header)
    if state == 1:  # the running test: the live map
        name = data[live_header + SLOT_HEADER_SIZE:live_header + SLOT_HEADER_SIZE + min(name_len, name_cap - 1)]
        slots.append((name.decode(), 1, 0, {p for p, hit in enumerate(data[live:live + probes]) if hit}))
    return map_id, {p for p, hit in enumerate(data[outside:outside + probes]) if hit}, slots


def reached_markers(probes, lines_of_probe, marker_of_line):
    return {marker_of_line[line] for p in probes for line in lines_of_probe.get(p, ()) if line in marker_of_line}


def read_gzoltar(directory, marker_of_line):
    """[(test name, PASS|FAIL, markers of the covered tinyext.cpp lines)] of a GZoltar dir."""
    with open(os.path.join(directory, "spectra.csv")) as f:
        elements = f.read().splitlines()[1:]
    marker_of_element = []
    for name in elements:
        # file#function:line; the function may hold ':' itself.
        path, line = name.split("#", 1)[0], int(name.rsplit(":", 1)[1])
        marker_of_element.append(marker_of_line.get(line) if os.path.basename(path) == "tinyext.cpp" else None)
    with open(os.path.join(directory, "tests.csv"), newline="") as f:
        tests = [(row[0], row[1]) for row in list(csv.reader(f))[1:] if row]
    with open(os.path.join(directory, "matrix.txt")) as f:
        rows = [line.split() for line in f.read().splitlines() if line]
    if len(rows) != len(tests):
        fail("%s: %d matrix rows, %d tests" % (directory, len(rows), len(tests)))
    out = []
    for (name, outcome), row in zip(tests, rows):
        if row[-1] != ("+" if outcome == "PASS" else "-") or len(row) != len(elements) + 1:
            fail("%s: matrix row of %s does not fit: %s" % (directory, name, row))
        covered = {marker_of_element[i] for i, cell in enumerate(row[:-1]) if cell == "1"}
        out.append((name, outcome, covered - {None}))
    return out


def collect_snapshots(args, snapshots, probe_map, out_dir):
    """`dlfl collect --runtime --snapshot ...`: (summary line, warnings, gzoltar dir)."""
    os.makedirs(out_dir)
    gz = os.path.join(out_dir, "gz")
    argv = [args.dlfl, "collect", "--runtime", "--probe-map", probe_map, "-o", os.path.join(out_dir, "out.dlfl"),
            "--gzoltar", gz]
    for snapshot in snapshots:
        argv += ["--snapshot", snapshot]
    r = run(argv)
    if r.returncode != 0:
        fail("%s (exit %d):\n%s" % (" ".join(argv), r.returncode, r.stderr))
    return r.stdout, r.stderr, gz


def check_spectrum(what, got, expected):
    if [(n, o) for n, o, _ in got] != [(n, o) for n, o, _ in expected]:
        fail("%s: tests %s, expected %s" % (what, [(n, o) for n, o, _ in got], [(n, o) for n, o, _ in expected]))
    for (name, _, covered), (_, _, want) in zip(got, expected):
        if covered != want:
            fail("%s: %s covers %s, expected %s" % (what, name, sorted(covered), sorted(want)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dlfl", required=True)
    parser.add_argument("--rt-lib", required=True)
    parser.add_argument("--cxx", required=True)
    parser.add_argument("--pytest", default="")
    args = parser.parse_args()

    pytest = args.pytest if args.pytest and os.path.exists(args.pytest) else (
        shutil.which("pytest-3") or shutil.which("pytest"))
    if not pytest:
        skip("pytest is not installed (Debian: apt-get install python3-pytest)")

    with tempfile.TemporaryDirectory(prefix="dlfl-pytest-check-") as tmp:
        src, build, instr, tests = (os.path.join(tmp, d) for d in ("src", "build", "instr", "tests"))
        for d in (src, build, tests):
            os.makedirs(d)
        shutil.copy(os.path.join(HERE, "pytest_ext", "tinyext.cpp"), src)
        with open(os.path.join(build, "compile_commands.json"), "w") as f:
            json.dump([{"directory": build, "file": os.path.join(src, "tinyext.cpp"),
                        "command": "%s -std=c++17 -fPIC -c %s -o tinyext.o" % (args.cxx, os.path.join(src, "tinyext.cpp"))}],
                      f)

        r = run([args.dlfl, "instrument", "-p", build, "--root", src, "--out", instr, "--quiet"])
        if r.returncode != 0 and "built without the Clang" in r.stderr:
            skip("this dlfl has no `dlfl instrument` (built without the Clang 14 development packages)")
        if r.returncode != 0:
            fail("dlfl instrument: " + r.stderr)
        probe_map = os.path.join(instr, "dlfl-probes.map")

        cflags = run([args.dlfl, "config", "--cflags"]).stdout.split()
        libs = run([args.dlfl, "config", "--libs"]).stdout.split()
        ext = os.path.join(tmp, "libtinyext.so")
        r = run([args.cxx, "-std=c++17", "-O0", "-shared", "-fPIC", *cflags, os.path.join(instr, "tinyext.cpp"),
                 "-o", ext, *libs])
        if r.returncode != 0:
            fail("building the instrumented extension: " + r.stderr)

        shutil.copy(CONFTEST, tests)
        shutil.copy(os.path.join(HERE, "pytest_ext", "test_tinyext.py"), tests)
        snapshot = os.path.join(tmp, "run.map")
        env = dict(os.environ, DLFL_RT_FILE=snapshot, DLFL_RT_LIB=args.rt_lib, TINYEXT_LIB=ext,
                   PYTHONDONTWRITEBYTECODE="1")
        r = run([pytest, "-p", "no:cacheprovider", "-q", tests], cwd=tests, env=env)
        # Exit status 1: some tests failed (one does, on purpose).
        if r.returncode != 1 or "1 failed, 5 passed, 1 skipped" not in r.stdout:
            fail("pytest (exit %d):\n%s\n%s" % (r.returncode, r.stdout, r.stderr))

        lines_of_probe, map_id = read_probe_map(probe_map, "tinyext.cpp")
        marker_of_line = markers(os.path.join(src, "tinyext.cpp"))
        probed = set().union(*lines_of_probe.values())
        unprobed = sorted(line for line in marker_of_line if line not in probed)
        if unprobed:
            fail("tinyext.cpp lines %s are marked but got no probe" % unprobed)
        snap_id, outside, slots = read_snapshot(snapshot)
        if snap_id != map_id:
            fail("snapshot map id %x, probe map id %x" % (snap_id, map_id))
        got_outside = reached_markers(outside, lines_of_probe, marker_of_line)
        if got_outside != OUTSIDE:
            fail("outside any test: reached %s, expected %s" % (sorted(got_outside), sorted(OUTSIDE)))
        if [s[0] for s in slots] != [e[0] for e in EXPECTED]:
            fail("slots %s, expected %s" % ([s[0] for s in slots], [e[0] for e in EXPECTED]))
        for (name, state, outcome, probes), (_, want_outcome, want) in zip(slots, EXPECTED):
            got = reached_markers(probes, lines_of_probe, marker_of_line)
            if state != ENDED or outcome != want_outcome:
                fail("%s: state %d outcome %d, expected ended with %d" % (name, state, outcome, want_outcome))
            if got != want:
                fail("%s: reached %s, expected %s" % (name, sorted(got), sorted(want)))

        # The snapshot as a spectrum: the skipped test left out, the import-time coverage
        # added to every test of the process.
        out_dir = os.path.join(tmp, "spectrum")
        summary, warnings, gz = collect_snapshots(args, [snapshot], probe_map, out_dir)
        if not summary.startswith("collected 6 tests (1 failing), 1 skipped, ") or "(runtime, 1 snapshot)" not in summary:
            fail("collect --snapshot: unexpected summary: " + summary)
        expected = [(n, "FAIL" if o == FAILED else "PASS", want | OUTSIDE) for n, o, want in EXPECTED if o != SKIPPED]
        check_spectrum("collect --snapshot", read_gzoltar(gz, marker_of_line), expected)

        # A pytest process that dies inside a test: that test is failing ("crashed") with
        # the coverage it reached before; the tests after it never ran.
        crash_dir = os.path.join(tmp, "crash")
        os.makedirs(crash_dir)
        shutil.copy(CONFTEST, crash_dir)
        shutil.copy(os.path.join(HERE, "pytest_ext", "test_crash.py"), crash_dir)
        crash_snapshot = os.path.join(tmp, "crash.map")
        r = run([pytest, "-p", "no:cacheprovider", "-q", crash_dir], cwd=crash_dir,
                env=dict(env, DLFL_RT_FILE=crash_snapshot))
        if r.returncode >= 0:
            fail("pytest on test_crash.py was not killed by a signal (exit %d):\n%s" % (r.returncode, r.stdout))
        summary, warnings, gz = collect_snapshots(args, [crash_snapshot], probe_map, os.path.join(tmp, "crash-out"))
        if not summary.startswith("collected 2 tests (1 failing, 1 crashed), "):
            fail("collect --snapshot of the crashed run: unexpected summary: " + summary)
        if "dlfl: warning: test_crash.py::test_crashes: the process (pid " not in warnings:
            fail("collect --snapshot of the crashed run: no warning about the crash:\n" + warnings)
        check_spectrum("collect --snapshot (crash)", read_gzoltar(gz, marker_of_line), CRASH_EXPECTED)

        # Two processes' snapshots, one spectrum: their tests in the order given.
        summary, _, gz = collect_snapshots(args, [snapshot, crash_snapshot], probe_map, os.path.join(tmp, "both"))
        if not summary.startswith("collected 8 tests (2 failing, 1 crashed), 1 skipped, ") or \
                "(runtime, 2 snapshots)" not in summary:
            fail("collect --snapshot A --snapshot B: unexpected summary: " + summary)
        check_spectrum("collect --snapshot A --snapshot B", read_gzoltar(gz, marker_of_line), expected + CRASH_EXPECTED)

        # A probe map of another instrumentation (another id) is refused, naming both files.
        other_map = os.path.join(tmp, "other-probes.map")
        with open(probe_map) as f, open(other_map, "w") as o:
            o.write(re.sub(r"(?m)^id\t[0-9a-f]+$", "id\t%016x" % (map_id ^ 1), f.read()))
        out = os.path.join(tmp, "refused.dlfl")
        r = run([args.dlfl, "collect", "--runtime", "--snapshot", snapshot, "--probe-map", other_map, "-o", out])
        if r.returncode != 2 or not r.stderr.startswith("dlfl: error: %s: " % snapshot) or other_map not in r.stderr \
                or os.path.exists(out):
            fail("a snapshot of another probe map: exit %d, %s" % (r.returncode, r.stderr))
    print("pytest conftest ok: %d tests, their spectrum and a crashed run's" % len(EXPECTED))
    return 0


if __name__ == "__main__":
    sys.exit(main())
