#!/usr/bin/env python3
"""Localizes each seeded fault of torch_ext with dlfl on one spectrum across Python and C++.

    /usr/bin/python3 localize.py --dlfl DLFL --rt-lib LIBDLFL_RT_SO [--work DIR] [--faults ID,...]
                                 [--formula ochiai] [-n WORKERS] [--repeat N] [--markdown FILE]

Steps (the slow ones are cached in --work, default build/torch_ext-localize):
1. `dlfl instrument` the C++ sources (compile_commands.json from build.py) and build the
   instrumented extension once with `$(dlfl config --cflags/--libs)` (build.py, MAX_JOBS=2).
2. Per fault (TORCH_EXT_FAULT=id; one build serves all): pytest -p dlfl_pytest with
   Python coverage of torch_ext/, C++ coverage through libdlfl_rt, extrinsic values.
3. Three spectra of the same run with `dlfl collect --pytest-run`: mixed (C++ lines,
   Python lines, extrinsic elements), C++ only, Python only; `dlfl rank` each at line and
   function level; the fault's position (average tie rule, ties best-worst).
Prints a Markdown table (also to --markdown FILE) and exits 1 when a fault fails no test,
its faulty line is not ranked on the mixed spectrum, or the extrinsic element of a fault
that fails for one dtype only (`fails_only_for`: dtype=...) is not in the top 5 there.
The fault switch (csrc/fault.h, torch_ext/_faults.py) is left out of the spectra.
"""
import argparse
import csv
import io
import json
import os
import shlex
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
EXCLUDES = ["csrc/fault.h", "torch_ext/_faults.py"]
VARIANTS = [("mixed", []), ("c++ only", ["--leave-out", "python", "--leave-out", "extrinsic"]),
            ("python only", ["--leave-out", "c++", "--leave-out", "extrinsic"])]


def run(argv, allow_fail=False, **kwargs):
    r = subprocess.run(argv, capture_output=True, text=True, **kwargs)
    if r.returncode != 0 and not allow_fail:
        sys.exit("localize.py: %s failed (exit %d):\n%s%s" % (" ".join(map(shlex.quote, argv)), r.returncode,
                                                               r.stdout[-2000:], r.stderr[-4000:]))
    return r


def build_instrumented(args, work):
    plain, instr, ext = (os.path.join(work, d) for d in ("plain", "instr", "ext"))
    probe_map = os.path.join(instr, "dlfl-probes.map")
    sources = [os.path.join(d, n) for d, _, names in os.walk(os.path.join(HERE, "csrc")) for n in names]
    if not os.path.exists(probe_map) or max(map(os.path.getmtime, sources)) > os.path.getmtime(probe_map):
        shutil.rmtree(instr, ignore_errors=True)
        run([sys.executable, os.path.join(HERE, "build.py"), plain, "--compile-commands-only"])
        r = run([args.dlfl, "instrument", "-p", plain, "--root", HERE, "--out", instr, "--quiet"], allow_fail=True)
        if r.returncode != 0 and "built without the Clang" in r.stderr and args.skip_unavailable:
            print("SKIP: this dlfl has no `dlfl instrument` (built without the Clang 14 development packages)")
            sys.exit(77)
        if r.returncode != 0:
            sys.exit("localize.py: dlfl instrument failed:\n" + r.stderr[-4000:])
    cflags = run([args.dlfl, "config", "--cflags"]).stdout.strip()
    libs = run([args.dlfl, "config", "--libs"]).stdout.strip()
    env = dict(os.environ, MAX_JOBS=os.environ.get("MAX_JOBS", "2"))
    run([sys.executable, os.path.join(HERE, "build.py"), ext, "--sources", os.path.join(instr, "csrc"),
         "--extra-cflags=" + cflags, "--extra-ldflags=" + libs], env=env)
    return os.path.join(instr, "dlfl-probes.map"), ext


def run_pytest(args, ext, fault, out):
    env = dict(os.environ, TORCH_EXT_BUILD=ext, PYTHONPATH=os.path.join(REPO, "python"), PYTHONDONTWRITEBYTECODE="1")
    env.pop("TORCH_EXT_FAULT", None)
    if fault:
        env["TORCH_EXT_FAULT"] = fault
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "dlfl_pytest", "--dlfl-out", out,
            "--dlfl-cov", "torch_ext", "--dlfl-rt-lib", args.rt_lib, "--dlfl-repeat", str(args.repeat), "tests"]
    if args.n > 1:
        argv += ["-n", str(args.n)]
    r = run(argv, cwd=HERE, env=env, allow_fail=True)
    if r.returncode not in (0, 1):
        sys.exit("localize.py: pytest with TORCH_EXT_FAULT=%s exited %d:\n%s%s" % (fault, r.returncode, r.stdout[-3000:],
                                                                                   r.stderr[-3000:]))
    return r.stdout


