#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/suite-pathological.sh - hostile inputs under a time and memory limit
# per case (tests/pathological/run.py generates them: alias bombs, deep
# nesting, huge strings, bad UTF-8, FIFOs and link loops, $ref chains and
# loops, ReDoS, huge numbers, uniqueItems over 1M items, Mustache bombs;
# bound-*: memory at most 128 x input + 320 MiB, docs/internals.md).
# The release binary runs under 2 s of CPU and 512 MiB of address space;
# the sanitizer build runs the small cases again for memory errors.
set -u
cd "$(dirname "$0")/.." || exit 2
SD_REL=${SD_REL:-$PWD/schemadoc}
SD=${SD:-$PWD/build/asan/schemadoc}
if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIPPED: python3 is not installed"; echo "0 passed, 0 failed"; exit 0
fi
exec python3 tests/pathological/run.py "$SD_REL" "$SD"
