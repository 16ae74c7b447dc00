#!/usr/bin/env python3
"""A setuptools pybind11 extension built instrumented through the documented path, ranked.

Usage: pyext_check.py --dlfl DLFL --rt-lib LIBDLFL_RT_SO

Copies tests/pyext (package seeded/ with its C++ module seeded._native, one seeded fault
in clamp(), pytest tests of which two fail) into a scratch directory with an old plain
build in it (build/ and an in-place .so, as a developer's checkout has), then
1. `python -m dlfl_pytest.build PROJECT --inplace` (docs/pytorch-extension.md): the
   instrumented tree holds none of the old build outputs, and the installed module links
   libdlfl_rt;
2. pytest -p dlfl_pytest; `dlfl collect --pytest-run RUN` (the probe map found from the
   loaded extension, no --probe-map) and `dlfl rank`: the faulty C++ line is first;
3. the stale build: the old plain .so put back, the same run makes `dlfl collect` warn
   that the tests loaded an extension without probes.
Exits 77 (a CTest skip) with the reason when pybind11's or Python's headers, setuptools,
pytest, coverage.py or `dlfl instrument` are missing.
"""
import argparse
import csv
import glob
import io
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
FIXTURE = os.path.join(REPO, "tests", "pyext")
SKIP = 77


def skip(reason):
    print("SKIP: " + reason)
    sys.exit(SKIP)


def fail(message):
    sys.exit("pyext_check: FAILED: " + message)


def run(argv, expect=0, **kwargs):
    r = subprocess.run(argv, capture_output=True, text=True, **kwargs)
    if expect is not None and r.returncode != expect:
        fail("%s exited %d (expected %d):\n%s%s" % (" ".join(argv), r.returncode, expect, r.stdout[-3000:],
                                                   r.stderr[-5000:]))
    return r


def check_prerequisites(dlfl):
    include = sysconfig.get_paths()["include"]
    if not os.path.exists(os.path.join(include, "Python.h")):
        skip("no Python.h for %s (Debian: python3-dev)" % sys.executable)
    found = [d for d in [include, "/usr/include", "/usr/local/include"]
             if os.path.exists(os.path.join(d, "pybind11", "pybind11.h"))]
    if not found:
        skip("no pybind11 headers (Debian: pybind11-dev)")
    for module, package in (("setuptools", "python3-setuptools"), ("pytest", "python3-pytest"),
                            ("coverage", "python3-coverage")):
        try:
            __import__(module)
        except ImportError:
            skip("%s has no %s (Debian: %s)" % (sys.executable, module, package))
    r = run([dlfl, "instrument", "--help"], expect=None)
    if r.returncode != 0 or "built without the Clang" in r.stderr:
        skip("this dlfl has no `dlfl instrument`")


def fault_line():
    with open(os.path.join(FIXTURE, "seeded", "native.cpp")) as f:
        return next(i for i, text in enumerate(f, 1) if "FAULT" in text and "return" in text)


def plain_build(project):
    """An ordinary in-place build, as a developer's checkout holds one: build/temp.*, and
    seeded/_native*.so that has no probes."""
    run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=project)
    built = glob.glob(os.path.join(project, "seeded", "_native*.so"))
    if len(built) != 1 or not glob.glob(os.path.join(project, "build", "temp.*")):
        fail("the plain build left no in-place module and build/temp.*: %s" % os.listdir(project))
    return built[0]


def run_tests(project, rt_lib, out):
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python") + os.pathsep + project,
               PYTHONDONTWRITEBYTECODE="1")
    r = run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "dlfl_pytest", "--dlfl-out", out,
             "--dlfl-cov", "seeded", "--dlfl-rt-lib", rt_lib], expect=1, cwd=project, env=env)
    if "2 failed" not in r.stdout:
        fail("expected 2 failing tests:\n" + r.stdout[-2000:])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dlfl", required=True)
    parser.add_argument("--rt-lib", required=True)
    args = parser.parse_args()
    args.dlfl, args.rt_lib = os.path.abspath(args.dlfl), os.path.abspath(args.rt_lib)
    check_prerequisites(args.dlfl)
    line = fault_line()

    with tempfile.TemporaryDirectory(prefix="dlfl-pyext-") as tmp:
        project = os.path.join(tmp, "project")
        shutil.copytree(FIXTURE, project)
        old_module = plain_build(project)
        with open(old_module, "rb") as f:
            old_bytes = f.read()

        # 1. The one-step instrumented build.
        r = run([sys.executable, "-m", "dlfl_pytest.build", project, "--inplace", "--dlfl", args.dlfl, "-j", "2"],
                env=dict(os.environ, PYTHONPATH=os.path.join(REPO, "python")))
        tree = os.path.join(project, "build", "dlfl", "tree")
        probe_map = os.path.join(tree, "dlfl-probes.map")
        if not os.path.exists(probe_map) or "probe map" not in r.stdout:
            fail("no probe map in %s:\n%s" % (tree, r.stdout))
        # Progress while it builds: each unit compiled, of how many, and the time so far.
        if not re.search(r"dlfl_pytest.build: units compiled 1 of \d+, elapsed \d+ s", r.stderr) or \
                "instrumenting" not in r.stderr:
            fail("no build progress on stderr:\n%s" % r.stderr)
        copied = [os.path.relpath(os.path.join(d, n), tree) for d, _, names in os.walk(tree) for n in names
                  if n.endswith((".so", ".o")) and not os.path.relpath(d, tree).startswith("build")]
        if copied or os.path.exists(os.path.join(tree, "build", "temp.linux-x86_64-cpython-311")):
            fail("the instrumented tree holds outputs of the plain build: %s" % copied)
        with open(old_module, "rb") as f:
            new_bytes = f.read()
        if new_bytes == old_bytes or b"dlfl_rt" not in new_bytes:
            fail("the in-place module %s was not replaced by one linked with libdlfl_rt" % old_module)

        # 2. The run, collected without --probe-map, ranked.
        out = os.path.join(tmp, "run")
        run_tests(project, args.rt_lib, out)
        spectrum = os.path.join(tmp, "sfl.dlfl")
        r = run([args.dlfl, "collect", "--pytest-run", out, "-o", spectrum])
        # --inplace copies the map beside setup.py, above the installed module.
        installed_map = os.path.join(project, "dlfl-probes.map")
        if "probe map: " + installed_map not in r.stderr or "warning" in r.stderr:
            fail("dlfl collect did not find %s by itself, or warned:\n%s" % (installed_map, r.stderr))
        rows = list(csv.DictReader(io.StringIO(run([args.dlfl, "rank", spectrum, "--format", "csv"]).stdout)))
        faulty = [row for row in rows if row["file"].endswith("seeded/native.cpp") and row["line"] == str(line)]
        if not faulty or float(faulty[0]["rank"]) != 1:
            fail("seeded/native.cpp:%d is not first: %s" % (line, rows[:5]))
        print("faulty line seeded/native.cpp:%d ranked %s of %d elements" % (line, faulty[0]["rank"], len(rows)))

        # 3. A stale build: the plain module back in place.
        with open(old_module, "wb") as f:
            f.write(old_bytes)
        run_tests(project, args.rt_lib, out)
        r = run([args.dlfl, "collect", "--pytest-run", out, "-o", spectrum], expect=None)
        if "dlfl: warning:" not in r.stderr or "no dlfl probes" not in r.stderr or old_module not in r.stderr:
            fail("no warning about the stale module %s:\n%s" % (old_module, r.stderr))
        print("stale build warned: " + next(w for w in r.stderr.splitlines() if "no dlfl probes" in w))
    print("pyext check ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
