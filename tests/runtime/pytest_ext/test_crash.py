"""A pytest run that dies inside a test, for pytest_check.py (run on its own, not with
test_tinyext.py): the crashing test's slot stays "running" with the coverage it reached,
and the test after it never runs.
"""
import ctypes
import os

ext = ctypes.CDLL(os.environ["TINYEXT_LIB"])
for _name in ("tiny_add", "tiny_clamp"):
    getattr(ext, _name).argtypes = [ctypes.c_int, ctypes.c_int]
    getattr(ext, _name).restype = ctypes.c_int


def test_before():
    assert ext.tiny_add(1, 2) == 3


def test_crashes():
    assert ext.tiny_clamp(-1, 5) == 0
    os.abort()


def test_after():
    assert ext.tiny_add(2, 2) == 4
