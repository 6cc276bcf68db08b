#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/suite-render-corpus.sh - every corpus chart, CRD, ytt schema and the
# Kubernetes definitions render to html and md with exit status 0 (remote
# $refs from the corpus's offline copies), and the
# html passes the same script/handler/URL checks as the hostile fixture
# (without the payload assertions). Skips when $CORPUS is absent.
set -u
cd "$(dirname "$0")/.." || exit 2
SD=${SD:-$PWD/schemadoc}
CORPUS=${CORPUS:-../shared/corpus}
passed=0 failed=0
if [ ! -d "$CORPUS" ]; then
    echo "SKIPPED: no corpus at $CORPUS"
    echo "0 passed, 0 failed"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Remote $refs come from the corpus's offline copies, as in suite-corpus.sh.
MAPS="--map https://raw.githubusercontent.com/yannh/kubernetes-json-schema/master/master-standalone-strict/=$CORPUS/kubernetes/ --map https://raw.githubusercontent.com/=$CORPUS/charts/_remote/raw.githubusercontent.com/"
set --
for d in "$CORPUS"/charts/*/; do [ -f "$d/Chart.yaml" ] && set -- "$@" "${d%/}"; done
for f in "$CORPUS"/crds/*.yaml "$CORPUS"/kubernetes/_definitions.json \
         $(grep -rl '#@data/values-schema\|#@schema/match' "$CORPUS/ytt" --include='*.y*ml' 2>/dev/null); do
    [ -f "$f" ] && set -- "$@" "$f"
done
for src in "$@"; do
    for fmt in html md; do
        # shellcheck disable=SC2086
        if NO_COLOR=1 "$SD" "$src" --format $fmt -o "$tmp/out.$fmt" $MAPS --cache-dir "$tmp/cache" --offline 2>"$tmp/err"; then
            passed=$((passed + 1))
        else
            failed=$((failed + 1)); echo "FAIL: $src --format $fmt"; head -5 "$tmp/err"
        fi
    done
    if [ -s "$tmp/out.html" ] && python3 - "$tmp/out.html" <<'PY'
import sys
from html.parser import HTMLParser
class C(HTMLParser):
    bad = []; scripts = 0
    def handle_starttag(self, tag, attrs):
        if tag == "script": self.scripts += 1
        for k, v in attrs:
            if k.startswith("on") or (k in ("href", "src") and (v or "").strip().lower().startswith(("javascript:", "data:", "vbscript:"))):
                self.bad.append((tag, k, v))
c = C(); c.feed(open(sys.argv[1], encoding="utf-8").read())
if c.bad or c.scripts != 1:
    print(c.scripts, "scripts;", c.bad[:5]); sys.exit(1)
PY
    then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $src html check"; fi
    rm -f "$tmp/out.html" "$tmp/out.md"
done
# The md tables against the READMEs the charts ship (helm-docs, Bitnami):
# each chart of tests/render/readme_floors must render (exit 0), and at
# least its floor of rows must be compared, all identical.
grep -v '^#' tests/render/readme_floors | while read -r chart floor; do
    [ -n "$chart" ] || continue
    d=$CORPUS/charts/$chart
    rm -f "$tmp/readme.md"
    # shellcheck disable=SC2086
    if ! "$SD" "$d" --format md -o "$tmp/readme.md" $MAPS --cache-dir "$tmp/cache" --offline 2>"$tmp/err"; then
        echo "FAIL: $chart --format md exited with an error"; head -3 "$tmp/err"; echo x >> "$tmp/failed"
        continue
    fi
    if python3 tests/render/readme_tables.py "$d/README.md" "$tmp/readme.md" "$floor" > "$tmp/cmp"; then
        echo x >> "$tmp/passed"
    else
        echo "FAIL: md tables differ from $d/README.md"; sed -n '2,$p' "$tmp/cmp"; echo x >> "$tmp/failed"
    fi
    sed -n 1p "$tmp/cmp"
done
[ -f "$tmp/passed" ] && passed=$((passed + $(wc -l < "$tmp/passed")))
[ -f "$tmp/failed" ] && failed=$((failed + $(wc -l < "$tmp/failed")))
[ "$(grep -vc '^#' tests/render/readme_floors)" -gt 0 ] || { echo "FAIL: no README to compare"; failed=$((failed + 1)); }

# Determinism on the largest input: two runs, same bytes.
K8S=$CORPUS/kubernetes/_definitions.json
if [ -f "$K8S" ]; then
    "$SD" "$K8S" --format html -o "$tmp/k1.html" && "$SD" "$K8S" --format html -o "$tmp/k2.html"
    if cmp -s "$tmp/k1.html" "$tmp/k2.html"; then passed=$((passed + 1))
    else failed=$((failed + 1)); echo "FAIL: Kubernetes definitions html differs between runs"; fi
fi
echo "count: $# corpus sources rendered as html and md"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
