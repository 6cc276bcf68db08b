#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/suite-arena-debug.sh - the golden cases again, with the binary built
# with -DSD_ARENA_DEBUG under ASan (every node and string its own malloc
# block, so an overflow inside a document is caught). Ends with the golden
# suite's "N passed, N failed".
cd "$(dirname "$0")/.." || exit 2
B=${SD_BUILD:-build}
if [ ! -x "$B/adbg/schemadoc" ]; then
    echo "FAIL: $B/adbg/schemadoc was not built (make build-adbg)"; echo "0 passed, 1 failed"; exit 1
fi
SD="$PWD/$B/adbg/schemadoc" exec sh tests/suite-golden.sh
