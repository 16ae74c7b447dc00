#!/usr/bin/python3
"""The real-bug study's statistics beyond the per-side figures (scripts/realbugs.sh):

  realbugs_stats.py kinds LISTS [second]        "id,bug_kind,dl_subtype" of the DL list's bugs, a
                                                labels CSV for `dlfl compare --labels --by bug_kind`
                                                (with `second`, the second annotator's labels)
  realbugs_stats.py real-lines OUT SIDE LISTS   OUT/SIDE/eval-study.csv's rows of the bugs whose
                                                whole-file truth is lines only (no file the fix only
                                                adds to), on stdout
  realbugs_stats.py section OUT LISTS           the page's section: per project and clustered
                                                (per-project means) figures of each side, the
                                                ground-truth rule of the figures, and what the
                                                sample sizes can detect, and how the two
                                                annotators' bug kinds agree, on stdout
  realbugs_stats.py agreement LISTS             only the last: the two labellings' agreement
  realbugs_stats.py embed RESULTS DOC           DOC (atomically) with its part between the lines
                                                `<!-- results.md -->` and `<!-- end of results.md -->`
                                                replaced by RESULTS (OUT/results.md), its title
                                                left out and its headings two levels lower

The figures read OUT/SIDE/eval-study.csv (what the page's figures add up) at line level,
average ties. A bug's project is its id before '#'.
"""
import csv
import math
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from realbugs_report import (SENSITIVITY, WHOLE_FILE, checked_entry, fail, read_csv,  # noqa: E402
                             read_jsonl, rule_of, write_atomically)

SIDES = (("dl", "DL"), ("traditional", "traditional"))
METRICS = (("top1", "Top-1"), ("top10", "Top-10"), ("rr", "MRR"))
LINE = re.compile(r".+:[0-9]+(:.*)?")


def entries(lists, side):
    path = os.path.join(lists, f"{side}.jsonl")
    return [checked_entry(path, e) for e in read_jsonl(path)] if os.path.exists(path) else []


def whole_file_items(entry):
    """The items of the bug's truth under the whole-file convention that are whole files:
    the entry's `faulty` when recorded under that convention, else `faulty_whole_file`
    (the run's BUG.whole-file.truth); None when the entry has neither."""
    items = entry.get("faulty") if rule_of(entry) == WHOLE_FILE else entry.get("faulty_whole_file")
    return None if items is None else [i for i in items if not LINE.fullmatch(i)]


def kinds(lists, suffix=""):
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow(["id", "bug_kind", "dl_subtype"])
    for e in entries(lists, "dl"):
        if "bug_kind" + suffix in e:
            writer.writerow([e["id"], e["bug_kind" + suffix], e.get("dl_subtype" + suffix, "")])


def cohens_kappa(pairs):
    """Cohen's kappa (Cohen, 1960) of two raters' labels, [(a, b), ...]: observed agreement
    corrected by the agreement their label shares would give by chance; None when chance
    agreement is 1 (both used one label)."""
    n = len(pairs)
    observed = sum(a == b for a, b in pairs) / n
    labels = {x for pair in pairs for x in pair}
    chance = sum((sum(a == k for a, _ in pairs) / n) * (sum(b == k for _, b in pairs) / n) for k in labels)
    return None if chance == 1 else (observed - chance) / (1 - chance)


