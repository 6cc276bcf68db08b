#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/suite-sanitizer.sh - the sanitizer build really catches undefined
# behaviour, signed integer overflow included (issue 36: "UBSan over the
# whole make check reports nothing" means something only if it would
# report): a tiny program compiled with the Makefile's SAN flags must be
# stopped by UBSan at a signed overflow, a division overflow and an
# out-of-range shift, and the sanitizer binary the suites run must carry
# those checks (its UBSan handlers). Prints "N passed, N failed" last.
set -u
cd "$(dirname "$0")/.." || exit 2
B=${SD_BUILD:-build}
CC=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }

SAN=$(sed -n 's/^SAN *:= *//p' Makefile)
case $SAN in *-fsanitize=*undefined*) ok ;; *) bad "the Makefile's SAN flags lack -fsanitize=undefined: '$SAN'" ;; esac
cat > "$tmp/ub.c" <<'EOF'
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    long long x = argc > 1 ? atoll(argv[1]) : 0, y = argc > 2 ? atoll(argv[2]) : 1;
    int what = argc > 3 ? atoi(argv[3]) : 0;
    if (what == 0) printf("%lld\n", x + y);             /* signed-integer-overflow */
    if (what == 1) printf("%lld\n", x / y);             /* LLONG_MIN / -1 */
    if (what == 2) printf("%d\n", 1 << (int)y);         /* shift exponent too large */
    return 0;
}
EOF
# shellcheck disable=SC2086
if ! $CC -std=c11 -O1 -g $SAN -o "$tmp/ub" "$tmp/ub.c" 2>"$tmp/cc.err"; then
    echo "SKIPPED: cannot build with '$SAN'"; cat "$tmp/cc.err"; echo "$passed passed, $failed failed"; exit 0
fi
export UBSAN_OPTIONS="print_stacktrace=0:halt_on_error=1"
for c in "9223372036854775807 1 0:signed integer overflow" "-9223372036854775808 -1 1:division of" \
         "1 40 2:shift exponent"; do
    args=${c%%:*} want=${c#*:}
    # shellcheck disable=SC2086
    "$tmp/ub" $args >/dev/null 2>"$tmp/err"; st=$?
    [ $st -ne 0 ] && grep -q "runtime error: $want" "$tmp/err" && ok || { bad "UBSan missed '$want' (status $st)"; cat "$tmp/err"; }
done
"$tmp/ub" 1 2 0 >/dev/null 2>"$tmp/err" && [ ! -s "$tmp/err" ] && ok || bad "a clean run reported something"

# the binaries the suites run carry the same checks
for f in "$B/asan/schemadoc" "$B/asan/test_gotmpl"; do
    if [ ! -x "$f" ]; then
        echo "SKIPPED: $f is not built (make build-asan)"; continue
    fi
    n=$(nm "$f" 2>/dev/null | grep -c '__ubsan_handle_\(add\|sub\|mul\)_overflow\|__ubsan_handle_divrem_overflow')
    [ "${n:-0}" -ge 4 ] && ok || bad "$f has $n of UBSan's overflow handlers"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
