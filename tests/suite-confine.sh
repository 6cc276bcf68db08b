#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/suite-confine.sh - files a chart names stay inside the chart (issue
# 36 item 14): a README.md, a --gotmpl template, an -o file or a folder the
# chart ships as a symbolic link leading out of it is refused (exit 2, the
# outside file neither printed nor written), one leading elsewhere inside
# the chart is followed, a path outside the chart as written is the user's
# own; .Files lists and reads nothing through links. Run as a user would,
# from a shell. Prints "N passed, N failed" last.
set -u
cd "$(dirname "$0")/.." || exit 2
SD=${SD:-$PWD/schemadoc}
export NO_COLOR=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }

mkdir -p "$tmp/outside" "$tmp/c/docs"
printf 'SECRET-LINE-1\nSECRET-LINE-2\n' > "$tmp/outside/secret.txt"
cp "$tmp/outside/secret.txt" "$tmp/secret.orig"
printf 'apiVersion: v2\nname: c\nversion: 1.0.0\n' > "$tmp/c/Chart.yaml"
printf '# -- replicas\nreplicas: 1\n' > "$tmp/c/values.yaml"
cd "$tmp" || exit 2

# --- a README linked out of the chart --------------------------------------
# (with a README.md.gotmpl the whole README is the template's: --check would
# print every line of the file it replaces)
printf '{{ template "chart.valuesTable" . }}\n' > c/README.md.gotmpl
ln -s ../outside/secret.txt c/README.md
"$SD" c --readme c/README.md --check >out 2>err; st=$?
[ $st -eq 2 ] && grep -q "c/README.md: error: refusing the README: it leads outside the chart directory 'c'" err \
    && ! grep -q SECRET out err && ok || { bad "--check through an outside link: status $st"; cat out err; }
"$SD" c --readme c/README.md >out 2>err; st=$?
[ $st -eq 2 ] && [ -L c/README.md ] && cmp -s outside/secret.txt secret.orig && ok \
    || { bad "README write through an outside link: status $st"; cat err; }
# the same file reached through a folder link
rm c/README.md
ln -s ../../outside c/docs/out
"$SD" c --readme c/docs/out/secret.txt --check >out 2>err; st=$?
[ $st -eq 2 ] && ! grep -q SECRET out err && ok || { bad "README in a linked folder: status $st"; cat out err; }
rm c/README.md.gotmpl

# --- a README linked inside the chart: followed, the link kept --------------
printf '# c\n\n<!-- schemadoc:start -->\n<!-- schemadoc:end -->\n' > c/docs/README.md
ln -s docs/README.md c/README.md
"$SD" c --readme c/README.md >out 2>err; st=$?
[ $st -eq 0 ] && [ -L c/README.md ] && grep -q 'replicas' c/docs/README.md && ok \
    || { bad "README linked inside the chart: status $st"; cat err; }
"$SD" c --readme c/README.md --check >out 2>err; st=$?
[ $st -eq 0 ] && ok || { bad "--check of the README linked inside: status $st"; cat out err; }

# --- a README outside the chart as written: the user's own -------------------
printf '<!-- schemadoc:start -->\n<!-- schemadoc:end -->\n' > README.md
"$SD" c --readme README.md >out 2>err; st=$?
[ $st -eq 0 ] && grep -q replicas README.md && ok || { bad "a README outside the chart: status $st"; cat err; }

# --- --gotmpl and -o linked out ----------------------------------------------
printf '{{ .Name }}\n' > outside/t.gotmpl
ln -s ../outside/t.gotmpl c/VALUES.md.gotmpl
"$SD" c --gotmpl c/VALUES.md.gotmpl >out 2>err; st=$?
[ $st -eq 2 ] && grep -q "refusing the template: it leads outside the chart directory" err && ok \
    || { bad "--gotmpl linked out: status $st"; cat err; }
"$SD" c --gotmpl outside/t.gotmpl -o out.md 2>err; st=$?
[ $st -eq 0 ] && [ "$(cat out.md)" = c ] && ok || { bad "--gotmpl outside the chart as written: status $st"; cat err; }
ln -s ../outside/secret.txt c/VALUES.md
"$SD" c --format md -o c/VALUES.md --check >out 2>err; st=$?
[ $st -eq 2 ] && grep -q "refusing the output file" err && ! grep -q SECRET out err && ok \
    || { bad "-o --check through an outside link: status $st"; cat out err; }
