#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/bench-render.sh - whole-process times of `schemadoc SOURCE --format
# html|md` on the reference inputs of ../shared/bench/docs (run by `make
# bench`; figures, never asserted). Uses that folder's wholeproc.py timer
# when present (median of RUNS after one warm-up, peak RSS from one more
# run), else /usr/bin/time. Then the in-process split of the Kubernetes
# definitions (build/rel/bench_render: model build vs view vs templates).
set -u
cd "$(dirname "$0")/.." || exit 2
SD=${SD_REL:-$PWD/schemadoc}
CORPUS=${CORPUS:-../shared/corpus}
RUNS=${RUNS:-5}
TIMER=$CORPUS/../bench/docs/wholeproc.py
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
[ -d "$CORPUS" ] || { echo "skip: no corpus at $CORPUS"; exit 0; }

K8S=$CORPUS/kubernetes/_definitions.json
CRD=$CORPUS/crds/monitoring.coreos.com_prometheuses.yaml
TRAEFIK=$CORPUS/charts/traefik/values.schema.json
REDIS=$CORPUS/charts/bitnami-redis
ARGO=$CORPUS/charts/argo-cd

size() { if [ -d "$1" ]; then cat "$1"/values.yaml "$1"/values.schema.json 2>/dev/null | wc -c; else wc -c < "$1"; fi; }

row() { # NAME SOURCE FORMAT
    cmd="exec $SD $2 --format $3 -o $OUT/$1.$3"
    if [ -f "$TIMER" ]; then
        r=$(/usr/bin/python3 "$TIMER" -n "$RUNS" --warmup 1 --timeout 100 -- sh -c "$cmd" 2>&1)
        wall=$(echo "$r" | awk '/^A wall s/{print $5}')
        cpu=$(echo "$r" | awk '/^A cpu s/{print $5}')
        peak=$(echo "$r" | awk '/^A peak MiB/{print $5}')
    else
        wall=$( { /usr/bin/time -f '%e' sh -c "$cmd"; } 2>&1 | tail -1); cpu=-; peak=-
    fi
    in=$(size "$2")
    printf '%-26s wall %6ss  cpu %6ss  peak %6s MiB  input %8d B  output %9d B\n' \
        "schemadoc-$1-$3" "$wall" "$cpu" "$peak" "$in" "$(wc -c < "$OUT/$1.$3")"
}

echo "# whole process, median of $RUNS (wholeproc.py), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
for f in html md; do
    row k8s "$K8S" $f
    row crd "$CRD" $f
    row traefik "$TRAEFIK" $f
    row redis "$REDIS" $f
    row argocd "$ARGO" $f
done
row model-k8s "$K8S" json

# README updates (issue 18): a Bitnami README's Parameters section next to
# readme-generator itself (installed by ../shared/bench/docs/setup.sh into
# $PERF), and argo-cd's README.md.gotmpl (helm-docs is not packaged).
timecmd() { # NAME CMD
    if [ -f "$TIMER" ]; then
        r=$(/usr/bin/python3 "$TIMER" -n "$RUNS" --warmup 1 --timeout 100 -- sh -c "$2" 2>&1)
        printf '%-26s wall %6ss  cpu %6ss  peak %6s MiB\n' "$1" "$(echo "$r" | awk '/^A wall s/{print $5}')" \
            "$(echo "$r" | awk '/^A cpu s/{print $5}')" "$(echo "$r" | awk '/^A peak MiB/{print $5}')"
    else
        printf '%-26s wall %6ss\n' "$1" "$( { /usr/bin/time -f '%e' sh -c "$2"; } 2>&1 | tail -1)"
    fi
}
mkdir -p "$OUT/rd-sd" "$OUT/rd-rg" "$OUT/rd-argo"
cp "$REDIS/README.md" "$OUT/rd-sd/README.md"; cp "$REDIS/README.md" "$OUT/rd-rg/README.md"
cp "$ARGO/README.md" "$OUT/rd-argo/README.md"
timecmd schemadoc-redis-readme "exec $SD $REDIS --readme $OUT/rd-sd/README.md"
RG=${PERF:-/tmp/perf}/node_modules/.bin/readme-generator
if [ -x "$RG" ]; then
    timecmd readme-generator-redis "exec $RG -v $REDIS/values.yaml -r $OUT/rd-rg/README.md >/dev/null 2>&1"
    cmp -s "$OUT/rd-sd/README.md" "$OUT/rd-rg/README.md" && echo "# the two READMEs are byte-identical" \
        || echo "# the two READMEs differ"
else
    echo "# readme-generator not installed (bash ../shared/bench/docs/setup.sh)"
fi
timecmd schemadoc-argocd-gotmpl "exec $SD $ARGO --readme $OUT/rd-argo/README.md"
B=${SD_BUILD:-build}/rel/bench_render
if [ -x "$B" ]; then
    echo "# in process, first run (cold heap) and best of 5:"
    "$B" "$K8S" html 1; "$B" "$K8S" html 5; "$B" "$K8S" md 1
fi
