#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/oom/run.sh - make check-oom: tests/oom/run.py over build/oom/schemadoc.
set -u
cd "$(dirname "$0")/../.." || exit 2
exec python3 tests/oom/run.py "${SD_BUILD:-build}/oom/schemadoc" "$@"
