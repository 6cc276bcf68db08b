#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/rename_cases.py - renames claimed only on evidence (docs/diff.md).

Runs every case of tests/diff/renames.yaml (small chart pairs written from
the table) through `schemadoc diff --format json` and `upgrade-check`, then
the corpus upgrade pairs against the renames checked by hand against their
charts' notes (TRUTH below). Prints one line per miss and a figure line:
the rename precision (claimed renames that are right / all claimed), on the
table and on the corpus. Exit 1 on any miss or on a precision under 100%.

Usage: rename_cases.py SCHEMADOC CASES.yaml UPGRADES_DIR TMPDIR"""
import json
import os
import subprocess
import sys

import yaml

# The corpus pairs: every rename that is right, checked by hand against
# the charts' notes (bitnami/charts postgresql README "To 11.0.0": the
# parameters "regrouped under" auth, primary, primary.initdb, primary.standby).
TRUTH = {
    ("postgresql-10.16.3", "postgresql-11.0.0"): {
        ("postgresqlUsername", "auth.username"), ("postgresqlPassword", "auth.password"),
        ("postgresqlDatabase", "auth.database"), ("postgresqlPostgresPassword", "auth.postgresPassword"),
        ("existingSecret", "auth.existingSecret"), ("usePasswordFile", "auth.usePasswordFiles"),
        ("replication.user", "auth.replicationUsername"), ("replication.password", "auth.replicationPassword"),
        ("global.postgresql.postgresqlUsername", "global.postgresql.auth.username"),
        ("global.postgresql.postgresqlPassword", "global.postgresql.auth.password"),
        ("global.postgresql.postgresqlDatabase", "global.postgresql.auth.database"),
        ("global.postgresql.existingSecret", "global.postgresql.auth.existingSecret"),
        ("initdbScripts", "primary.initdb.scripts"), ("initdbScriptsConfigMap", "primary.initdb.scriptsConfigMap"),
        ("initdbScriptsSecret", "primary.initdb.scriptsSecret"), ("initdbUser", "primary.initdb.user"),
        ("initdbPassword", "primary.initdb.password"), ("postgresqlInitdbWalDir", "primary.initdb.postgresqlWalDir"),
        ("primaryAsStandBy", "primary.standby"), ("primaryAsStandBy.enabled", "primary.standby.enabled"),
        ("primaryAsStandBy.primaryHost", "primary.standby.primaryHost"),
        ("primaryAsStandBy.primaryPort", "primary.standby.primaryPort"),
        ("pgHbaConfiguration", "primary.pgHbaConfiguration"), ("extraEnvVarsCM", "primary.extraEnvVarsCM"),
        ("schedulerName", "primary.schedulerName"), ("lifecycleHooks", "primary.lifecycleHooks"),
        ("terminationGracePeriodSeconds", "primary.terminationGracePeriodSeconds"),
        ("securityContext", "primary.podSecurityContext"), ("containerSecurityContext", "primary.containerSecurityContext"),
        ("securityContext.enabled", "primary.podSecurityContext.enabled"),
        ("securityContext.fsGroup", "primary.podSecurityContext.fsGroup"),
        ("containerSecurityContext.enabled", "primary.containerSecurityContext.enabled"),
        ("containerSecurityContext.runAsUser", "primary.containerSecurityContext.runAsUser"),
        ("service.loadBalancerIP", "primary.service.loadBalancerIP"),
        ("service.externalTrafficPolicy", "primary.service.externalTrafficPolicy"),
        ("service.loadBalancerSourceRanges", "primary.service.loadBalancerSourceRanges"),
        ("persistence.subPath", "primary.persistence.subPath"), ("persistence.accessModes", "primary.persistence.accessModes"),
        ("persistence.annotations", "primary.persistence.annotations"), ("persistence.selector", "primary.persistence.selector"),
        ("primary.extraInitContainers", "primary.initContainers"),
        ("readReplicas.extraInitContainers", "readReplicas.initContainers"),
        ("metrics.securityContext", "metrics.containerSecurityContext"),
        ("metrics.securityContext.enabled", "metrics.containerSecurityContext.enabled"),
        ("metrics.securityContext.runAsUser", "metrics.containerSecurityContext.runAsUser"),
        ("volumePermissions.securityContext", "volumePermissions.containerSecurityContext"),
        ("volumePermissions.securityContext.runAsUser", "volumePermissions.containerSecurityContext.runAsUser"),
        ("metrics.serviceMonitor.additionalLabels", "metrics.serviceMonitor.labels"),
        ("metrics.prometheusRule.additionalLabels", "metrics.prometheusRule.labels"),
    } | {(p + ".%s" % k, "primary." + p + ".%s" % k)
         for p in ("livenessProbe", "readinessProbe", "startupProbe")
         for k in ("enabled", "initialDelaySeconds", "periodSeconds", "timeoutSeconds", "failureThreshold",
                   "successThreshold")}
      | {(p, "primary." + p) for p in ("livenessProbe", "readinessProbe", "startupProbe", "customLivenessProbe",
                                       "customReadinessProbe", "customStartupProbe")},
    ("redis-17.17.1", "redis-18.19.4"): {("metrics.service.port", "metrics.service.ports.http")},
}


def run(args):
    return subprocess.run(args, capture_output=True, text=True)


def write_chart(d, values, readme, deps):
    os.makedirs(d, exist_ok=True)
    chart = {"apiVersion": "v2", "name": "demo", "version": "1.0.0"}
    if deps:
        chart["dependencies"] = [{"name": n, "version": "1.x", "repository": "https://example.com"} for n in deps]
    with open(os.path.join(d, "Chart.yaml"), "w") as f:
        yaml.safe_dump(chart, f, sort_keys=False)
    with open(os.path.join(d, "values.yaml"), "w") as f:
        f.write(values)
    if readme:
        with open(os.path.join(d, "README.md"), "w") as f:
            f.write(readme)


def diff_pairs(sd, old, new):
    r = run([sd, "diff", old, new, "--format", "json"])
    if r.returncode not in (0, 1):
        return None, None, r.stderr
    ch = json.loads(r.stdout)["changes"]
    ren = {(c["from"], c["to"]) for c in ch if c["change"] == "renamed"}
    sim = {(c["path"], c["similar"]) for c in ch if c.get("similar")}
    return ren, sim, ""


def main():
    sd, cases_file, upgrades, tmp = sys.argv[1:5]
    cases = yaml.safe_load(open(cases_file))["cases"]
    misses, claimed, right = [], 0, 0
    for i, c in enumerate(cases):
        base = os.path.join(tmp, "rn%d" % i)
        write_chart(base + "/old", c["old"], None, c.get("deps"))
        write_chart(base + "/new", c["new"], c.get("readme"), c.get("deps"))
        ren, sim, err = diff_pairs(sd, base + "/old", base + "/new")
        if ren is None:
            misses.append("%s: diff failed: %s" % (c["name"], err.strip()))
            continue
        want = {tuple(p) for p in c.get("renames") or []}
        claimed += len(ren)
        right += len(ren & want)
        for p in sorted(ren - want):
            misses.append("%s: claimed %s -> %s, no rename" % (c["name"], p[0], p[1]))
        for p in sorted(want - ren):
            misses.append("%s: missed the rename %s -> %s" % (c["name"], p[0], p[1]))
        for p in c.get("not") or []:
            if tuple(p) in ren:
                misses.append("%s: claimed the false rename %s -> %s" % (c["name"], p[0], p[1]))
        for p in c.get("similar") or []:
            if tuple(p) not in sim:
                misses.append("%s: no suggestion %s ~ %s" % (c["name"], p[0], p[1]))
        if c.get("schema_clean"):
            # the annotation is diff's: no keyword, no warning in a made schema
            r = run([sd, "schema", base + "/new"])
            if "renamedFrom" in r.stdout + r.stderr or "renamed-from" in r.stderr or r.returncode != 0:
                misses.append("%s: schema keeps or warns about renamedFrom:\n%s%s" % (c["name"], r.stdout, r.stderr))
        if c.get("user"):
            uf = base + "/user.yaml"
            with open(uf, "w") as f:
                f.write(c["user"])
            r = run([sd, "upgrade-check", base + "/old", base + "/new", uf])
            out = r.stdout
            if r.returncode not in (0, 1):
                misses.append("%s: upgrade-check status %d: %s" % (c["name"], r.returncode, r.stderr.strip()))
            for e in c.get("expect") or []:
                if e not in out:
                    misses.append("%s: upgrade-check lacks %r\n%s" % (c["name"], e, out))
            for a in c.get("absent") or []:
                if a in out:
                    misses.append("%s: upgrade-check says %r\n%s" % (c["name"], a, out))
    # the corpus upgrade pairs
    cclaimed = cright = 0
    for (o, n), truth in sorted(TRUTH.items()):
        od, nd = os.path.join(upgrades, "bitnami-" + o), os.path.join(upgrades, "bitnami-" + n)
        if not os.path.isdir(od) or not os.path.isdir(nd):
            continue
        ren, sim, err = diff_pairs(sd, od, nd)
        if ren is None:
            misses.append("%s: diff failed: %s" % (o, err.strip()))
            continue
        cclaimed += len(ren)
        cright += len(ren & truth)
        for p in sorted(ren - truth):
            misses.append("corpus %s: claimed %s -> %s, no rename" % (o, p[0], p[1]))
        # what is not claimed is still suggested
        for p in sorted(truth - ren - sim):
            misses.append("corpus %s: %s -> %s neither claimed nor suggested" % (o, p[0], p[1]))
    for m in misses:
        print(m)

    def pct(a, b):
        return "%.1f%%" % (100.0 * a / b) if b else "n/a"
    print("figure: rename precision: %d/%d claimed renames right (%s) on %d table cases; corpus upgrades %d/%d (%s)"
          % (right, claimed, pct(right, claimed), len(cases), cright, cclaimed, pct(cright, cclaimed)))
    sys.exit(1 if misses or right != claimed or cright != cclaimed else 0)


if __name__ == "__main__":
    main()
