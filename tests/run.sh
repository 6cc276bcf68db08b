#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/run.sh - run every test against the sanitizer build, SD_JOBS at a
# time (default: the number of cores), and print one closing line
# "N passed, N failed" over all of them, after the totals per kind.
#
# Jobs, picked up by wildcard: the unit programs ($B/asan/test_*), their
# second run under arena debug ($B/adbg/test_*), and every tests/suite-*.sh
# (each prints "N passed, N failed" last). A job's lines are printed
# together when it ends: its result line, its `figure:`/`count:`/`skip:`
# lines, and the tail of its output when it failed.
#
# Counting: a check is counted once. The unit programs and the suites give
# checks; a second run of the same checks under another sanitizer (the
# arena-debug unit programs, suite-arena-debug's golden cases) is counted as
# a run, clean or failed, not as new checks (a failed run counts 1 failed).
# Kinds: unit (C unit programs), golden (CLI golden cases), browser (the
# form in Chromium), suites (every other suite script), reruns.
#
# Side by side: any two jobs may run at the same time except
#   - those of one group below (they share files), one after the other;
#   - the ALONE ones (timing-sensitive measurements), which run with
#     nothing else running: the browser test files that measure (they
#     import tests/form/measure.mjs or check a budget), and ALONE below.
# A new suite runs side by side with the others unless it is named here.
# suite-form-browser runs as one job per tests/form/*.test.mjs (each file
# is one browser already; FORM_TESTS names the file), so that the files
# without a time budget run beside other jobs.
#
# A job that cannot run (no corpus, no valgrind, no browser) prints a line
# "SKIPPED: why" besides its counts: locally the summary says SKIPPED; in CI
# (CI=true) that job fails, since a skip proves nothing.
# Environment: SD_BUILD (build dir), CORPUS (../shared/corpus), CI, SD_JOBS.
set -u
cd "$(dirname "$0")/.." || exit 2
B=${SD_BUILD:-build}
export SD="$PWD/$B/asan/schemadoc"
export SD_REL="$PWD/schemadoc"
export CORPUS="${CORPUS:-../shared/corpus}"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
JOBS=${SD_JOBS:-$(nproc 2>/dev/null || echo 2)}
[ "$JOBS" -ge 1 ] 2>/dev/null || JOBS=1

# Timing-sensitive suites besides the measuring browser files (none now:
# the valgrind pass has no time limit, and pathological's budget is CPU time).
ALONE=""
# Shared files: suite-golden and suite-arena-debug both write .out/.err/.rc
# (and -o outputs) inside tests/golden/<case>/.
group_of() {   # a word: letters, digits and _
    case $1 in
    suite-golden|suite-arena-debug) echo golden_dir ;;
    *) echo "$1" | tr -c 'A-Za-z0-9_\n' '_' ;;
    esac
}
kind_of() {
    case $1 in
    *"(arena debug)"|suite-arena-debug) echo reruns ;;
    test_*) echo unit ;;
    suite-golden) echo golden ;;
    suite-form-browser*) echo browser ;;
    *) echo suites ;;
    esac
}
# The longest jobs start first (measured: docs/internals.md, "Running the
# tests"), so that the last ones to end are short; the rest in name order.
FIRST="suite-form-browser(c-validation) suite-valgrind suite-render-corpus suite-install suite-fuzz
       suite-rules-js suite-pathological suite-corpus suite-form-browser(e-output)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
