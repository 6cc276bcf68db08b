#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/bench-diff.sh - `schemadoc diff` of the Kubernetes definitions
# (corpus) against a copy with 50 random edits (seeded: properties removed
# and added, types, defaults, enums, maximums and descriptions changed):
# median of 5 runs of the whole command (both models built, compared,
# Markdown written). Budget: 0.5 s. Prints figures, asserts nothing.
set -u
cd "$(dirname "$0")/.." || exit 2
CORPUS=${CORPUS:-../shared/corpus}
SD=${SD_REL:-./schemadoc}
K=$CORPUS/kubernetes/_definitions.json
[ -f "$K" ] || { echo "SKIPPED: no $K"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 tests/diff_edit.py "$K" "$tmp/edited.json" 50 >"$tmp/edits"
times=""
for i in 1 2 3 4 5; do
    s=$(date +%s%N)
    "$SD" diff "$K" "$tmp/edited.json" -o "$tmp/out.md" 2>/dev/null
    e=$(date +%s%N)
    times="$times $(( (e - s) / 1000000 ))"
done
med=$(echo $times | tr ' ' '\n' | sort -n | sed -n 3p)
n=$(grep -c '^| `' "$tmp/out.md")
one=$( s=$(date +%s%N); "$SD" "$K" -o /dev/null; e=$(date +%s%N); echo $(( (e - s) / 1000000 )) )
echo "diff of the Kubernetes definitions, 50 edits: ${med} ms median of 5 (runs:$times ms; budget 500 ms); $n changes listed; one model alone: ${one} ms"
