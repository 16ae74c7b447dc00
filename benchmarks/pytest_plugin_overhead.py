#!/usr/bin/python3
"""pytest_plugin_overhead.py: the CPU cost of python/dlfl_pytest against a plain pytest run.

Generates a pure-Python project (package `synth` of --modules modules, --tests
parametrized tests that each call into it, --work iterations of Python work per test)
and runs, back to back, --repeat times each, alternating:

  plain      pytest -q tests/
  coverage   coverage.py's own line coverage (`python -m coverage run --source synth -m
             pytest`), no per-test contexts: the floor any per-test Python coverage pays
  dlfl       pytest -p dlfl_pytest --dlfl-out RUN --dlfl-cov synth --dlfl-no-runtime:
             per-test contexts, outcomes, extrinsic labels, function table, coverage.json

Prints the child CPU time (user + sys, best of --repeat) of each and the ratios
dlfl/plain and dlfl/coverage, and which tracer coverage.py used (its C tracer, CTracer,
unless only the Python one is available; `sys.monitoring` on Python 3.12+ with
coverage.py >= 7.4).

Usage: /usr/bin/python3 benchmarks/pytest_plugin_overhead.py [--tests N] [--modules N]
           [--work N] [--repeat N] [--dir DIR] [--plugin-path DIR]
Needs Debian's python3-pytest and python3-coverage for that interpreter.
"""
import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

MODULE = '''\
def step_{m}(x, k):
    total = 0
    for i in range(k):
        if (x + i) % 3 == 0:
            total += i
        elif (x + i) % 3 == 1:
            total -= 1
        else:
            total += x
    return total


class Acc{m}:
    def __init__(self):
        self.values = []

    def add(self, v):
        self.values.append(v)
        return sum(self.values)
'''

TESTS = '''\
import pytest

import synth


@pytest.mark.parametrize("x", range({tests}))
@pytest.mark.parametrize("dtype", ["float32"])
def test_step(x, dtype):
    m = x % {modules}
    mod = getattr(synth, "m%d" % m)
    acc = getattr(mod, "Acc%d" % m)()
    assert acc.add(getattr(mod, "step_%d" % m)(x, {work})) is not None
'''


def write_project(root, tests, modules, work):
    pkg = os.path.join(root, "synth")
    os.makedirs(pkg)
    os.makedirs(os.path.join(root, "tests"))
    with open(os.path.join(pkg, "__init__.py"), "w") as f:
        f.write("".join("from synth import m%d\n" % m for m in range(modules)))
    for m in range(modules):
        with open(os.path.join(pkg, "m%d.py" % m), "w") as f:
            f.write(MODULE.format(m=m))
    with open(os.path.join(root, "tests", "test_synth.py"), "w") as f:
        f.write(TESTS.format(tests=tests, modules=modules, work=work))


def cpu_of(argv, cwd, env):
    """Child CPU seconds (user + sys) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        sys.exit("pytest_plugin_overhead: %s failed:\n%s%s" % (" ".join(argv), r.stdout[-2000:], r.stderr[-2000:]))
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def tracer_in_use():
    import coverage
    cov = coverage.Coverage(config_file=False, data_file=None)
    cov.start()
    name = getattr(cov, "_collector", None) and cov._collector.tracer_name()
    cov.stop()
    return "%s (coverage.py %s, Python %d.%d)" % (name or "?", coverage.__version__, *sys.version_info[:2])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tests", type=int, default=2000)
    parser.add_argument("--modules", type=int, default=20)
    parser.add_argument("--work", type=int, default=200, help="loop iterations of Python work per test")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--dir", default=None, help="scratch directory (default: a temporary one)")
    parser.add_argument("--plugin-path", default=os.path.join(ROOT, "python"),
                        help="directory holding dlfl_pytest (default: this tree's python/), to compare versions")
    args = parser.parse_args()
    try:
        import coverage  # noqa: F401
        import pytest  # noqa: F401
    except ImportError as e:
        sys.exit("pytest_plugin_overhead: %s (Debian: python3-pytest python3-coverage)" % e)

    scratch = args.dir or tempfile.mkdtemp(prefix="dlfl-plugin-overhead-")
    project = os.path.join(scratch, "project")
    shutil.rmtree(project, ignore_errors=True)
    write_project(project, args.tests, args.modules, args.work)
    env = dict(os.environ, PYTHONPATH=args.plugin_path + os.pathsep + project,
               PYTHONDONTWRITEBYTECODE="1")
    env.pop("DLFL_RT_LIB", None)
    py = sys.executable
    common = ["-q", "-p", "no:cacheprovider", "tests"]
    runs = {
        "plain": [py, "-m", "pytest"] + common,
        "coverage": [py, "-m", "coverage", "run", "--data-file", os.path.join(scratch, ".coverage"), "--source",
                     "synth", "-m", "pytest"] + common,
        "dlfl": [py, "-m", "pytest", "-p", "dlfl_pytest", "--dlfl-out", os.path.join(scratch, "run"), "--dlfl-cov",
                 "synth", "--dlfl-no-runtime"] + common,
    }
    best = {name: float("inf") for name in runs}
    for _ in range(args.repeat):
        for name, argv in runs.items():  # alternating: each sees the same machine load
            best[name] = min(best[name], cpu_of(argv, project, env))
    print("# %d tests, %d modules, work %d, best of %d; tracer: %s" % (args.tests, args.modules, args.work,
                                                                       args.repeat, tracer_in_use()))
    for name in runs:
        print("%-9s %.2f s CPU" % (name, best[name]))
    print("dlfl/plain: %.2fx" % (best["dlfl"] / best["plain"]))
    print("dlfl/coverage: %.2fx" % (best["dlfl"] / best["coverage"]))
    if not args.dir:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
