"""dlfl_pytest: per-test spectra of a pytest run, Python and C++ lines together.

Load it with `pytest -p dlfl_pytest --dlfl-out DIR` (this directory on PYTHONPATH; see
python/README.md). For every test it

* brackets the test for dlfl's C++ runtime (libdlfl_rt through ctypes, as
  examples/pytest_conftest did), so an extension built from a `dlfl instrument` tree records
  the C++ lines of each test in DIR/rt-WORKER.map;
* records the Python lines of the packages named with --dlfl-cov (coverage.py, one dynamic
  context per test: its node id; the lines run outside any test, mostly imports during
  collection, in the context of the pseudo-test `<collection>`, which passes unless a
  module failed to collect) and writes DIR/coverage.json (`coverage json
  --show-contexts`) at the end;
* records each run's outcome (--dlfl-repeat N runs every test N times: a test failing k of
  N runs has failure weight k/N) and the test's extrinsic conditions: its parametrize
  values (`dtype=float16`, `device=cuda:0`, `cfg=fast` for a dict with ids=, see
  extrinsic_value) and the environment variables named with --dlfl-extrinsic-env; they go
  to DIR/pytest-run.json with a function table of the measured Python files (coverage.py's
  JSON has no functions).

Works under pytest-xdist: each worker writes its own runtime snapshot and coverage data,
the controller merges. Then:

    dlfl collect --pytest-run DIR -o sfl.dlfl   # the probe map is found from the loaded extensions
"""
import ast
import ctypes
import enum
import hashlib
import importlib.machinery
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import pytest

RT_PASSED, RT_FAILED, RT_SKIPPED = 0, 1, 2  # dlfl_rt.h
REPORT_NAME = "pytest-run.json"
COVERAGE_JSON_NAME = "coverage.json"
REPORT_VERSION = 1
# The pseudo-test of the lines that run outside any test: imports of the test modules and
# of the measured packages during collection (module bodies, class bodies, decorators,
# `def` lines). It passes when every module was collected, fails on a collection error.
# One run, like a real test: such a line is ranked by that one run instead of by no test
# (every function's `def` line ran at import, so giving these lines to every test would
# make every function look covered by every failing test).
COLLECTION_TEST = "<collection>"


def pytest_addoption(parser):
    group = parser.getgroup("dlfl", "dlfl spectra (per-test Python and C++ coverage)")
    group.addoption("--dlfl-out", metavar="DIR", default=None,
                    help="write the run's spectrum data to DIR (turns the plugin on)")
    group.addoption("--dlfl-cov", metavar="PKG", action="append", default=[],
                    help="measure this package or directory with coverage.py, per test (repeatable)")
    group.addoption("--dlfl-repeat", metavar="N", type=int, default=1,
                    help="run every test N times; a test failing k of N runs has failure weight k/N")
    group.addoption("--dlfl-extrinsic-env", metavar="NAME", action="append", default=[],
                    help="record the value of this environment variable as an extrinsic element "
                         "NAME=value of every test (repeatable)")
    group.addoption("--dlfl-rt-lib", metavar="SO", default=None,
                    help="libdlfl_rt.so to bracket tests for C++ coverage (default: $DLFL_RT_LIB, else "
                         "`dlfl config --lib-dir`; none found: Python coverage only)")
    group.addoption("--dlfl-no-runtime", action="store_true", default=False,
                    help="do not load libdlfl_rt (Python coverage only)")


def pytest_configure(config):
    out = config.getoption("dlfl_out")
    if not out:
        return
    if config.getoption("dlfl_repeat") < 1:
        raise pytest.UsageError("--dlfl-repeat must be at least 1")
    config.pluginmanager.register(DlflPlugin(config, os.path.abspath(out)), "dlfl_pytest_plugin")


def _worker_id(config):
    workerinput = getattr(config, "workerinput", None)
    return workerinput["workerid"] if workerinput else None


