#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/suite-rules-js.sh - the JavaScript interpreter (src/form/rules.js)
# under node's test runner: the JSON-Schema-Test-Suite test by test against
# the C validator (tests/unit/test_rules_suite.c writes the C side), then
# every tests/js/*.test.mjs. Prints the `count:` lines of the JS tests and
# "N passed, N failed" (node:test's counts).
set -u
cd "$(dirname "$0")/.." || exit 2
B=${SD_BUILD:-build}
export CORPUS=${CORPUS:-../shared/corpus}
export SD=${SD:-$PWD/schemadoc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# bidi.js is generated from the PCRE2 that idna.c asks: it must match this one
if cc tests/js/gen-bidi.c $(pkg-config --cflags --libs libpcre2-8) -o "$tmp/gen-bidi" 2>"$tmp/cc.err"; then
    "$tmp/gen-bidi" >"$tmp/bidi.js"
    if cmp -s "$tmp/bidi.js" src/form/bidi.js; then extra_pass=1; extra_fail=0
    else extra_pass=0; extra_fail=1; echo "FAIL: src/form/bidi.js differs from tests/js/gen-bidi.c's output (regenerate it)"; fi
else
    cat "$tmp/cc.err"; extra_pass=0; extra_fail=1
fi

# rules_kw.js is generated from src/validate/keywords.def (make does it): it must be current
if sh src/validate/keywords-js.sh cc >"$tmp/rules_kw.js" 2>"$tmp/kw.err" && cmp -s "$tmp/rules_kw.js" src/form/rules_kw.js; then
    extra_pass=$((extra_pass + 1))
else
    cat "$tmp/kw.err"; extra_fail=$((extra_fail + 1))
    echo "FAIL: src/form/rules_kw.js differs from src/validate/keywords-js.sh's output (run make)"
fi

if ! command -v node >/dev/null 2>&1; then
    echo "SKIPPED: node is not installed (make check-deps installs Debian's nodejs)"
    echo "$extra_pass passed, $extra_fail failed"
    [ "$extra_fail" -eq 0 ]; exit
fi
if [ ! -d "$CORPUS/jsonschema-test-suite" ]; then
    echo "SKIPPED: no JSON-Schema-Test-Suite under $CORPUS"
    echo "$extra_pass passed, $extra_fail failed"
    [ "$extra_fail" -eq 0 ]; exit
fi

SD_RULES_SUITE="$tmp/suite.jsonl" "$B/asan/test_rules_suite" >"$tmp/c.out" 2>&1 \
    || { echo "FAIL: $B/asan/test_rules_suite"; tail -5 "$tmp/c.out"; extra_fail=$((extra_fail + 1)); }
export SD_RULES_SUITE="$tmp/suite.jsonl"
export SD_TMP="$tmp"

node --test --test-reporter=tap tests/js/ >"$tmp/node.out" 2>&1
st=$?
grep -E '^# (count|figure):' "$tmp/node.out" | sed 's/^# //'
grep -E '^(# FAIL|not ok)' "$tmp/node.out" | head -20
if [ $st -ne 0 ]; then
    grep -vE '^ *(ok|#|TAP|---|\.\.\.|duration_ms|type:)' "$tmp/node.out" | head -40
fi
# a node test skipped ({ skip: ... }) is said as a skip (a failure under CI=true)
grep -E '^ *ok [0-9]+ .*# SKIP' "$tmp/node.out" | sed 's/^ *ok [0-9]* - /SKIPPED: node test: /' | cut -c1-300
pass=$(grep -E '^# pass [0-9]+' "$tmp/node.out" | tail -1 | awk '{print $3}')
fail=$(grep -E '^# fail [0-9]+' "$tmp/node.out" | tail -1 | awk '{print $3}')
[ -n "$pass" ] || { echo "node printed no counts"; tail -20 "$tmp/node.out"; pass=0; fail=1; }
echo "$((pass + extra_pass)) passed, $((fail + extra_fail)) failed"
[ $((fail + extra_fail)) -eq 0 ] && [ $st -eq 0 ]
