#!/usr/bin/python3
"""Helpers of scripts/realbugs.sh: the curated lists and the results page.

  realbugs_report.py ids LIST                  the bug ids of a list, one a line
  realbugs_report.py recipes LIST              "ID<tab>FILE" of the bugs with a recipe of their own
  realbugs_report.py select LIST SOURCE OUT    SOURCE's entries for LIST's ids (a manifest)
  realbugs_report.py page OUT LISTS            OUT/results.md's text, on stdout
  realbugs_report.py list OUT SIDE             the curated list of OUT's kept bugs of SIDE, with the
                                               positions their run ranked them at, on stdout
  realbugs_report.py packages FILE ID...       the Debian packages FILE (the lists' packages.json) names
                                               for these bugs' projects and for the bugs themselves

A list (bugsets/*.jsonl) has the manifest's shape, one bug a line, without the bug
reports' text, plus what the study found: failing_tests, faulty, recipe, positions; and
recipe_file where a bug runs under a recipe of its own (a file name in the lists'
recipes/ folder) rather than its project's.
"""
import csv
import json
import math
import os
import re
import statistics
import sys
import tempfile

FORMULAS = ["ochiai", "dstar2", "op2", "tarantula"]
TECHNIQUES = ["ochiai-block", "ochiai-flitsr", "ochiai-prfl"]


def fail(message):
    print(f"realbugs_report.py: error: {message}", file=sys.stderr)
    sys.exit(2)


def read_jsonl(path):
    rows = []
    try:
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if line.strip():
                    try:
                        rows.append(json.loads(line))
                    except json.JSONDecodeError as e:
                        fail(f"{path}:{number}: {e.msg}")
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    return rows


def ids(path):
    for row in read_jsonl(path):
        print(row["id"])


def recipes(path):
    for row in read_jsonl(path):
        name = row.get("recipe_file")
        if name is None:
            continue
        # A file name in the lists' recipes/ folder, nothing that reaches outside it.
        if not isinstance(name, str) or not name.endswith(".json") or "/" in name or name.startswith("."):
            fail(f"{path}: {row['id']}: recipe_file must name a .json file in the recipes folder, not {name!r}")
        print(f"{row['id']}\t{name}")


# Debian Policy 5.6.7: lower case letters, digits, '+', '-', '.'; at least two characters,
# the first alphanumeric. Nothing else reaches apt's command line.
DEBIAN_PACKAGE = re.compile(r"[a-z0-9][a-z0-9+.-]+")


def packages(path, bug_ids):
    """The packages a run of these bugs needs: the entries keyed by a bug's project (the id
    before '#') and by the bug itself, each name once, in the file's order."""
    if not os.path.exists(path):
        return
    try:
        with open(path, encoding="utf-8") as f:
            table = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        fail(f"{path}: {getattr(e, 'strerror', None) or e}")
    if not isinstance(table, dict):
        fail(f"{path}: an object of project or bug id: [Debian package, ...]")
    for key, names in table.items():
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            fail(f"{path}: {key}: a list of Debian package names")
        bad = [n for n in names if not DEBIAN_PACKAGE.fullmatch(n)]
        if bad:
            fail(f"{path}: {key}: {bad[0]!r} is not a Debian package name")
    wanted = set(bug_ids) | {i.split("#", 1)[0] for i in bug_ids}
    seen = set()
    for key, names in table.items():
        if key in wanted:
            for n in names:
                if n not in seen:
                    seen.add(n)
                    print(n)


def select(list_path, source_path, out_path):
    wanted = [row["id"] for row in read_jsonl(list_path)]
    by_id = {row["id"]: row for row in read_jsonl(source_path)}
    missing = [i for i in wanted if i not in by_id]
    if missing:
        fail(f"{source_path}: no bug {', '.join(missing[:5])} (listed in {list_path})")
    directory = os.path.dirname(os.path.abspath(out_path))
    with tempfile.NamedTemporaryFile("w", dir=directory, delete=False, encoding="utf-8") as f:
        for i in wanted:
            f.write(json.dumps(by_id[i], sort_keys=True) + "\n")
    os.replace(f.name, out_path)


def latest_records(path):
    """results.jsonl's records, one per bug: a later attempt supersedes an earlier one."""
    records = {}
    for r in read_jsonl(path) if os.path.exists(path) else []:
        records[r["subject"] + "#" + r["fault"]] = r
    return list(records.values())


