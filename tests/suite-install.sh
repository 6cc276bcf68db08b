#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/suite-install.sh - `make install` into a temporary DESTDIR, the
# installed binary run with the build folder out of PATH and out of reach
# (a copy of the installed tree, from an empty directory), its man page
# rendered by man without warnings, its completions loaded by bash, zsh and
# fish, the library built against the installed schemadoc.pc, then `make
# uninstall` leaving no file behind. Also: --help, the man page and the
# option table of src/cli/options.c name the same options.
# Environment: SD_BUILD (build dir, default build).
set -u
cd "$(dirname "$0")/.." || exit 2
ROOT=$PWD
B=${SD_BUILD:-build}
passed=0 failed=0
ok()   { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
check() { # NAME COMMAND...
    n=$1; shift
    if "$@" >/dev/null 2>&1; then ok; else fail "$n"; fi
}
tmp=$(mktemp -d /tmp/sd-install-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
D=$tmp/dest
P=/usr/local

# --- install ---------------------------------------------------------------
if make --no-print-directory install BUILD="$B" DESTDIR="$D" PREFIX=$P >"$tmp/install.log" 2>&1; then ok
else fail "make install"; tail -20 "$tmp/install.log"; echo "$passed passed, $failed failed"; exit 1; fi
for f in bin/schemadoc share/man/man1/schemadoc.1 share/bash-completion/completions/schemadoc \
         share/zsh/site-functions/_schemadoc share/fish/vendor_completions.d/schemadoc.fish \
         include/schemadoc.h lib/libschemadoc.a lib/pkgconfig/schemadoc.pc \
         share/schemadoc/templates/html.mustache share/schemadoc/themes/compact/html.mustache; do
    [ -f "$D$P/$f" ] && ok || fail "installed: $f"
done
nfiles=$(find "$D" -type f | wc -l)
echo "count: $nfiles files installed"

# --- the installed binary, with the build folder out of reach ----------------
# A copy of the installed tree elsewhere: it must find share/schemadoc next
# to itself, not through the repository or the build folder.
cp -a "$D$P" "$tmp/inst"
mkdir "$tmp/work" && cp -r samples/podinfo "$tmp/work/podinfo"
# mark the installed page template: the page must come from share/schemadoc
printf '<!-- installed-share-marker -->\n' >> "$tmp/inst/share/schemadoc/templates/html/page.mustache"
run() { (cd "$tmp/work" && env -i PATH="$tmp/inst/bin:/usr/bin:/bin" HOME="$tmp" "$@"); }
[ "$(run sh -c 'command -v schemadoc')" = "$tmp/inst/bin/schemadoc" ] && ok || fail "PATH finds the installed binary"
case $(run sh -c 'echo $PATH') in *"$ROOT"*) fail "PATH still has the repository" ;; *) ok ;; esac
run schemadoc --version | grep -q '^schemadoc [0-9]' && ok || fail "--version"
# --version names the licence, and its number is the newest release of CHANGELOG.md
run schemadoc --version | grep -q '^License: Apache-2.0' && ok || fail "--version names no licence"
rel=$(sed -n 's/^## \[\([0-9][0-9.]*\)\].*/\1/p' CHANGELOG.md | head -n 1)
[ -n "$rel" ] && [ "$(run schemadoc --version | head -n 1)" = "schemadoc $rel" ] && ok \
    || fail "--version ($(run schemadoc --version | head -n 1)) is not the newest release of CHANGELOG.md ($rel)"
grep -q '^License: Apache-2.0$' "$tmp/inst/lib/pkgconfig/schemadoc.pc" && ok || fail "schemadoc.pc names no licence"
grep -q 'example.invalid' "$tmp/inst/lib/pkgconfig/schemadoc.pc" && fail "schemadoc.pc has a placeholder URL" || ok
for f in LICENSE NOTICE; do
    cmp -s "$f" "$tmp/inst/share/doc/schemadoc/$f" && ok || fail "share/doc/schemadoc/$f is not installed"
done
run schemadoc podinfo --format html -o page.html && ok || fail "render html"
grep -q 'installed-share-marker' "$tmp/work/page.html" && ok || fail "templates come from share/schemadoc"
grep -q "$ROOT\|$tmp" "$tmp/work/page.html" && fail "page names a machine path" || ok
run schemadoc podinfo --format md -o page.md && [ -s "$tmp/work/page.md" ] && ok || fail "render md"
run schemadoc validate podinfo && ok || fail "validate the chart's own values"
printf 'replicaCount: many\n' > "$tmp/work/bad.yaml"
run schemadoc validate podinfo bad.yaml >/dev/null 2>&1; st=$?
[ $st -eq 1 ] && ok || fail "validate bad values: status $st, expected 1"
strings "$tmp/inst/bin/schemadoc" | grep -q "$ROOT" && fail "the binary holds the build path" || ok

