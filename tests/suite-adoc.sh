#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/suite-adoc.sh - --format adoc, as asciidoctor reads it: every corpus
# chart, CRD and ytt schema and the Kubernetes definitions render (exit 0) to a page asciidoctor converts
# without a warning (--failure-level=WARN), and the adoc-hostile chart's
# AsciiDoc markup, passthroughs, include:: and ifdef:: directives and
# attribute references in its descriptions, titles, enum values and examples
# show as text in asciidoctor's HTML (tests/render/adoc_check.py). Needs
# asciidoctor (TEST_TOOLS) and python3; SKIPPED without them (CI fails that).
# Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.." || exit 2
SD=${SD:-$PWD/schemadoc}
CORPUS=${CORPUS:-../shared/corpus}
passed=0 failed=0
for tool in asciidoctor python3; do
    if ! command -v $tool >/dev/null 2>&1; then
        echo "SKIPPED: $tool is not installed (make check-deps)"; echo "0 passed, 0 failed"; exit 0
    fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }

# A page, then asciidoctor over it: exit 0 and no warning either way.
page() { # name source [schemadoc options...]
    name=$1 src=$2; shift 2
    if ! NO_COLOR=1 "$SD" "$src" --format adoc -o "$tmp/$name.adoc" "$@" 2>"$tmp/err"; then
        bad "$src --format adoc"; head -5 "$tmp/err"; return 1
    fi
    if asciidoctor --failure-level=WARN -o "$tmp/$name.html" "$tmp/$name.adoc" 2>"$tmp/err" && [ ! -s "$tmp/err" ]; then
        ok
    else
        bad "asciidoctor warns on $src's page"; head -5 "$tmp/err"; return 1
    fi
}

page hostile tests/render/adoc-hostile &&
    if python3 tests/render/adoc_check.py "$tmp/hostile.html" tests/render/adoc-hostile; then ok; else bad "adoc-hostile"; fi

if [ -d "$CORPUS" ]; then
    MAPS="--map https://raw.githubusercontent.com/yannh/kubernetes-json-schema/master/master-standalone-strict/=$CORPUS/kubernetes/ --map https://raw.githubusercontent.com/=$CORPUS/charts/_remote/raw.githubusercontent.com/"
    n=0
    for d in "$CORPUS"/charts/*/; do
        [ -f "$d/Chart.yaml" ] || continue
        n=$((n + 1))
        # shellcheck disable=SC2086
        page "chart$n" "${d%/}" $MAPS --cache-dir "$tmp/cache" --offline
        rm -f "$tmp/chart$n".*
    done
    for f in "$CORPUS"/crds/*.yaml "$CORPUS"/kubernetes/_definitions.json $(grep -rl '#@data/values-schema' "$CORPUS/ytt" --include='*.y*ml' 2>/dev/null); do
        n=$((n + 1))
        page "src$n" "$f"
        rm -f "$tmp/src$n".*
    done
else
    echo "SKIPPED: no corpus at $CORPUS (the hostile chart ran)"
fi

# The format is a row of the table: the usage error and the completions
# list it, and the other page options refuse it by their flags.
"$SD" x --format nope 2>"$tmp/err"
if grep -q "valid formats: json, doc, html, md, form, adoc" "$tmp/err"; then ok; else bad "usage error lists adoc"; cat "$tmp/err"; fi
if "$SD" completion bash | grep -q "json doc html md form adoc"; then ok; else bad "bash completion lists adoc"; fi
if "$SD" tests/render/adoc-hostile --format adoc --source-url https://example.com/ >/dev/null 2>"$tmp/err"; then
    bad "--source-url accepted for adoc"
elif grep -q "'--source-url' applies to the html format" "$tmp/err"; then ok; else bad "--source-url message"; cat "$tmp/err"; fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
