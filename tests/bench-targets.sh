#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/bench-targets.sh - the performance targets of issue 15, each measured
# next to its floor in the same sitting and printed as a ratio with the
# target beside it (figures only, never asserted: the machine is noisy).
#
#   parse floor  whole-process CPU seconds (tests/cpu-time.sh, median of RUNS) of
#                schemadoc against ../shared/bench/docs/parse-floor.c, which
#                parses the same files with jansson or libyaml and exits
#   memory       peak RSS per input byte (render, validate), next to the
#                floor's and ajv's (AJV=1, or when WORKDIR/ajv is installed)
#   start-up     `--version` and one 8 KB validation against an empty C program
#
#   sh tests/bench-targets.sh [WORKDIR]     (default /tmp/sd-bench-validate)
set -u
cd "$(dirname "$0")/.." || exit 2
CORPUS=${CORPUS:-../shared/corpus}
BENCH=${BENCH:-$CORPUS/../bench}
SD=${SD_REL:-$PWD/schemadoc}
RUNS=${RUNS:-11}   # the floors of small charts are 1-4 ms: a median of 11 is steadier
W=${1:-/tmp/sd-bench-validate}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -d "$CORPUS" ] || { echo "skip: no corpus at $CORPUS"; exit 0; }

cc -O2 -o "$tmp/floor" "$BENCH/docs/parse-floor.c" $(pkg-config --cflags --libs jansson yaml-0.1) || exit 2
printf 'int main(void) { return 0; }\n' > "$tmp/empty.c"
cc -O2 -o "$tmp/empty" "$tmp/empty.c" || exit 2
mkdir -p "$W"
[ -f "$W/big.json" ] || node "$BENCH/validator/gen-workload.mjs" "$W" >/dev/null
[ -f "$W/big64.json" ] || { mkdir -p "$W/w64" && node "$BENCH/validator/gen-workload.mjs" "$W/w64" 64000000 >/dev/null &&
    mv "$W/w64/big.json" "$W/big64.json" && rm -rf "$W/w64"; }
# big.json's data as block YAML (load/load_tape.c parses it straight into
# a tape, as the JSON is: issue 41 wanted the same memory per byte)
[ -f "$W/big.yaml" ] || python3 - "$W/big.json" "$W/big.yaml" <<'PY'
import json, sys
def emit(v, ind, out):
    pad = "  " * ind
    if isinstance(v, dict) and v:
        for k, x in v.items():
            if isinstance(x, (dict, list)) and x:
                out.append(f"{pad}{json.dumps(k)}:\n"); emit(x, ind + 1, out)
            else:
                out.append(f"{pad}{json.dumps(k)}: {json.dumps(x)}\n")
    elif isinstance(v, list) and v:
        for x in v:
            if isinstance(x, (dict, list)) and x:
                out.append(f"{pad}-\n"); emit(x, ind + 1, out)
            else:
                out.append(f"{pad}- {json.dumps(x)}\n")
out = []
emit(json.load(open(sys.argv[1])), 0, out)
open(sys.argv[2], "w").write("".join(out))
PY

