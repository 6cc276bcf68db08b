#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/suite-diff.sh - `schemadoc diff` and `schemadoc upgrade-check`
# (docs/diff.md): the two real upgrade pairs of the corpus against an
# independent flattening of their values files (tests/diff_oracle.py, PyYAML
# from Debian's python3-yaml), the postgresql renames checked by hand, every
# kind of change on small schemas (golden md), CRD versions, packaged charts,
# hostile strings, exit statuses, and the upgrade check.
set -u
cd "$(dirname "$0")/.." || exit 2
SD=${SD:-./schemadoc}
CORPUS=${CORPUS:-../shared/corpus}
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3   # Debian's, with python3-yaml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }
U=$CORPUS/upgrades

# --- the real pairs against the independent flattening ----------------------
if [ -d "$U" ] && $PY -c 'import yaml' 2>/dev/null; then
    for pair in postgresql-10.16.3:postgresql-11.0.0 redis-17.17.1:redis-18.19.4; do
        o=bitnami-${pair%%:*} n=bitnami-${pair##*:}
        "$SD" diff "$U/$o" "$U/$n" --format json >"$tmp/$o.json" 2>"$tmp/err"; st=$?
        [ $st -eq 1 ] && ok || { bad "diff $o $n: status $st (want 1)"; cat "$tmp/err"; }
        if $PY tests/diff_oracle.py "$U/$o/values.yaml" "$U/$n/values.yaml" "$tmp/$o.json" >"$tmp/oracle" 2>&1; then
            ok
        else
            bad "diff $o $n: the independent flattening finds misses"; head -20 "$tmp/oracle"
        fi
        tail -n 2 "$tmp/oracle" | sed "s/^/  $o: /"
        # at least this many keys checked: the oracle really ran over the files
        c=$(sed -n 's/^\([0-9]*\) checked.*/\1/p' "$tmp/oracle")
        [ "${c:-0}" -ge 100 ] && ok || bad "diff $o: only ${c:-0} keys checked"
    done
    # the postgresql 11 renames, checked by hand against the chart's
    # upgrade notes (bitnami/charts postgresql README "To 11.0.0"): NEW's
    # README only links to them, so most are suggestions ("a new key with a
    # similar name"), never claimed without evidence (tests/rename_cases.py)
    $PY - "$tmp/bitnami-postgresql-10.16.3.json" <<'EOF' >"$tmp/ren" 2>&1 && ok || { bad "postgresql renames"; cat "$tmp/ren"; }
import json, sys
d = json.load(open(sys.argv[1]))
got = {(c["from"], c["to"]) for c in d["changes"] if c["change"] == "renamed"}
got |= {(c["path"], c["similar"]) for c in d["changes"] if c.get("similar")}
want = [
    ("postgresqlUsername", "auth.username"), ("postgresqlPassword", "auth.password"),
    ("postgresqlDatabase", "auth.database"), ("postgresqlPostgresPassword", "auth.postgresPassword"),
    ("existingSecret", "auth.existingSecret"),
    ("global.postgresql.postgresqlUsername", "global.postgresql.auth.username"),
    ("global.postgresql.postgresqlPassword", "global.postgresql.auth.password"),
    ("global.postgresql.postgresqlDatabase", "global.postgresql.auth.database"),
    ("global.postgresql.existingSecret", "global.postgresql.auth.existingSecret"),
    ("initdbScripts", "primary.initdb.scripts"), ("initdbScriptsConfigMap", "primary.initdb.scriptsConfigMap"),
    ("initdbScriptsSecret", "primary.initdb.scriptsSecret"), ("initdbUser", "primary.initdb.user"),
    ("initdbPassword", "primary.initdb.password"), ("postgresqlInitdbWalDir", "primary.initdb.postgresqlWalDir"),
    ("primaryAsStandBy", "primary.standby"), ("primaryAsStandBy.enabled", "primary.standby.enabled"),
    ("securityContext", "primary.podSecurityContext"), ("securityContext.fsGroup", "primary.podSecurityContext.fsGroup"),
    ("containerSecurityContext", "primary.containerSecurityContext"),
    ("livenessProbe", "primary.livenessProbe"), ("readinessProbe", "primary.readinessProbe"),
    ("startupProbe", "primary.startupProbe"), ("schedulerName", "primary.schedulerName"),
    ("primary.extraInitContainers", "primary.initContainers"),
    ("persistence.accessModes", "primary.persistence.accessModes"),
    ("service.loadBalancerIP", "primary.service.loadBalancerIP"),
    ("metrics.securityContext", "metrics.containerSecurityContext"),
    ("metrics.serviceMonitor.additionalLabels", "metrics.serviceMonitor.labels"),
    ("volumePermissions.securityContext", "volumePermissions.containerSecurityContext"),
    ("replication.user", "auth.replicationUsername"), ("replication.password", "auth.replicationPassword"),
    ("usePasswordFile", "auth.usePasswordFiles"), ("pgHbaConfiguration", "primary.pgHbaConfiguration"),
    ("lifecycleHooks", "primary.lifecycleHooks"), ("extraEnvVarsCM", "primary.extraEnvVarsCM"),
]
miss = [w for w in want if w not in got]
# pairs that are known NOT to be renames must not appear
wrong = [p for p in got if p[1].startswith("readReplicas.") and not p[0].startswith("readReplicas.")]
print("renames and suggestions found: %d, expected present: %d, missing: %s, wrong: %s" % (len(got), len(want), miss, wrong))
sys.exit(1 if miss or wrong else 0)
EOF
    sed 's/^/  postgresql: /' "$tmp/ren"
    # the md table: pastable, one row per change
    "$SD" diff "$U/bitnami-postgresql-10.16.3" "$U/bitnami-postgresql-11.0.0" -o "$tmp/pg.md" 2>/dev/null
    rows=$(grep -c '^| `' "$tmp/pg.md")
    nch=$($PY -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["changes"]))' "$tmp/bitnami-postgresql-10.16.3.json")
    [ "$rows" = "$nch" ] && [ "$nch" -gt 200 ] && ok || bad "md rows $rows != json changes $nch"
    grep -q '^| `postgresqlUsername` | removed | `postgres` |  | a new key with a similar name is `auth.username` (no evidence' "$tmp/pg.md" && ok \
        || bad "md: the postgresqlUsername suggestion row"
