#!/usr/bin/env python3
"""Writes versions/ID.patch for each seeded fault of faults/faults.json: the fault as a
faulty version of the original source (SIR style) rather than a -DCALC_FAULT switch.
The `#if CALC_FAULT_ID` block keeps its preprocessor lines; the code the correct build
compiles is replaced by the faulty branch (`#if !CALC_FAULT_ID` blocks: deleted), so the
diff is the fault itself. Run after changing src/: versions/make_versions.py"""
import difflib
import json
import pathlib
import re

HERE = pathlib.Path(__file__).resolve().parent.parent


def seeded(lines, macro):
    out, i = [], 0
    while i < len(lines):
        m = re.match(r"#if (!?)" + macro + r"\s*$", lines[i])
        if not m:
            out.append(lines[i])
            i += 1
            continue
        end = next(j for j in range(i, len(lines)) if lines[j].startswith("#endif"))
        block = lines[i + 1:end]
        alt = next((j for j, l in enumerate(block) if l.startswith("#else")), None)
        out.append(lines[i])
        # `#if !FAULT`: the faulty version lacks the block (nothing kept inside);
        # `#if FAULT faulty #else correct`: the correct branch becomes the faulty code.
        if not m.group(1):
            out.extend(block[:alt + 1])
            out.extend(block[:alt])
        out.append(lines[end])
        i = end + 1
    return out


def main():
    for fault in json.loads((HERE / "faults/faults.json").read_text()):
        macro = "CALC_FAULT_" + fault["id"].upper()
        patch = []
        for path in sorted((HERE / "src").glob("*.c")):
            old = path.read_text().splitlines(keepends=True)
            new = seeded(old, macro)
            rel = path.relative_to(HERE).as_posix()
            patch += difflib.unified_diff(old, new, "a/" + rel, "b/" + rel, n=3)
        (HERE / "versions" / (fault["id"] + ".patch")).write_text("".join(patch))


main()
