#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/suite-gotmpl.sh - the drop-in for helm-docs and readme-generator on
# the corpus READMEs (issue 18), then the README rules and the hostile cases:
#   - each chart with a README.md.gotmpl: `--readme README.md --check`, and
#     "figure: gotmpl CHART: N/M lines identical" (teutonet's values.md, made
#     by json-schema-for-humans, is not in the corpus: it is taken from the
#     README into a copy of the chart for the second figure; app-template's
#     README predates its gotmpl: the two known differences are asserted);
#   - each Bitnami chart: the Parameters section rewritten in place checks
#     clean, and a damaged copy is repaired to the shipped bytes;
#   - a README with no markers, no Parameters section and no gotmpl is
#     refused (exit 2, markers named, file untouched);
#   - --gotmpl FILE -o VALUES.md, the version footer, .Files confinement,
#     runaway templates (exit 2, no file written).
# Skipped when the corpus is not beside the repo.
set -u
cd "$(dirname "$0")/.." || exit 2
SD=${SD:-$PWD/schemadoc}
CORPUS=${CORPUS:-../shared/corpus}
[ -d "$CORPUS" ] && CORPUS=$(cd "$CORPUS" && pwd)
passed=0 failed=0
ok() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
MAPS="--map https://raw.githubusercontent.com/yannh/kubernetes-json-schema/master/master-standalone-strict/=$CORPUS/kubernetes/ --map https://raw.githubusercontent.com/=$CORPUS/charts/_remote/raw.githubusercontent.com/"
SRCOPTS="$MAPS --cache-dir $tmp/cache --offline"

# lines of $1 kept in $2 (not removed by diff), and the number of lines of $1
identical() {
    total=$(wc -l < "$1")
    removed=$(diff "$1" "$2" | grep -c '^<')
    echo $((total - removed)) "$total"
}

# copy a corpus chart somewhere writable
copy_chart() {
    rm -rf "$tmp/$2"
    cp -r "$CORPUS/charts/$1" "$tmp/$2" && chmod -R u+w "$tmp/$2"
}

# "figure: gotmpl NAME: N/M lines identical" for the chart copy $tmp/$1: its
# README against what schemadoc writes into it; $2 is added in parentheses
figure() {
    cp "$tmp/$1/README.md" "$tmp/fig.orig"
    # shellcheck disable=SC2086
    "$SD" "$tmp/$1" --readme "$tmp/$1/README.md" $SRCOPTS 2>"$tmp/err" >/dev/null
    set -- "$1" "$2" $(identical "$tmp/fig.orig" "$tmp/$1/README.md")
    echo "figure: gotmpl $1: $3/$4 lines identical${2:+ ($2)}"
}

if [ ! -d "$CORPUS/charts" ]; then
    echo "SKIPPED: no corpus at $CORPUS"
else
    # --- charts with a README.md.gotmpl ------------------------------------------
    for c in argo-cd bjw-s-common; do
        # shellcheck disable=SC2086
        "$SD" "$CORPUS/charts/$c" --readme "$CORPUS/charts/$c/README.md" --check $SRCOPTS >"$tmp/diff" 2>"$tmp/err"
        st=$?
        if [ $st = 0 ] && [ ! -s "$tmp/diff" ]; then ok; else fail "$c: --check exit $st"; head -20 "$tmp/diff" "$tmp/err"; fi
        copy_chart "$c" "$c"
        f=$(figure "$c" "")
        echo "$f"
        case $f in *": "*/*" lines identical") n=${f##*: }; n=${n% lines identical}
            [ "${n%/*}" = "${n#*/}" ] && ok || fail "$c: $n lines identical";; esac
    done

    # teutonet: values.md is json-schema-for-humans output that the corpus lacks
    copy_chart teutonet-base-cluster teutonet-base-cluster
    # shellcheck disable=SC2086
    "$SD" "$tmp/teutonet-base-cluster" --readme "$tmp/teutonet-base-cluster/README.md" --check $SRCOPTS >"$tmp/diff" 2>"$tmp/err"
    st=$?
    if [ $st = 1 ] && ! grep -q '^+' "$tmp/diff" | grep -v '^+++' ; then ok; else fail "teutonet without values.md: exit $st"; fi
    removed=$(grep -c '^-' "$tmp/diff"); added=$(grep '^+' "$tmp/diff" | grep -vc '^+++')
    if [ "$added" = 0 ] && [ "$removed" -gt 4900 ]; then ok; else fail "teutonet: only values.md may be missing (+$added -$removed)"; fi
    figure teutonet-base-cluster "shipped files only: values.md, written by json-schema-for-humans, is missing"
    copy_chart teutonet-base-cluster teutonet-base-cluster
    python3 - "$tmp/teutonet-base-cluster/README.md" "$tmp/teutonet-base-cluster/values.md" <<'PY'
