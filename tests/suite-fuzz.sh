#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/suite-fuzz.sh - the short fuzz pass of `make check`: every libFuzzer
# target of tests/fuzz/ replays its regression inputs (crashes found and
# fixed) and then fuzzes 10 s from its seeds (FUZZ_CHECK_TIME to change).
# `make fuzz` is the long run (FUZZ_TIME, 60 s per target).
set -u
cd "$(dirname "$0")/.." || exit 2
B=${SD_BUILD:-build}
if ! ls "$B"/fuzz/fuzz_* >/dev/null 2>&1; then
    echo "SKIPPED: the fuzz targets are not built (make build-fuzz; needs clang)"
    echo "0 passed, 0 failed"; exit 0
fi
exec sh tests/fuzz/run.sh "${FUZZ_CHECK_TIME:-10}"
