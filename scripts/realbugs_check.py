#!/usr/bin/python3
"""An independent recomputation of the real-bug study's page from the lists.

  realbugs_check.py [PAGE [LISTS]]   (default: docs/realbugs.md and bugsets/ of this repository)

Recomputes, from LISTS/dl.jsonl and LISTS/traditional.jsonl alone and with none of the
code that writes the page (realbugs_report.py, realbugs_stats.py, `dlfl compare`), every
number of the page's generated part (between the markers `<!-- results.md -->` and
`<!-- end of results.md -->`) that the lists determine: each side's per-technique
figures (n, Top-N, EXAM, MAP, MRR), the group tests of each comparison (n, means,
Mann-Whitney p, Cliff's delta), the per-project and clustered means, and the smallest
detectable effect. Prints how many numbers agree; exits 1 naming each that does not.
"""
import json
import math
import os
import re
import statistics
import sys

here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
START, END = "<!-- results.md -->", "<!-- end of results.md -->"
LINE_ITEM = re.compile(r".+:[0-9]+(:.*)?")


def load(lists, side):
    with open(os.path.join(lists, side + ".jsonl"), encoding="utf-8") as f:
        return [json.loads(l) for l in f if l.strip()]


def bug_values(entry):
    """{technique: values at line level}, a value of the whole-file convention (an entry
    without truth_rule) under the technique's -whole-file name; none of that convention
    where no line of its truth is ranked (the bug has no faulty line in the spectrum by it)."""
    old = entry.get("truth_rule", "whole-file") != "adjacent-lines"
    out = {}
    for technique, levels in entry.get("evaluation", {}).items():
        name = technique + "-whole-file" if old and not technique.endswith("-whole-file") else technique
        line = levels.get("line")
        if line is None or (name.endswith("-whole-file") and not line.get("found")
                            and line.get("missing_faulty") == line.get("n_faulty")):
            continue
        out[name] = line
    return out


def mann_whitney_p(x, y):
    """Two-sided p: exact where a sample has at most 8 values and nothing ties (scipy's
    choice), else the normal approximation with tie and continuity corrections."""
    values = sorted(x + y)
    ranks = {}
    i = 0
    while i < len(values):
        j = i
        while j < len(values) and values[j] == values[i]:
            j += 1
        ranks[values[i]] = (i + 1 + j) / 2
        i = j
    nx, ny = len(x), len(y)
    ux = sum(ranks[v] for v in x) - nx * (nx + 1) / 2
    u = max(ux, nx * ny - ux)
    ties = [values.count(v) for v in set(values)]
    if min(nx, ny) <= 8 and all(t == 1 for t in ties):
        # counts[k]: orderings with U = k, built one value at a time.
        counts = {(0, 0): [1]}
        def ways(m, n):
            if (m, n) not in counts:
                a = ways(m - 1, n) if m else []
                b = ways(m, n - 1) if n else []
                shifted = [0] * n + a if m else []
                size = max(len(shifted), len(b))
                counts[(m, n)] = [(shifted[k] if k < len(shifted) else 0) + (b[k] if k < len(b) else 0)
                                  for k in range(size)]
            return counts[(m, n)]
        dist = ways(nx, ny)
        tail = sum(dist[math.ceil(u):]) / sum(dist)
        return min(1.0, 2 * tail)
    n = nx + ny
    tie_term = sum(t ** 3 - t for t in ties)
    variance = nx * ny / 12 * ((n + 1) - tie_term / (n * (n - 1)))
    if variance <= 0:
        return 1.0
    z = (u - nx * ny / 2 - 0.5) / math.sqrt(variance)
    return min(1.0, max(0.0, 2 * (1 - statistics.NormalDist().cdf(z))))


def cliffs_delta(x, y):
    return sum((a > b) - (a < b) for a in x for b in y) / (len(x) * len(y))


def g(value, digits=3):
    text = f"{value:.{digits}g}"
    return text


class Checker:
    def __init__(self):
        self.agree, self.differ = 0, []

    def same(self, what, printed, recomputed):
        if printed == recomputed:
            self.agree += 1
        else:
            self.differ.append(f"{what}: the page says {printed}, the lists give {recomputed}")


def section_of(text, title):
    at = text.find(title)
    if at < 0:
        return ""
    end = text.find("\n#", at + len(title))
    return text[at:end if end >= 0 else len(text)]


def check_side(check, block, side, name, entries):
    per = [bug_values(e) for e in entries if e.get("evaluation")]
    for line in section_of(block, f"#### {name} side").splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) != 11 or cells[1] != "line":
            continue
        t = cells[0]
        rows = [p[t] for p in per if t in p]
        mean = lambda k: statistics.fmean(r[k] for r in rows)
        exam = [r["exam"] for r in rows if r.get("exam") is not None]
        ran = [r["exam_ran"] for r in rows if r.get("exam_ran") is not None]
        got = [str(len(rows))] + [f"{mean(k):.2f}" for k in ("top1", "top3", "top5", "top10")] + \
              [f"{statistics.fmean(exam):.4f}", f"{statistics.fmean(ran):.4f}", f"{mean('ap'):.3f}", f"{mean('rr'):.3f}"]
        for k, (printed, value) in enumerate(zip(cells[2:], got)):
            check.same(f"{name} {t} line column {k + 3}", printed, value)