def agreement(lists):
    """The page's part on the two labellings of the DL bugs' kinds (bug_kind and
    bug_kind_second in the DL list)."""
    both = [e for e in entries(lists, "dl") if "bug_kind" in e and "bug_kind_second" in e]
    if not both:
        return []
    pairs = [(e["bug_kind"], e["bug_kind_second"]) for e in both]
    same = sum(a == b for a, b in pairs)
    kappa = cohens_kappa(pairs)
    dl_both = [e for e in both if e["bug_kind"] == e["bug_kind_second"] == "dl-specific"]
    same_subtype = sum(e.get("dl_subtype") == e.get("dl_subtype_second") for e in dl_both)
    counts = lambda suffix: ", ".join(f"{sum(e['bug_kind' + suffix] == k for e in both)} {k}"
                                      for k in ("dl-specific", "generic"))
    lines = ["## The two labellings of the DL bugs' kinds", "",
             f"{len(both)} DL bugs labelled by both annotators (first: {counts('')}; second: {counts('_second')}). "
             f"They agree on the kind of {same} ({same / len(both):.0%}); Cohen's kappa "
             + (f"{kappa:.2f}" if kappa is not None else "undefined (one label only)")
             + f". Of the {len(dl_both)} both call DL-specific, {same_subtype} have the same subtype.", ""]
    differ = [e for e in both if e["bug_kind"] != e["bug_kind_second"]
              or (e in dl_both and e.get("dl_subtype") != e.get("dl_subtype_second"))]
    if differ:
        lines += ["| bug | first | second |", "|---|---|---|"]
        label = lambda e, suffix: e["bug_kind" + suffix] + (f" ({e['dl_subtype' + suffix]})"
                                                            if e.get("dl_subtype" + suffix) else "")
        lines += [f"| {e['id']} | {label(e, '')} | {label(e, '_second')} |" for e in differ]
        lines.append("")
    return lines


def real_lines(out, side, lists):
    keep = {e["id"] for e in entries(lists, side) if whole_file_items(e) == []}
    rows = [r for r in read_csv(os.path.join(out, side, "eval-study.csv")) if r["bug"] in keep]
    if not rows:
        return
    writer = csv.DictWriter(sys.stdout, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)


def primary_technique(rows):
    """Ochiai under the rule where any bug has it, else its whole-file variant."""
    names = {r["technique"] for r in rows}
    return "ochiai" if "ochiai" in names else "ochiai" + SENSITIVITY


def values(rows, technique):
    """{bug: {metric: value}} at line level, average ties."""
    out = {}
    for r in rows:
        if r["technique"] == technique and r["level"] == "line" and r["ties"] == "average":
            out[r["bug"]] = {m: float(r[m]) for m, _ in METRICS}
    return out


def by_project(bugs):
    projects = {}
    for bug, v in bugs.items():
        projects.setdefault(bug.split("#", 1)[0], {})[bug] = v
    return projects


def means(bugs):
    return {m: statistics.fmean(v[m] for v in bugs.values()) for m, _ in METRICS}


def detectable_delta(n1, n2, alpha=0.05, power=0.8):
    """The smallest |Cliff's delta| a two-sided Mann-Whitney test at `alpha` detects with
    `power`, by Noether's sample-size formula (Noether, JASA 1987): N = (z_{1-alpha/2} +
    z_{power})^2 / (12 c (1 - c) (p - 1/2)^2), N = n1 + n2, c = n1 / N, p = P(X > Y), and
    delta = 2p - 1, solved for delta."""
    z = statistics.NormalDist().inv_cdf
    n = n1 + n2
    c = n1 / n
    return 2 * math.sqrt((z(1 - alpha / 2) + z(power)) ** 2 / (12 * n * c * (1 - c)))


def per_side_needed(delta, alpha=0.05, power=0.8):
    """Bugs per side (equal sides) Noether's formula needs to detect |delta|."""
    z = statistics.NormalDist().inv_cdf
    return math.ceil((z(1 - alpha / 2) + z(power)) ** 2 / (12 * 0.25 * (delta / 2) ** 2) / 2)


