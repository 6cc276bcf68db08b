#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/suite-form-browser.sh - the interactive form (`schemadoc SOURCE --format form`)
# in a real browser: headless Chromium (Debian's /usr/bin/chromium) driven by
# playwright-core from $(BUILD)/node (`make browser-deps`), tests/form/*.test.mjs
# under node's test runner, one file at a time (each file one browser).
# The checklist of ../shared/design/form.md (A-G), on the fixtures under
# tests/form/fixtures and on the corpus' largest schemas.
# This suite never skips: without Chromium or playwright-core it FAILS and
# prints the command that installs them.
# Prints the `count:` / `figure:` lines of the tests and "N passed, N failed".
set -u
cd "$(dirname "$0")/.." || exit 2
B=${SD_BUILD:-build}
export SD_BUILD=$B
export CORPUS=${CORPUS:-../shared/corpus}
export SD=${SD:-$PWD/$B/asan/schemadoc}
export SD_REL=${SD_REL:-$PWD/schemadoc}
tmp=$(mktemp -d /tmp/suite-form.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export SD_TMP="$tmp"
# the sanitizer build leaks nothing, but a form run is one process per page
export ASAN_OPTIONS="detect_leaks=1:${ASAN_OPTIONS:-}"

need=""
command -v node >/dev/null 2>&1 || need="$need node (apt-get install -y nodejs)"
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || need="$need chromium (apt-get install -y chromium)"
[ -f "$B/node/node_modules/playwright-core/package.json" ] || need="$need playwright-core (npm install --prefix $B/node playwright-core)"
if [ -n "$need" ]; then
    echo "FAIL: the browser tests cannot run; missing:$need"
    echo "      install them with:  make browser-deps   (as root: apt-get install -y chromium nodejs npm)"
    echo "0 passed, 1 failed"
    exit 1
fi
[ -x "$SD" ] || { echo "FAIL: no $SD (make build-asan)"; echo "0 passed, 1 failed"; exit 1; }

files=${FORM_TESTS:-$(ls tests/form/*.test.mjs)}
node --test --test-concurrency=1 --test-reporter=tap $files >"$tmp/node.out" 2>&1
st=$?
grep -E '^# (count|figure|parity miss|SKIPPED)' "$tmp/node.out" | sed 's/^# //' | cut -c1-600
grep -E '^ *not ok' "$tmp/node.out" | head -60
if [ $st -ne 0 ]; then
    # each failure's whole block (a multi-line expected/actual included)
    awk '/^ *not ok/ {on=1} on {print} on && /^ *\.\.\.$/ {on=0}' "$tmp/node.out" | cut -c1-400 | head -200
fi
[ -n "${FORM_LOG:-}" ] && cp "$tmp/node.out" "$FORM_LOG"
known=$(grep -c '^# known failure: ' "$tmp/node.out")
echo "count: form known bugs (tests/form/known.mjs, FORM_STRICT=1 fails on them): $known"
grep -E '^# known (failure|bug gone): ' "$tmp/node.out" | sed 's/^# /  /' | cut -c1-300
# a node test skipped ({ skip: ... }) is said as a skip (a failure under CI=true)
grep -E '^ *ok [0-9]+ .*# SKIP' "$tmp/node.out" | sed 's/^ *ok [0-9]* - /SKIPPED: node test: /' | cut -c1-300
pass=$(grep -E '^# pass [0-9]+' "$tmp/node.out" | tail -1 | awk '{print $3}')
fail=$(grep -E '^# fail [0-9]+' "$tmp/node.out" | tail -1 | awk '{print $3}')
[ -n "$pass" ] || { echo "node printed no counts"; tail -30 "$tmp/node.out"; pass=0; fail=1; }
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ $st -eq 0 ]
