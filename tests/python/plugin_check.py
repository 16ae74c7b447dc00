#!/usr/bin/env python3
"""python/dlfl_pytest under a real pytest, with and without pytest-xdist, joined by dlfl.

Usage: plugin_check.py --dlfl DLFL --rt-lib LIBDLFL_RT_SO --cxx CXX

Writes a small project (package calc/, a test file with parametrized, flaky and
float16-only failing tests, a C++ "extension" tinyext.cpp loaded with ctypes), instruments
and builds the extension with `dlfl instrument` + `dlfl config` when the instrumenter is
available, and runs pytest -p dlfl_pytest --dlfl-repeat 4 twice: in one process and with
-n 2. Checks the run report (runs k/N, extrinsic values, function table), the per-worker
files, coverage.json's contexts, then `dlfl collect --pytest-run` (one spectrum of Python
lines, C++ lines and extrinsic elements; the flaky test listed 2/4) and `dlfl rank`, and
that a context-less or malformed coverage.py report is a one-line error with exit 2 and no
output. Must run under the Python that has pytest, coverage and xdist (Debian's
/usr/bin/python3); exits 77 (a CTest skip) with the reason when one is missing.
"""
import argparse
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SKIP = 77

OPS_PY = '''\
import ctypes
import os

_lib = ctypes.CDLL(os.environ["TINYEXT_LIB"]) if os.environ.get("TINYEXT_LIB") else None


def scale(x, dtype):
    if dtype == "float16":
        return x * 3  # the float16-only fault
    return x * 2


class Clamp:
    def __init__(self, hi):
        self.hi = hi

    def __call__(self, x):
        if _lib is not None:
            return _lib.tiny_clamp(x, self.hi)
        return min(max(x, 0), self.hi)
'''

TEST_PY = '''\
import pytest

from calc.ops import Clamp, scale

_runs = {"n": 0}


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("device", ["cpu", pytest.param("cuda", marks=pytest.mark.skip(reason="no GPU"))])
def test_scale(dtype, device):
    assert scale(2, dtype) == 4


@pytest.mark.parametrize("x", [-1, 3, 10])
def test_clamp(x):
    assert 0 <= Clamp(5)(x) <= 5


def test_flaky():
    _runs["n"] += 1
    assert _runs["n"] % 2 == 1  # fails on the 2nd and 4th run
'''


def skip(reason):
    print("SKIP: " + reason)
    sys.exit(SKIP)


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def run(argv, **kwargs):
    return subprocess.run(argv, capture_output=True, text=True, **kwargs)


def build_extension(args, tmp):
    """The instrumented tinyext shared library and its probe map, or (None, None)."""
    src, build, instr = (os.path.join(tmp, d) for d in ("ext-src", "ext-build", "ext-instr"))
    os.makedirs(src)
    os.makedirs(build)
    shutil.copy(os.path.join(REPO, "tests", "runtime", "pytest_ext", "tinyext.cpp"), src)
    with open(os.path.join(build, "compile_commands.json"), "w") as f:
        json.dump([{"directory": build, "file": os.path.join(src, "tinyext.cpp"),
                    "command": "%s -std=c++17 -fPIC -c %s" % (args.cxx, os.path.join(src, "tinyext.cpp"))}], f)
    r = run([args.dlfl, "instrument", "-p", build, "--root", src, "--out", instr, "--quiet"])
    if r.returncode != 0 and "built without the Clang" in r.stderr:
        return None, None
    if r.returncode != 0:
        fail("dlfl instrument: " + r.stderr)
    lib = os.path.join(tmp, "libtinyext.so")
    cflags = run([args.dlfl, "config", "--cflags"]).stdout.split()
    libs = run([args.dlfl, "config", "--libs"]).stdout.split()
    r = run([args.cxx, "-std=c++17", "-O0", "-shared", "-fPIC", *cflags, os.path.join(instr, "tinyext.cpp"), "-o", lib,
             *libs])
    if r.returncode != 0:
        fail("building the instrumented tinyext: " + r.stderr)
    return lib, os.path.join(instr, "dlfl-probes.map")


