#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/suite-k8s.sh - Kubernetes types for chart values (issue 43,
# docs/k8s.md): the committed definitions (src/k8s/k8s_types.json) are what
# src/k8s/gen-types.py makes from the corpus copy of the API schema;
# quantities and IntOrString; the typed keys and their findings (the
# spoils); 0 new findings on every corpus chart's values and CI files.
# Without ../shared the corpus checks are skipped (under CI=true, where the
# corpus exists, that is a failure). Prints "N passed, N failed" last.
set -u
cd "$(dirname "$0")/.." || exit 2
ROOT=$PWD
SD=${SD:-$ROOT/schemadoc}
CORPUS=${CORPUS:-../shared/corpus}
K=tests/k8s
export NO_COLOR=1
passed=0 failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok()   { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
has()  { # NAME FILE TEXT: FILE contains TEXT (fixed string)
    if grep -qF -- "$3" "$2"; then ok; else fail "$1: no '$3' in $2"; head -20 "$2"; fi
}
status() { # NAME EXPECTED ACTUAL
    if [ "$2" = "$3" ]; then ok; else fail "$1: exit status $3, expected $2"; fi
}
count() { # NAME EXPECTED FILE PATTERN: FILE has EXPECTED lines matching PATTERN
    n=$(grep -c -- "$4" "$3")
    if [ "$n" = "$2" ]; then ok; else fail "$1: $n lines with '$4', expected $2"; grep -- "$4" "$3" | head -5; fi
}

# --- the committed subset is current -----------------------------------------
if [ -f "$CORPUS/kubernetes/swagger.json" ] && command -v python3 >/dev/null 2>&1; then
    if python3 src/k8s/gen-types.py "$CORPUS/kubernetes/swagger.json" >"$tmp/types.json" &&
        cmp -s "$tmp/types.json" src/k8s/k8s_types.json; then
        ok
    else
        fail "src/k8s/k8s_types.json is stale: run python3 src/k8s/gen-types.py $CORPUS/kubernetes/swagger.json > src/k8s/k8s_types.json"
    fi
    echo "k8s types: $(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["definitions"]))' src/k8s/k8s_types.json) definitions, $(wc -c < src/k8s/k8s_types.json) bytes of JSON embedded"
elif [ "${CI:-}" = true ]; then
    fail "no $CORPUS/kubernetes/swagger.json (or no python3) under CI=true"
else
    echo "SKIPPED: the staleness check of src/k8s/k8s_types.json (no $CORPUS/kubernetes/swagger.json or no python3)"
fi

# --- the spoils (tests/k8s/spoils): each found once, at the user's line ------
S=$K/spoils
"$SD" validate $S $S/spoiled.yaml >"$tmp/out" 2>"$tmp/err"
status "spoils: invalid" 1 $?
count "spoils: affinity.nodeAfinity, once" 1 "$tmp/err" "nodeAfinity"
has "spoils: affinity.nodeAfinity, a warning with did-you-mean and the evidence" "$tmp/err" \
    "spoiled.yaml:2:3: warning: affinity.nodeAfinity: unknown field \`nodeAfinity\` of Affinity (core/v1): the Kubernetes API server drops it; did you mean \`nodeAffinity\`? [typed by an @schema annotation naming Affinity (core/v1) ($S/values.yaml:12)]"
count "spoils: resources.limits.cpu, once" 1 "$tmp/err" "resources.limits.cpu"
has "spoils: resources.limits.cpu \"half\"" "$tmp/err" \
    "spoiled.yaml:6:10: error: resources.limits.cpu: the Kubernetes API server rejects this at install: found string \"half\", expected a Kubernetes quantity such as 500m, 2 or 1Gi [ResourceRequirements (core/v1); typed by the templates: templates/deployment.yaml:16 hands it to Deployment spec.template.spec.containers[].resources]"
count "spoils: tolerations[0].operator, once" 1 "$tmp/err" "tolerations\[0\].operator"
has "spoils: tolerations[0].operator: Equals" "$tmp/err" \
    "spoiled.yaml:9:15: error: tolerations[0].operator: the Kubernetes API server rejects this at install: found string \"Equals\", expected one of \"Equal\", \"Exists\", \"Lt\", \"Gt\""
count "spoils: livenessProbe.httpGet.port \"http-port\" is a valid IntOrString" 0 "$tmp/err" "livenessProbe"
count "spoils: securityContext.runAsUser, once" 1 "$tmp/err" "securityContext.runAsUser"
has "spoils: securityContext.runAsUser: \"1000\"" "$tmp/err" \
    "spoiled.yaml:15:14: error: securityContext.runAsUser: the Kubernetes API server rejects this at install: found string \"1000\", expected integer [SecurityContext (core/v1); typed by the templates: templates/deployment.yaml:18 hands it to Deployment spec.template.spec.containers[].securityContext]"
has "spoils: a \$ref to _definitions.json in @schema types a list" "$tmp/err" \
    "spoiled.yaml:17:13: error: extraTolerations[0].effect: the Kubernetes API server rejects this at install"
count "spoils: \`k8s: off\` leaves readinessProbe free" 0 "$tmp/err" "readinessProbe"
"$SD" validate $S >"$tmp/out" 2>"$tmp/err"
status "spoils: the chart's own values are valid" 0 $?
# switched off, the spoils pass unseen (the schema leaves the keys open)
"$SD" validate --k8s-types off $S $S/spoiled.yaml >"$tmp/out" 2>"$tmp/err"
status "spoils, --k8s-types off: nothing found" 0 $?
count "spoils, --k8s-types off: no Kubernetes finding" 0 "$tmp/err" "Kubernetes\|unknown field"
"$SD" validate --k8s-types maybe $S >"$tmp/out" 2>"$tmp/err"
status "--k8s-types maybe: a usage error" 2 $?

# --- the made schema: $refs to bundled $defs in schemadoc's own mode only ---
mkdir "$tmp/noschema" && cp $S/Chart.yaml $S/values.yaml $S/spoiled.yaml "$tmp/noschema/"
"$SD" schema "$tmp/noschema" -o "$tmp/made.json" 2>"$tmp/err"
status "made schema: written" 0 $?
has "made schema: resources is a \$ref to its bundled type" "$tmp/made.json" '"$ref": "#/$defs/io.k8s.api.core.v1.ResourceRequirements"'
has "made schema: the closure is bundled" "$tmp/made.json" '"io.k8s.api.core.v1.NodeSelectorRequirement": {'
has "made schema: a quantity by its pattern" "$tmp/made.json" "\"pattern\": \"^[+-]?(?:[0-9]+"
count "made schema: no warning for the k8s part" 0 "$tmp/err" "k8s"
for like in helm-values-schema-json helm-schema; do
    "$SD" schema --like $like "$tmp/noschema" -o "$tmp/like.json" 2>/dev/null
    count "made schema, --like $like: no Kubernetes type" 0 "$tmp/like.json" 'io.k8s.api.core.v1.ResourceRequirements'
done
"$SD" schema --k8s-types off "$tmp/noschema" -o "$tmp/off.json" 2>/dev/null
count "made schema, --k8s-types off: no Kubernetes type" 0 "$tmp/off.json" '\$defs'
# validate on a chart without a schema: the spoils found the same way
# (the made schema leaves typed keys open for the layer: "http-port" is no
# `integer` because the default was 80, and nothing is fetched for the
# annotation's $ref)
"$SD" validate "$tmp/noschema" "$tmp/noschema/spoiled.yaml" >"$tmp/out" 2>"$tmp/err"
status "no schema: spoils invalid" 1 $?
count "no schema: resources.limits.cpu \"half\" once" 1 "$tmp/err" "resources.limits.cpu: the Kubernetes API server rejects this"
count "no schema: tolerations[0].operator once" 1 "$tmp/err" "tolerations\[0\].operator: the Kubernetes API server rejects this"
count "no schema: securityContext.runAsUser once" 1 "$tmp/err" "securityContext.runAsUser: .*found string \"1000\", expected integer"
count "no schema: affinity.nodeAfinity once" 1 "$tmp/err" "affinity.nodeAfinity: unknown field"
count "no schema: http-port passes" 0 "$tmp/err" "livenessProbe"

# --- the pages: a key of a Kubernetes type links to the API reference -------
mkdir "$tmp/shipped" && cp $S/Chart.yaml $S/values.yaml "$tmp/shipped/" && cp "$tmp/made.json" "$tmp/shipped/values.schema.json"
"$SD" "$tmp/shipped" --format html -o "$tmp/page.html" 2>/dev/null
status "page: written" 0 $?
has "page: resources is ResourceRequirements (core/v1), linked" "$tmp/page.html" \
    '<a class="type" href="https://kubernetes.io/docs/reference/generated/kubernetes-api/v1.36/#resourcerequirements-v1-core" title="the Kubernetes API reference">ResourceRequirements (core/v1)</a>'
"$SD" "$tmp/shipped" --format md -o "$tmp/page.md" 2>/dev/null
has "md page: the type linked" "$tmp/page.md" '[NodeAffinity (core/v1)](https://kubernetes.io/docs/reference/generated/kubernetes-api/v1.36/#nodeaffinity-v1-core)'

# a chart without a schema: its typed keys show their type too
"$SD" "$tmp/noschema" --format html -o "$tmp/noschema.html" 2>/dev/null
has "page without a schema: the type linked" "$tmp/noschema.html" \
    '<a class="type" href="https://kubernetes.io/docs/reference/generated/kubernetes-api/v1.36/#toleration-v1-core" title="the Kubernetes API reference">Toleration (core/v1)</a>'

# --- precision: 0 new findings on the corpus charts' own values, every ci/
# file and the schema generators' fixtures (types on against types off) -----
RUN=${SD_REL:-$SD}
[ -x "$RUN" ] || RUN=$SD
MAPS="--map https://raw.githubusercontent.com/yannh/kubernetes-json-schema/master/master-standalone-strict/=$CORPUS/kubernetes/ --map https://raw.githubusercontent.com/=$CORPUS/charts/_remote/raw.githubusercontent.com/"
newfindings() { # LABEL ARGS...: compare the findings with types on and off
    label=$1; shift
    "$RUN" validate $MAPS --offline --cache-dir "$tmp/cache" "$@" >/dev/null 2>"$tmp/on"
    "$RUN" validate $MAPS --offline --cache-dir "$tmp/cache" --k8s-types off "$@" >/dev/null 2>"$tmp/off"
    n=$(grep -c "error:\|warning:" "$tmp/on"); m=$(grep -c "error:\|warning:" "$tmp/off")
    if [ "$n" -gt "$m" ] || ! cmp -s "$tmp/on" "$tmp/off"; then
        fail "$label: new findings with Kubernetes types"; diff "$tmp/off" "$tmp/on" | head -10
        return 1
    fi
    return 0
}
if [ -d "$CORPUS/charts" ]; then
    files=0 bad=0
    for c in "$CORPUS"/charts/*/; do
        c=${c%/}
        [ -f "$c/Chart.yaml" ] || continue
        newfindings "$(basename "$c")/values.yaml" "$c" || bad=$((bad + 1))
        files=$((files + 1))
        for f in "$c"/ci/*.yaml "$c"/test-chart-ci/*.yaml; do
            [ -f "$f" ] || continue
            newfindings "$f" "$c" "$f" || bad=$((bad + 1))
            files=$((files + 1))
        done
    done
    [ $bad -eq 0 ] && ok
    echo "k8s precision: corpus charts: $bad of $files values and CI files with new findings"
    if [ -d "$CORPUS/schema-gen" ]; then
        files=0 bad=0
        for f in $(find "$CORPUS/schema-gen" -name '*.yaml' | LC_ALL=C sort); do
            d="$tmp/sg"; rm -rf "$d"; mkdir "$d"
            printf 'apiVersion: v2\nname: fixture\nversion: 0.1.0\n' >"$d/Chart.yaml"
            cp "$f" "$d/values.yaml"
            # a fixture that is no values file (not a map) is not one to check
            "$RUN" validate --k8s-types off "$d" >/dev/null 2>&1; [ $? -eq 2 ] && continue
            newfindings "$f" "$d" || bad=$((bad + 1))
            files=$((files + 1))
        done
        [ $bad -eq 0 ] && ok
        echo "k8s precision: schema-gen fixtures: $bad of $files with new findings"
    fi
elif [ "${CI:-}" = true ]; then
    fail "no $CORPUS/charts under CI=true"
else
    echo "SKIPPED: the corpus precision check (no $CORPUS/charts)"
fi

# --- the page names the bundled types as such, from any directory -----------
if [ -d "$CORPUS/charts/kube-prometheus-stack" ]; then
    C=$(cd "$CORPUS/charts/kube-prometheus-stack" && pwd)
    "$RUN" "$C" --format html -o "$tmp/a.html" 2>/dev/null
    (cd "$tmp" && "$RUN" "$C" --format html -o "$tmp/b.html" 2>/dev/null)
    if cmp -s "$tmp/a.html" "$tmp/b.html"; then ok; else fail "the page depends on the working directory"; fi
    count "the types' source named as it is, no ../ before it" 0 "$tmp/a.html" "/(Kubernetes"
    if grep -q "<code>(Kubernetes 1.36 types)</code>" "$tmp/a.html"; then ok; else fail "no (Kubernetes 1.36 types) source on the page"; fi
fi

# --- with the templates' evidence (places.c) --------------------------------
# The corpus charts ship no templates/; tests/k8s-places/CHART/templates
# are fixtures after the upstream ones. Each corpus chart with its fixture:
# its values.yaml and CI files get no new finding but one, which is the
# API server's (jupyterhub's CI names a Service targetPort
# "string-named-target-port": a port name is at most 15 characters,
# validation.IsValidPortName, so the install is refused). Bitnami's
# `omit .Values.livenessProbe "enabled"` and template text rendered by
# common.tplvalues.render are no findings. Then the spoils, typed by the
# templates alone (grafana has no schema: no explicit evidence).
if [ -d "$CORPUS/charts" ] && [ -d tests/k8s-places ]; then
    files=0 bad=0 known=0
    for d in tests/k8s-places/*/; do
        ch=$(basename "$d")
        [ -d "$d/templates" ] && [ -d "$CORPUS/charts/$ch" ] || continue
        mkdir -p "$tmp/tc"
        cp -r "$CORPUS/charts/$ch" "$tmp/tc/$ch" && rm -rf "$tmp/tc/$ch/templates" && cp -r "$d/templates" "$tmp/tc/$ch/templates"
        for f in "$tmp/tc/$ch/values.yaml" "$tmp/tc/$ch"/ci/*.yaml; do
            [ -f "$f" ] || continue
            files=$((files + 1))
            if [ "$ch/$(basename "$f")" = jupyterhub/lint-and-validate-values.yaml ]; then
                "$RUN" validate $MAPS "$tmp/tc/$ch" "$f" >/dev/null 2>"$tmp/on"
                count "jupyterhub's over-long port name is the one finding" 1 "$tmp/on" "extraPorts\[1\].targetPort: the Kubernetes API server rejects this at install: .*port name of at most 15 characters"
                count "and nothing else is new" 1 "$tmp/on" "error:\|warning:"
                known=$((known + 1))
                continue
            fi
            newfindings "$ch/$(basename "$f") (templates)" "$tmp/tc/$ch" "$f" || bad=$((bad + 1))
        done
    done
    [ $files -ge 40 ] && ok || fail "only $files values files with template fixtures"
    [ $bad -eq 0 ] && ok
    echo "figure: k8s precision with the templates' evidence: $bad of $files files with new findings ($known with the API server's own refusal)"
    printf 'affinity:\n  nodeAfinity: {}\nresources:\n  limits:\n    cpu: half\ntolerations:\n- operator: Equals\nlivenessProbe:\n  httpGet:\n    port: http-port\n    path: /\nsidecar:\n  securityContext:\n    runAsUser: "1000"\n' >"$tmp/spoil.yaml"
    "$RUN" validate $MAPS "$tmp/tc/grafana" "$tmp/spoil.yaml" >/dev/null 2>"$tmp/on"
    status "spoils typed by the templates: invalid" 1 $?
    count "nodeAfinity, typed by the templates" 1 "$tmp/on" "spoil.yaml:2:3: warning: affinity.nodeAfinity: .*did you mean .nodeAffinity.*typed by the templates: templates/_pod.tpl"
    count "cpu: half" 1 "$tmp/on" "spoil.yaml:5:10: error: resources.limits.cpu: .*quantity"
    count "operator: Equals" 1 "$tmp/on" "spoil.yaml:7:13: error: tolerations\[0\].operator"
    count "runAsUser: a string" 1 "$tmp/on" "spoil.yaml:14:16: error: sidecar.securityContext.runAsUser"
    count "http-port is a port name" 0 "$tmp/on" "httpGet.port"
    "$RUN" validate $MAPS --k8s-types off "$tmp/tc/grafana" "$tmp/spoil.yaml" >/dev/null 2>"$tmp/off"
    count "switched off: no finding of a type" 0 "$tmp/off" "Kubernetes\|did you mean .nodeAffinity"
elif [ "${CI:-}" = true ]; then
    fail "no $CORPUS/charts or tests/k8s-places under CI=true"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
