#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/bench-rules.sh - `make bench` figures of the rules (docs/rules.md):
#  - the export (schemadoc rules) next to compiling the validator it comes
#    from, and the size next to the schema: the Kubernetes definitions, the
#    Prometheus CRD, traefik's values.schema.json (tests/bench_rules.c);
#  - the JavaScript interpreter under node on ../shared/bench/validator's
#    big.json: validate-only MB/s next to ajv's compiled validator, in the
#    same process, alternating runs (CPU time; the machines are shared), and
#    a 10 KB values document. ajv (the pinned version) is installed with npm
#    into WORKDIR/ajv; when that fails only our figures are printed.
#
#   sh tests/bench-rules.sh [WORKDIR]     (default WORKDIR: /tmp/sd-bench-validate)
set -eu
cd "$(dirname "$0")/.."
CORPUS=${CORPUS:-../shared/corpus}
BENCH=${BENCH:-../shared/bench/validator}
W=${1:-/tmp/sd-bench-validate}
B=${SD_BUILD:-build}/rel
mkdir -p "$W"

echo "-- export (CPU time, best of 15): rules vs compiling the validator"
for f in "$CORPUS/kubernetes/_definitions.json" "$CORPUS/crds/monitoring.coreos.com_prometheuses.yaml" \
         "$CORPUS/charts/traefik/values.schema.json"; do
    "$B/bench_rules" "$f" 15
done

if ! command -v node >/dev/null 2>&1; then
    echo "(node not installed: no interpreter figures)"
    exit 0
fi
[ -f "$W/big.json" ] || node "$BENCH/gen-workload.mjs" "$W" >/dev/null
for d in draft7 2020-12; do ./schemadoc rules "$W/schema.$d.json" -o "$W/rules.$d.json"; done
if [ ! -d "$W/ajv/node_modules/ajv" ]; then
    mkdir -p "$W/ajv"
    cp "$BENCH"/*.mjs "$BENCH/package.json" "$W/ajv/"
    (cd "$W/ajv" && npm install --no-audit --no-fund >/dev/null 2>&1) || echo "(npm install of the pinned ajv failed: no ajv figures)"
fi
echo "-- the interpreter (src/form/rules.js) on big.json, validate only"
node tests/js/bench-rules.mjs "$W"
