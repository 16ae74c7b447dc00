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


# Parameters whose extrinsic label must name the value or pytest's id, not the type:
# `cfg=dict` or `device=device` would be one element every such test covers.
LABELS_PY = '''\
import pytest

from calc.ops import scale


@pytest.mark.parametrize("cfg", [{"mode": "fast"}, {"mode": "slow"}])
def test_dict(cfg):
    assert scale(1, "float32") == 2


@pytest.mark.parametrize("cfg", [{"mode": "fast"}, {"mode": "slow"}], ids=["fast", "slow"])
def test_dict_ids(cfg):
    assert cfg["mode"] == "fast"  # the one failing test: dlfl collect needs one


@pytest.mark.parametrize("opt", [pytest.param({"k": 1}, id="x"), pytest.param(3, id="three"), 4])
def test_param_id(opt):
    pass


@pytest.mark.parametrize("a,b", [(1, {"z": 0}), pytest.param(2, 3, id="pair")])
def test_pair(a, b):
    pass


@pytest.mark.parametrize("text", ["tab\\there", "y" * 100])
def test_text(text):
    pass
'''

TORCH_LABELS_PY = '''\
import pytest
import torch


@pytest.mark.parametrize("device", [torch.device("cpu"), torch.device("cuda", 0)])
@pytest.mark.parametrize("dtype", [torch.float16])
def test_device(device, dtype):
    pass
'''

