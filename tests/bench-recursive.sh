#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/bench-recursive.sh - charts per second and peak RSS of
# `schemadoc --recursive` with -j 1 and -j 2, on the corpus charts and on a
# synthetic repository of N copies of them under new names (hard links, in
# /tmp). Prints one line per run: "figure: recursive CORPUS -jJ: C charts in
# S s = R charts/s, peak RSS M MiB (largest process)".
#   CORPUS=../shared/corpus N=2000 SD_REL=./schemadoc sh tests/bench-recursive.sh
set -u
cd "$(dirname "$0")/.." || exit 2
SD=${SD_REL:-$PWD/schemadoc}
C=$(cd "${CORPUS:-../shared/corpus}" && pwd) || exit 2
N=${N:-2000}
FMT=${FMT:-html}
MAPS="--offline --map https://raw.githubusercontent.com/yannh/kubernetes-json-schema/master/master-standalone-strict/_definitions.json=$C/kubernetes/_definitions.json --map https://raw.githubusercontent.com/=$C/charts/_remote/raw.githubusercontent.com/"
tmp=$(mktemp -d /tmp/sd-bench-rec-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/repo/charts"
k=0 i=0
while [ $k -lt "$N" ]; do
    for d in "$C"/charts/*/; do
        d=$(basename "$d"); [ "$d" = _remote ] && continue
        [ $k -ge "$N" ] && break
        cp -al "$C/charts/$d" "$tmp/repo/charts/$d-$i"; k=$((k + 1))
    done
    i=$((i + 1))
done
run() { # NAME DIR JOBS
    rm -rf "$tmp/site"
    /usr/bin/time -f '%e %M %U %S' -o "$tmp/time" "$SD" --recursive "$2" -o "$tmp/site/" --format "$FMT" -j "$3" -q $MAPS >/dev/null 2>"$tmp/err"
    st=$?
    n=$(find "$tmp/site" -mindepth 2 -name 'index.html' -o -mindepth 2 -name README.md | wc -l)
    read -r secs kb us ss < "$tmp/time"
    load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null)
    awk -v name="$1" -v j="$3" -v n="$n" -v s="$secs" -v kb="$kb" -v st="$st" -v cpu="$us $ss" -v load="$load" 'BEGIN {
        split(cpu, c, " "); t = c[1] + c[2]
        printf "figure: recursive %s -j%d: %d charts in %.2f s = %.1f charts/s (CPU %.1f s = %.1f ms/chart, load %s), peak RSS %.1f MiB (largest process), exit %d\n",
               name, j, n, s, (s > 0 ? n / s : 0), t, (n > 0 ? 1000 * t / n : 0), load, kb / 1024, st }'
}
run corpus "$C/charts" 1
run corpus "$C/charts" 2
run "synthetic-$N" "$tmp/repo" 1
run "synthetic-$N" "$tmp/repo" 2
