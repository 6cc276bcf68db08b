#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/bench-scale.sh - the scaling table of `make bench`: each synthetic
# family of tests/gen-scale.py at 1x, 4x, 16x and 64x, rendered to html,
# md, json and form, exported as rules, validated (the wide family against
# its schema), and diffed against a copy with renamed keys and changed
# defaults (values family), with the CPU seconds
# (tests/cpu-time.sh) and the peak RSS of the whole process, and the 64x/1x
# ratios (linear growth: time at most 80x, memory at most 70x), the time
# ratio also measured with the two sizes interleaved (same_sitting below).
# Figures only, never asserted. SCALES="1 4" runs fewer sizes.
set -u
cd "$(dirname "$0")/.." || exit 2
CORPUS=${CORPUS:-../shared/corpus}
SD=${SD_REL:-./schemadoc}
SCALES=${SCALES:-1 4 16 64}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# CPU seconds and peak KB (tests/cpu-time.sh): the median of 11 runs at
# 1x, whose 15-50 ms every ratio divides by, 5 at 4x, 3 from 16x up
TIMER=$CORPUS/../bench/docs/wholeproc.py
. tests/cpu-time.sh
measure() { # SCALE CMD...
    case $1 in 1) n=11 ;; 4) n=5 ;; *) n=3 ;; esac
    shift
    r=$(cpu_med "$n" "$@")
    if [ "$r" = "0 0" ]; then echo "- -"; else echo "$r" | awk '{printf "%.4f %d\n", $1, $2}'; fi
}
run_at() { # SCALE RUNNER...: the runner's words, then the row's command at SCALE
    s=$1
    shift
    src=$tmp/$fam-$s
    [ "$fam" = defs ] && src=$tmp/$fam-$s.json
    if [ "$what" = validate ] || [ "$what" = rules ]; then
        "$@" "$SD" "$what" "$src"
    elif [ "$what" = diff ]; then
        "$@" "$SD" diff "$src" "$src-next"
    else
        "$@" "$SD" "$src" --format "$what" -o /dev/null
    fi
}
once_at() { run_at "$1" cpu_once; }   # SCALE: one run's CPU seconds
# The last/1x time ratio again in one sitting (perf only): three rounds of
# two 1x runs, one run at the largest size, two 1x runs; each round's ratio
# is the large run over the median of its four small ones, and the median
# round is printed. The columns above measure each size after the other,
# minutes apart on a machine whose pace moves.
same_sitting() { # FIRST LAST
    rm -f "$tmp/rounds"
    for k in 1 2 3; do
        a=$(once_at "$1"); b=$(once_at "$1"); t=$(once_at "$2"); c=$(once_at "$1"); d=$(once_at "$1")
        case "$a$b$t$c$d" in *-*) echo "-"; return ;; esac
        printf '%s\n%s\n%s\n%s\n' "$a" "$b" "$c" "$d" | sort -n |
            awk -v t="$t" '{x[NR]=$1} END {m = (x[2] + x[3]) / 2; if (m > 0) printf "%.4f\n", t / m}' >>"$tmp/rounds"
    done
    sort -n "$tmp/rounds" | awk '{x[NR]=$1} END {if (NR == 3) printf "%.1fx\n", x[2]; else print "-"}'
}
echo "(CPU: $(cpu_how))"
printf '%-8s %-9s' family what
for n in $SCALES; do printf ' %16s' "${n}x s / MB"; done
printf '   %s\n' "last/1x time, memory"
for fam in values defs wide; do
    for n in $SCALES; do
        case $fam in
        defs) python3 tests/gen-scale.py defs "$n" "$tmp/$fam-$n.json" "$CORPUS" ;;
        *)    python3 tests/gen-scale.py "$fam" "$n" "$tmp/$fam-$n" ;;
        esac
        if [ "$fam" = values ]; then
            # the next release: a key renamed in every component, defaults changed
            cp -r "$tmp/$fam-$n" "$tmp/$fam-$n-next"
            sed -i 's/replicaCount:/replicas:/; 0~50s/enabled: true/enabled: false/' "$tmp/$fam-$n-next/values.yaml"
        fi
    done
    whats="html md json form rules"
    [ "$fam" = wide ] && whats="$whats validate"
    [ "$fam" = values ] && whats="$whats diff"
    for what in $whats; do
        printf '%-8s %-9s' "$fam" "$what"
        first_t="" first_m="" last_t="" last_m=""
        for n in $SCALES; do
            r=$(run_at "$n" measure "$n")
            t=${r% *}; m=${r#* }
            if [ "$m" = "-" ]; then printf ' %16s' failed; continue; fi
            printf ' %16s' "$t / $((m / 1024))"
            [ -z "$first_t" ] && first_t=$t first_m=$m
            last_t=$t last_m=$m
        done
        if [ -n "$first_t" ]; then
            awk -v a="$first_t" -v b="$last_t" -v c="$first_m" -v d="$last_m" \
                'BEGIN { printf "   %.1fx, %.1fx", (a > 0 ? b / a : 0), d / c }'
            first=${SCALES%% *} last=${SCALES##* }
            if [ $TASKCLOCK = 1 ] && [ "$first" != "$last" ]; then
                printf ' (time in one sitting: %s)\n' "$(same_sitting "$first" "$last")"
            else
                echo
            fi
        else
            echo
        fi
    done
done
for fam in values defs wide; do
    f=$tmp/$fam-1; [ "$fam" = defs ] && f=$tmp/$fam-1.json
    printf 'input size 1x %s: %s bytes\n' "$fam" "$(du -sb "$f" | cut -f1)"
done