def _is_xdist_controller(config):
    return _worker_id(config) is None and getattr(config.option, "dist", "no") != "no"


MAX_LABEL = 60  # characters of an extrinsic label; longer ones keep a hash of the rest


def _clean_label(text):
    """`text` without control characters (escaped as \\xNN) and at most MAX_LABEL
    characters: a longer label keeps its start and a hash of the whole, so two long
    values stay two elements."""
    text = "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)
    if len(text) <= MAX_LABEL:
        return text
    digest = hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return text[:MAX_LABEL - 9] + "~" + digest


def _torch_text(value):
    """`float16` for torch.float16, `cpu` / `cuda:0` for a torch.device, else None
    (without importing torch: the value's type tells)."""
    kind = type(value)
    if kind.__module__ != "torch" or kind.__name__ not in ("dtype", "device"):
        return None
    text = str(value)
    return text[len("torch."):] if text.startswith("torch.") else text


def _value_ids(value):
    """The ids pytest derives from a value by itself (IdMaker._idval_from_value: a string,
    escaped or not, a number, an enum, a class's or function's name); [] for other values,
    which pytest names `argname` + index."""
    if isinstance(value, str):
        return [value, value.encode("unicode_escape").decode("ascii")]
    if value is None or isinstance(value, (bool, int, float, complex, enum.Enum)):
        return [str(value)]
    name = getattr(value, "__name__", None)
    return [name] if isinstance(name, str) else []


def _split_auto_id(pid, names, values):
    """Each argument's part of `pid`, the id pytest gave one parametrize call over `names`,
    when pytest made it from the values (`1-cfg0`); None when the user gave it (`ids=`,
    `pytest.param(id=)`, an ids function) and it names the call as a whole."""
    if len(names) == 1:
        # The regular expression below, without compiling one per test (a new pattern for
        # every value: compiling was most of the plugin's own time per test).
        name = names[0]
        if pid.startswith(name) and pid[len(name):].isdecimal():
            return [pid]
        for text in _value_ids(values[name]):
            rest = pid[len(text):]
            if pid.startswith(text) and (not rest or rest.isdecimal()):
                return [text]
        return None
    parts = ["(%s)" % "|".join([re.escape(name) + r"\d+"] + [re.escape(v) for v in _value_ids(values[name])])
             for name in names]
    # pytest makes duplicate ids unique with a counter: `a0`, `a1` for two `a`.
    match = re.fullmatch("-".join(parts) + r"\d*", pid)
    return list(match.groups()) if match else None


def extrinsic_value(value, pytest_id, user_id=None):
    """How a parameter's value is named in an extrinsic element, `name=<this>`: the id the
    user gave, else `float16` / `cpu` / `cuda:0` for torch dtypes and devices, the string
    itself, repr() of None, booleans and numbers, else pytest's own id for the parameter
    (a class's or function's name, `cfg0` for a dict): never a type name, which every
    test with such a parameter would share."""
    if user_id is not None:
        return user_id
    text = _torch_text(value)
    if text is not None:
        return text
    if value is None or isinstance(value, (bool, int, float)):
        return repr(value)
    if isinstance(value, str):
        return value
    return pytest_id


def _parametrize_groups(item):
    """The argument names of each multi-argument @pytest.mark.parametrize of the test
    (`"a,b"`): pytest gives such a call one id."""
    groups = []
    for mark in item.iter_markers(name="parametrize"):
        names = mark.args[0] if mark.args else mark.kwargs.get("argnames", ())
        if isinstance(names, str):
            names = [n.strip() for n in names.split(",") if n.strip()]
        if len(names) > 1:
            groups.append(list(names))
    return groups


