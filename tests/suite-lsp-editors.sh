#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/suite-lsp-editors.sh - `schemadoc lsp` in real editors, headless
# (docs/editors.md): Neovim (tests/editors/nvim-session.lua) and Emacs with
# eglot (tests/editors/eglot-session.el) each open a values file of a copy
# of the argo-cd corpus chart (its ci/ha-static-values.yaml with the key
# server.replicas spoiled to `replicaz`, in a flow map after text outside
# the BMP: bytes, UTF-16 and code points all differ), wait for the
# diagnostics, hover crds.keep, accept the completion `install` inside
# crds, apply the quick fix for the unknown key, and write the editor's own
# buffer and diagnostics list as JSON. tests/editors/check.py then checks them against `schemadoc
# validate` on the same files: the diagnostics at validate's lines, columns
# and messages, the hover text holding the key's description from
# values.yaml, the completion offering the absent key and not the present
# one, the buffer after the fix validating with no finding, and the
# editor's diagnostics list empty. Then the setups docs/editors.md gives
# for Neovim 0.7 and for eglot, cut from it and started as a user starts
# them (init.lua with -u; the elisp loaded, a yaml-mode, eglot-ensure), with
# `schemadoc` on the PATH: the server must start for the values file and
# its diagnostics reach the editor (tests/editors/docs-*.lua/el), so the
# page stays true. Each editor run has 60 s (LSP_EDITOR_TIMEOUT); every wait
# inside is on the server's answer. The server's stderr is checked for
# sanitizer reports.
# Needs nvim (neovim), emacs (emacs-nox) with eglot (elpa-eglot), python3:
# when one is missing, "SKIPPED: ..." (a failure under CI=true). When
# `schemadoc lsp` does not answer initialize, the suite fails
# ("schemadoc lsp: not available").
set -u
cd "$(dirname "$0")/.." || exit 2
CORPUS=${CORPUS:-../shared/corpus}
SD=${SD:-$PWD/schemadoc}
LIMIT=${LSP_EDITOR_TIMEOUT:-60}
CHART="$CORPUS/charts/argo-cd"
passed=0 failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

ok()   { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
# skipped WHY: say it; under CI=true it is a failure
skipped() {
    echo "SKIPPED: $*"
    if [ "${CI:-}" = true ]; then fail "cannot run under CI=true: $*"; fi
}

if [ ! -d "$CHART" ] || ! command -v python3 >/dev/null 2>&1; then
    skipped "the corpus chart $CHART and python3 are needed"
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]; exit
fi
have_nvim=0 have_emacs=0
if command -v nvim >/dev/null 2>&1; then have_nvim=1
else skipped "nvim not found (apt-get install neovim)"; fi
if ! command -v emacs >/dev/null 2>&1; then
    skipped "emacs not found (apt-get install emacs-nox elpa-eglot)"
elif ! HOME="$tmp" emacs --batch -Q --eval '(progn (package-initialize)
        (dolist (d (file-expand-wildcards "/usr/share/emacs/site-lisp/elpa/*")) (add-to-list (quote load-path) d))
        (require (quote eglot)))' >/dev/null 2>&1; then
    skipped "eglot not found for emacs (apt-get install elpa-eglot)"
else have_emacs=1; fi
if [ $have_nvim = 0 ] && [ $have_emacs = 0 ]; then
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]; exit
fi

# the server must answer initialize, else nothing below can pass
if python3 tests/editors/check.py probe "$SD" >"$tmp/probe" 2>&1; then ok; cat "$tmp/probe"
else
    fail "$(cat "$tmp/probe")"
    echo "$passed passed, $failed failed"
    exit 1
fi

# prepare NAME: a fresh chart copy with the session's values file in
# $tmp/NAME ($d), its environment in $d/env, and the server wrapped twice
# (stderr kept for the sanitizer check): $d/server, and `schemadoc` in
# $d/bin for the setups of docs/editors.md, which find it on the PATH
prepare() {
    d="$tmp/$1"
    mkdir -p "$d/home" "$d/bin"
    if ! python3 tests/editors/check.py fixture "$CHART" "$d" >"$d/env" 2>"$d/fixture.err"; then
        fail "$1: fixture: $(cat "$d/fixture.err")"; return 1
    fi
    printf '#!/bin/sh\nexec "%s" lsp 2>>"%s"\n' "$SD" "$d/server.err" >"$d/server"
    printf '#!/bin/sh\nexec "%s" "$@" 2>>"%s"\n' "$SD" "$d/server.err" >"$d/bin/schemadoc"
    chmod +x "$d/server" "$d/bin/schemadoc"
}

