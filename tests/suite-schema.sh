#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/suite-schema.sh - the schema from what chart authors write (issue
# 35): keys commented out in values.yaml are known keys; `schemadoc schema`
# against both schema generators' own test data (tests/schema/
# conformance.py); traefik's schema made again from its annotations; every
# corpus chart without its schema: its own values.yaml and ci/ files valid
# against the schema made for it (and, as a property, every fixture and
# every file of the tools' test data: tests/schema/accepts.py), and its
# pages losing nothing
# (tests/schema/pages.py); every command (validate, the pages, the form,
# rules, diff, upgrade-check) on an annotated chart without a schema uses
# the schema made for it and notes it once; the schema command's options in
# --help, the completions and did-you-mean; --check. Fixtures:
# tests/schema/<case>/.
# Prints "N passed, N failed" last.
set -u
cd "$(dirname "$0")/.." || exit 2
ROOT=$PWD
SD=${SD:-$ROOT/schemadoc}
CORPUS=${CORPUS:-../shared/corpus}
MAPS="--map https://raw.githubusercontent.com/yannh/kubernetes-json-schema/master/master-standalone-strict/=$CORPUS/kubernetes/ --map https://raw.githubusercontent.com/=$CORPUS/charts/_remote/raw.githubusercontent.com/"
S=tests/schema
export NO_COLOR=1
passed=0 failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok()   { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
has()  { # NAME FILE TEXT: FILE contains TEXT (fixed string)
    if grep -qF -- "$3" "$2"; then ok; else fail "$1: no '$3' in $2"; head -20 "$2"; fi
}
hasnt() { # NAME FILE TEXT: FILE does not contain TEXT
    if grep -qF -- "$3" "$2"; then fail "$1: '$3' in $2"; grep -nF -- "$3" "$2" | head -5; else ok; fi
}
status() { # NAME EXPECTED ACTUAL
    if [ "$2" = "$3" ]; then ok; else fail "$1: exit status $3, expected $2"; fi
}
count() { # NAME EXPECTED FILE PATTERN: FILE has EXPECTED lines matching PATTERN
    n=$(grep -c -- "$4" "$3")
    if [ "$n" = "$2" ]; then ok; else fail "$1: $n lines with '$4', expected $2"; grep -- "$4" "$3" | head -5; fi
}

# --- keys commented out in values.yaml are known keys (the lint) -----------
C=$S/commented
"$SD" validate $C $C/uses.yaml --strict >"$tmp/out" 2>"$tmp/err"
status "commented keys, --strict: nothing unknown" 0 $?
count "commented keys: no unknown key" 0 "$tmp/err" "unknown key"
"$SD" validate $C $C/typo.yaml >"$tmp/out" 2>"$tmp/err"
status "a typo of a commented key: a warning" 0 $?
count "a typo of a commented key: one finding" 1 "$tmp/err" "unknown key"
has "a typo of a commented key: did you mean the commented key" "$tmp/err" \
    "typo.yaml:2:3: warning: podDisruptionBudget.minAvailabe: unknown key \`minAvailabe\`: neither values.yaml nor its comments know it; did you mean \`podDisruptionBudget.minAvailable\`?"
"$SD" validate $C $C/typo.yaml --strict >"$tmp/out" 2>"$tmp/err"
status "a typo of a commented key, --strict: an error" 1 $?
# the same with a schema that does not list the commented keys
mkdir "$tmp/with-schema" && cp $C/Chart.yaml $C/values.yaml "$tmp/with-schema/"
printf '%s\n' '{"type": "object", "properties": {"podDisruptionBudget": {"type": "object",' \
    '"properties": {"enabled": {"type": "boolean"}}}}}' >"$tmp/with-schema/values.schema.json"
"$SD" validate "$tmp/with-schema" $C/uses.yaml --strict >"$tmp/out" 2>"$tmp/err"
status "commented keys beside a schema, --strict" 0 $?
count "commented keys beside a schema: no unknown key" 0 "$tmp/err" "unknown key"
"$SD" validate "$tmp/with-schema" $C/typo.yaml >"$tmp/out" 2>"$tmp/err"
has "a typo beside a schema: did you mean the commented key" "$tmp/err" \
    "did you mean \`podDisruptionBudget.minAvailable\`?"
# below a commented-out example nothing is judged: it shows one way, not every way
printf 'deployment:\n  lifecycle:\n    preStop:\n      httpGet: {path: /x}\n' >"$tmp/other-hook.yaml"
"$SD" validate $C "$tmp/other-hook.yaml" --strict >"$tmp/out" 2>"$tmp/err"
status "below a commented example: not judged" 0 $?

# --- both tools' own test data ------------------------------------------------
mkdir "$tmp/conf"
python3 tests/schema/conformance.py "$SD" "$CORPUS/schema-gen" "$tmp/conf" >"$tmp/conf.out" 2>&1; st=$?
grep -E '^(count|skip|note|figure):' "$tmp/conf.out"
status "conformance with helm-values-schema-json and helm-schema" 0 $st
[ $st -ne 0 ] && grep '^FAIL' "$tmp/conf.out" | head -20
n=$(sed -n 's/^\([0-9]*\) passed.*/\1/p' "$tmp/conf.out")
[ "${n:-0}" -ge 76 ] && ok || fail "conformance: only ${n:-0} checks ran (expected 76)"

# --- bundling (issue 39 section 4): the flags, and the chart's confinement --
B=$tmp/bundle && mkdir "$B" && cp -r "$CORPUS/schema-gen/losisin/testdata/bundle/." "$B/"
"$SD" schema "$B/simple.yaml" --like helm-values-schema-json --bundle >"$tmp/b.json" 2>"$tmp/err" \
    && cmp -s "$tmp/b.json" "$B/simple.schema.json" && ok || fail "--bundle: not the tool's bundle/simple.schema.json"
"$SD" schema "$B/simple.yaml" --like helm-values-schema-json --bundle-without-id >"$tmp/b.json" 2>"$tmp/err" \
    && cmp -s "$tmp/b.json" "$B/simple-without-id.schema.json" && ok || fail "--bundle-without-id: not the tool's file"
"$SD" schema --help >"$tmp/help" 2>&1
has "--bundle in schema --help" "$tmp/help" "--bundle-without-id"
# a bundled file's `$k8s` aliases are expanded as the values' own (the
# tool's k8s-alias case: "k8s aliases in external schemas are expanded
# during bundling"); without k8sSchemaVersion a warning at the annotation
printf 'values: [k8s-alias.yaml]\nbundle: true\nk8sSchemaVersion: v1.33.1\n' >"$B/.schema.yaml"
"$SD" schema --config "$B/.schema.yaml" --like helm-values-schema-json >"$tmp/b.json" 2>"$tmp/err"
has "bundled \$k8s alias: expanded" "$tmp/b.json" '"$ref": "https://raw.githubusercontent.com/yannh/kubernetes-json-schema/master/v1.33.1/_definitions.json#/definitions/io.k8s.api.core.v1.Probe"'
printf 'values: [k8s-alias.yaml]\nbundle: true\n' >"$B/.schema.yaml"
"$SD" schema --config "$B/.schema.yaml" --like helm-values-schema-json >"$tmp/b.json" 2>"$tmp/err"
has "bundled \$k8s alias without a version: said at the annotation" "$tmp/err" "k8s-alias.yaml:1:29: warning: \`\$ref: \$k8s/_definitions.json"
rm "$B/.schema.yaml"
# main/config of the tool's test data: its settings (bundle, bundleWithoutID,
# schemaRoot.ref ../bundle/...) on a values file the corpus does not have:
# all but `properties` is the tool's (the ref's file copied beside it: the
# chart's confinement refuses ../bundle)
MC=$tmp/mainconfig && mkdir "$MC"
sed 's#ref: \.\./bundle/#ref: ./#' "$CORPUS/schema-gen/losisin/testdata/main/config.yaml" >"$MC/.schema.yaml"
cp "$B/simple-subschema.schema.json" "$MC/"
"$SD" schema --config "$MC/.schema.yaml" --like helm-values-schema-json -o "$tmp/mc.json" 2>"$tmp/err"
python3 -c 'import json,sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
for x in (a, b): x.pop("properties", None)
sys.exit(0 if a == b and list(a) == list(b) else 1)' "$tmp/mc.json" "$CORPUS/schema-gen/losisin/testdata/main/values.schema.json" \
    && ok || fail "main/config: the bundled root is not the tool's"
# a bundled $ref out of the chart, or through a link out of it: refused, nothing written
BC=$tmp/bundle-chart && mkdir "$BC" && echo '{"type": "string"}' >"$tmp/outside.json"
printf 'apiVersion: v2\nname: c\nversion: 1.0.0\n' >"$BC/Chart.yaml"
printf 'bundle: true\n' >"$BC/.schema.yaml"
printf 'a: x # @schema $ref: ../outside.json\n' >"$BC/values.yaml"
"$SD" schema "$BC" --like helm-values-schema-json >"$tmp/out" 2>"$tmp/err"
status "bundling a \$ref out of the chart: refused" 2 $?
has "bundling out of the chart: said where" "$tmp/err" "values.yaml:1:16: error: \$ref '../outside.json'"
hasnt "bundling out of the chart: nothing of it read" "$tmp/out" '"string"'
ln -s ../outside.json "$BC/link.json"
printf 'a: x # @schema $ref: ./link.json\n' >"$BC/values.yaml"
"$SD" schema "$BC" --like helm-values-schema-json >"$tmp/out" 2>"$tmp/err"
status "bundling through a link out of the chart: refused" 2 $?
has "bundling through a link: said so" "$tmp/err" "through a symbolic link"
printf 'a: x # @schema $ref: ./missing.json\n' >"$BC/values.yaml"
"$SD" schema "$BC" --like helm-values-schema-json >"$tmp/out" 2>"$tmp/err"
status "bundling a missing file: an error" 2 $?
has "bundling a missing file: said where" "$tmp/err" "values.yaml:1:16: error: \$ref './missing.json'"

# --- traefik: the schema its annotations make is the one it ships -----------
# The chart's project keeps its helm-values-schema-json settings at the
# repository's root (traefik/traefik-helm-chart .schema.yaml: draft 2020,
# indent 4, useHelmDocs, schemaRoot id, title, description: its shipped
# schema has the `# --` descriptions, which the tool writes only with
# useHelmDocs); the corpus has the chart
# folder only, so they are written beside it here (additionalProperties as
# the shipped schema has it).
T=$tmp/traefik
cp -r "$CORPUS/charts/traefik" "$T" && rm "$T/values.schema.json"
cat > "$T/.schema.yaml" <<EOF
values:
  - values.yaml
draft: 2020
indent: 4
useHelmDocs: true
schemaRoot:
  id: https://traefik.io/traefik-helm-chart.schema.json
  title: Traefik Proxy Helm Chart
  description: The Cloud Native Application Proxy
  additionalProperties: false
EOF
"$SD" schema "$T" -o "$tmp/traefik.json" 2>"$tmp/err"
status "traefik schema" 0 $?
python3 -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1])) == json.load(open(sys.argv[2])) else 1)' \
    "$tmp/traefik.json" "$CORPUS/charts/traefik/values.schema.json" && ok || fail "traefik: not equal to the shipped schema as JSON"