def _ids_by_call(callspec, names, groups):
    """[(argnames, id)], one per parametrize call (fixture params included) in the order
    pytest made them: callspec._idlist holds the ids in that order, as callspec.indices
    (insertion-ordered) holds the arguments. None when the two do not line up."""
    idlist = getattr(callspec, "_idlist", None)
    if idlist is None:
        return None
    calls, i = [], 0
    while i < len(names):
        group = next((g for g in groups if names[i:i + len(g)] == g), [names[i]])
        calls.append(group)
        i += len(group)
    return list(zip(calls, idlist)) if len(calls) == len(idlist) else None


def extrinsic_labels(item, env_names):
    """The extrinsic elements of a test: `name=value` per parametrize argument (see
    extrinsic_value; a multi-argument parametrize the user named gives one `a,b=id`),
    then `NAME=value` per named environment variable (`NAME=` when unset)."""
    labels = []
    callspec = getattr(item, "callspec", None)
    if callspec is not None:
        values = dict(getattr(callspec, "funcargs", {}))
        values.update(callspec.params)
        names = [n for n in getattr(callspec, "indices", {}) if n in values]
        names += [n for n in values if n not in names]
        calls = _ids_by_call(callspec, names, _parametrize_groups(item))
        if calls is None:  # a pytest whose callspec differs: the values alone
            calls = [([n], None) for n in names]
        for group, pid in calls:
            parts = _split_auto_id(pid, group, values) if pid is not None else None
            if pid is not None and parts is None and len(group) > 1:
                labels.append(_clean_label("%s=%s" % (",".join(group), pid)))
                continue
            for k, name in enumerate(group):
                # callspec.indices can be wrong (pytest 7.2 gives every argument the
                # index of the last call), so the fallback index is only a fallback.
                own = parts[k] if parts else "%s%d" % (name, callspec.indices.get(name, 0))
                user = pid if pid is not None and parts is None else None
                labels.append(_clean_label("%s=%s" % (name, extrinsic_value(values[name], own, user))))
    for name in env_names:
        labels.append(_clean_label("%s=%s" % (name, os.environ.get(name, ""))))
    return labels


