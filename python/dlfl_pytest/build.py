"""Builds a setuptools C++ extension (pybind11, PyTorch) instrumented by dlfl, in one step.

    /usr/bin/python3 -m dlfl_pytest.build [PROJECT] [--work DIR] [--inplace] [--dlfl DLFL]
        [--exclude TEXT]... [--extra-arg FLAG]... [-j N] [-- SETUP_COMMAND...]

PROJECT is the directory of setup.py (default: the current one); SETUP_COMMAND the
setup.py command that builds the extensions (default: build_ext). Steps:

1. records the compile commands setup.py would run into DIR/record/compile_commands.json
   (setuptools writes no compilation database; nothing is compiled for it);
2. `dlfl instrument -p DIR/record --root PROJECT --out DIR/tree`: the probed copy of the
   project and DIR/tree/dlfl-probes.map (no build output of PROJECT is copied: an old
   build/ or *.so would look up to date and the tests would load the uninstrumented code);
3. runs setup.py in DIR/tree with $(dlfl config --cflags) in CPPFLAGS and
   $(dlfl config --libs) in LDFLAGS, building into DIR/tree/build/lib (setuptools and
   torch's ninja rebuild what changed since the last run).

Prints `PYTHONPATH=DIR/tree/build/lib` for the tests. With --inplace the extension modules
go where `setup.py build_ext --inplace` puts them, into PROJECT's packages (replacing a
plain build there), and the probe map is copied to PROJECT/dlfl-probes.map; use it when
the extension is a module of a Python package of PROJECT (`mypkg._C`). DIR defaults to
PROJECT/build/dlfl. `dlfl collect --pytest-run` finds the probe map from the extension
modules the tests loaded. See docs/pytorch-extension.md.
"""
import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

HOOK = "dlfl_pytest._setup_hook"


class BuildError(Exception):
    pass


def _run(argv, **kwargs):
    r = subprocess.run(argv, capture_output=True, text=True, **kwargs)
    if r.returncode != 0:
        raise BuildError("%s failed (exit %d):\n%s%s" % (" ".join(map(shlex.quote, argv)), r.returncode,
                                                         r.stdout[-3000:], r.stderr[-6000:]))
    return r


_START = time.time()
# ninja's status line (torch.utils.cpp_extension builds with ninja): "[3/12] c++ ...".
_NINJA_STATUS = re.compile(r"^\[(\d+)/(\d+)\] ")


def _say(message):
    """A progress line on stderr with the time since the start."""
    sys.stderr.write("dlfl_pytest.build: %s (elapsed %.0f s)\n" % (message, time.time() - _START))
    sys.stderr.flush()


def _run_with_progress(argv, **kwargs):
    """_run() for the long build: its output is read as it comes, our hook's progress lines
    (`units compiled K of N`) and ninja's `[K/N]` are passed on to stderr, and the rest is
    kept for the error message."""
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kwargs)
    kept = []
    for line in p.stdout:
        if line.startswith("dlfl_pytest.build: units compiled"):
            sys.stderr.write(line)
            sys.stderr.flush()
            continue
        m = _NINJA_STATUS.match(line)
        if m:
            _say("units compiled %s of %s (ninja)" % (m.group(1), m.group(2)))
        kept.append(line)
        if len(kept) > 400:
            del kept[:200]
    p.wait()
    if p.returncode != 0:
        raise BuildError("%s failed (exit %d):\n%s" % (" ".join(map(shlex.quote, argv)), p.returncode,
                                                     "".join(kept)[-9000:]))


def _hook_env(extra=None):
    """The environment of a setup.py run under the hook: this package importable."""
    env = dict(os.environ, **(extra or {}))
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = here + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def record_compile_commands(project, record_dir, setup_command):
    """DIR/record/compile_commands.json from a dry run of setup.py (no compiler runs)."""
    os.makedirs(record_dir, exist_ok=True)
    log = os.path.join(record_dir, "compile_commands.json")
    temp = os.path.join(record_dir, "temp")
    argv = [sys.executable, "-m", HOOK, "record", log, "setup.py"] + setup_command
    if setup_command[:1] == ["build_ext"]:
        # --force: a dry run must see every unit, whatever an earlier build left.
        argv += ["--force", "--build-temp", temp, "--build-lib", os.path.join(record_dir, "lib")]
    _run(argv, cwd=project, env=_hook_env())
    with open(log) as f:
        entries = json.load(f)
    if not entries:
        raise BuildError("%s: setup.py %s compiled no C or C++ file (is it an extension build?)"
                         % (project, " ".join(setup_command)))
    return log, len(entries)


