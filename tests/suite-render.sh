#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/suite-render.sh - html and md pages: the hostile fixture (no script
# runs, tables never break), determinism, README injection and --check,
# themes and custom templates, and the embedded templates when no data
# directory can be found. Prints "N passed, N failed" last.
set -u
cd "$(dirname "$0")/.." || exit 2
ROOT=$PWD
SD=${SD:-$ROOT/schemadoc}
export NO_COLOR=1
passed=0 failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok()   { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
check() { # NAME COMMAND...: the command must succeed
    n=$1; shift
    if "$@" >"$tmp/out" 2>"$tmp/err"; then ok; else fail "$n"; head -20 "$tmp/out" "$tmp/err"; fi
}

# --- hostile fixture -------------------------------------------------------
H=tests/render/hostile
check "hostile html renders" "$SD" $H --format html -o "$tmp/h.html"
check "hostile html: nothing from the chart runs" python3 tests/render/xss_check.py "$tmp/h.html"
check "hostile compact html renders" "$SD" $H --format html --theme compact -o "$tmp/hc.html"
check "hostile compact html: nothing runs" python3 tests/render/xss_check.py "$tmp/hc.html"
check "hostile md renders" "$SD" $H --format md -o "$tmp/h.md"
# what a Markdown viewer that keeps raw HTML would show: nothing runs either
check "hostile md: nothing from the chart runs" python3 tests/render/xss_check.py --md "$tmp/h.md"
# The same schema alone (its $defs become row headings) and a ytt schema
# whose example titles and values are hostile (issue 36 item 13: headings,
# "in definition" notes, example titles, CEL rules and messages, a code fence
# an example tries to close), in md and html.
for f in md html; do
    m=; [ $f = md ] && m=--md
    check "hostile schema $f renders" "$SD" $H/values.schema.json --format $f -o "$tmp/hs.$f"
    check "hostile schema $f: headings and notes stay inert" python3 tests/render/xss_check.py $m "$tmp/hs.$f" \
        --payloads "<svg onload=alert(38)>" "x\`<svg onload=alert(30)>\`y" "<img src=x onerror=alert(33)>" \
        "<img src=x onerror=alert(34)>"
    check "hostile ytt $f renders" "$SD" tests/render/hostile-ytt/schema.yml --format $f -o "$tmp/hy.$f"
    check "hostile ytt $f: example titles and fences stay inert" python3 tests/render/xss_check.py $m "$tmp/hy.$f" \
        --payloads "<svg onload=alert(35)>" "x\`<img src=x onerror=alert(36)>\`y" "<img src=x onerror=alert(37)>"
done
# No line of a chart's text starts an HTML block, and no tag of it is live,
# in any Markdown: the md page, --readme (markers, "## Parameters", Bitnami's
# rewrite) and a README.md.gotmpl (issue 41 item 4): libcmark-gfm with raw
# HTML allowed, then Chromium (no dialog) when playwright-core is there.
mkdir -p "$tmp/mdb"
check "md: no chart text opens an HTML block or a live tag" python3 tests/render/md_blocks.py "$SD" "$tmp/mdb"
if [ -f "${SD_BUILD:-build}/node/node_modules/playwright-core/package.json" ] && [ -x "${CHROMIUM:-/usr/bin/chromium}" ] \
   && [ -z "${SD_NO_BROWSER:-}" ]; then
    check "md: no dialog in Chromium" env SD_BUILD="${SD_BUILD:-build}" node tests/render/md_dialogs.mjs "$tmp/mdb"
else
    echo "SKIPPED: no playwright-core or chromium for the md dialog check"
fi
# Every table line has as many unescaped pipes as its table's header.
check "hostile md: tables keep their columns" python3 - "$tmp/h.md" <<'PY'
import re, sys
want = None
bad = 0
for line in open(sys.argv[1], encoding="utf-8"):
    if not line.startswith("|"):
        want = None
        continue
    n = len(re.findall(r"(?<!\\)\|", line))
    if want is None:
        want = n
    elif n != want:
        print("broken row:", line.rstrip()); bad = 1
sys.exit(bad)
PY

# --- determinism -------------------------------------------------------------
for f in html md; do
    "$SD" samples/podinfo --format $f -o "$tmp/a.$f" && "$SD" samples/podinfo --format $f -o "$tmp/b.$f"
    if cmp -s "$tmp/a.$f" "$tmp/b.$f"; then ok; else fail "podinfo $f differs between runs"; fi
done

# --- the page's script policy: its one inline script, by hash ---------------
# (issue 36 item 15: no 'unsafe-inline'); the default and compact themes and
# a theme with a script of its own
mkdir -p "$tmp/my-theme/html"
printf 'document.documentElement.setAttribute("data-mine", "1");\n' > "$tmp/my-theme/html/script.mustache"
"$SD" samples/podinfo --format html --theme compact -o "$tmp/c.html" && "$SD" samples/podinfo --format html --theme "$tmp/my-theme" -o "$tmp/m.html"
for p in "$tmp/a.html" "$tmp/c.html" "$tmp/m.html" "$tmp/h.html"; do
    check "script policy of $(basename "$p"): one script, its hash, no unsafe-inline" python3 - "$p" <<'PY'
import base64, hashlib, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
csp = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', page).group(1)
src = next(d for d in csp.split(";") if d.strip().startswith("script-src")).split()[1:]
scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
want = "'sha256-%s'" % base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode()
ok = len(scripts) == 1 and src == [want] and "unsafe-inline" not in " ".join(src) and len(scripts[0]) > 20
print(src, len(scripts))
sys.exit(0 if ok else 1)
PY
done
grep -q 'data-mine' "$tmp/m.html" && ok || fail "the theme's own script is the page's"

# --- the page's script, in a headless browser when one is installed ---------
if command -v chromium >/dev/null 2>&1 && [ -z "${SD_NO_BROWSER:-}" ]; then
    js() { # PAGE SCRIPT [nohash]: run SCRIPT after the page's own, print document.title;
           # the page's policy lets SCRIPT run by its hash, unless told not to
        h=$(printf '%s' "$2" | python3 -c 'import sys,hashlib,base64; print(base64.b64encode(hashlib.sha256(sys.stdin.buffer.read()).digest()).decode())')
        [ "${3:-}" = nohash ] && h=none
        sed -e "s|</body>|<script>$2</script></body>|" -e "s|script-src 'sha256-|script-src 'sha256-$h' 'sha256-|" \
            "$1" > "$tmp/js.html"
        timeout 60 chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
            --disable-component-update --disable-sync --user-data-dir="$tmp/chromium" --virtual-time-budget=3000 \
            --dump-dom "file://$tmp/js.html" 2>/dev/null | sed -n 's|.*<title>\([^<]*\)</title>.*|\1|p'
    }
    t=$(js "$tmp/a.html" 'var s=document.getElementById("sd-search");s.value="pullpolicy";s.dispatchEvent(new Event("input"));setTimeout(function(){document.title=[].map.call(document.querySelectorAll(".entry:not(.is-hidden)"),function(e){return e.id}).join(",")},500);')
    if [ "$t" = "image.pullPolicy" ]; then ok; else fail "filter 'pullpolicy' shows '$t'"; fi
    t=$(js "$tmp/a.html" 'document.querySelector("#image .toggle").click();setTimeout(function(){document.title=[].map.call(document.querySelectorAll(".entry.is-hidden"),function(e){return e.id}).join(",")},100);')
    if [ "$t" = "image.repository,image.tag,image.pullPolicy" ]; then ok; else fail "collapsing image hides '$t'"; fi
    t=$(js "$tmp/a.html" 'document.getElementById("sd-dark").click();document.title=document.documentElement.getAttribute("data-theme")+" "+document.getElementById("sd-toolbar").hidden;')
    case "$t" in "dark false"|"light false") ok ;; *) fail "theme toggle and toolbar: '$t'" ;; esac
    # a script the page's policy does not name never runs (an escaping slip
    # that let one in would stay inert: issue 36 item 15)
    t=$(js "$tmp/a.html" 'document.title="injected ran";' nohash)
    case "$t" in *"injected ran"*) fail "a script without its hash ran" ;; ?*) ok ;; *) fail "no title read" ;; esac
