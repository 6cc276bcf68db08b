#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/suite-recursive.sh - `schemadoc --recursive`: every chart of the
# corpus as a site (one page per chart + index.html) with no machine path
# in any page; a repository with a broken chart (the others are done, the
# failure is listed, exit 2); which directories are skipped (charts/,
# hidden, --skip) and --include-subcharts; --readme and --check over a
# repository and for files (as pre-commit passes them); -j 1 and -j 2 write
# the same bytes; the progress line only on a terminal; hostile Chart.yaml
# text inert in the index; --source-url per chart.
# Environment: SD (sanitizer build), CORPUS.
set -u
cd "$(dirname "$0")/.." || exit 2
ROOT=$PWD
SD=${SD:-$ROOT/build/asan/schemadoc}
passed=0 failed=0
ok()   { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
tmp=$(mktemp -d /tmp/sd-recursive-XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# --- the corpus, by absolute paths ------------------------------------------------
if [ -d "${CORPUS:-}/charts" ]; then
    C=$(cd "$CORPUS" && pwd)
    MAPS="--offline --map https://raw.githubusercontent.com/yannh/kubernetes-json-schema/master/master-standalone-strict/_definitions.json=$C/kubernetes/_definitions.json --map https://raw.githubusercontent.com/=$C/charts/_remote/raw.githubusercontent.com/"
    n=$(find "$C/charts" -name Chart.yaml | wc -l)
    "$SD" --recursive "$C/charts" -o "$tmp/site/" -j 2 -q $MAPS 2>"$tmp/err"; st=$?
    [ $st -eq 0 ] && ok || { fail "corpus: exit $st"; head -5 "$tmp/err"; }
    pages=$(find "$tmp/site" -mindepth 2 -name index.html | wc -l)
    [ "$pages" -eq "$n" ] && [ "$n" -ge 13 ] && ok || fail "corpus: $pages pages for $n charts"
    echo "count: $pages corpus charts documented"
    rows=$(grep -c '^<tr><td><a href="' "$tmp/site/index.html")
    [ "$rows" -eq "$n" ] && ok || fail "index.html links $rows charts, expected $n"
    grep -q '<a href="argo-cd/index.html">argo-cd</a>.*<td>[0-9][0-9.]*</td><td>A Helm chart for Argo CD' "$tmp/site/index.html" && ok || fail "index row: name, version, description"
    machine=$(cat "$tmp/site"/*/index.html "$tmp/site/index.html" | grep -o "$C\|$ROOT\|$tmp\|shared/corpus" | wc -l)
    [ "$machine" -eq 0 ] && ok || fail "$machine machine paths in the pages"
    echo "figure: machine paths in the $pages corpus pages (absolute SOURCE and --map): $machine"
    urls=$(cat "$tmp/site/bjw-s-app-template/index.html" | grep -o '<code>https://raw.githubusercontent.com/bjw-s-labs/[^<]*:[0-9]*:[0-9]*</code>' | wc -l)
    [ "$urls" -gt 100 ] && ok || fail "bjw-s-app-template: $urls locations named by their URL"
    [ ! -s "$tmp/err" ] && ok || fail "-q printed: $(head -3 "$tmp/err")"
else
    echo "SKIPPED: no corpus at ${CORPUS:-} (set CORPUS)"
fi

# --- a small repository ------------------------------------------------------------
R=$tmp/repo
mk() { # DIR NAME
    mkdir -p "$R/$1"; cp samples/podinfo/values.yaml samples/podinfo/values.schema.json "$R/$1/"
    printf 'apiVersion: v2\nname: %s\nversion: 1.2.3\ndescription: the %s chart\n' "$2" "$2" > "$R/$1/Chart.yaml"
}
mk charts/alpha alpha
mk charts/beta beta
mk charts/beta/charts/sub sub          # a vendored subchart
mk charts/.hidden/gamma gamma          # hidden: skipped
mk vendor/delta delta                  # skipped with --skip vendor
mk charts/broken broken
printf 'a: [unclosed\n' > "$R/charts/broken/values.yaml"
printf 'apiVersion: v2\nname: "<script>alert(1)</script>"\nversion: "0.1"\ndescription: "a & b <img src=x onerror=alert(1)>"\ndeprecated: true\n' > "$R/charts/alpha/Chart.yaml"

"$SD" --recursive "$R" -o "$tmp/s1" --skip vendor -j 1 >"$tmp/out" 2>"$tmp/err"; st=$?
[ $st -eq 2 ] && ok || fail "a broken chart: exit $st, expected 2"
for c in alpha beta; do [ -s "$tmp/s1/charts/$c/index.html" ] && ok || fail "$c documented despite the broken chart"; done
[ ! -e "$tmp/s1/charts/broken/index.html" ] && ok || fail "the broken chart left a page"
grep -q 'broken/values.yaml:[0-9]*:[0-9]*: error' "$tmp/err" && ok || fail "the broken chart's error is printed with file:line:col"
grep -A3 'of 3 charts failed' "$tmp/err" | grep -q 'charts/broken$' && ok || { fail "failures listed at the end"; cat "$tmp/err"; }
[ ! -e "$tmp/s1/charts/beta/charts" ] && [ ! -e "$tmp/s1/charts/.hidden" ] && [ ! -e "$tmp/s1/vendor" ] && ok || fail "skipped directories were documented"
grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' "$tmp/s1/index.html" && ! grep -q '<script>alert\|<img' "$tmp/s1/index.html" && ok || fail "hostile Chart.yaml text is not inert in index.html"
grep -q 'class="dep">deprecated' "$tmp/s1/index.html" && ok || fail "deprecation in the index"
grep -q 'broken.*(failed)' "$tmp/s1/index.html" && ok || fail "the failed chart is marked in the index"
[ ! -s "$tmp/out" ] && ok || fail "stdout not empty"
# the index is a page like any other: the theme's index/html template makes it
# (render/site_index.c), and the md index's cells are the md page's
mkdir -p "$tmp/theme/index"
printf '<ul>{{#charts}}<li class="t">{{title}} {{path}}{{#failed}} failed{{/failed}}</li>{{/charts}}</ul>\n' > "$tmp/theme/index/html.mustache"
"$SD" --recursive "$R" -o "$tmp/s1t" --skip vendor -j 1 --theme "$tmp/theme" >/dev/null 2>&1
grep -q '<li class="t">&lt;script&gt;alert(1)&lt;/script&gt; charts/alpha</li>' "$tmp/s1t/index.html" &&
    grep -q '<li class="t">broken charts/broken failed</li>' "$tmp/s1t/index.html" && ok ||
    fail "--theme DIR with index/html.mustache does not make the index: $(head -c 300 "$tmp/s1t/index.html")"
printf 'apiVersion: v2\nname: "a|b <i>"\nversion: "1.0"\ndescription: "one | two\\nthree"\n' > "$R/charts/beta/Chart.yaml"
"$SD" --recursive "$R" -o "$tmp/s1m" --format md --skip vendor -j 1 >/dev/null 2>&1
grep -qF '| [a\|b \<i\>](charts/beta/README.md) | 1.0 | one \| two<br>three |' "$tmp/s1m/README.md" &&
    grep -qF '| broken (failed) | 1.2.3 |' "$tmp/s1m/README.md" && ok ||
    { fail "md index rows"; cat "$tmp/s1m/README.md"; }
printf 'apiVersion: v2\nname: beta\nversion: 1.2.3\ndescription: the beta chart\n' > "$R/charts/beta/Chart.yaml"

rm -rf "$R/charts/broken"
"$SD" --recursive "$R" -o "$tmp/s2" --include-subcharts -j 1 -q; st=$?
[ $st -eq 0 ] && ok || fail "--include-subcharts: exit $st"
[ -s "$tmp/s2/charts/beta/charts/sub/index.html" ] && [ -s "$tmp/s2/vendor/delta/index.html" ] && ok || fail "--include-subcharts documents charts/sub (and vendor/ without --skip)"
"$SD" --recursive "$R" -o "$tmp/s3" --include-subcharts -j 2 -q
diff -r "$tmp/s2" "$tmp/s3" >/dev/null && ok || fail "-j 1 and -j 2 write different sites"

# progress only on a terminal
"$SD" --recursive "$R" -o "$tmp/s4" --skip vendor 2>"$tmp/err"
[ ! -s "$tmp/err" ] && ok || fail "no progress when stderr is not a terminal: $(head -2 "$tmp/err")"
if command -v script >/dev/null 2>&1; then
    script -qec "'$SD' --recursive '$R' -o '$tmp/s5' --skip vendor -j 1" /dev/null > "$tmp/tty" 2>&1
    grep -q '\[2/2\] charts/beta' "$tmp/tty" && ok || fail "no progress line on a terminal"
    script -qec "'$SD' --recursive '$R' -o '$tmp/s6' --skip vendor -q" /dev/null > "$tmp/tty" 2>&1
    ! grep -q '\[1/2\]' "$tmp/tty" && ok || fail "progress despite --quiet"
fi

# --source-url: the repository's URL, each chart's path appended
"$SD" --recursive "$R" -o "$tmp/s7" --skip vendor -q --source-url https://example.com/o/r/blob/main/
grep -q 'href="https://example.com/o/r/blob/main/charts/alpha/values.yaml#L[0-9]' "$tmp/s7/charts/alpha/index.html" && ok || fail "--source-url per chart"

# a directory of charts without --recursive; a chart folder with a space
mk "charts/with space" spaced
"$SD" "$R" --skip vendor -o "$tmp/s8" -q --source-url https://example.com/r; st=$?
[ $st -eq 0 ] && [ -s "$tmp/s8/charts/alpha/index.html" ] && [ -s "$tmp/s8/index.html" ] && ok || fail "'schemadoc DIR -o SITE' on a charts repository (exit $st)"
grep -q 'href="https://example.com/r/charts/with%20space/values.yaml#L' "$tmp/s8/charts/with space/index.html" && ok || fail "--source-url: the chart's path percent-encoded"
grep -q 'href="charts/with%20space/index.html"' "$tmp/s8/index.html" && ok || fail "index links percent-encoded"
"$SD" "$R" --skip vendor -o "$tmp/s8" -q --source-url https://example.com/r --check; st=$?
[ $st -eq 0 ] && ok || fail "--check on an up-to-date site: exit $st"
echo '<!-- changed -->' >> "$tmp/s8/index.html"
"$SD" "$R" --skip vendor -o "$tmp/s8" -q --source-url https://example.com/r --check > "$tmp/out"; st=$?
[ $st -eq 1 ] && grep -q 'index.html is not up to date' "$tmp/out" && ok || fail "--check sees a stale index.html (exit $st)"
rm -rf "$R/charts/with space"

# locations relative to the schema file's folder, '../' outside it, from an absolute path
mkdir -p "$tmp/rel/schema" "$tmp/rel/common"
printf '{"type":"object","properties":{"a":{"$ref":"../common/defs.json#/$defs/a"},"b":{"$ref":"sub/b.json"}}}\n' > "$tmp/rel/schema/main.json"
mkdir -p "$tmp/rel/schema/sub"
printf '{"type":"string"}\n' > "$tmp/rel/schema/sub/b.json"
printf '{"$defs":{"a":{"type":"integer"}}}\n' > "$tmp/rel/common/defs.json"
"$SD" "$tmp/rel/schema/main.json" --format json > "$tmp/rel.json"
for want in '"defined_at": "main.json:1:1"' '"defined_at": "../common/defs.json:1:' '"defined_at": "sub/b.json:1:1"'; do
    grep -q "$want" "$tmp/rel.json" && ok || fail "model: $want"
done
[ "$(grep '_at"' "$tmp/rel.json" | grep -c "$tmp")" -eq 0 ] && ok || fail "a machine path in defined_at"

# --readme and --check over a repository, and for files
for c in alpha beta; do printf '# %s\n\n<!-- schemadoc:start -->\n<!-- schemadoc:end -->\n' $c > "$R/charts/$c/README.md"; done
"$SD" --recursive "$R/charts" --readme README.md --check -q >"$tmp/diff"; st=$?
[ $st -eq 1 ] && ok || fail "--check on stale READMEs: exit $st, expected 1"
grep -q '^+| ' "$tmp/diff" && ok || fail "--check prints the difference"
[ "$(grep -c . "$R/charts/alpha/README.md")" -eq 3 ] && ok || fail "--check wrote a README"
"$SD" --recursive "$R/charts/alpha/values.yaml" --readme README.md -q; st=$?
[ $st -eq 0 ] && grep -q '| Key' "$R/charts/alpha/README.md" && ok || fail "a FILE stands for its chart (exit $st)"
[ "$(grep -c . "$R/charts/beta/README.md")" -eq 3 ] && ok || fail "only the FILE's chart is rewritten"
"$SD" --recursive "$R/charts" --readme README.md -q && "$SD" --recursive "$R/charts" --readme README.md --check -q; st=$?
[ $st -eq 0 ] && ok || fail "--check after rewriting: exit $st"
"$SD" --recursive "$R/no-such-dir" --readme README.md >/dev/null 2>&1; [ $? -eq 2 ] && ok || fail "a missing DIR: exit 2"
"$SD" --recursive "$tmp/s1/index.html" --readme README.md -q; [ $? -eq 0 ] && ok || fail "a FILE outside any chart: nothing to do"

# a FILE's chart outside the current directory: its page stays inside SITE
mkdir -p "$tmp/o/repo/c1" "$tmp/o/other/c2"
for d in "$tmp/o/repo/c1" "$tmp/o/other/c2"; do cp samples/podinfo/Chart.yaml samples/podinfo/values.yaml "$d/"; done
(cd "$tmp/o/repo" && "$SD" --recursive ../other/c2/values.yaml c1 -o site -q); st=$?
[ $st -eq 0 ] && [ -s "$tmp/o/repo/site/c2/index.html" ] && [ -s "$tmp/o/repo/site/c1/index.html" ] && ok || fail "FILE outside DIR documented inside SITE (exit $st)"
[ "$(find "$tmp/o" -name index.html | grep -vc "^$tmp/o/repo/site/")" -eq 0 ] && ok || fail "a page written outside SITE"
# a Chart.yaml that is a symbolic link: the index does not read through it
mkdir -p "$tmp/o/link/c3" && cp samples/podinfo/values.yaml "$tmp/o/link/c3/"
printf 'apiVersion: v2\nname: secret-name\nversion: 9.9.9\ndescription: outside text\n' > "$tmp/o/outside.yaml"
ln -s "$tmp/o/outside.yaml" "$tmp/o/link/c3/Chart.yaml"
"$SD" --recursive "$tmp/o/link" -o "$tmp/o/linksite" -q 2>/dev/null
! grep -q 'outside text' "$tmp/o/linksite/index.html" 2>/dev/null && ok || fail "index.html read a Chart.yaml through a symbolic link"

# usage errors
"$SD" --recursive "$R" >/dev/null 2>&1; [ $? -eq 2 ] && ok || fail "neither -o nor --readme: exit 2"
"$SD" --recursive "$R" --readme ../README.md >/dev/null 2>&1; [ $? -eq 2 ] && ok || fail "--readme with a path: exit 2"
"$SD" --recursive "$R" -o "$tmp/x" -j 0 >/dev/null 2>&1; [ $? -eq 2 ] && ok || fail "-j 0: exit 2"
"$SD" --recursive "$R" -o "$tmp/x" --bogus >/dev/null 2>&1; [ $? -eq 2 ] && ok || fail "unknown option: exit 2"

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
