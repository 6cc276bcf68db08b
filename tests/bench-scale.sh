#!/bin/sh
# tests/bench-scale.sh - the scaling table of `make bench`: each synthetic
# family of tests/gen-scale.py at 1x, 4x, 16x and 64x, rendered to html and
# md (and validated, where the family has a schema), with the CPU seconds
# (user + system) and the peak RSS of the whole process, and the 64x/1x
# ratios (linear growth: time at most 80x, memory at most 70x).
# Figures only, never asserted. SCALES="1 4" runs fewer sizes.
set -u
cd "$(dirname "$0")/.." || exit 2
CORPUS=${CORPUS:-../shared/corpus}
SD=${SD_REL:-./schemadoc}
SCALES=${SCALES:-1 4 16 64}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# CPU seconds (user + system) and peak KB: through ../shared/bench/docs/
# wholeproc.py when present (wait4's microseconds; the median of 11 runs at
# 1x, whose 15-50 ms every ratio divides by, 5 at 4x, 3 from 16x up), else
# one run of GNU time (10 ms steps)
TIMER=$CORPUS/../bench/docs/wholeproc.py
measure() { # SCALE CMD...
    case $1 in 1) n=11 ;; 4) n=5 ;; *) n=3 ;; esac
    shift
    if [ -f "$TIMER" ]; then
        python3 "$TIMER" -n $n --warmup 0 --timeout 300 -- "$@" >"$tmp/t" 2>&1
        grep -q "exit 0 ($n of $n)" "$tmp/t" || { echo "FAILED: $*" >&2; echo "- -"; return; }
        awk '/^A cpu s/ {c = $5} /^A peak MiB/ {m = $5} END {printf "%.3f %d\n", c, m * 1024}' "$tmp/t"
        return
    fi
    /usr/bin/time -f '%U %S %M' -o "$tmp/t" "$@" >/dev/null 2>"$tmp/err" || {
        echo "FAILED: $*" >&2; head -3 "$tmp/err" >&2; echo "- -"; return; }
    awk '{printf "%.2f %d\n", $1 + $2, $3}' "$tmp/t"
}

printf '%-8s %-9s' family what
for n in $SCALES; do printf ' %16s' "${n}x s / MB"; done
printf '   %s\n' "last/1x time, memory"
for fam in values defs wide; do
    for n in $SCALES; do
        case $fam in
        defs) python3 tests/gen-scale.py defs "$n" "$tmp/$fam-$n.json" "$CORPUS" ;;
        *)    python3 tests/gen-scale.py "$fam" "$n" "$tmp/$fam-$n" ;;
        esac
    done
    whats="html md"
    [ "$fam" = wide ] && whats="html md validate"
    for what in $whats; do
        printf '%-8s %-9s' "$fam" "$what"
        first_t="" first_m="" last_t="" last_m=""
        for n in $SCALES; do
            src=$tmp/$fam-$n
            [ "$fam" = defs ] && src=$tmp/$fam-$n.json
            if [ "$what" = validate ]; then
                r=$(measure "$n" "$SD" validate "$src")
            else
                r=$(measure "$n" "$SD" "$src" --format "$what" -o /dev/null)
            fi
            t=${r% *}; m=${r#* }
            if [ "$m" = "-" ]; then printf ' %16s' failed; continue; fi
            printf ' %16s' "$t / $((m / 1024))"
            [ -z "$first_t" ] && first_t=$t first_m=$m
            last_t=$t last_m=$m
        done
        if [ -n "$first_t" ]; then
            awk -v a="$first_t" -v b="$last_t" -v c="$first_m" -v d="$last_m" \
                'BEGIN { printf "   %.1fx, %.1fx\n", (a > 0 ? b / a : 0), d / c }'
        else
            echo
        fi
    done
done
for fam in values defs wide; do
    f=$tmp/$fam-1; [ "$fam" = defs ] && f=$tmp/$fam-1.json
    printf 'input size 1x %s: %s bytes\n' "$fam" "$(du -sb "$f" | cut -f1)"
done
