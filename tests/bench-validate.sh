#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/bench-validate.sh - validator figures on the shared "helmish" workload
# (../shared/bench/validator; not run by `make check`).
#
#   sh tests/bench-validate.sh [WORKDIR]       (default WORKDIR: /tmp/sd-bench-validate)
#
# Prints: whole-process time of `schemadoc validate` on big.json (~5 MB) and on
# one ~8 KB file (median of N runs, wall clock), the unknown-key lint over
# 16k/64k/256k keys the chart lacks, and the in-process figures of
# tests/bench/bench_validate.c: load, compile, validate-only MB/s (verdict only
# and with error details), small files per second. With AJV=1 it also installs
# the pinned reference validators from the npm registry into WORKDIR/ajv and
# runs them in the same sitting (compare ratios: the machines are noisy).
set -eu
cd "$(dirname "$0")/.."
W=${1:-/tmp/sd-bench-validate}
BENCH=${BENCH:-../shared/bench/validator}
RUNS=${RUNS:-11}
mkdir -p "$W"

make -s build-rel build-bench >/dev/null
[ -f "$W/big.json" ] || node "$BENCH/gen-workload.mjs" "$W" >/dev/null
cp build/rel/bench_validate "$W/bench_validate"

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
wall() { # RUNS times: print median seconds of "$@"
    i=0
    while [ $i -lt "$RUNS" ]; do
        s=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s.%N)
        echo "$e - $s" | bc -l
        i=$((i + 1))
    done | median
}

small=$(ls "$W"/small-*.json | head -n 1)
for d in draft7 2020-12; do
    echo "== schema.$d.json"
    printf 'whole process, big.json (%s bytes):   %.3f s\n' "$(wc -c <"$W/big.json")" \
        "$(wall ./schemadoc validate "$W/schema.$d.json" "$W/big.json")"
    printf 'whole process, %s (%s bytes): %.4f s\n' "$(basename "$small")" "$(wc -c <"$small")" \
        "$(wall ./schemadoc validate "$W/schema.$d.json" "$small")"
    "$W/bench_validate" "$W/schema.$d.json" "$W/big.json" 30 "$W"/small-0*.json
done
printf 'process start alone (schemadoc --version): %.4f s\n' "$(wall ./schemadoc --version)"

# the unknown-key lint: a values file of N keys the chart does not have, one
# warning each (issue 39: 16k keys 2.3 s, 32k 9.2 s, 350k over 26 minutes,
# quadratic in Helm's merge; now linear: the time per key stays flat)
mkdir -p "$W/lint/c"
printf 'apiVersion: v2\nname: c\nversion: 1.0.0\n' >"$W/lint/c/Chart.yaml"
printf 'a: 1\n' >"$W/lint/c/values.yaml"
runs=$RUNS
RUNS=3
for n in 16000 64000 256000; do
    [ -f "$W/lint/v$n.yaml" ] ||
        awk -v n=$n 'BEGIN { for (i = 0; i < n; i++) printf "k%07d: 1\n", i }' >"$W/lint/v$n.yaml"
    t=$(wall ./schemadoc validate "$W/lint/c" "$W/lint/v$n.yaml")
    printf 'unknown-key lint, %6s unknown keys: %.3f s (%.2f us per key)\n' "$n" "$t" \
        "$(echo "$t * 1000000 / $n" | bc -l)"
done
RUNS=$runs

if [ "${AJV:-}" = 1 ]; then
    mkdir -p "$W/ajv"
    cp "$BENCH"/*.mjs "$BENCH/package.json" "$W/ajv/"
    (cd "$W/ajv" && [ -d node_modules ] || npm install --no-audit --no-fund >/dev/null 2>&1)
    for v in ajv ajv-allerrors ajv2020; do
        (cd "$W/ajv" && node --expose-gc throughput.mjs "$v" "$W" 20)
    done
    printf 'ajv whole process, big.json: %.3f s\n' \
        "$(wall node "$W/ajv/cli-once.mjs" ajv "$W/schema.draft7.json" "$W/big.json")"
    printf 'ajv whole process, %s: %.3f s\n' "$(basename "$small")" \
        "$(wall node "$W/ajv/cli-once.mjs" ajv "$W/schema.draft7.json" "$small")"
fi
