#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/render/readme_tables.py SHIPPED.md OURS.md MIN - compare the
parameter tables of a chart's shipped README (written by helm-docs or
Bitnami's readme-generator) with schemadoc's --format md output, cell by
cell (surrounding spaces ignored: the tools pad columns). Only values tables
count (header `| Key | Type | Default | Description |` or `| Name |
Description | Value |`), so maintainer or hand-written tables cannot make up
the numbers. Prints one figure line; exits 1 if a row whose key both list
differs, or if fewer than MIN rows were compared (a coverage floor: an empty
or partial comparison never passes)."""
import re
import sys

HEADERS = (("Key", "Type", "Default", "Description"), ("Name", "Description", "Value"))


def cells_of(line):
    return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]


def rows(path):
    out, in_values = [], False
    for line in open(path, encoding="utf-8"):
        if not line.startswith("|"):
            in_values = False
            continue
        if re.match(r"^\|\s*:?-", line):
            continue
        cells = cells_of(line)
        if tuple(cells) in HEADERS:
            in_values = True
        elif in_values and cells:
            out.append(tuple(cells))
    return out


theirs, ours = rows(sys.argv[1]), rows(sys.argv[2])
floor = int(sys.argv[3])
by_key = {}
for r in theirs:   # a README may list a key twice (a hand-written table too)
    by_key.setdefault(r[0], set()).add(r)
common = [r for r in ours if r[0] in by_key]
same = [r for r in common if r in by_key[r[0]]]
print(f"figure: md table {sys.argv[1]}: {len(same)}/{len(common)} rows identical "
      f"({len(theirs)} in the README, {len(ours)} in ours, floor {floor})")
for r in common:
    if r not in by_key[r[0]]:
        print("  README:", sorted(by_key[r[0]])[0])
        print("  ours:  ", r)
        break
if len(common) < floor:
    print(f"  only {len(common)} rows compared, fewer than the floor of {floor}")
sys.exit(0 if len(same) == len(common) and len(common) >= floor else 1)
