#!/usr/bin/python3
"""Ochiai ranking the way numpy-based SBFL engines compute it: vectorized counts over COO
arrays (np.bincount), scores with np.divide(where=..., out=...), a stable argsort.

Usage: numpy_reference.py DIR [TOP_OUT]; DIR holds tests.u32, elements.u32, weights.f64
and shape.txt (written by make_spectrum). Loading is not timed; counts + scores + argsort
are, best of 5. Prints `numpy_seconds S` and `numpy_cpu_seconds S` (process CPU time).
"""
import sys
import time

import numpy as np

REPEATS = 5  # as many as rank_ratio.cpp times dlfl (best of each)


def ochiai_ranking(tests, elements, weights, n_elements):
    w = weights[tests]
    ef = np.bincount(elements, weights=w, minlength=n_elements)
    covered = np.bincount(elements, minlength=n_elements).astype(np.float64)
    ep = covered - ef
    failed = weights.sum()
    denominator = np.sqrt(failed * (ef + ep))
    scores = np.divide(ef, denominator, out=np.zeros_like(ef), where=denominator > 0)
    order = np.argsort(-scores, kind="stable")
    return order, scores


def main():
    directory = sys.argv[1]
    tests = np.fromfile(f"{directory}/tests.u32", dtype=np.uint32)
    elements = np.fromfile(f"{directory}/elements.u32", dtype=np.uint32)
    weights = np.fromfile(f"{directory}/weights.f64", dtype=np.float64)
    with open(f"{directory}/shape.txt") as shape:
        n_elements = int(shape.read().split()[0])
    best = best_cpu = float("inf")
    for _ in range(REPEATS):
        start, start_cpu = time.perf_counter(), time.process_time()
        order, scores = ochiai_ranking(tests, elements, weights, n_elements)
        best = min(best, time.perf_counter() - start)
        best_cpu = min(best_cpu, time.process_time() - start_cpu)
    print(f"numpy_seconds {best:.6f}")
    print(f"numpy_cpu_seconds {best_cpu:.6f}")
    if len(sys.argv) > 2:
        with open(sys.argv[2], "w") as out:
            for e in order[:20]:
                out.write(f"{e} {scores[e]:.6g}\n")


if __name__ == "__main__":
    main()