def dlfl_config(dlfl, what):
    return _run([dlfl, "config", what]).stdout.strip()


def build(args):
    project = os.path.abspath(args.project)
    if not os.path.isfile(os.path.join(project, "setup.py")):
        raise BuildError("%s: no setup.py there" % project)
    work = os.path.abspath(args.work or os.path.join(project, "build", "dlfl"))
    dlfl = args.dlfl or shutil.which("dlfl")
    if not dlfl:
        raise BuildError("no dlfl on PATH: pass --dlfl PATH")
    setup_command = args.setup_command or ["build_ext"]
    record_dir, tree = os.path.join(work, "record"), os.path.join(work, "tree")

    _say("recording the compile commands of setup.py %s" % " ".join(setup_command))
    _, units = record_compile_commands(project, record_dir, setup_command)
    _say("instrumenting %d units" % units)
    instrument = [dlfl, "instrument", "-p", record_dir, "--root", project, "--out", tree, "--quiet"]
    instrument += ["--exclude=" + x for x in args.exclude] + ["--extra-arg=" + x for x in args.extra_arg]
    if args.jobs:
        instrument += ["-j", str(args.jobs)]
    probe_map = _run(instrument).stdout.strip().splitlines()[-1]

    env = _hook_env({"CPPFLAGS": (os.environ.get("CPPFLAGS", "") + " " + dlfl_config(dlfl, "--cflags")).strip(),
                     "LDFLAGS": (os.environ.get("LDFLAGS", "") + " " + dlfl_config(dlfl, "--libs")).strip()})
    env.setdefault("MAX_JOBS", str(args.jobs or 2))  # torch.utils.cpp_extension's ninja
    env["DLFL_PYTEST_UNITS"] = str(units)
    env["DLFL_PYTEST_START"] = repr(_START)
    log = os.path.join(work, "outputs.json")
    argv = [sys.executable, "-m", HOOK, "build", log, "setup.py"] + setup_command
    lib = os.path.join(tree, "build", "lib")
    if setup_command[:1] == ["build_ext"]:
        argv += ["--build-lib", lib, "--build-temp", os.path.join(tree, "build", "temp")]
    _say("building the instrumented tree: %d units to compile" % units)
    _run_with_progress(argv, cwd=tree, env=env)
    _say("built")
    with open(log) as f:
        outputs = [e["output"] for e in json.load(f)]
    print("dlfl_pytest.build: %d units instrumented, probe map %s" % (units, probe_map))
    if args.inplace:
        for built in outputs:
            module_path = os.path.relpath(built, lib)  # pkg/_C.cpython-311-x86_64-linux-gnu.so
            if module_path.startswith(".."):
                continue
            target = os.path.join(project, module_path)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copy2(built, target + ".tmp")
            os.replace(target + ".tmp", target)
            print("dlfl_pytest.build: installed %s" % target)
        shutil.copy2(probe_map, os.path.join(project, ".dlfl-probes.map.tmp"))
        os.replace(os.path.join(project, ".dlfl-probes.map.tmp"), os.path.join(project, "dlfl-probes.map"))
    else:
        for built in outputs:
            print("dlfl_pytest.build: built %s" % built)
        print("PYTHONPATH=%s" % lib)
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m dlfl_pytest.build", description=__doc__.split("\n")[0])
    parser.add_argument("project", nargs="?", default=".", help="directory of setup.py (default: .)")
    parser.add_argument("--work", help="where the instrumented tree and its build go (default PROJECT/build/dlfl)")
    parser.add_argument("--inplace", action="store_true",
                        help="put the instrumented extension modules into PROJECT's packages, as build_ext --inplace")
    parser.add_argument("--dlfl", help="the dlfl executable (default: dlfl on PATH)")
    parser.add_argument("--exclude", action="append", default=[], help="dlfl instrument --exclude (repeatable)")
    parser.add_argument("--extra-arg", action="append", default=[], help="dlfl instrument --extra-arg (repeatable)")
    parser.add_argument("-j", "--jobs", type=int, default=0, help="parallel jobs of instrument and build")
    argv = list(sys.argv[1:] if argv is None else argv)
    setup_command = argv[argv.index("--") + 1:] if "--" in argv else []
    args = parser.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    args.setup_command = setup_command  # after --: the setup.py command (default: build_ext)
    try:
        return build(args)
    except BuildError as e:
        sys.stderr.write("dlfl_pytest.build: error: %s\n" % e)
        return 2


if __name__ == "__main__":
    sys.exit(main())
