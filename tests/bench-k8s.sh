#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/bench-k8s.sh - what the Kubernetes types (issue 43, docs/k8s.md)
# cost (run by `make bench`; figures, never asserted): the bytes they add to
# the release binary (the embedded definitions and the src/k8s objects,
# text + data), and the time of `schemadoc CHART --format html` and of
# `validate` on the corpus chart with the largest values.yaml, with the
# types off (as before them) and on: median CPU seconds of RUNS, and the
# instructions callgrind counts (the steadier figure). With SD_BASE=OLD (a
# release binary built before the types, e.g. from `git archive 5ebf7ce`),
# the same figures for OLD against this one, and both binaries' stripped
# sizes.
set -u
cd "$(dirname "$0")/.." || exit 2
SD=${SD_REL:-$PWD/schemadoc}
B=${SD_BUILD:-build}/rel
CORPUS=${CORPUS:-../shared/corpus}
RUNS=${RUNS:-7}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

objs=$(ls "$B"/k8stypes.o "$B"/k8s/*.o "$B"/source/check_k8s.o 2>/dev/null)
if [ -n "$objs" ] && command -v size >/dev/null 2>&1; then
    # (LTO objects carry their code twice: count the data and text size
    # reports for the final code, from the fat objects' own sections)
    size $objs | awk 'NR > 1 { t += $1 + $2; printf "  %-34s %8d bytes (text + data)\n", $6, $1 + $2 }
                      END { printf "figure: k8s types add %d bytes (%.1f KB) to the binary; their %d bytes of JSON embedded gzip-compressed in %d\n", t, t / 1024, '"$(wc -c < src/k8s/k8s_types.json)"', '"$(cat "${SD_BUILD:-build}/gen/k8s_types.json.gz" 2>/dev/null | wc -c)"' }'
fi
[ -x "$SD" ] || { echo "skip: no release binary at $SD"; exit 0; }
[ -d "$CORPUS/charts" ] || { echo "skip: no corpus at $CORPUS"; exit 0; }
big=$(ls -S "$CORPUS"/charts/*/values.yaml | head -1)
chart=$(dirname "$big")

med() { # ARGS...: CPU seconds: perf's task-clock, mean of RUNS (the kernel
    # here charges rusage in 10 ms ticks), else the median of GNU time's
    if perf stat -x, -e task-clock -o /dev/null true >/dev/null 2>&1; then
        perf stat -r "$RUNS" -x, -e task-clock -o "$tmp/p" "$SD" "$@" >/dev/null 2>&1
        awk -F, '/task-clock/ {printf "%.4f\n", $1 / 1000}' "$tmp/p"
        return
    fi
    i=0
    while [ $i -lt "$RUNS" ]; do
        /usr/bin/time -f '%U %S' -o "$tmp/t" "$SD" "$@" >/dev/null 2>&1
        tail -n 1 "$tmp/t" | awk '{printf "%.3f\n", $1 + $2}'
        i=$((i + 1))
    done | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'
}
# instructions (callgrind), which a machine shared with other work does not
# blur as it blurs a 20 ms time
instr() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$SD" "$@" 2>&1 >/dev/null |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0) printf "%+.1f%%", (b - a) * 100 / a; else print "n/a" }'; }
for what in html validate; do
    if [ $what = html ]; then args="$chart --format html -o $tmp/page.html"; else args="validate $chart"; fi
    # shellcheck disable=SC2086
    off=$(med $args --k8s-types off); on=$(med $args)
    echo "figure: k8s $what $(basename "$chart") ($(wc -c < "$big") bytes of values): types off ${off} s, on ${on} s ($(pct "$off" "$on"), CPU of $RUNS runs)"
    if command -v valgrind >/dev/null 2>&1; then
        # shellcheck disable=SC2086
        ioff=$(instr $args --k8s-types off); ion=$(instr $args)
        echo "figure: k8s $what $(basename "$chart"): types off $ioff instructions, on $ion ($(pct "$ioff" "$ion"))"
    fi
done

# before and after: a binary without the types at all
if [ -n "${SD_BASE:-}" ] && [ -x "$SD_BASE" ]; then
    cp "$SD_BASE" "$tmp/old" && cp "$SD" "$tmp/new" && strip "$tmp/old" "$tmp/new" 2>/dev/null &&
        echo "figure: k8s binary (stripped): before $(wc -c < "$tmp/old") bytes, after $(wc -c < "$tmp/new") ($(( $(wc -c < "$tmp/new") - $(wc -c < "$tmp/old") )) bytes added)"
    new=$SD
    args="$chart --format html -o $tmp/page.html"
    # shellcheck disable=SC2086
    SD=$SD_BASE; b=$(med $args); bi=$(command -v valgrind >/dev/null 2>&1 && instr $args)
    # shellcheck disable=SC2086
    SD=$new; a=$(med $args); ai=$(command -v valgrind >/dev/null 2>&1 && instr $args)
    echo "figure: k8s html $(basename "$chart"), before/after: ${b} s / ${a} s ($(pct "$b" "$a")); ${bi:-?} / ${ai:-?} instructions ($(pct "${bi:-0}" "${ai:-0}"))"
fi
