#!/usr/bin/env python3
"""The runtime's C API through ctypes, as examples/pytest_conftest/conftest.py uses it.

Usage: ctypes_check.py LIBDLFL_RT_SO CONFTEST_PY
Runs begin/end for two tests in a child interpreter with DLFL_RT_FILE set, then checks the
snapshot file's header and records with struct (dlfl_rt_file.h, version 2). Also compiles
the example conftest to catch syntax errors (pytest itself need not be installed).
"""
import ctypes
import os
import py_compile
import struct
import subprocess
import sys
import tempfile

HEADER = struct.Struct("<8sIIQQiIIIQQQQQ")  # dlfl_rt_file_header
RECORD = struct.Struct("<IIiIQQIIQQ8x")      # dlfl_rt_record_header


def child(lib):
    rt = ctypes.CDLL(lib, mode=ctypes.RTLD_GLOBAL)
    rt.dlfl_rt_begin_test.argtypes = [ctypes.c_char_p]
    rt.dlfl_rt_end_test.argtypes = [ctypes.c_int]
    assert rt.dlfl_rt_begin_test(b"tests/test_a.py::test_one") == 0
    assert rt.dlfl_rt_end_test(0) == 0
    assert rt.dlfl_rt_begin_test(b"tests/test_a.py::test_two") == 0
    assert rt.dlfl_rt_end_test(1) == 0


def main():
    lib, conftest = sys.argv[1], sys.argv[2]
    if len(sys.argv) > 3 and sys.argv[3] == "--child":
        child(lib)
        return 0
    py_compile.compile(conftest, doraise=True, cfile=os.path.join(tempfile.mkdtemp(), "conftest.pyc"))
    with tempfile.TemporaryDirectory() as tmp:
        snapshot = os.path.join(tmp, "run.map")
        subprocess.run([sys.executable, __file__, lib, conftest, "--child"], check=True,
                       env=dict(os.environ, DLFL_RT_FILE=snapshot))
        data = open(snapshot, "rb").read()
        (magic, version, _, _, _, _, _, _, count, _, _, _, records, end) = HEADER.unpack_from(data, 0)
        assert magic == b"DLFLRT02" and version == 2, (magic, version)
        assert count == 2 and end == len(data), (count, end, len(data))
        names, outcomes, at = [], [], records
        while at < end:
            (tag, ordinal, outcome, encoding, _, _, name_len, _, payload, hits) = RECORD.unpack_from(data, at)
            assert tag == 0x44524543 and encoding == 1 and payload == 0 and hits == 0, (tag, encoding, payload)
            names.append(data[at + 64:at + 64 + name_len].decode())
            outcomes.append(outcome)
            at += 64 + (name_len + 7) // 8 * 8
        assert names == ["tests/test_a.py::test_one", "tests/test_a.py::test_two"], names
        assert outcomes == [0, 1], outcomes
    print("ctypes API ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