def read_csv(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return float("nan")


def position_cell(positions, technique, level):
    """A table cell: 'avg (best-worst)' of the first faulty element (positions_of's
    value), '-' when none is ranked, empty when the technique did not run."""
    if level not in positions.get(technique, {}):
        return ""
    value = positions[technique][level]
    if value is None:
        return "-"
    best, avg, worst = value
    return f"{avg:g} ({best:g}-{worst:g})" if best != worst else f"{avg:g}"


def positions_of(rows, bug):
    """{technique: {level: [best, average, worst] or None}} of the first faulty line and
    function (the levels the page shows), None where no faulty element is ranked: what a
    list records of a kept bug."""
    found = {}
    for r in rows:
        if r["bug"] == bug and r["ties"] in ("best", "average", "worst") and r["level"] in ("line", "function"):
            found.setdefault(r["technique"], {}).setdefault(r["level"], {})[r["ties"]] = r
    positions = {}
    for technique, levels in found.items():
        for level, ties in levels.items():
            if len(ties) == 3:
                ranked = ties["average"]["found"] == "1"
                positions.setdefault(technique, {})[level] = \
                    [number(ties[t]["first_rank"]) for t in ("best", "average", "worst")] if ranked else None
    return positions


def position_text(value):
    """A recorded position as the page prints it: six significant digits, as `%g` does."""
    return "-" if value is None else "/".join(f"{v:g}" for v in value)


def positions_differ(listed, now):
    """The first technique and level whose recorded position differs from this run's, as
    'ochiai line: listed A, now B'; None when every recorded one is the same. A
    technique or level the list records and this run lacks differs too."""
    for technique in sorted(listed):
        for level in sorted(listed[technique]):
            was = position_text(listed[technique][level])
            got = now.get(technique, {})
            is_now = position_text(got[level]) if level in got else "not ranked"
            if was != is_now:
                return f"{technique} {level}: listed {was}, now {is_now}"
    return None


def summary(rows, executed, technique, level):
    picked = [r for r in rows if r["technique"] == technique and r["level"] == level and r["ties"] == "average"]
    if not picked:
        return None
    exam_executed = {r["bug"]: number(r["exam"]) for r in executed
                     if r["technique"] == technique and r["level"] == level and r["ties"] == "average"}
    mean = lambda key: statistics.fmean(number(r[key]) for r in picked)
    # EXAM is the share of elements inspected before the fault: none where no faulty
    # element is ranked, so it averages over the bugs whose fault is found.
    defined = lambda values: [v for v in values if not math.isnan(v)]
    exam_values = defined(number(r["exam"]) for r in picked)
    exec_values = defined(exam_executed[r["bug"]] for r in picked if r["bug"] in exam_executed)
    return {
        "n": len(picked),
        "top": [mean(k) for k in ("top1", "top3", "top5", "top10")],
        "exam": statistics.fmean(exam_values) if exam_values else float("nan"),
        "exam_executed": statistics.fmean(exec_values) if exec_values else float("nan"),
        "map": mean("ap"),
        "mrr": mean("rr"),
    }


def page(out, lists):
    lines = ["# SBFL on real bugs: DL frameworks against traditional programs", ""]
    lines += ["Written by `scripts/realbugs.sh` (docs/realbugs.md says how to run it).", ""]
    sides = [s for s in ("dl", "traditional") if os.path.isdir(os.path.join(out, s))]
    for side in sides:
        records = latest_records(os.path.join(out, side, "results.jsonl"))
        listed = read_jsonl(os.path.join(lists, f"{side}.jsonl"))
        kept = [r for r in records if r.get("kept")]
        discarded = [r for r in records if not r.get("kept")]
        projects = sorted({r["subject"] for r in kept})
        lines += [f"## {'DL' if side == 'dl' else 'Traditional'} side", ""]
        lines.append(f"{len(listed)} bugs listed, {len(records)} run, {len(kept)} kept from "
                     f"{len(projects)} projects ({', '.join(projects) or 'none'}), {len(discarded)} discarded.")
        if discarded:
            reasons = {}
            for r in discarded:
                reasons[r["reason"]] = reasons.get(r["reason"], 0) + 1
            lines.append("Discarded: " + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items(), key=lambda kv: -kv[1])) + ".")
        expected = {row["id"]: row for row in listed if "failing_tests" in row}
        # Out of the listed bugs this run ran: a subset run (--bug) judges its own bugs.
        checked = [r for r in records if r["subject"] + "#" + r["fault"] in expected]
        if checked:
            same, differ = 0, []
            for r in checked:
                bug = r["subject"] + "#" + r["fault"]
                e = expected[bug]
                if not r.get("kept"):
                    differ.append(f"{bug} (discarded: {r.get('reason', '')})")
                elif sorted(e["failing_tests"]) == sorted(r.get("failing_tests", [])) and \
                        sorted(e.get("faulty", [])) == sorted(r.get("faulty", [])):
                    same += 1
                else:
                    differ.append(bug)
            lines.append(f"{same} of {len(checked)} bugs the list records as reproduced were reproduced with the "
                         f"same failing tests and faulty lines" + (f"; different: {', '.join(differ)}." if differ else "."))
        # A rerun that finds the same tests can still rank differently (a project that
        # seeds a hash with the time runs other lines): the positions are checked too.
        recorded = {bug: e["positions"] for bug, e in expected.items() if e.get("positions")}
        rows = read_csv(os.path.join(out, side, "eval.csv"))
        rerun = [r["subject"] + "#" + r["fault"] for r in kept if r["subject"] + "#" + r["fault"] in recorded]
        if rerun:
            moved = [(bug, positions_differ(recorded[bug], positions_of(rows, bug))) for bug in rerun]
            moved = [f"{bug} ({why})" for bug, why in moved if why]
            lines.append(f"{len(rerun) - len(moved)} of {len(rerun)} bugs the list records positions for gave the "
                         f"same positions (best/average/worst) of the first faulty line and function for every "
                         f"formula and technique" + (f"; different: {', '.join(moved)}." if moved else "."))
        if kept:
            seconds = [r["seconds"] for r in kept if "seconds" in r]
            lines.append(f"Time per kept bug (build both versions, run the tests with coverage, rank): median "
                         f"{statistics.median(seconds):.0f} s, mean {statistics.fmean(seconds):.0f} s.")
        lines.append("")
        executed = read_csv(os.path.join(out, side, "eval-executed.csv"))
        present = [t for t in FORMULAS + TECHNIQUES if any(r["technique"] == t for r in rows)]
        for level in ("line", "function"):
            lines += [f"Position of the first faulty {level}, average over ties (best-worst):", ""]
            lines.append("| bug | tests (failing) | " + " | ".join(present) + " |")
            lines.append("|---|---|" + "---:|" * len(present))
            for r in sorted(kept, key=lambda r: (r["subject"], int(r["fault"]) if r["fault"].isdigit() else 0, r["fault"])):
                positions = positions_of(rows, r["subject"] + "#" + r["fault"])
                cells = [position_cell(positions, t, level) for t in present]
                lines.append(f"| {r['subject']}#{r['fault']} | {r['tests']} ({r['failing']}) | " + " | ".join(cells) + " |")
            lines.append("")
        lines += ["Per technique (average ties; Top-N the expected share of bugs found within N; "
                  "EXAM over every ranked line / over the lines some test ran, for the bugs whose fault is ranked):", ""]
        lines.append("| technique | level | n | Top-1 | Top-3 | Top-5 | Top-10 | EXAM | EXAM (ran) | MAP | MRR |")
        lines.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for level in ("line", "function"):
            for t in present:
                s = summary(rows, executed, t, level)
                if s:
                    top = " | ".join(f"{v:.2f}" for v in s["top"])
                    lines.append(f"| {t} | {level} | {s['n']} | {top} | {s['exam']:.4f} | {s['exam_executed']:.4f} | "
                                 f"{s['map']:.3f} | {s['mrr']:.3f} |")
        lines.append("")
    for name, title in (("compare.md", "DL against traditional (`dlfl compare`, line level, average ties)"),
                        ("compare-by-type.md", "DL bugs by DL bug type")):
        path = os.path.join(out, name)
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                lines += [f"## {title}", "", "```", f.read().rstrip(), "```", ""]
    return "\n".join(lines) + "\n"


