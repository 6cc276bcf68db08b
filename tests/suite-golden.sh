#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/suite-golden.sh - command-line golden cases.
#
# Each tests/golden/<case>/ holds `cmd` (the arguments after `schemadoc`, one
# shell line, run inside the case directory; $CORPUS is available), and
# expected.out / expected.err / expected.rc. Optional `absent`: paths that
# must not exist after the run (e.g. the -o file of a failed run).
# stdout and stderr must match byte for byte. UPDATE=1 rewrites expectations.
set -u
cd "$(dirname "$0")/golden" || exit 2
SD=${SD:-$(cd ../.. && pwd)/schemadoc}
passed=0 failed=0
for d in */; do
    d=${d%/}
    [ -f "$d/cmd" ] || continue
    (
        cd "$d" || exit 2
        rm -f .out .err
        [ -f absent ] && while read -r f; do rm -f "$f"; done < absent
        eval "NO_COLOR=1 \"$SD\" $(cat cmd)" >.out 2>.err </dev/null
        echo $? >.rc
    )
    if [ "${UPDATE:-}" = 1 ]; then
        mv "$d/.out" "$d/expected.out"; mv "$d/.err" "$d/expected.err"; mv "$d/.rc" "$d/expected.rc"
        passed=$((passed + 1)); continue
    fi
    ok=1
    cmp -s "$d/.out" "$d/expected.out" || { ok=0; echo "$d: stdout differs"; diff "$d/expected.out" "$d/.out" | head -10; }
    cmp -s "$d/.err" "$d/expected.err" || { ok=0; echo "$d: stderr differs"; diff "$d/expected.err" "$d/.err" | head -10; }
    cmp -s "$d/.rc" "$d/expected.rc" || { ok=0; echo "$d: exit status $(cat "$d/.rc"), expected $(cat "$d/expected.rc")"; }
    if [ -f "$d/absent" ]; then
        while read -r f; do [ -e "$d/$f" ] && { ok=0; echo "$d: $f was left behind"; }; done < "$d/absent"
    fi
    rm -f "$d/.out" "$d/.err" "$d/.rc"
    if [ $ok = 1 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