"$SD" c --format md -o c/docs/out/page.md >out 2>err; st=$?
[ $st -eq 2 ] && [ ! -e outside/page.md ] && ok || { bad "-o into a linked folder: status $st"; cat err; }
cmp -s outside/secret.txt secret.orig && ok || bad "the outside file changed"

# --- .Files through links ------------------------------------------------------
mkdir -p c/files
ln -s ../../outside c/files/linkdir
ln -s ../../outside/secret.txt c/files/link.txt
printf '[{{ .Files.Get "files/link.txt" }}][{{ .Files.Get "files/linkdir/secret.txt" }}][{{ (.Files.Glob "files/**").AsConfig }}][{{ .Files.Lines "c/files/linkdir/secret.txt" }}]\n' > t.gotmpl
"$SD" c --gotmpl t.gotmpl -o files.md 2>err; st=$?
[ $st -eq 0 ] && [ "$(cat files.md)" = '[][][][[]]' ] && ok || { bad ".Files through links: status $st"; cat files.md err; }

# --- issue 41: no chart file is read from outside the chart -------------------
# A fresh chart per case, a fake secret outside it; each command must exit 2
# with a message naming the refused file, and the secret must appear in no
# output: stdout, stderr, or a file -o wrote.
printf 'apiVersion: v1\nkind: Config\nusers:\n- name: u\n  user:\n    token: SECRET-TOKEN-41\n    description: SECRET-TOKEN-41\n' > outside/kubeconfig
printf '{"type": "object", "description": "SECRET-TOKEN-41", "properties": {"SECRET-TOKEN-41": {"type": "string", "default": "SECRET-TOKEN-41"}}}\n' > outside/schema.json
printf 'SECRET-TOKEN-41: SECRET-TOKEN-41\n' > outside/values.yaml
printf 'apiVersion: v2\nname: SECRET-TOKEN-41\nversion: 1.0.0\ndescription: SECRET-TOKEN-41\n' > outside/Chart.yaml
mkdir -p outside/tdir outside/sub
printf '{{ .Values.SECRET-TOKEN-41 }}\n' > outside/tdir/x.yaml
printf 'apiVersion: v2\nname: sub\nversion: 1.0.0\n' > outside/sub/Chart.yaml
printf '# -- SECRET-TOKEN-41\nSECRET-TOKEN-41: SECRET-TOKEN-41\n' > outside/sub/values.yaml

# fresh chart k/ (helm-docs comments, no schema)
fresh() {
    rm -rf k k.md k.html k.form.html site
    mkdir -p k/templates k/ci
    printf 'apiVersion: v2\nname: k\nversion: 1.0.0\n' > k/Chart.yaml
    printf '# -- replicas\nreplicas: 1\n' > k/values.yaml
    printf 'replicas: 2\n' > k/ci/a-values.yaml
    printf '{{ .Values.replicas }}\n' > k/templates/deploy.yaml
    printf '# k\n\n<!-- schemadoc:start -->\n<!-- schemadoc:end -->\n' > k/README.md
}
# refused CMD...: exit 2, PATTERN in stderr, no secret anywhere
refused() {
    r_what=$1 r_pat=$2
    shift 2
    rm -rf k.md k.html k.form.html site
    "$@" >out 2>err; st=$?
    leak=$(grep -l SECRET-TOKEN-41 out err k.md k.html k.form.html 2>/dev/null; grep -rl SECRET-TOKEN-41 site 2>/dev/null)
    if [ $st -eq 2 ] && grep -q -- "$r_pat" err && [ -z "$leak" ]; then ok
    else bad "$r_what: status $st, leaked into '$leak'"; head -5 err; fi
}
# every command that reads the chart
commands() {
    what=$1 pat=$2
    refused "$what: md" "$pat" "$SD" k --format md -o k.md
    refused "$what: html" "$pat" "$SD" k --format html -o k.html
    refused "$what: form" "$pat" "$SD" k --format form -o k.form.html
    refused "$what: json" "$pat" "$SD" k --format json
    [ "${3:-}" = nodoc ] || refused "$what: doc" "$pat" "$SD" k --format doc
    refused "$what: --readme --check" "$pat" "$SD" k --readme k/README.md --check
    refused "$what: --recursive --readme --check" "$pat" "$SD" --recursive k --readme README.md --check -q
    refused "$what: --recursive -o" "$pat" "$SD" --recursive k -o site -q
    refused "$what: schema" "$pat" "$SD" schema k
    refused "$what: schema --check" "$pat" "$SD" schema k --check
    refused "$what: validate" "$pat" "$SD" validate k k/values.yaml
    refused "$what: diff" "$pat" "$SD" diff k k
}
LINKED="it leads outside the chart directory 'k' through a symbolic link"

