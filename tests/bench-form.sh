#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/bench-form.sh - the form's figures (tests/bench-form.mjs) for make bench:
# size, time to the first field interactive, DOM nodes, keystroke input-to-paint
# on kube-prometheus-stack, traefik, the Kubernetes Deployment definition and a
# generated chart of 1,500 fields; search as you type. SD_BENCH=BINARY measures
# the pages another binary writes (a before/after comparison in one sitting).
set -u
cd "$(dirname "$0")/.." || exit 2
B=${SD_BUILD:-build}
if [ ! -f "$B/node/node_modules/playwright-core/package.json" ] || [ ! -x /usr/bin/chromium ]; then
    echo "form bench: needs Chromium and playwright-core: make browser-deps"; exit 0
fi
tmp=$(mktemp -d /tmp/bench-form.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
SD_BUILD=$B SD=${SD_BENCH:-$PWD/schemadoc} SD_REL=${SD_BENCH:-$PWD/schemadoc} SD_TMP=$tmp CORPUS=${CORPUS:-../shared/corpus} node tests/bench-form.mjs
