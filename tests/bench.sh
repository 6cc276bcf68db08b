#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/bench.sh - `make bench`: print figures (never asserted) on the large
# inputs of ../shared/corpus. Every section is a separate script or program so
# that it can also be run alone.
set -u
cd "$(dirname "$0")/.." || exit 2
CORPUS=${CORPUS:-../shared/corpus}
B=${SD_BUILD:-build}/rel
# cold: one load per process, as a command-line run pays it (median of 5);
# warm: best of 10 loads in one process (the parser's own speed)
cold() { # MODE FILE
    for i in 1 2 3 4 5; do "$B/bench_load" "$1" "$2" 1; done |
        awk '{for (i = 1; i <= NF; i++) if ($i == "ms") print $(i - 1)}' | sort -n | sed -n 3p
}
echo "== load: our loader (positions + comments) vs the bare parsers"
printf '%-62s %10s %10s %10s %10s\n' "file" "sd cold" "bare cold" "sd warm" "bare warm"
for f in "$CORPUS/kubernetes/swagger.json" "$CORPUS/kubernetes/_definitions.json" \
         "$CORPUS/charts/kube-prometheus-stack/values.yaml" "$CORPUS/charts/bitnami-redis/values.yaml" \
         "$CORPUS/crds/monitoring.coreos.com_prometheuses.yaml"; do
    case "$f" in *.json) bare=jansson ;; *) bare=yaml ;; esac
    sw=$("$B/bench_load" sd "$f" 10 | awk '{for (i = 1; i <= NF; i++) if ($i == "ms") print $(i - 1)}')
    bw=$("$B/bench_load" $bare "$f" 10 | awk '{for (i = 1; i <= NF; i++) if ($i == "ms") print $(i - 1)}')
    printf '%-62s %8s ms %8s ms %8s ms %8s ms  (bare = %s)\n' "$f" "$(cold sd "$f")" "$(cold $bare "$f")" "$sw" "$bw" "$bare"
done
echo "== resolve: every \$ref of the Kubernetes definitions (refs into paths of swagger.json are not schema refs)"
"$B/bench_resolve" "$CORPUS/kubernetes/_definitions.json" 10
"$B/bench_resolve" "$CORPUS/kubernetes/swagger.json" 5
echo "== mustache: a 10,000-item section over a node-like view"
"$B/bench_mustache" 10000 2
for extra in tests/bench-*.sh; do
    [ -f "$extra" ] || continue
    echo "== $extra"
    sh "$extra"
done
