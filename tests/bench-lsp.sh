#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/bench-lsp.sh - the language server's figures (tests/lsp/bench.mjs),
# and side by side with yaml-language-server (tests/lsp/side.mjs; its
# figures only when `make yls-deps` installed it), with the release build;
# part of `make bench` (tests/bench.sh runs every tests/bench-*.sh). Needs
# node and vscode-jsonrpc (make lsp-deps).
set -u
cd "$(dirname "$0")/.." || exit 2
B=${SD_BUILD:-build}
export CORPUS=${CORPUS:-../shared/corpus}
export SD=${SD:-$PWD/$B/rel/schemadoc}
export LSP_NODE=${LSP_NODE:-$PWD/$B/node-lsp}
if ! command -v node >/dev/null 2>&1 || [ ! -f "$LSP_NODE/node_modules/vscode-jsonrpc/package.json" ]; then
    echo "SKIPPED: node and vscode-jsonrpc are needed (make lsp-deps)"
    exit 0
fi
node tests/lsp/bench.mjs 2>&1 | grep -E "^(lsp|SKIPPED|Error)"
export YLS_NODE=${YLS_NODE:-$PWD/$B/node-yls}
node tests/lsp/side.mjs 2>&1 | grep -E "^(lsp|SKIPPED|Error)"
