#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/suite-corpus.sh - acceptance on real data: every chart, CRD, ytt
# schema and both Kubernetes files of the corpus build a model with exit 0
# (remote $refs served from the corpus's offline copies through --map), and
# every chart with ci/ values passes them without a finding, a spoiled copy
# gives exactly its finding, and each Bitnami DEPRECATED key set warns
# (tests/corpus_ci.py).
# Skipped when the corpus is not beside the repo.
cd "$(dirname "$0")/.." || exit 2
CORPUS=${CORPUS:-../shared/corpus}
SD=${SD:-./schemadoc}
if [ ! -d "$CORPUS/charts" ]; then
    echo "SKIPPED: no corpus at $CORPUS"; echo "0 passed, 0 failed"; exit 0
fi
MAPS="--map https://raw.githubusercontent.com/yannh/kubernetes-json-schema/master/master-standalone-strict/=$CORPUS/kubernetes/ --map https://raw.githubusercontent.com/=$CORPUS/charts/_remote/raw.githubusercontent.com/"
passed=0 failed=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for src in "$CORPUS"/charts/*/ "$CORPUS"/crds/*.yaml "$CORPUS"/kubernetes/_definitions.json \
           "$CORPUS"/kubernetes/swagger.json $(grep -rl '#@data/values-schema\|#@schema/match' "$CORPUS/ytt" --include='*.y*ml'); do
    case "$src" in */_remote/) continue ;; esac
    # shellcheck disable=SC2086
    if "$SD" "$src" $MAPS --cache-dir "$tmp/cache" --offline >"$tmp/out.json" 2>"$tmp/err"; then
        if python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$tmp/out.json"; then
            passed=$((passed + 1))
        else
            failed=$((failed + 1)); echo "FAIL (bad JSON): $src"
        fi
    else
        failed=$((failed + 1)); echo "FAIL: $src"; head -5 "$tmp/err"
    fi
done
echo "figure: corpus sources loaded $passed/$((passed + failed))"
# every chart against its own CI values: no finding at all; a spoiled copy
# (a typo'd key, a wrong type, a bad enum value) gives exactly its finding
if python3 -c 'import yaml' 2>/dev/null; then
    if python3 tests/corpus_ci.py "$SD" "$CORPUS" "$tmp" >"$tmp/ci" 2>&1; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1)); echo "FAIL: the charts' own CI values"
    fi
    grep '^FAIL\|^figure\|^no enum' "$tmp/ci"
else
    echo "SKIPPED: no python3-yaml for the CI values check"
fi
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
