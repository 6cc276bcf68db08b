#!/usr/bin/env python3
"""tests/corpus_ci.py - every corpus chart against its own CI values.

For each chart of CORPUS/charts with a ci/ folder:

1. `schemadoc validate CHART ci/*.yaml --each --output json` gives 0
   errors and 0 warnings: the chart's CI installs those files, so every
   finding would be a false alarm (issue 34).
2. A spoiled copy of one CI file gives exactly the expected finding, and
   nothing else:
   - a typo'd key (two letters of a key the file sets, swapped): one
     unknownKey warning at that key, naming the real key ("did you mean");
   - a wrong type (a key the schema types as one scalar type, given
     another): one `type` error at that key;
   - a bad enum value (a key the schema lists values for, given another):
     one `enum` error at that key.
   The type and enum spoils need a schema: a chart without one is listed
   ("no schema: types and enums are not checked").

Usage: corpus_ci.py SCHEMADOC CORPUS TMPDIR
Prints one line per chart and per spoil, "figure:" lines; exit 1 on any
failure."""
import json
import os
import shutil
import subprocess
import sys

import yaml

SD, CORPUS, TMP = sys.argv[1:4]
CHARTS = os.path.join(CORPUS, "charts")
MAPS = ["--map", "https://raw.githubusercontent.com/yannh/kubernetes-json-schema/master/master-standalone-strict/="
        + os.path.join(CORPUS, "kubernetes") + "/",
        "--map", "https://raw.githubusercontent.com/=" + os.path.join(CHARTS, "_remote", "raw.githubusercontent.com") + "/",
        "--offline", "--cache-dir", os.path.join(TMP, "cache")]
bad = 0


def fail(msg):
    global bad
    bad += 1
    print("FAIL: " + msg)


def validate(chart, files):
    r = subprocess.run([SD, "validate", chart] + files + ["--each", "--output", "json"] + MAPS,
                       capture_output=True, text=True)
    try:
        return r.returncode, json.loads(r.stdout), r.stderr
    except ValueError:
        return r.returncode, None, r.stderr


def findings(results):
    out = []
    for res in results:
        out += [("error", e) for e in res["errors"]] + [("warning", w) for w in res["warnings"]]
        out += [("input", {"message": m, "path": "", "keyword": "input"}) for m in res.get("inputErrors", [])]
    return out


