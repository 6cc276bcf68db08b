#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/diff_edit.py - copy a JSON Schema document with N random edits
(seeded, so every run makes the same edits) for the diff benchmark and
tests: a property removed or added, a type, default, enum, maximum or
description changed. Prints one line per edit.

usage: diff_edit.py IN.json OUT.json N"""
import json
import random
import sys

doc = json.load(open(sys.argv[1]))
n = int(sys.argv[3])
rnd = random.Random(14)
defs = doc.get("definitions") or doc.get("$defs") or {}
names = sorted(defs)
done = 0
while done < n:
    name = rnd.choice(names)
    props = defs[name].get("properties")
    if not props:
        continue
    key = rnd.choice(sorted(props))
    p = props[key]
    kind = rnd.choice(["remove", "add", "type", "default", "enum", "maximum", "description"])
    if kind == "remove":
        del props[key]
    elif kind == "add":
        props[key + "Extra"] = {"type": "string", "description": "added by the benchmark"}
    elif kind == "type":
        if "type" not in p:
            continue
        p["type"] = "integer" if p["type"] != "integer" else "string"
    elif kind == "default":
        p["default"] = "bench"
    elif kind == "enum":
        p["enum"] = ["a", "b"]
    elif kind == "maximum":
        p["maximum"] = 10
    else:
        p["description"] = "changed by the benchmark"
    print(kind, name, key)
    done += 1
json.dump(doc, open(sys.argv[2], "w"))
