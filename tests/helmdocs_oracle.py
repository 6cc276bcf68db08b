#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Executable check of docs/annotations.md section 1 (helm-docs rows).

usage: python3 tests/helmdocs_oracle.py SCHEMADOC_BINARY CHART_DIR [--tsv]

Rebuilds helm-docs' rows (key, type, default) from the values tree that
`SCHEMADOC_BINARY CHART_DIR --format doc` prints, plus the raw values.yaml
lines for comments, following the rules of docs/annotations.md.  It is a
reference model for the C implementation, not a product: it approximates
yaml.v3 HeadComment as "the contiguous comment lines right above the key"
and uses schemadoc's YAML 1.1 scalar kinds (so `yes` would be a bool here,
a string in helm-docs).  Prints JSON {"rows": [...]} like the real tool
should, so it can be fed to tests/fidelity.py through a wrapper.
"""

import json
import re
import subprocess
import sys

VALUES_DESC = re.compile(r"^\s*#\s*(.*)\s+--\s*(.*)$")
RAW = re.compile(r"^\s*#\s+@raw")
CONT = re.compile(r"^\s*#(\s?)(.*)$")
DEFAULT = re.compile(r"^\s*# @default -- (.*)$")
TYPE = re.compile(r"^\((.*?)\)\s*(.*)$")
NOTATION = re.compile(r"^\s*#\s+@notationType\s+--\s+(.*)$")
SECTION = re.compile(r"^\s*# @section -- (.*)$")
EXTRA = re.compile(r"^\s*# @extra -- (.*)$")
EXTRA_CONT = re.compile(r"^\s*# ?(.*)$")


def go_search(rx, s):
    """Go FindStringSubmatch anchored at ^: Python re.match with same groups."""
    return rx.match(s)


def parse_comment(lines):
    """pkg/helm/comment.go ParseComment -> (key, desc dict)."""
    last = 0
    for i, v in enumerate(lines):
        if v.startswith("# --"):
            last = i
    if last > 0:
        return parse_comment(lines[last:])
    key = ""
    c = {"desc": "", "default": "", "section": "", "type": "", "notation": ""}
    start = 0
    for i, l in enumerate(lines):
        m = VALUES_DESC.match(l)
        if not m:
            continue
        key, c["desc"], start = m.group(1), m.group(2), i
        break
    m = TYPE.match(c["desc"])
    if m and m.group(1) != "":
        c["type"], c["desc"] = m.group(1), m.group(2)
    raw = False
    for l in lines[start + 1:]:
        if not raw and RAW.match(l):
            raw = True
            continue
        m = DEFAULT.match(l)
        if m:
            c["default"] = m.group(1)
            continue
        m = NOTATION.match(l)
        if m:
            c["notation"] = m.group(1)
            continue
        m = SECTION.match(l)
        if m:
            c["section"] = m.group(1)
            continue
        m = CONT.match(l)
        if m:
            c["desc"] += ("\n" if raw else " ") + m.group(2)
    return key, c


def old_style(lines):
    """chart_info.go parseChartValuesFileComments -> {key: desc}."""
    out = {}
    found = False
    block = []
    extra = ""
    for line in lines:
        if extra:
            if EXTRA_CONT.match(line):
                continue
            extra = ""
        else:
            m = EXTRA.match(line)
            if m and m.group(1):
                extra = m.group(1)
                continue
        if not found:
            m = VALUES_DESC.match(line)
            if not m or m.group(1) == "":
                continue
            found = True
            block = [line]
            continue
        if DEFAULT.match(line) or SECTION.match(line) or CONT.match(line):
            block.append(line)
            continue
        k, d = parse_comment(block)
        if k:
            out[k] = d
        block = []
        found = False
    return out


def head_comment(lines, line_no):
    """Contiguous comment lines right above 1-based line_no, indentation removed."""
    out = []
    i = line_no - 2
    while i >= 0 and lines[i].strip().startswith("#"):
        out.append(lines[i].strip())
        i -= 1
    return list(reversed(out))


def auto_desc(lines, line_no):
    hc = head_comment(lines, line_no) if line_no else []
    text = "\n".join(hc)
    empty = {"desc": "", "default": "", "section": "", "type": "", "notation": ""}
    if "@ignore" in text:
        return None
    if "# --" not in text:
        return empty
    k, c = parse_comment(hc)
    return empty if k else c


def go_float(x):
    if x != x or x in (float("inf"), float("-inf")):
        raise ValueError("json: unsupported value")
    if x == int(x) and abs(x) < 1e21:
        return str(int(x))
    r = repr(x)
    if "e" in r:
        mant, exp = r.split("e")
        sign = exp[0] if exp[0] in "+-" else "+"
        digits = exp.lstrip("+-").lstrip("0") or "0"
        if len(digits) < 2 and sign == "+":
            digits = digits.rjust(2, "0")
        r = "%se%s%s" % (mant, sign if sign == "-" else "+", digits)
    return r


def go_json(v):
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return go_float(v)
    if isinstance(v, str):
        s = json.dumps(v, ensure_ascii=False)
        return s.replace("\\b", "\\u0008").replace("\\f", "\\u000c") \
                .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    if isinstance(v, list):
        return "[" + ",".join(go_json(x) for x in v) + "]"
    items = sorted(v.items(), key=lambda kv: kv[0].encode("utf-8"))
    return "{" + ",".join(go_json(k) + ":" + go_json(x) for k, x in items) + "}"


def plain(n):
    k = n["kind"]
    if k == "map":
        d = {}
        for e in n["entries"]:
            d[e["key"]] = plain(e["value"])
        return d
    if k == "list":
        return [plain(i["value"]) for i in n["items"]]
    if k == "null":
        return None
    return n.get("value")


TYPENAMES = {"boolean": "bool", "integer": "int", "number": "float", "float": "float",
             "string": "string", "list": "list", "map": "object"}


def key_seg(prefix, k):
    ek = '"%s"' % k if ("." in k or " " in k) else k
    return "%s.%s" % (prefix, ek) if prefix else ek


def row(key, node, value, desc, auto):
    d = desc or {}
    a = auto or {}
    if node is not None and node["kind"] == "null":
        t = d.get("type") or a.get("type") or "string"
        default = d.get("default") or a.get("default") or "`nil`"
        return {"key": key, "type": t, "default_text": default}
    t = d.get("type") or a.get("type") or a.get("notation") or TYPENAMES.get(node["kind"] if node else "", "")
    default = d.get("default") or a.get("default")
    if not default:
        if a.get("notation"):
            default = value if isinstance(value, str) else ""
        else:
            default = "`%s`" % go_json(value)
    return {"key": key, "type": t, "default_text": default}


def walk(prefix, line_no, node, descs, lines, leaf, out):
    auto = auto_desc(lines, line_no) if line_no else {"desc": "", "default": "", "section": "",
                                                       "type": "", "notation": ""}
    desc = descs.get(prefix)
    has = desc is not None
    described = has or bool(auto["desc"])
    k = node["kind"]
    if k in ("map", "list"):
        children = node["entries"] if k == "map" else node["items"]
        if not children:
            if prefix == "":
                return
            if leaf or described:
                out.append(row(prefix, node, {} if k == "map" else [], desc, auto))
            return
        if prefix != "" and (has or (auto["desc"] and not auto["notation"])):
            out.append(row(prefix, node, plain(node), desc, auto))
            leaf = False
        elif prefix != "" and auto["desc"] and auto["notation"]:
            out.append(row(prefix, node, "", desc, auto))
            leaf = False
        if k == "map":
            for e in node["entries"]:
                if auto_desc(lines, e["line"]) is None:
                    continue  # @ignore
                walk(key_seg(prefix, e["key"]), e["line"], e["value"], descs, lines, leaf, out)
        else:
            for i, it in enumerate(node["items"]):
                ln = it["value"].get("line")
                if ln == line_no or (ln and lines[ln - 1].lstrip()[:1] not in ("-", "")):
                    ln = 0  # flow-style item ([a, b]): yaml.v3 gives it no HeadComment
                if ln and auto_desc(lines, ln) is None:
                    continue
                walk("%s[%d]" % (prefix, i), ln, it["value"], descs, lines, leaf, out)
        return
    if not (leaf or described):
        return
    out.append(row(prefix, node, plain(node), desc, auto))


def main():
    binary, chart = sys.argv[1], sys.argv[2]
    doc = json.loads(subprocess.run([binary, chart, "--format", "doc"], stdout=subprocess.PIPE,
                                    check=True).stdout)
    v = [x for x in doc if x["file"].endswith("/values.yaml")][0]
    with open(v["file"], encoding="utf-8") as f:
        lines = f.read().replace("\r\n", "\n").split("\n")
    descs = old_style(lines)
    out = []
    walk("", 0, v["documents"][0]["root"], descs, lines, True, out)
    out.sort(key=lambda r: r["key"].encode("utf-8"))
    if "--tsv" in sys.argv:
        for r in out:
            print("%s\t%s\t%s" % (r["key"], r["type"], r["default_text"]))
    else:
        print(json.dumps({"rows": out}))


if __name__ == "__main__":
    main()
