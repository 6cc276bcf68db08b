#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/layer-check.sh - keep the pipeline one-way (make layer-check).
#
# Each folder of src/ is a stage; a stage may include the headers of the
# stages listed for it below and nothing else of ours. Headers are included
# by name ("buf.h"), so names must be unique across src/: checked first.
# src/schemadoc.h, the public header, includes standard headers only, and
# every stage may include it (its error codes, severities and version).
# Prints each violation as FILE:LINE: and exits 1 if there is any.
# The rooms that were one dialect/ folder sit between load and resolve, in
# this order: comments, ytt, helm, schemagen (reads comments), rows (reads
# comments); none of them includes a later one.
set -u
cd "$(dirname "$0")/.." || exit 2

# stage: the stages it may include (its own included)
allowed() {
    case $1 in
    util)     echo "util" ;;
    mustache) echo "util mustache" ;;
    gotmpl)   echo "util gotmpl" ;;
    tree)     echo "util tree" ;;
    load)     echo "util tree load" ;;
    comments) echo "util tree load comments" ;;            # doc comments -> annotations (a comment parsed as YAML: load)
    ytt)      echo "util tree ytt" ;;                      # ytt schemas and their Starlark
    helm)     echo "util gotmpl tree helm" ;;              # tmplrefs.c reads templates with gotmpl's lexer
    schemagen) echo "util tree load comments schemagen" ;; # a schema made from values and their comments
    rows)     echo "util tree comments rows" ;;            # the README rows: the model builds them, so not in render/
    resolve)  echo "util tree load resolve" ;;
    validate) echo "util tree load resolve validate" ;;
    k8s)      echo "util gotmpl tree load comments ytt helm schemagen rows resolve validate k8s" ;;   # Kubernetes types (issue 43)
    source)   echo "util tree load comments ytt helm schemagen rows resolve validate k8s source" ;;
    model)    echo "util tree load comments ytt helm schemagen rows resolve validate k8s source model" ;;
    diff)     echo "util tree load comments ytt helm schemagen rows resolve validate k8s source model diff" ;;
    render)   echo "util tree load comments ytt helm schemagen rows resolve validate k8s source model diff mustache gotmpl render" ;;
    api)      echo "util tree load comments ytt helm schemagen rows resolve validate k8s source model diff mustache gotmpl render api" ;;
    lsp)      echo "util tree load comments ytt helm schemagen rows resolve validate k8s source model diff mustache gotmpl render api lsp" ;;   # the language server (issue 44)
    cli)      echo "util tree load comments ytt helm schemagen rows resolve validate k8s source model diff mustache gotmpl render api lsp cli" ;;
    form)     echo "form" ;;
    *)        echo "" ;;
    esac
}

bad=0
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

# header name -> stage
find src -mindepth 2 -name '*.h' | sort > "$tmp"
dups=$(sed 's|.*/||' "$tmp" | sort | uniq -d)
if [ -n "$dups" ]; then
    echo "layer-check: header names used twice: $dups"
    bad=1
fi

for dir in src/*/; do
    stage=$(basename "$dir")
    ok=$(allowed "$stage")
    if [ -z "$ok" ]; then
        echo "layer-check: $dir is not a known stage (add it to tests/layer-check.sh)"
        bad=1
        continue
    fi
    for f in "$dir"*.c "$dir"*.h; do
        [ -f "$f" ] || continue
        grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" | while IFS= read -r line; do
            ln=${line%%:*}
            h=$(echo "$line" | sed 's/.*include[[:space:]]*"\([^"]*\)".*/\1/')
            case $h in
            schemadoc.h) continue ;;   # the public header: standard types only, for every stage
            */*) hs=${h%%/*} ;;
            *) hs=$(grep "/$h\$" "$tmp" | head -n 1 | sed 's|^src/\([^/]*\)/.*|\1|') ;;
            esac
            if [ -z "$hs" ]; then
                # a generated or system header included with quotes
                continue
            fi
            case " $ok " in
            *" $hs "*) ;;
            *) echo "$f:$ln: stage '$stage' includes '$h' of the later stage '$hs'"; echo x >> "$tmp.bad" ;;
            esac
        done
    done
done
[ -s "$tmp.bad" ] && bad=1
rm -f "$tmp.bad"

if [ -f src/schemadoc.h ] && grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' src/schemadoc.h; then
    echo "src/schemadoc.h: the public header includes standard headers only"
    bad=1
fi

if [ $bad = 0 ]; then
    echo "layer-check: $(ls -d src/*/ | wc -l) stages, every include points back"
fi
exit $bad
