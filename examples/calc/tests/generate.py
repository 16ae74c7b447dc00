#!/usr/bin/env python3
"""Writes calc's test cases, deterministically: cases/NAME.calc for every NAME listed in
tests.txt, about 300 small scripts in ten categories. Expected outputs are not computed
here: `update_expected.sh CALC` records what the correct calc prints (review the diff).

Only the `unary` category uses a unary minus (negative values elsewhere come from
subtraction) and only some `vars` and `errors` scripts read undefined variables, so a
fault in either place fails a known subset of the suite (see ../faults/faults.json).

    /usr/bin/python3 tests/generate.py      # from examples/calc
"""
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(20261125)


def num():
    r = rng.random()
    if r < 0.6:
        return str(rng.randint(0, 99))
    if r < 0.9:
        return f"{rng.randint(0, 99)}.{rng.randint(0, 99)}"
    return f".{rng.randint(1, 9)}"


def arith(depth=0):
    if depth > 2 or rng.random() < 0.3:
        return num()
    op = rng.choice("+-*/")
    left, right = arith(depth + 1), arith(depth + 1)
    if op == "/" and right.strip("0.") == "":
        right = "7"
    text = f"{left} {op} {right}"
    return f"({text})" if rng.random() < 0.3 else text


def mod_expr():
    a, b, c = rng.randint(1, 60), rng.randint(2, 9), rng.randint(1, 30)
    return rng.choice([f"{a} % {b}", f"{c} + {a} % {b}", f"{a} % {b} + {c}", f"{c} - {a} % {b}",
                       f"{a} * {c} % {b}", f"({c} + {a}) % {b}", f"{a}.5 % {b}"])


def unary_expr():
    a, b = rng.randint(0, 20), rng.randint(1, 9)
    return rng.choice([f"-{a}", f"-{a} + {b}", f"{b} * -{a}", f"-(-{a})", f"- {a} ^ 2", f"{b} - -{a}",
                       f"+{a} - {b}", f"2 ^ -{b % 3 + 1}", f"abs(-{a})", f"--{b}"])


def power_expr():
    a, b, c = rng.randint(1, 4), rng.randint(0, 3), rng.randint(1, 2)
    return rng.choice([f"{a} ^ {b}", f"{a} ^ {b} ^ {c}", f"({a} ^ {b}) ^ {c}", f"2 ^ {b} ^ {c}",
                       f"{a} * {c} ^ {b}", f"pow({a}, {b})", f"{a}.5 ^ 2"])


FUNCS = [
    lambda: f"abs({rng.randint(0, 9)} - {rng.randint(0, 20)})",
    lambda: f"min({', '.join(str(rng.randint(0, 50)) for _ in range(rng.randint(1, 5)))})",
    lambda: f"min({rng.randint(20, 50)}, {rng.randint(20, 50)}, {rng.randint(0, 10)})",
    lambda: f"max({', '.join(str(rng.randint(0, 50)) for _ in range(rng.randint(1, 5)))})",
    lambda: f"avg({', '.join(str(rng.randint(0, 50)) for _ in range(rng.randint(1, 5)))})",
    lambda: f"sqrt({rng.randint(0, 200)})",
    lambda: f"hypot({rng.randint(0, 12)}, {rng.randint(0, 12)})",
    lambda: f"floor({rng.randint(0, 30)}.{rng.randint(0, 9)})",
    lambda: f"ceil({rng.randint(0, 30)}.{rng.randint(1, 9)})",
    lambda: f"round({rng.randint(0, 9)}.{rng.choice([2, 5, 5, 8])})",
    lambda: f"round(0 - {rng.randint(0, 9)}.{rng.choice([2, 5, 5, 8])})",
    lambda: f"gcd({rng.randint(1, 60)}, {rng.randint(1, 60)})",
    lambda: f"gcd({rng.randint(0, 5)} - {rng.randint(10, 60)}, {rng.randint(2, 30)})",
    lambda: f"fact({rng.randint(0, 12)})",
    lambda: f"max(min({rng.randint(0, 9)}, {rng.randint(0, 9)}), {rng.randint(0, 9)})",
]