else
    echo "SKIPPED: no chromium for the script checks"
fi

# --- README injection --------------------------------------------------------
"$SD" samples/podinfo --format md -o "$tmp/gen.md"
printf '# Title\r\n\r\nHand-written intro.\n' > "$tmp/r1.md"
cp "$tmp/r1.md" "$tmp/r1.orig"
# No markers, no Parameters section, no gotmpl: refused, never a second document (issue 18)
"$SD" samples/podinfo --readme "$tmp/r1.md" >"$tmp/out" 2>"$tmp/err"; st=$?
if [ $st = 2 ] && cmp -s "$tmp/r1.md" "$tmp/r1.orig" && grep -q "add a line '<!-- schemadoc:start -->'" "$tmp/err"; then ok
else fail "readme: no place for the docs is refused, file kept (status $st)"; cat "$tmp/err"; fi
check "readme: a new README" "$SD" samples/podinfo --readme "$tmp/r0.md"
{ printf '<!-- schemadoc:start -->\n'; cat "$tmp/gen.md"; printf '<!-- schemadoc:end -->\n'; } > "$tmp/r0.want"
if cmp -s "$tmp/r0.md" "$tmp/r0.want"; then ok; else fail "readme: a new README holds the page between markers"; diff "$tmp/r0.want" "$tmp/r0.md" | head; fi