# editor NAME COMMAND...: run COMMAND in $d's environment, at most $LIMIT s
editor() {
    name=$1; shift
    t0=$(date +%s%N)
    # shellcheck disable=SC2046
    env $(cat "$d/env") SD_LSP_CMD="$d/server" ED_OUT="$d/result.json" ED_WAIT_MS=$((LIMIT * 1000 / 4)) \
        PATH="$d/bin:$PATH" \
        HOME="$d/home" XDG_CONFIG_HOME="$d/home/.config" XDG_DATA_HOME="$d/home/.local/share" \
        XDG_STATE_HOME="$d/home/.local/state" XDG_CACHE_HOME="$d/home/.cache" \
        timeout -k 5 "$LIMIT" "$@" >"$d/editor.out" 2>&1
    st=$?
    ms=$((($(date +%s%N) - t0) / 1000000))
    if [ $st = 124 ] || [ $st = 137 ]; then fail "$name: no result within $LIMIT s"; return 1
    elif [ ! -s "$d/result.json" ]; then
        fail "$name: the editor wrote no result (status $st)"; tail -n 15 "$d/editor.out"; return 1
    fi
    ok
}

# checked NAME KIND: check.py KIND's verdicts on $d/result.json, counted;
# then the server's stderr, for sanitizer reports
checked() {
    python3 tests/editors/check.py "$2" "$1" "$d/result.json" "$SD" "$d" >"$d/check" 2>&1
    grep -E '^(FAIL|note):' "$d/check"
    p=$(sed -n 's/^result: \([0-9]*\) \([0-9]*\)$/\1/p' "$d/check")
    f=$(sed -n 's/^result: \([0-9]*\) \([0-9]*\)$/\2/p' "$d/check")
    if [ -z "$p" ]; then fail "$1: check.py: $(tail -n 3 "$d/check")"
    else passed=$((passed + p)); failed=$((failed + f)); fi
    if grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$d/server.err" 2>/dev/null; then
        fail "$1: the server's sanitizer report:"; head -n 30 "$d/server.err"
    else ok; fi
}

# session NAME COMMAND...: the whole editing session (tests/editors/*-session.*)
session() {
    prepare "$1" || return
    if editor "$@"; then echo "figure: $1 session (open, diagnostics, hover, completion, quick fix): $ms ms"; fi
    checked "$1" check
}

# setup NAME HEADING LANG COMMAND...: docs/editors.md's config under HEADING
# (its first LANG block, in $d/config.LANG) started as the user would start it:
# the server must start for the values file and its diagnostics arrive
setup() {
    name=$1 heading=$2 lang=$3; shift 3
    prepare "$name" || return
    if ! python3 tests/editors/check.py snippet docs/editors.md "$heading" "$lang" >"$d/config.$lang" 2>"$d/snippet.err"; then
        fail "$name: $(cat "$d/snippet.err")"; return
    fi
    editor "$name" "$@" && checked "$name" doccheck
}

if [ $have_nvim = 1 ]; then
    session nvim nvim --headless -u NONE -i NONE -n -c 'luafile tests/editors/nvim-session.lua'
    setup nvim-docs Neovim lua sh -c 'exec nvim --headless -u "$0/config.lua" -i NONE -n "$ED_FILE" -c "luafile tests/editors/docs-nvim.lua"' "$tmp/nvim-docs"
fi
if [ $have_emacs = 1 ]; then
    session emacs emacs --batch -Q -l tests/editors/eglot-session.el
    setup emacs-docs eglot elisp env ED_CONFIG="$tmp/emacs-docs/config.elisp" emacs --batch -Q -l tests/editors/docs-eglot.el
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
