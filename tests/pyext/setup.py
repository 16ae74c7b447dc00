# A pybind11 extension built by setuptools, as projects ship them: the package seeded/
# with its C++ module seeded._native. tests/python/pyext_check.py builds it instrumented
# with `python -m dlfl_pytest.build --inplace` and ranks the seeded fault.
from setuptools import Extension, setup

setup(
    name="seeded",
    version="0.1",
    packages=["seeded"],
    ext_modules=[Extension("seeded._native", ["seeded/native.cpp"], language="c++",
                           extra_compile_args=["-std=c++17", "-O1", "-g0"])],
)