def leaves(node, path=()):
    """(path tuple, value) of every scalar under maps (not inside lists)."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from leaves(v, path + (str(k),))
    elif not isinstance(node, list):
        yield path, node


def model_nodes(chart):
    r = subprocess.run([SD, chart, "--format", "json"] + MAPS, capture_output=True, text=True)
    if r.returncode != 0:
        return []
    m = json.loads(r.stdout)
    out = []

    def walk(n, depth=0):
        if depth > 40 or not isinstance(n, dict):
            return
        out.append(n)
        for c in n.get("properties", []):
            walk(c, depth + 1)
    walk(m.get("root", {}))
    return out


def put(tree, path, value):
    for k in path[:-1]:
        if not isinstance(tree.get(k), dict):
            tree[k] = {}
        tree = tree[k]
    tree[path[-1]] = value


def plain_path(p):
    return p and "[" not in p and "*" not in p and '"' not in p


def swap(name):
    """Two neighbouring letters of `name` swapped, in its middle."""
    i = len(name) // 2
    while i + 1 < len(name) and name[i] == name[i + 1]:
        i += 1
    return name[:i - 1] + name[i] + name[i - 1] + name[i + 1:] if 1 <= i < len(name) else None


def one_finding(chart, spoiled, kind, keywords, path, extra=""):
    st, res, err = validate(chart, [spoiled])
    if res is None:
        return fail("%s: %s spoil: no JSON (%s)" % (os.path.basename(chart), kind, err.strip()[:200]))
    got = findings(res)
    keyword = keywords[0]
    ok = (len(got) == 1 and got[0][1]["keyword"] in keywords and got[0][1]["path"] == path and
          extra in got[0][1]["message"])
    if ok:
        print("spoiled %s: %s at %s: %s" % (os.path.basename(chart), kind, path, got[0][1]["message"][:100]))
    else:
        fail("%s: %s spoil at %s: expected one %s finding%s, got %s" % (
            os.path.basename(chart), kind, path, keyword, " (" + extra + ")" if extra else "",
            [(s, f["keyword"], f["path"], f["message"][:80]) for s, f in got][:5]))


def main():
    charts = sorted(d for d in os.listdir(CHARTS) if os.path.isdir(os.path.join(CHARTS, d, "ci")))
    total_files = total_findings = 0
    for name in charts:
        chart = os.path.join(CHARTS, name)
        ci = sorted(os.path.join(chart, "ci", f) for f in os.listdir(os.path.join(chart, "ci"))
                    if f.endswith((".yaml", ".yml")))
        st, res, err = validate(chart, ci)
        if res is None:
            fail("%s: validate gave no JSON: %s" % (name, err.strip()[:300]))
            continue
        got = findings(res)
        total_files += len(ci)
        total_findings += len(got)
        print("figure: ci %s: %d files, %d errors, %d warnings" % (
            name, len(ci), sum(1 for s, _ in got if s != "warning"), sum(1 for s, _ in got if s == "warning")))
        if len(res) != len(ci):
            fail("%s: %d results for %d files" % (name, len(res), len(ci)))
        for s, f in got:
            fail("%s: %s %s at %s: %s" % (name, s, f.get("keyword"), f.get("path"), f.get("message", "")[:160]))
        if st != 0:
            fail("%s: exit status %d" % (name, st))

        # the spoils: on the first CI file (in name order) that sets a key
        # of a map the defaults spell out; its name, two letters swapped
        defaults = yaml.safe_load(open(os.path.join(chart, "values.yaml"))) or {}
        spoiled = os.path.join(TMP, "spoiled-" + name + ".yaml")
        target = base = None
        for f in ci:
            values = yaml.safe_load(open(f)) or {}
            for path, _ in leaves(values) if isinstance(values, dict) else ():
                if len(path) < 2 or len(path[-1]) < 5:
                    continue
                parent = defaults
                for k in path[:-1]:
                    parent = parent.get(k) if isinstance(parent, dict) else None
                if not isinstance(parent, dict) or path[-1] not in parent or len(parent) < 3:
                    continue
                t = swap(path[-1])
                if t and t not in parent:
                    target, base = (path, t), f
                    break
            if target:
                break
        if not target:
            fail("%s: no CI file sets a key to spoil" % name)
        else:
            path, t = target
            copy = json.loads(json.dumps(values))
            node = copy
            for k in path[:-1]:
                node = node[k]
            node[t] = node.pop(path[-1])
            yaml.safe_dump(copy, open(spoiled, "w"))
            # (a map the schema closes: the validator's own refusal, with the same question)
            one_finding(chart, spoiled, "typo", ("unknownKey", "additionalProperties"),
                        "/" + "/".join(path[:-1] + (t,)), "did you mean `")
            print("  (in %s; the real key: %s)" % (os.path.basename(base), ".".join(path)))

        # a wrong type and a bad enum value need a schema
        schema = any(os.path.exists(os.path.join(chart, s)) for s in ("values.schema.json", "values.schema.yaml"))
        if not schema:
            print("no schema: %s: types and enums are not checked" % name)
            continue
        # keys the schema itself defines (not only values.yaml's), at a plain path
        nodes = [n for n in model_nodes(chart) if plain_path(n.get("path")) and n.get("defined_at")]
        typed = next((n for n in nodes if n.get("type") in (["string"], ["integer"], ["boolean"])
                      and "enum" not in n and not n.get("properties")), None)
        enum = next((n for n in nodes if n.get("enum") and all(isinstance(e, str) for e in n["enum"])
                     and n.get("type") == ["string"]), None)
        for kind, node in (("wrong type", typed), ("bad enum value", enum)):
            if not node:
                fail("%s: the schema has no key for the %s spoil" % (name, kind))
                continue
            path = tuple(node["path"].split("."))
            wrong = ({"string": 12345, "integer": "not-a-number", "boolean": "maybe"}[node["type"][0]]
                     if kind == "wrong type" else "not-an-allowed-value")
            copy = json.loads(json.dumps(values))
            put(copy, path, wrong)
            yaml.safe_dump(copy, open(spoiled, "w"))
            one_finding(chart, spoiled, kind, ("type",) if kind == "wrong type" else ("enum",), "/" + "/".join(path))
    print("figure: ci files of %d charts: %d files, %d findings" % (len(charts), total_files, total_findings))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
