#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/suite-ux.sh - the user-facing fixes of issue 17 that a golden file
# cannot pin down byte for byte (messages that carry a timing, pages checked
# by their structure): each check greps for what must be there, and for
# what must not. Fixtures: tests/ux/<case>/. Prints "N passed, N failed" last.
set -u
cd "$(dirname "$0")/.." || exit 2
ROOT=$PWD
SD=${SD:-$ROOT/schemadoc}
U=tests/ux
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

# --- validate: a remote $ref without a network says what to do -------------
# A proxy on a closed port fails the same way a missing network does.
https_proxy=http://127.0.0.1:9 HTTPS_PROXY=http://127.0.0.1:9 "$SD" validate $U/remote-ref/schema.json \
    $U/remote-ref/values.yaml --cache-dir "$tmp/cache" >"$tmp/out" 2>"$tmp/err"
status "remote ref without network" 2 $?
has "remote ref: names --map" "$tmp/err" "--map PREFIX=DIR"
has "remote ref: names --offline" "$tmp/err" "--offline"
has "remote ref: names --lenient" "$tmp/err" "--lenient"
https_proxy=http://127.0.0.1:9 HTTPS_PROXY=http://127.0.0.1:9 "$SD" validate --lenient $U/remote-ref/schema.json \
    $U/remote-ref/values.yaml --cache-dir "$tmp/cache" >"$tmp/out" 2>"$tmp/err"
status "remote ref, --lenient: the rest is validated" 1 $?
has "remote ref, --lenient: the rest's error" "$tmp/err" "replicas: found string"

# --- ytt: titles (explicit or humanized) and removed keys in html ----------
Y=$U/ytt-starlark
"$SD" $Y/titles.yml --format html -o "$tmp/titles.html" 2>"$tmp/err"
status "ytt titles html" 0 $?
has "ytt html: explicit title beside the key" "$tmp/titles.html" '<span class="entry-title">System Domain</span>'
has "ytt html: humanized title" "$tmp/titles.html" '<span class="entry-title">Static ip</span>'
has "ytt html: removed notice" "$tmp/titles.html" 'Removed: Was removed in 2.0.0; use static_ip instead'
has "ytt html: removed badge" "$tmp/titles.html" 'badge-removed'
"$SD" $Y/schema-html.yml --format html -o "$tmp/seed.html" 2>"$tmp/err"
has "ytt html: seed 004 doc variable evaluated" "$tmp/seed.html" 'configuration if using a private registry'
hasnt "ytt html: not the variable's name" "$tmp/seed.html" '>documentation<'

# hostile ytt strings (titles, variables, removal notices) stay inert
"$SD" $Y/hostile.yml --format html -o "$tmp/yh.html" 2>"$tmp/err"
status "ytt hostile html" 0 $?
python3 tests/render/xss_check.py "$tmp/yh.html" | grep -v 'payload text not visible' >"$tmp/xss"
if [ -s "$tmp/xss" ]; then fail "ytt hostile html runs something"; cat "$tmp/xss"; else ok; fi
has "ytt hostile html: the title shown as text" "$tmp/yh.html" '&lt;img src=x onerror=alert(1)&gt; **bold** | pipe'
"$SD" $Y/hostile.yml --format md -o "$tmp/yh.md" 2>"$tmp/err"
has "ytt hostile md: the title escaped in its cell" "$tmp/yh.md" '**\<img src=x onerror=alert(1)\> \*\*bold\*\* \| pipe**<br>'