else
    echo "SKIPPED: no corpus upgrades or no python3-yaml"
fi

# --- every kind of change on two small schemas (golden) ----------------------
"$SD" diff tests/diff/old.schema.json tests/diff/new.schema.json >"$tmp/small.md" 2>"$tmp/err"; st=$?
[ $st -eq 1 ] && ok || bad "small diff: status $st"
if diff -u tests/diff/expected.md "$tmp/small.md" >"$tmp/d"; then ok; else bad "small diff md differs from tests/diff/expected.md"; head -30 "$tmp/d"; fi
"$SD" diff tests/diff/old.schema.json tests/diff/new.schema.json --format json --descriptions >"$tmp/small.json" 2>/dev/null
$PY - "$tmp/small.json" <<'EOF' && ok || bad "small diff json"
import json, sys
d = json.load(open(sys.argv[1]))
ch = d["changes"]
kinds = {c["change"] for c in ch}
assert kinds >= {"removed", "renamed", "type", "constraint", "deprecated", "default", "added", "description"}, kinds
by = {(c["change"], c["path"], c.get("keyword")): c for c in ch}
assert by[("renamed", "server.wait", None)]["from"] == "timeoutSeconds" and by[("renamed", "server.wait", None)]["rule"] == "hint"
assert by[("renamed", "server.host", None)]["from"] == "legacyHost"
assert by[("removed", "oldFlag", None)]["was_deprecated"] is True
assert by[("constraint", "name", "maxLength")]["effect"] == "tightened"
assert by[("constraint", "replicas", "minimum")]["effect"] == "tightened"
assert by[("constraint", "labels", "additionalProperties")]["effect"] == "tightened"
assert by[("constraint", "region", "required")]["to"] is True if ("constraint", "region", "required") in by else by[("added", "region", None)]["required"]
assert by[("type", "port", None)]["from"] == ["string"] and by[("type", "port", None)]["to"] == ["integer"]
assert by[("default", "replicas", None)]["from"] == 1 and by[("default", "replicas", None)]["to"] == 2
assert by[("deprecated", "tagPattern", None)]["notice"] == "anchor it with a digit"
assert by[("description", "stays", None)]["to"] == "New words"
assert sum(d["counts"].values()) == len(ch)
EOF
# without --descriptions there is no description change
"$SD" diff tests/diff/old.schema.json tests/diff/new.schema.json --format json 2>/dev/null >"$tmp/nodesc.json"
$PY -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["changes"] and not [c for c in d["changes"] if c["change"] == "description"]' "$tmp/nodesc.json" \
    && ok || bad "description changes listed without --descriptions"

