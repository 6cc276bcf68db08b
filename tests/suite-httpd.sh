#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/suite-httpd.sh - the loopback test server itself: it serves a
# directory (the JSON-Schema-Test-Suite remotes, as the validator's suite
# run needs), exits by itself after its time limit, and exits when the
# process that started it is gone. The fetch cases proper are C unit tests
# (tests/unit/test_fetch.c, test_docset.c), which start it themselves.
set -u
cd "$(dirname "$0")/.." || exit 2
CORPUS=${CORPUS:-../shared/corpus}
REMOTES="$CORPUS/jsonschema-test-suite/remotes"
passed=0 failed=0
tmp=$(mktemp -d)
pids=""
cleanup() { for p in $pids; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"; }
trap cleanup EXIT INT TERM

ok()   { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }

# start ROOT LIMIT: start the server, set $pid and $port
start() {
    rm -f "$tmp/port" # else the last server's line can be read before the new one truncates it
    python3 tests/httpd.py --port 0 --root "$1" --time-limit "$2" >"$tmp/port" 2>"$tmp/err" &
    pid=$!
    pids="$pids $pid"
    i=0
    while [ $i -lt 50 ] && ! grep -q '^port ' "$tmp/port" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
    port=$(sed -n 's/^port //p' "$tmp/port")
}

get() { # URL -> body on stdout
    python3 -c 'import sys, urllib.request
print(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode(), end="")' "$1"
}

# exited PID SECONDS: 0 when PID is gone within SECONDS
exited() {
    i=0
    while [ $i -lt $(($2 * 10)) ]; do
        kill -0 "$1" 2>/dev/null || return 0
        # an exited child this shell has not reaped yet is a zombie
        case $(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1) in Z|"") return 0 ;; esac
        sleep 0.1; i=$((i + 1))
    done
    return 1
}

if [ -d "$REMOTES" ]; then
    start "$REMOTES" 30
    if [ -n "$port" ] && [ "$(NO_PROXY='*' no_proxy='*' get "http://127.0.0.1:$port/integer.json")" = "$(cat "$REMOTES/integer.json")" ]; then ok
    else fail "serving $REMOTES/integer.json"; fi
    if [ "$(NO_PROXY='*' no_proxy='*' get "http://127.0.0.1:$port/__count?path=/integer.json")" = 1 ]; then ok
    else fail "request count"; fi
    kill "$pid" 2>/dev/null
else
    echo "SKIPPED: $REMOTES not found"
fi

start tests/resolve/http 1
if [ -n "$port" ] && exited "$pid" 10; then ok; else fail "the server outlived its 1 s time limit"; fi

# started by a shell that ends a second later (named by --parent, so a slow
# start cannot miss it): the orphan must go too
sh -c 'python3 tests/httpd.py --port 0 --time-limit 60 --parent $$ >/dev/null 2>&1 & echo $! >"$1"/orphan; sleep 1' sh "$tmp"
opid=$(cat "$tmp/orphan")
pids="$pids $opid"
if exited "$opid" 10; then ok; else fail "the server outlived its parent"; fi

# libcurl is loaded only for a remote document: local runs work without it,
# and a remote $ref without it says what to install
SDB=${SD:-./schemadoc}
printf '{"properties":{"a":{"$ref":"https://example.invalid/x.json"},"b":{"type":"string"}}}' > "$tmp/r.json"
printf '{"properties":{"b":{"type":"string"}}}' > "$tmp/l.json"
if SD_LIBCURL=/nonexistent/libcurl.so.4 NO_COLOR=1 "$SDB" "$tmp/l.json" --format md >/dev/null 2>"$tmp/err"; then ok
else fail "a local schema needs libcurl"; cat "$tmp/err"; fi
SD_LIBCURL=/nonexistent/libcurl.so.4 NO_COLOR=1 "$SDB" "$tmp/r.json" --format md >/dev/null 2>"$tmp/err"; st=$?
if [ $st -eq 2 ] && grep -q "remote documents need libcurl, which could not be loaded (/nonexistent/libcurl.so.4): install it (Debian: apt-get install libcurl4)" "$tmp/err"; then ok
else fail "missing libcurl: exit $st, message: $(cat "$tmp/err")"; fi

# the release binary maps libc alone at start: libcurl is loaded as above,
# the parsers from their static archives, and nothing of libm is called
REL=${SD_REL:-./schemadoc}
needed=$(readelf -d "$REL" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
if [ "$needed" = "libc.so.6 " ]; then ok; else fail "$REL needs more than libc: '$needed'"; fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