fresh; rm k/values.yaml; ln -s ../outside/kubeconfig k/values.yaml
commands "values.yaml linked out" "k/values.yaml: error: refusing the values file: $LINKED"
fresh; ln -s ../outside/schema.json k/values.schema.json
refused "values.schema.json linked out: md" "refusing the values schema: $LINKED" "$SD" k --format md -o k.md
refused "values.schema.json linked out: --readme --check" "refusing the values schema" "$SD" k --readme k/README.md --check
refused "values.schema.json linked out: --recursive --readme --check" "refusing the values schema" "$SD" --recursive k --readme README.md --check -q
refused "values.schema.json linked out: validate" "refusing the values schema" "$SD" validate k k/values.yaml
refused "values.schema.json linked out: diff" "refusing the values schema" "$SD" diff k k
refused "values.schema.json linked out: schema --check" "k/values.schema.json: error: refusing the values schema: $LINKED" "$SD" schema k --check
fresh; rm k/Chart.yaml; ln -s ../outside/Chart.yaml k/Chart.yaml
commands "Chart.yaml linked out" "k/Chart.yaml: error: refusing the chart file: $LINKED"
fresh; rm -r k/templates; ln -s ../outside/tdir k/templates
commands "templates/ linked out" "k/templates: error: refusing the templates folder: it leads outside"
fresh; rm k/ci/a-values.yaml; ln -s ../../outside/values.yaml k/ci/a-values.yaml
commands "a ci/ file linked out" "k/ci/a-values.yaml: error: refusing the ci/ values file: $LINKED"
refused "a ci/ file linked out: validate k/ci/*.yaml" "refusing the values file: $LINKED" "$SD" validate k k/ci/a-values.yaml
fresh; rm -r k/ci; ln -s ../outside k/ci
commands "ci/ linked out" "k/ci: error: refusing the ci folder: it leads outside"
fresh; mkdir -p k/charts; ln -s ../../outside/sub k/charts/sub
commands "a subchart linked out" "k/charts/sub: error: refusing the subchart: it leads outside"
fresh; printf 'values:\n  - values.yaml\n' > outside/schema-settings.yaml; ln -s ../outside/schema-settings.yaml k/.schema.yaml
commands ".schema.yaml linked out" "k/.schema.yaml: error: refusing the schema settings: $LINKED"
fresh; rm k/README.md; ln -s ../outside/kubeconfig k/README.md
refused "README.md linked out: --recursive --readme --check" "refusing the README" "$SD" --recursive k --readme README.md --check -q
# a link that stays inside the chart is followed
fresh; mv k/values.yaml k/ci/main.yaml; ln -s ci/main.yaml k/values.yaml
"$SD" k --format md -o k.md 2>err && grep -q replicas k.md && "$SD" schema k --check >out 2>err; st=$?
[ $st -eq 1 ] && grep -q 'missing' out && ok || { bad "a values.yaml linked inside the chart: status $st"; cat err; }

