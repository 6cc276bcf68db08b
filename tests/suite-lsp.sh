#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/suite-lsp.sh - `schemadoc lsp` (docs/lsp.md), driven by
# tests/lsp/*.test.mjs under node's test runner through vscode-jsonrpc
# (pinned; `make lsp-deps` installs it into $SD_BUILD/node-lsp): the
# protocol, hostile clients, diagnostics equal to `validate`'s on the
# corpus charts' ci/ files, the features. Prints the `count:` and `figure:`
# lines of the tests and "N passed, N failed" last.
set -u
cd "$(dirname "$0")/.." || exit 2
B=${SD_BUILD:-build}
export CORPUS=${CORPUS:-../shared/corpus}
export SD=${SD:-$PWD/schemadoc}
export LSP_NODE=${LSP_NODE:-$PWD/$B/node-lsp}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! command -v node >/dev/null 2>&1 || [ ! -f "$LSP_NODE/node_modules/vscode-jsonrpc/package.json" ]; then
    echo "SKIPPED: node and vscode-jsonrpc are needed (make lsp-deps)"
    echo "0 passed, 0 failed"
    exit 0
fi
pass=0 fail=0
for t in ${LSP_TESTS:-tests/lsp/*.test.mjs}; do
    node --test --test-reporter=tap "$t" >"$tmp/node.out" 2>&1
    st=$?
    p=$(grep -E '^# pass [0-9]+' "$tmp/node.out" | tail -1 | awk '{print $3}')
    f=$(grep -E '^# fail [0-9]+' "$tmp/node.out" | tail -1 | awk '{print $3}')
    [ -n "$p" ] || { p=0; f=1; tail -20 "$tmp/node.out"; }
    [ "$st" -eq 0 ] || [ "$f" -gt 0 ] || f=1
    pass=$((pass + p)); fail=$((fail + f))
    grep -oE '(count|figure):.*' "$tmp/node.out" | sort -u
    grep -E '^ *ok [0-9]+ .*# SKIP' "$tmp/node.out" | sed 's/^ *ok [0-9]* - /SKIPPED: node test: /' | cut -c1-300
    if [ "$st" -ne 0 ]; then
        echo "FAIL: $t"
        grep -vE '^ *(ok|#|TAP|---|\.\.\.|duration_ms|type:)' "$tmp/node.out" | head -60
    fi
done
echo "$pass passed, $fail failed"
