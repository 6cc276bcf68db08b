#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
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
   The type spoil needs a schema that types keys: the chart's own, or the
   one made from values.yaml for a chart without one (every chart has a
   typed key). The enum spoil needs a schema that lists values: a made
   schema lists none, and such a chart is listed ("no enum").
3. A copy of each corpus chart's own values.yaml gives no finding.
4. Every key a corpus chart's values.yaml calls deprecated (Bitnami
   `## @param key DEPRECATED ...`, in charts/ and upgrades/), set in a values
   file, gives exactly one `deprecated` warning at that key.

Usage: corpus_ci.py SCHEMADOC CORPUS TMPDIR
Prints one line per chart and per spoil, "figure:" lines; exit 1 on any
failure."""
import json
import os
import re
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
spoils = {"typo": 0, "wrong type": 0, "bad enum value": 0, "deprecated": 0}


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


def key_mark(file, path, of_value=False):
    """(line, column) of the key at `path` in a YAML file (or of its value), 1-based."""
    node, mark = yaml.compose(open(file)), None
    for k in path:
        if not isinstance(node, yaml.MappingNode):
            return None
        hit = [(kn, vn) for kn, vn in node.value if kn.value == k]
        if not hit:
            return None
        mark, node = hit[0][0].start_mark, hit[0][1]
    if of_value and mark:
        mark = node.start_mark
    return (mark.line + 1, mark.column + 1) if mark else None


def text_findings(chart, spoiled):
    """The exit status and the file:line:col findings of the text output."""
    r = subprocess.run([SD, "validate", chart, spoiled] + MAPS, capture_output=True, text=True)
    return r.returncode, [m.groups() for m in re.finditer(r"^(.+?):(\d+):(\d+): (warning|error): (.*)$",
                                                         r.stderr, re.M)]


def one_finding(chart, spoiled, kind, keywords, path, extra=""):
    st, res, err = validate(chart, [spoiled])
    if res is None:
        return fail("%s: %s spoil: no JSON (%s)" % (os.path.basename(chart), kind, err.strip()[:200]))
    got = findings(res)
    keyword = keywords[0]
    ok = (len(got) == 1 and got[0][1]["keyword"] in keywords and got[0][1]["path"] == path and
          extra in got[0][1]["message"])
    if not ok:
        return fail("%s: %s spoil at %s: expected one %s finding%s, got %s" % (
            os.path.basename(chart), kind, path, keyword, " (" + extra + ")" if extra else "",
            [(s, f["keyword"], f["path"], f["message"][:80]) for s, f in got][:5]))
    if ok:
        # the JSON says what the text says: the one finding, at the key for
        # a key's finding (the key itself, not its value; at the value for a
        # value's), with the same exit status
        f = got[0][1]
        at = key_mark(spoiled, path.split("/")[1:], of_value=kind in ("wrong type", "bad enum value"))
        tst, text = text_findings(chart, spoiled)
        sev = "error" if got[0][0] == "error" else "warning"
        if (f.get("line"), f.get("column")) != at:
            ok = fail("%s: %s spoil at %s: JSON puts it at %s:%s, the key is at %s" % (
                os.path.basename(chart), kind, path, f.get("line"), f.get("column"), at))
        elif len(text) != 1 or (int(text[0][1]), int(text[0][2])) != at or text[0][3] != sev or tst != st:
            ok = fail("%s: %s spoil at %s: the text output (status %d) differs from the JSON (status %d): %s" % (
                os.path.basename(chart), kind, path, tst, st, text[:3]))
        elif len(res) != 1 or res[0]["valid"] != (sev == "warning"):
            ok = fail("%s: %s spoil: the file's status in JSON is %s" % (os.path.basename(chart), kind, res))
    if ok:
        spoils[kind] += 1
        print("spoiled %s: %s at %s: %s" % (os.path.basename(chart), kind, path, got[0][1]["message"][:100]))


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
        # the text output agrees: no warning or error line of any kind
        r = subprocess.run([SD, "validate", chart] + ci + ["--each"] + MAPS, capture_output=True, text=True)
        said = [l for l in r.stderr.splitlines() if re.search(r": (warning|error): ", l)]
        if r.returncode != 0 or said:
            fail("%s: text output: status %d, %s" % (name, r.returncode, said[:3]))

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

        # a wrong type and a bad enum value: against the chart's schema, or
        # the one made from values.yaml and its comments (it types keys, but
        # lists no values)
        own = any(os.path.exists(os.path.join(chart, s)) for s in ("values.schema.json", "values.schema.yaml"))
        # keys the schema defines, at a plain path
        nodes = [n for n in model_nodes(chart) if plain_path(n.get("path")) and n.get("defined_at")]
        typed = next((n for n in nodes if n.get("type") in (["string"], ["integer"], ["boolean"])
                      and "enum" not in n and not n.get("properties")), None)
        enum = next((n for n in nodes if n.get("enum") and all(isinstance(e, str) for e in n["enum"])
                     and n.get("type") == ["string"]), None)
        for kind, node in (("wrong type", typed), ("bad enum value", enum)):
            if not node and kind == "bad enum value" and not own:
                print("no enum: %s: the schema made from values.yaml lists no values" % name)
                continue
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
    own_copies()
    deprecated_params()
    print("figure: spoils with exactly their finding: %s" % ", ".join("%d %s" % (n, k) for k, n in spoils.items()))
    # every chart with ci/ had its typo and its wrong type; some schema has an enum
    if not charts or spoils["typo"] < len(charts) or spoils["wrong type"] < len(charts) \
            or not spoils["bad enum value"] or not spoils["deprecated"]:
        fail("too few spoils checked: %s for %d charts" % (spoils, len(charts)))
    sys.exit(1 if bad else 0)


def own_copies():
    """A copy of each chart's own values.yaml (as `helm show values` writes
    it, the usual start of a user's file): no finding at all."""
    n = files = 0
    for name in sorted(os.listdir(CHARTS)):
        vf = os.path.join(CHARTS, name, "values.yaml")
        if name == "_remote" or not os.path.isfile(vf):
            continue
        copy = os.path.join(TMP, "copy-" + name + ".yaml")
        shutil.copyfile(vf, copy)
        st, res, err = validate(os.path.join(CHARTS, name), [copy])
        got = findings(res) if res is not None else [("input", {"keyword": "no JSON", "path": "", "message": err})]
        files += 1
        n += len(got)
        for sev, f in got[:5]:
            fail("%s: its own values.yaml, copied: %s %s at %s: %s" % (
                name, sev, f["keyword"], f["path"], f["message"][:120]))
        if st != 0:
            fail("%s: its own values.yaml, copied: exit status %d" % (name, st))
    print("figure: each chart's own values.yaml, copied: %d charts, %d findings" % (files, n))


