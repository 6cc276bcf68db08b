#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/suite-npm-deps.sh - the Makefile's pinned npm packages for the tests
# are installed one way (docs/internals.md, "Running the tests"): the one
# `npm install` is the npm_deps macro's, every *-deps target that installs
# from npm calls it with a pinned version (X.Y.Z) and a prefix of its own
# under $(BUILD) (one npm install into a shared prefix prunes the other's
# packages), and `make -n` of each target expands to that install, with its
# failure message. Reads the Makefile only: no network, no npm. Prints
# "N passed, N failed" last.
set -u
cd "$(dirname "$0")/.." || exit 2
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }

# the one npm install line: the macro's
n=$(grep 'npm install --prefix' Makefile | grep -vc 'echo ')
[ "$n" = 1 ] && ok || bad "the Makefile runs npm install in $n places; use \$(call npm_deps,...)"
sed -n '/^define npm_deps/,/^endef/p' Makefile | grep -q 'npm install --prefix $(2) ' && ok ||
    bad "the npm install is not inside the npm_deps macro"

# each call: WHO, PREFIX, PACKAGE, a pinned VERSION; the prefixes distinct
calls=$(sed -n 's/^\t\$(call npm_deps,\(.*\))$/\1/p' Makefile)
[ "$(printf '%s\n' "$calls" | grep -c .)" -ge 2 ] && ok || bad "fewer than two npm_deps calls: '$calls'"
prefixes=""
for c in $calls; do
    who=${c%%,*} rest=${c#*,}
    prefix_var=${rest%%,*} rest=${rest#*,}
    pkg=${rest%%,*} rest=${rest#*,}
    version_var=${rest%%,*} optional=""
    [ "$rest" != "$version_var" ] && optional=${rest#*,}
    # $(NAME) -> the Makefile's value of NAME
    val() { v=${1#\$(}; v=${v%)}; make -s --no-print-directory --eval='sd-print-var: ; @echo $($(V))' sd-print-var V="$v"; }
    prefix=$(val "$prefix_var") version=$(val "$version_var")
    case $version in [0-9]*.[0-9]*.[0-9]*) ok ;; *) bad "$pkg ($who): version '$version' is not pinned" ;; esac
    case $prefix in build/?*) ok ;; *) bad "$pkg ($who): prefix '$prefix' is not a folder of its own under build/" ;; esac
    case " $prefixes " in *" $prefix "*) bad "$pkg ($who): prefix '$prefix' is shared with another package" ;; *) ok ;; esac
    prefixes="$prefixes $prefix"
    # the target that calls it expands to the pinned install and its message
    target=$(awk -v c="$c" '/^[a-z-]+-deps:/ { t = $1 } index($0, "npm_deps," c ")") { sub(":", "", t); print t; exit }' Makefile)
    out=$(make -n --no-print-directory "$target" 2>&1)
    printf '%s\n' "$out" | grep -qF "npm install --prefix $prefix --no-save --no-audit --no-fund --loglevel=error" && ok ||
        bad "make -n $target: no npm install into $prefix"
    printf '%s\n' "$out" | grep -qF "grep -qs '\"version\": \"$version\"' $prefix/node_modules/$pkg/package.json" && ok ||
        bad "make -n $target: the installed version of $pkg is not checked"
    if [ "$optional" = optional ]; then   # (a bench tool: a failed install is said, and the bench goes on)
        fmsg="echo \"schemadoc: npm install --prefix $prefix $pkg@$version failed (optional: what needs it is left out)\" >&2; true"
    else
        fmsg="echo \"schemadoc: npm install --prefix $prefix $pkg@$version failed\" >&2; exit 2"
    fi
    printf '%s\n' "$out" | grep -qF "$fmsg" && ok ||
        bad "make -n $target: no failure message for $pkg"
    printf '%s\n' "$out" | grep -qF "the $who tests need npm; run as root: apt-get install -y npm nodejs" && ok ||
        bad "make -n $target: no message naming the $who tests"
done
echo "count: pinned npm packages $(printf '%s\n' "$calls" | grep -c .), each in its own prefix"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
