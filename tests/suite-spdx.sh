#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/suite-spdx.sh - every source file names its licence (tests/spdx.py),
# and the check can fail: a made-up repository with one C file without the
# line must fail it. Prints "N passed, N failed" last.
set -u
cd "$(dirname "$0")/.." || exit 2
ROOT=$PWD
pass=0 fail=0
if ! command -v git >/dev/null 2>&1 || ! git rev-parse --git-dir >/dev/null 2>&1; then
    echo "SKIPPED: not a git checkout (tests/spdx.py reads git ls-files)"
    echo "0 passed, 0 failed"; exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
( cd "$tmp" && git init -q . && printf 'int x;\n' > a.c && git add a.c \
  && python3 "$ROOT/tests/spdx.py" >/dev/null 2>&1 ) && { fail=$((fail + 1)); echo "FAIL: a file without the line passed"; } || pass=$((pass + 1))
if python3 tests/spdx.py; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
