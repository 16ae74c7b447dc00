"""Runs a project's setup.py with the compiler calls of setuptools' build_ext watched.

    python -m dlfl_pytest._setup_hook MODE LOG setup.py ARGS...

MODE `record`: every compile command is written to LOG (compile_commands.json entries)
and nothing runs (no object, no library: setuptools writes no compilation database, and
`dlfl instrument` needs one; a real build would only be thrown away). MODE `build`: the
commands run, and each linked output is written to LOG. Both go through the compiler
object's spawn(), which distutils' own compile and link, pybind11's ParallelCompile and
torch.utils.cpp_extension.BuildExtension (without ninja) all call; under `record`,
BuildExtension is told not to use ninja, whose build runs the compiler itself.
"""
import atexit
import json
import os
import runpy
import sys
import threading
import time

SOURCE_SUFFIXES = (".c", ".cc", ".cpp", ".cxx", ".c++", ".C", ".cu")


def _source_of(argv):
    """The one source file a compile command compiles (the argument with a source suffix
    that exists), or None."""
    for arg in argv:
        if arg.endswith(SOURCE_SUFFIXES) and os.path.isfile(arg):
            return arg
    return None


def _output_of(argv):
    for i, arg in enumerate(argv[:-1]):
        if arg == "-o":
            return argv[i + 1]
    return None


class _Progress:
    """Under `build`: one stderr line per compiled unit, `units compiled K of N, elapsed`
    (N and the start from dlfl_pytest.build's environment); a real extension's build takes
    minutes. Thread-safe: pybind11's ParallelCompile spawns from several threads."""

    def __init__(self):
        self.total = int(os.environ.get("DLFL_PYTEST_UNITS", "0") or 0)
        self.start = float(os.environ.get("DLFL_PYTEST_START", "0") or 0) or time.time()
        self.done = 0
        self.lock = threading.Lock()

    def compiled(self):
        with self.lock:
            self.done += 1
            of = " of %d" % self.total if self.total else ""
            sys.stderr.write("dlfl_pytest.build: units compiled %d%s, elapsed %.0f s\n"
                             % (self.done, of, time.time() - self.start))
            sys.stderr.flush()


def main():
    mode, log, setup = sys.argv[1], sys.argv[2], sys.argv[3]
    entries = []
    progress = _Progress()

    def spawn(self, cmd, *args, **kwargs):
        argv = [str(a) for a in cmd]
        compiling = "-c" in argv
        if mode == "record":
            source = _source_of(argv) if compiling else None
            if source:
                entries.append({"directory": os.getcwd(), "file": os.path.abspath(source), "arguments": argv})
            return None
        result = original_spawn(self, cmd, *args, **kwargs)
        if compiling and _source_of(argv):
            progress.compiled()
        if not compiling and _output_of(argv):
            entries.append({"directory": os.getcwd(), "output": os.path.abspath(_output_of(argv))})
        return result

    import setuptools  # noqa: F401  (puts setuptools' distutils in place first)
    from setuptools._distutils import ccompiler
    original_spawn = ccompiler.CCompiler.spawn
    ccompiler.CCompiler.spawn = spawn
    try:
        import distutils.ccompiler as other
        if other.CCompiler is not ccompiler.CCompiler:
            other.CCompiler.spawn = spawn
    except ImportError:
        pass
    with open(setup, "rb") as f:
        uses_torch = b"cpp_extension" in f.read()
    if mode == "record" and uses_torch:
        from torch.utils import cpp_extension
        init = cpp_extension.BuildExtension.__init__

        def no_ninja(self, *args, **kwargs):
            init(self, *args, **kwargs)
            self.use_ninja = False

        cpp_extension.BuildExtension.__init__ = no_ninja

    def save():
        tmp = log + ".tmp"
        with open(tmp, "w") as f:
            json.dump(entries, f, indent=1)
        os.replace(tmp, log)

    atexit.register(save)
    sys.argv = [setup] + sys.argv[4:]
    sys.path.insert(0, os.path.dirname(os.path.abspath(setup)))
    runpy.run_path(setup, run_name="__main__")


if __name__ == "__main__":
    main()