# a helm-docs chart pair and a ytt pair (golden)
golden() { # OLD NEW EXPECTED
    "$SD" diff "$1" "$2" >"$tmp/g.md" 2>"$tmp/err"; st=$?
    if [ $st -eq 1 ] && diff -u "$3" "$tmp/g.md" >"$tmp/d"; then ok; else bad "diff $1 $2: status $st or differs from $3"; head -20 "$tmp/d" "$tmp/err"; fi
}
golden tests/diff/chart-old tests/diff/chart-new tests/diff/expected-chart.md
grep -q '^| `server.host` | renamed | `host` | `server.host` | rule: hint' tests/diff/expected-chart.md \
    && grep -q '^| `legacyMode` | removed | `false` |  | was deprecated' tests/diff/expected-chart.md \
    && grep -q '^| `concurrency.threads` | renamed | `workers` | `concurrency.threads` | rule: readme' tests/diff/expected-chart.md \
    && ok || bad "chart golden lacks the comment hint rename, the README rename or the deprecated removal"
golden tests/diff/ytt/old.yml tests/diff/ytt/new.yml tests/diff/expected-ytt.md
grep -q '^| `log_level` | deprecated |' tests/diff/expected-ytt.md && grep -q '^| `insecure` | removed |' tests/diff/expected-ytt.md \
    && grep -q 'maximum, tightened' tests/diff/expected-ytt.md && ok || bad "ytt golden lacks deprecated/removed/maximum"
# the two corpus pairs, whole tables (golden)
if [ -d "$U" ]; then
    golden "$U/bitnami-postgresql-10.16.3" "$U/bitnami-postgresql-11.0.0" tests/diff/postgresql-10.16.3-11.0.0.md
    golden "$U/bitnami-redis-17.17.1" "$U/bitnami-redis-18.19.4" tests/diff/redis-17.17.1-18.19.4.md
fi

# --- hostile strings stay inert ---------------------------------------------------
"$SD" diff tests/diff/old.schema.json tests/diff/new.schema.json --format html -o "$tmp/small.html" 2>"$tmp/err"; st=$?
[ $st -eq 1 ] && ok || { bad "html: status $st"; cat "$tmp/err"; }
if grep -q '<script>alert\|<img src=x\|<b>y</b>' "$tmp/small.html"; then bad "html: a chart string became markup"; else ok; fi
head -c 15 "$tmp/small.html" | grep -q '^<!DOCTYPE html>' && ! grep -q 'double braces\|{{!' "$tmp/small.html" \
    && grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' "$tmp/small.html" && grep -q '<table class="diff">' "$tmp/small.html" \
    && grep -q -- '--bg:' "$tmp/small.html" && ok || bad "html: table, escaped key or theme CSS missing"
# md: the key's pipe is escaped inside its code span, no raw tag outside one
grep -q '`evil\\|<script>alert(1)</script>`' "$tmp/small.md" && ok || bad "md: hostile key not kept in a code span"

