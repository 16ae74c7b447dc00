#!/usr/bin/env python3
"""mbfl_faults.py: mutation-based localization beside SBFL on tensorlite's ten faults.

Usage:
  cmake -S . -B build -G Ninja && cmake --build build --target dlfl_cli
  /usr/bin/python3 benchmarks/mbfl_faults.py --build build [--work /tmp/dlfl-mbfl-tensorlite]
                                             [--budget 50] [--per-line 5] [--fault ID ...]

For each fault of examples/tensorlite/faults/faults.json (the hand-written faults, switched
on at compile time with -DTENSORLITE_FAULT=ID): builds tensorlite with gcov (-O0), collects
the spectrum of the whole suite (`dlfl collect`), runs `dlfl kill-matrix` with the budget
(mutants of the Ochiai top tie and the next lines, compiled into one schemata tree), and
ranks with Ochiai alone and with `--mutation metallaxis`, `muse` and `hybrid` (formula
Ochiai). It prints, per fault, where the faulty line ranks (best / average / worst of its
tie; the first faulty line of a two-line fault) and what the kill matrix cost.

The bias of a seeded fault: the kill matrix mutates the faulty line itself, and a mutant
of a faulty line often undoes or changes the fault, which real bugs' lines need not
allow. So each technique is ranked a second time with the kill matrix minus the mutants
on the faulty lines (`without`), converted through the Matrix Market format (`dlfl
convert`): the faulty line is then measured by nothing and ranks last in its SBFL tie
under the hybrid. The truth for a real fault lies between the two columns.

Resumable: a fault whose OUT/FAULT/result.json exists is not run again (delete it to rerun).
Writes OUT/results.md (the table) and OUT/FAULT/ (spectrum, kill matrix, rankings).
Standard library only; needs cmake, ninja, g++ and gcov (Debian: cmake ninja-build g++
gcc), which it installs with apt-get when missing and run as root.
"""
import argparse
import csv
import io
import json
import os
import shutil
import subprocess
import sys

from schemata_build import TENSORLITE, ensure_tools, gcov_spectrum, journal_runs, kill_matrix

TECHNIQUES = ("metallaxis", "muse", "hybrid")