def number_literal():
    m = f"{rng.randint(1, 9)}.{rng.randint(0, 99)}"
    return rng.choice([f"{m}e{rng.randint(0, 5)}", f"{m}e-{rng.randint(1, 4)}", f"{m}E+{rng.randint(1, 3)}",
                       f"{rng.randint(1, 9)}e-{rng.randint(1, 3)} * 1000", f".{rng.randint(1, 99)}",
                       f"{rng.randint(100, 99999)}", f"{m} * 2", f"{rng.randint(1, 9)}.e2"])


def format_expr():
    a = rng.randint(1, 9)
    return rng.choice([f"0 * (0 - {a})", f"(0 - {a}) * 0", f"{a} / 3", f"10 ^ {rng.randint(14, 17)}",
                       f"1 / {rng.choice([8, 16, 1024])}", f"{a}{a}{a}{a}{a}{a}{a} * {a}{a}{a}{a}{a}{a}{a}",
                       f"0 - {a} + {a}", f"2 ^ 0.5", f"{a} - {a}.0000000001"])


def vars_script(undefined):
    names = rng.sample(["x", "y", "rate", "total", "n_2", "_tmp", "width", "height"], 3)
    lines = [f"{names[0]} = {num()}", f"{names[1]} = {names[0]} * {rng.randint(2, 9)}",
             f"{names[0]} + {names[1]}", f"{names[2]} = ({names[0]} + {names[1]}) / 2", names[2],
             f"{names[1]} = {names[1]} + 1", f"pi * {names[0]}"]
    lines = lines[: rng.randint(3, len(lines))]
    if undefined:
        lines.insert(rng.randint(1, len(lines)), f"{rng.choice(['z', 'missing', 'q1'])} + {names[0]}")
    return lines


ERRORS = [
    "1 / (3 - 3)", "5 % 0", "2 +", "(1 + 2", "1 + 2)", "foo(3)", "min()", "sqrt(1, 2)", "pi = 3",
    "3 $ 4", "sqrt(0 - 4)", "fact(2.5)", "gcd(1.5, 2)", "pow(0, 0 - 1)", "x = ", "= 4", "1 2",
    "10 ^ 400", "fact(200)", "max(1, 2,)",
]


def write(name, lines):
    with open(os.path.join(HERE, "cases", name + ".calc"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return name


def main():
    os.makedirs(os.path.join(HERE, "cases"), exist_ok=True)
    names = []
    for i in range(60):
        names.append(write(f"arith_{i:03}", [arith() for _ in range(rng.randint(1, 4))]))
    for i in range(30):
        names.append(write(f"mod_{i:03}", [mod_expr() for _ in range(rng.randint(1, 3))]))
    for i in range(30):
        names.append(write(f"unary_{i:03}", [unary_expr() for _ in range(rng.randint(1, 3))]))
    for i in range(25):
        names.append(write(f"power_{i:03}", [power_expr() for _ in range(rng.randint(1, 3))]))
    for i in range(45):
        names.append(write(f"func_{i:03}", [rng.choice(FUNCS)() for _ in range(rng.randint(1, 3))]))
    for i in range(25):
        names.append(write(f"number_{i:03}", [number_literal() for _ in range(rng.randint(1, 3))]))
    for i in range(20):
        names.append(write(f"format_{i:03}", [format_expr() for _ in range(rng.randint(1, 3))]))
    for i in range(40):
        names.append(write(f"vars_{i:03}", vars_script(undefined=i % 5 == 4)))
    for i, e in enumerate(ERRORS):
        names.append(write(f"error_{i:03}", ["1 + 1", e, "2 * 3"]))
    for i in range(10):
        lines = ["# a comment", "", f"{num()} + {num()}  # trailing comment", "   ", f"v = {num()}", "v * 2"]
        names.append(write(f"comment_{i:03}", lines[: rng.randint(3, len(lines))]))
    with open(os.path.join(HERE, "tests.txt"), "w") as f:
        f.write("\n".join(names) + "\n")


if __name__ == "__main__":
    main()
