#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/suite-tempfiles.sh - temporary folders and output files under
# signals, failures, modes and links, from a shell as a user meets them
# (tests/tempfiles.py; issue 36 items 2 and 16). Prints "N passed, N failed".
set -u
cd "$(dirname "$0")/.." || exit 2
SD=${SD:-$PWD/schemadoc}
if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIPPED: python3 is not installed"; echo "0 passed, 0 failed"; exit 0
fi
exec python3 tests/tempfiles.py "$SD"
