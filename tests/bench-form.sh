#!/bin/sh
# tests/bench-form.sh - the form's figures (tests/bench-form.mjs) for make bench:
# size, time to the first field interactive, DOM nodes, keystroke input-to-paint
# on kube-prometheus-stack, traefik and the Kubernetes Deployment definition.
set -u
cd "$(dirname "$0")/.." || exit 2
B=${SD_BUILD:-build}
if [ ! -f "$B/node/node_modules/playwright-core/package.json" ] || [ ! -x /usr/bin/chromium ]; then
    echo "form bench: needs Chromium and playwright-core: make browser-deps"; exit 0
fi
tmp=$(mktemp -d /tmp/bench-form.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
SD_BUILD=$B SD=$PWD/schemadoc SD_REL=$PWD/schemadoc SD_TMP=$tmp CORPUS=${CORPUS:-../shared/corpus} node tests/bench-form.mjs