# --- issue 41: `$ref`s written by annotations ----------------------------------
# helm-schema: `# @schema` block
fresh; printf '# @schema\n# $ref: ../outside/kubeconfig#/users/0/user\n# @schema\nauth: {}\n' > k/values.yaml
commands "helm-schema \$ref ../" "k/values.yaml:1:1: error: \$ref '../outside/kubeconfig#/users/0/user': 'outside/kubeconfig' is outside the chart directory 'k'" nodoc
fresh; printf '# @schema\n# $ref: %s/outside/kubeconfig#/users/0/user\n# @schema\nauth: {}\n' "$tmp" > k/values.yaml
refused "helm-schema \$ref absolute: schema --check" "is outside the chart directory 'k'" "$SD" schema k --check
refused "helm-schema \$ref absolute: md" "is outside the chart directory 'k'" "$SD" k --format md -o k.md
fresh; ln -s ../outside/kubeconfig k/kc.yaml
printf '# @schema\n# $ref: kc.yaml#/users/0/user\n# @schema\nauth: {}\n' > k/values.yaml
refused "helm-schema \$ref through a link: schema" "leads outside the chart directory 'k' through a symbolic link" "$SD" schema k
refused "helm-schema \$ref through a link: md" "leads outside the chart directory 'k' through a symbolic link" "$SD" k --format md -o k.md
# ... and the values file given on its own: kept to its folder
printf '# @schema\n# $ref: ../outside/kubeconfig#/users/0/user\n# @schema\nauth: {}\n' > k/values.yaml
refused "helm-schema \$ref, values file alone: schema" "is outside the chart directory 'k'" "$SD" schema k/values.yaml
# a --map to the outside folder is the user's choice: followed
fresh; printf '# @schema\n# $ref: out/kubeconfig#/users/0/user\n# @schema\nauth: {}\n' > k/values.yaml
"$SD" k --format md --map out/=outside/ -o k.md 2>err; st=$?
[ $st -eq 0 ] && ok || { bad "a --map out of the chart: status $st"; cat err; }
# a $ref inside the chart still works
fresh; mkdir -p k/schemas; printf '{"type": "object", "properties": {"user": {"type": "string"}}}\n' > k/schemas/auth.json
printf '# @schema\n# $ref: schemas/auth.json\n# @schema\nauth: {}\n' > k/values.yaml
"$SD" schema k >out 2>err; st=$?
[ $st -eq 0 ] && grep -q '"user"' out && ok || { bad "a helm-schema \$ref inside the chart: status $st"; cat err; }
# helm-values-schema-json: `# @schema` parts, schemaRoot, $k8s
fresh; printf 'auth: {} # @schema $ref: ../outside/schema.json\n' > k/values.yaml
refused "hvsj \$ref ../: md" "'outside/schema.json' is outside the chart directory 'k'" "$SD" k --format md -o k.md
refused "hvsj \$ref ../: validate" "is outside the chart directory 'k'" "$SD" validate k k/values.yaml
fresh; printf 'schemaRoot:\n  ref: ../outside/schema.json\n' > k/.schema.yaml
refused "schemaRoot ref ../: md" "'outside/schema.json' is outside the chart directory 'k'" "$SD" k --format md -o k.md
refused "schemaRoot ref ../: validate" "is outside the chart directory 'k'" "$SD" validate k k/values.yaml
fresh; printf 'k8sSchemaVersion: v1\nk8sSchemaURL: "file://%s/outside/"\n' "$tmp" > k/.schema.yaml
printf 'auth: {} # @schema $ref: $k8s/schema.json\n' > k/values.yaml
refused "\$k8s to a file URL: md" "is outside the chart directory 'k'" "$SD" k --format md -o k.md
fresh; printf 'k8sSchemaVersion: v1\nk8sSchemaURL: "../../outside/"\n' > k/.schema.yaml
printf 'auth: {} # @schema $ref: $k8s/schema.json\n' > k/values.yaml
refused "\$k8s to ../: md" "is outside the chart directory 'k'" "$SD" k --format md -o k.md

# --- issue 41: .schema.yaml's `values:` list ---------------------------------------
fresh; printf 'values:\n  - values.yaml\n  - ../outside/values.yaml\n' > k/.schema.yaml
refused "values: ../x" "k/.schema.yaml:3:5: error: \`values\` in the schema settings: '../outside/values.yaml' leaves the chart directory" "$SD" schema k --check
printf 'values: %s/outside/values.yaml\n' "$tmp" > k/.schema.yaml
refused "values: /abs" "k/.schema.yaml:1:9: error: \`values\` in the schema settings: '$tmp/outside/values.yaml' is an absolute path" "$SD" schema k
printf 'values: [sub/../../outside/values.yaml]\n' > k/.schema.yaml
refused "values: a/../../x" "leaves the chart directory" "$SD" schema k
ln -s ../outside/values.yaml k/more.yaml
printf 'values: [values.yaml, more.yaml]\n' > k/.schema.yaml
refused "values: a link out" "k/more.yaml: error: refusing the values file: $LINKED" "$SD" schema k
printf 'values:\n  - values.yaml\n  - ../outside/values.yaml\n' > k/.schema.yaml
refused "values: ../x with --config" "leaves the chart directory" "$SD" schema --config k/.schema.yaml
printf 'values: [values.yaml, ci/a-values.yaml]\n' > k/.schema.yaml
"$SD" schema k >out 2>err; st=$?
[ $st -eq 0 ] && ok || { bad "values: inside the chart: status $st"; cat err; }

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
