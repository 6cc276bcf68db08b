#!/bin/sh
# tests/bench.sh - `make bench`: print figures (never asserted) on the large
# inputs of ../shared/corpus. Every section is a separate script or program so
# that it can also be run alone.
set -u
cd "$(dirname "$0")/.." || exit 2
CORPUS=${CORPUS:-../shared/corpus}
B=${SD_BUILD:-build}/rel
echo "== load: our loader (positions + comments) vs the bare parsers (best of 10)"
for f in "$CORPUS/kubernetes/swagger.json" "$CORPUS/kubernetes/_definitions.json"; do
    "$B/bench_load" sd "$f" 10; "$B/bench_load" jansson "$f" 10; "$B/bench_load" yaml "$f" 5
done
for f in "$CORPUS/charts/kube-prometheus-stack/values.yaml" "$CORPUS/charts/bitnami-redis/values.yaml" \
         "$CORPUS/crds/monitoring.coreos.com_prometheuses.yaml"; do
    "$B/bench_load" sd "$f" 10; "$B/bench_load" yaml "$f" 10
done
echo "== mustache: a 10,000-item section over a node-like view"
"$B/bench_mustache" 10000 2
for extra in tests/bench-*.sh; do
    [ -f "$extra" ] || continue
    echo "== $extra"
    sh "$extra"
done