# What a list keeps of a manifest entry: enough to find, check out and judge the bug;
# never a report's text (Denchmark carries no license) nor BugsC++'s patches (its
# checkout has them).
LIST_KEYS = ("id", "project", "number", "category", "languages", "fix_commit", "recipe_file")
# "methods" (the changed functions, from the code; Denchmark's manifests have them) name
# the faulty lines' functions: a rerun from the list must find the same ones.
FILE_KEYS = ("old_name", "new_name", "change_type", "deleted_lines", "added_lines", "methods")


def curated_list(out, side):
    manifest = {row["id"]: row for row in read_jsonl(os.path.join(out, side, "manifest.jsonl"))}
    records = latest_records(os.path.join(out, side, "results.jsonl"))
    rows = read_csv(os.path.join(out, side, "eval.csv"))
    lines = []
    for r in records:
        bug = r["subject"] + "#" + r["fault"]
        if not r.get("kept") or bug not in manifest:
            continue
        entry = {k: manifest[bug][k] for k in LIST_KEYS if k in manifest[bug]}
        entry["files"] = [{k: f[k] for k in FILE_KEYS if k in f} for f in manifest[bug].get("files", [])]
        entry["failing_tests"] = r.get("failing_tests", [])
        entry["faulty"] = r.get("faulty", [])
        entry["recipe"] = r.get("recipe", "")
        entry["positions"] = positions_of(rows, bug)
        lines.append((bug, json.dumps(entry, sort_keys=True)))
    return "".join(line + "\n" for _, line in sorted(lines))


def main(argv):
    if len(argv) == 3 and argv[1] == "ids":
        ids(argv[2])
    elif len(argv) == 3 and argv[1] == "recipes":
        recipes(argv[2])
    elif len(argv) == 5 and argv[1] == "select":
        select(argv[2], argv[3], argv[4])
    elif len(argv) == 4 and argv[1] == "page":
        sys.stdout.write(page(argv[2], argv[3]))
    elif len(argv) == 4 and argv[1] == "list":
        sys.stdout.write(curated_list(argv[2], argv[3]))
    elif len(argv) >= 3 and argv[1] == "packages":
        packages(argv[2], argv[3:])
    else:
        fail("usage: ids LIST | recipes LIST | select LIST SOURCE OUT | page OUT LISTS | list OUT SIDE"
             " | packages FILE ID...")


if __name__ == "__main__":
    main(sys.argv)