# --- oneOf branches named by their const discriminator (html) --------------
"$SD" $U/md-chart --format html -o "$tmp/md.html" 2>"$tmp/err"
status "md-chart html" 0 $?
has "branch labelled by its const" "$tmp/md.html" '<span class="label">type: helm (one of)</span>'
has "branch labelled by its const (2)" "$tmp/md.html" '<span class="label">type: git (one of)</span>'
has "alternatives named" "$tmp/md.html" '>type: git</a>'
hasnt "no anonymous option" "$tmp/md.html" '>option</a>'
# --- md: details once per schema location, schema keys after the table ----
"$SD" $U/md-chart --format md -o "$tmp/md.md" 2>"$tmp/err"
hasnt "md details: no list element entries" "$tmp/md.md" '### `features[0]`'
hasnt "md details: no element entries (nested)" "$tmp/md.md" '### `ingress.hosts[0].host`'
has "md details: items entry" "$tmp/md.md" '### `features[]`'
has "md details: definition field with its path" "$tmp/md.md" '### `probe.initialDelaySeconds` (in definition `probe`)'
has "md details: branch named" "$tmp/md.md" '### `repo.type` (in branch `type: git` (one of))'
has "md details: schema description beside the comment" "$tmp/md.md" 'Schema: Number of replicas of the deployment.'
has "md: the alternatives named in the details" "$tmp/md.md" '* exactly one of: `type: helm`, `type: git`'
has "md schema keys: full path" "$tmp/md.md" '| livenessProbe.initialDelaySeconds | integer | 0 ≤ value | Seconds after the container starts before the probe runs. |'
has "md schema keys: shared definition once" "$tmp/md.md" 'The same keys as `livenessProbe` (definition `probe`).'
has "md fallback: schema description in the table" "$tmp/md.md" '| nameOverride | string | `""` | Overrides the chart name. |'
n=$(grep -c '^| livenessProbe\.' "$tmp/md.md"); status "md schema keys: 5 probe rows" 5 "$n"
# the table comes first, untouched: the new sections follow it
t=$(grep -n '^## Values' "$tmp/md.md" | cut -d: -f1); s=$(grep -n '^## Keys documented by the schema' "$tmp/md.md" | cut -d: -f1)
if [ -n "$t" ] && [ -n "$s" ] && [ "$t" -lt "$s" ]; then ok; else fail "schema keys after the values table"; fi
"$SD" $U/md-chart --format md --descriptions comments -o "$tmp/mdc.md" 2>"$tmp/err"
has "--descriptions comments: helm-docs cell" "$tmp/mdc.md" '| nameOverride | string | `""` |  |'

# --- html: one type rule, @default as Markdown, entities, "Deprecated:",
# the whole values.yaml, definition names -----------------------------------
"$SD" $U/html-chart --format html -o "$tmp/hc.html" 2>"$tmp/err"
status "html-chart html" 0 $?
n=$(grep -c '<span class="type">null</span>' "$tmp/hc.html"); status "(string) over an empty default: no null type" 0 "$n"
hasnt "(string) over an empty default: not nullable" "$tmp/hc.html" 'badge-nullable'
has "(int) comment type in html" "$tmp/hc.html" '<span class="type">integer</span>'
has "@default as Markdown" "$tmp/hc.html" '<dd><code>&quot;&quot;</code> (uses the global registry)</dd>'
hasnt "@default: no literal backticks" "$tmp/hc.html" '<dd>`&quot;&quot;`'
has "Deprecated: in words gets the badge" "$tmp/hc.html" '<article class="entry is-deprecated" id="imageName"'
has "whole values.yaml shown" "$tmp/hc.html" '<pre class="values-yaml" id="sd-values-yaml"><code># -- (string) The admin user'"'"'s name'
has "values.yaml copy button" "$tmp/hc.html" 'class="copy" data-copy="sd-values-yaml"'
"$SD" $U/html-chart --format md -o "$tmp/hc.md" 2>"$tmp/err"
hasnt "md: no Deprecated badge from words (helm-docs cells)" "$tmp/hc.md" '**Deprecated'
"$SD" $U/bitnami-entities --format html -o "$tmp/be.html" 2>"$tmp/err"
has "section name entity decoded once" "$tmp/be.html" '<h3 class="section-title">MongoDB(®) parameters</h3>'
hasnt "no double-escaped entity (heading)" "$tmp/be.html" 'MongoDB(&amp;reg;) parameters</h3>'
hasnt "no double-escaped entity (contents)" "$tmp/be.html" 'title="MongoDB(&amp;reg;) parameters"'
"$SD" $U/def-names/schema.json --format html -o "$tmp/dn.html" 2>"$tmp/err"
has "colliding definition named by document and pointer" "$tmp/dn.html" '>condition (other.json#/$defs/condition)</a>'
hasnt "no numbered definition name" "$tmp/dn.html" '>condition-2<'
"$SD" $U/html-chart --format json -o "$tmp/hc.json" 2>"$tmp/err"
has "model: the comment's type" "$tmp/hc.json" '"helm_type": "string"'

