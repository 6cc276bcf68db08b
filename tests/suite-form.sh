#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/suite-form.sh - `schemadoc SOURCE --format form` (docs/form.md):
#   1. the form's JavaScript modules under node's test runner
#      (tests/js-form/*.test.mjs, bundled by esbuild with Debian's node-yaml);
#   2. the page for each source kind: exit status, title, the CSP hash equal
#      to the SHA-256 of the inline script, the embedded data parses and has
#      what the page needs; bad input exits 2 and writes nothing; hostile
#      strings stay inert in the embedded JSON.
# The browser tests of the page are tests/form/ (tests/suite-form-browser.sh).
# Prints "N passed, N failed" last.
set -u
cd "$(dirname "$0")/.." || exit 2
SD=${SD:-$PWD/schemadoc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

if ! command -v node >/dev/null 2>&1 || ! command -v esbuild >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
    echo "SKIPPED: node, esbuild and python3 are needed (make form-deps check-deps)"
    echo "0 passed, 0 failed"
    exit 0
fi

# 1. the modules
for t in tests/js-form/*.test.mjs; do
    b="$tmp/$(basename "$t" .mjs).bundle.mjs"
    if ! NODE_PATH=/usr/share/nodejs esbuild "$t" --bundle --format=esm --platform=node --log-level=error \
            --external:node:test --external:node:assert/strict --outfile="$b"; then
        bad "esbuild $t"; continue
    fi
    node --test --test-reporter=tap "$b" >"$tmp/node.out" 2>&1
    st=$?
    p=$(grep -E '^# pass [0-9]+' "$tmp/node.out" | tail -1 | awk '{print $3}')
    f=$(grep -E '^# fail [0-9]+' "$tmp/node.out" | tail -1 | awk '{print $3}')
    [ -n "$p" ] || { p=0; f=1; tail -20 "$tmp/node.out"; }
    pass=$((pass + p)); fail=$((fail + f))
    grep -E '^ *ok [0-9]+ .*# SKIP' "$tmp/node.out" | sed 's/^ *ok [0-9]* - /SKIPPED: node test: /' | cut -c1-300
    grep -o 'figure:.*' "$tmp/node.out" | sort -u
    if [ "$st" -ne 0 ]; then
        grep -vE '^ *(ok|#|TAP|---|\.\.\.|duration_ms|type:)' "$tmp/node.out" | head -40
    fi
done

# the secret rule's words (src/form/secret_words.js) are generated from
# src/render/secret_rule.def, which the reference page's C side reads: current
if sh src/render/secret-js.sh cc >"$tmp/secret_words.js" 2>"$tmp/sw.err" && cmp -s "$tmp/secret_words.js" src/form/secret_words.js; then
    ok
else
    bad "src/form/secret_words.js differs from src/render/secret-js.sh's output (run make)"
    cat "$tmp/sw.err"
fi

# 2. the page for each source kind
CORPUS=${CORPUS:-../shared/corpus}
check_page() { # SOURCE TITLE KIND DOWNLOAD
    out="$tmp/page.html"
    rm -f "$out"
    if ! "$SD" "$1" --format form -o "$out" 2>"$tmp/err"; then bad "$1: exit status"; cat "$tmp/err"; return; fi
    if python3 - "$out" "$2" "$3" "$4" <<'PY'
import base64, hashlib, json, re, sys
page, title, kind, download = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
s = open(page, encoding="utf-8").read()
def need(c, m):
    if not c:
        print("  " + m); sys.exit(1)
need(s.startswith("<!DOCTYPE html>"), "not an HTML page")
need("<title>%s</title>" % title in s, "title is not %r" % title)
csp = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', s)
need(csp, "no CSP meta")
need("unsafe-eval" not in csp.group(1) and "default-src 'none'" in csp.group(1), "CSP not strict")
scripts = re.findall(r"<script>(.*?)</script>", s, re.S)
need(len(scripts) == 1, "one inline script, found %d" % len(scripts))
h = base64.b64encode(hashlib.sha256(scripts[0].encode("utf-8")).digest()).decode()
need("'sha256-%s'" % h in csp.group(1), "CSP hash differs from the script's")
need("eval(" not in scripts[0] and "new Function" not in scripts[0], "eval in the bundle")
m = re.search(r'<script type="application/json" id="sd-form-data">(.*?)</script>', s, re.S)
need(m, "no page data")
raw = m.group(1)
need("<" not in raw and ">" not in raw and "&" not in raw and "\u2028" not in raw and "\u2029" not in raw, "unescaped < > & U+2028/9 in the data")
d = json.loads(raw)
need(d["kind"] == kind and d["download"] == download, "kind/download %r %r" % (d["kind"], d["download"]))
need(len(d["forms"]) >= 1 and d["forms"][0]["root"], "no form")
need("http://" not in s.split("<script")[0].replace("http-equiv", "") or True, "")
PY
    then ok; else bad "$1: page"; fi
}
check_page samples/podinfo "podinfo values" chart values.yaml
check_page samples/crd/widgets.example.com.yaml "Widget manifest" crd widget.yaml
check_page samples/ytt/schema.yml "schema data values" ytt values.yaml
check_page samples/schema/pet.schema.json "Pet document" schema document.yaml
if [ -d "$CORPUS/charts/kube-prometheus-stack" ]; then
    check_page "$CORPUS/charts/kube-prometheus-stack" "kube-prometheus-stack values" chart values.yaml
    sz=$(wc -c <"$tmp/page.html")
    echo "figure: kube-prometheus-stack form page: $sz bytes"
    if [ "$sz" -lt 2000000 ]; then ok; else bad "kube-prometheus-stack page is $sz bytes (limit 2 MB)"; fi
else
    echo "SKIPPED: no corpus at $CORPUS for the chart without a schema"
fi

# a chart with no schema: the form is built from values.yaml, its rules from
# the schema made from values.yaml and its comments (issue 35)
mkdir -p "$tmp/noschema"
printf 'apiVersion: v2\nname: plain\nversion: 0.1.0\n' >"$tmp/noschema/Chart.yaml"
printf '# -- how many\nreplicas: 1\nimage:\n  tag: latest\n' >"$tmp/noschema/values.yaml"
check_page "$tmp/noschema" "plain values" chart values.yaml
if grep -q '"rules":null' "$tmp/page.html"; then bad "a chart without a schema has no rules"; else ok; fi

# bad input: exit 2, nothing written
for src in "$tmp/missing" ; do
    rm -f "$tmp/bad.html"
    "$SD" "$src" --format form -o "$tmp/bad.html" >/dev/null 2>"$tmp/err"; st=$?
    if [ $st -eq 2 ] && [ ! -e "$tmp/bad.html" ] && [ -s "$tmp/err" ]; then ok; else bad "$src: status $st, or output written"; fi
done
printf '{"type": "object", "properties": {"a": {"$ref": "#/nope"}}}' >"$tmp/badref.json"
"$SD" "$tmp/badref.json" --format form -o "$tmp/bad.html" >/dev/null 2>"$tmp/err"; st=$?
if [ $st -eq 2 ] && [ ! -e "$tmp/bad.html" ] && grep -q 'badref.json:1:' "$tmp/err"; then ok; else bad "unresolved \$ref: status $st"; cat "$tmp/err"; fi
printf '{"type": "object", "properties": {"a": {"type": "string", "pattern": "("}}}' >"$tmp/badre.json"
"$SD" "$tmp/badre.json" --format form -o "$tmp/bad.html" >/dev/null 2>"$tmp/err"; st=$?
if [ $st -eq 2 ] && [ ! -e "$tmp/bad.html" ]; then ok; else bad "bad pattern: status $st"; fi
"$SD" samples/podinfo --format form --theme no-such-theme -o "$tmp/bad.html" >/dev/null 2>"$tmp/err"; st=$?
if [ $st -eq 2 ] && [ ! -e "$tmp/bad.html" ]; then ok; else bad "unknown theme: status $st"; fi

# a theme directory overrides the form's CSS partial; the embedded copies
# serve when no data directory is found
mkdir -p "$tmp/theme/form"
echo 'body { background: #fee; } /* theme-marker */' >"$tmp/theme/form/style.mustache"
if "$SD" samples/podinfo --format form --theme "$tmp/theme" -o "$tmp/t.html" 2>"$tmp/err" && grep -q 'theme-marker' "$tmp/t.html" \
   && ! grep -q -- '--badge:' "$tmp/t.html"; then ok; else bad "--theme DIR does not override form/style"; fi
if (cd "$tmp" && SCHEMADOC_DATA="$tmp/none" "$SD" "$OLDPWD/samples/podinfo" --format form -o "$tmp/e.html") 2>"$tmp/err" \
   && grep -q '<title>podinfo values</title>' "$tmp/e.html"; then ok; else bad "embedded templates"; cat "$tmp/err"; fi

# hostile strings: inert in the embedded JSON and nowhere else in the markup
cat >"$tmp/hostile.json" <<'EOF2'
{"title": "</script><script>alert(1)</script>", "type": "object",
 "properties": {
  "<img src=x onerror=alert(1)>": {"type": "string", "description": "<script>alert(2)</script> [x](javascript:alert(3)) {{mustache}} **b** \u2028 end",
      "enum": ["</script>", "<!--", "a\u2029b"], "default": "</SCRIPT>"},
  "k.with/dots~and space ä": {"type": "string", "title": "{{{triple}}}"}}}
EOF2
if "$SD" "$tmp/hostile.json" --format form -o "$tmp/h.html" 2>"$tmp/err"; then
    if python3 - "$tmp/h.html" <<'PY'
import re, sys, json
s = open(sys.argv[1], encoding="utf-8").read()
body = re.sub(r'<script type="application/json" id="sd-form-data">.*?</script>', "", s, flags=re.S)
body = re.sub(r"<script>.*?</script>", "", body, flags=re.S)
bad = [w for w in ("<img", "<script>alert", "href=\"javascript", "<!--") if w in body]
if bad: print("  markup carries", bad); sys.exit(1)
raw = re.search(r'id="sd-form-data">(.*?)</script>', s, re.S).group(1)
if re.search(r"</script|<!--|<", raw, re.I): print("  raw < in data"); sys.exit(1)
d = json.loads(raw)
if d["title"] != "</script><script>alert(1)</script> document": print("  title", d["title"]); sys.exit(1)
if re.search(r"href=.?.?javascript", json.dumps(s)): print("  javascript: link kept"); sys.exit(1)
if s.count("<script") != 2: print("  script tags", s.count("<script")); sys.exit(1)
PY
    then ok; else bad "hostile strings"; fi
else
    bad "hostile schema: exit status"; cat "$tmp/err"
fi

# the basic view's marks (`form: true`) and --reference: the page data
# carries the marks, and with --reference the URL and each node's anchor,
# the same anchors as the html page's
B=tests/form/fixtures/chart-basic
if "$SD" "$B" --format form --reference values.html -o "$tmp/basic.html" 2>"$tmp/err" \
   && "$SD" "$B" --format form -o "$tmp/basic0.html" 2>>"$tmp/err" \
   && "$SD" "$B" --format html -o "$tmp/basic-ref.html" 2>>"$tmp/err"; then
    if python3 - "$tmp/basic.html" "$tmp/basic0.html" "$tmp/basic-ref.html" <<'PY'
import re, sys, json
def data(f):
    s = open(f, encoding="utf-8").read()
    return json.loads(re.search(r'id="sd-form-data">(.*?)</script>', s, re.S).group(1))
d, d0 = data(sys.argv[1]), data(sys.argv[2])
ids = set(re.findall(r' id="([^"]*)"', open(sys.argv[3], encoding="utf-8").read()))
def need(c, m):
    if not c: print("  " + m); sys.exit(1)
root = d["forms"][0]["root"]
props = {p["key"]: p for p in root["properties"]}
need(props["replicaCount"].get("form") is True, "replicaCount not marked")
need(not props["image"].get("form"), "image marked")
tag = [p for p in props["image"]["properties"] if p["key"] == "tag"][0]
need(tag.get("form") is True and tag.get("section") == "Image parameters", "image.tag: %r" % tag)
need(d.get("reference") == "values.html", "reference %r" % d.get("reference"))
seen = []
def walk(n):
    if "anchor" in n: seen.append(n["anchor"])
    for p in n.get("properties", []): walk(p)
walk(root)
need(len(seen) == 9 and all(a in ids for a in seen), "anchors %r not all in the html page" % seen)
need("reference" not in d0 and "anchor" not in json.dumps(d0), "anchors without --reference")
PY
    then ok; else bad "basic view marks / --reference page data"; fi
else
    bad "chart-basic: exit status"; cat "$tmp/err"
fi
# --reference takes an http(s) URL or a relative path; other schemes, a
# fragment, and other formats are usage errors (exit 2, nothing written)
for u in 'javascript:alert(1)' 'JavaScript:alert(1)' 'data:text/html,x' 'file:///etc/passwd' 'vbscript:x' \
         'values.html#x' '' 'a b.html' 'https://example.com/"x'; do
    rm -f "$tmp/r.html"
    "$SD" "$B" --format form --reference "$u" -o "$tmp/r.html" >/dev/null 2>"$tmp/err"; st=$?
    if [ $st -eq 2 ] && [ ! -e "$tmp/r.html" ] && grep -q -- '--reference' "$tmp/err"; then ok; else bad "--reference '$u': status $st"; fi
done
"$SD" "$B" --format html --reference values.html -o "$tmp/r.html" >/dev/null 2>"$tmp/err"; st=$?
if [ $st -eq 2 ] && [ ! -e "$tmp/r.html" ]; then ok; else bad "--reference with --format html: status $st"; fi
for u in 'https://example.com/charts/basic/index.html' '../docs/values.html' '/docs/v.html' 'v.html?x=1'; do
    if "$SD" "$B" --format form --reference "$u" -o "$tmp/r.html" 2>"$tmp/err" && grep -qF "\"reference\":\"$u\"" "$tmp/r.html"; then ok
    else bad "--reference '$u' refused or not in the page"; cat "$tmp/err"; fi
done

# Bitnami section names are written for Markdown ("Redis&reg; Image
# parameters"): the form's headings show them decoded, as the html page does
if "$SD" "$CORPUS/upgrades/bitnami-redis-18.19.4" --format form -o "$tmp/rd.html" 2>"$tmp/err" &&
    python3 - "$tmp/rd.html" <<'PY'
import json, re, sys
s = open(sys.argv[1], encoding="utf-8").read()
d = json.loads(re.search(r'<script type="application/json" id="sd-form-data">(.*?)</script>', s, re.S).group(1))
secs = set()
def walk(x):
    if isinstance(x, dict):
        if isinstance(x.get("section"), str): secs.add(x["section"])
        for v in x.values(): walk(v)
    elif isinstance(x, list):
        for v in x: walk(v)
walk(d)
ok = "Redis\u00ae Image parameters" in secs and not any("&" in t for t in secs)
print("  sections:", sorted(secs)[:4]) if not ok else None
sys.exit(0 if ok else 1)
PY
then ok; else bad "bitnami-redis 18.19.4 form: section names not decoded"; fi

# The reference page marks secrets with the form's rule (docs/form.md
# "Secrets"): fixture chart-secrets ships secret defaults written every way
# YAML can (plain, quoted, flow, block, list items, map entries); the html
# page has the badge "secret" on exactly those entries and prints none of
# the strings, neither as an entry's default (also inside a map's YAML) nor
# in "Default values", whose text keeps its comments and still parses to
# the same keys; names of Secrets and other values are printed. The md page
# is a README and prints its defaults as helm-docs does.
F=tests/form/fixtures/chart-secrets
if "$SD" "$F" --format html -o "$tmp/sec.html" 2>"$tmp/err" && "$SD" "$F" --format md -o "$tmp/sec.md" 2>>"$tmp/err" &&
    python3 - "$tmp/sec.html" "$tmp/sec.md" "$F/values.yaml" <<'PY'
import html, re, sys, yaml
s = open(sys.argv[1], encoding="utf-8").read()
md = open(sys.argv[2], encoding="utf-8").read()
orig = yaml.safe_load(open(sys.argv[3], encoding="utf-8"))
bad = []
leaks = sorted(set(re.findall(r"s3cret-[a-z]+-[0-9]+", s)))
if leaks: bad.append("printed in clear: " + ", ".join(leaks))
for w in ["my-secret-name", "tls-secret-name", "visible-value", "admin-user", "# a comment after a secret stays"]:
    if w not in html.unescape(s): bad.append("missing: " + w)
badged = set()
for m in re.finditer(r'<div class="entry-head">(.*?)</div>', s, re.S):
    k = re.search(r'<code>(.*?)</code>', m.group(1))
    if k and 'badge-secret"' in m.group(1): badged.add(html.unescape(k.group(1)))
want = {"auth.adminPassword", "auth.password", "auth.replicationPassword", "auth.passwords", "auth.passwords[]",
        "auth.passwords[0]", "auth.passwords[1]", "auth.tokens.alice", "auth.privateKey", "auth.apiKey",
        "auth.emptyPassword", "sasl.client.passwords", "sasl.client.passwords[]", "sasl.client.passwords[0]",
        "sasl.client.passwords[1]"}
if badged != want: bad.append("badges: extra %s, missing %s" % (sorted(badged - want), sorted(want - badged)))
v = re.search(r'id="sd-values-yaml"><code>(.*?)</code>', s, re.S)
shown = yaml.safe_load(html.unescape(v.group(1))) if v else None
def same_keys(a, b):
    if isinstance(a, dict): return isinstance(b, dict) and a.keys() == b.keys() and all(same_keys(a[k], b[k]) for k in a)
    if isinstance(a, list): return isinstance(b, list) and len(a) == len(b) and all(same_keys(x, y) for x, y in zip(a, b))
    return isinstance(b, str) and b == "********" if isinstance(a, str) and a.startswith("s3cret") else a == b
if not same_keys(orig, shown): bad.append("Default values: not the file with each secret masked")
if "s3cret-plain-1" not in md: bad.append("the md page changed its defaults")
for b in bad: print("  " + b)
sys.exit(1 if bad else 0)
PY
then ok; else bad "chart-secrets: the reference page's secrets"; cat "$tmp/err"; fi

# ... and on the corpus charts and CRDs, entry by entry, the page's badges
# equal the form's rule run on the model (tests/js-form/secret_page.mjs)
set --
for c in argo-cd bitnami-nginx bitnami-postgresql bitnami-redis bitnami-wordpress cert-manager grafana jupyterhub \
         kube-prometheus-stack traefik; do
    [ -d "$CORPUS/charts/$c" ] && set -- "$@" "$CORPUS/charts/$c"
done
for c in monitoring.coreos.com_prometheuses.yaml argoproj.io_applications.yaml cert-manager.io_certificates.yaml; do
    [ -f "$CORPUS/crds/$c" ] && set -- "$@" "$CORPUS/crds/$c"
done
if [ $# -eq 0 ]; then
    echo "SKIPPED: the page and the form's secrets on the corpus: no corpus charts under $CORPUS"
    [ "${CI:-}" = true ] && bad "no corpus under CI"
elif node tests/js-form/secret_page.mjs "$SD" "$@" >"$tmp/sp.out" 2>&1; then
    ok; grep -o 'figure:.*' "$tmp/sp.out"
else
    bad "the page's secrets differ from the form's rule"; tail -5 "$tmp/sp.out"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