def collect(args, run_dir, probe_map, variant, extra):
    spectrum = os.path.join(run_dir, variant.replace(" ", "-").replace("+", "p") + ".dlfl")
    argv = [args.dlfl, "collect", "--pytest-run", run_dir, "--probe-map", probe_map, "-o", spectrum, "--quiet"] + extra
    for e in EXCLUDES:
        argv += ["--exclude", e]
    r = run(argv, allow_fail=True)
    if r.returncode != 0:
        return None, r.stderr.strip()
    return spectrum, r.stdout.strip()


def ranking(args, spectrum, granularity):
    out = run([args.dlfl, "rank", spectrum, "--formula", args.formula, "--granularity", granularity, "--format",
               "csv"]).stdout
    return list(csv.DictReader(io.StringIO(out)))


def position(rows, match):
    """'avg (best-worst)' of the best-ranked row matching, '-' when none does."""
    hits = [r for r in rows if match(r)]
    if not hits:
        return "-", None
    best = min(hits, key=lambda r: float(r["rank"]))
    rank = float(best["rank"])
    text = ("%g" % rank) + ("" if best["rank_best"] == best["rank_worst"] else " (%s-%s)" % (best["rank_best"],
                                                                                            best["rank_worst"]))
    return text, rank


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dlfl", required=True)
    parser.add_argument("--rt-lib", required=True)
    parser.add_argument("--work", default=os.path.join(REPO, "build", "torch_ext-localize"))
    parser.add_argument("--faults", default="")
    parser.add_argument("--formula", default="ochiai")
    parser.add_argument("-n", type=int, default=1, help="pytest-xdist workers")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--markdown", default="")
    parser.add_argument("--skip-unavailable", action="store_true",
                        help="exit 77 (a CTest skip) when torch or the instrumenter is missing")
    args = parser.parse_args()
    if args.skip_unavailable:
        missing = [m for m in ("torch", "pytest", "coverage", "xdist")
                   if subprocess.run([sys.executable, "-c", "import " + m], capture_output=True).returncode]
        if missing:
            print("SKIP: %s has no %s (Debian: python3-torch libtorch-dev python3-coverage python3-pytest-xdist)"
                  % (sys.executable, ", ".join(missing)))
            return 77
    args.dlfl, args.rt_lib = os.path.abspath(args.dlfl), os.path.abspath(args.rt_lib)
    work = os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(HERE, "faults", "faults.json")) as f:
        faults = json.load(f)
    if args.faults:
        wanted = args.faults.split(",")
        faults = [f for f in faults if f["id"] in wanted]
    probe_map, ext = build_instrumented(args, work)

    lines = ["| fault | language | failing / tests | mixed: line | mixed: function | mixed: extrinsic | "
             "C++ only: line | C++ only: function | Python only: line | Python only: function |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    status = 0
    for fault in faults:
        run_dir = os.path.join(work, "runs", fault["id"])
        run_pytest(args, ext, fault["id"], run_dir)
        cells, summary = {}, ""
        for variant, extra in VARIANTS:
            spectrum, text = collect(args, run_dir, probe_map, variant, extra)
            if variant == "mixed":
                summary = text
            if spectrum is None:
                cells[variant] = ("-", "-", "-")
                continue
            line_rows, function_rows = ranking(args, spectrum, "line"), ranking(args, spectrum, "function")
            line, line_rank = position(line_rows, lambda r: r["file"] == fault["file"] and
                                       int(r["line"] or 0) in fault["lines"])
            function, _ = position(function_rows, lambda r: r["file"] == fault["file"] and
                                   r["function"] == fault["function"])
            label = fault.get("fails_only_for", "").split(" ")[0]
            extrinsic, extrinsic_rank = position(line_rows, lambda r: r["kind"] == "extrinsic" and r["element"] == label) \
                if label else ("", None)
            cells[variant] = (line, function, extrinsic)
            if variant == "mixed" and line_rank is None:
                print("%s: the faulty line is not ranked" % fault["id"])
                status = 1
            if variant == "mixed" and label and label == fault["fails_only_for"] and \
                    (extrinsic_rank is None or extrinsic_rank > 5):
                print("%s: %s ranks %s, not in the top 5" % (fault["id"], label, extrinsic))
                status = 1
        failing = summary.split(" (")[1].split(" failing")[0] if " failing" in summary else "0"
        tests = summary.split("collected ")[1].split(" tests")[0] if "collected " in summary else "?"
        if failing == "0":
            status = 1
        lines.append("| `%s` | %s | %s / %s | %s | %s | %s | %s | %s | %s | %s |" % (
            fault["id"], fault["language"], failing, tests, cells["mixed"][0], cells["mixed"][1],
            cells["mixed"][2] or "", cells["c++ only"][0], cells["c++ only"][1], cells["python only"][0],
            cells["python only"][1]))
        print(lines[-1], flush=True)
    table = "\n".join(lines) + "\n"
    print("\n" + table)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(table)
    return status


if __name__ == "__main__":
    sys.exit(main())