TIMER=$BENCH/docs/wholeproc.py
. tests/cpu-time.sh
med() { cpu_med "$RUNS" "$@"; }
# the floor of a list of files: the sum of their parses, less the start of
# a process for each file after the first (parse-floor reads one file a run)
floor_of() {
    tot=0 mem=0 first=1
    for f in "$@"; do
        [ $first = 1 ] || tot=$(echo "$tot $EMPTY_CPU" | awk '{print $1 - $2}')
        first=0
        case "$f" in *.json) k=json ;; *) k=yaml ;; esac
        r=$(med "$tmp/floor" "$k" "$f")
        tot=$(echo "$tot ${r% *}" | awk '{print $1 + $2}')
        m=${r#* }; [ "$m" -gt "$mem" ] && mem=$m
    done
    echo "$tot $mem"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
verdict() { awk -v r="$1" -v t="$2" 'BEGIN { print (r != "-" && r <= t) ? "met" : "MISSED" }'; }
bytes() { cat "$@" | wc -c; }

r=$(med "$tmp/empty"); EMPTY_CPU=${r% *}
echo "# issue 15 targets: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), median CPU of $RUNS runs ($(cpu_how))"
echo "## parse floor: whole process, CPU seconds"
printf '%-40s %9s %9s %7s %7s\n' input schemadoc floor ratio target
echo "(floor: parse-floor.c parses the source's files with jansson or libyaml and exits; a chart's floor is the sum over the files it reads)"
# With perf, a row runs schemadoc and its floor in turns, RUNS rounds, and
# the ratio is the median of the rounds' ratios: the machine's pace drifts
# over seconds, and a 2 ms floor measured a minute after its schemadoc run
# moved a chart's ratio by 50%.
floor_row() { # NAME FORMAT TARGET SOURCE FILES...
    name=$1 fmt=$2 target=$3 src=$4; shift 4
    if [ $TASKCLOCK = 1 ]; then
        rm -f "$tmp/rounds"
        # shellcheck disable=SC2086
        "$SD" "$src" $MAPS --format "$fmt" -o /dev/null >/dev/null 2>&1
        i=0
        while [ $i -lt "$RUNS" ]; do
            # shellcheck disable=SC2086
            s=$(cpu_once "$SD" "$src" $MAPS --format "$fmt" -o /dev/null)
            f=0 first=1
            for x in "$@"; do
                case "$x" in *.json) k=json ;; *) k=yaml ;; esac
                [ $first = 1 ] || f=$(echo "$f $(cpu_once "$tmp/empty")" | awk '{print $1 - $2}')
                first=0
                f=$(echo "$f $(cpu_once "$tmp/floor" "$k" "$x")" | awk '{print $1 + $2}')
            done
            echo "$s $f" >>"$tmp/rounds"
            i=$((i + 1))
        done
        # shellcheck disable=SC2046
        set -- $(awk '{ s[NR] = $1; f[NR] = $2; r[NR] = ($2 > 0 ? $1 / $2 : 0) }
            function med(a, n,   i, j, t) {
                for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
                return a[int((n + 1) / 2)]
            }
            END { printf "%.6f %.6f %.2f\n", med(s, NR), med(f, NR), med(r, NR) }' "$tmp/rounds")
        printf '%-40s %8.4fs %8.4fs %6sx %6sx  %s\n' "$name $fmt" "$1" "$2" "$3" "$target" "$(verdict "$3" "$target")"
        return
    fi
    # shellcheck disable=SC2086
    s=$(med "$SD" "$src" $MAPS --format "$fmt" -o /dev/null); f=$(floor_of "$@")
    r=$(ratio "${s% *}" "${f% *}")
    printf '%-40s %8.4fs %8.4fs %6sx %6sx  %s\n' "$name $fmt" "${s% *}" "${f% *}" "$r" "$target" "$(verdict "$r" "$target")"
}
K8S=$CORPUS/kubernetes/_definitions.json
# remote $refs of the corpus charts come from its offline copies
MAPS="--map https://raw.githubusercontent.com/yannh/kubernetes-json-schema/master/master-standalone-strict/=$CORPUS/kubernetes/ --map https://raw.githubusercontent.com/=$CORPUS/charts/_remote/raw.githubusercontent.com/ --offline --cache-dir $tmp/cache"
floor_row kubernetes-definitions html 3 "$K8S" "$K8S"
floor_row kubernetes-definitions md 2.5 "$K8S" "$K8S"
# a chart's floor parses every YAML or JSON file that schemadoc reads for
# it (Chart.yaml, values, schema, subcharts, referenced documents: strace
# tells), else values.yaml and its schema
read_files() { # SOURCE
    if command -v strace >/dev/null 2>&1; then
        # shellcheck disable=SC2086
        strace -f -e trace=openat -o "$tmp/st" "$SD" "$1" $MAPS --format html -o /dev/null >/dev/null 2>&1
        grep -v ENOENT "$tmp/st" | sed -n 's/.*openat([^"]*"\([^"]*\)".*/\1/p' |
            grep -E '\.(json|ya?ml)$' | grep -v "^$tmp" | sort -u
    else
        for f in "$1/values.yaml" "$1/values.schema.json" "$1/values.schema.yaml"; do [ -f "$f" ] && echo "$f"; done
    fi
}
for c in "$CORPUS"/charts/*/; do
    c=${c%/}; n=$(basename "$c")
    [ "$n" = _remote ] && continue
    # shellcheck disable=SC2046
    floor_row "$n" html 5 "$c" $(read_files "$c")
done

echo "## memory: peak RSS per input byte"
# above-start: the peak less that of `schemadoc --version` (the binary's
# and libc's pages and the start-up, before any input), per input byte:
# what the input costs, where B/B also counts what any run costs
vp=$(one "$SD" --version); vp=${vp#* }
printf '%-40s %9s %9s %9s %9s %9s %7s\n' run input peak B/B above-start floor-B/B target
mem_row() { # NAME TARGET INPUT-BYTES FLOOR-FILE CMD...
    name=$1 target=$2 in=$3 ff=$4; shift 4
    p=$(one "$@"); p=${p#* }
    f=$(floor_of "$ff"); f=${f#* }
    r=$(awk -v p="$p" -v n="$in" 'BEGIN { printf "%.1f", p * 1024 / n }')
    printf '%-40s %9d %8dM %9s %11s %9s %6s  %s\n' "$name" "$in" $((p / 1024)) "$r" \
        "$(awk -v p="$p" -v v="$vp" -v n="$in" 'BEGIN { printf "%.1f", (p - v) * 1024 / n }')" \
        "$(awk -v p="$f" -v n="$in" 'BEGIN { printf "%.1f", p * 1024 / n }')" "$target" "$(verdict "$r" "$target")"
}
KPS=$CORPUS/charts/kube-prometheus-stack
mem_row "html kubernetes-definitions" 10 "$(bytes "$K8S")" "$K8S" "$SD" "$K8S" --format html -o /dev/null
mem_row "html kube-prometheus-stack" 10 "$(bytes "$KPS/values.yaml")" "$KPS/values.yaml" "$SD" "$KPS" --format html -o /dev/null
mem_row "validate big.json (5 MB)" 4 "$(bytes "$W/big.json")" "$W/big.json" \
    "$SD" validate "$W/schema.draft7.json" "$W/big.json"
mem_row "validate big64.json (64 MB)" 4 "$(bytes "$W/big64.json")" "$W/big64.json" \
    "$SD" validate "$W/schema.draft7.json" "$W/big64.json"
mem_row "validate big.yaml (big.json as YAML)" 4 "$(bytes "$W/big.yaml")" "$W/big.yaml" \
    "$SD" validate "$W/schema.draft7.json" "$W/big.yaml"
if [ -d "$W/ajv/node_modules" ]; then
    for f in big.json big64.json; do
        p=$(one node "$W/ajv/cli-once.mjs" ajv "$W/schema.draft7.json" "$W/$f"); p=${p#* }
        printf '%-40s %9d %8dM %9s\n' "ajv $f" "$(bytes "$W/$f")" $((p / 1024)) \
            "$(awk -v p="$p" -v n="$(bytes "$W/$f")" 'BEGIN { printf "%.1f", p * 1024 / n }')"
    done
else
    echo "(ajv not installed in $W/ajv: AJV=1 sh tests/bench-validate.sh installs it)"
fi
printf '%-40s %9s %8dK  (the start of every run above)\n' "schemadoc --version" "" "$vp"

echo "## start-up: whole process, wall milliseconds (median of 21)"
wall() {
    i=0
    while [ $i -lt 21 ]; do
        s=$(date +%s%N); "$@" >/dev/null 2>&1; e=$(date +%s%N)
        echo $(((e - s) / 1000))
        i=$((i + 1))
    done | sort -n | sed -n 11p
}
e=$(wall "$tmp/empty")
small=$(ls "$W"/small-*.json | head -n 1)
v=$(wall "$SD" --version)
s=$(wall "$SD" validate "$W/schema.draft7.json" "$small")
printf '%-40s %8.2f ms\n' "empty C program" "$(echo "$e" | awk '{print $1 / 1000}')"
r=$(ratio "$v" "$e"); printf '%-40s %8.2f ms %6sx  target 2x  %s\n' "schemadoc --version" "$(echo "$v" | awk '{print $1 / 1000}')" "$r" "$(verdict "$r" 2)"
r=$(ratio "$s" "$e"); printf '%-40s %8.2f ms %6sx  target 2x  %s\n' "validate one 8 KB file" "$(echo "$s" | awk '{print $1 / 1000}')" "$r" "$(verdict "$r" 2)"
printf '%-40s %s\n' "shared libraries mapped by --version" "$(LD_TRACE_LOADED_OBJECTS=1 "$SD" | wc -l)"