def check_tests(check, block, title, groups):
    """The group tests (`dlfl compare`'s second section) of the block under `title`."""
    metric_key = {"mrr": "rr", "map": "ap", "first_rank": "first_rank"}
    for line in section_of(block, title).splitlines():
        cells = line.split()
        if len(cells) != 15 or cells[1] not in metric_key or cells[2] not in groups:
            continue
        t, metric, a, b = cells[:4]
        xs = [v[t][metric_key[metric]] for v in groups[a] if t in v]
        ys = [v[t][metric_key[metric]] for v in groups[b] if t in v]
        where = f"{title} {t} {metric}"
        check.same(where + " n", cells[4:6], [str(len(xs)), str(len(ys))])
        check.same(where + " means", cells[6:8], [f"{statistics.fmean(xs):.3f}", f"{statistics.fmean(ys):.3f}"])
        check.same(where + " Mann-Whitney p", cells[11], g(mann_whitney_p(xs, ys)))
        check.same(where + " Cliff's delta", cells[13], f"{cliffs_delta(xs, ys):.3f}")


def check_projects(check, block, sides):
    for line in section_of(block, "#### Per project").splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) != 6 or cells[0] not in ("DL", "traditional"):
            continue
        technique = re.search(r"Technique: ([a-z0-9-]+)", block).group(1)
        bugs = {e["id"]: bug_values(e)[technique] for e in sides[cells[0]] if technique in bug_values(e)}
        projects = {}
        for bug, v in bugs.items():
            projects.setdefault(bug.split("#")[0], []).append(v)
        if cells[1] in projects:
            chosen = [projects[cells[1]]]
        elif cells[1].startswith("all bugs"):
            chosen = [list(bugs.values())]
        else:
            chosen = list(projects.values())
        got = [f"{statistics.fmean(statistics.fmean(v[k] for v in p) for p in chosen):.3f}" for k in ("top1", "top10", "rr")]
        check.same(f"per project {cells[0]} {cells[1]}", cells[3:], got)
    power = re.search(r"With (\d+) DL and (\d+) traditional bugs.*?\|Cliff's delta\| >= ([0-9.]+)", block, re.S)
    if power:
        n1, n2 = int(power.group(1)), int(power.group(2))
        z = statistics.NormalDist().inv_cdf(0.975) + statistics.NormalDist().inv_cdf(0.8)
        c = n1 / (n1 + n2)
        delta = 2 * z / math.sqrt(12 * (n1 + n2) * c * (1 - c))
        check.same("detectable |delta|", power.group(3), f"{delta:.2f}")


def check_agreement(check, block, dl):
    """The two labellings' agreement, recomputed here: observed agreement and Cohen's kappa."""
    found = re.search(r"(\d+) DL bugs labelled by both annotators.*?agree on the kind of (\d+) \((\d+)%\); "
                      r"Cohen's kappa (-?[0-9]+\.[0-9]+)", block, re.S)
    if not found:
        return
    both = [e for e in dl if "bug_kind" in e and "bug_kind_second" in e]
    n = len(both)
    same = sum(e["bug_kind"] == e["bug_kind_second"] for e in both)
    share = lambda key, k: sum(e[key] == k for e in both) / n
    chance = sum(share("bug_kind", k) * share("bug_kind_second", k) for k in ("dl-specific", "generic"))
    check.same("labelled by both", found.group(1), str(n))
    check.same("kinds agreed", found.group(2), str(same))
    check.same("kinds agreed %", found.group(3), f"{100 * same / n:.0f}")
    check.same("Cohen's kappa", found.group(4), f"{(same / n - chance) / (1 - chance):.2f}")


def main(argv):
    page = argv[1] if len(argv) > 1 else os.path.join(here, "docs", "realbugs.md")
    lists = argv[2] if len(argv) > 2 else os.path.join(here, "bugsets")
    with open(page, encoding="utf-8") as f:
        text = f.read()
    if START not in text or END not in text:
        print(f"realbugs_check.py: error: {page}: no generated part ({START} ... {END})", file=sys.stderr)
        return 2
    block = text[text.index(START):text.index(END)]
    dl, traditional = load(lists, "dl"), load(lists, "traditional")
    check = Checker()
    check_side(check, block, "dl", "DL", dl)
    check_side(check, block, "traditional", "Traditional", traditional)
    values = lambda es: [bug_values(e) for e in es if e.get("evaluation")]
    check_tests(check, block, "#### DL against traditional (", {"dl": values(dl), "traditional": values(traditional)})
    real = lambda es: [e for e in es if all(LINE_ITEM.fullmatch(i) for i in
                                            (e.get("faulty") if e.get("truth_rule", "whole-file") == "whole-file"
                                             else e.get("faulty_whole_file", ["?"])))]
    check_tests(check, block, "#### DL against traditional, the bugs", {"dl": values(real(dl)),
                                                                          "traditional": values(real(traditional))})
    check_tests(check, block, "#### DL bugs: DL-specific", {k: values([e for e in dl if e.get("bug_kind") == k])
                                                            for k in ("dl-specific", "generic")})
    check_tests(check, block, "#### DL bugs by the second labelling", {
        k: values([e for e in dl if e.get("bug_kind_second") == k]) for k in ("dl-specific", "generic")})
    check_projects(check, block, {"DL": dl, "traditional": traditional})
    check_agreement(check, block, dl)
    for d in check.differ:
        print(f"realbugs_check.py: {d}", file=sys.stderr)
    print(f"realbugs_check.py: {check.agree} numbers of {page} recomputed from {lists}, {len(check.differ)} differ")
    return 1 if check.differ or check.agree == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
