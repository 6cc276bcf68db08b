#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/suite-library.sh - the library through its public header alone:
# docs/example.c, built by `make check` against schemadoc.h and
# libschemadoc.a, opens the sample chart, renders its Markdown page and
# validates values files. Prints "N passed, N failed" last.
set -u
cd "$(dirname "$0")/.." || exit 2
B=${SD_BUILD:-build}
EX=$B/example
passed=0 failed=0
ok()   { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ ! -x "$EX" ]; then
    echo "FAIL: $EX was not built (make $EX)"; echo "0 passed, 1 failed"; exit 1
fi
export NO_COLOR=1
"$EX" samples/podinfo > "$tmp/out" 2> "$tmp/err"; st=$?
[ $st -eq 0 ] && ok || fail "example on the sample chart exited $st"
grep -q '^| image.tag |' "$tmp/out" && ok || fail "the page has no image.tag row"
[ -s "$tmp/err" ] && { fail "unexpected diagnostics"; cat "$tmp/err"; } || ok

"$EX" samples/podinfo tests/golden/validate-chart-merge/prod.yaml > "$tmp/out" 2> "$tmp/err"; st=$?
[ $st -eq 1 ] && ok || fail "invalid values: exit $st, expected 1"
grep -q '^invalid$' "$tmp/out" && ok || fail "no 'invalid' verdict"
grep -q 'instance /service/port\]' "$tmp/err" && ok || fail "diagnostic without its instance pointer"
grep -q '  at /service/port in the values, #/\$defs/port/maximum in the schema' "$tmp/err" && ok \
    || fail "pointers not readable through the accessors"

"$EX" tests/golden/model-unresolved-ref/refchart > "$tmp/out" 2> "$tmp/err"; st=$?
[ $st -eq 2 ] && ok || fail "unresolvable \$ref: exit $st, expected 2"
grep -q "error: cannot resolve \$ref '#/\$defs/missing'" "$tmp/err" && ok || fail "no resolver error"
[ -s "$tmp/out" ] && [ "$(cat "$tmp/out")" != "schemadoc 0.1.0" ] && fail "output on error" || ok

# one Markdown path: the library's "md" is the command line's, a chart's
# README.md.gotmpl included (render/md_page.c chooses for both)
SDBIN=${SD:-$PWD/$B/asan/schemadoc}
cp -R samples/podinfo "$tmp/gchart"
printf '# {{ template "chart.name" . }} from its gotmpl\n\n{{ template "chart.valuesTable" . }}\n' \
    > "$tmp/gchart/README.md.gotmpl"
"$EX" "$tmp/gchart" > "$tmp/lib.out" 2> "$tmp/err"; st=$?
sed '$d' "$tmp/lib.out" > "$tmp/lib.md"   # the example ends with a version line
"$SDBIN" "$tmp/gchart" --format md > "$tmp/cli.md" 2>> "$tmp/err"; st2=$?
[ $st -eq 0 ] && [ $st2 -eq 0 ] && ok || fail "gotmpl chart: library exit $st, command line exit $st2"
grep -q '^# podinfo from its gotmpl$' "$tmp/cli.md" && ok || fail "the command line did not run README.md.gotmpl"
cmp -s "$tmp/lib.md" "$tmp/cli.md" && ok || { fail "the library's md differs from the command line's"; diff "$tmp/cli.md" "$tmp/lib.md" | head -5; }

# the example needs nothing but the public header
if grep -n '#include "' docs/example.c | grep -v '"schemadoc.h"'; then fail "example includes internal headers"; else ok; fi
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