def section(out, lists):
    lines = ["## Per project, clustered, and what the sample can detect", ""]
    tables = {side: read_csv(os.path.join(out, side, "eval-study.csv")) for side, _ in SIDES}
    technique = primary_technique([r for rows in tables.values() for r in rows])
    rules = {side: sorted({rule_of(e) for e in entries(lists, side) if e.get("evaluation")}) for side, _ in SIDES}
    lines.append(f"Technique: {technique}, line level, average ties"
                 + (" (the whole-file convention: no listed bug has values under the one rule yet)."
                    if technique.endswith(SENSITIVITY) else "."))
    lines.append("Rules of the lists' values: " + "; ".join(f"{name} {', '.join(rules[side]) or 'none'}"
                                                           for side, name in SIDES) + ".")
    lines += ["", "| side | project | bugs | Top-1 | Top-10 | MRR |", "|---|---|---:|---:|---:|---:|"]
    sizes = {}
    for side, name in SIDES:
        bugs = values(tables[side], technique)
        sizes[side] = len(bugs)
        if not bugs:
            continue
        projects = by_project(bugs)
        for project in sorted(projects):
            m = means(projects[project])
            lines.append(f"| {name} | {project} | {len(projects[project])} | "
                         + " | ".join(f"{m[k]:.3f}" for k, _ in METRICS) + " |")
        bug_level = means(bugs)
        clustered = {k: statistics.fmean(means(p)[k] for p in projects.values()) for k, _ in METRICS}
        lines.append(f"| {name} | all bugs (bug-level mean) | {len(bugs)} | "
                     + " | ".join(f"{bug_level[k]:.3f}" for k, _ in METRICS) + " |")
        lines.append(f"| {name} | clustered (mean of the {len(projects)} project means) | {len(bugs)} | "
                     + " | ".join(f"{clustered[k]:.3f}" for k, _ in METRICS) + " |")
    lines.append("")
    if sizes["dl"] and sizes["traditional"]:
        d = detectable_delta(sizes["dl"], sizes["traditional"])
        lines.append(f"With {sizes['dl']} DL and {sizes['traditional']} traditional bugs, a two-sided Mann-Whitney "
                     f"test at alpha 0.05 has 80% power only for |Cliff's delta| >= {d:.2f} (Noether's formula); "
                     f"|delta| = 0.3 needs about {per_side_needed(0.3)} bugs per side. Bugs of one project are "
                     f"not independent, so the effective sample is smaller still.")
        lines.append("")
    lines += agreement(lists)
    return "\n".join(lines) + "\n"


START, END = "<!-- results.md -->", "<!-- end of results.md -->"


def embed(results, doc):
    try:
        with open(results, encoding="utf-8") as f:
            generated = f.read().splitlines()
        with open(doc, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        fail(f"{e.filename}: {e.strerror}")
    if text.count(START + "\n") != 1 or text.count(END + "\n") != 1 or text.index(START) > text.index(END):
        fail(f"{doc}: no part to replace (one line {START}, then one line {END})")
    body = [("##" + line) if line.startswith("## ") else line for line in generated if not line.startswith("# ")]
    head, rest = text.split(START + "\n", 1)
    tail = rest.split(END + "\n", 1)[1]
    write_atomically(doc, head + START + "\n" + "\n".join(body).strip("\n") + "\n" + END + "\n" + tail)


def main(argv):
    if len(argv) == 3 and argv[1] == "kinds":
        kinds(argv[2])
    elif len(argv) == 4 and argv[1] == "kinds" and argv[3] == "second":
        kinds(argv[2], "_second")
    elif len(argv) == 5 and argv[1] == "real-lines":
        real_lines(argv[2], argv[3], argv[4])
    elif len(argv) == 3 and argv[1] == "agreement":
        sys.stdout.write("\n".join(agreement(argv[2])) + "\n")
    elif len(argv) == 4 and argv[1] == "section":
        sys.stdout.write(section(argv[2], argv[3]))
    elif len(argv) == 4 and argv[1] == "embed":
        embed(argv[2], argv[3])
    else:
        fail("usage: kinds LISTS [second] | real-lines OUT SIDE LISTS | section OUT LISTS | agreement LISTS | "
             "embed RESULTS DOC")


if __name__ == "__main__":
    main(sys.argv)
