"""scripts/check-citation.py on broken CITATION.cff files: each problem is reported with
the file named, exit 1; a minimal valid file passes. Usage: citation_checker_test.py CHECKER"""
import os
import subprocess
import sys
import tempfile

checker = sys.argv[1]
cases = {
    "valid": ("cff-version: 1.2.0\nmessage: Cite it.\ntitle: t\nauthors:\n  - name: Someone\n", 0, ""),
    "old version": ("cff-version: 1.1.0\nmessage: m\ntitle: t\nauthors:\n  - name: A\n", 1, "cff-version"),
    "no authors": ("cff-version: 1.2.0\nmessage: m\ntitle: t\n", 1, "authors is required"),
    "nameless author": ("cff-version: 1.2.0\nmessage: m\ntitle: t\nauthors:\n  - email: a@b\n", 1, "author 1 needs"),
    "unknown key": ("cff-version: 1.2.0\nmessage: m\ntitle: t\nauthors:\n  - name: A\nlicence: MIT\n", 1,
                    "licence is not a key"),
    "version a number": ("cff-version: 1.2.0\nmessage: m\ntitle: t\nauthors:\n  - name: A\nversion: 1.0\n", 1,
                         "version must be a string"),
    "not yaml": ("cff-version: [1.2.0\n", 1, "CITATION.cff"),
}
failures = 0
with tempfile.TemporaryDirectory() as tmp:
    for name, (text, status, says) in cases.items():
        path = os.path.join(tmp, "CITATION.cff")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        r = subprocess.run([sys.executable, checker, path], capture_output=True, text=True)
        if r.returncode != status or says not in r.stdout or (status and path not in r.stdout):
            print(f"FAIL {name}: exit {r.returncode}, output {r.stdout!r}")
            failures += 1
sys.exit(1 if failures else 0)
