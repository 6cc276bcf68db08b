#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Executable check of docs/annotations.md section 2 (Bitnami readme-generator rows).

usage: python3 tests/bitnami_oracle.py SCHEMADOC_BINARY CHART_DIR [--tsv]

Rebuilds the README rows (key, value cell) from the `## @param` lines of
values.yaml and the values tree printed by `SCHEMADOC_BINARY CHART_DIR
--format doc`.  A reference model for the C implementation, not a product:
it uses schemadoc's YAML 1.1 scalar kinds where readme-generator uses YAML
1.2 core (differs for yes/no/on/off, 017, 1_000).  Prints {"rows": [...]}.
"""

import json
import re
import subprocess
import sys

PARAM = re.compile(r"^\s*##\s*@param\s*([^\s]+)\s*(\[.*?\])?\s*(.*)$")
SECTION = re.compile(r"^\s*##\s*@section\s*(.*)$")
SKIP = re.compile(r"^\s*##\s*@skip\s*(.*)$")
EXTRA = re.compile(r"^\s*##\s*@extra\s*([^\s]+)\s*(\[.*?\])?\s*(.*)$")

UNDEFINED = object()


def plain(n):
    k = n["kind"]
    if k == "map":
        return {e["key"]: plain(e["value"]) for e in n["entries"]}
    if k == "list":
        return [plain(i["value"]) for i in n["items"]]
    if k == "null":
        return None
    return n.get("value")


def is_leaf(n):
    """dot-object leaf: scalar, empty map/list; plus readme-generator's plain string arrays."""
    if n["kind"] == "map":
        return not n["entries"]
    if n["kind"] == "list":
        return not n["items"] or all(i["value"]["kind"] == "string" for i in n["items"])
    return True


def lookup(node, path):
    """Find the node for a dotted/bracketed path; keys may contain dots."""
    if path == "":
        return node
    if node["kind"] == "map":
        for e in node["entries"]:
            k = e["key"]
            if path == k:
                return e["value"]
            if path.startswith(k + ".") or path.startswith(k + "["):
                rest = path[len(k):]
                rest = rest[1:] if rest.startswith(".") else rest
                r = lookup(e["value"], rest)
                if r is not None:
                    return r
        return None
    if node["kind"] == "list":
        m = re.match(r"^\[(\d+)\]\.?(.*)$", path)
        if m and int(m.group(1)) < len(node["items"]):
            return lookup(node["items"][int(m.group(1))]["value"], m.group(2))
    return None


def js_number(x):
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int):
        return str(x)
    if x != x:
        return "NaN"
    if x in (float("inf"), float("-inf")):
        return "Infinity" if x > 0 else "-Infinity"
    if x == int(x) and abs(x) < 1e21:
        return str(int(x))
    r = repr(x)
    if "e" in r:
        mant, exp = r.split("e")
        r = "%se%s%d" % (mant, "-" if exp.startswith("-") else "+", abs(int(exp)))
    return r


def js_json(v):
    if v is None:
        return "null"
    if isinstance(v, bool) or isinstance(v, (int, float)):
        return js_number(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ",".join(js_json(x) for x in v) + "]"
    ints = sorted((k for k in v if re.fullmatch(r"0|[1-9][0-9]*", k) and int(k) < 2**32 - 1), key=int)
    rest = [k for k in v if k not in ints]
    return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + js_json(v[k]) for k in ints + rest) + "}"


def cell(value):
    if value is UNDEFINED:
        return "undefined"
    if value == "":
        return '""'
    if value is None:
        return "nil"
    if isinstance(value, (dict, list)):
        return js_json(value)
    if isinstance(value, (bool, int, float)):
        return js_number(value)
    return str(value)


def main():
    binary, chart = sys.argv[1], sys.argv[2]
    doc = json.loads(subprocess.run([binary, chart, "--format", "doc"], stdout=subprocess.PIPE,
                                    check=True).stdout)
    v = [x for x in doc if x["file"].endswith("/values.yaml")][0]
    root = v["documents"][0]["root"]
    with open(v["file"], encoding="utf-8") as f:
        lines = f.read().split("\n")
    rows = []
    section = None
    for line in lines:
        m = PARAM.match(line)
        if m:
            name = m.group(1)
            mods = [x.strip() for x in (m.group(2) or "[]")[1:-1].split(",") if x.strip()]
            node = lookup(root, name)
            value = plain(node) if node is not None and is_leaf(node) else UNDEFINED
            if value is None:
                value = "nil"
            null_last = (mods.index("nullable") + 1 if "nullable" in mods else 0) == len(mods)
            for mod in mods:
                if mod in ("array", "object", "string"):
                    if not null_last:
                        value = {"array": "[]", "object": "{}", "string": '""'}[mod]
                elif mod == "nullable":
                    if value is UNDEFINED:
                        value = "nil"
                elif re.match(r"default:", mod):
                    value = re.sub(r"default:\s*", "", mod, count=1)
                else:
                    raise SystemExit("Unknown modifier: %s" % mod)
            if section is not None:
                rows.append({"key": name, "default_text": cell(value), "section": section})
        m = SECTION.match(line)
        if m:
            section = m.group(1)
        m = EXTRA.match(line)
        if m and section is not None:
            rows.append({"key": m.group(1), "default_text": None, "section": section})
    if "--tsv" in sys.argv:
        for r in rows:
            print("%s\t\t%s" % (r["key"], r["default_text"]))
    else:
        print(json.dumps({"rows": rows}))


if __name__ == "__main__":
    main()