# A module that raises while it is imported: collection fails.
BROKEN_PY = '''\
LIMIT = 3
raise RuntimeError("a module-level fault")
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
    # The 10 tests and the pseudo-test of the lines calc ran while the test module imported it.
    if len(tests) != 11 or tests.get("<collection>", {}).get("runs") != ["passed"] or \
            tests["<collection>"]["extrinsic"] != [] or report["tests"][0]["name"] != "<collection>":
        fail("report: %d tests, expected 10 and a passing <collection>: %s" % (len(tests), report["tests"]))
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
    # Import time (module body, `def` and `class` lines): the pseudo-test, no real test.
    for line in ("1", "4", "7", "13", "14"):
        if contexts.get(line) != ["<collection>"]:
            fail("coverage.json: calc/ops.py:%s ran in %s, expected only <collection>" % (line, contexts.get(line)))


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
    # 10 tests and <collection>, 3 skipped every run; failing: float16 (4/4) and flaky (2/4).
    head = re.match(r"collected 8 tests \(2 failing\), 3 skipped, (\d+) elements", summary)
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
    # An import-time line counts one passing run (<collection>'s), as a real test would.
    for element in ("calc/ops.py:4", "calc/ops.py#scale:7"):
        row = by_element.get(element)
        if not row or (row["ef"], row["ep"]) != ("0", "1"):
            fail("rank: %s has %s, expected ef 0 ep 1 (<collection>)" % (element, row))
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


def check_labels(args, project, env):
    """The extrinsic labels of dict, pytest.param, multi-argument and torch.device
    parameters, as written to the report and as elements of the spectrum."""
    tests = os.path.join(project, "label_tests")
    os.makedirs(tests)
    with open(os.path.join(tests, "test_labels.py"), "w") as f:
        f.write(LABELS_PY)
    with_torch = run([sys.executable, "-c", "import torch"]).returncode == 0
    if with_torch:
        with open(os.path.join(tests, "test_torch_labels.py"), "w") as f:
            f.write(TORCH_LABELS_PY)
    out = os.path.join(project, "out-labels")
    r = run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "dlfl_pytest", "--dlfl-out", out,
             "--dlfl-cov", "calc", "--dlfl-no-runtime", "label_tests"], cwd=project, env=env)
    if r.returncode != 1 or "1 failed" not in r.stdout:
        fail("pytest label_tests (exit %d):\n%s\n%s" % (r.returncode, r.stdout, r.stderr))
    with open(os.path.join(out, "pytest-run.json")) as f:
        got = {t["name"].split("::")[1]: t["extrinsic"] for t in json.load(f)["tests"] if "::" in t["name"]}
    long_label = "text=" + "y" * 46 + "~"  # cut at 60 characters: 51 kept, "~", 8 of a hash
    want = {"test_dict[cfg0]": ["cfg=cfg0"], "test_dict[cfg1]": ["cfg=cfg1"],  # pytest's ids, not `cfg=dict`
            "test_dict_ids[fast]": ["cfg=fast"], "test_dict_ids[slow]": ["cfg=slow"],
            "test_param_id[x]": ["opt=x"], "test_param_id[three]": ["opt=three"], "test_param_id[4]": ["opt=4"],
            "test_pair[1-b0]": ["a=1", "b=b0"], "test_pair[pair]": ["a,b=pair"],
            "test_text[tab\\there]": ["text=tab\\there"]}
    if with_torch:
        want.update({"test_device[dtype0-device0]": ["dtype=float16", "device=cpu"],
                     "test_device[dtype0-device1]": ["dtype=float16", "device=cuda:0"]})
    for name, labels in want.items():
        if sorted(got.get(name, ["(no such test)"])) != sorted(labels):
            fail("report: %s has extrinsic %s, expected %s" % (name, got.get(name), labels))
    texts = [name for name in got if name.startswith("test_text[") and "tab" not in name]
    cut = got[texts[0]] if len(texts) == 1 else []
    if len(cut) != 1 or len(cut[0]) != 60 or not cut[0].startswith(long_label):
        fail("report: the 100-character value is labelled %s, expected %s<8 hex digits>" % (cut, long_label))
    spectrum, summary = collect(args, out, None)
    r = run([args.dlfl, "rank", spectrum, "--format", "csv"])
    kinds = {row["element"]: row["kind"] for row in csv.DictReader(io.StringIO(r.stdout))}
    for label in ["cfg=cfg0", "cfg=fast", "opt=x", "a,b=pair"] + (["device=cpu", "device=cuda:0"] if with_torch else []):
        if kinds.get(label) != "extrinsic":
            fail("rank: no extrinsic element %s:\n%s" % (label, r.stdout[:2000]))
    return with_torch


def check_collection_error(args, project, env):
    """A module that raises at import: <collection> fails and the lines it ran are suspicious."""
    with open(os.path.join(project, "calc", "broken.py"), "w") as f:
        f.write(BROKEN_PY)
    tests = os.path.join(project, "broken_tests")
    os.makedirs(tests)
    with open(os.path.join(tests, "test_broken.py"), "w") as f:
        f.write("import calc.broken\n\n\ndef test_never_runs():\n    pass\n")
    out = os.path.join(project, "out-broken")
    r = run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "dlfl_pytest", "--dlfl-out", out,
             "--dlfl-cov", "calc", "--dlfl-no-runtime", "broken_tests"], cwd=project, env=env)
    if r.returncode != 2 or "1 error" not in r.stdout:
        fail("pytest broken_tests: exit %d, expected a collection error:\n%s" % (r.returncode, r.stdout))
    with open(os.path.join(out, "pytest-run.json")) as f:
        tests = json.load(f)["tests"]
    if tests != [{"name": "<collection>", "runs": ["failed"], "extrinsic": []}]:
        fail("report after a collection error: %s, expected a failing <collection> only" % tests)
    spectrum, summary = collect(args, out, None)
    r = run([args.dlfl, "rank", spectrum, "--format", "csv"])
    row = {row["element"]: row for row in csv.DictReader(io.StringIO(r.stdout))}.get("calc/broken.py:2")
    if not row or (row["ef"], row["ep"]) != ("1", "0"):
        fail("rank: calc/broken.py:2 (the raise) is %s, expected ef 1 ep 0" % row)


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
        with_torch = check_labels(args, project, env)
        check_collection_error(args, project, env)
    print("dlfl_pytest ok: with and without xdist%s; extrinsic labels%s; <collection>" % (
        ", C++ and Python joined" if lib else " (Python only: no instrumenter)",
        " (torch.device included)" if with_torch else " (no torch: torch.device not checked)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
