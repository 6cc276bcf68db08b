#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/valgrind.sh - a few end-to-end runs of the release binary under
# valgrind (memcheck, leak check full); any error or leak fails the suite.
# Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.." || exit 2
SD=${SD_REL:-./schemadoc}
CORPUS=${CORPUS:-../shared/corpus}
if ! command -v valgrind >/dev/null 2>&1; then
    echo "SKIPPED: valgrind is not installed"; echo "0 passed, 0 failed"; exit 0
fi
passed=0 failed=0
run() { # expected-status args...
    want=$1; shift
    SD_FREE_AT_EXIT=1 valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
        "$SD" "$@" >/dev/null 2>/tmp/sd-vg.$$
    st=$?
    if [ $st -eq "$want" ]; then passed=$((passed + 1)); else
        failed=$((failed + 1)); echo "valgrind: schemadoc $* -> status $st (wanted $want)"; head -20 /tmp/sd-vg.$$
    fi
    rm -f /tmp/sd-vg.$$
}
run 0 samples/podinfo --format json
run 0 tests/golden/load-ok-output/values.yaml --format doc
run 2 tests/golden/load-duplicate-key/dup.yaml
run 2 tests/golden/load-alias-bomb/bomb.yaml
run 2 tests/golden/load-bad-json/bad.json
run 0 debug-k8s-places tests/k8s-places/bitnami-postgresql   # templates read for Kubernetes places
if [ -f "$CORPUS/charts/bitnami-redis/values.yaml" ]; then
    run 0 "$CORPUS/charts/bitnami-redis/values.yaml" --format doc
    # a values file given as a schema is refused (exit 2), with nothing leaked
    run 2 "$CORPUS/charts/bitnami-redis/values.yaml"
else echo "SKIPPED: no corpus chart bitnami-redis under $CORPUS"; fi
if [ -d "$CORPUS/charts/traefik" ]; then run 0 "$CORPUS/charts/traefik"
else echo "SKIPPED: no corpus chart traefik under $CORPUS"; fi
for extra in tests/valgrind.d/*.sh; do [ -f "$extra" ] && . "$extra"; done
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