# --- man page ----------------------------------------------------------------
if command -v man >/dev/null 2>&1; then
    MANWIDTH=80 man --warnings=w -l "$tmp/inst/share/man/man1/schemadoc.1" >"$tmp/man.txt" 2>"$tmp/man.err"
    [ $? -eq 0 ] && [ ! -s "$tmp/man.err" ] && ok || { fail "man -l warns"; head -5 "$tmp/man.err"; }
    for s in NAME SYNOPSIS DESCRIPTION OPTIONS 'EXIT STATUS' ENVIRONMENT EXAMPLES LICENSE; do
        grep -q "^$s" "$tmp/man.txt" && ok || fail "man page has no $s section"
    done
else
    echo "SKIPPED: man is not installed (apt-get install man-db)"
fi

# --- --help, the man page and the option table name the same options ---------
SD="$tmp/inst/bin/schemadoc"
{ "$SD" --help; "$SD" template --help; "$SD" completion --help; } | grep -oE '(^|[ [(])--[a-z][a-z-]*' | sed 's/^.*--/--/' | sort -u > "$tmp/help.opts"
"$SD" completion bash | grep -oE -- '--[a-z][a-z-]*' | sort -u > "$tmp/table.opts"
sed 's/\\-/-/g; s/\\f[BIR]//g' "$tmp/inst/share/man/man1/schemadoc.1" | grep -oE -- '--[a-z][a-z-]*' | sort -u > "$tmp/man.opts"
n=$(wc -l < "$tmp/table.opts")
[ "$n" -ge 20 ] && ok || fail "the option table has $n options"
echo "count: $n options in the table"
missing=$(comm -23 "$tmp/table.opts" "$tmp/help.opts")
[ -z "$missing" ] && ok || fail "in the table, not in --help:" $missing
extra=$(comm -13 "$tmp/table.opts" "$tmp/help.opts")
[ -z "$extra" ] && ok || fail "in --help, not in the table:" $extra
missing=$(comm -23 "$tmp/table.opts" "$tmp/man.opts")
[ -z "$missing" ] && ok || fail "in the table, not in the man page:" $missing

# every command answers --help (exit 0) with its usage and its own options
for c in "validate --strict --each --print-values --map" "rules --runtime --formats --offline" \
         "schema --draft" "diff --exit-zero" "upgrade-check --output" "template --partials" "completion"; do
    set -- $c; cmd=$1; shift
    "$SD" "$cmd" --help >"$tmp/h.out" 2>"$tmp/h.err"; rc=$?
    [ $rc -eq 0 ] && [ ! -s "$tmp/h.err" ] && grep -qE "^(Usage: |       )schemadoc $cmd( |\$)" "$tmp/h.out" \
        && ok || fail "'schemadoc $cmd --help': exit $rc, no usage of $cmd"
    for o in "$@"; do grep -q -- "$o" "$tmp/h.out" && ok || fail "'schemadoc $cmd --help' does not name $o"; done
done
"$SD" validate ./chart -h >"$tmp/h.out" 2>&1 && grep -q "^Usage: schemadoc validate " "$tmp/h.out" && ok || fail "'validate SOURCE -h' is not the help"

# --- completions ---------------------------------------------------------------
C=$tmp/inst/share
out=$(bash -c '. "$1"; COMP_WORDS=(schemadoc validate --out); COMP_CWORD=2; _schemadoc; echo "${COMPREPLY[*]}"' _ "$C/bash-completion/completions/schemadoc")
[ "$out" = "--output" ] && ok || fail "bash: 'validate --out' completes to '$out'"
out=$(bash -c '. "$1"; COMP_WORDS=(schemadoc ./chart --format ""); COMP_CWORD=3; _schemadoc; echo "${COMPREPLY[*]}"' _ "$C/bash-completion/completions/schemadoc")
[ "$out" = "json doc html md form adoc" ] && ok || fail "bash: '--format' completes to '$out'"
if command -v zsh >/dev/null 2>&1; then
    check "zsh -n _schemadoc" zsh -n "$C/zsh/site-functions/_schemadoc"
else
    echo "SKIPPED: zsh is not installed (apt-get install zsh)"
fi
if command -v fish >/dev/null 2>&1; then
    check "fish -n schemadoc.fish" fish -n "$C/fish/vendor_completions.d/schemadoc.fish"
    out=$(HOME=$tmp fish -c "source $C/fish/vendor_completions.d/schemadoc.fish; complete -C'schemadoc validate --output '" 2>/dev/null | cut -f1 | tr '\n' ' ')
    [ "$out" = "json text " ] && ok || fail "fish: 'validate --output' completes to '$out'"
