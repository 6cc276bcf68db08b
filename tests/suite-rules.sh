#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/suite-rules.sh - `schemadoc rules` (the C export, docs/rules.md):
# entry names per kind of source, well-formed and deterministic JSON, the
# message catalogue complete, sizes no larger than the schema, failures
# that write nothing. The JavaScript side is tests/suite-rules-js.sh.
set -u
cd "$(dirname "$0")/.." || exit 2
SD=${SD:-./schemadoc}
CORPUS=${CORPUS:-../shared/corpus}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }

# rules SOURCE -> $tmp/out.json; expect status and entry names (python3 reads the JSON)
check_entries() { # SOURCE EXPECTED-ENTRIES...
    src=$1; shift
    "$SD" rules "$src" -o "$tmp/out.json" 2>"$tmp/err"; st=$?
    [ $st -eq 0 ] || { bad "rules $src: status $st"; cat "$tmp/err"; return; }
    got=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["rules"]==1; print(" ".join(d["entries"]))' "$tmp/out.json") \
        || { bad "rules $src: not a rules document"; return; }
    [ "$got" = "$*" ] && ok || bad "rules $src: entries '$got', expected '$*'"
}
check_entries samples/schema/pet.schema.json schema
check_entries samples/podinfo values
check_entries tests/rules/chart values charts/redis charts/db
check_entries samples/crd/widgets.example.com.yaml example.com/v1 example.com/v1beta1
check_entries samples/ytt/schema.yml values

# subchart entries carry the subchart's defaults; the CRD names its fallback
"$SD" rules tests/rules/chart -o "$tmp/chart.json" 2>/dev/null
python3 - "$tmp/chart.json" <<'EOF' && ok || bad "chart entry fields"
import json, sys
d = json.load(open(sys.argv[1]))
e = d["entries"]["charts/redis"]
assert e["alias"] == "redis" and e["defaults"] == {"maxmemory": "32mb", "policy": "allkeys-lru"}, e
assert d["entries"]["values"]["draft"] == 7 and d["entries"]["charts/db"]["draft"] == 2019
n = len(d["records"])
for r in d["records"]:
    for k in ("alias", "ref", "items", "not", "if", "then", "else", "contains", "additionalProperties"):
        assert k not in r or 0 <= r[k] < n, (k, r)
    assert 0 <= r["ptr"] < len(d["paths"]) and 0 <= r["at"][0] < len(d["files"])
EOF
"$SD" rules samples/crd/widgets.example.com.yaml -o "$tmp/crd.json" 2>/dev/null
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["fallback"]=="example.com/v1" and d["kind"]=="crd"' "$tmp/crd.json" \
    && ok || bad "CRD fallback"

# deterministic: the same bytes twice
for src in "$CORPUS/charts/traefik" "$CORPUS/crds/monitoring.coreos.com_prometheuses.yaml" tests/rules/chart; do
    "$SD" rules "$src" -o "$tmp/a.json" 2>/dev/null && "$SD" rules "$src" -o "$tmp/b.json" 2>/dev/null \
        && cmp -s "$tmp/a.json" "$tmp/b.json" && ok || bad "rules $src is not deterministic"
done

# no larger than the schema it came from
for pair in "$CORPUS/charts/traefik:$CORPUS/charts/traefik/values.schema.json" \
            "$CORPUS/crds/monitoring.coreos.com_prometheuses.yaml:$CORPUS/crds/monitoring.coreos.com_prometheuses.yaml" \
            "$CORPUS/charts/jupyterhub:$CORPUS/charts/jupyterhub/values.schema.yaml"; do
    src=${pair%%:*} schema=${pair#*:}
    if "$SD" rules "$src" -o "$tmp/s.json" 2>/dev/null; then
        a=$(wc -c <"$tmp/s.json") b=$(wc -c <"$schema")
        echo "figure: rules size $(basename "$src"): $a bytes (schema $b bytes)"
        [ "$a" -le "$b" ] && ok || bad "rules of $src: $a bytes, larger than the schema ($b)"
    else
        bad "rules $src failed"
    fi
done

# every message of vmsg.h is in the exported catalogue, and the validator's walk
# (validate.c and its families of checks, the files that include vwalk.h)
# writes no message of its own
defs=$(grep -c '^#define SD_MSG_' src/validate/vmsg.h)
"$SD" rules samples/schema/pet.schema.json -o "$tmp/pet.json" 2>/dev/null
cat_n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["messages"]))' "$tmp/pet.json")
[ "$defs" -gt 40 ] && [ "$defs" = "$cat_n" ] && ok || bad "catalogue: $defs messages defined, $cat_n exported"
walk=$(grep -l '^#include "vwalk.h"' src/validate/*.c)
[ "$(echo "$walk" | wc -l)" -ge 9 ] && ok || bad "the walk's files: only $(echo "$walk" | wc -l) include vwalk.h"
# shellcheck disable=SC2086
if grep -nE 'sd_vwalk__(err|warn|fatal)\(.*"[a-z][^"]* [^"]*"' $walk | grep -v '"out of memory"'; then
    bad "the validator's walk has a message literal outside vmsg.h"
else
    ok
fi

# failures: status 2, nothing written
printf '{"type": "object", "pattern": "("}' >"$tmp/badre.json"
for args in "$tmp/missing.json" "$tmp/badre.json" "--bogus x"; do
    rm -f "$tmp/none.json"
    # shellcheck disable=SC2086
    "$SD" rules $args -o "$tmp/none.json" 2>"$tmp/err"; st=$?
    [ $st -eq 2 ] && [ ! -e "$tmp/none.json" ] && [ -s "$tmp/err" ] && ok || bad "rules $args: status $st or output left behind"
done
"$SD" rules 2>/dev/null; [ $? -eq 2 ] && ok || bad "rules without SOURCE"

# the JSON-Schema-Test-Suite groups with remote refs, from the command line
# with the suite's remotes mapped: an embedded $id under the mapped prefix is
# the schema's own resource, never a file under the map's target
if [ -d "$CORPUS/jsonschema-test-suite" ]; then
    if python3 tests/suite_remote_refs.py "$SD" "$CORPUS" "$tmp" >"$tmp/remote" 2>&1; then ok; else bad "remote refs through --map"; fi
    grep -v '^count:' "$tmp/remote" | head -20
    grep '^count:' "$tmp/remote"
else
    echo "SKIPPED: no JSON-Schema-Test-Suite in $CORPUS"
fi

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