import sys
s = open(sys.argv[1], encoding="utf-8").read()
a = s.index("to `true`.\n") + len("to `true`.\n")
b = s.index("\n\n- This release remove the field")
open(sys.argv[2], "w", encoding="utf-8").write(s[a:b] + "\n")
PY
    # shellcheck disable=SC2086
    "$SD" "$tmp/teutonet-base-cluster" --readme "$tmp/teutonet-base-cluster/README.md" --check $SRCOPTS >"$tmp/diff" 2>"$tmp/err"
    st=$?
    if [ $st = 0 ]; then ok; else fail "teutonet with values.md: exit $st"; head -20 "$tmp/diff" "$tmp/err"; fi
    figure teutonet-base-cluster "values.md taken from the README"

    # app-template: the shipped README predates the shipped gotmpl and Chart.yaml
    # (no Source Code section although Chart.yaml has sources; the custom.helm.url
    # action left as literal text): helm-docs itself would write these two changes.
    # shellcheck disable=SC2086
    "$SD" "$CORPUS/charts/bjw-s-app-template" --readme "$CORPUS/charts/bjw-s-app-template/README.md" --check $SRCOPTS >"$tmp/diff" 2>"$tmp/err"
    st=$?
    grep '^[-+][^-+]' "$tmp/diff" > "$tmp/changes"
    cat > "$tmp/changes.want" <<'EOF'
+## Source Code
+* <https://github.com/bjw-s-labs/helm-charts>
-helm repo add bjw-s {{template "custom.helm.url"}}
+helm repo add bjw-s https://bjw-s-labs.github.io/helm-charts/
EOF
    if [ $st = 1 ] && cmp -s "$tmp/changes" "$tmp/changes.want"; then ok; else fail "app-template: exit $st, changes:"; cat "$tmp/changes"; fi
    copy_chart bjw-s-app-template bjw-s-app-template
    figure bjw-s-app-template "the README is older than its gotmpl and Chart.yaml"

    # --- Bitnami: the Parameters section in place -------------------------------------
    for c in bitnami-nginx bitnami-postgresql bitnami-redis bitnami-wordpress; do
        "$SD" "$CORPUS/charts/$c" --readme "$CORPUS/charts/$c/README.md" --check >"$tmp/diff" 2>"$tmp/err"
        st=$?
        if [ $st = 0 ] && [ ! -s "$tmp/diff" ]; then ok; else fail "$c: --check exit $st"; head -20 "$tmp/diff" "$tmp/err"; fi
        copy_chart "$c" "$c"
        figure "$c" ""
        # damage the section (drop a row, change a value, add a stray line): repaired exactly
        copy_chart "$c" "$c"
        python3 - "$tmp/$c/README.md" <<'PY'
import sys
p = sys.argv[1]
lines = open(p, encoding="utf-8").read().split("\n")
rows = [i for i, l in enumerate(lines) if l.startswith("| `")]
del lines[rows[3]]
lines[rows[10]] = lines[rows[10]].replace("`", "'", 1)
lines.insert(rows[20], "| `bogus.key` | stale row | `1` |")
open(p, "w", encoding="utf-8").write("\n".join(lines))
PY
        "$SD" "$tmp/$c" --readme "$tmp/$c/README.md" 2>"$tmp/err"
        if cmp -s "$tmp/$c/README.md" "$CORPUS/charts/$c/README.md"; then ok; else fail "$c: damaged README not repaired"; diff "$tmp/$c/README.md" "$CORPUS/charts/$c/README.md" | head; fi
    done
fi