printf 'Intro\n<!-- schemadoc:start -->\nold text\n<!-- schemadoc:end -->\nOutro  \nno final newline' > "$tmp/r2.md"
check "readme: markers present" "$SD" samples/podinfo --readme "$tmp/r2.md"
{ printf 'Intro\n<!-- schemadoc:start -->\n'; cat "$tmp/gen.md"; printf '<!-- schemadoc:end -->\nOutro  \nno final newline'; } > "$tmp/r2.want"
if cmp -s "$tmp/r2.md" "$tmp/r2.want"; then ok; else fail "readme: region replaced, rest kept"; diff "$tmp/r2.want" "$tmp/r2.md" | head; fi

cp "$tmp/r2.md" "$tmp/r2.before"
touch -d '2001-01-01' "$tmp/r2.md"
"$SD" samples/podinfo --readme "$tmp/r2.md" >"$tmp/out" 2>&1; st=$?
if [ $st = 0 ] && cmp -s "$tmp/r2.md" "$tmp/r2.before" && [ -z "$(find "$tmp/r2.md" -newer "$tmp/gen.md")" ]; then ok
else fail "readme: current file is left untouched (status $st)"; fi

"$SD" samples/podinfo --readme "$tmp/r2.md" --check >"$tmp/out" 2>&1; st=$?
if [ $st = 0 ] && [ ! -s "$tmp/out" ]; then ok; else fail "--check on a current README: status $st"; cat "$tmp/out"; fi

sed 's/Number of pods to run/Number of pods/' "$tmp/r2.md" > "$tmp/r3.md"
cp "$tmp/r3.md" "$tmp/r3.before"
"$SD" samples/podinfo --readme "$tmp/r3.md" --check >"$tmp/out" 2>"$tmp/err"; st=$?
if [ $st = 1 ] && grep -q '^-| replicaCount | int | `1` | Number of pods |$' "$tmp/out" \
   && grep -q '^+| replicaCount | int | `1` | Number of pods to run |$' "$tmp/out" \
   && grep -q "^--- a/$tmp/r3.md\$" "$tmp/out" && grep -q '^@@ -' "$tmp/out" \
   && cmp -s "$tmp/r3.md" "$tmp/r3.before"; then ok
else fail "--check on a stale README: status $st, diff, file kept"; cat "$tmp/out" "$tmp/err"; fi

