#!/usr/bin/env bash
# Checks that every relative link in the user documentation (README.md, docs/, the READMEs
# of benchmarks/ and python/) names a file that exists and, for a Markdown target with a
# #fragment, a heading of that file (GitHub's heading anchors). Moving a section then
# fails here instead of leaving a dead link.
# Usage: scripts/check-doc-links.sh   (exit 1 and one line per dead link when any)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
python3 - README.md docs/*.md benchmarks/README.md python/README.md <<'PY'
import os, re, sys

def strip_code(lines):
    """The lines outside fenced code blocks, with their numbers."""
    fence = None
    for number, line in enumerate(lines, 1):
        m = re.match(r'^\s*(```+|~~~+)', line)
        if m:
            if fence is None:
                fence = m.group(1)[0] * 3
            elif line.strip().startswith(fence):
                fence = None
            continue
        if fence is None:
            yield number, line

def slug(heading):
    # GitHub's anchors: link text kept, lower case, punctuation dropped, spaces to '-'.
    text = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', heading).strip().lower()
    text = re.sub(r'[^\w\- ]', '', text)
    return text.replace(' ', '-')

anchors_cache = {}
def anchors(path):
    if path not in anchors_cache:
        seen, result = {}, set()
        with open(path, encoding='utf-8') as f:
            for _, line in strip_code(f.read().split('\n')):
                m = re.match(r'^#{1,6}\s+(.*?)\s*#*\s*$', line)
                if not m:
                    continue
                base = slug(m.group(1))
                n = seen.get(base, 0)
                seen[base] = n + 1
                result.add(base if n == 0 else f'{base}-{n}')
        anchors_cache[path] = result
    return anchors_cache[path]

link = re.compile(r'!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)')
dead = 0
for source in sys.argv[1:]:
    with open(source, encoding='utf-8') as f:
        lines = f.read().split('\n')
    for number, line in strip_code(lines):
        line = re.sub(r'`[^`]*`', '', line)  # code spans are not links
        for target in link.findall(line):
            if re.match(r'^[a-z][a-z0-9+.-]*:', target):
                continue  # http:, https:, mailto:
            path, _, fragment = target.partition('#')
            resolved = os.path.normpath(os.path.join(os.path.dirname(source), path)) if path else source
            if not os.path.exists(resolved):
                print(f'{source}:{number}: {target}: no such file')
                dead += 1
            elif fragment and resolved.endswith('.md') and fragment not in anchors(resolved):
                print(f'{source}:{number}: {target}: no heading #{fragment} in {resolved}')
                dead += 1
sys.exit(1 if dead else 0)
PY