# --- README rules on a small chart ---------------------------------------------------------
mkdir -p "$tmp/chart"
cat > "$tmp/chart/Chart.yaml" <<'EOF'
apiVersion: v2
name: demo
version: 1.2.3-rc.1
description: A demo chart
sources:
  - https://example.com/src
EOF
cat > "$tmp/chart/values.yaml" <<'EOF'
# -- Replicas
replicaCount: 1
image:
  # -- Image tag
  # @default -- the chart's appVersion
  tag: ""
# @section -- not used
EOF
printf '# My chart\n\nSome words.\n\n## Usage\n\nNo table here.\n' > "$tmp/plain.md"
cp "$tmp/plain.md" "$tmp/plain.orig"
"$SD" "$tmp/chart" --readme "$tmp/plain.md" >"$tmp/out" 2>"$tmp/err"; st=$?
if [ $st = 2 ] && grep -q '<!-- schemadoc:start -->' "$tmp/err" && grep -q 'Parameters' "$tmp/err" && cmp -s "$tmp/plain.md" "$tmp/plain.orig"
then ok; else fail "README without a place: exit $st, not refused"; cat "$tmp/err"; fi
"$SD" "$tmp/chart" --readme "$tmp/plain.md" --check >"$tmp/out" 2>"$tmp/err"; st=$?
if [ $st = 2 ]; then ok; else fail "README without a place, --check: exit $st"; fi
# a Parameters section in a helm-docs chart's README: helm-docs' tables go there
printf '# My chart\n\n## Parameters\n\nold\n| x |\n\n## Later\n\ntext\n' > "$tmp/params.md"
"$SD" "$tmp/chart" --readme "$tmp/params.md" 2>"$tmp/err"; st=$?
printf '# My chart\n\n## Parameters\n\n| Key | Type | Default | Description |\n|-----|------|---------|-------------|\n| image.tag | string | the chart'"'"'s appVersion | Image tag |\n| replicaCount | int | `1` | Replicas |\n\n## Later\n\ntext\n' > "$tmp/params.want"
if [ $st = 0 ] && cmp -s "$tmp/params.md" "$tmp/params.want"; then ok; else fail "helm-docs chart Parameters section (exit $st)"; diff "$tmp/params.want" "$tmp/params.md"; fi
# a new README gets the page between markers
"$SD" "$tmp/chart" --readme "$tmp/new.md" 2>"$tmp/err"; st=$?
if [ $st = 0 ] && head -1 "$tmp/new.md" | grep -q '^<!-- schemadoc:start -->$'; then ok; else fail "new README (exit $st)"; fi