def function_table(path):
    """[[first_line, last_line, qualname], ...] of the functions of a Python file, from its
    AST (decorators included in the range); [] when it does not parse."""
    try:
        with open(path, "rb") as f:
            tree = ast.parse(f.read(), filename=path)
    except (OSError, SyntaxError, ValueError):
        return []
    table = []

    def visit(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = prefix + child.name
                first = min([child.lineno] + [d.lineno for d in child.decorator_list])
                if not isinstance(child, ast.ClassDef):
                    table.append([first, child.end_lineno, name])
                visit(child, name + ("." if isinstance(child, ast.ClassDef) else ".<locals>."))
            else:
                visit(child, prefix)

    visit(tree, "")
    return sorted(table)


class Runtime:
    """libdlfl_rt through ctypes: one slot per test run, named by the node id."""

    def __init__(self, path):
        # RTLD_GLOBAL, loaded before any instrumented extension: the extension's dependency
        # on libdlfl_rt.so then binds to this instance (one map, one snapshot file).
        self.lib = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
        self.lib.dlfl_rt_begin_test.argtypes = [ctypes.c_char_p]
        self.lib.dlfl_rt_begin_test.restype = ctypes.c_int
        self.lib.dlfl_rt_end_test.argtypes = [ctypes.c_int]
        self.lib.dlfl_rt_end_test.restype = ctypes.c_int
        self.lib.dlfl_rt_probe_count.restype = ctypes.c_uint64
        self.lib.dlfl_rt_file_path.restype = ctypes.c_char_p
        self.images_known = hasattr(self.lib, "dlfl_rt_image")  # a runtime older than the call has none
        if self.images_known:
            self.lib.dlfl_rt_image.argtypes = [ctypes.c_uint32, ctypes.POINTER(ctypes.c_uint64)]
            self.lib.dlfl_rt_image.restype = ctypes.c_char_p

    def images(self):
        """[{"path", "map_id"}] of the images (extension modules, libraries) whose
        instrumented code registered probes with this runtime."""
        out = []
        map_id = ctypes.c_uint64()
        while self.images_known:
            path = self.lib.dlfl_rt_image(len(out), ctypes.byref(map_id))
            if path is None:
                break
            out.append({"path": os.path.realpath(path.decode("utf-8", "surrogateescape")),
                        "map_id": "%016x" % map_id.value})
        return out

    def drop_if_unused(self):
        """Removes the snapshot when no instrumented code registered a probe (pure Python
        tests): `dlfl collect --pytest-run` then needs no probe map."""
        path = self.lib.dlfl_rt_file_path()
        if self.lib.dlfl_rt_probe_count() == 0 and path:
            try:
                os.remove(path.decode())
            except OSError:
                pass

    def begin(self, name):
        self.lib.dlfl_rt_begin_test(name.encode("utf-8"))

    def end(self, outcome):
        self.lib.dlfl_rt_end_test(outcome)


def find_runtime(config):
    if config.getoption("dlfl_no_runtime"):
        return None
    path = config.getoption("dlfl_rt_lib") or os.environ.get("DLFL_RT_LIB")
    if not path:
        dlfl = shutil.which("dlfl")
        if not dlfl:
            return None
        r = subprocess.run([dlfl, "config", "--lib-dir"], capture_output=True, text=True)
        if r.returncode != 0:
            return None
        path = os.path.join(r.stdout.strip(), "libdlfl_rt.so")
    if not os.path.exists(path):
        raise pytest.UsageError("dlfl_pytest: the runtime library %s does not exist" % path)
    return path


class DlflPlugin:
    def __init__(self, config, out):
        self.config = config
        self.out = out
        self.worker = _worker_id(config)
        self.controller = _is_xdist_controller(config)
        self.repeat = config.getoption("dlfl_repeat")
        self.env_names = config.getoption("dlfl_extrinsic_env")
        self.tests = {}  # node id -> {"runs": [outcome...], "extrinsic": [...]}, in report order
        self.collection_failed = False
        self.coverage = None
        self.context = None  # coverage.py's current dynamic context
        self.runtime = None
        if self.worker is None:
            os.makedirs(out, exist_ok=True)
            # Data of an earlier run in the same directory would be merged into this one.
            for name in os.listdir(out):
                if name.startswith(("rt-", ".coverage", "native-")) or name in (REPORT_NAME, COVERAGE_JSON_NAME):
                    os.remove(os.path.join(out, name))
        if self.controller:
            return  # the workers run the tests
        suffix = self.worker or "main"
        rt_path = find_runtime(config)
        if rt_path:
            os.environ["DLFL_RT_FILE"] = os.path.join(out, "rt-%s.map" % suffix)
            self.runtime = Runtime(rt_path)
        sources = config.getoption("dlfl_cov")
        if sources:
            import coverage
            # In memory until the end (data_file=None): coverage.py writes its data at
            # every context switch, once per test, three times faster so than to a file.
            self.data_file = os.path.join(out, ".coverage." + suffix)
            self.coverage = coverage.Coverage(data_file=None, source=sources, branch=False, config_file=False)
            self.coverage.start()
            self.coverage.switch_context(COLLECTION_TEST)
            self.context = COLLECTION_TEST

    # --- running the tests -------------------------------------------------------------

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_protocol(self, item, nextitem):
        from _pytest.runner import runtestprotocol
        item.ihook.pytest_runtest_logstart(nodeid=item.nodeid, location=item.location)
        labels = extrinsic_labels(item, self.env_names)
        for run in range(self.repeat):
            if run:
                item._initrequest()  # fresh fixture values for the rerun, as pytest-rerunfailures does
            item._dlfl_outcome = RT_PASSED
            item._dlfl_labels = labels
            if self.coverage and self.context != item.nodeid:
                # One switch per test, none back to <collection> after it: every switch
                # flushes the lines coverage.py collected into its SQLite database, the
                # plugin's main cost per test. Code runs between two tests' protocols only in pytest itself (a
                # module's fixtures are set up and torn down inside a test's protocol).
                self.coverage.switch_context(item.nodeid)
                self.context = item.nodeid
            if self.runtime:
                self.runtime.begin(item.nodeid)
            # Each run tears its function-scoped fixtures down (and, for the last test of a
            # module, the module's: a rerun sets them up again).
            runtestprotocol(item, nextitem=nextitem, log=True)
            if self.runtime:
                self.runtime.end(item._dlfl_outcome)
        item.ihook.pytest_runtest_logfinish(nodeid=item.nodeid, location=item.location)
        return True

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        report = outcome.get_result()
        worst = getattr(item, "_dlfl_outcome", RT_PASSED)
        if report.failed:
            worst = RT_FAILED
        elif report.skipped and worst == RT_PASSED:
            worst = RT_SKIPPED
        item._dlfl_outcome = worst
        if report.when == "teardown":
            # Carried to the xdist controller with the report.
            report.user_properties.append(("dlfl", {"outcome": worst, "extrinsic": getattr(item, "_dlfl_labels", [])}))

    def pytest_collectreport(self, report):
        # Under xdist the controller gets the workers' failed collection reports.
        if report.failed:
            self.collection_failed = True

    def pytest_runtest_logreport(self, report):
        if report.when != "teardown":
            return
        # The item's properties may hold the entries of earlier runs: the last one is this run's.
        mine = [value for key, value in report.user_properties if key == "dlfl"]
        if mine:
            test = self.tests.setdefault(report.nodeid, {"runs": [], "extrinsic": mine[-1]["extrinsic"]})
            test["runs"].append(["passed", "failed", "skipped"][mine[-1]["outcome"]])

    def pytest_terminal_summary(self, terminalreporter):
        if self.worker is not None:
            return
        flaky = [(name, t["runs"]) for name, t in self.tests.items()
                 if "failed" in t["runs"] and "passed" in t["runs"]]
        if flaky:
            terminalreporter.section("dlfl: flaky tests (failed k of N runs)")
            for name, runs in flaky:
                counted = [r for r in runs if r != "skipped"]
                terminalreporter.line("%s  %d/%d" % (name, counted.count("failed"), len(counted)))
        terminalreporter.line("dlfl: %d tests x %d runs recorded in %s" % (len(self.tests), self.repeat, self.out))

    # --- the end of the run --------------------------------------------------------------

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session):
        # Before xdist's worker tells the controller it finished: the data must be on disk.
        if self.coverage:
            import coverage
            self.coverage.stop()
            saved = coverage.CoverageData(basename=self.data_file)
            saved.update(self.coverage.get_data())
            saved.write()
        if self.runtime:
            self.runtime.drop_if_unused()
        if not self.controller:
            write_atomically(os.path.join(self.out, "native-%s.json" % (self.worker or "main")),
                             json.dumps(native_libraries(self.runtime, str(self.config.rootpath))) + "\n")
        if self.worker is None:
            self.write_outputs()

    def write_outputs(self):
        measured = {}
        if self.config.getoption("dlfl_cov"):
            measured = self.write_coverage_json() or {}
        tests = [{"name": name, "runs": t["runs"], "extrinsic": t["extrinsic"]} for name, t in self.tests.items()]
        native = merge_native(self.out)
        # Only when it covered a line (or failed): a pseudo-test that covers nothing would
        # still count as one more passing test for every element.
        if self.collection_failed or any(COLLECTION_TEST in names for contexts in measured.values()
                                         for names in contexts.values()):
            tests.insert(0, {"name": COLLECTION_TEST, "runs": ["failed" if self.collection_failed else "passed"],
                             "extrinsic": []})
        report = {
            "format": "dlfl-pytest-run",
            "version": REPORT_VERSION,
            "root": os.getcwd(),
            "repeat": self.repeat,
            "extrinsic_env": self.env_names,
            "coverage_json": COVERAGE_JSON_NAME if measured else None,
            "tests": tests,
            "functions": {path: function_table(os.path.join(os.getcwd(), path)) for path in sorted(measured or {})},
            # What dlfl collect checks for silent gaps: a --dlfl-cov source of which no file
            # ran, extension modules of the project loaded without probes (a stale build),
            # and where the instrumented ones are (their probe map is found from there).
            "cov_sources": [{"source": src, "files": count_measured(src, measured or {})}
                            for src in self.config.getoption("dlfl_cov")],
            "native": native,
        }
        write_atomically(os.path.join(self.out, REPORT_NAME), json.dumps(report, indent=1) + "\n")

    def write_coverage_json(self):
        """Combines the per-process coverage data into coverage.json (with contexts);
        returns {file name (as coverage.py wrote it): {line: [context...]}}, or None when
        nothing was measured."""
        import coverage
        cov = coverage.Coverage(data_file=os.path.join(self.out, ".coverage"), config_file=False)
        cov.combine(data_paths=[self.out], keep=True)
        cov.save()
        cov.load()
        if not cov.get_data().measured_files():
            sys.stderr.write("dlfl_pytest: warning: coverage.py measured no file of %s\n"
                             % ", ".join(self.config.getoption("dlfl_cov")))
            return None
        target = os.path.join(self.out, COVERAGE_JSON_NAME)
        tmp = target + ".tmp"
        cov.json_report(outfile=tmp, show_contexts=True)
        os.replace(tmp, target)
        with open(target) as f:
            return {name: entry.get("contexts", {}) for name, entry in json.load(f).get("files", {}).items()}


