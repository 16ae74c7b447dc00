#!/usr/bin/python3
"""A real-bug run's kept bugs written into the study's curated lists (scripts/realbugs.sh --record).

  realbugs_record.py list OUT SIDE          the curated list of OUT's kept bugs of SIDE, with the
                                            positions their run ranked them at and its values, on stdout
  realbugs_record.py record OUT SIDE LIST   LIST (atomically) with the entries of OUT's kept bugs of
                                            SIDE replaced (or added) by what this run found; the
                                            others as they are, and the curated keys (bug kinds and
                                            their evidence) of a replaced entry kept

An entry holds what the run found under the ground-truth rule (truth_rule), its whole-file
truth beside it (faulty_whole_file), and the list shape realbugs_report.py describes.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from realbugs_report import (CURATED_KEYS, RULE, checked_entry, evaluation_of, fail, host_of,  # noqa: E402
                             latest_records, positions_of, read_csv, read_jsonl, write_atomically)


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
    executed = read_csv(os.path.join(out, side, "eval-executed.csv"))
    lines = []
    for r in records:
        bug = r["subject"] + "#" + r["fault"]
        if not r.get("kept") or bug not in manifest:
            continue
        entry = {k: manifest[bug][k] for k in LIST_KEYS if k in manifest[bug]}
        entry["files"] = [{k: f[k] for k in FILE_KEYS if k in f} for f in manifest[bug].get("files", [])]
        entry["failing_tests"] = r.get("failing_tests", [])
        entry["faulty"] = r.get("faulty", [])
        entry["truth_rule"] = RULE
        whole = os.path.join(out, side, "spectra", bug + ".whole-file.truth")
        if os.path.exists(whole):
            with open(whole, encoding="utf-8") as f:
                entry["faulty_whole_file"] = [l.strip() for l in f if l.strip()]
        entry["recipe"] = r.get("recipe", "")
        entry["tests"] = r.get("tests", 0)
        if r.get("mbfl"):
            entry["mbfl"] = r["mbfl"]
        if host := host_of(r):
            entry["host"] = host
        entry["positions"] = positions_of(rows, bug)
        entry["evaluation"] = evaluation_of(rows, executed, bug)
        lines.append((bug, json.dumps(entry, sort_keys=True)))
    return "".join(line + "\n" for _, line in sorted(lines))


def record(out, side, list_path):
    """Rewrites LIST (atomically) with the entries of OUT's kept bugs of SIDE replaced or
    added; the other entries stay as they are, byte for byte, in the list's id order."""
    fresh = {json.loads(line)["id"]: line for line in curated_list(out, side).splitlines()}
    entries, replaced = [], 0
    if os.path.exists(list_path):
        with open(list_path, encoding="utf-8") as f:
            text = f.read()
        # Lines as read_jsonl reads them: split at "\n" only (str.splitlines also splits
        # at the separators JSON strings may hold raw).
        for entry, line in zip(read_jsonl(list_path), [l for l in text.split("\n") if l.strip()]):
            bug = checked_entry(list_path, entry)["id"]
            replaced += bug in fresh
            if bug in fresh and any(k in entry for k in CURATED_KEYS):
                kept = json.loads(fresh[bug])
                kept.update({k: entry[k] for k in CURATED_KEYS if k in entry})
                fresh[bug] = json.dumps(kept, sort_keys=True)
            entries.append((bug, fresh.pop(bug, line)))
    added = len(fresh)
    entries = sorted(entries + list(fresh.items()))
    write_atomically(list_path, "".join(line + "\n" for _, line in entries))
    print(f"realbugs_record.py: {list_path}: {replaced} entries replaced and {added} added from {out}/{side}",
          file=sys.stderr)


def main(argv):
    if len(argv) == 4 and argv[1] == "list":
        sys.stdout.write(curated_list(argv[2], argv[3]))
    elif len(argv) == 5 and argv[1] == "record":
        record(argv[2], argv[3], argv[4])
    else:
        fail("usage: list OUT SIDE | record OUT SIDE LIST")


if __name__ == "__main__":
    main(sys.argv)