# --- pages: what a value is, shown as it is (issue 34) ------------------------
# a title's character references decoded, as descriptions' are; the empty
# string in an enum visible; a Bitnami [default: X] placeholder beside the
# real default
P=$U/page-values
"$SD" $P/schema.json --format html -o "$tmp/pv.html" 2>"$tmp/err"
status "page values html" 0 $?
has "title entity decoded (html)" "$tmp/pv.html" 'MongoDB® architecture'
hasnt "title entity not shown raw" "$tmp/pv.html" '&amp;reg;'
has "enum \"\" visible (html)" "$tmp/pv.html" 'one of: <code class="empty-string" title="the empty string">&quot;&quot;</code>, <code>standalone</code>'
hasnt "no empty code span (html)" "$tmp/pv.html" '<code></code>'
"$SD" $P/schema.json --format md -o "$tmp/pv.md" 2>"$tmp/err"
has "enum \"\" visible (md)" "$tmp/pv.md" 'one of: `""`, `standalone`, `replicaset`'
hasnt "no empty code span (md)" "$tmp/pv.md" '``,'
if [ -d "${CORPUS:-../shared/corpus}/charts/bitnami-nginx" ]; then
    "$SD" "${CORPUS:-../shared/corpus}/charts/bitnami-nginx" --format html -o "$tmp/nginx.html" 2>/dev/null
    has "placeholder beside the real default" "$tmp/nginx.html" \
        '<dd>REGISTRY_NAME <span class="default-real">(in values.yaml: <code>docker.io</code>)</span></dd>'
    hasnt "placeholder alone" "$tmp/nginx.html" '<dd>REGISTRY_NAME</dd>'
fi

# plain `#` comments are the descriptions of a chart that writes neither
# helm-docs nor Bitnami comments: html, the form and the model (json)
PC=tests/golden/render-md-plain-comments/chart
"$SD" $PC --format html -o "$tmp/plain.html" 2>"$tmp/err"
has "plain comment as description (html)" "$tmp/plain.html" '<div class="desc"><p>Number of replicas of the deployment.</p>'
hasnt "commented-out YAML is no description (html)" "$tmp/plain.html" '<div class="desc"><p>replicas: 3'
"$SD" $PC --format form -o "$tmp/plain.form" 2>"$tmp/err"
has "plain comment as description (form)" "$tmp/plain.form" '<p>Number of replicas of the deployment.</p>'
"$SD" $PC --format json -o "$tmp/plain.json" 2>"$tmp/err"
has "plain comment as description (json)" "$tmp/plain.json" '"description": "The image repository.\nWithout a registry, Docker Hub.",'
hasnt "commented-out YAML is no description (json)" "$tmp/plain.json" '"description": "replicas: 3'

# Bitnami --readme refuses inconsistent metadata, as readme-generator does:
# exit 2 and the README untouched
B=tests/golden/readme-bitnami-inconsistent
cp $B/chart/README.md "$tmp/bn-readme.md"
cp -r $B/chart "$tmp/bn-chart"
"$SD" "$tmp/bn-chart" --readme "$tmp/bn-chart/README.md" >"$tmp/out" 2>"$tmp/err"
status "bitnami inconsistent metadata refused" 2 $?
if cmp -s "$tmp/bn-chart/README.md" "$tmp/bn-readme.md"; then ok; else fail "bitnami: README written despite the errors"; fi
"$SD" "$tmp/bn-chart" --readme "$tmp/bn-chart/README.md" --lenient >"$tmp/out" 2>"$tmp/err"
status "bitnami inconsistent metadata, --lenient" 0 $?
has "bitnami --lenient: the table written" "$tmp/bn-chart/README.md" '| `image.registry`'

# a packaged chart given where a chart directory or schema is meant: said
# so (was: "control characters are not allowed (byte 0x1f)" at 1:1)
(cd tests/golden/validate-lint-templates && tar czf "$tmp/pkg.tgz" chart)
"$SD" validate "$tmp/pkg.tgz" tests/golden/validate-lint-templates/ci.yaml >"$tmp/out" 2>"$tmp/err"
status "validate a .tgz: refused" 2 $?
has "validate a .tgz: why" "$tmp/err" 'pkg.tgz: error: this is a packaged chart (gzip-compressed tar)'
hasnt "validate a .tgz: no verdict" "$tmp/out" 'valid'
"$SD" "$tmp/pkg.tgz" --format md -o "$tmp/pkg.md" >"$tmp/out" 2>"$tmp/err"
status "render a .tgz: refused" 2 $?
has "render a .tgz: why" "$tmp/err" 'unpack it (`tar xzf FILE`)'
if [ -e "$tmp/pkg.md" ]; then fail "render a .tgz: a page was written"; else ok; fi