else
    echo "SKIPPED: fish is not installed (apt-get install fish)"
fi

# --- the library through the installed pkg-config file -----------------------------
if PKG_CONFIG_PATH="$D$P/lib/pkgconfig" pkg-config --exists schemadoc; then ok; else fail "pkg-config finds schemadoc.pc"; fi

# --- the library a host program links (docs/library.md) -----------------------------
# The archive and the shared library export the functions of schemadoc.h and
# nothing else; neither holds LTO objects; gcc and clang each build the
# example and a host program with sd_* names of its own, statically and
# against libschemadoc.so.0, and both run.
L="$D$P/lib"
nexp=$(sed -n 's/^SCHEMADOC_API[^(]*[ *]\(schemadoc_[a-z_]*\)(.*/\1/p' src/schemadoc.h | sort -u)
for lib in "$L/libschemadoc.a" "$L/libschemadoc.so.0"; do
    case $lib in *.a) got=$(nm -g --defined-only "$lib" 2>/dev/null | awk 'NF == 3 && $2 != "A" { print $3 }' | sort -u) ;;
                 *) got=$(nm -D --defined-only "$lib" 2>/dev/null | awk 'NF == 3 && $2 != "A" { sub(/@.*/, "", $3); print $3 }' | sort -u) ;; esac
    [ -n "$nexp" ] && [ "$got" = "$nexp" ] && ok \
        || fail "$(basename "$lib") exports $(printf '%s\n' "$got" | grep -c .) symbols, schemadoc.h declares $(printf '%s\n' "$nexp" | grep -c .): $(printf '%s\n' "$got" | grep -v '^schemadoc_' | head -3 | tr '\n' ' ')"
done
echo "count: $(printf '%s\n' "$nexp" | grep -c .) functions exported"
readelf -S "$L/libschemadoc.a" 2>/dev/null | grep -q 'gnu.lto' && fail "the installed archive holds LTO objects" || ok
pc() { PKG_CONFIG_PATH="$L/pkgconfig" pkg-config --define-variable=prefix="$D$P" "$@" schemadoc; }
for compiler in gcc clang; do
    if ! command -v $compiler >/dev/null 2>&1; then fail "$compiler is not installed"; continue; fi
    for prog in docs/example.c tests/library/host.c; do
        name=$(basename "$prog" .c)
        # static: the archive named by -Bstatic, the rest as pkg-config says
        if $compiler -std=c11 -Wall -Werror -o "$tmp/$name-static" "$prog" $(pc --cflags) \
             -Wl,-Bstatic -lschemadoc -Wl,-Bdynamic $(pc --libs | sed 's/-lschemadoc / /') 2>"$tmp/cc.err" \
           && ! ldd "$tmp/$name-static" | grep -q libschemadoc \
           && "$tmp/$name-static" samples/podinfo >/dev/null 2>"$tmp/run.err"; then ok
        else fail "$compiler: $prog static"; head -5 "$tmp/cc.err" "$tmp/run.err" 2>/dev/null; fi
        if $compiler -std=c11 -Wall -Werror -o "$tmp/$name-shared" "$prog" $(pc --cflags --libs) 2>"$tmp/cc.err" \
           && LD_LIBRARY_PATH="$L" ldd "$tmp/$name-shared" | grep -q "$L/libschemadoc.so.0" \
           && LD_LIBRARY_PATH="$L" "$tmp/$name-shared" samples/podinfo >/dev/null 2>"$tmp/run.err"; then ok
        else fail "$compiler: $prog shared"; head -5 "$tmp/cc.err" "$tmp/run.err" 2>/dev/null; fi
    done
done
# the host with its own sd_* linked against the internal archive instead:
# the clash this layout prevents (the test can fail)
if cc -std=c11 -o "$tmp/host-internal" tests/library/host.c -Isrc "$B/rel/libschemadoc.a" $(pc --libs | sed 's/-lschemadoc//') >/dev/null 2>&1; then
    fail "a host with its own sd_open linked against the internal archive (the check cannot fail)"
else ok; fi

# --- uninstall -----------------------------------------------------------------
make --no-print-directory uninstall BUILD="$B" DESTDIR="$D" PREFIX=$P >/dev/null 2>&1 && ok || fail "make uninstall"
left=$(find "$D" ! -type d | wc -l)
[ "$left" -eq 0 ] && ok || { fail "$left files left after uninstall"; find "$D" ! -type d | head; }
[ ! -e "$D$P/share/schemadoc" ] && [ ! -e "$D$P/share/doc/schemadoc" ] && ok || fail "share/schemadoc or share/doc/schemadoc left after uninstall"

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