def deprecated_params():
    """Each `## @param KEY DEPRECATED ...` of a corpus chart, set: one warning."""
    dirs = [os.path.join(CHARTS, d) for d in sorted(os.listdir(CHARTS))]
    ups = os.path.join(CORPUS, "upgrades")
    if os.path.isdir(ups):
        dirs += [os.path.join(ups, d) for d in sorted(os.listdir(ups))]
    spoiled = os.path.join(TMP, "deprecated.yaml")
    for chart in dirs:
        vf = os.path.join(chart, "values.yaml")
        if not os.path.isfile(vf):
            continue
        defaults = yaml.safe_load(open(vf)) or {}
        for line in open(vf, encoding="utf-8"):
            m = re.match(r"\s*## @param (\S+) DEPRECATED", line)
            if not m:
                continue
            path = tuple(m.group(1).split("."))
            d = defaults
            for k in path:
                d = d.get(k) if isinstance(d, dict) else None
            # a value a user would write: another than the default (a value
            # equal to it sets nothing, and is not reported), of its kind
            value = ({"create": True} if isinstance(d, dict) else ["set-by-test"] if isinstance(d, list)
                     else (not d) if isinstance(d, bool) else d + 1 if isinstance(d, (int, float))
                     else "set-by-test")
            v = {}
            put(v, path, value)
            yaml.safe_dump(v, open(spoiled, "w"))
            one_finding(chart, spoiled, "deprecated", ("deprecated",), "/" + "/".join(path), "is deprecated")


if __name__ == "__main__":
    main()
