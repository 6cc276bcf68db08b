#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Measure how faithfully schemadoc reproduces shipped parameter tables.

usage: python3 tests/fidelity.py SCHEMADOC_BINARY CORPUS_DIR [options]

CORPUS_DIR is the folder holding the charts (…/corpus/charts) or its parent
(…/corpus).  For every chart whose README.md / VALUES.md holds a generated
parameter table (helm-docs `| Key | Type | Default | Description |` or Bitnami
readme-generator `| Name | Description | Value |`), the shipped rows are
extracted and compared with the rows of

    SCHEMADOC_BINARY CHART_DIR --format json

which must print a JSON object with an array `rows`; each row has `key`
(dotted path exactly as printed) and `default_text` (the default cell as the
chart's generator prints it, inside the backticks, or null for none).

Comparison is by key.  A row matches when the key exists on both sides and
the defaults are equal after normalisation (whitespace trimmed, one pair of
surrounding backticks removed when the cell is a single code span, `\\|`
read as `|`).  Printed: per chart and overall `figure: fidelity CHART m/n (p%)`,
the misses, the number of matched rows out of order, and `N passed, N failed`
(a chart passes at or above --threshold percent).  Exit 0 only if every chart
passes.  Expected rows are also written to tests/fidelity-rows/<chart>.tsv.

Stdlib only.
"""

import argparse
import json
import os
import re
import subprocess
import sys

HELMDOCS_HEADER = re.compile(r"^\|\s*Key\s*\|\s*Type\s*\|\s*Default\s*\|\s*Description\s*\|\s*$")
BITNAMI_HEADER = re.compile(r"^\|\s*Name\s*\|\s*Description\s*\|\s*Value\s*\|\s*$")
SEPARATOR = re.compile(r"^\|(\s*:?-+:?\s*\|)+\s*$")
HELMTOOL_PROP = re.compile(r"^#### \*\*(.+?)\*\* ~ `(.*)`\s*$")

DOC_FILES = ("README.md", "VALUES.md")


# ---------------------------------------------------------------- extraction

def split_cells(line):
    """'| a | b | c |' -> ['a', 'b', 'c'] (split on ' | ', the separator both
    generators write; a bare '|' or '\\|' inside a cell does not split)."""
    s = line.rstrip("\n").rstrip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    # pad so that an empty first/last cell still yields a separator
    parts = (" " + s + " ").split(" | ")
    return [p.strip() for p in parts]


def strip_code(text):
    """Remove one pair of surrounding backticks when the text is one code span."""
    t = text.strip()
    if len(t) >= 2 and t[0] == "`" and t[-1] == "`" and "`" not in t[1:-1]:
        return t[1:-1]
    return t


def norm_key(k):
    return strip_code(k or "").strip()


def norm_default(d):
    """Normalised default text, or None for an empty cell."""
    if d is None:
        return None
    t = d.strip()
    if t == "":
        return None
    t = strip_code(t)
    return t.replace("\\|", "|")


def parse_helmdocs_row(cells):
    # Key | Type | Default | Description ; extra ' | ' are assumed to belong to
    # the default when it starts with a backtick, else to the description.
    if len(cells) < 4:
        cells = cells + [""] * (4 - len(cells))
    key, typ = cells[0], cells[1]
    rest = cells[2:]
    if len(rest) == 2:
        return key, typ, rest[0]
    if rest and rest[0].startswith("`"):
        for j in range(len(rest) - 1):
            cand = " | ".join(rest[: j + 1])
            if cand.endswith("`") and (j > 0 or len(cand) > 1):
                return key, typ, cand
    return key, typ, rest[0]


def parse_bitnami_row(cells):
    # Name | Description | Value ; the value is the last cell.
    if len(cells) < 3:
        cells = cells + [""] * (3 - len(cells))
    return cells[0], "", cells[-1]


def extract_tables(path, template_lines=frozenset()):
    """Return (generator, rows, n_handwritten) from the markdown tables of a
    file.  rows: list of dicts key/type/default (default = raw cell text).
    Rows that occur verbatim in the chart's README.md.gotmpl were written by
    hand, not generated, and are left out (argo-cd has five)."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except OSError:
        return None, [], 0
    handwritten = 0
    rows = []
    gen = None
    i = 0
    while i < len(lines):
        line = lines[i].rstrip("\r")
        kind = None
        if HELMDOCS_HEADER.match(line):
            kind = "helm-docs"
        elif BITNAMI_HEADER.match(line):
            kind = "bitnami"
        if kind is None:
            i += 1
            continue
        gen = gen or kind
        i += 1
        if i < len(lines) and SEPARATOR.match(lines[i].rstrip("\r")):
            i += 1
        while i < len(lines) and lines[i].lstrip().startswith("|"):
            if lines[i].rstrip("\r") in template_lines:
                handwritten += 1
                i += 1
                continue
            cells = split_cells(lines[i].rstrip("\r"))
            if kind == "helm-docs":
                key, typ, default = parse_helmdocs_row(cells)
            else:
                key, typ, default = parse_bitnami_row(cells)
            rows.append({"key": norm_key(key), "type": typ.strip(),
                         "default": default.strip(), "line": i + 1})
            i += 1
    return gen, rows, handwritten


def extract_helmtool(path):
    """cert-manager's helm-tool output: '#### **key** ~ `type`' followed by an
    optional '> Default value:' yaml block.  Defaults are the yaml text."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except OSError:
        return []
    rows = []
    for i, line in enumerate(lines):
        m = HELMTOOL_PROP.match(line)
        if not m:
            continue
        default = ""
        j = i + 1
        if j < len(lines) and lines[j].startswith("> Default value:"):
            j += 1
            if j < len(lines) and lines[j].startswith("> ```"):
                j += 1
                body = []
                while j < len(lines) and not lines[j].startswith("> ```"):
                    body.append(lines[j][2:] if lines[j].startswith("> ") else lines[j][1:])
                    j += 1
                default = "\n".join(body)
        rows.append({"key": m.group(1), "type": m.group(2), "default": default, "line": i + 1})
    return rows


def find_charts(corpus, with_helmtool):
    root = corpus
    if os.path.isdir(os.path.join(corpus, "charts")) and not os.path.isfile(os.path.join(corpus, "Chart.yaml")):
        root = os.path.join(corpus, "charts")
    charts = []
    for name in sorted(os.listdir(root)):
        d = os.path.join(root, name)
        if not os.path.isfile(os.path.join(d, "Chart.yaml")):
            continue
        tmpl = set()
        try:
            with open(os.path.join(d, "README.md.gotmpl"), encoding="utf-8") as f:
                tmpl = {l for l in f.read().split("\n") if l.startswith("|")}
        except OSError:
            pass
        for doc in DOC_FILES:
            p = os.path.join(d, doc)
            gen, rows, hand = extract_tables(p, tmpl if doc == "README.md" else frozenset())
            if rows:
                charts.append({"name": name, "dir": d, "doc": doc, "generator": gen, "rows": rows,
                               "handwritten": hand})
                break
        else:
            p = os.path.join(d, "README.template.md")
            if with_helmtool and os.path.isfile(p):
                rows = extract_helmtool(p)
                if rows:
                    charts.append({"name": name, "dir": d, "doc": "README.template.md",
                                   "generator": "helm-tool", "rows": rows})
    return charts


def tsv_escape(s):
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def write_tsv(rows_dir, chart):
    os.makedirs(rows_dir, exist_ok=True)
    path = os.path.join(rows_dir, chart["name"] + ".tsv")
    with open(path, "w", encoding="utf-8") as f:
        f.write("# %s rows from %s (generator: %s); columns: key, type, default as printed "
                "(backticks kept; \\t \\n \\\\ escaped)\n" % (chart["name"], chart["doc"], chart["generator"]))
        for r in chart["rows"]:
            f.write("%s\t%s\t%s\n" % (tsv_escape(r["key"]), tsv_escape(r["type"]), tsv_escape(r["default"])))
    return path


# ---------------------------------------------------------------- running

def run_schemadoc(binary, chart_dir, timeout):
    """Return (rows, error)."""
    if not os.path.exists(binary):
        return None, "binary not found: %s" % binary
    try:
        p = subprocess.run([binary, chart_dir, "--format", "json", "--descriptions", "comments"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=timeout)
    except OSError as e:
        return None, "cannot run %s: %s" % (binary, e)
    except subprocess.TimeoutExpired:
        return None, "timed out after %ss" % timeout
    out = p.stdout.decode("utf-8", "replace")
    if p.returncode != 0:
        err = p.stderr.decode("utf-8", "replace").strip().splitlines()
        return None, "exit status %d%s" % (p.returncode, (": " + err[-1][:200]) if err else "")
    try:
        doc = json.loads(out)
    except ValueError as e:
        return None, "output is not JSON (%s)" % e
    rows = doc.get("rows") if isinstance(doc, dict) else None
    if not isinstance(rows, list):
        return None, "JSON has no array 'rows'"
    clean = []
    for r in rows:
        if not isinstance(r, dict) or not isinstance(r.get("key"), str):
            return None, "a row lacks a string 'key'"
        d = r.get("default_text")
        if d is not None and not isinstance(d, str):
            d = json.dumps(d)
        clean.append({"key": norm_key(r["key"]), "default": d})
    return clean, None


def lis_length(seq):
    import bisect
    tails = []
    for x in seq:
        k = bisect.bisect_left(tails, x)
        if k == len(tails):
            tails.append(x)
        else:
            tails[k] = x
    return len(tails)


def compare(expected, actual):
    exp = {}
    dup_exp = []
    for idx, r in enumerate(expected):
        if r["key"] in exp:
            dup_exp.append(r["key"])
            continue
        exp[r["key"]] = (idx, r)
    act = {}
    dup_act = []
    order = []
    for r in actual:
        if r["key"] in act:
            dup_act.append(r["key"])
            continue
        act[r["key"]] = r
        order.append(r["key"])
    matched, different, missing, extra = [], [], [], []
    for key, (idx, r) in exp.items():
        if key not in act:
            missing.append(r)
            continue
        want = norm_default(r["default"])
        got = norm_default(act[key]["default"])
        if want == got:
            matched.append(key)
        else:
            different.append((r, act[key]["default"]))
    for key in order:
        if key not in exp:
            extra.append(key)
    seq = [exp[k][0] for k in order if k in exp]
    out_of_order = len(seq) - lis_length(seq)
    return {"matched": matched, "different": different, "missing": missing, "extra": extra,
            "out_of_order": out_of_order, "dup_expected": dup_exp, "dup_actual": dup_act,
            "total": len(exp)}


def pct(a, b):
    return 100.0 * a / b if b else 0.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("binary")
    ap.add_argument("corpus")
    ap.add_argument("--threshold", type=float, default=100.0, help="percent a chart must reach (default 100)")
    ap.add_argument("--all", action="store_true", help="list every miss")
    ap.add_argument("--limit", type=int, default=20, help="misses listed per kind and chart (default 20)")
    ap.add_argument("--chart", action="append", help="only this chart (repeatable)")
    ap.add_argument("--helm-tool", action="store_true",
                    help="also score cert-manager's helm-tool README.template.md (defaults are YAML text)")
    ap.add_argument("--rows-dir", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "fidelity-rows"),
                    help="where to write <chart>.tsv (default tests/fidelity-rows)")
    ap.add_argument("--no-tsv", action="store_true", help="do not write the .tsv files")
    ap.add_argument("--extract-only", action="store_true", help="only extract and write the .tsv files")
    ap.add_argument("--timeout", type=float, default=120)
    args = ap.parse_args()

    charts = find_charts(args.corpus, args.helm_tool)
    if args.chart:
        charts = [c for c in charts if c["name"] in args.chart]
    if not charts:
        print("no chart with a generated parameter table under %s" % args.corpus)
        print("0 passed, 0 failed")
        return 1

    for c in charts:
        if not args.no_tsv:
            write_tsv(args.rows_dir, c)
    if args.extract_only:
        for c in charts:
            print("%-22s %-10s %-18s %5d rows%s" % (c["name"], c["generator"], c["doc"], len(c["rows"]),
                  " (%d hand-written left out)" % c["handwritten"] if c.get("handwritten") else ""))
        return 0

    limit = None if args.all else args.limit
    passed = failed = 0
    tot_m = tot_n = 0
    for c in charts:
        name = c["name"]
        rows, err = run_schemadoc(args.binary, c["dir"], args.timeout)
        n = len({r["key"] for r in c["rows"]})
        tot_n += n
        print("== %s (%s, %s%s)" % (name, c["generator"], c["doc"],
                                    ", %d hand-written rows from the .gotmpl left out" % c["handwritten"]
                                    if c.get("handwritten") else ""))
        if err is not None:
            print("  no comparison: %s" % err)
            print("figure: fidelity %s 0/%d (0.0%%)" % (name, n))
            failed += 1
            continue
        res = compare(c["rows"], rows)
        m = len(res["matched"])
        tot_m += m
        print("  expected %d, schemadoc %d; matched %d, different default %d, missing %d, extra %d, "
              "out of order %d" % (n, len(rows), m, len(res["different"]), len(res["missing"]),
                                   len(res["extra"]), res["out_of_order"]))
        if res["dup_expected"]:
            print("  note: %d duplicate keys in the shipped table (first kept): %s"
                  % (len(res["dup_expected"]), ", ".join(res["dup_expected"][:5])))
        if res["dup_actual"]:
            print("  note: schemadoc printed %d duplicate keys: %s"
                  % (len(res["dup_actual"]), ", ".join(res["dup_actual"][:5])))

        def show(title, items, fmt):
            if not items:
                return
            print("  %s:" % title)
            for it in items[:limit] if limit is not None else items:
                print("    " + fmt(it))
            if limit is not None and len(items) > limit:
                print("    ... %d more (--all)" % (len(items) - limit))

        show("different default (key: expected | schemadoc)", res["different"],
             lambda t: "%s: %s | %s" % (t[0]["key"], t[0]["default"] or "(none)",
                                        "(none)" if t[1] is None else t[1]))
        show("missing (line in %s: key default)" % c["doc"], res["missing"],
             lambda r: "%d: %s %s" % (r["line"], r["key"], r["default"]))
        show("extra", res["extra"], lambda k: k)
        p = pct(m, n)
        print("figure: fidelity %s %d/%d (%.1f%%)" % (name, m, n, p))
        if p >= args.threshold and n > 0:
            passed += 1
        else:
            failed += 1
    print("figure: fidelity overall %d/%d (%.1f%%)" % (tot_m, tot_n, pct(tot_m, tot_n)))
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