# The diff applies: patch(1) turns the old file into the new one, if present.
if command -v patch >/dev/null 2>&1; then
    "$SD" samples/podinfo --readme "$tmp/r3.md" --check > "$tmp/p.diff"
    cp "$tmp/r3.md" "$tmp/r3.patched"
    if patch -s "$tmp/r3.patched" < "$tmp/p.diff" && cmp -s "$tmp/r3.patched" "$tmp/r2.md"; then ok
    else fail "--check diff does not apply with patch"; fi
fi

printf 'a\n<!-- schemadoc:start -->\nb\n' > "$tmp/r4.md"
"$SD" samples/podinfo --readme "$tmp/r4.md" >"$tmp/out" 2>"$tmp/err"; st=$?
if [ $st = 2 ] && grep -q "without a '<!-- schemadoc:end -->'" "$tmp/err"; then ok
else fail "readme: a lone start marker is an error (status $st)"; cat "$tmp/err"; fi

"$SD" samples/podinfo --format html -o "$tmp/page.html"
"$SD" samples/podinfo --format html -o "$tmp/page.html" --check >"$tmp/out"; st=$?
if [ $st = 0 ]; then ok; else fail "--check -o on a current file: status $st"; fi
echo '<p>old</p>' > "$tmp/page.html"
"$SD" samples/podinfo --format html -o "$tmp/page.html" --check >"$tmp/out"; st=$?
if [ $st = 1 ] && grep -q '^-<p>old</p>$' "$tmp/out" && [ "$(cat "$tmp/page.html")" = '<p>old</p>' ]; then ok
else fail "--check -o on a stale file: status $st"; fi

"$SD" samples/podinfo --check >"$tmp/out" 2>&1; st=$?
if [ $st = 2 ]; then ok; else fail "--check alone is a usage error (status $st)"; fi
"$SD" samples/podinfo --format html --readme "$tmp/r1.md" >"$tmp/out" 2>&1; st=$?
if [ $st = 2 ]; then ok; else fail "--readme with --format html is a usage error (status $st)"; fi

# -o on a FIFO (as on /dev/null) writes into it instead of replacing it.
mkfifo "$tmp/fifo"
cat "$tmp/fifo" > "$tmp/fifo.out" &
"$SD" samples/podinfo --format md -o "$tmp/fifo"; st=$?
wait
if [ $st = 0 ] && [ -p "$tmp/fifo" ] && cmp -s "$tmp/fifo.out" "$tmp/gen.md"; then ok
else fail "-o FIFO: status $st, still a FIFO, content"; fi

# --- themes and templates ------------------------------------------------------
check "compact theme" "$SD" samples/podinfo --format html --theme compact -o "$tmp/c.html"
if grep -q 'class="entry compact' "$tmp/c.html" && ! cmp -s "$tmp/c.html" "$tmp/a.html"; then ok
else fail "compact theme replaces the entry block"; fi
"$SD" samples/podinfo --format html --theme nosuch >"$tmp/out" 2>"$tmp/err"; st=$?
if [ $st = 2 ] && grep -q "unknown theme" "$tmp/err"; then ok; else fail "unknown theme: status $st"; cat "$tmp/err"; fi
"$SD" samples/podinfo --format html --theme ../x >"$tmp/out" 2>"$tmp/err"; st=$?
if [ $st = 2 ]; then ok; else fail "missing theme directory: status $st"; fi

mkdir -p "$tmp/mytheme/html"
printf '.entry{border-color:rebeccapurple}\n' > "$tmp/mytheme/html/style.mustache"
check "theme directory" "$SD" samples/podinfo --format html --theme "$tmp/mytheme" -o "$tmp/t.html"
if grep -q rebeccapurple "$tmp/t.html" && grep -q 'id="replicaCount"' "$tmp/t.html"; then ok
else fail "theme directory overrides one partial and keeps the rest"; fi