# --- html on a phone (headless Chromium, 320 and 390 px) ---------------------
# No horizontal scroll, the filter first, long paths wrap. A fixture with long
# paths and URLs, the md-chart fixture in both themes, and a big corpus chart.
phone() { # NAME PAGE
    python3 tests/ux/phone_check.py "$2" 320 390 >"$tmp/phone" 2>&1; st=$?
    grep '^figure:' "$tmp/phone"
    if [ $st = 77 ]; then grep '^SKIPPED' "$tmp/phone"; return; fi
    if [ $st = 0 ]; then ok; else fail "phone: $1"; grep -v '^figure:' "$tmp/phone" | head -10; fi
}
"$SD" $U/phone/long.schema.json --format html -o "$tmp/long.html" && phone "long paths" "$tmp/long.html"
"$SD" $U/md-chart --format html -o "$tmp/mdc.html" && phone "md-chart" "$tmp/mdc.html"
"$SD" $U/md-chart --format html --theme compact -o "$tmp/mdcc.html" && phone "md-chart compact" "$tmp/mdcc.html"
# long templated defaults (a line, a block), long keys, a long $ref and branch name
"$SD" $U/phone-defaults --format html -o "$tmp/pd.html" && phone "long defaults and refs" "$tmp/pd.html"
"$SD" $U/phone-defaults --format html --theme compact -o "$tmp/pdc.html" && phone "long defaults and refs, compact" "$tmp/pdc.html"
# every chart of the corpus (its remote documents from the corpus' mirror)
C=${CORPUS:-../shared/corpus}/charts
if [ -d "$C" ]; then
    for ch in "$C"/*/; do
        ch=${ch%/}; n=${ch##*/}
        [ -f "$ch/Chart.yaml" ] || continue
        if "$SD" "$ch" --format html -o "$tmp/$n.html" --offline --cache-dir "$tmp/cache" \
            --map https://raw.githubusercontent.com/yannh/kubernetes-json-schema/master/master-standalone-strict/_definitions.json="$C/../kubernetes/_definitions.json" \
            --map https://raw.githubusercontent.com/="$C/_remote/raw.githubusercontent.com/" 2>/dev/null; then
            phone "$n" "$tmp/$n.html"
            rm -f "$tmp/$n.html"
        else
            fail "phone: $n: no page"
        fi
    done
fi

# --- a large page is written while it is made, still all or nothing -------
# (issue 15: the page's text goes to a temporary file beside the output as
# it grows, so the process never holds the whole page)
K=${CORPUS:-../shared/corpus}/kubernetes/_definitions.json
if [ -f "$K" ]; then
    "$SD" "$K" --format html -o "$tmp/k8s.html" 2>"$tmp/err"
    status "large page to a file" 0 $?
    "$SD" "$K" --format html 2>"$tmp/err" | cmp -s - "$tmp/k8s.html"
    status "large page: stdout and the file agree" 0 $?
    "$SD" "$K" --format json -o "$tmp/k8s.json" 2>"$tmp/err"
    status "large model JSON to a file" 0 $?
    "$SD" "$K" --format json 2>/dev/null | cmp -s - "$tmp/k8s.json"
    status "large model JSON: stdout and the file agree" 0 $?
    ls "$tmp" | grep -q 'tmp[A-Za-z0-9]\{6\}$' && fail "large page: a temporary file was left behind" || ok
    "$SD" "$K" --format html -o "$tmp/missing-dir/k8s.html" >"$tmp/out" 2>"$tmp/err"
    status "large page into a missing directory" 2 $?
    has "large page, missing directory: says why" "$tmp/err" "cannot create output file"
    [ ! -e "$tmp/missing-dir" ] && ok || fail "large page, missing directory: something was made"
    if [ -w /dev/full ]; then
        "$SD" "$K" --format html -o /dev/full >"$tmp/out" 2>"$tmp/err"
        status "large page to a full device" 2 $?
        has "large page, full device: says why" "$tmp/err" "write failed"
    fi
    printf 'keep\n' >"$tmp/keep.html"
    "$SD" "$K" --format html --theme no-such-theme -o "$tmp/keep.html" >"$tmp/out" 2>"$tmp/err"
    status "large page that fails: exit status" 2 $?
    has "large page that fails: the old file is untouched" "$tmp/keep.html" "keep"
fi

# a chart without a schema: its made schema is defined where each value is,
# so a key's Source says that place once (grafana showed values.yaml:1:1 twice)
G=tests/golden/validate-typos-noschema/chart
if "$SD" "$G" --format html -o "$tmp/noschema.html" 2>"$tmp/err"; then
    n=$(python3 -c '
import re, sys
t = open(sys.argv[1]).read()
dds = re.findall(r"<dd class=\"where\">(.*?)</dd>", t, re.S)
print(len(dds), sum(1 for d in dds if len(re.findall(r"<code>([^<]*)</code>", d)) != len(set(re.findall(r"<code>([^<]*)</code>", d)))))
' "$tmp/noschema.html")
    set -- $n
    if [ "${1:-0}" -gt 0 ] && [ "${2:-1}" -eq 0 ]; then ok; else fail "made schema: a place said twice in a key's Source ($2 of $1)"; fi
else
    fail "made schema page: exit status $?"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
