#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""gen-types.py - write src/k8s/k8s_types.json: the Kubernetes API definitions
schemadoc types values with (issue 43), as one minified JSON document
{"definitions": {...}}. It is committed, and `make` embeds it in the binary
(src/k8s/embed-types.sh), so the binary needs no network and a user's build
no ../shared.

usage: python3 src/k8s/gen-types.py ../shared/corpus/kubernetes/swagger.json > src/k8s/k8s_types.json

The input is the Kubernetes OpenAPI v2 document of release 1.36
(kubernetes-client/python's swagger.json.unprocessed; Apache-2.0, see
NOTICE). The output is the closure under $ref of ROOTS below, every
definition copied unchanged but for its descriptions (nothing reads them:
the pages link the API reference; with them the file is 173.6 KB, without
37.8 KB), plus ENUMS: the few closed sets of strings that the API server's
validation (k8s.io/kubernetes/pkg/apis/core/validation) enforces but the
OpenAPI document only states in prose; each is added as `enum`.
tests/suite-k8s.sh runs this again over the corpus copy and fails when the
committed file differs."""
import json, sys

ROOTS = [
    "io.k8s.api.core.v1.ResourceRequirements", "io.k8s.api.core.v1.Affinity",
    "io.k8s.api.core.v1.Toleration", "io.k8s.api.core.v1.SecurityContext",
    "io.k8s.api.core.v1.PodSecurityContext", "io.k8s.api.core.v1.Probe",
    "io.k8s.api.core.v1.Lifecycle", "io.k8s.api.core.v1.EnvVar",
    "io.k8s.api.core.v1.EnvFromSource", "io.k8s.api.core.v1.Volume",
    "io.k8s.api.core.v1.VolumeMount", "io.k8s.api.core.v1.LocalObjectReference",
    "io.k8s.api.core.v1.ServicePort", "io.k8s.api.core.v1.ContainerPort",
    "io.k8s.api.core.v1.TopologySpreadConstraint", "io.k8s.api.core.v1.Container",
    "io.k8s.api.policy.v1.PodDisruptionBudgetSpec", "io.k8s.api.autoscaling.v2.MetricSpec",
]

# (definition, property): the values the API server accepts
ENUMS = {
    ("io.k8s.api.core.v1.Toleration", "operator"): ["Equal", "Exists", "Lt", "Gt"],
    ("io.k8s.api.core.v1.Toleration", "effect"): ["", "NoSchedule", "PreferNoSchedule", "NoExecute"],
    ("io.k8s.api.core.v1.Container", "imagePullPolicy"): ["Always", "Never", "IfNotPresent"],
    ("io.k8s.api.core.v1.ContainerPort", "protocol"): ["TCP", "UDP", "SCTP"],
    ("io.k8s.api.core.v1.ServicePort", "protocol"): ["TCP", "UDP", "SCTP"],
    ("io.k8s.api.core.v1.NodeSelectorRequirement", "operator"): ["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"],
    ("io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement", "operator"): ["In", "NotIn", "Exists", "DoesNotExist"],
    ("io.k8s.api.core.v1.TopologySpreadConstraint", "whenUnsatisfiable"): ["DoNotSchedule", "ScheduleAnyway"],
}


def closure(defs):
    seen = set()

    def walk(x):
        if isinstance(x, dict):
            for k, v in x.items():
                if k == "$ref" and isinstance(v, str):
                    name = v.rsplit("/", 1)[-1]
                    if name not in seen:
                        seen.add(name)
                        walk(defs[name])
                else:
                    walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    for r in ROOTS:
        seen.add(r)
        walk(defs[r])
    return seen


def strip(x):
    """The definition without its descriptions: nothing reads them (the pages
    link the API reference), and they are three quarters of the bytes."""
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if not (k == "description" and isinstance(v, str))}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x


def main():
    swagger = json.load(open(sys.argv[1], encoding="utf-8"))
    defs = swagger["definitions"]
    names = closure(defs)
    sub = {n: strip(defs[n]) for n in sorted(names)}
    for (d, p), values in ENUMS.items():
        sub[d]["properties"][p]["enum"] = values
    sys.stdout.write(json.dumps({"definitions": sub}, separators=(",", ":"), ensure_ascii=True) + "\n")


main()
