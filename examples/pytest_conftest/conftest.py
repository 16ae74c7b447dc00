"""conftest.py: brackets every pytest test with dlfl's coverage runtime.

A C++ extension module built from a `dlfl instrument` tree (and linked with
`$(dlfl config --libs)`) writes its probes into libdlfl_rt; this conftest tells the runtime
where each test starts and ends, so ONE pytest run yields per-test coverage:

    DLFL_RT_FILE=/tmp/run.map pytest tests/
    dlfl collect --runtime --snapshot /tmp/run.map --probe-map instr/dlfl-probes.map -o sfl.dlfl

Copy it into your tests directory (or merge it into your conftest.py). The runtime library
is found through DLFL_RT_LIB (a path to libdlfl_rt.so), else `dlfl config --lib-dir`.
Without DLFL_RT_FILE the calls still work and nothing is written.
"""
import ctypes
import os
import subprocess

import pytest

DLFL_RT_PASSED, DLFL_RT_FAILED, DLFL_RT_SKIPPED = 0, 1, 2


def _load_runtime():
    path = os.environ.get("DLFL_RT_LIB")
    if not path:
        libdir = subprocess.run(["dlfl", "config", "--lib-dir"], capture_output=True, text=True,
                                check=True).stdout.strip()
        path = os.path.join(libdir, "libdlfl_rt.so")
    # RTLD_GLOBAL, loaded before the extension module: the module's dependency on
    # libdlfl_rt.so then binds to this very instance (one map, one snapshot file).
    lib = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
    lib.dlfl_rt_begin_test.argtypes = [ctypes.c_char_p]
    lib.dlfl_rt_begin_test.restype = ctypes.c_int
    lib.dlfl_rt_end_test.argtypes = [ctypes.c_int]
    lib.dlfl_rt_end_test.restype = ctypes.c_int
    return lib


_runtime = _load_runtime()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Remembers the worst outcome of the test's setup, call and teardown."""
    outcome = yield
    report = outcome.get_result()
    worst = getattr(item, "_dlfl_outcome", DLFL_RT_PASSED)
    if report.failed:
        worst = DLFL_RT_FAILED
    elif report.skipped and worst == DLFL_RT_PASSED:
        worst = DLFL_RT_SKIPPED
    item._dlfl_outcome = worst


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """One runtime test slot per pytest item, named by its node id."""
    _runtime.dlfl_rt_begin_test(item.nodeid.encode("utf-8"))
    yield
    _runtime.dlfl_rt_end_test(getattr(item, "_dlfl_outcome", DLFL_RT_PASSED))
