#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/gen-scale.py FAMILY N OUT [CORPUS] - write the N-times input of one
synthetic family for the scaling table of `make bench` (tests/bench-scale.sh).
Nothing it writes is committed: inputs are made at run time.

Families (1x is the base; Nx repeats it under renamed keys):
  values  a chart whose values.yaml has helm-docs `# --` comments on every
          key (nested maps, lists, defaults of every type), no schema;
          1x is about 72 KB
  defs    a JSON Schema file of Kubernetes definitions (the first 300 of
          CORPUS/kubernetes/_definitions.json and all they refer to, about
          0.9 MB), copied N times with renamed definitions and $refs
  wide    a chart with one map of 1,563 x N keys and a list of 1,000 x N
          items in values.yaml and a schema giving each key a type (64x is a
          100,000-key object)
OUT is a directory (values, wide) or a file (defs)."""
import json
import os
import sys


def values_block(i):
    """One top-level key of the values family: about 1.1 KB."""
    k = f"component{i}"
    return f"""# -- {k} settings: the service that does part {i} of the work
{k}:
  # -- Enable {k}
  enabled: true
  # -- Number of {k} replicas
  replicaCount: {i % 7 + 1}
  image:
    # -- Image repository for {k}
    repository: registry.example.com/{k}
    # -- Image tag (defaults to the chart's appVersion)
    tag: "v1.{i}.0"
    # -- Pull policy
    pullPolicy: IfNotPresent
  # -- Extra arguments passed to {k}
  args:
    - --port=80{i % 100:02d}
    - --verbose
  service:
    # -- Service type
    type: ClusterIP
    # -- Service port
    port: {8000 + i % 1000}
    # -- Annotations for the {k} service
    annotations: {{}}
  resources:
    # -- CPU and memory limits of {k}
    limits:
      cpu: 500m
      memory: 256Mi
  # -- Node selector for {k} pods
  nodeSelector: {{}}
  # -- Tolerations for {k} pods
  tolerations: []
  # -- A ratio used by {k}
  ratio: 0.{i % 9 + 1}
  # -- (string) An optional name override
  nameOverride:
"""


def gen_values(n, out):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "Chart.yaml"), "w") as f:
        f.write("apiVersion: v2\nname: scale-values\nversion: 1.0.0\ndescription: scaling input\n")
    with open(os.path.join(out, "values.yaml"), "w") as f:
        for i in range(64 * n):
            f.write(values_block(i))


def rename_refs(node, suffix, names):
    if isinstance(node, dict):
        out = {}
        for k, v in node.items():
            if k == "$ref" and isinstance(v, str) and v.startswith("#/definitions/"):
                name = v[len("#/definitions/"):]
                out[k] = "#/definitions/" + name + suffix if name in names else v
            else:
                out[k] = rename_refs(v, suffix, names)
        return out
    if isinstance(node, list):
        return [rename_refs(x, suffix, names) for x in node]
    return node


def refs_of(node, acc):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "$ref" and isinstance(v, str) and v.startswith("#/definitions/"):
                acc.add(v[len("#/definitions/"):])
            else:
                refs_of(v, acc)
    elif isinstance(node, list):
        for x in node:
            refs_of(x, acc)


def gen_defs(n, out, corpus):
    src = json.load(open(os.path.join(corpus, "kubernetes", "_definitions.json")))
    alldefs = src["definitions"]
    # the first 300 definitions and every one they reach: a closed subset
    names, todo = set(), list(alldefs)[:300]
    while todo:
        k = todo.pop()
        if k in names or k not in alldefs:
            continue
        names.add(k)
        acc = set()
        refs_of(alldefs[k], acc)
        todo.extend(acc)
    base = {k: v for k, v in alldefs.items() if k in names}
    defs = {}
    for i in range(n):
        suffix = "" if i == 0 else f".copy{i}"
        for k, v in base.items():
            defs[k + suffix] = rename_refs(v, suffix, names)
    with open(out, "w") as f:
        json.dump({"definitions": defs}, f, separators=(",", ":"))


def gen_wide(n, out):
    os.makedirs(out, exist_ok=True)
    keys = 1563 * n
    with open(os.path.join(out, "Chart.yaml"), "w") as f:
        f.write("apiVersion: v2\nname: scale-wide\nversion: 1.0.0\n")
    with open(os.path.join(out, "values.yaml"), "w") as f:
        f.write("# -- a wide map\nsettings:\n")
        for i in range(keys):
            f.write(f"  key{i}: {i}\n")
        f.write("# -- a long list\nitems:\n")
        for i in range(1000 * n):
            f.write(f"  - name: item{i}\n    weight: {i % 100}\n")
    props = {f"key{i}": {"type": "integer", "minimum": 0} for i in range(keys)}
    schema = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
              "properties": {"settings": {"type": "object", "properties": props},
                             "items": {"type": "array", "items": {
                                 "type": "object", "required": ["name"],
                                 "properties": {"name": {"type": "string"},
                                                "weight": {"type": "integer", "maximum": 100}}}}}}
    with open(os.path.join(out, "values.schema.json"), "w") as f:
        json.dump(schema, f, separators=(",", ":"))


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    fam, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    corpus = sys.argv[4] if len(sys.argv) > 4 else "../shared/corpus"
    if fam == "values":
        gen_values(n, out)
    elif fam == "defs":
        gen_defs(n, out, corpus)
    elif fam == "wide":
        gen_wide(n, out)
    else:
        sys.exit(f"unknown family {fam}")


main()