# --- helm-docs templates ---------------------------------------------------------------------
cat > "$tmp/chart/VALUES.md.gotmpl" <<'EOF'
{{- define "row" }}| [{{ .Key }}](./values.yaml#L{{ .LineNumber }}) | {{ .Type }} | {{ default .Default .AutoDefault }} | {{ .Description | default .AutoDescription }} |{{ end -}}
# {{ template "chart.name" . }} values
{{ template "chart.versionBadge" . }}
{{ range .Values }}
{{ template "row" . }}
{{- end }}
Sections: {{ len .Sections.Sections }}; default: {{ .Sections.DefaultSection.SectionName }}
{{ .Files.Get "Chart.yaml" | fromYaml | toJson }}
{{ template "helm-docs.versionFooter" . }}
EOF
cat > "$tmp/values.want" <<'EOF'
# demo values
![Version: 1.2.3-rc.1](https://img.shields.io/badge/Version-1.2.3--rc.1-informational?style=flat-square)

| [image.tag](./values.yaml#L6) | string | the chart's appVersion | Image tag |
| [replicaCount](./values.yaml#L2) | int | `1` | Replicas |
Sections: 0; default: Other Values
{"apiVersion":"v2","description":"A demo chart","name":"demo","sources":["https://example.com/src"],"version":"1.2.3-rc.1"}

----------------------------------------------
Autogenerated from chart metadata using [helm-docs v9.9.9](https://github.com/norwoodj/helm-docs/releases/v9.9.9)
EOF
"$SD" "$tmp/chart" --gotmpl "$tmp/chart/VALUES.md.gotmpl" --helm-docs-version 9.9.9 -o "$tmp/chart/VALUES.md" 2>"$tmp/err"; st=$?
if [ $st = 0 ] && cmp -s "$tmp/chart/VALUES.md" "$tmp/values.want"; then ok; else fail "--gotmpl VALUES.md (exit $st)"; cat "$tmp/err"; diff "$tmp/values.want" "$tmp/chart/VALUES.md"; fi
# --check keeps the footer's version from the file itself
"$SD" "$tmp/chart" --gotmpl "$tmp/chart/VALUES.md.gotmpl" -o "$tmp/chart/VALUES.md" --check >"$tmp/out" 2>"$tmp/err"; st=$?
if [ $st = 0 ]; then ok; else fail "--check with the file's own footer version (exit $st)"; cat "$tmp/out" "$tmp/err"; fi
sed -i 's/| Replicas |$/| Replica count |/' "$tmp/chart/VALUES.md"
"$SD" "$tmp/chart" --gotmpl "$tmp/chart/VALUES.md.gotmpl" -o "$tmp/chart/VALUES.md" --check >"$tmp/out" 2>"$tmp/err"; st=$?
if [ $st = 1 ] && grep -q '^+| \[replicaCount\].* Replicas |$' "$tmp/out"; then ok; else fail "--check finds a stale VALUES.md (exit $st)"; cat "$tmp/out"; fi

# .Files reads only regular files inside the chart directory
echo "secret" > "$tmp/secret.txt"
ln -s "$tmp/secret.txt" "$tmp/chart/link.txt"
mkdir -p "$tmp/chart/sub"; echo "inside" > "$tmp/chart/sub/in.txt"
printf '[{{ .Files.Get "../secret.txt" }}][{{ .Files.Get "link.txt" }}][{{ .Files.Get "/etc/passwd" }}][{{ .Files.Get "sub/../sub/in.txt" | trim }}]\n[{{ (.Files.Glob "**.txt").AsConfig }}]\n' > "$tmp/files.gotmpl"
printf '[][][][inside]\n[in.txt: |\n    inside]\n' > "$tmp/files.want"
"$SD" "$tmp/chart" --gotmpl "$tmp/files.gotmpl" --format md > "$tmp/files.out" 2>"$tmp/err"; st=$?
if [ $st = 0 ] && cmp -s "$tmp/files.out" "$tmp/files.want"; then ok; else fail ".Files confinement (exit $st)"; cat "$tmp/files.out" "$tmp/err"; fi

# a chart's README.md.gotmpl that is a symbolic link is not run (it could
# copy any file of the user into the README)
mkdir -p "$tmp/linkchart"
cp "$tmp/chart/Chart.yaml" "$tmp/chart/values.yaml" "$tmp/linkchart/"
printf '{{ .Name }} from the template\n' > "$tmp/elsewhere.gotmpl"
ln -s "$tmp/elsewhere.gotmpl" "$tmp/linkchart/README.md.gotmpl"
"$SD" "$tmp/linkchart" --format md > "$tmp/out" 2>"$tmp/err"; st=$?
if [ $st = 0 ] && ! grep -q 'from the template' "$tmp/out" && grep -q '^# demo' "$tmp/out"; then ok
else fail "a symlinked README.md.gotmpl was run (exit $st)"; head -3 "$tmp/out"; fi

# runaway templates: exit 2 with a position, and no output file
for t in '{{ define "r" }}{{ template "r" . }}{{ end }}{{ template "r" . }}' \
         '{{ range until 9999999 }}{{ range until 9999999 }}{{ end }}{{ end }}' \
         '{{ $s := "0123456789" }}{{ range until 40 }}{{ $s = print $s $s }}{{ end }}' \
         '{{ now }}' '{{ .Files.Get }}' '{{ .Nope }}'; do
    printf '%s\n' "$t" > "$tmp/bad.gotmpl"
    rm -f "$tmp/bad.md"
    "$SD" "$tmp/chart" --gotmpl "$tmp/bad.gotmpl" -o "$tmp/bad.md" >"$tmp/out" 2>"$tmp/err"; st=$?
    if [ $st = 2 ] && [ ! -e "$tmp/bad.md" ] && grep -q 'bad.gotmpl:1:[0-9]*: error: ' "$tmp/err"; then ok
    else fail "runaway template '$t': exit $st"; cat "$tmp/err"; fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
