#!/usr/bin/env python3
"""Checks the seeded faults of faults/faults.json against the code and the test suite.

    /usr/bin/python3 faults/check_faults.py [--build BUILD_DIR] [--markers-only] [-n N]

1. Every fault's `lines` are exactly the lines of `file` carrying `FAULT(<id>)`, and every
   FAULT marker belongs to a fault of faults.json.
2. (unless --markers-only) The suite passes on the correct code, and with
   TORCH_EXT_FAULT=<id> at least one test fails; a fault with `fails_only_for` fails only
   tests whose node id shows that condition (e.g. `bfloat16`).
One build serves every fault (the switch is read at run time): BUILD_DIR holds
torch_ext_C.so (build.py). Prints one line per fault; exits 1 on any mismatch.
"""
import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def marker_lines():
    """(file, fault id) -> [line numbers] of FAULT(id) markers under csrc/ and torch_ext/."""
    found = {}
    for top in ("csrc", "torch_ext"):
        for dirpath, _, names in os.walk(os.path.join(HERE, top)):
            for name in sorted(names):
                if not name.endswith((".cpp", ".h", ".cu", ".cuh", ".py")):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, HERE)
                with open(path) as f:
                    for number, line in enumerate(f, 1):
                        for fault in re.findall(r"FAULT\((\w+)\)", line):
                            found.setdefault((rel, fault), []).append(number)
    return found


def failing_tests(build, fault, jobs):
    env = dict(os.environ, TORCH_EXT_BUILD=build, PYTHONDONTWRITEBYTECODE="1")
    env.pop("TORCH_EXT_FAULT", None)
    if fault:
        env["TORCH_EXT_FAULT"] = fault
    argv = [sys.executable, "-m", "pytest", "-q", "-rf", "-p", "no:cacheprovider", "tests"]
    if jobs > 1:
        argv += ["-n", str(jobs)]
    r = subprocess.run(argv, cwd=HERE, env=env, capture_output=True, text=True)
    if r.returncode not in (0, 1):
        sys.exit("pytest exited %d%s:\n%s%s" % (r.returncode, " with TORCH_EXT_FAULT=" + fault if fault else "",
                                                 r.stdout[-3000:], r.stderr[-3000:]))
    return sorted(set(re.findall(r"^FAILED (\S+)", r.stdout, re.M)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.environ.get("TORCH_EXT_BUILD", os.path.join(HERE, "build", "torch_ext")))
    parser.add_argument("--markers-only", action="store_true")
    parser.add_argument("-n", type=int, default=1, help="pytest-xdist workers")
    args = parser.parse_args()
    with open(os.path.join(HERE, "faults", "faults.json")) as f:
        faults = json.load(f)
    markers = marker_lines()
    status = 0
    for fault in faults:
        want = markers.get((fault["file"], fault["id"]), [])
        if want != fault["lines"]:
            print("%s: faults.json says %s:%s, the FAULT markers are on %s" % (fault["id"], fault["file"],
                                                                              fault["lines"], want))
            status = 1
    ids = {f["id"] for f in faults}
    for (path, fault_id), lines in sorted(markers.items()):
        if fault_id not in ids and fault_id != "id":
            print("%s:%s: FAULT(%s) is not in faults.json" % (path, lines, fault_id))
            status = 1
    if args.markers_only:
        print("fault markers: %d faults, %s" % (len(faults), "ok" if status == 0 else "MISMATCH"))
        return status

    correct = failing_tests(args.build, None, args.n)
    print("%-24s %s" % ("(correct code)", "%d failing" % len(correct) + (": " + ", ".join(correct) if correct else "")))
    status |= bool(correct)
    for fault in faults:
        failing = failing_tests(args.build, fault["id"], args.n)
        only = fault.get("fails_only_for", "").split(" ")[0].split("=")[-1]
        stray = [t for t in failing if only and only not in t]
        print("%-24s %3d failing%s" % (fault["id"], len(failing), "  NOT ONLY %s: %s" % (only, stray) if stray else ""))
        if not failing or stray:
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
