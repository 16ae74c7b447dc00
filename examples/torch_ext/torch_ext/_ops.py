"""Loads the compiled operators (libtorch_ext_C.so, built by build.py) into torch.ops.

The library is found through TORCH_EXT_LIB (its path), else in TORCH_EXT_BUILD (the
build directory), else in ../build/torch_ext next to this package."""
import os

import torch

_HERE = os.path.dirname(os.path.abspath(__file__))


def _library_path():
    path = os.environ.get("TORCH_EXT_LIB")
    if path:
        return path
    build = os.environ.get("TORCH_EXT_BUILD", os.path.join(_HERE, "..", "build", "torch_ext"))
    return os.path.join(build, "torch_ext_C.so")


def _load():
    path = _library_path()
    if not os.path.exists(path):
        raise ImportError("torch_ext: %s does not exist; build it with `/usr/bin/python3 build.py BUILD_DIR` "
                          "and set TORCH_EXT_BUILD=BUILD_DIR" % path)
    torch.ops.load_library(path)
    return torch.ops.torch_ext


ops = _load()