def run(cmd):
    """Runs a shell command, failing loudly with its output; returns its stdout."""
    r = subprocess.run(cmd, shell=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit(f"mbfl_faults: command failed ({r.returncode}): {cmd}\n{(r.stdout + r.stderr)[-4000:]}")
    return r.stdout


def position(ranking_csv, file, lines):
    """(best, average, worst) of the best-placed faulty line in a `dlfl rank --format csv`."""
    found = []
    for row in csv.DictReader(io.StringIO(ranking_csv)):
        if row["file"] == file and int(row["line"]) in lines:
            best, worst = int(row["rank_best"]), int(row["rank_worst"])
            found.append((best, (best + worst) / 2, worst))
    return min(found, key=lambda p: p[1]) if found else None


def kill_matrix_subset(dlfl, matrix, mutants, out_dir, name, keep_mutant):
    """The kill matrix with only the mutants `keep_mutant` accepts, as OUT_DIR/NAME.dlfl.

    The Matrix Market sidecar names elements as GZoltar does, file#function:line, which is
    what a spectrum reader takes the file and line from; the kill matrix's own names
    ("FILE:LINE OPERATOR #N") are rewritten to that form."""
    mtx = os.path.join(out_dir, "km.mtx")
    run(f"{dlfl} convert {matrix} {mtx}")
    with open(mtx[:-4] + ".elements.csv") as f:
        rows = list(csv.reader(f))
    header, names = rows[0], [r[0] for r in rows[1:]]
    # Elements are the mutants in manifest order (mutant_runner.h).
    if len(names) != len(mutants):
        sys.exit(f"mbfl_faults: {matrix}: {len(names)} elements, {len(mutants)} mutants in the manifest")
    keep = [i for i, m in enumerate(mutants) if keep_mutant(m)]
    column = {old + 1: new + 1 for new, old in enumerate(keep)}
    with open(mtx) as f:
        lines = [l for l in f.read().splitlines() if not l.startswith("% dlfl companion")]
    banner = [l for l in lines if l.startswith("%")]
    body = [l for l in lines if not l.startswith("%") and l.strip()]
    tests = int(body[0].split()[0])
    entries = []
    for line in body[1:]:
        t, e = line.split()[:2]
        if int(e) in column:
            entries.append(f"{t} {column[int(e)]}")
    reduced = os.path.join(out_dir, name + ".mtx")
    with open(reduced, "w") as f:
        f.write("\n".join(banner + [f"{tests} {len(keep)} {len(entries)}"] + entries) + "\n")
    shutil.copyfile(mtx[:-4] + ".tests.csv", reduced[:-4] + ".tests.csv")
    with open(reduced[:-4] + ".elements.csv", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        for i in keep:
            m = mutants[i]
            w.writerow([f"{m['file']}#{m.get('function') or 'unknown'}:{m['line']}"])
    target = os.path.join(out_dir, name + ".dlfl")
    run(f"{dlfl} convert {reduced} {target}")
    return target


def run_fault(dlfl, fault, a, w):
    out = os.path.join(w, fault["id"])
    result_path = os.path.join(out, "result.json")
    if os.path.exists(result_path):
        return json.load(open(result_path))
    os.makedirs(out, exist_ok=True)
    flags = f"-DCMAKE_BUILD_TYPE= -DTENSORLITE_WARNINGS=OFF -DTENSORLITE_FAULT={fault['id']}"
    launcher = " -DCMAKE_CXX_COMPILER_LAUNCHER=ccache" if shutil.which("ccache") else ""
    gcov = os.path.join(w, "gcov")  # one build, switched per fault: the library recompiles
    print(f"{fault['id']}: gcov build and spectrum ...", file=sys.stderr)
    spectrum = os.path.join(out, "sfl.dlfl")
    gcov_spectrum(dlfl, flags, gcov, spectrum, launcher)
    print(f"{fault['id']}: dlfl kill-matrix --budget {a.budget} --per-line {a.per_line} ...", file=sys.stderr)
    mbfl = os.path.join(out, "mbfl")
    seconds = kill_matrix(dlfl, flags, gcov, spectrum, mbfl, a.budget, a.per_line, launcher=launcher)
    manifest = json.load(open(os.path.join(mbfl, "mutants.json")))
    runs = journal_runs(mbfl)[0]
    faulty = set(fault["lines"])
    mutants = [dict(m, faulty_line=(m["file"] == fault["file"] and m["line"] in faulty)) for m in manifest["mutants"]]
    on_fault = sum(m["faulty_line"] for m in mutants)
    matrix = os.path.join(mbfl, "kill-matrix.dlfl")
    # The same conversion keeping every mutant must rank as the kill matrix itself does.
    whole = kill_matrix_subset(dlfl, matrix, mutants, out, "km-whole", lambda m: True)
    reduced = kill_matrix_subset(dlfl, matrix, mutants, out, "km-without", lambda m: not m["faulty_line"])

    def rank(extra, name):
        text = run(f"{dlfl} rank {spectrum} --format csv {extra}")
        with open(os.path.join(out, name + ".csv"), "w") as f:
            f.write(text)
        return position(text, fault["file"], faulty)

    positions = {"ochiai": rank("", "ochiai")}
    for t in TECHNIQUES:
        positions[t] = rank(f"--mutation {t} --kill-matrix {matrix}", t)
        if rank(f"--mutation {t} --kill-matrix {whole}", t + "-whole") != positions[t]:
            sys.exit(f"mbfl_faults: {fault['id']}: {t} ranks the faulty line otherwise after the conversion "
                     f"of {matrix}: the 'without' column would not be comparable")
        positions[t + " without"] = rank(f"--mutation {t} --kill-matrix {reduced}", t + "-without")
    result = {"id": fault["id"], "bug_type": fault["bug_type"], "file": fault["file"], "lines": fault["lines"],
              "positions": positions, "generated": manifest["generated"], "compiled": len(manifest["mutants"]),
              "on_faulty_lines": on_fault, "runs": runs, "seconds": round(seconds, 1)}
    tmp = result_path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(result, f, indent=1)
    os.replace(tmp, result_path)
    return result


def cell(p):
    if p is None:
        return "not ranked"
    best, average, worst = p
    return f"{best} / {average:g} / {worst}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", required=True, help="dlfl build directory")
    ap.add_argument("--work", default="/tmp/dlfl-mbfl-tensorlite", help="output directory (kept: resumable)")
    ap.add_argument("--budget", type=int, default=50, help="kill-matrix --budget (mutants)")
    ap.add_argument("--per-line", type=int, default=5, help="kill-matrix --per-line")
    ap.add_argument("--fault", action="append", help="only this fault (repeatable)")
    a = ap.parse_args()
    ensure_tools()
    dlfl = os.path.abspath(os.path.join(a.build, "tools", "dlfl", "dlfl"))
    if not os.access(dlfl, os.X_OK):
        sys.exit(f"mbfl_faults: {dlfl} not built (see --help)")
    faults = json.load(open(os.path.join(TENSORLITE, "faults", "faults.json")))
    if a.fault:
        unknown = set(a.fault) - {f["id"] for f in faults}
        if unknown:
            sys.exit(f"mbfl_faults: no fault {', '.join(sorted(unknown))} in faults/faults.json")
        faults = [f for f in faults if f["id"] in a.fault]
    w = os.path.abspath(a.work)
    os.makedirs(w, exist_ok=True)
    settings = os.path.join(w, "settings.json")
    wanted = {"budget": a.budget, "per_line": a.per_line}
    if os.path.exists(settings) and json.load(open(settings)) != wanted:
        sys.exit(f"mbfl_faults: {w} holds a run with {json.load(open(settings))}: use another --work")
    with open(settings, "w") as f:
        json.dump(wanted, f)
    results = [run_fault(dlfl, f, a, w) for f in faults]

    lines = [f"tensorlite's faults, formula Ochiai, kill-matrix --budget {a.budget} --per-line {a.per_line}; "
             "position of the faulty line, best / average / worst of its tie; 'without': the kill matrix "
             "minus the mutants on the faulty lines.", "",
             "| fault | Ochiai | hybrid | hybrid without | Metallaxis | Metallaxis without | MUSE | MUSE without "
             "| mutants (on the faulty line) | test runs | kill-matrix wall |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        p = r["positions"]
        lines.append(f"| `{r['id']}` | {cell(p['ochiai'])} | {cell(p['hybrid'])} | {cell(p['hybrid without'])} | "
                     f"{cell(p['metallaxis'])} | {cell(p['metallaxis without'])} | {cell(p['muse'])} | "
                     f"{cell(p['muse without'])} | {r['compiled']} of {r['generated']} ({r['on_faulty_lines']}) | "
                     f"{r['runs']:,} | {r['seconds']:.0f} s |")
    for key in ("ochiai", "hybrid", "hybrid without", "metallaxis", "metallaxis without", "muse", "muse without"):
        avg = [r["positions"][key][1] for r in results if r["positions"][key]]
        top1 = sum(1 for r in results if r["positions"][key] and r["positions"][key][1] <= 1)
        mrr = sum(1 / r["positions"][key][1] for r in results if r["positions"][key]) / max(1, len(results))
        lines.append(f"\n{key}: {top1} of {len(results)} at average position 1; mean of 1 / average position {mrr:.3f}; "
                     f"mean average position {sum(avg) / max(1, len(avg)):.2f}" if avg else f"\n{key}: none ranked")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(w, "results.md.tmp"), "w") as f:
        f.write(text)
    os.replace(os.path.join(w, "results.md.tmp"), os.path.join(w, "results.md"))
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
