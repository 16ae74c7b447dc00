#!/usr/bin/python3
"""Reference values for tests/lab/eval/statistics_test.cpp, computed with scipy.

Run with Debian's interpreter (it has numpy and scipy): /usr/bin/python3 make_statistics_reference.py
The samples below are the literals of statistics_test.cpp; keep both in step. The test
pins the printed numbers, so CI needs no Python. Effect sizes have no scipy function:
they are computed here by their textbook definitions, by brute force.
"""
import itertools

import numpy as np
import scipy
from scipy import stats

SAMPLES = {
    # n = 3
    "a3": [1.0, 2.0, 4.0],
    "b3": [2.5, 3.0, 7.5],
    # n = 5: only the last coefficient gets Royston's correction
    "n5": [2.1, 3.4, 1.9, 5.6, 2.8],
    # small, with ties
    "c8": [1.0, 2.0, 2.0, 3.0, 3.0, 3.0, 4.0, 5.0],
    "d10": [2.0, 3.0, 3.0, 4.0, 5.0, 5.0, 6.0, 7.0, 8.0, 8.0],
    # unequal sizes, no ties
    "g7": [0.12, 0.45, 0.33, 0.91, 0.27, 0.64, 0.08],
    "h12": [0.5, 0.72, 0.95, 0.41, 0.88, 0.67, 0.99, 0.58, 0.81, 0.36, 0.77, 0.93],
    # reciprocal-rank-like values: heavy ties, far from normal
    "rr20": [1.0, 1.0, 0.5, 0.5, 0.5, 0.25, 0.25, 0.2, 0.1, 0.1,
             0.1, 0.05, 0.05, 0.0, 0.0, 0.0, 0.0, 1.0, 0.5, 0.2],
    "rr16": [1.0, 0.5, 0.5, 0.25, 0.2, 0.2, 0.1, 0.05, 0.05, 0.05,
             0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    # n = 50: normal(10, 2), 9 + exponential(1.5), and paired with e50 (numpy
    # RandomState(20250101), rounded to 3 decimals; pinned here as literals)
    "e50": [7.683, 15.886, 10.32, 7.906, 12.255, 12.755, 10.14, 13.928, 10.394, 10.518,
            5.934, 11.779, 10.239, 13.935, 6.459, 10.645, 12.296, 11.796, 10.548, 7.821,
            11.191, 11.512, 9.933, 7.958, 9.178, 6.279, 5.441, 9.023, 9.338, 10.677,
            8.604, 7.213, 11.513, 11.359, 12.756, 12.906, 9.411, 8.257, 10.64, 8.124,
            11.324, 13.322, 12.494, 8.514, 10.195, 10.062, 10.572, 15.097, 11.514, 11.603],
    "f50": [9.908, 12.811, 10.142, 11.034, 9.237, 10.152, 10.078, 9.897, 9.454, 11.889,
            10.761, 10.186, 9.055, 11.792, 9.379, 9.889, 9.052, 10.568, 9.303, 9.259,
            13.584, 11.049, 10.253, 10.292, 10.609, 9.182, 9.637, 14.272, 9.46, 9.257,
            10.737, 10.081, 11.659, 9.345, 11.747, 9.44, 14.937, 9.232, 9.173, 10.196,
            11.44, 9.645, 11.289, 9.764, 11.171, 13.758, 9.423, 9.608, 9.544, 9.003],
    "p50": [8.342, 17.785, 10.039, 8.522, 12.496, 14.096, 10.548, 14.594, 8.774, 10.042,
            5.413, 10.547, 9.764, 14.929, 5.884, 10.727, 11.872, 13.476, 11.77, 10.27,
            10.268, 12.113, 9.98, 10.014, 11.229, 5.717, 5.886, 10.39, 8.363, 10.267,
            11.407, 7.78, 13.188, 10.236, 13.094, 13.561, 8.821, 8.965, 10.305, 8.137,
            11.447, 13.34, 11.863, 8.73, 10.189, 11.877, 10.24, 13.744, 12.012, 12.44],
    # paired, n = 9, no zero and no tied |difference|
    "before9": [0.61, 0.42, 0.77, 0.35, 0.58, 0.49, 0.83, 0.27, 0.66],
    "after9": [0.52, 0.47, 0.51, 0.31, 0.29, 0.41, 0.70, 0.30, 0.43],
    # paired, n = 12, with zero differences and tied |differences|
    "before12": [1.0, 0.5, 0.5, 0.25, 1.0, 0.2, 0.1, 0.5, 0.0, 1.0, 0.25, 0.5],
    "after12": [0.5, 0.5, 0.25, 0.25, 0.5, 0.1, 0.2, 0.25, 0.0, 0.5, 0.5, 1.0],
}
S = SAMPLES


def show(call, **values):
    parts = ", ".join(f"{k}={float(v)!r}" for k, v in values.items())
    print(f"// scipy {scipy.__version__}: {call} -> {parts}")


def welch_df(x, y):
    x, y = np.asarray(x), np.asarray(y)
    vx, vy = x.var(ddof=1) / len(x), y.var(ddof=1) / len(y)
    return (vx + vy) ** 2 / (vx ** 2 / (len(x) - 1) + vy ** 2 / (len(y) - 1))


def main():
    for name in ["a3", "b3", "n5", "c8", "d10", "g7", "h12", "rr20", "e50", "f50"]:
        r = stats.shapiro(S[name])
        show(f"shapiro({name})", statistic=r.statistic, pvalue=r.pvalue)

    for x, y in [("a3", "b3"), ("c8", "d10"), ("g7", "h12"), ("e50", "f50")]:
        r = stats.ttest_ind(S[x], S[y])
        show(f"ttest_ind({x}, {y})", statistic=r.statistic, pvalue=r.pvalue,
             df=len(S[x]) + len(S[y]) - 2)
        r = stats.ttest_ind(S[x], S[y], equal_var=False)
        show(f"ttest_ind({x}, {y}, equal_var=False)", statistic=r.statistic, pvalue=r.pvalue,
             df_numpy=welch_df(S[x], S[y]))

    for x, y, kw in [("c8", "d10", {}), ("rr20", "rr16", {}), ("e50", "f50", {}),
                     ("rr20", "rr16", {"use_continuity": False}),
                     ("g7", "h12", {}), ("g7", "h12", {"method": "asymptotic"}),
                     ("a3", "b3", {})]:
        r = stats.mannwhitneyu(S[x], S[y], **kw)
        extra = "".join(f", {k}={v!r}" for k, v in kw.items())
        show(f"mannwhitneyu({x}, {y}{extra})", statistic=r.statistic, pvalue=r.pvalue)

    for x, y, kw in [("before9", "after9", {}), ("before9", "after9", {"method": "approx"}),
                     ("before12", "after12", {}),
                     ("before12", "after12", {"correction": True}),
                     ("e50", "p50", {}), ("e50", "p50", {"method": "approx"})]:
        r = stats.wilcoxon(S[x], S[y], **kw)
        extra = "".join(f", {k}={v!r}" for k, v in kw.items())
        show(f"wilcoxon({x}, {y}{extra})", statistic=r.statistic, pvalue=r.pvalue)

    for x, y in [("c8", "d10"), ("rr20", "rr16"), ("e50", "f50"), ("g7", "h12")]:
        a, b = np.asarray(S[x]), np.asarray(S[y])
        pooled = np.sqrt(((len(a) - 1) * a.var(ddof=1) + (len(b) - 1) * b.var(ddof=1))
                         / (len(a) + len(b) - 2))
        d = (a.mean() - b.mean()) / pooled
        delta = sum(np.sign(p - q) for p, q in itertools.product(a, b)) / (len(a) * len(b))
        print(f"// numpy {np.__version__} (definitions, brute force): {x} vs {y} -> "
              f"cohens_d={float(d)!r}, cliffs_delta={float(delta)!r}")


if __name__ == "__main__":
    main()