def run_pytest(args, project, out, env, workers):
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "dlfl_pytest", "--dlfl-out", out,
            "--dlfl-cov", "calc", "--dlfl-repeat", "4", "--dlfl-extrinsic-env", "CALC_MODE", "--dlfl-rt-lib",
            args.rt_lib, "tests"]
    if workers:
        argv += ["-n", str(workers)]
    r = run(argv, cwd=project, env=env)
    # 4 runs each: test_scale[float16-cpu] fails 4 times, test_flaky twice.
    if r.returncode != 1 or "6 failed, 22 passed, 12 skipped" not in r.stdout:
        fail("pytest %s(exit %d):\n%s\n%s" % ("-n %d " % workers if workers else "", r.returncode, r.stdout, r.stderr))
    if "tests/test_calc.py::test_flaky  2/4" not in r.stdout:
        fail("pytest's summary does not list the flaky test 2/4:\n" + r.stdout)
    return r.stdout


def check_report(out, workers, with_runtime):
    with open(os.path.join(out, "pytest-run.json")) as f:
        report = json.load(f)
    tests = {t["name"]: t for t in report["tests"]}
    want = {"tests/test_calc.py::test_scale[cpu-float16]": (["failed"] * 4, ["device=cpu", "dtype=float16"]),
            "tests/test_calc.py::test_scale[cpu-float32]": (["passed"] * 4, ["device=cpu", "dtype=float32"]),
            "tests/test_calc.py::test_scale[cuda-float64]": (["skipped"] * 4, ["device=cuda", "dtype=float64"]),
            "tests/test_calc.py::test_clamp[-1]": (["passed"] * 4, ["x=-1"]),
            "tests/test_calc.py::test_flaky": (["passed", "failed", "passed", "failed"], [])}
    if len(tests) != 10:
        fail("report: %d tests, expected 10: %s" % (len(tests), sorted(tests)))
    for name, (runs, params) in want.items():
        got = tests.get(name)
        if got is None or got["runs"] != runs or sorted(got["extrinsic"]) != sorted(params + ["CALC_MODE=strict"]):
            fail("report: %s is %s, expected runs %s extrinsic %s" % (name, got, runs, params))
    functions = report["functions"].get("calc/ops.py")
    if functions != [[7, 10, "scale"], [14, 15, "Clamp.__init__"], [17, 20, "Clamp.__call__"]]:
        fail("report: function table of calc/ops.py: %s" % functions)
    names = set(os.listdir(out))
    per_process = ["gw0", "gw1"] if workers else ["main"]
    expected = {".coverage." + p for p in per_process} | ({"rt-%s.map" % p for p in per_process} if with_runtime else set())
    if not expected <= names:
        fail("%s holds %s, expected at least %s" % (out, sorted(names), sorted(expected)))
    with open(os.path.join(out, "coverage.json")) as f:
        cov = json.load(f)
    contexts = cov["files"]["calc/ops.py"]["contexts"]
    if sorted(contexts.get("9", [])) != ["tests/test_calc.py::test_scale[cpu-float16]"]:
        fail("coverage.json: line 9 (the float16 branch) ran in %s" % contexts.get("9"))


def collect(args, out, probe_map, extra=()):
    spectrum = os.path.join(out, "sfl.dlfl")
    argv = [args.dlfl, "collect", "--pytest-run", out, "-o", spectrum, *extra]
    if probe_map:
        argv += ["--probe-map", probe_map]
    r = run(argv)
    if r.returncode != 0:
        fail("%s (exit %d): %s" % (" ".join(argv), r.returncode, r.stderr))
    return spectrum, r.stdout