printf '{{#groups}}{{#sections}}{{#entries}}{{display}}={{type_text}}\n{{/entries}}{{/sections}}{{/groups}}' > "$tmp/list.mustache"
check "custom template" "$SD" samples/podinfo --format md --template "$tmp/list.mustache" -o "$tmp/list.out"
if grep -qx 'replicaCount=integer' "$tmp/list.out" && grep -qx 'image.tag=string' "$tmp/list.out"; then ok
else fail "custom template sees the view"; cat "$tmp/list.out"; fi
# an html page builds the chart's rows only when its templates may read them
printf '{{#rows}}{{key}}={{{default_text}}}\n{{/rows}}' > "$tmp/rows.mustache"
check "custom html template reads rows" "$SD" samples/podinfo --format html --template "$tmp/rows.mustache" -o "$tmp/rows.out"
if grep -qx 'replicaCount=`1`' "$tmp/rows.out" && [ "$(wc -l < "$tmp/rows.out")" -gt 10 ]; then ok
else fail "custom html template sees the rows"; head "$tmp/rows.out"; fi
mkdir -p "$tmp/rowstheme/html"
printf '/*{{#rows}}{{key}};{{/rows}}*/\n' > "$tmp/rowstheme/html/style.mustache"
check "theme partial reads rows" "$SD" samples/podinfo --format html --theme "$tmp/rowstheme" -o "$tmp/rt.html"
if grep -q '/\*image.pullPolicy;.*replicaCount;' "$tmp/rt.html"; then ok
else fail "a theme's partial sees the rows"; grep -n '/\*' "$tmp/rt.html" | head -3; fi
# ... and keeps them when its comments name sections, which group the entries
mkdir -p "$tmp/bn"
printf 'apiVersion: v2\nname: bn\nversion: 1.0.0\n' > "$tmp/bn/Chart.yaml"
printf '## @section Global parameters\n## @param global.imageRegistry Registry\nglobal:\n  imageRegistry: ""\n\n## @section Common parameters\n## @param replicaCount Replicas\nreplicaCount: 1\n' > "$tmp/bn/values.yaml"
check "Bitnami sections html" "$SD" "$tmp/bn" --format html -o "$tmp/bn.html"
if [ "$(grep -c '<h3 class="section-title">\(Global\|Common\) parameters</h3>' "$tmp/bn.html")" = 2 ]; then ok
else fail "an html page groups entries by their @section"; grep -n 'section-title' "$tmp/bn.html"; fi
# (a form, whose templates are not given rows either, keeps the sections)
check "Bitnami sections form" "$SD" "$tmp/bn" --format form -o "$tmp/bn.form.html"
if grep -q '"section":"Global parameters"' "$tmp/bn.form.html" && grep -q '"section":"Common parameters"' "$tmp/bn.form.html"; then ok
else fail "a form groups entries by their @section"; fi
printf '{{>nosuch}}' > "$tmp/bad.mustache"
"$SD" samples/podinfo --format html --template "$tmp/bad.mustache" >"$tmp/out" 2>"$tmp/err"; st=$?
if [ $st = 2 ] && grep -q "unknown partial 'nosuch'" "$tmp/err"; then ok; else fail "custom template with an unknown partial: status $st"; cat "$tmp/err"; fi

# --- embedded templates: a copy of the binary far from any data directory -----
mkdir -p "$tmp/bin" "$tmp/cwd"
cp "$SD" "$tmp/bin/schemadoc"
for f in html md; do
    (cd "$tmp/cwd" && SCHEMADOC_DATA= "$tmp/bin/schemadoc" "$ROOT/samples/podinfo" --format $f -o "$tmp/e.$f") 2>"$tmp/err"
    "$SD" "$ROOT/samples/podinfo" --format $f -o "$tmp/d.$f"
    if cmp -s "$tmp/e.$f" "$tmp/d.$f"; then ok; else fail "embedded $f templates differ from templates/"; cat "$tmp/err"; fi
done
(cd "$tmp/cwd" && "$tmp/bin/schemadoc" "$ROOT/samples/podinfo" --format html --theme compact -o "$tmp/ec.html")
"$SD" "$ROOT/samples/podinfo" --format html --theme compact -o "$tmp/dc.html"
if cmp -s "$tmp/ec.html" "$tmp/dc.html"; then ok; else fail "embedded compact theme differs"; fi

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
