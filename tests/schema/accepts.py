#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/schema/accepts.py - a made schema accepts its own chart (issue 39,
section 2), as a property over every chart there is to try.

Usage: accepts.py SCHEMADOC CORPUS TMPDIR [FIXTURES]

A chart without a values.schema.json gets a schema made from its values.yaml
and comments, and every command uses it; so that schema must accept the
chart's own values.yaml and every values file its CI installs (ci/*.yaml),
always. Checked on:
  - every corpus chart (CORPUS/charts/*), its schema taken away;
  - every fixture chart in FIXTURES (tests/schema/accepts/*: shapes seen on
    real charts: a list whose items differ in type or keys, `""` defaults);
  - every values file of both schema generators' test data
    (CORPUS/schema-gen), as a chart of its own, with the settings the tool's
    own tests give it (tests/schema/conformance.py) and beside the files
    its `$ref`s name; the few files the tools' tests expect to be refused
    are listed with the reason, and not run.
Each is `schemadoc validate CHART [ci/*.yaml --each]`: any `error:` line
fails. A `@schema` annotation that the chart's own values break is left out
of the made schema with a warning: that fails a corpus or fixture chart
(whose schema comes from its values and comments alone, or whose
annotations are right), and is counted for the tools' test data, whose
annotations contradict their values on purpose to test a keyword. Prints a
`figure:` line (charts, files checked, errors, annotations left out) and
"N passed, N failed" last (one check per chart)."""
import glob
import os
import shutil
import subprocess
import sys

SD, CORPUS, TMP = sys.argv[1], sys.argv[2], sys.argv[3]
FIXTURES = sys.argv[4] if len(sys.argv) > 4 else None
MAPS = ["--map", "https://raw.githubusercontent.com/yannh/kubernetes-json-schema/master/master-standalone-strict/="
        + os.path.join(CORPUS, "kubernetes") + "/",
        "--map", "https://raw.githubusercontent.com/=" + os.path.join(CORPUS, "charts/_remote/raw.githubusercontent.com/")]
passed = failed = charts = files = errors = left_out = 0
LEFT_OUT = "the schema made for the chart leaves it out"

# Files of the tools' test data that the tools themselves refuse (their tests
# expect an error), with the reason; not a values file to accept.
REFUSED = {
    "losisin/testdata/fail-type.yaml": "`type:foobar` is no JSON type: the tool refuses it",
    "losisin/testdata/helm-docs/values-fail.yaml": "an `@schema` inside a helm-docs comment: the tool refuses it",
    "losisin/testdata/bundle/invalid-schema.yaml": "its `$ref` names a file that is not JSON: the tool refuses it",
    "losisin/testdata/lint/values-bad.yaml": "`type: bogustype`: the tool's lint refuses it",
    "losisin/testdata/anchors.yaml": "`app: &app` holds `*app`, a document that contains itself: refused",
}
# Files that are no values file: the tool's settings, expected outputs.
NOT_VALUES = ("Chart.yaml", ".schema.yaml", "test_annotate_expected.yaml")
SETTINGS_DIRS = ("losisin/testdata/lint/", "losisin/testdata/main/")
# The settings the tools' tests give a values file (conformance.py's)
HVSJ_SETTINGS = {
    "losisin/testdata/full.yaml": "schemaRoot:\n  additionalProperties: true\n",
    "losisin/testdata/k8sRef.yaml": "k8sSchemaVersion: v1.33.1\n",
    "losisin/testdata/noAdditionalProperties.yaml": "noAdditionalProperties: true\n",
    "losisin/testdata/helm-docs/values.yaml": "useHelmDocs: true\n",
}


def check(name, ok, why=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL: {name}: {why}")


def validate(name, chart, may_leave_out=False):
    """Validate CHART's values.yaml and each ci/ file against its made schema."""
    global charts, files, errors, left_out
    ci = sorted(glob.glob(os.path.join(chart, "ci", "*.yaml")) + glob.glob(os.path.join(chart, "ci", "*.yml")))
    args = [SD, "validate", chart] + ci + (["--each"] if ci else []) + MAPS + ["--lenient", "--offline",
                                                                              "--cache-dir", os.path.join(TMP, "cache")]
    p = subprocess.run(args, capture_output=True, text=True, errors="replace")
    errs = [l for l in p.stderr.split("\n") if ": error:" in l]
    made = "the chart has no values.schema.json" in p.stderr
    out = [l for l in p.stderr.split("\n") if LEFT_OUT in l]
    charts += 1
    files += 1 + len(ci)
    errors += len(errs)
    if may_leave_out:
        left_out += len(out)
    else:
        errs += out
    check(name, p.returncode == 0 and not errs and made,
          ("no schema was made; " if not made else "") + f"exit {p.returncode}, {len(errs)} errors: "
          + " | ".join(errs[:3] or p.stderr.strip().split("\n")[-2:]))


def chart_copy(src, name):
    d = os.path.join(TMP, name)
    shutil.copytree(src, d, symlinks=True)
    for f in ("values.schema.json", "values.schema.yaml"):
        if os.path.exists(os.path.join(d, f)):
            os.remove(os.path.join(d, f))
    return d


for c in sorted(glob.glob(os.path.join(CORPUS, "charts", "*", "Chart.yaml"))):
    src = os.path.dirname(c)
    validate("corpus " + os.path.basename(src), chart_copy(src, "corpus-" + os.path.basename(src)))

if FIXTURES:
    for c in sorted(glob.glob(os.path.join(FIXTURES, "*", "Chart.yaml"))):
        src = os.path.dirname(c)
        validate("fixture " + os.path.basename(src), chart_copy(src, "fixture-" + os.path.basename(src)))

SG = os.path.join(CORPUS, "schema-gen")
skipped = 0
for path in sorted(glob.glob(os.path.join(SG, "**", "*.yaml"), recursive=True)):
    rel = os.path.relpath(path, SG)
    base = os.path.basename(rel)
    if base in NOT_VALUES or base.startswith(".") or rel.startswith(SETTINGS_DIRS) and base != "values.yaml":
        continue
    if rel in REFUSED:
        print(f"skip: schema-gen {rel}: {REFUSED[rel]}")
        skipped += 1
        continue
    # the case as a chart: the file's folder (its $ref targets), the file as values.yaml
    d = os.path.join(TMP, "sg-" + rel.replace("/", "_"))
    shutil.copytree(os.path.dirname(path), d, symlinks=True)
    for f in os.listdir(d):
        if f in ("values.schema.json", "values.schema.yaml", "values.yaml", "Chart.yaml", "charts"):
            p = os.path.join(d, f)
            shutil.rmtree(p) if os.path.isdir(p) else os.remove(p)
    shutil.copy(path, os.path.join(d, "values.yaml"))
    with open(os.path.join(d, "Chart.yaml"), "w") as f:
        f.write("apiVersion: v2\nname: case\nversion: 1.0.0\n")
    if rel.startswith("losisin/"):
        with open(os.path.join(d, ".schema.yaml"), "w") as f:
            f.write("values:\n  - values.yaml\n" + HVSJ_SETTINGS.get(rel, ""))
    validate("schema-gen " + rel, d, may_leave_out=True)

print(f"figure: made schema accepts its own chart: {charts} charts, {files} values files checked, "
      f"{errors} errors; {left_out} annotations of the tools' test data that their own values break left out "
      f"({skipped} schema-gen files the tools refuse, listed)")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
