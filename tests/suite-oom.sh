#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/suite-oom.sh - allocation-failure torture in `make check`, sampled:
# tests/oom/run.py over every representative command, failing at most
# OOM_MAX_RUNS (default 150) allocations of each, spread evenly over the
# run (the full torture, every allocation of every command, is `make
# check-oom`). Each sampled failure must end in "out of memory", exit 2 and
# no output file, or recover with the clean run's result; a command whose
# failure is lost (exit 0 with another page, a file passed that the chart
# rejects) fails here. Needs build/oom/schemadoc (`make check` builds it).
set -u
cd "$(dirname "$0")/.." || exit 2
B=${SD_BUILD:-build}
if [ ! -x "$B/oom/schemadoc" ]; then
    echo "SKIPPED: no $B/oom/schemadoc (make $B/oom/schemadoc)"
    echo "0 passed, 0 failed"
    exit 0
fi
OOM_MAX_RUNS=${OOM_MAX_RUNS:-150} OOM_JOBS=${OOM_JOBS:-1} exec python3 tests/oom/run.py "$B/oom/schemadoc"
