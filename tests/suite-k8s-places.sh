#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/suite-k8s-places.sh - where a chart's templates hand values whole
# to a Kubernetes type (src/k8s/places.c, issue 43 evidence 2), measured
# per corpus chart. The corpus charts ship no templates/, so each has a
# small fixture in tests/k8s-places/CHART/templates/, written after the
# upstream chart's templates with the keys of its corpus values.yaml, and
# beside it expected.tsv: the values paths those templates hand whole to a
# typed manifest place, listed by hand from reading them (the second,
# independent count). For each chart, `schemadoc debug-k8s-places` is
# compared with that list:
#   figure: k8s-places CHART: recall R/N (P%), wrong types W, not expected X
# recall is the share of listed paths placed with the listed type (at
# least 80% passes), wrong a listed path placed with another type, not
# expected a path placed that the list lacks (both must be 0). A chart
# whose list is empty (its templates hand nothing to a typed place) must
# get no place. Every corpus chart must have a fixture; a corpus chart
# with a templates/ of its own is read too (recall printed, not judged).
# Skipped when the corpus is not beside the repo.
set -u
cd "$(dirname "$0")/.." || exit 2
SD=${SD:-$PWD/schemadoc}
CORPUS=${CORPUS:-../shared/corpus}
passed=0 failed=0
ok() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# expected.tsv's short types -> "POINTER<TAB>TYPE<TAB>0|1"
expand() {
    awk -F'\t' '!/^#/ && NF >= 2 {
        t = $2; l = 0
        if (t ~ /\[\]$/) { l = 1; sub(/\[\]$/, "", t) }
        if (t !~ /\./) t = "io.k8s.api.core.v1." t
        else t = "io.k8s.api." t
        print $1 "\t" t "\t" l }' "$1" | sort -u
}

# the places found in chart $1 -> "POINTER<TAB>TYPE<TAB>0|1"
found() {
    "$SD" debug-k8s-places "$1" 2>"$tmp/err" | awk -F'\t' '/^\// {
        print $1 "\t" $2 "\t" ($3 == "list" ? 1 : 0) }' | sort -u
}

# judge CHART FIXTURE_DIR JUDGED(1|0)
judge() {
    name=$1 dir=$2
    expand "$dir/expected.tsv" > "$tmp/want"
    found "$dir" > "$tmp/got"
    n=$(wc -l < "$tmp/want")
    right=$(comm -12 "$tmp/want" "$tmp/got" | wc -l)
    cut -f1 "$tmp/want" | sort -u > "$tmp/wantp"
    cut -f1 "$tmp/got" | sort -u > "$tmp/gotp"
    placed=$(comm -12 "$tmp/wantp" "$tmp/gotp" | wc -l)
    wrong=$((placed - right))
    extra=$(comm -13 "$tmp/wantp" "$tmp/gotp" | wc -l)
    if [ "$n" -gt 0 ]; then
        pct=$((100 * right / n))
        echo "figure: k8s-places $name: recall $right/$n ($pct%), wrong types $wrong, not expected $extra"
    else
        pct=100
        echo "figure: k8s-places $name: recall n/a (no values path handed to a typed place), wrong types $wrong, not expected $extra"
    fi
    [ "$3" = 1 ] || return 0
    if [ "$pct" -ge 80 ] && [ "$wrong" -eq 0 ] && [ "$extra" -eq 0 ]; then
        ok
    else
        fail "$name: recall $right/$n, wrong $wrong, not expected $extra"
        comm -3 "$tmp/want" "$tmp/got" | sed 's/^/    /'
    fi
}

if [ ! -d "$CORPUS/charts" ]; then
    echo "SKIPPED: no corpus at $CORPUS"
else
    total=0 sum=0
    for c in "$CORPUS"/charts/*/; do
        name=$(basename "$c")
        [ "$name" = _remote ] && continue
        if [ -f "tests/k8s-places/$name/expected.tsv" ] && [ -d "tests/k8s-places/$name/templates" ]; then
            ok
            judge "$name" "tests/k8s-places/$name" 1
        else
            fail "$name: no fixture tests/k8s-places/$name/{templates,expected.tsv}"
        fi
        if [ -d "$c/templates" ] && [ -f "tests/k8s-places/$name/expected.tsv" ]; then
            judge "$name (own templates/)" "$c" 0
        fi
    done
fi

# --- the command itself ---------------------------------------------------------
d=tests/k8s-places/bitnami-nginx
if out=$("$SD" debug-k8s-places "$d" /sidecars) && printf '%s\n' "$out" | grep -q "Container	list	templates/deployment.yaml:"; then ok; else fail "debug-k8s-places CHART POINTER: $out"; fi
"$SD" debug-k8s-places "$d" /nothing/here >/dev/null; st=$?
if [ "$st" = 1 ]; then ok; else fail "a pointer with no place: exit $st, want 1"; fi
"$SD" debug-k8s-places "$tmp/missing" >/dev/null 2>&1; st=$?
if [ "$st" = 2 ]; then ok; else fail "a missing input: exit $st, want 2"; fi
if "$SD" debug-k8s-places "$d/templates/deployment.yaml" | grep -q "^/resources	io.k8s.api.core.v1.ResourceRequirements	"; then ok; else fail "one template file"; fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
