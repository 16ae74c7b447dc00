#!/usr/bin/python3
"""Helpers of scripts/realbugs.sh: the curated lists and the results page.

  realbugs_report.py ids LIST                  the bug ids of a list, one a line
  realbugs_report.py recipes LIST              "ID<tab>FILE" of the bugs with a recipe of their own
  realbugs_report.py select LIST SOURCE OUT    SOURCE's entries for LIST's ids (a manifest)
  realbugs_report.py page OUT LISTS            OUT/results.md's text, on stdout
  realbugs_report.py table OUT SIDE LISTS      the evaluation table the study's figures add up:
                                               OUT's rows of SIDE, and the average-ties rows a list
                                               records of its bugs OUT did not run, on stdout
  realbugs_report.py packages FILE ID...       the Debian packages FILE (the lists' packages.json) names
                                               for these bugs' projects and for the bugs themselves

A list (bugsets/*.jsonl) has the manifest's shape, one bug a line, without the bug
reports' text, plus what the study found: failing_tests, faulty, recipe, tests, positions,
evaluation; and recipe_file where a bug runs under a recipe of its own (a file name in the lists'
recipes/ folder) rather than its project's. realbugs_record.py writes a run's kept bugs
into a list.
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
# Mutation-based localization (realbugs.sh --mbfl), where a bug has a kill matrix.
MUTATION_TECHNIQUES = ["ochiai-hybrid", "ochiai-metallaxis", "muse"]
TECHNIQUES += MUTATION_TECHNIQUES
# The ground-truth rules (dlfl's fix_truth.h): a run's values are under the study's rule;
# a list entry says which rule its values are under (none: the whole-file convention,
# the one of the entries recorded before the rule). Values under the whole-file
# convention are the sensitivity variant: their techniques carry this suffix
# (ochiai-whole-file), so that no figure mixes the two rules.
RULE = "adjacent-lines"
WHOLE_FILE = "whole-file"
SENSITIVITY = "-whole-file"
# What only a curated list knows of a bug (its type and why, as each of two annotators
# labelled it; docs/realbugs.md says who), kept when a run's entry replaces it.
CURATED_KEYS = ("bug_kind", "dl_subtype", "bug_kind_evidence",
                "bug_kind_second", "dl_subtype_second", "bug_kind_second_evidence")
BUG_KINDS = ("dl-specific", "generic")
DL_SUBTYPES = ("tensor/shape", "numerics", "device", "model or training semantics")


def rule_of(entry):
    return entry.get("truth_rule", WHOLE_FILE)


def technique_name(technique, rule):
    """The technique a value of `rule` is counted under: the whole-file convention's as
    the sensitivity variant."""
    if rule == RULE or technique.endswith(SENSITIVITY):
        return technique
    return technique + SENSITIVITY


def fail(message):
    print(f"{os.path.basename(sys.argv[0])}: error: {message}", file=sys.stderr)
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


def write_atomically(path, text):
    """Writes PATH through a temporary file beside it: a reader never sees half of it."""
    with tempfile.NamedTemporaryFile("w", dir=os.path.dirname(os.path.abspath(path)), delete=False,
                                     encoding="utf-8") as f:
        f.write(text)
    os.replace(f.name, path)


def select(list_path, source_path, out_path):
    wanted = [row["id"] for row in read_jsonl(list_path)]
    by_id = {row["id"]: row for row in read_jsonl(source_path)}
    missing = [i for i in wanted if i not in by_id]
    if missing:
        fail(f"{source_path}: no bug {', '.join(missing[:5])} (listed in {list_path})")
    write_atomically(out_path, "".join(json.dumps(by_id[i], sort_keys=True) + "\n" for i in wanted))


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


# eval.csv's columns after bug, technique, level and ties: what a list records of each
# technique and level at average ties, the values the page's figures and `dlfl compare`
# read.
METRICS = ("elements", "n_faulty", "missing_faulty", "found", "first_rank", "exam", "top1", "top3", "top5",
           "top10", "e_inspect", "wasted_effort", "ap", "rr")
COLUMNS = ("bug", "technique", "level", "ties") + METRICS
LEVELS = ("line", "function")
BUG_ID = re.compile(r"[A-Za-z0-9_.+-]+#[A-Za-z0-9_.-]+")
TECHNIQUE = re.compile(r"[a-z0-9][a-z0-9-]*")
# The CPU a bug was reproduced on, as the page prints it: no character that Markdown or
# HTML would read.
HOST_CHARACTERS = "A-Za-z0-9_ ()@.,:;+/?-"
HOST = re.compile(f"[{HOST_CHARACTERS}]{{1,200}}")


def host_of(record):
    """The record's CPU (dlfl's host_cpu.h) with any other character as '?'; '' when none."""
    return re.sub(f"[^{HOST_CHARACTERS}]", "?", str(record.get("host", ""))[:200])


def value(text):
    """An eval.csv cell as a list records it: an integer where the cell is one, else a
    float; None where it is empty (no faulty element ranked)."""
    if re.fullmatch(r"-?[0-9]+", text or ""):
        return int(text)
    v = number(text)
    return v if math.isfinite(v) else None


def cell_text(v):
    """A recorded value back as an eval.csv cell (repr: the shortest text that reads back
    as the same float)."""
    return "" if v is None else str(v) if isinstance(v, int) else repr(float(v))


def evaluation_of(rows, executed, bug):
    """{technique: {level: {metric: value}}} of the bug's line and function rows at average
    ties (eval.csv's METRICS, plus exam_ran and elements_ran: EXAM and the number of
    elements over the lines some test ran, eval-executed.csv's): what a list records of a
    kept bug, and what the figures of a later run that does not run it add up."""
    ran = {(r["technique"], r["level"]): r for r in executed if r["bug"] == bug and r["ties"] == "average"}
    values = {}
    for r in rows:
        if r["bug"] == bug and r["ties"] == "average" and r["level"] in LEVELS:
            v = {k: value(r[k]) for k in METRICS}
            e = ran.get((r["technique"], r["level"]))
            v["exam_ran"] = value(e["exam"]) if e else None
            v["elements_ran"] = value(e["elements"]) if e else None
            values.setdefault(r["technique"], {})[r["level"]] = v
    return values


def checked_entry(path, entry):
    """A list entry whose id, failing tests, positions and evaluation have the shapes the
    page reads (a list is input like any other: a malformed one is a one-line error)."""
    if not isinstance(entry, dict):
        fail(f"{path}: an entry must be a JSON object, not {type(entry).__name__}")
    bug = entry.get("id")
    if not isinstance(bug, str) or not BUG_ID.fullmatch(bug):
        fail(f"{path}: {bug!r} is not a bug id (PROJECT#NUMBER)")
    where = f"{path}: {bug}"
    tests = entry.get("failing_tests", [])
    if not isinstance(tests, list) or not all(isinstance(t, str) for t in tests):
        fail(f"{where}: failing_tests must be a list of test names")
    if not isinstance(entry.get("tests", 0), int):
        fail(f"{where}: tests must be the number of tests run")
    if "host" in entry and not (isinstance(entry["host"], str) and HOST.fullmatch(entry["host"])):
        fail(f"{where}: host must name a CPU in the characters [{HOST_CHARACTERS}] (at most 200)")
    if rule_of(entry) not in (RULE, WHOLE_FILE):
        fail(f"{where}: truth_rule must be {RULE} or {WHOLE_FILE}, not {entry['truth_rule']!r}")
    for suffix in ("", "_second"):
        kind, subtype = entry.get("bug_kind" + suffix), entry.get("dl_subtype" + suffix)
        if kind is not None and kind not in BUG_KINDS:
            fail(f"{where}: bug_kind{suffix} must be one of {', '.join(BUG_KINDS)}, not {kind!r}")
        if subtype is not None and subtype not in DL_SUBTYPES:
            fail(f"{where}: dl_subtype{suffix} must be one of {', '.join(DL_SUBTYPES)}, not {subtype!r}")
        if subtype is not None and kind != "dl-specific":
            fail(f"{where}: dl_subtype{suffix} names a subtype of a bug that bug_kind{suffix} does not call dl-specific")
    is_number = lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
    for key, good in (("positions", lambda v: v is None or (isinstance(v, list) and len(v) == 3 and all(map(is_number, v)))),
                      ("evaluation", lambda v: isinstance(v, dict) and set(v) <= set(METRICS) | {"exam_ran", "elements_ran"}
                       and all(x is None or is_number(x) for x in v.values()))):
        table = entry.get(key, {})
        if not isinstance(table, dict) or not all(isinstance(t, str) and TECHNIQUE.fullmatch(t) and isinstance(levels, dict)
                                                  and set(levels) <= set(LEVELS) and all(map(good, levels.values()))
                                                  for t, levels in table.items()):
            fail(f"{where}: {key} must map techniques to line and function values as realbugs_report.py list writes them")
    return entry


def recorded_rows(entry):
    """The rows of eval.csv and eval-executed.csv (as read_csv gives them, average ties)
    that a list entry's evaluation records."""
    rows, executed = [], []
    # In the order a run's eval.csv has them: `dlfl compare` lists techniques in the
    # order it first reads them.
    order = FORMULAS + TECHNIQUES
    in_order = lambda item: (order.index(item[0]) if item[0] in order else len(order), item[0])
    for technique, levels in sorted(entry.get("evaluation", {}).items(), key=in_order):
        for level, v in sorted(levels.items()):
            row = {"bug": entry["id"], "technique": technique_name(technique, rule_of(entry)), "level": level,
                   "ties": "average"}
            row.update({k: cell_text(v.get(k)) for k in METRICS})
            rows.append(row)
            if v.get("elements_ran") is not None:
                executed.append(dict(row, exam=cell_text(v.get("exam_ran")), elements=cell_text(v["elements_ran"])))
    return rows, executed


def bug_key(bug):
    project, _, fault = bug.partition("#")
    return (project, int(fault) if fault.isdigit() else 0, fault)


def recorded_positions(entry):
    """An entry's positions, each technique as technique_name counts it."""
    return {technique_name(t, rule_of(entry)): v for t, v in entry.get("positions", {}).items()}


class Study:
    """One side's bugs as its figures add them up: the bugs this run (OUT) kept, with its
    rows; the listed bugs it did not run whose spectrum the lists keep (ranked and
    evaluated by this run from that spectrum, `from_spectrum`); and the other listed
    bugs it did not run, with the rows their entries record. A listed bug this run ran
    and discarded is in none."""

    def __init__(self, out, side, list_path):
        self.records = latest_records(os.path.join(out, side, "results.jsonl"))
        self.listed = [checked_entry(list_path, e) for e in read_jsonl(list_path)] if os.path.exists(list_path) else []
        self.kept = [r for r in self.records if r.get("kept")]
        ran = {r["subject"] + "#" + r["fault"] for r in self.records}
        kept = {r["subject"] + "#" + r["fault"] for r in self.kept}
        self.rows = [r for r in read_csv(os.path.join(out, side, "eval.csv")) if r["bug"] in kept]
        self.executed = [r for r in read_csv(os.path.join(out, side, "eval-executed.csv")) if r["bug"] in kept]
        not_run = [e for e in self.listed if e["id"] not in ran]
        evaluated = {r["bug"] for r in read_csv(os.path.join(out, side, "eval.csv"))}
        self.from_spectrum = [e["id"] for e in not_run if e["id"] in evaluated]
        spectra = set(self.from_spectrum)
        self.rows += [r for r in read_csv(os.path.join(out, side, "eval.csv")) if r["bug"] in spectra]
        self.executed += [r for r in read_csv(os.path.join(out, side, "eval-executed.csv")) if r["bug"] in spectra]
        not_run = [e for e in not_run if e["id"] not in spectra]
        self.recorded = [e for e in not_run if e.get("evaluation")]
        self.unrecorded = [e["id"] for e in not_run if not e.get("evaluation")]
        for e in self.recorded:
            rows, executed = recorded_rows(e)
            self.rows += rows
            self.executed += executed
        # A bug whose whole-file truth has no line in its ranking has, by that convention,
        # no faulty line in the spectrum, the reason `bugset reproduce` discards a bug
        # under the rule: the figures leave it out of the variant as the convention's
        # study would; its positions (`ranked`) still say "none ranked".
        self.ranked = self.rows
        unranked = {(r["bug"], r["technique"]) for r in self.rows
                    if r["technique"].endswith(SENSITIVITY) and r["level"] == "line" and r["ties"] == "average"
                    and number(r["found"]) == 0 and number(r["missing_faulty"]) == number(r["n_faulty"])}
        self.rows = [r for r in self.rows if (r["bug"], r["technique"]) not in unranked]
        self.executed = [r for r in self.executed if (r["bug"], r["technique"]) not in unranked]


def table(out, side, lists):
    study = Study(out, side, os.path.join(lists, f"{side}.jsonl"))
    writer = csv.DictWriter(sys.stdout, fieldnames=COLUMNS, lineterminator="\n", extrasaction="ignore")
    writer.writeheader()
    writer.writerows(study.rows)


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


def mutation_cost_lines(kept, recorded):
    """The cost of each bug's mutation analysis (`bugset reproduce --mbfl`), of this run's
    kept bugs and as the `recorded` list entries record it, or nothing when no bug had one."""
    costs = [(r["subject"] + "#" + r["fault"], r["mbfl"], False, len(r.get("faulty", []))) for r in kept if r.get("mbfl")]
    costs += [(e["id"], e["mbfl"], True, len(e.get("faulty", []))) for e in recorded if e.get("mbfl")]
    if not costs:
        return []
    lines = ["Mutation analysis per bug (`dlfl kill-matrix` on the buggy version: mutants generated / compiled "
             "into the one schemata build / killed, compiled mutants on the faulty lines, the faulty lines mutants were "
             "sought on (the budget's reach; a faulty line outside it was never tried), test runs, the schemata "
             "build against the same run's build of the buggy version (with coverage for a Denchmark bug, "
             "plain for a BugsC++ defect; marked * where it is the same build of the buggy version without "
             "mutants, both without ccache: `--mbfl-plain-build`), the test runs, the whole step; seconds of "
             "wall time):", "",
             "| bug | mutants | killed | on faulty lines | faulty lines tried | test runs | schemata build s | "
             "buggy build s | runs s | step s |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for bug, m, from_list, n_faulty in sorted(costs, key=lambda c: bug_key(c[0])):
        name = f"{bug} (listed)" if from_list else bug
        if m.get("failure"):
            lines.append(f"| {name} | not measured: {m['failure']} | | | | | | | | |")
            continue
        on_faulty = m.get("on_faulty_lines", "?")  # entries of older runs lack these
        tried = f"{m['faulty_lines_examined']} of {n_faulty}" if "faulty_lines_examined" in m else "?"
        lines.append(f"| {name} | {m['generated']} / {m['compiled']} | {m['killed']} | {on_faulty} | {tried} | {m['runs']} | "
                     f"{m['build_seconds']:.0f} | {m['plain_build_seconds']:.0f}{'*' if m.get('plain_build_uncached') else ''} | "
                     f"{m['run_seconds']:.0f} | "
                     f"{m['seconds']:.0f} |")
    return lines + [""]


def page(out, lists):
    lines = ["# SBFL on real bugs: DL frameworks against traditional programs", ""]
    lines += ["Written by `scripts/realbugs.sh` (docs/realbugs.md says how to run it).", ""]
    sides = [s for s in ("dl", "traditional") if os.path.isdir(os.path.join(out, s))]
    for side in sides:
        study = Study(out, side, os.path.join(lists, f"{side}.jsonl"))
        records, listed, kept, rows, ranked = study.records, study.listed, study.kept, study.rows, study.ranked
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
                        (rule_of(e) != RULE or sorted(e.get("faulty", [])) == sorted(r.get("faulty", []))):
                    # An entry of the whole-file convention lists other faulty lines.
                    same += 1
                else:
                    differ.append(bug)
            lines.append(f"{same} of {len(checked)} bugs the list records as reproduced were reproduced with the "
                         f"same failing tests and faulty lines" + (f"; different: {', '.join(differ)}." if differ else "."))
        # A rerun that finds the same tests can still rank differently (a project that
        # seeds a hash with the time runs other lines): the positions are checked too.
        recorded = {bug: e["positions"] for bug, e in expected.items() if e.get("positions") and rule_of(e) == RULE}
        rerun = [r["subject"] + "#" + r["fault"] for r in kept if r["subject"] + "#" + r["fault"] in recorded]
        hosts = {r["subject"] + "#" + r["fault"]: host_of(r) for r in kept}
        if rerun:
            moved = [(bug, positions_differ(recorded[bug], positions_of(ranked, bug))) for bug in rerun]
            # Spectra of kernels picked by the CPU's instruction set differ between machines.
            cpus = lambda bug: (f"; recorded on {expected[bug]['host']}, rerun on {hosts[bug]}"
                                if expected[bug].get("host") and hosts[bug] and expected[bug]["host"] != hosts[bug] else "")
            moved = [f"{bug} ({why}{cpus(bug)})" for bug, why in moved if why]
            lines.append(f"{len(rerun) - len(moved)} of {len(rerun)} bugs the list records positions for gave the "
                         f"same positions (best/average/worst) of the first faulty line and function for every "
                         f"formula and technique" + (f"; different: {', '.join(moved)}." if moved else "."))
        if kept:
            seconds = [r["seconds"] for r in kept if "seconds" in r]
            lines.append(f"Time per bug this run kept (build both versions, run the tests with coverage, rank): median "
                         f"{statistics.median(seconds):.0f} s, mean {statistics.fmean(seconds):.0f} s.")
            machines = sorted({h for h in hosts.values() if h})
            if machines:
                lines.append(f"Reproduced on: {'; '.join(machines)}.")
        # The figures add up every listed bug whose values are known: a study rerun a few
        # bugs at a time keeps the values of the bugs it did not run from the list.
        if study.recorded:
            listed_ones = (f"{len(study.recorded)} listed bugs this run did not run, marked (listed), with the "
                           f"positions and values their entries record")
            lines.append(f"The figures below are of {len(kept) + len(study.recorded)} bugs: the {len(kept)} this run "
                         f"kept and {listed_ones}." if kept else f"The figures below are of {listed_ones}.")
        if study.from_spectrum:
            lines.append(f"Ranked and evaluated from the spectrum the lists keep, under the rule, not run: "
                         f"{', '.join(study.from_spectrum)}.")
        old = [e["id"] for e in study.recorded if rule_of(e) != RULE]
        if old:
            lines.append(f"Recorded under the whole-file convention, so counted only in the techniques named "
                         f"*{SENSITIVITY}: {len(old)} bugs.")
        if study.unrecorded:
            lines.append(f"Not in the figures: {len(study.unrecorded)} listed bugs this run did not run, whose entries "
                         f"record no values ({', '.join(study.unrecorded)}).")
        lines.append("")
        # (bug, tests cell, positions, listed): this run's positions, or those its entry records.
        shown = [(bug, f"{r['tests']} ({r['failing']})", positions_of(ranked, bug), False)
                 for r in kept for bug in [r["subject"] + "#" + r["fault"]]]
        def tests_cell(e):
            return f"{e.get('tests', '?')} ({len(e.get('failing_tests', []))})"
        listed = {e["id"]: e for e in study.listed}
        shown += [(bug, tests_cell(listed[bug]), positions_of(ranked, bug), False) for bug in study.from_spectrum]
        shown += [(e["id"], tests_cell(e), recorded_positions(e), True) for e in study.recorded]
        shown.sort(key=lambda b: bug_key(b[0]))
        known = FORMULAS + TECHNIQUES + [t + SENSITIVITY for t in FORMULAS + TECHNIQUES]
        present = [t for t in known if any(r["technique"] == t for r in rows)]
        for level in ("line", "function"):
            lines += [f"Position of the first faulty {level}, average over ties (best-worst):", ""]
            lines.append("| bug | tests (failing) | " + " | ".join(present) + " |")
            lines.append("|---|---|" + "---:|" * len(present))
            for bug, tests, positions, from_list in shown:
                cells = [position_cell(positions, t, level) for t in present]
                name = f"{bug} (listed)" if from_list else bug
                lines.append(f"| {name} | {tests} | " + " | ".join(cells) + " |")
            lines.append("")
        lines += ["Per technique (average ties; Top-N the expected share of bugs found within N; "
                  "EXAM over every ranked line / over the lines some test ran, for the bugs whose fault is ranked):", ""]
        lines.append("| technique | level | n | Top-1 | Top-3 | Top-5 | Top-10 | EXAM | EXAM (ran) | MAP | MRR |")
        lines.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for level in ("line", "function"):
            for t in present:
                s = summary(rows, study.executed, t, level)
                if s:
                    top = " | ".join(f"{v:.2f}" for v in s["top"])
                    lines.append(f"| {t} | {level} | {s['n']} | {top} | {s['exam']:.4f} | {s['exam_executed']:.4f} | "
                                 f"{s['map']:.3f} | {s['mrr']:.3f} |")
        lines.append("")
        lines += mutation_cost_lines(kept, [e for e in study.listed if e["id"] in study.from_spectrum] + study.recorded)
    for name, title in (("compare.md", "DL against traditional (`dlfl compare`, line level, average ties)"),
                        ("compare-real-lines.md", "DL against traditional, the bugs whose whole-file truth is lines only"),
                        ("compare-by-kind.md", "DL bugs: DL-specific against generic"),
                        ("compare-by-kind-second.md", "DL bugs by the second labelling: DL-specific against generic"),
                        ("compare-by-type.md", "DL bugs by DL bug type")):
        path = os.path.join(out, name)
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                lines += [f"## {title}", "", "```", f.read().rstrip(), "```", ""]
    if os.path.exists(os.path.join(out, "stats.md")):
        with open(os.path.join(out, "stats.md"), encoding="utf-8") as f:
            lines += [f.read().rstrip(), ""]
    return "\n".join(lines) + "\n"


def main(argv):
    if len(argv) == 3 and argv[1] == "ids":
        ids(argv[2])
    elif len(argv) == 3 and argv[1] == "recipes":
        recipes(argv[2])
    elif len(argv) == 5 and argv[1] == "select":
        select(argv[2], argv[3], argv[4])
    elif len(argv) == 4 and argv[1] == "page":
        sys.stdout.write(page(argv[2], argv[3]))
    elif len(argv) == 5 and argv[1] == "table":
        table(argv[2], argv[3], argv[4])
    elif len(argv) >= 3 and argv[1] == "packages":
        packages(argv[2], argv[3:])
    else:
        fail("usage: ids LIST | recipes LIST | select LIST SOURCE OUT | page OUT LISTS | table OUT SIDE LISTS"
             " | packages FILE ID...")


if __name__ == "__main__":
    main(sys.argv)