def native_libraries(runtime, rootdir):
    """What this process loaded: whether the runtime was loaded, the images that registered
    probes with it, and the extension modules under the project's root directory that did
    not (with an instrumented build installed, such a module is an old plain build that
    Python imported instead)."""
    images = runtime.images() if runtime else []
    instrumented = {image["path"] for image in images}
    root = os.path.realpath(rootdir) + os.sep
    plain = set()
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None)
        if isinstance(path, str) and path.endswith(suffixes):
            real = os.path.realpath(path)
            if real.startswith(root) and real not in instrumented:
                plain.add(real)
    return {"runtime": runtime is not None, "images": images, "uninstrumented_extensions": sorted(plain)}


def merge_native(out):
    """The native-*.json of every process (one per xdist worker) as one record."""
    merged = {"runtime": False, "images": [], "uninstrumented_extensions": []}
    for name in sorted(os.listdir(out)):
        if not (name.startswith("native-") and name.endswith(".json")):
            continue
        with open(os.path.join(out, name)) as f:
            part = json.load(f)
        merged["runtime"] = merged["runtime"] or part["runtime"]
        merged["images"] += [i for i in part["images"] if i not in merged["images"]]
        merged["uninstrumented_extensions"] = sorted(set(merged["uninstrumented_extensions"]) |
                                                     set(part["uninstrumented_extensions"]))
    return merged


def count_measured(source, measured):
    """How many measured files belong to a --dlfl-cov source: a directory, else a package
    (its directory found without importing it), else any file whose path names it."""
    dirs = [os.path.realpath(source)] if os.path.isdir(source) else []
    if not dirs:
        try:
            spec = importlib.util.find_spec(source)
        except (ImportError, ValueError):
            spec = None
        if spec is not None:
            dirs = [os.path.realpath(d) for d in (spec.submodule_search_locations or [])]
            if spec.origin and not dirs:
                return sum(os.path.realpath(f) == os.path.realpath(spec.origin) for f in measured)
    if dirs:
        return sum(any(os.path.realpath(f).startswith(d + os.sep) for d in dirs) for f in measured)
    return sum(source.replace(".", os.sep) in f for f in measured)


def write_atomically(path, text):
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.replace(tmp, path)
