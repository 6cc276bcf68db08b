#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/upgrade_notes.py - the chart's own upgrade notes against upgrade-check.

For each upgrade pair of the corpus (../shared/corpus/upgrades), the notes
are the "### To X" sections of the "## Upgrading" part of a README, for
OLD < X <= NEW, plus the sections there without a version: NEW's README, or,
when it only links elsewhere (bitnami/postgresql 11.0.0), the newest README
of the chart in the corpus (charts/bitnami-postgresql). Each note (a bullet,
a paragraph, a "####" part) must be classified in NOTES below, so a note
nobody looked at fails the test:

  ("default", [paths])  about the values of someone who sets nothing:
                        `upgrade-check OLD NEW empty.yaml` lists each path
                        (a changed default, a new default, a new key);
  ("set", [keys])       about keys a user may set: a values file setting
                        each key (OLD's default, or a placeholder) gets a
                        renamed, removed or unknown finding at that key or
                        below it;
  ("none", why)         not about values (a procedure, the application's
                        own compatibility): listed, not checked.

Usage: upgrade_notes.py SCHEMADOC UPGRADES_DIR CHARTS_DIR TMPDIR
Prints one line per note and a summary; exit 1 on any miss."""
import json
import os
import re
import subprocess
import sys

import yaml

NOTES = {
    "postgresql": [
        ("application version was bumped to _14.x_", "default", ["image.tag"]),
        ("_replication.enabled_ parameter is deprecated", "set", ["replication.enabled"]),
        ("_replication.singleService_ and _replication.uniqueServices_", "set",
         ["replication.singleService", "replication.uniqueServices"]),
        ("have been regrouped under the _auth_ map", "set",
         ["postgresqlPostgresPassword", "postgresqlUsername", "postgresqlPassword", "postgresqlDatabase",
          "replication.user", "replication.password", "existingSecret"]),
        ("_extraEnv_ has been deprecated", "set", ["extraEnv"]),
        ("_postgresqlConfiguration_, _pgHbaConfiguration_", "set",
         ["postgresqlConfiguration", "pgHbaConfiguration", "configurationConfigMap", "postgresqlExtendedConf",
          "extendedConfConfigMap"]),
        ("regrouped under the _primary.initdb_ map", "set",
         ["postgresqlInitdbArgs", "postgresqlInitdbWalDir", "initdbScripts", "initdbScriptsConfigMap",
          "initdbScriptsSecret", "initdbUser", "initdbPassword"]),
        ("_postgresqlMaxConnections_", "set",
         ["postgresqlMaxConnections", "postgresqlPostgresConnectionLimit", "postgresqlDbUserConnectionLimit",
          "postgresqlTcpKeepalivesInterval", "postgresqlTcpKeepalivesIdle", "postgresqlTcpKeepalivesCount",
          "postgresqlStatementTimeout", "postgresqlPghbaRemoveFilters"]),
        ("_primaryAsStandBy_ has been deprecated", "set", ["primaryAsStandBy"]),
        ("_securityContext_ and _containerSecurityContext_", "set", ["securityContext", "containerSecurityContext"]),
        ("_livenessProbe_ and _readinessProbe_ maps", "set", ["livenessProbe", "readinessProbe"]),
        ("_persistence_ map has been deprecated", "set", ["persistence"]),
        ("_networkPolicy_ map has been completely refactored", "set",
         ["networkPolicy.allowExternal", "networkPolicy.explicitNamespacesSelector"]),
        ("_service_ map has been deprecated", "set", ["service"]),
        ("_metrics.service.port_ has been regrouped", "set", ["metrics.service.port"]),
        ("_serviceAccount.enabled_ and _serviceAccount.autoMount_", "set",
         ["serviceAccount.enabled", "serviceAccount.autoMount"]),
        ("How to upgrade to version 11.0.0", "none",
         "a procedure: reuse the PVC, delete the statefulset, pin image.tag to the running version"),
    ],
    "redis": [
        ("updates the Redis&reg; docker image version used from `7.0` to `7.2`", "default",
         ["image.tag", "sentinel.image.tag"]),
        ("NOTE: Due to an error in our release process", "none",
         "which released versions already shipped Redis 7.2"),
        ("A major chart version change", "none", "what a major version means"),
        ("It's common to have RDB format changes", "none",
         "RDB compatibility of Redis itself during a rolling update"),
        ("Stage 1 (replicas only", "none", "a procedure (helm upgrade with a partition)"),
        ("Stage 2 (anything else", "none", "a procedure (helm upgrade)"),
    ],
}


def version(v):
    return tuple(int(x) for x in re.findall(r"\d+", v)[:3])


def upgrading_notes(readme, old, new):
    """The notes of the README's "## Upgrading" part that apply to old -> new."""
    text = open(readme, encoding="utf-8").read()
    m = re.search(r"^## Upgrading\s*$(.*?)(?=^## )", text, re.M | re.S)
    if not m:
        return []
    notes, applies, in_code = [], True, False
    para = []

    def flush():
        if para and applies:
            notes.append(" ".join(para).strip())
        para.clear()

    for line in m.group(1).splitlines():
        if line.startswith("```"):
            in_code = not in_code
            flush()
            continue
        if in_code:
            continue
        h = re.match(r"^### To (\S+)", line)
        if h:
            flush()
            applies = version(old) < version(h.group(1)) <= version(new)
            continue
        if line.startswith("### "):
            flush()
            applies = True   # a section without a version: it applies to every upgrade
            continue
        if line.startswith("#### "):
            flush()
            if applies:
                notes.append(line[5:].strip())
            applies = False  # the steps below it are one note: its heading
            continue
        if not line.strip():
            flush()
        elif line.startswith("- "):
            flush()
            para.append(line[2:])
        elif re.match(r"^\d+\. |^> ", line):
            flush()
        else:
            para.append(line.strip())
    flush()
    return notes


def classify(chart, note):
    for frag, kind, data in NOTES[chart]:
        if frag in note:
            return kind, data
    return None, None


def get(tree, key):
    cur = tree
    for p in key.split("."):
        if not isinstance(cur, dict) or p not in cur:
            return None
        cur = cur[p]
    return cur


def put(tree, key, value):
    ps = key.split(".")
    for p in ps[:-1]:
        tree = tree.setdefault(p, {})
    tree[ps[-1]] = value


def upgrade_check(sd, old, new, values):
    r = subprocess.run([sd, "upgrade-check", old, new, values, "--output", "json"],
                       capture_output=True, text=True)
    if r.returncode not in (0, 1):
        sys.exit("upgrade-check failed (%d): %s" % (r.returncode, r.stderr))
    return json.loads(r.stdout)["findings"]


def main():
    sd, ups, charts, tmp = sys.argv[1:5]
    bad = 0
    tot = [0, 0, 0, 0]   # notes, about values, of them listed, not about values
    for chart, old_v, new_v in (("postgresql", "10.16.3", "11.0.0"), ("redis", "17.17.1", "18.19.4")):
        old = os.path.join(ups, "bitnami-%s-%s" % (chart, old_v))
        new = os.path.join(ups, "bitnami-%s-%s" % (chart, new_v))
        readme = os.path.join(new, "README.md")
        notes = upgrading_notes(readme, old_v, new_v)
        if not any(re.search(r"\w", n) and "chart documentation" not in n for n in notes):
            readme = os.path.join(charts, "bitnami-" + chart, "README.md")
            notes = upgrading_notes(readme, old_v, new_v)
        empty = os.path.join(tmp, "empty.yaml")
        open(empty, "w").write("{}\n")
        got_empty = upgrade_check(sd, old, new, empty)
        old_values = yaml.safe_load(open(os.path.join(old, "values.yaml")))
        covered = none = 0
        for note in notes:
            kind, data = classify(chart, note)
            short = note[:90] + ("..." if len(note) > 90 else "")
            if kind is None:
                print("UNCLASSIFIED %s: %s" % (chart, short))
                bad += 1
                continue
            if kind == "none":
                print("not about values: %s %s: %s (%s)" % (chart, new_v, short, data))
                none += 1
                continue
            if kind == "default":
                paths = {f["path"] for f in got_empty if f["finding"] in ("default", "new_default")}
                miss = [p for p in data if p not in paths]
            else:
                values = {}
                for k in data:
                    v = get(old_values, k)
                    put(values, k, v if v not in (None, {}, [], "") else "set")
                f = os.path.join(tmp, "note.yaml")
                with open(f, "w") as fh:
                    yaml.safe_dump(values, fh)
                found = upgrade_check(sd, old, new, f)
                paths = [x["path"] for x in found if x["finding"] in ("renamed", "removed", "unknown")]
                miss = [k for k in data if not any(p == k or p.startswith(k + ".") for p in paths)]
            if miss:
                print("MISSED %s: %s: %s" % (chart, short, ", ".join(miss)))
                bad += 1
            else:
                print("covered (%s): %s %s: %s" % (kind, chart, new_v, short))
                covered += 1
        if not notes:
            print("NO NOTES found for %s %s" % (chart, new_v))
            bad += 1
        about = len(notes) - none
        print("figure: upgrade notes %s %s -> %s: %d notes (%s), %d about values, %d of them listed by "
              "upgrade-check, %d not about values"
              % (chart, old_v, new_v, len(notes), os.path.relpath(readme, os.path.dirname(ups)), about, covered, none))
        for i, n in enumerate((len(notes), about, covered, none)):
            tot[i] += n
    print("figure: upgrade notes: %d notes, %d about values, %d of them listed by upgrade-check, %d not about values"
          % tuple(tot))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
