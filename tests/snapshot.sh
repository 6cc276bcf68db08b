#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/snapshot.sh - every command's output over the corpus, for proving a
# refactor byte-identical: run it with the binary before and after, then
# compare the two folders (diff -r). Not a suite: it proves nothing alone.
#
# Usage: SD=path/to/schemadoc CORPUS=../shared/corpus sh tests/snapshot.sh OUTDIR
#
# Each run writes OUTDIR/NNN.out (stdout, or the -o file), NNN.err (stderr)
# and NNN.cmd (the command line, with the corpus path as $CORPUS, and its
# exit status), so a difference names the run that made it. Runs: every
# chart in every --format (json, doc, html, md, form, adoc), its README
# spliced (--readme), its values validated (text and json), its rules, its
# made schema in each dialect and like each tool; every CRD and ytt schema
# in json, md and html; each schema-gen test file made like each tool; the
# upgrade pairs diffed (md, json) and checked.
set -u
SD=${SD:?set SD to the binary}
CORPUS=$(cd "${CORPUS:-../shared/corpus}" && pwd) || exit 2
OUT=${1:?usage: tests/snapshot.sh OUTDIR}
mkdir -p "$OUT" || exit 2
OUT=$(cd "$OUT" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
MAPS="--map https://raw.githubusercontent.com/yannh/kubernetes-json-schema/master/master-standalone-strict/=$CORPUS/kubernetes/ --map https://raw.githubusercontent.com/=$CORPUS/charts/_remote/raw.githubusercontent.com/"
n=0

# run ARGS...: one run; "@O" in ARGS is the output file (sh has no
# locals: run uses n, id, o, arg, args and rc)
run() {
    n=$((n + 1))
    id=$(printf '%03d' $n)
    o="$tmp/out"
    rm -f "$o"
    args=""
    for arg in "$@"; do
        [ "$arg" = @O ] && arg=$o
        args="$args '$arg'"
    done
    ( cd "$tmp" && eval "NO_COLOR=1 \"\$SD\" $args" ) > "$OUT/$id.out" 2> "$OUT/$id.err"
    rc=$?
    [ -f "$o" ] && mv "$o" "$OUT/$id.out"
    printf '%s\nexit %s\n' "$*" "$rc" | sed "s|$CORPUS|\$CORPUS|g; s|$tmp|\$TMP|g" > "$OUT/$id.cmd"
    sed -i "s|$CORPUS|\$CORPUS|g; s|$tmp|\$TMP|g" "$OUT/$id.out" "$OUT/$id.err"
}

for c in "$CORPUS"/charts/*/; do
    c=${c%/}
    [ "$(basename "$c")" = _remote ] && continue
    for f in json doc html md form adoc; do
        run "$c" --format $f -o @O $MAPS --offline --cache-dir "$tmp/cache"
    done
    run "$c" --format md --descriptions comments -o @O $MAPS --offline --cache-dir "$tmp/cache"
    if [ -f "$c/README.md" ]; then
        cp "$c/README.md" "$tmp/README.md"
        run "$c" --readme "$tmp/README.md" $MAPS --offline --cache-dir "$tmp/cache"
        cat "$tmp/README.md" >> "$OUT/$(printf '%03d' $n).out"
    fi
    run validate "$c" $MAPS --offline --cache-dir "$tmp/cache"
    run validate "$c" --output json $MAPS --offline --cache-dir "$tmp/cache"
    for v in "$c"/ci/*.yaml; do
        [ -f "$v" ] && run validate "$c" "$v" --output json $MAPS --offline --cache-dir "$tmp/cache"
    done
    run rules "$c" -o @O $MAPS --offline --cache-dir "$tmp/cache"
    run schema "$c" -o @O
    for d in schemadoc helm-schema helm-values-schema-json; do
        run schema "$c" --dialect $d -o @O
    done
    for l in helm-schema helm-values-schema-json; do
        run schema "$c" --like $l -o @O
    done
done
for c in "$CORPUS"/crds/*.yaml; do
    for f in json md html; do run "$c" --format $f -o @O; done
done
find "$CORPUS/ytt" -name '*.yml' -o -name '*.yaml' | sort | while read -r y; do
    grep -q 'data/values-schema\|@schema/' "$y" || continue
    echo "$y"
done > "$tmp/ytt"
while read -r y; do
    for f in json md html; do run "$y" --format $f -o @O; done
done < "$tmp/ytt"
find "$CORPUS/schema-gen" -name '*.yaml' | sort > "$tmp/gen"
while read -r y; do
    run schema "$y" -o @O
    for l in helm-schema helm-values-schema-json; do run schema "$y" --like $l -o @O; done
done < "$tmp/gen"
U=$CORPUS/upgrades
for p in postgresql-10.16.3:postgresql-11.0.0 redis-17.17.1:redis-18.19.4; do
    a=$U/bitnami-${p%%:*}; b=$U/bitnami-${p#*:}
    run diff "$a" "$b" --exit-zero
    run diff "$a" "$b" --format json --exit-zero
    run diff "$a" "$b" --format html --exit-zero -o @O
    run upgrade-check "$a" "$b" "$a/values.yaml"
done
echo "snapshot: $n runs in $OUT"
