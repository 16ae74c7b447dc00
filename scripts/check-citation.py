#!/usr/bin/python3
"""Checks CITATION.cff against the rules of the Citation File Format 1.2.0 that matter to
its readers (GitHub's "Cite this repository", Zenodo): YAML that parses, the required keys
(cff-version 1.2.0, message, title, authors), each author a person (family-names or
given-names) or an entity (name), the optional keys used here of the right type, and the
version equal to CMakeLists.txt's project version. No network and no schema download:
python3-yaml only.
Usage: scripts/check-citation.py [CITATION.cff] (exit 1 and one line per problem)."""
import os
import re
import sys

import yaml

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "CITATION.cff")
problems = []
try:
    with open(path, encoding="utf-8") as f:
        cff = yaml.safe_load(f)
except (OSError, yaml.YAMLError) as e:
    print(f"{path}: {e}".replace("\n", " "))
    sys.exit(1)
if not isinstance(cff, dict):
    print(f"{path}: not a YAML mapping")
    sys.exit(1)

if cff.get("cff-version") != "1.2.0":
    problems.append("cff-version must be the string 1.2.0")
for key in ("message", "title"):
    if not isinstance(cff.get(key), str) or not cff[key].strip():
        problems.append(f"{key} is required and must be a non-empty string")
authors = cff.get("authors")
if not isinstance(authors, list) or not authors:
    problems.append("authors is required and must be a non-empty list")
else:
    for i, a in enumerate(authors, 1):
        if not isinstance(a, dict) or not (a.get("name") or a.get("family-names") or a.get("given-names")):
            problems.append(f"author {i} needs name (an entity) or family-names/given-names (a person)")
if cff.get("type", "software") not in ("software", "dataset"):
    problems.append("type must be software or dataset")
for key in ("version", "license", "abstract"):
    if key in cff and not isinstance(cff[key], str):
        problems.append(f"{key} must be a string (quote it)")
if "keywords" in cff and not (isinstance(cff["keywords"], list) and all(isinstance(k, str) for k in cff["keywords"])):
    problems.append("keywords must be a list of strings")
known = {"abstract", "authors", "cff-version", "commit", "contact", "date-released", "doi", "identifiers",
         "keywords", "license", "license-url", "message", "preferred-citation", "references", "repository",
         "repository-artifact", "repository-code", "title", "type", "url", "version"}
for key in cff:
    if key not in known:
        problems.append(f"{key} is not a key of CFF 1.2.0")

cmake = os.path.join(root, "CMakeLists.txt")
if path == os.path.join(root, "CITATION.cff") and os.path.exists(cmake):
    m = re.search(r"project\(dlfl VERSION ([0-9.]+)", open(cmake, encoding="utf-8").read())
    if m and cff.get("version") != m.group(1):
        problems.append(f"version {cff.get('version')} is not the project's version {m.group(1)}")

for p in problems:
    print(f"{path}: {p}")
sys.exit(1 if problems else 0)
