"""Small numeric helpers over a C++ core (seeded._native)."""
from seeded._native import clamp, dot, mean


def clamp_all(values, lo, hi):
    return [clamp(v, lo, hi) for v in values]


def centered(values):
    m = mean(values)
    return [v - m for v in values]


def norm2(values):
    return dot(values, values)