# --- exit statuses ---------------------------------------------------------------
"$SD" diff tests/diff/old.schema.json tests/diff/old.schema.json >"$tmp/same" 2>&1; st=$?
[ $st -eq 0 ] && grep -q ': 0\.' "$tmp/same" && ok || bad "no change: status $st"
"$SD" diff tests/diff/old.schema.json tests/diff/new.schema.json --exit-zero >/dev/null 2>&1; st=$?
[ $st -eq 0 ] && ok || bad "--exit-zero: status $st"
"$SD" diff tests/diff/old.schema.json tests/diff/missing.json >"$tmp/out" 2>"$tmp/err"; st=$?
[ $st -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q 'missing.json' "$tmp/err" && ok || bad "missing NEW: status $st"
"$SD" diff tests/diff/old.schema.json tests/diff/new.schema.json -o "$tmp/never.md" --format yaml >/dev/null 2>&1; st=$?
[ $st -eq 2 ] && [ ! -e "$tmp/never.md" ] && ok || bad "bad --format: status $st"
"$SD" diff tests/diff/old.schema.json samples/podinfo >/dev/null 2>"$tmp/err"; st=$?
[ $st -eq 2 ] && grep -q 'different kinds' "$tmp/err" && ok || bad "schema vs chart: status $st"
"$SD" diff tests/diff/old.schema.json >/dev/null 2>&1; st=$?
[ $st -eq 2 ] && ok || bad "one source: status $st"

# --- CRDs: versions added, served/storage flips, deprecation ---------------------
crd=samples/crd/widgets.example.com.yaml
if [ -f "$crd" ]; then
    $PY - "$crd" "$tmp/crd-new.yaml" <<'EOF'
import sys, yaml
docs = list(yaml.safe_load_all(open(sys.argv[1])))
d = [x for x in docs if x][0]
vs = d["spec"]["versions"]
for v in vs:
    if v.get("storage"):
        v["storage"] = False
        v["deprecated"] = True
        v["deprecationWarning"] = "use v2"
import copy
n = copy.deepcopy(vs[0]); n["name"] = "v2"; n["storage"] = True; n["served"] = True
n.pop("deprecated", None); n.pop("deprecationWarning", None)
vs.append(n)
yaml.safe_dump(d, open(sys.argv[2], "w"), sort_keys=False)
EOF
    "$SD" diff "$crd" "$tmp/crd-new.yaml" --format json >"$tmp/crd.json" 2>"$tmp/err"; st=$?
    [ $st -eq 1 ] && ok || { bad "crd diff: status $st"; cat "$tmp/err"; }
    $PY - "$tmp/crd.json" <<'EOF' && ok || bad "crd version changes"
import json, sys
d = json.load(open(sys.argv[1]))
v = {(c["version"], c["keyword"]) for c in d["changes"] if c["change"] == "version"}
assert ("v2", "added") in v and any(k == "storage" for _, k in v) and any(k == "deprecated" for _, k in v) \
    and any(k == "deprecationWarning" for _, k in v), v
assert d["kind"] == "crd"
EOF
    "$SD" diff "$crd" "$tmp/crd-new.yaml" >"$tmp/crd.md" 2>/dev/null
    grep -q '^| Version | Key |' "$tmp/crd.md" && grep -q '^| `v2` |  | version (added)' "$tmp/crd.md" && ok || bad "crd md table"
fi

# --- packaged charts (.tgz) --------------------------------------------------------
if [ -d "$U" ]; then
    (cd "$U" && tar czf "$tmp/old.tgz" --transform 's|^bitnami-redis-17.17.1|redis|' bitnami-redis-17.17.1 \
        && tar czf "$tmp/new.tgz" --transform 's|^bitnami-redis-18.19.4|redis|' bitnami-redis-18.19.4)
    "$SD" diff "$tmp/old.tgz" "$tmp/new.tgz" --format json >"$tmp/tgz.json" 2>"$tmp/err"; st=$?
    [ $st -eq 1 ] && ok || { bad "tgz diff: status $st"; cat "$tmp/err"; }
    $PY - "$tmp/tgz.json" "$tmp/bitnami-redis-17.17.1.json" <<'EOF' && ok || bad "tgz diff differs from the directory diff"
import json, sys
a, b = (json.load(open(p))["changes"] for p in sys.argv[1:3])
assert a == b and len(a) > 50, (len(a), len(b))
EOF
    ls -d "${TMPDIR:-/tmp}"/schemadoc-chart-* >/dev/null 2>&1 && bad "tgz: temporary directory left behind" || ok
    # an archive that climbs out is refused, nothing written
    $PY - "$tmp/evil.tgz" <<'EOF'
import io, sys, tarfile
with tarfile.open(sys.argv[1], "w:gz") as t:
    data = b"apiVersion: v2\nname: x\nversion: 1.0.0\n"
    i = tarfile.TarInfo("x/../../escaped.yaml"); i.size = len(data); t.addfile(i, io.BytesIO(data))
EOF
    "$SD" diff "$tmp/evil.tgz" "$tmp/new.tgz" >"$tmp/out" 2>"$tmp/err"; st=$?
    [ $st -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q "tar entry 1 ('x/../../escaped.yaml'): refused: an absolute path" "$tmp/err" && [ ! -e "$tmp/../escaped.yaml" ] \
        && ok || bad "evil tgz: status $st"
    # an archive with the chart's files at its top
    (cd "$U/bitnami-redis-18.19.4" && tar czf "$tmp/flat.tgz" Chart.yaml values.yaml values.schema.json)
    "$SD" diff "$tmp/old.tgz" "$tmp/flat.tgz" --format json >"$tmp/flat.json" 2>"$tmp/err"; st=$?
    [ $st -eq 1 ] && \
        $PY -c 'import json,sys; a,b=(json.load(open(p))["changes"] for p in sys.argv[1:]); sys.exit(a!=b)' "$tmp/flat.json" "$tmp/tgz.json" \
        && ok || { bad "flat tgz: status $st"; cat "$tmp/err"; }
    printf '\037\213garbage' >"$tmp/bad.tgz"
    "$SD" diff "$tmp/bad.tgz" "$tmp/new.tgz" >/dev/null 2>"$tmp/err"; st=$?
    [ $st -eq 2 ] && ok || bad "corrupt tgz: status $st"
fi

# --- the Kubernetes definitions with 50 seeded edits: each edit listed -------------
K=$CORPUS/kubernetes/_definitions.json
if [ -f "$K" ]; then
    $PY tests/diff_edit.py "$K" "$tmp/k8s.json" 50 >"$tmp/edits"
    "$SD" diff "$K" "$tmp/k8s.json" --descriptions --format json >"$tmp/k8s-diff.json" 2>"$tmp/err"; st=$?
    [ $st -eq 1 ] && ok || { bad "k8s diff: status $st"; cat "$tmp/err"; }
    $PY - "$tmp/edits" "$tmp/k8s-diff.json" <<'EOF2' >"$tmp/k8s-check" 2>&1 && ok || { bad "k8s edits not all listed"; cat "$tmp/k8s-check"; }
import json, sys
edits = [l.split() for l in open(sys.argv[1])]
ch = json.load(open(sys.argv[2]))["changes"]
have = {(c["change"], c["path"], c.get("keyword")) for c in ch}
touched = {}
for k, d, p in edits:
    touched[(d, p)] = touched.get((d, p), 0) + 1
want = {"remove": ("removed", None), "type": ("type", None), "default": ("default", None),
        "enum": ("constraint", "enum"), "maximum": ("constraint", "maximum"), "description": ("description", None)}
miss, n = [], 0
for k, d, p in edits:
    if touched[(d, p)] > 1:
        continue   # edited twice: the last edit wins
    n += 1
    if k == "add":
        key = ("added", d + "." + p + "Extra", None)
    else:
        key = (want[k][0], d + "." + p, want[k][1])
    if key not in have:
        miss.append((k, d, p))
print("edits checked: %d, missing: %s, changes listed: %d" % (n, miss, len(ch)))
sys.exit(1 if miss or n < 40 else 0)
EOF2
    sed 's/^/  k8s: /' "$tmp/k8s-check"
fi

# --- upgrade-check ---------------------------------------------------------------------
if [ -d "$U" ]; then
    cat >"$tmp/my.yaml" <<'EOF'
postgresqlUsername: app
postgresqlDatabase: appdb
service:
  port: 5433
image:
  tag: 11.14.0-debian-10-r49
livenessProbe:
  periodSeconds: 20
readReplicas:
  topologySpreadConstraints: []
nosuchKey: 1
EOF
    "$SD" upgrade-check "$U/bitnami-postgresql-10.16.3" "$U/bitnami-postgresql-11.0.0" "$tmp/my.yaml" >"$tmp/up" 2>"$tmp/err"; st=$?
    [ $st -eq 1 ] && ok || { bad "upgrade-check: status $st"; cat "$tmp/err"; }
    grep -q "removed: postgresqlUsername: removed; a new key with a similar name is \`auth.username\` (check the chart's notes)" "$tmp/up" && ok || bad "upgrade-check: postgresqlUsername suggestion"
    grep -q 'my.yaml:1:[0-9]*: removed: postgresqlUsername' "$tmp/up" && ok || bad "upgrade-check: position of the key"
    grep -q "removed: livenessProbe.periodSeconds: removed; a new key with a similar name is \`primary.livenessProbe.periodSeconds\`" "$tmp/up" && ok || bad "upgrade-check: nested suggestion"
    grep -q 'move the value' "$tmp/up" && bad "upgrade-check: a move claimed without evidence" || ok
    grep -q 'unknown: nosuchKey' "$tmp/up" && ok || bad "upgrade-check: unknown key"
    grep -q 'type: readReplicas.topologySpreadConstraints: you set an array; NEW expects object' "$tmp/up" && ok \
        || bad "upgrade-check: a value of the type NEW changed away from"
    grep -q 'default: image.tag' "$tmp/up" && bad "upgrade-check: a default the user sets reported" || ok
    grep -q 'default: primary.startupProbe.timeoutSeconds\|default: metrics.image.tag\|default: image.tag' "$tmp/up" || \
        grep -q '^default: ' "$tmp/up" && ok || bad "upgrade-check: no changed default reported"
    tail -n 1 "$tmp/up" | sed 's/^/  upgrade-check: /'
    "$SD" upgrade-check "$U/bitnami-postgresql-10.16.3" "$U/bitnami-postgresql-11.0.0" "$tmp/my.yaml" --output json >"$tmp/up.json" 2>/dev/null
    $PY -c 'import json,sys; d=json.load(open(sys.argv[1])); f=d["findings"]; assert len(f) > 5 and {x["finding"] for x in f} >= {"removed","unknown","default","type"} and [x for x in f if x.get("similar") == "auth.username"]' "$tmp/up.json" \
        && ok || bad "upgrade-check json"
    # values NEW's schema refuses
    printf 'architecture: 3\nauth:\n  enablePostgresUser: maybe\n' >"$tmp/bad.yaml"
    "$SD" upgrade-check "$U/bitnami-postgresql-10.16.3" "$U/bitnami-postgresql-11.0.0" "$tmp/bad.yaml" >"$tmp/up2" 2>&1; st=$?
    [ $st -eq 1 ] && grep -q 'invalid: architecture' "$tmp/up2" && grep -q 'invalid: auth.enablePostgresUser' "$tmp/up2" && ok || { bad "upgrade-check: invalid value (status $st)"; head "$tmp/up2"; }
    "$SD" upgrade-check "$U/bitnami-postgresql-10.16.3" "$U/bitnami-postgresql-11.0.0" "$tmp/none.yaml" >"$tmp/out" 2>&1; st=$?
    [ $st -eq 2 ] && ok || bad "upgrade-check: missing values file: status $st"
    # an unknown key: one finding, at the key where the unknown part starts,
    # with the closest key NEW has there
    printf 'primary:\n  persistance:\n    size: 1Gi\n    enabled: true\nauth:\n  usernam: x\n' >"$tmp/typo.yaml"
    "$SD" upgrade-check "$U/bitnami-postgresql-10.16.3" "$U/bitnami-postgresql-11.0.0" "$tmp/typo.yaml" >"$tmp/up4" 2>&1
    grep -q "typo.yaml:2:3: unknown: primary.persistance: not a key of NEW (nor of OLD); did you mean \`primary.persistence\`?" "$tmp/up4" \
        && ok || { bad "upgrade-check: unknown key at the key, with did-you-mean"; grep unknown "$tmp/up4"; }
    grep -q "typo.yaml:6:3: unknown: auth.usernam: .*did you mean \`auth.username\`" "$tmp/up4" && ok || bad "upgrade-check: auth.usernam"
    [ "$(grep -c ': unknown: ' "$tmp/up4")" = 2 ] && ok || bad "upgrade-check: the keys below an unknown one are not findings of their own"
    # what someone who sets nothing gets: new keys with a default that does
    # something, under their own heading; {limits: {}, requests: {}} -> {} is no change
    printf '{}\n' >"$tmp/empty.yaml"
    "$SD" upgrade-check "$U/bitnami-redis-17.17.1" "$U/bitnami-redis-18.19.4" "$tmp/empty.yaml" >"$tmp/up5" 2>&1
    grep -q '^new defaults you will get' "$tmp/up5" && grep -q '^new_default: networkPolicy.allowExternalEgress: new in NEW, defaults to true' "$tmp/up5" \
        && ok || { bad "upgrade-check: new defaults"; tail -5 "$tmp/up5"; }
    grep -q 'default: master.resources:' "$tmp/up5" && bad "upgrade-check: {limits: {}, requests: {}} -> {} listed" || ok
    grep -q 'metrics.podMonitor.interval' "$tmp/up5" && bad "upgrade-check: a new default under a map that is off by default" || ok
    grep -q 'new_default: .*readOnlyRootFilesystem\|new_default: .*podMonitor.enabled' "$tmp/up5" && bad "upgrade-check: a false default listed" || ok
    tail -n 1 "$tmp/up5" | sed 's/^/  upgrade-check redis, nothing set: /'
    # the chart's own upgrade notes: every one about values is in the check
    if $PY tests/upgrade_notes.py "$SD" "$U" "$CORPUS/charts" "$tmp" >"$tmp/notes" 2>&1; then ok; else bad "upgrade notes"; grep -v '^covered\|^not about' "$tmp/notes"; fi
    grep -v '^covered\|^figure' "$tmp/notes" | sed 's/^/  notes: /'
    grep '^figure' "$tmp/notes"
fi
# renames only on evidence: the table of real rename sentences and key pairs
# (tests/diff/renames.yaml), and the corpus pairs; the precision figure
if [ -d "$U" ] && $PY -c 'import yaml' 2>/dev/null; then
    if $PY tests/rename_cases.py "$SD" tests/diff/renames.yaml "$U" "$tmp" >"$tmp/rn" 2>&1; then ok; else bad "renames on evidence"; grep -v '^figure' "$tmp/rn" | head -30; fi
    grep '^figure' "$tmp/rn"
fi
# newly required keys (small schemas): region is required in NEW
printf 'name: x\ntimeoutSeconds: 10\n' >"$tmp/s.yaml"
"$SD" upgrade-check tests/diff/old.schema.json tests/diff/new.schema.json "$tmp/s.yaml" >"$tmp/up3" 2>&1; st=$?
[ $st -eq 1 ] && grep -q 'required: region' "$tmp/up3" && grep -q 'renamed: timeoutSeconds: renamed to server.wait' "$tmp/up3" \
    && ok || { bad "upgrade-check: newly required / hint rename (status $st)"; cat "$tmp/up3"; }
# a Kubernetes type that changes (docs/k8s.md): typed in OLD, untyped in
# NEW (and back) is a type change, as is another type; named by the type
"$SD" diff tests/diff/k8s-old.schema.json tests/diff/k8s-new.schema.json >"$tmp/k8s" 2>&1; st=$?
[ $st -eq 1 ] && grep -qF '| `resources` | type (ref) | `ResourceRequirements (core/v1)` | `object` |' "$tmp/k8s" \
    && grep -qF '| `tolerations[]` | type (ref) | `Toleration (core/v1)` | `Affinity (core/v1)` |' "$tmp/k8s" \
    && ok || { bad "diff: a Kubernetes type changed (status $st)"; cat "$tmp/k8s"; }
"$SD" diff tests/diff/k8s-new.schema.json tests/diff/k8s-old.schema.json --format json >"$tmp/k8s.json" 2>&1
$PY -c 'import json,sys; d=json.load(open(sys.argv[1])); c=[x for x in d["changes"] if x["path"]=="resources"]; sys.exit(0 if len(c)==1 and c[0]["change"]=="type" and c[0]["to"]=="def-io.k8s.api.core.v1.ResourceRequirements" else 1)' "$tmp/k8s.json" \
    && ok || { bad "diff: untyped to a Kubernetes type (json)"; cat "$tmp/k8s.json"; }

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
