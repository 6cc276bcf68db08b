#!/bin/sh
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

# the example needs nothing but the public header
if grep -n '#include "' docs/example.c | grep -v '"schemadoc.h"'; then fail "example includes internal headers"; else ok; fi
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
