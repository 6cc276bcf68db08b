#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/schema/conformance.py - `schemadoc schema` against the two schema
generators' own test data (../shared/corpus/schema-gen, issue 35).

Usage: conformance.py SCHEMADOC CORPUS/schema-gen TMPDIR

Every case of each tool, with the options the tool's own tests give it
(helm-values-schema-json: testdata/doc.go's `go generate` lines, written here
as the `.schema.yaml` settings schemadoc reads; helm-schema: tests/run.sh,
default flags), is generated twice:
  - `schemadoc schema ...`: equal to the expected schema as JSON values;
  - `schemadoc schema ... --like TOOL`: equal byte for byte to the file the
    tool wrote (a file the project wrote by hand, which its own test compares
    with `jq --sort-keys`, is compared as JSON values and said so).
A case schemadoc cannot match is listed with the reason, as `skip:` lines;
it counts neither as passed nor as failed. Prints a `count:` line per tool
and "N passed, N failed" last (one check per case and mode)."""
import json
import os
import shutil
import subprocess
import sys

SD, CORPUS, TMP = sys.argv[1], sys.argv[2], sys.argv[3]
passed = failed = 0
counts = {}

# helm-values-schema-json: (case, values files, expected, .schema.yaml settings)
L = os.path.join(CORPUS, "losisin", "testdata")
HVSJ = [
    ("basic", ["basic.yaml"], "basic.schema.json", {}),
    ("full", ["full.yaml"], "full.schema.json",
     {"schemaRoot": {"id": "https://example.com/schema", "ref": "schema/product.json",
                     "title": "Helm Values Schema", "description": "Schema for Helm values",
                     "additionalProperties": True}}),
    ("k8sRef", ["k8sRef.yaml"], "k8sRef.schema.json", {"k8sSchemaVersion": "v1.33.1"}),
    ("meta", ["meta.yaml"], "meta.schema.json", {}),
    ("noAdditionalProperties", ["noAdditionalProperties.yaml"], "noAdditionalProperties.schema.json",
     {"noAdditionalProperties": True}),
    ("ref-draft2020", ["ref.yaml"], "ref-draft2020.schema.json", {"draft": 2020}),
    ("ref-draft2020-noadditional", ["ref.yaml"], "ref-draft2020-noadditional.schema.json",
     {"draft": 2020, "noAdditionalProperties": True}),
    ("ref-draft7", ["ref.yaml"], "ref-draft7.schema.json", {"draft": 7}),
    ("root-ref-draft2020-noadditional", ["ref.yaml"], "root-ref-draft2020-noadditional.schema.json",
     {"draft": 2020, "noAdditionalProperties": True, "schemaRoot": {"ref": "schema/product.json"}}),
    ("subschema", ["subschema.yaml"], "subschema.schema.json", {}),
    ("helm-docs", ["helm-docs/values.yaml"], "helm-docs/values.schema.json", {"useHelmDocs": True}),
    ("bundle/simple-disabled", ["bundle/simple.yaml"], "bundle/simple-disabled.schema.json", {"bundle": False}),
]
# helm-values-schema-json's bundle/* cases (testdata/doc.go, --bundle=true):
# the referenced schema files are read from a copy of bundle/ (the values'
# directory); schemaRoot.ref, which the tool takes relative to testdata/, is
# written relative to that copy, as the tool's output names it
B = {"bundle": True}
BW = {"bundle": True, "bundleWithoutID": True}
SUB = {"schemaRoot": {"ref": "simple-subschema.schema.json"}}
HVSJ += [
    ("bundle/fragment-without-id", ["bundle/fragment.yaml"], "bundle/fragment-without-id.schema.json", BW),
    ("bundle/fragment", ["bundle/fragment.yaml"], "bundle/fragment.schema.json", B),
    ("bundle/multiple-values-without-id", ["bundle/multiple-values-1.yaml", "bundle/multiple-values-2.yaml"],
     "bundle/multiple-values-without-id.schema.json", dict(BW, **SUB)),
    ("bundle/multiple-values", ["bundle/multiple-values-1.yaml", "bundle/multiple-values-2.yaml"],
     "bundle/multiple-values.schema.json", dict(B, **SUB)),
    ("bundle/namecollision", ["bundle/namecollision.yaml"], "bundle/namecollision.schema.json", B),
    ("bundle/nested-without-id", ["bundle/nested.yaml"], "bundle/nested-without-id.schema.json", BW),
    ("bundle/nested", ["bundle/nested.yaml"], "bundle/nested.schema.json", B),
    ("bundle/ref-relative-to-id-without-id", ["bundle/ref-relative-to-id.yaml"],
     "bundle/ref-relative-to-id-without-id.schema.json", BW),
    ("bundle/ref-relative-to-id", ["bundle/ref-relative-to-id.yaml"], "bundle/ref-relative-to-id.schema.json", B),
    ("bundle/root-ref-noadditional", ["bundle/root-ref-noadditional.yaml"],
     "bundle/root-ref-noadditional.schema.json",
     dict(B, noAdditionalProperties=True, schemaRoot={"ref": "./root-ref-subschema.schema.json"})),
    ("bundle/simple-absolute-root", ["bundle/simple.yaml"], "bundle/simple-absolute-root.schema.json",
     dict(B, bundleRoot="/")),
    ("bundle/simple-root-ref", ["bundle/simple.yaml"], "bundle/simple-root-ref.schema.json",
     dict(B, schemaRoot={"ref": "./simple-subschema.schema.json"})),
    ("bundle/simple-without-id", ["bundle/simple.yaml"], "bundle/simple-without-id.schema.json", BW),
    ("bundle/simple", ["bundle/simple.yaml"], "bundle/simple.schema.json", B),
    ("bundle/yaml", ["bundle/yaml.yaml"], "bundle/yaml.schema.json", B),
]
HVSJ_UNMATCHED = [
    ("anchors", "values anchors.yaml: `app: &app` holds `*app` (an alias to the map it is in); the loader "
     "refuses a document that contains itself, as Helm's YAML reader does (no schema is made)"),
    ("main/config", "the values file its settings name (`.schema.yaml` of the tool's cmd/ test directory) is "
     "not in the corpus, so its properties cannot be made again; its bundled root (`$ref` into `$defs`, the "
     "`$defs` entry, every other root keyword) is checked by tests/suite-schema.sh"),
]

# helm-schema: (case, values file, expected, hand-written?)
D = os.path.join(CORPUS, "dadav")
HS = [
    ("test_simple", "tests/charts/test_simple.yaml", "tests/charts/test_simple_expected.schema.json", False),
    ("test_helm_defaults", "tests/charts/test_helm_defaults.yaml",
     "tests/charts/test_helm_defaults_expected.schema.json", False),
    ("test_ref", "tests/charts/test_ref.yaml", "tests/charts/test_ref_expected.schema.json", False),
    ("test_ref_properties", "tests/charts/test_ref_properties.yaml",
     "tests/charts/test_ref_properties_expected.schema.json", False),
    ("test_ref_toplevel", "tests/charts/test_ref_toplevel.yaml",
     "tests/charts/test_ref_toplevel_expected.schema.json", True),
    ("test_required_ref", "tests/charts/test_required_ref.yaml",
     "tests/charts/test_required_ref_expected.schema.json", False),
    ("test_repo_example", "examples/values.yaml", "examples/values.schema.json", False),
]
# helm-schema's chart cases (tests/run.sh `helm-schema -c DIR`): a parent
# chart and its dependency charts (file:// repositories), merged into the
# parent's schema; (case, chart, expected, extra flags). The tool's test
# compares them with `jq --sort-keys` (the expected files end in a newline
# the tool does not write), so both modes compare JSON values.
HS_CHARTS = [
    ("import-values/parent", "tests/import-values/parent", "tests/import-values/parent/values.schema.expected.json", []),
    ("import-values/parent-complex", "tests/import-values/parent-complex",
     "tests/import-values/parent-complex/values.schema.expected.json", []),
    ("preexisting-schema/parent (default)", "tests/preexisting-schema/parent",
     "tests/preexisting-schema/parent/values.schema.default-expected.json", []),
    ("preexisting-schema/parent (--keep-existing-dep-schemas)", "tests/preexisting-schema/parent",
     "tests/preexisting-schema/parent/values.schema.expected.json", ["--keep-existing-dep-schemas"]),
]
HS_UNMATCHED = [
    ("annotate mode (test_annotate_*)", "--annotate writes `# @schema` blocks into values.yaml; not a schema"),
]


ok_cases = {}


def check(tool, name, ok, why=""):
    global passed, failed
    c = counts.setdefault(tool, [0, 0])
    case = name.rsplit(" (", 1)[0]
    if ok:
        ok_cases[(tool, case)] = ok_cases.get((tool, case), 0) + 1
        passed += 1
        c[0] += 1
    else:
        failed += 1
        c[1] += 1
        print(f"FAIL: {tool} {name}: {why}")


def run(args, cwd=None):
    p = subprocess.run([SD, "schema"] + args, cwd=cwd, capture_output=True)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def yaml_of(v, ind=0):
    """The settings as YAML (only maps, strings, numbers, booleans)."""
    out = []
    for k, x in v.items():
        if isinstance(x, dict):
            out.append(" " * ind + f"{k}:")
            out.append(yaml_of(x, ind + 2))
        elif isinstance(x, bool):
            out.append(" " * ind + f"{k}: {'true' if x else 'false'}")
        elif isinstance(x, list):
            out.append(" " * ind + f"{k}:")
            out.extend(" " * ind + f"  - {json.dumps(i)}" for i in x)
        else:
            out.append(" " * ind + f"{k}: {json.dumps(x)}")
    return "\n".join(out)


def first_diff(a, b):
    a, b = a.decode("utf-8", "replace").split("\n"), b.decode("utf-8", "replace").split("\n")
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"line {i + 1}: got {x!r}, expected {y!r}"
    return f"{len(a)} lines, expected {len(b)}"


for name, values, expected, settings in HVSJ:
    d = os.path.join(TMP, "hvsj", name.replace("/", "_"))
    os.makedirs(d, exist_ok=True)
    if name.startswith("bundle/"):
        shutil.copytree(os.path.join(L, "bundle"), d, dirs_exist_ok=True)
    names = []
    for v in values:
        shutil.copy(os.path.join(L, v), os.path.join(d, os.path.basename(v)))
        names.append(os.path.basename(v))
    cfg = dict(settings)
    cfg["values"] = names
    with open(os.path.join(d, ".schema.yaml"), "w") as f:
        f.write(yaml_of(cfg) + "\n")
    with open(os.path.join(L, expected), "rb") as f:
        want = f.read()
    st, out, err = run(["--config", os.path.join(d, ".schema.yaml")])
    try:
        same = st == 0 and json.loads(out) == json.loads(want)
    except ValueError as e:
        same = False
        err += str(e)
    check("helm-values-schema-json", name + " (JSON values)", same, err.strip()[:300] or "differs")
    st, out, err = run(["--config", os.path.join(d, ".schema.yaml"), "--like", "helm-values-schema-json"])
    check("helm-values-schema-json", name + " (--like, bytes)", st == 0 and out == want,
          err.strip()[:300] or first_diff(out, want))

for name, values, expected, hand in HS:
    with open(os.path.join(D, expected), "rb") as f:
        want = f.read()
    # helm-schema reads $ref files beside the values file: run on a copy there
    src = os.path.join(D, values)
    st, out, err = run([src, "--dialect", "helm-schema"])
    try:
        same = st == 0 and json.loads(out) == json.loads(want)
    except ValueError as e:
        same = False
        err += str(e)
    check("helm-schema", name + " (JSON values)", same, err.strip()[:300] or "differs")
    st, out, err = run([src, "--like", "helm-schema"])
    if hand:
        try:
            same = st == 0 and json.loads(out) == json.loads(want)
        except ValueError:
            same = False
        print(f"note: helm-schema {name}: the expected file is written by hand (tab indent, its own key "
              f"order); the tool's test compares it with jq --sort-keys, so --like is compared as JSON values")
        check("helm-schema", name + " (--like, as JSON values)", same, err.strip()[:300] or "differs")
    else:
        check("helm-schema", name + " (--like, bytes)", st == 0 and out == want,
              err.strip()[:300] or first_diff(out, want))

for name, chart, expected, flags in HS_CHARTS:
    with open(os.path.join(D, expected), "rb") as f:
        want = json.loads(f.read())
    for mode in (["--dialect", "helm-schema"], ["--like", "helm-schema"]):
        st, out, err = run([os.path.join(D, chart)] + mode + flags)
        try:
            same = st == 0 and json.loads(out) == want
        except ValueError as e:
            same = False
            err += str(e)
        check("helm-schema", name + (" (JSON values)" if mode[0] == "--dialect" else " (--like, as JSON values)"),
              same, err.strip()[:300] or "differs")

for name, why in HVSJ_UNMATCHED:
    print(f"skip: helm-values-schema-json {name}: {why}")
for name, why in HS_UNMATCHED:
    print(f"skip: helm-schema {name}: {why}")
hv = counts.get("helm-values-schema-json", [0, 0])
hs = counts.get("helm-schema", [0, 0])
print(f"count: helm-values-schema-json cases matched {sum(1 for _ in HVSJ) - hv[1] // 1 if False else len(HVSJ)}"
      if False else
      f"count: helm-values-schema-json: {len(HVSJ)} cases run ({hv[0]} of {2 * len(HVSJ)} checks pass), "
      f"{len(HVSJ_UNMATCHED)} not matched (listed)")
print(f"count: helm-schema: {len(HS) + len(HS_CHARTS)} cases run ({hs[0]} of {2 * len(HS + HS_CHARTS)} checks pass), "
      f"{len(HS_UNMATCHED)} not matched (listed)")
# a case is matched when both its checks pass; the cases listed as not
# matched count in the total
hv_ok = sum(1 for n, *_ in HVSJ if ok_cases.get(("helm-values-schema-json", n)) == 2)
hs_ok = sum(1 for n, *_ in HS + HS_CHARTS if ok_cases.get(("helm-schema", n)) == 2)
print(f"figure: schema-gen cases matched: helm-values-schema-json {hv_ok} of {len(HVSJ) + len(HVSJ_UNMATCHED)}, "
      f"helm-schema {hs_ok} of {len(HS) + len(HS_CHARTS) + len(HS_UNMATCHED)}")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
