#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/fuzz/run.sh - run the libFuzzer targets (make fuzz, tests/suite-fuzz.sh).
#
# Usage: run.sh SECONDS [TARGET...]   (targets: the NAME of every
# tests/fuzz/fuzz_NAME.c; default all)
# Each target first replays every file of tests/fuzz/regressions/<target>/
# (a crash found once and fixed must stay fixed), then fuzzes SECONDS from
# its seeds (tests/fuzz/seeds.py, made from $CORPUS) and the inputs kept in
# $SD_BUILD/fuzz/corpus/<target>/ by earlier runs. A crash is written to
# $SD_BUILD/fuzz/artifacts/<target>/; minimize it (fuzz_X -minimize_crash=1
# -runs=10000 FILE) into regressions/<target>/ once fixed.
# Prints per target the executions and new coverage, "figure:" lines, and
# "N passed, N failed" last (one pass per target and per regression file).
set -u
cd "$(dirname "$0")/../.." || exit 2
B=${SD_BUILD:-build}
CORPUS=${CORPUS:-../shared/corpus}
T=${1:-60}
shift 2>/dev/null
targets=${*:-$(ls tests/fuzz/fuzz_*.c | sed 's|.*/fuzz_||; s|\.c$||' | tr '\n' ' ')}
passed=0 failed=0 total_execs=0 total_time=0
export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
for t in $targets; do
    bin=$B/fuzz/fuzz_$t
    if [ ! -x "$bin" ]; then
        echo "FAIL: $bin is not built (make build-fuzz)"; failed=$((failed + 1)); continue
    fi
    case $t in
    load|comments|ytt) dict=tests/fuzz/dict/yaml.dict ;;
    mustache) dict=tests/fuzz/dict/mustache.dict ;;
    regex) dict=tests/fuzz/dict/regex.dict ;;
    archive) dict=tests/fuzz/dict/tar.dict ;;
    gotmpl|tmplrefs) dict=tests/fuzz/dict/gotmpl.dict ;;
    *) dict=tests/fuzz/dict/json-schema.dict ;;
    esac
    reg=tests/fuzz/regressions/$t
    if [ -d "$reg" ] && [ -n "$(ls "$reg")" ]; then
        for f in "$reg"/*; do
            if "$bin" -rss_limit_mb=2048 -timeout=20 "$f" >"$B/fuzz/$t.replay.log" 2>&1; then
                passed=$((passed + 1))
            else
                failed=$((failed + 1)); echo "FAIL: $t regression $f"; tail -30 "$B/fuzz/$t.replay.log"
            fi
        done
    fi
    seeds=$B/fuzz/seeds/$t
    [ -d "$seeds" ] || python3 tests/fuzz/seeds.py "$t" "$seeds" "$CORPUS" >/dev/null || mkdir -p "$seeds"
    mkdir -p "$B/fuzz/corpus/$t" "$B/fuzz/artifacts/$t"
    log=$B/fuzz/$t.log
    "$bin" -max_total_time="$T" -max_len=65536 -timeout=10 -rss_limit_mb=2048 -dict="$dict" \
        -print_final_stats=1 -artifact_prefix="$B/fuzz/artifacts/$t/" \
        "$B/fuzz/corpus/$t" "$seeds" >"$log" 2>&1
    st=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    cov=$(grep -E '^#[0-9]+.*(DONE|pulse|NEW|REDUCE|INITED)' "$log" | tail -n 1 | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
    execs=${execs:-0}
    total_execs=$((total_execs + execs)); total_time=$((total_time + T))
    if [ $st -eq 0 ]; then
        passed=$((passed + 1))
        echo "ok: fuzz_$t: $execs executions in ${T}s, coverage ${cov:-?} edges, $(ls "$B/fuzz/corpus/$t" | wc -l) inputs kept"
    else
        failed=$((failed + 1))
        echo "FAIL: fuzz_$t (status $st) after $execs executions; artifacts in $B/fuzz/artifacts/$t/"
        grep -E 'ERROR|SUMMARY|runtime error|^    #[0-9]' "$log" | head -25
    fi
done
echo "figure: fuzzing $total_execs executions in ${total_time}s over: $targets"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
