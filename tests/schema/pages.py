#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/schema/pages.py - what a chart's pages say with one schema and with
another: every key, type and description page A shows, page B shows too.

Usage: pages.py A B   (both `schemadoc CHART --format json`, or both md,
or both html; the kind is taken from the name's extension)
  json: every entry's path, its types and its description;
  md:   every row of the values tables: its key, its type cell, its
        description (contained in B's cell: B may say more);
  html: every entry (its id) and every description's HTML.
Prints what B lost and "lost: K keys, T types, D descriptions" last; exit 1
when anything is lost, 2 when A shows no key at all (nothing was compared)."""
import html
import json
import re
import sys


def model(path):
    with open(path) as f:
        d = json.load(f)
    out = {}

    def walk(n):
        p = n.get("path")
        if p:
            t = n.get("type")
            out[p] = (set(t) if isinstance(t, list) else ({t} if t else set()),
                      (n.get("description") or "").strip())
        for c in n.get("properties") or []:
            walk(c)
    walk(d["root"])
    return out


def md(path):
    out = {}
    for line in open(path, encoding="utf-8"):
        if not line.startswith("| ") or line.startswith("| Key ") or line.startswith("|---"):
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        if len(cells) >= 4:
            out[cells[0]] = ({cells[1]} if cells[1] else set(), cells[3])
    return out


def page(path):
    text = open(path, encoding="utf-8").read()
    out = {}
    for m in re.finditer(r'<article class="entry" id="([^"]*)"', text):
        out[html.unescape(m.group(1))] = (set(), "")
    return out, text


a_path, b_path = sys.argv[1], sys.argv[2]
keys = types = descs = 0
if a_path.endswith(".html"):
    (a, _), (b, btext) = page(a_path), page(b_path)
    atext = open(a_path, encoding="utf-8").read()
    for p in sorted(set(a) - set(b)):
        keys += 1
        print(f"lost key: {p}")
    for m in re.finditer(r'<div class="desc">(.*?)</div>', atext, re.S):
        if m.group(1) not in btext:
            descs += 1
            print(f"lost description: {m.group(1)[:80]!r}")
else:
    a, b = (md(a_path), md(b_path)) if a_path.endswith(".md") else (model(a_path), model(b_path))
    for p, (ta, da) in sorted(a.items()):
        if p not in b:
            keys += 1
            print(f"lost key: {p}")
            continue
        tb, db = b[p]
        for t in sorted(ta - tb):
            if t == "integer" and "number" in tb:
                continue
            if any(t in x for x in tb):   # md: "string" in "string, integer"
                continue
            types += 1
            print(f"lost type: {p}: {t} (now {sorted(tb)})")
        if da and da != db and da not in db:
            descs += 1
            print(f"lost description: {p}: {da[:80]!r} (now {db[:80]!r})")
print(f"lost: {keys} keys, {types} types, {descs} descriptions (of {len(a)} keys)")
sys.exit(2 if not a else 1 if keys or types or descs else 0)
