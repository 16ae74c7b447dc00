"""pytest tests of tinyext (loaded with ctypes from $TINYEXT_LIB) for pytest_check.py.

Which test reaches which `@name` line of tinyext.cpp is spelled out in pytest_check.py.
"""
import ctypes
import os

import pytest

ext = ctypes.CDLL(os.environ["TINYEXT_LIB"])
for _name in ("tiny_add", "tiny_clamp", "tiny_twice_max"):
    getattr(ext, _name).argtypes = [ctypes.c_int, ctypes.c_int]
    getattr(ext, _name).restype = ctypes.c_int

# At import, during collection: outside every test.
assert ext.tiny_add(0, 0) == 0


def test_add():
    assert ext.tiny_add(2, 3) == 5


def test_clamp_low():
    assert ext.tiny_clamp(-4, 5) == 0


def test_clamp_high_fails():
    assert ext.tiny_clamp(7, 5) == 7  # fails on purpose: clamp returns 5


@pytest.mark.skip(reason="skipped on purpose")
def test_skipped():
    ext.tiny_add(1, 1)


@pytest.mark.parametrize("x", [1, 2])
def test_twice_max(x):
    assert ext.tiny_twice_max(x, 0) == 2 * x


def test_python_only():
    assert sum([1, 2]) == 3