# The jobs, one a line: NAME|COMMAND|ALONE (1: runs with nothing beside it)
units() { for t in "$B"/asan/test_*; do [ -x "$t" ] && echo "$(basename "$t")|$t|0"; done; }
reruns() { for t in "$B"/adbg/test_*; do [ -x "$t" ] && echo "$(basename "$t") (arena debug)|$t|0"; done; }
suites() {
    for s in tests/suite-*.sh; do
        [ -f "$s" ] || continue
        name=$(basename "$s" .sh)
        if [ "$name" = suite-form-browser ] && [ -z "${FORM_TESTS:-}" ]; then
            for f in tests/form/*.test.mjs; do
                [ -f "$f" ] || continue
                a=0; grep -q 'measure\.mjs\|budget' "$f" && a=1
                echo "$name($(basename "$f" .test.mjs))|env FORM_TESTS=$f sh $s|$a"
            done
        else
            a=0; case " $ALONE " in *" $name "*) a=1 ;; esac
            echo "$name|sh $s|$a"
        fi
    done
}
# the ALONE ones first (nothing else is running yet), then FIRST, then the
# rest in name order, then the reruns
{ units; suites; } >"$tmp/list"
{ grep '|1$' "$tmp/list"; for f in $FIRST; do awk -F'|' -v n="$f" '$1 == n && $3 != 1' "$tmp/list"; done; } >"$tmp/order"
grep -v -x -F -f "$tmp/order" "$tmp/list" >>"$tmp/order" || true
reruns >>"$tmp/order"
n=0
while IFS='|' read -r name cmd a; do
    n=$((n + 1))
    eval "j_name_$n=\$name j_cmd_$n=\$cmd j_alone_$n=\$a j_state_$n=wait"
    eval "j_group_$n=\$(group_of \"\$name\") j_kind_$n=\$(kind_of \"\$name\")"
done <"$tmp/order"

passed=0 failed=0 broken="" skipped=""
for k in unit golden suites browser reruns; do eval "k_p_$k=0 k_f_$k=0 k_n_$k=0"; done

# finish I STATUS SECONDS: print job I's lines, add its counts
finish() {
    i=$1 st=$2 secs=$3
    eval "name=\$j_name_$i kind=\$j_kind_$i"
    out="$tmp/$i.out"
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out" | tail -n 1)
    eval "k_n_$kind=\$((k_n_$kind + 1))"
    if [ -z "$line" ]; then
        failed=$((failed + 1)); broken="$broken $name"; eval "k_f_$kind=\$((k_f_$kind + 1))"
        printf '  %-36s no result line (status %s, %ss)\n' "$name" "$st" "$secs"
        tail -n 20 "$out" | sed 's/^/    /'
        return
    fi
    p=${line%% passed*}
    f=${line#* passed, }; f=${f%% failed*}
    bad=0
    if [ "$f" != 0 ] || [ "$st" != 0 ]; then bad=1; broken="$broken $name"; fi
    if [ "$kind" = reruns ]; then
        # the same checks again: one run, clean or failed
        p=0; f=$bad
    elif [ "$bad" = 1 ] && [ "$f" = 0 ]; then
        f=1   # a failing status with no failed check is still a failure
    fi
    passed=$((passed + p)); failed=$((failed + f))
    eval "k_p_$kind=\$((k_p_$kind + p)) k_f_$kind=\$((k_f_$kind + f))"
    printf '  %-36s %s (%ss)\n' "$name" "$line" "$secs"
    if [ "$bad" = 1 ]; then
        case $kind in
        unit|reruns) grep -v '^[0-9]* passed' "$out" | head -20 ;;
        *) grep -v '^[0-9]* passed' "$out" | tail -30 ;;
        esac | sed 's/^/    /'
    fi
    [ "$kind" = reruns ] && return   # its figures and skips are the first run's
    grep -E '^ *(figure|count|skip):' "$out" | sed 's/^ */    /'
    if grep -q '^SKIPPED:' "$out"; then
        grep '^SKIPPED:' "$out" | sort -u | sed 's/^/    /'
        if [ "${CI:-}" = true ]; then
            failed=$((failed + 1)); broken="$broken $name(skipped)"; eval "k_f_$kind=\$((k_f_$kind + 1))"
        else
            skipped="$skipped $name"
        fi
    fi
}

# The scheduler: a job's end is written to a FIFO as "I STATUS"; the loop
# starts what may start, then waits for the next end.
mkfifo "$tmp/done" || exit 2
exec 3<>"$tmp/done"
running=0 running_alone=0 left=$n groups_busy=" "
start() { # I
    i=$1
    eval "cmd=\$j_cmd_$i g=\$j_group_$i a=\$j_alone_$i j_state_$i=run j_t0_$i=\$(date +%s)"
    running=$((running + 1)); groups_busy="$groups_busy$g "
    [ "$a" = 1 ] && running_alone=1
    # shellcheck disable=SC2086
    ( $cmd >"$tmp/$i.out" 2>&1 3>&-; echo "$i $?" >&3 ) &
}
echo "tests ($n jobs, $JOBS at a time):"
t_start=$(date +%s)
while [ "$left" -gt 0 ]; do
    # start what may start, in order
    i=1
    while [ $i -le $n ] && [ $running -lt "$JOBS" ] && [ $running_alone = 0 ]; do
        eval "s=\$j_state_$i g=\$j_group_$i a=\$j_alone_$i"
        if [ "$s" = wait ]; then
            case $groups_busy in *" $g "*) i=$((i + 1)); continue ;; esac
            if [ "$a" = 1 ] && [ $running -gt 0 ]; then break; fi   # waits for the others to end
            start $i
            [ "$a" = 1 ] && break
        fi
        i=$((i + 1))
    done
    read -r i st <&3
    eval "g=\$j_group_$i a=\$j_alone_$i t0=\$j_t0_$i j_state_$i=done"
    running=$((running - 1)); left=$((left - 1))
    groups_busy=$(echo "$groups_busy" | sed "s/ $g / /")
    [ "$a" = 1 ] && running_alone=0
    finish "$i" "$st" $(($(date +%s) - t0))
done
wait
exec 3>&-

echo "by kind:"
for k in unit golden suites browser reruns; do
    eval "p=\$k_p_$k f=\$k_f_$k c=\$k_n_$k"
    [ "$c" = 0 ] && continue
    if [ $k = reruns ]; then
        printf '  %-8s %d runs, %d failed (checks counted above, run again under arena debug)\n' "$k" "$c" "$f"
    else
        printf '  %-8s %d passed, %d failed (jobs: %d)\n' "$k" "$p" "$f" "$c"
    fi
done
echo "wall time: $(($(date +%s) - t_start)) s, $JOBS jobs at a time"
[ -n "$broken" ] && echo "failing:$broken"
[ -n "$skipped" ] && echo "SKIPPED (not run here; CI=true fails them):$skipped"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