def check_spectrum(args, out, probe_map):
    spectrum, summary = collect(args, out, probe_map)
    # 10 tests, 3 skipped every run; failing: float16 (4/4) and flaky (2/4).
    head = re.match(r"collected 7 tests \(2 failing\), 3 skipped, (\d+) elements", summary)
    if not head or "1 flaky" not in summary or "flaky: tests/test_calc.py::test_flaky 2/4" not in summary:
        fail("dlfl collect --pytest-run: unexpected summary:\n" + summary)
    if probe_map and "2 snapshot" not in summary and "1 snapshot" not in summary:
        fail("dlfl collect --pytest-run: the runtime snapshots were not read:\n" + summary)
    r = run([args.dlfl, "rank", spectrum, "--format", "csv", "--formula", "dstar2"])
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    by_element = {row["element"]: row for row in rows}
    top = by_element.get("dtype=float16")
    line = by_element.get("calc/ops.py#scale:9")
    if not top or top["kind"] != "extrinsic" or not line or float(line["rank"]) > 2.5 or float(top["rank"]) > 2.5:
        fail("rank: dtype=float16 and calc/ops.py:9 are not at the top:\n" + r.stdout[:2000])
    if probe_map and not any(row["file"].endswith("tinyext.cpp") and row["language"] == "cpp" for row in rows):
        fail("rank: no C++ line of tinyext.cpp in the mixed ranking:\n" + r.stdout[:2000])
    # Every element carries its language: Python lines, C++ lines, extrinsic conditions.
    if line["language"] != "python" or top["language"] != "extrinsic":
        fail("rank: wrong languages: %s / %s" % (line["language"], top["language"]))
    langs = re.search(r"^elements by language: (.*)$", summary, re.M)
    if not langs or "python " not in langs.group(1) or "extrinsic " not in langs.group(1) or \
            (probe_map and "cpp " not in langs.group(1)):
        fail("dlfl collect --pytest-run: no per-language element counts:\n" + summary)
    # The Python-only spectrum has neither the C++ lines nor the extrinsic elements.
    spectrum, summary = collect(args, out, None, ["--leave-out", "c++", "--leave-out", "extrinsic"])
    if "0 c++" not in summary or "0 extrinsic" not in summary:
        fail("--leave-out c++ --leave-out extrinsic: " + summary)


def check_bad_coverage(args, project, out):
    """coverage.py reports without contexts, or not JSON: one line, exit 2, nothing written."""
    plain = os.path.join(out, "plain.json")
    r = run([sys.executable, "-m", "coverage", "json", "--data-file", os.path.join(out, ".coverage"), "-o", plain],
            cwd=project)
    if r.returncode != 0:
        fail("coverage json: " + r.stderr)
    broken = os.path.join(out, "broken.json")
    with open(broken, "w") as f:
        f.write('{"meta": {"show_contexts": true},\n "files": {"a.py": [}')
    for path, message in ((plain, "has no per-test contexts"), (broken, ":2: not JSON")):
        target = os.path.join(out, "refused.dlfl")
        r = run([args.dlfl, "collect", "--coverage-py", path, "--pytest-report", os.path.join(out, "pytest-run.json"),
                 "-o", target])
        lines = r.stderr.strip().splitlines()
        if r.returncode != 2 or len(lines) != 1 or not lines[0].startswith("dlfl: error: " + path) or \
                message not in lines[0] or os.path.exists(target):
            fail("dlfl collect --coverage-py %s: exit %d, %r" % (path, r.returncode, r.stderr))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dlfl", required=True)
    parser.add_argument("--rt-lib", required=True)
    parser.add_argument("--cxx", required=True)
    args = parser.parse_args()
    for module, package in (("pytest", "python3-pytest"), ("coverage", "python3-coverage"),
                            ("xdist", "python3-pytest-xdist")):
        if run([sys.executable, "-c", "import " + module]).returncode != 0:
            skip("%s has no %s (Debian: apt-get install %s)" % (sys.executable, module, package))

    with tempfile.TemporaryDirectory(prefix="dlfl-plugin-check-") as tmp:
        lib, probe_map = build_extension(args, tmp)
        project = os.path.join(tmp, "project")
        os.makedirs(os.path.join(project, "calc"))
        os.makedirs(os.path.join(project, "tests"))
        for path, text in (("calc/__init__.py", ""), ("calc/ops.py", OPS_PY), ("tests/test_calc.py", TEST_PY),
                           ("pytest.ini", "[pytest]\n")):
            with open(os.path.join(project, path), "w") as f:
                f.write(text)
        env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python") + os.pathsep + project, CALC_MODE="strict",
                   PYTHONDONTWRITEBYTECODE="1")
        if lib:
            env["TINYEXT_LIB"] = lib
        for workers in (0, 2):
            out = os.path.join(tmp, "out-%d" % workers)
            run_pytest(args, project, out, env, workers)
            check_report(out, workers, bool(lib))
            check_spectrum(args, out, probe_map)
        check_bad_coverage(args, project, os.path.join(tmp, "out-0"))
    print("dlfl_pytest ok: with and without xdist%s" % (", C++ and Python joined" if lib else " (Python only: no "
                                                                                                 "instrumenter)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
