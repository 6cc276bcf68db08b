#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/suite-k8s.sh - Kubernetes types for chart values (issue 43,
# docs/k8s.md): the committed definitions (src/k8s/k8s_types.json) are what
# src/k8s/gen-types.py makes from the corpus copy of the API schema;
# quantities and IntOrString; the typed keys and their findings (the
# spoils); 0 new findings on every corpus chart's values and CI files.
# Without ../shared the corpus checks are skipped (under CI=true, where the
# corpus exists, that is a failure). Prints "N passed, N failed" last.
set -u
cd "$(dirname "$0")/.." || exit 2
ROOT=$PWD
SD=${SD:-$ROOT/schemadoc}
CORPUS=${CORPUS:-../shared/corpus}
K=tests/k8s
export NO_COLOR=1
passed=0 failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok()   { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
has()  { # NAME FILE TEXT: FILE contains TEXT (fixed string)
    if grep -qF -- "$3" "$2"; then ok; else fail "$1: no '$3' in $2"; head -20 "$2"; fi
}
status() { # NAME EXPECTED ACTUAL
    if [ "$2" = "$3" ]; then ok; else fail "$1: exit status $3, expected $2"; fi
}
count() { # NAME EXPECTED FILE PATTERN: FILE has EXPECTED lines matching PATTERN
    n=$(grep -c -- "$4" "$3")
    if [ "$n" = "$2" ]; then ok; else fail "$1: $n lines with '$4', expected $2"; grep -- "$4" "$3" | head -5; fi
}

# --- the committed subset is current -----------------------------------------
if [ -f "$CORPUS/kubernetes/swagger.json" ] && command -v python3 >/dev/null 2>&1; then
    if python3 src/k8s/gen-types.py "$CORPUS/kubernetes/swagger.json" >"$tmp/types.json" &&
        cmp -s "$tmp/types.json" src/k8s/k8s_types.json; then
        ok
    else
        fail "src/k8s/k8s_types.json is stale: run python3 src/k8s/gen-types.py $CORPUS/kubernetes/swagger.json > src/k8s/k8s_types.json"
    fi
    echo "k8s types: $(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["definitions"]))' src/k8s/k8s_types.json) definitions, $(wc -c < src/k8s/k8s_types.json) bytes of JSON embedded"
elif [ "${CI:-}" = true ]; then
    fail "no $CORPUS/kubernetes/swagger.json (or no python3) under CI=true"
else
    echo "SKIPPED: the staleness check of src/k8s/k8s_types.json (no $CORPUS/kubernetes/swagger.json or no python3)"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
