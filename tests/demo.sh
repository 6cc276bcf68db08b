#!/bin/sh
# tests/demo.sh - what `make demo` runs: document the bundled sample chart.
set -eu
cd "$(dirname "$0")/.."
SD=${1:-./schemadoc}
mkdir -p out
"$SD" samples/podinfo --format json -o out/podinfo.json
echo "schemadoc: documented samples/podinfo -> out/podinfo.json ($(wc -c < out/podinfo.json) bytes)"
echo "schemadoc: the first lines of the model:"
head -n 20 out/podinfo.json
