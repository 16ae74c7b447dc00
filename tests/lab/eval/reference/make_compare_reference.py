#!/usr/bin/python3
"""Reference values for the `dlfl compare` tests on Jahan et al.'s BugLocator/BLUiR tables
(tests/cli/compare_command_test.cpp), computed with scipy, independently of dlfl.

Run with Debian's interpreter (it has numpy and scipy 1.10):
    /usr/bin/python3 tests/lab/eval/reference/make_compare_reference.py ../shared/bugsets/jahan2025
Inputs: results_rq1_buglocator_bluir_BugGL.csv (traditional, with a header) and
results_rq1_buglocator_bluir_Denchmark.csv (DL, no header); columns project, version,
bug id, technique, number of faulty files, rank of the first faulty file (0 = not
retrieved), RR, AP. The tests pin the printed numbers, so CI needs no Python.
"""
import csv
import sys

import numpy as np
from scipy import stats

root = sys.argv[1] if len(sys.argv) > 1 else "../shared/bugsets/jahan2025"


def rows(name, header):
    with open(f"{root}/{name}", newline="") as f:
        r = list(csv.reader(f))
    return r[1:] if header else r


groups = {
    "traditional": rows("results_rq1_buglocator_bluir_BugGL.csv", True),
    "dl": rows("results_rq1_buglocator_bluir_Denchmark.csv", False),
}


def column(group, technique, index):
    return np.array([float(r[index]) for r in groups[group] if r[3] == technique])


def cliffs_delta(x, y):
    gt = sum((xi > y).sum() for xi in x)
    lt = sum((xi < y).sum() for xi in x)
    return (gt - lt) / (len(x) * len(y))


def cohens_d(x, y):
    nx, ny = len(x), len(y)
    pooled = ((nx - 1) * x.var(ddof=1) + (ny - 1) * y.var(ddof=1)) / (nx + ny - 2)
    return (x.mean() - y.mean()) / np.sqrt(pooled)


for technique in ("buglocator", "bluir"):
    for group in ("traditional", "dl"):
        rank = column(group, technique, 5)
        hit = lambda k: ((rank >= 1) & (rank <= k)).mean()
        print(f"{technique} {group}: n={len(rank)} top1={hit(1):.12g} top5={hit(5):.12g} "
              f"top10={hit(10):.12g} mrr={column(group, technique, 6).mean():.12g} "
              f"map={column(group, technique, 7).mean():.12g}")
    for name, index in (("mrr", 6), ("map", 7)):
        x, y = column("traditional", technique, index), column("dl", technique, index)
        print(f"  {name}: diff={(x.mean() - y.mean()) / x.mean() * 100:.12g} "
              f"p_student={stats.ttest_ind(x, y).pvalue:.12g} "
              f"p_welch={stats.ttest_ind(x, y, equal_var=False).pvalue:.12g} "
              f"p_mw={stats.mannwhitneyu(x, y, alternative='two-sided').pvalue:.12g} "
              f"d={cohens_d(x, y):.12g} delta={cliffs_delta(x, y):.12g} "
              f"sw_p_trad={stats.shapiro(x).pvalue:.6g} sw_p_dl={stats.shapiro(y).pvalue:.6g}")

# Paired: BugLocator against BLUiR on the same DL bugs (bug id = project#bug).
for group in ("traditional", "dl"):
    by_bug = {}
    for r in groups[group]:
        by_bug.setdefault(r[0] + "#" + r[2], {})[r[3]] = float(r[6])
    pairs = [(v["buglocator"], v["bluir"]) for v in by_bug.values() if len(v) == 2]
    a, b = np.array(pairs).T
    w = stats.wilcoxon(a, b)
    print(f"paired {group} mrr: pairs={len(pairs)} w={w.statistic:.12g} p={w.pvalue:.12g}")