"$SD" schema "$T" --like helm-values-schema-json -o "$tmp/traefik-like.json" 2>"$tmp/err" \
    && cmp -s "$tmp/traefik-like.json" "$CORPUS/charts/traefik/values.schema.json" \
    && ok || fail "traefik --like helm-values-schema-json: not byte for byte the shipped schema"
n=$(python3 -c 'import json,sys
def count(x):
    return sum(1 + count(v) for v in x.values()) if isinstance(x, dict) else sum(map(count, x)) if isinstance(x, list) else 0
print(count(json.load(open(sys.argv[1]))))' "$CORPUS/charts/traefik/values.schema.json")
echo "figure: traefik: the schema made again equals the shipped one, $n keywords and keys compared"
"$SD" schema "$T" --like helm-values-schema-json --check -o "$CORPUS/charts/traefik/values.schema.json" >"$tmp/out" 2>&1
status "traefik --check --like against the shipped schema: up to date" 0 $?
# helm-docs descriptions under --like helm-values-schema-json: only with
# useHelmDocs or --use-helm-docs, as the tool (issue 39)
sed -i '/^useHelmDocs/d' "$T/.schema.yaml"
"$SD" schema "$T" --like helm-values-schema-json -o "$tmp/tr-nodocs.json" 2>"$tmp/err"
hasnt "traefik --like, no useHelmDocs: no helm-docs description" "$tmp/tr-nodocs.json" '"description": "Number of old history to retain to allow rollback'
"$SD" schema "$T" --like helm-values-schema-json --use-helm-docs -o "$tmp/tr-docs.json" 2>"$tmp/err"
cmp -s "$tmp/tr-docs.json" "$CORPUS/charts/traefik/values.schema.json" && ok || fail "traefik --like --use-helm-docs: not the shipped schema"
"$SD" schema "$T" -o "$tmp/tr-native.json" 2>"$tmp/err"
has "traefik without --like: helm-docs descriptions read (schemadoc's reading)" "$tmp/tr-native.json" '"description": "Number of old history'
echo 'useHelmDocs: true' >>"$T/.schema.yaml"
# its pages with the schema made from its annotations lose nothing
for f in json md html; do
    "$SD" "$CORPUS/charts/traefik" --format $f -o "$tmp/tr-a.$f" 2>/dev/null
    "$SD" "$T" --format $f -o "$tmp/tr-b.$f" 2>/dev/null
    python3 tests/schema/pages.py "$tmp/tr-a.$f" "$tmp/tr-b.$f" >"$tmp/lost" && ok || { fail "traefik $f page lost something"; tail -5 "$tmp/lost"; }
done

# --- every corpus chart without its schema ------------------------------------
charts=0
for c in "$CORPUS"/charts/*/; do
    [ -f "$c/Chart.yaml" ] || continue
    cn=$(basename "$c")
    charts=$((charts + 1))
    cp -r "$c" "$tmp/c-$cn" && rm -f "$tmp/c-$cn"/values.schema.json "$tmp/c-$cn"/values.schema.yaml
    # the chart's own values.yaml and every ci/ file: valid
    if [ -d "$tmp/c-$cn/ci" ]; then
        "$SD" validate "$tmp/c-$cn" "$tmp/c-$cn"/ci/* --each $MAPS >"$tmp/out" 2>"$tmp/err"; st=$?
    else
        "$SD" validate "$tmp/c-$cn" $MAPS >"$tmp/out" 2>"$tmp/err"; st=$?
    fi
    e=$(grep -c ': error:' "$tmp/err")
    if [ $st -eq 0 ] && [ "$e" -eq 0 ]; then ok; else fail "$cn: its own values are not valid against the schema made for it ($e errors)"; grep ': error:' "$tmp/err" | head -3; fi
    # said once: the schema is made (or, for a values.yaml without keys, that nothing is checked)
    count "$cn: the note that the schema is made" 1 "$tmp/err" "the chart has no values.schema.json"
    # its pages: nothing the values alone showed is lost
    cp -r "$tmp/c-$cn" "$tmp/z-$cn" && echo '{}' > "$tmp/z-$cn/values.schema.json"
    for f in json md html; do
        "$SD" "$tmp/z-$cn" --format $f -o "$tmp/a.$f" 2>/dev/null
        "$SD" "$tmp/c-$cn" --format $f -o "$tmp/b.$f" 2>/dev/null
        python3 tests/schema/pages.py "$tmp/a.$f" "$tmp/b.$f" >"$tmp/lost"; st=$?
        [ $st -ne 1 ] && ok || { fail "$cn: the $f page lost something"; tail -5 "$tmp/lost"; }
    done
    rm -rf "$tmp/c-$cn" "$tmp/z-$cn"
done
echo "figure: schema made for $charts corpus charts without their schema: values.yaml and ci/ valid, pages complete"

# --- a made schema accepts its own chart (issue 39): a property ------------------
# every corpus chart, every fixture in tests/schema/accepts/, every values
# file of both tools' test data: the made schema accepts its values.yaml and
# ci/ files (tests/schema/accepts.py; its figure: line)
mkdir "$tmp/acc"
python3 tests/schema/accepts.py "$SD" "$CORPUS" "$tmp/acc" $S/accepts >"$tmp/acc.out" 2>&1; st=$?
grep -E '^(figure|skip):' "$tmp/acc.out"
status "the made schema accepts its own chart" 0 $st
[ $st -ne 0 ] && grep '^FAIL' "$tmp/acc.out" | head -20
grep -q '^figure: .* 0 errors' "$tmp/acc.out" && ok || fail "accepts: no figure with 0 errors"
n=$(sed -n 's/^\([0-9]*\) passed.*/\1/p' "$tmp/acc.out")
[ "${n:-0}" -ge 50 ] && ok || fail "accepts: only ${n:-0} charts checked (expected 50)"
# a `""` placeholder takes what the chart's README shows (sasl.client.passwords: [pass1])
A=$S/accepts/placeholder
printf 'sasl:\n  client:\n    passwords: [pass1]\nextraHosts:\n  - {name: a, ip: 10.0.0.1}\n' >"$tmp/readme-ex.yaml"
"$SD" validate $A "$tmp/readme-ex.yaml" >"$tmp/out" 2>"$tmp/err"
status "a README example of a \"\" default: valid" 0 $?
mkdir "$tmp/noreadme" && cp $A/Chart.yaml $A/values.yaml "$tmp/noreadme/"
"$SD" validate "$tmp/noreadme" "$tmp/readme-ex.yaml" >"$tmp/out" 2>"$tmp/err"
status "the same without the README: refused" 1 $?
has "without the README: a string" "$tmp/err" "sasl.client.passwords: found array, expected string"
# an annotation its own default breaks: a warning, left out of the made schema
mkdir "$tmp/contra" && cp $A/Chart.yaml "$tmp/contra/"
printf 'name: bar # @schema pattern: ^[a-z]$\n' >"$tmp/contra/values.yaml"
"$SD" validate "$tmp/contra" >"$tmp/out" 2>"$tmp/err"
status "an annotation the chart's own default breaks: valid" 0 $?
has "an annotation its default breaks: the warning" "$tmp/err" \
    "values.yaml:1:7: warning: name: value \"bar\" does not match pattern '^[a-z]\$'"
has "an annotation its default breaks: left out" "$tmp/err" "breaks this \`pattern\`; the schema made for the chart leaves it out"
printf 'name: baz\n' >"$tmp/contra/ok.yaml"
"$SD" validate "$tmp/contra" "$tmp/contra/ok.yaml" >"$tmp/out" 2>"$tmp/err"
status "the rest of the made schema still checks" 0 $?
"$SD" schema "$tmp/contra" >"$tmp/out" 2>"$tmp/err"
has "schemadoc schema still writes the annotation" "$tmp/out" '"pattern": "^[a-z]$"'
# over several files and rounds (the compiled schema is reused until a
# round changes it): values.yaml breaks one annotation, ci/a.yaml a second,
# ci/b.yaml a third; each is left out with its warning, the fourth holds
mkdir -p "$tmp/contra2/ci" && cp $A/Chart.yaml "$tmp/contra2/"
printf 'name: bar # @schema pattern: ^[a-z]$\nport: 80 # @schema minimum: 1; maximum: 100\nmode: a # @schema enum: [a, b]\nsize: 5 # @schema maximum: 9\n' >"$tmp/contra2/values.yaml"
printf 'port: 8080\n' >"$tmp/contra2/ci/a.yaml"
printf 'mode: c\n' >"$tmp/contra2/ci/b.yaml"
printf 'size: 10\n' >"$tmp/contra2/big.yaml"
"$SD" validate "$tmp/contra2" "$tmp/contra2/big.yaml" >"$tmp/out" 2>"$tmp/err"
status "three broken annotations over three files: the fourth still checks" 1 $?
has "values.yaml's broken pattern: left out" "$tmp/err" "breaks this \`pattern\`; the schema made for the chart leaves it out"
has "ci/a.yaml's broken maximum: left out" "$tmp/err" "a.yaml:1:7: warning: port: 8080 is greater than the maximum of 100"
has "ci/b.yaml's broken enum: left out" "$tmp/err" "the chart's own ci/ file breaks this \`enum\`; the schema made"
has "the kept maximum refuses size 10" "$tmp/err" "error: size: 10 is greater than the maximum of 9"

# --- every command uses the made schema, and says so once --------------------
# A chart without a schema whose annotations say what its defaults cannot
# (a null replica count: an integer from 1; a pull policy of three values);
# c2 is its next version (minimum 2, `Never` gone). Each command shows the
# annotations at work, and notes once per chart (a note, not a warning)
# that the schema is made. The same chart with the annotations taken out
# ($U/plain) shows none of it: what each check sees comes from them.
U=$tmp/uses
mkdir -p "$U/c" "$U/plain"
printf 'apiVersion: v2\nname: c\nversion: 1.0.0\n' >"$U/c/Chart.yaml"
printf '%s\n' '# -- How many pods' 'replicaCount: # @schema type:[integer, null]; minimum: 1' 'image:' \
    '  # -- When to pull' '  pullPolicy: IfNotPresent # @schema enum:[IfNotPresent, Always, Never]' >"$U/c/values.yaml"
cp -r "$U/c" "$U/c2" && sed -i 's/1\.0\.0/1.1.0/' "$U/c2/Chart.yaml" && sed -i 's/, Never\]/]/; s/minimum: 1/minimum: 2/' "$U/c2/values.yaml"
cp "$U/c/Chart.yaml" "$U/plain/" && sed 's/ # @schema.*//' "$U/c/values.yaml" >"$U/plain/values.yaml"
printf 'replicaCount: three\n' >"$U/three.yaml"
printf 'image:\n  pullPolicy: Never\n' >"$U/never.yaml"
NOTE="note: the chart has no values.schema.json: the schema is made from values.yaml and its comments"
noted() { # NAME FILE N: N notes (one per chart), no warning about the schema
    count "$1: the made schema, said once per chart" "$3" "$2" "$NOTE"
    count "$1: not a warning" 0 "$2" "warning: the chart has no values.schema.json"
}
"$SD" validate "$U/c" "$U/three.yaml" >"$tmp/out" 2>"$tmp/err"
status "validate: replicaCount three refused" 1 $?
has "validate: the annotation's type" "$tmp/err" 'replicaCount: found string "three", expected null or integer'
noted validate "$tmp/err" 1
"$SD" validate "$U/plain" "$U/three.yaml" >"$tmp/out" 2>"$tmp/err"
status "validate, annotations taken out: three accepted" 0 $?
# the enum as each page shows it (the values.yaml text some pages embed names `Never` too)
for fe in 'json|"Never"' 'md|one of: `IfNotPresent`, `Always`, `Never`' 'html|<code>Never</code>' 'form|"Never"'; do
    f=${fe%%|*} e=${fe#*|}
    "$SD" "$U/c" --format $f -o "$tmp/page.$f" 2>"$tmp/err"
    status "$f page" 0 $?
    has "$f page: the annotation's enum" "$tmp/page.$f" "$e"
    noted "$f page" "$tmp/err" 1
    "$SD" "$U/plain" --format $f -o "$tmp/plain.$f" 2>/dev/null
    hasnt "$f page, annotations taken out: no enum" "$tmp/plain.$f" "$e"
done
"$SD" rules "$U/c" -o "$tmp/rules.json" 2>"$tmp/err"
status "rules" 0 $?
has "rules: the annotation's minimum" "$tmp/rules.json" '"minimum":1'
noted rules "$tmp/err" 1
"$SD" diff "$U/c" "$U/c2" >"$tmp/out" 2>"$tmp/err"
status "diff: something changed" 1 $?
has "diff: the minimum tightened" "$tmp/out" "constraint (minimum, tightened)"
has "diff: the enum tightened" "$tmp/out" "constraint (enum, tightened)"
noted diff "$tmp/err" 2
"$SD" upgrade-check "$U/c" "$U/c2" "$U/never.yaml" >"$tmp/out" 2>"$tmp/err"
status "upgrade-check: Never no longer allowed" 1 $?
has "upgrade-check: the new enum" "$tmp/out" 'image.pullPolicy: value "Never" is not one of the allowed values'
noted upgrade-check "$tmp/err" 2

# --- the schema command's options: --help, completion, did-you-mean ----------
"$SD" schema --help >"$tmp/out" 2>&1
status "schema --help" 0 $?
for o in --check --like --dialect --config --draft --use-helm-docs "-o FILE"; do has "schema --help names $o" "$tmp/out" "$o"; done
"$SD" completion bash >"$tmp/compl.bash"
for w in lik:--like dia:--dialect con:--config che:--check; do
    out=$(bash -c '. "$1"; COMP_WORDS=(schemadoc schema "--$2"); COMP_CWORD=2; _schemadoc; echo "${COMPREPLY[*]}"' _ "$tmp/compl.bash" "${w%%:*}")
    [ "$out" = "${w#*:}" ] && ok || fail "bash: 'schema --${w%%:*}' completes to '$out', expected ${w#*:}"
done
out=$(bash -c '. "$1"; COMP_WORDS=(schemadoc schema --like ""); COMP_CWORD=3; _schemadoc; echo "${COMPREPLY[*]}"' _ "$tmp/compl.bash")
[ "$out" = "helm-schema helm-values-schema-json" ] && ok || fail "bash: 'schema --like' completes to '$out'"
"$SD" schema --dialekt schemadoc samples/podinfo >"$tmp/out" 2>"$tmp/err"
status "schema --dialekt: usage error" 2 $?
has "schema --dialekt: did you mean" "$tmp/err" "did you mean '--dialect'?"
"$SD" validate --like helm-schema samples/podinfo >"$tmp/out" 2>"$tmp/err"
has "validate --like: an option of another command" "$tmp/err" "'--like' is an option of other commands"

# --- --check ------------------------------------------------------------------
P=$tmp/podinfo
cp -r samples/podinfo "$P"
"$SD" schema "$P" --check >"$tmp/out" 2>"$tmp/err"
status "--check on a hand-written schema: stale" 1 $?
has "--check prints a diff" "$tmp/out" "--- a/$P/values.schema.json"
"$SD" schema "$P" -o "$P/values.schema.json" 2>"$tmp/err" && "$SD" schema "$P" --check >"$tmp/out" 2>"$tmp/err"
status "--check once written: up to date" 0 $?
rm "$P/values.schema.json"
"$SD" schema "$P" --check >"$tmp/out" 2>"$tmp/err"
status "--check without the file: stale" 1 $?
has "--check names the missing file" "$tmp/out" "values.schema.json: missing"
"$SD" schema "$P" --like nonsense >"$tmp/out" 2>"$tmp/err"
status "--like an unknown tool: usage error" 2 $?
"$SD" schema "$tmp/nowhere" >"$tmp/out" 2>"$tmp/err"
status "schema of nothing: exit 2" 2 $?

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
