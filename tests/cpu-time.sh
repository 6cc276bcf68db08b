# SPDX-License-Identifier: Apache-2.0
# tests/cpu-time.sh - sourced by tests/bench-targets.sh and
# tests/bench-scale.sh: whole-process CPU seconds and peak memory.
#
#   cpu_once CMD...    (perf only) prints the CPU seconds of one run, or
#                      "-" when it fails
#   cpu_med N CMD...   prints "CPU-seconds peak-KB": the median CPU time of
#                      N runs (exit status 0 or 1 accepted) and the peak RSS
#                      of one more run under GNU time; "0 0" and a message
#                      on stderr when a run fails
#
# CPU time is perf's task-clock (nanoseconds) where perf runs. The kernel
# here charges rusage CPU time in scheduler ticks (0 or 6 ms for a 2 ms
# process), so a small input's ratio to its floor was a ratio of ticks.
# Without perf: wait4's rusage through ../shared/bench/docs/wholeproc.py.
# Needs $tmp (a scratch directory) and $TIMER (wholeproc.py).
# shellcheck disable=SC2154

TASKCLOCK=0
perf stat -x, -e task-clock -o /dev/null true >/dev/null 2>&1 && TASKCLOCK=1
cpu_how() { [ $TASKCLOCK = 1 ] && echo "perf task-clock" || echo "rusage"; }

# one run: "CPU-seconds peak-KB" from GNU time (exit status 0 or 1 accepted)
one() {
    /usr/bin/time -f '%U %S %M' -o "$tmp/t" "$@" >/dev/null 2>"$tmp/err"
    rc=$?
    if [ $rc -gt 1 ]; then echo "FAILED ($rc): $*" >&2; head -3 "$tmp/err" >&2; echo "0 0"; return; fi
    # (after a non-zero exit, GNU time writes "Command exited with non-zero
    # status 1" above its figures)
    tail -n 1 "$tmp/t" | awk '{printf "%.4f %d\n", $1 + $2, $3}'
}

cpu_once() {
    perf stat -x, -e task-clock -o "$tmp/p" -- "$@" >/dev/null 2>"$tmp/err"
    if [ $? -gt 1 ]; then echo "FAILED: $*" >&2; head -3 "$tmp/err" >&2; echo "-"; return; fi
    awk -F, '$3 == "task-clock" { printf "%.6f\n", $1 / 1000 }' "$tmp/p"
}

cpu_med() { # N CMD...
    n=$1; shift
    if [ $TASKCLOCK = 1 ]; then
        "$@" >/dev/null 2>&1
        rm -f "$tmp/tc"
        i=0
        while [ $i -lt "$n" ]; do
            c=$(cpu_once "$@")
            [ "$c" = - ] && { echo "0 0"; return; }
            echo "$c" >>"$tmp/tc"
            i=$((i + 1))
        done
        c=$(sort -n "$tmp/tc" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
        m=$(one "$@"); m=${m#* }
        echo "$c $m"
        return
    fi
    python3 "$TIMER" -n "$n" --warmup 1 --timeout 300 -- "$@" >"$tmp/w" 2>&1
    if ! grep -q "exit 0 ($n of $n)" "$tmp/w" && ! grep -q "exit 1 ($n of $n)" "$tmp/w"; then
        echo "FAILED: $*" >&2; grep -v '^A ' "$tmp/w" | head -3 >&2; echo "0 0"; return
    fi
    awk '/^A cpu s/ {c = $5} /^A peak MiB/ {m = $5} END {printf "%.4f %d\n", c, m * 1024}' "$tmp/w"
}
