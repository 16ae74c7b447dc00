#!/usr/bin/env python3
"""python/ as a Python package: `pip install ./python` into a virtual environment, then
pytest finds the plugin through its pytest11 entry point (no `-p dlfl_pytest`, no
PYTHONPATH).

Usage: package_check.py --dlfl DLFL

Copies python/ to a temporary directory (pip builds in the tree it is given), makes a
virtual environment with the system site packages (Debian's pytest, coverage.py, torch and
setuptools: nothing is downloaded), installs the copy with `pip install
--no-build-isolation --no-index`, and in a small project checks that:
- `pytest --help` lists --dlfl-out;
- a run without --dlfl-out leaves no trace of the plugin;
- `pytest --dlfl-out run --dlfl-cov calc` (no -p) writes run/pytest-run.json with every
  test's outcome and run/coverage.json, which `dlfl collect --pytest-run` turns into a
  spectrum whose top-ranked line is the seeded fault;
- `-p dlfl_pytest` on top of the entry point still works (old command lines keep working).
Must run under the Python that has pytest and coverage (Debian's /usr/bin/python3); exits
77 (a CTest skip) with the reason when venv, pip, setuptools or coverage is missing.
"""
import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SKIP = 77

CALC_PY = '''\
def double(x):
    if x > 100:
        return x * 3  # the seeded fault
    return x * 2
'''

TEST_PY = '''\
from calc import double


def test_small():
    assert double(2) == 4


def test_zero():
    assert double(0) == 0


def test_large():
    assert double(200) == 400
'''


def skip(reason):
    print("SKIP: " + reason)
    sys.exit(SKIP)


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def run(argv, **kwargs):
    proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kwargs)
    return proc.returncode, proc.stdout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dlfl", required=True)
    args = parser.parse_args()
    for module in ("venv", "pip", "setuptools", "coverage", "pytest"):
        # find_spec, not import: importing setuptools here would patch distutils for this process.
        if importlib.util.find_spec(module) is None:
            skip(f"{sys.executable} has no {module} (Debian: python3-venv, python3-pip, python3-setuptools, "
                 "python3-coverage, python3-pytest)")

    with tempfile.TemporaryDirectory(prefix="dlfl-pypkg-") as tmp:
        source = os.path.join(tmp, "python")
        shutil.copytree(os.path.join(REPO, "python"), source,
                        ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
        venv = os.path.join(tmp, "venv")
        rc, out = run([sys.executable, "-m", "venv", "--system-site-packages", venv])
        if rc != 0:
            skip("cannot make a virtual environment: " + out.strip().splitlines()[-1] if out.strip() else "venv failed")
        python = os.path.join(venv, "bin", "python")
        rc, out = run([python, "-m", "pip", "install", "--no-build-isolation", "--no-index", "--no-deps", source])
        if rc != 0:
            fail("pip install ./python failed:\n" + out)

        project = os.path.join(tmp, "project")
        os.makedirs(os.path.join(project, "calc"))
        with open(os.path.join(project, "calc", "__init__.py"), "w") as f:
            f.write(CALC_PY)
        with open(os.path.join(project, "test_calc.py"), "w") as f:
            f.write(TEST_PY)
        # The installed plugin, not the source tree's: nothing of the repository on the path.
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTEST_PLUGINS", "PYTEST_ADDOPTS")}
        env["PATH"] = os.path.dirname(os.path.abspath(args.dlfl)) + os.pathsep + env.get("PATH", "")

        rc, out = run([python, "-m", "pytest", "--help"], cwd=project, env=env)
        if rc != 0 or "--dlfl-out" not in out:
            fail("pytest --help does not list --dlfl-out (entry point not loaded):\n" + out)
        rc, out = run([python, "-c", "import dlfl_pytest; print(dlfl_pytest.__file__)"], cwd=tmp, env=env)
        if rc != 0 or not out.strip().startswith(venv):
            fail("dlfl_pytest is not imported from the virtual environment: " + out)

        rc, out = run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=project, env=env)
        if rc != 1 or "1 failed, 2 passed" not in out:
            fail("plain pytest run (no --dlfl-out) did not run the tests as usual:\n" + out)
        leftovers = sorted(set(os.listdir(project)) - {"calc", "test_calc.py", "__pycache__"})
        if leftovers:
            fail(f"a run without --dlfl-out left {leftovers}")

        for label, extra in (("entry point", []), ("entry point and -p", ["-p", "dlfl_pytest"])):
            out_dir = os.path.join(tmp, "run-" + str(len(extra)))
            rc, out = run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", *extra, "--dlfl-out", out_dir,
                           "--dlfl-cov", "calc", "--dlfl-no-runtime"], cwd=project, env=env)
            if rc != 1:
                fail(f"{label}: pytest --dlfl-out: exit {rc}, expected 1 (one failing test):\n{out}")
            try:
                with open(os.path.join(out_dir, "pytest-run.json")) as f:
                    report = json.load(f)
            except (OSError, ValueError) as e:
                fail(f"{label}: no readable pytest-run.json: {e}\n{out}")
            outcomes = {t["name"]: t["runs"] for t in report["tests"]}
            expected = {"test_calc.py::test_small": ["passed"], "test_calc.py::test_zero": ["passed"],
                        "test_calc.py::test_large": ["failed"]}
            if any(outcomes.get(k) != v for k, v in expected.items()):
                fail(f"{label}: outcomes {outcomes}, expected {expected}")
            spectrum = os.path.join(tmp, f"sfl-{len(extra)}.dlfl")
            rc, out = run([args.dlfl, "collect", "--pytest-run", out_dir, "--leave-out", "c++", "-o", spectrum], cwd=project)
            if rc != 0:
                fail(f"{label}: dlfl collect --pytest-run failed:\n{out}")
            rc, out = run([args.dlfl, "rank", spectrum, "--top", "1", "--format", "csv"], cwd=project)
            if rc != 0 or "calc/__init__.py,3" not in out:
                fail(f"{label}: the seeded fault (calc/__init__.py:3) is not ranked first:\n{out}")
            print(f"ok: {label}: pytest --dlfl-out ran 3 tests, calc/__init__.py:3 ranked first")
    print("PASS")


if __name__ == "__main__":
    main()
