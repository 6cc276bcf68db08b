#!/usr/bin/env python3
"""tests/render/readme_tables.py SHIPPED.md OURS.md - compare the parameter
tables of a chart's shipped README (written by helm-docs or Bitnami's
readme-generator) with schemadoc's --format md output, cell by cell
(surrounding spaces ignored: the tools pad columns). Prints one figure line;
exits 1 if a row whose key both list differs."""
import re
import sys


def rows(path):
    out = []
    for line in open(path, encoding="utf-8"):
        if not line.startswith("|") or re.match(r"^\|\s*:?-", line):
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        if cells and cells[0] not in ("Name", "Key", "Repository"):
            out.append(tuple(cells))
    return out


theirs, ours = rows(sys.argv[1]), rows(sys.argv[2])
by_key = {}
for r in theirs:   # a README may list a key twice (a hand-written table too)
    by_key.setdefault(r[0], set()).add(r)
common = [r for r in ours if r[0] in by_key]
same = [r for r in common if r in by_key[r[0]]]
print(f"figure: md table {sys.argv[1]}: {len(same)}/{len(common)} rows identical "
      f"({len(theirs)} in the README, {len(ours)} in ours)")
for r in common:
    if r not in by_key[r[0]]:
        print("  README:", sorted(by_key[r[0]])[0])
        print("  ours:  ", r)
        break
sys.exit(0 if len(same) == len(common) else 1)
