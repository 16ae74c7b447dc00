#!/usr/bin/env python3
"""Builds the torch_ext C++ extension (torch_ext_C) with torch.utils.cpp_extension.

    /usr/bin/python3 build.py BUILD_DIR [--sources DIR] [--extra-cflags F]... [--extra-ldflags F]...
    /usr/bin/python3 build.py BUILD_DIR --cuda-check [--nvcc NVCC]
    /usr/bin/python3 build.py BUILD_DIR --compile-commands-only

Run it with the Python that has torch (Debian: /usr/bin/python3 with python3-torch and
libtorch-dev). The build is cached in BUILD_DIR (ninja): a second run with the same sources
and flags does nothing. MAX_JOBS (default 2) bounds the compile jobs. --sources takes the
C++ sources from another copy of csrc/, e.g. a `dlfl instrument` tree, and
--extra-cflags/--extra-ldflags then add $(dlfl config --cflags) / $(dlfl config --libs).
BUILD_DIR also gets compile_commands.json (what `dlfl instrument -p BUILD_DIR` reads).
--cuda-check compiles csrc/cuda/*.cu with nvcc instead (Debian's torch is CPU-only, so
the kernels are compiled, not bound). Exit 0 on success, 1 with the compiler's errors.
"""
import argparse
import glob
import json
import os
import shlex
import subprocess
import sys
import sysconfig

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCES = ["extension.cpp", "softmax.cpp", "rms_norm.cpp", "bias_gelu.cpp"]


def compile_flags(csrc):
    """The flags cpp_extension uses, for compile_commands.json."""
    from torch.utils import cpp_extension
    includes = cpp_extension.include_paths() + [sysconfig.get_paths()["include"], csrc]
    import torch
    abi = int(torch._C._GLIBCXX_USE_CXX11_ABI)
    return (["-I" + p for p in includes] +
            ["-D_GLIBCXX_USE_CXX11_ABI=%d" % abi, "-std=c++17", "-fPIC"])


def write_compile_commands(build, csrc):
    flags = compile_flags(csrc)
    entries = [{"directory": build, "file": os.path.join(csrc, name),
                "command": " ".join(["g++"] + [shlex.quote(f) for f in flags] +
                                    ["-c", shlex.quote(os.path.join(csrc, name)), "-o", name + ".o"])}
               for name in SOURCES]
    with open(os.path.join(build, "compile_commands.json"), "w") as f:
        json.dump(entries, f, indent=1)


def cuda_check(build, nvcc):
    status = 0
    for source in sorted(glob.glob(os.path.join(HERE, "csrc", "cuda", "*.cu"))):
        out = os.path.join(build, os.path.basename(source) + ".o")
        r = subprocess.run([nvcc, "-std=c++17", "-arch=sm_75", "-c", source, "-o", out], capture_output=True, text=True)
        print("%s: %s" % (os.path.basename(source), "ok" if r.returncode == 0 else "FAILED"))
        if r.returncode:
            sys.stderr.write(r.stderr)
            status = 1
    return status


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("build_dir")
    parser.add_argument("--sources", default=os.path.join(HERE, "csrc"), help="directory of the C++ sources")
    parser.add_argument("--extra-cflags", action="append", default=[])
    parser.add_argument("--extra-ldflags", action="append", default=[])
    parser.add_argument("--cuda-check", action="store_true", help="compile csrc/cuda/*.cu with nvcc and stop")
    parser.add_argument("--compile-commands-only", action="store_true",
                        help="only write BUILD_DIR/compile_commands.json (for `dlfl instrument -p BUILD_DIR`)")
    parser.add_argument("--nvcc", default="/usr/local/cuda/bin/nvcc")
    args = parser.parse_args()
    build = os.path.abspath(args.build_dir)
    os.makedirs(build, exist_ok=True)
    if args.cuda_check:
        return cuda_check(build, args.nvcc)

    csrc = os.path.abspath(args.sources)
    write_compile_commands(build, csrc)
    if args.compile_commands_only:
        return 0
    os.environ.setdefault("MAX_JOBS", "2")
    from torch.utils import cpp_extension
    cflags = ["-std=c++17", "-O1", "-g0"] + [f for group in args.extra_cflags for f in shlex.split(group)]
    ldflags = [f for group in args.extra_ldflags for f in shlex.split(group)]
    try:
        cpp_extension.load(name="torch_ext_C", sources=[os.path.join(csrc, s) for s in SOURCES],
                           extra_cflags=cflags, extra_ldflags=ldflags, extra_include_paths=[csrc],
                           build_directory=build, is_python_module=False, verbose=False)
    except (RuntimeError, subprocess.CalledProcessError) as e:
        sys.stderr.write("build.py: building torch_ext_C failed: %s\n" % e)
        return 1
    print(os.path.join(build, "torch_ext_C.so"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
