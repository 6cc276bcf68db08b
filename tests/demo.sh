#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/demo.sh - what `make demo` runs: document the bundled sample chart.
set -eu
cd "$(dirname "$0")/.."
SD=${1:-./schemadoc}
mkdir -p out
"$SD" samples/podinfo --format html -o out/podinfo.html
"$SD" samples/podinfo --format md -o out/podinfo.md
"$SD" samples/podinfo --format json -o out/podinfo.json
"$SD" samples/podinfo --format form -o out/podinfo-form.html
echo "schemadoc: documented samples/podinfo:"
echo "  out/podinfo.html  the reference page ($(wc -c < out/podinfo.html) bytes; open it in a browser)"
echo "  out/podinfo.md    Markdown, helm-docs compatible tables ($(wc -c < out/podinfo.md) bytes)"
echo "  out/podinfo.json  the model every template receives (docs/model.md)"
echo "  out/podinfo-form.html  the values form: fill it in offline, download values.yaml (docs/form.md)"
echo "schemadoc: validating a values file against the chart's schema (one error on purpose):"
printf 'replicaCount: "two"\n' > out/demo-values.yaml
"$SD" validate samples/podinfo out/demo-values.yaml || true
