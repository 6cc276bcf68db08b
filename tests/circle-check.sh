#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/circle-check.sh - no circle between files, no call back to a later
# stage (make circle-check, beside layer-check).
#
# layer-check reads the includes; this reads the calls, from the objects:
# a file calls another when its object needs a symbol (nm: U) that the
# other's defines. The form's JavaScript (src/form/*.js) is read the same
# way from its imports: a module calls the modules it imports. Three rules:
#   1. no loop of calls between files (A calls B ... calls A), but for the
#      three pairs and the one group that are one recursion split by job:
#      model/build.c with model/defs.c (a definition is built by the
#      builder), mustache/mustache.c with mustache/mustache_partials.c (a
#      partial is compiled by the compiler), form/form_view.js with
#      form/form_lists.js (a list's items are fields), and the validator's
#      walk (validate/validate.c) with the families of checks that hold
#      subschemas (vapply.c, varray.c, vobject.c, vuneval.c: a subschema is
#      validated by the walk);
#   2. no two files that include each other's headers (A.c includes B.h and
#      B.c includes A.h);
#   3. no call from a stage to a later one (the table of layer-check.sh);
#   4. no exported function that nothing calls (dead code).
# Prints each violation and exits 1 if there is any.
#
# Usage: tests/circle-check.sh [OBJDIR]   objects of src/STAGE/NAME.c as
#                                          OBJDIR/STAGE/NAME.o (build/asan)
#        tests/circle-check.sh --self-test the rules on made-up files: a
#                                          loop, an include pair and a call
#                                          back must each fail
set -u
cd "$(dirname "$0")/.." || exit 2

# The stage table, as layer-check.sh has it (one table for both checks).
eval "$(sed -n '/^allowed() {/,/^}/p' tests/layer-check.sh)"
STAGES="util mustache gotmpl tree load comments ytt helm schemagen rows resolve validate k8s source model diff render api lsp cli form"
ALLOWED_LOOPS="src/model/build.c src/model/defs.c|src/mustache/mustache.c src/mustache/mustache_partials.c|src/form/form_lists.js src/form/form_view.js"
ALLOWED_LOOPS="$ALLOWED_LOOPS|src/validate/validate.c src/validate/vapply.c src/validate/varray.c src/validate/vobject.c src/validate/vuneval.c"

# analyse SYMS INCS: SYMS has lines "FILE D SYMBOL" (defined) and "FILE U
# SYMBOL" (needed); INCS has lines "FILE OTHER": FILE includes the header
# named after OTHER (OTHER.c's stem). Prints violations; status 1 if any.
analyse() {
    stage_table=$(for s in $STAGES; do echo "$s $(allowed "$s")"; done)
    printf '%s\n' "$stage_table" | awk -v loops="$ALLOWED_LOOPS" -v syms="$1" -v incs="$2" '
    function stage(f,   p) { split(f, p, "/"); return p[2] }
    BEGIN {
        while ((getline line) > 0) {            # the stage table on stdin
            n = split(line, w, " ")
            for (i = 2; i <= n; i++) may[w[1] " " w[i]] = 1
        }
        while ((getline line < syms) > 0) {
            split(line, w, " ")
            files[w[1]] = 1
            if (w[2] == "D") { if (!(w[3] in def)) def[w[3]] = w[1] }
            else need[++nn] = w[1] " " w[3]
        }
        for (i = 1; i <= nn; i++) {
            split(need[i], w, " ")
            if (!(w[2] in def) || def[w[2]] == w[1]) continue
            e = w[1] " " def[w[2]]
            if (!(e in via)) { via[e] = w[2]; out[w[1]] = out[w[1]] " " def[w[2]] }
            else if (length(via[e]) < 60) via[e] = via[e] ", " w[2]
        }
        bad = 0
        # 3. calls back to a later stage
        for (e in via) {
            split(e, w, " ")
            if (!((stage(w[1]) " " stage(w[2])) in may)) {
                print w[1] ": calls " w[2] " (" via[e] "), of the later stage '"'"'" stage(w[2]) "'"'"'"
                bad = 1
            }
        }
        # 1. loops: the files each file reaches, then the groups of files
        # that reach each other
        for (f in files) {
            delete seen; top = 0; stack[++top] = f
            while (top > 0) {
                x = stack[top--]; m = split(out[x], nx, " ")
                for (i = 1; i <= m; i++)
                    if (!(nx[i] in seen)) { seen[nx[i]] = 1; stack[++top] = nx[i] }
            }
            for (g in seen) reach[f " " g] = 1
        }
        nl = split(loops, ok, "|")
        for (f in files) {
            if (f in grouped || !((f " " f) in reach)) continue
            grp = f; cnt = 1
            for (g in files)
                if (g != f && ((f " " g) in reach) && ((g " " f) in reach)) { grp = grp " " g; cnt++; grouped[g] = 1 }
            grouped[f] = 1
            n = split(grp, gs, " "); sorted = ""
            for (i = 1; i <= n; i++) {            # sort the group (insertion)
                for (j = i + 1; j <= n; j++) if (gs[j] < gs[i]) { t = gs[i]; gs[i] = gs[j]; gs[j] = t }
                sorted = sorted (i > 1 ? " " : "") gs[i]
            }
            allowed_loop = 0
            for (i = 1; i <= nl; i++) if (ok[i] == sorted) allowed_loop = 1
            if (allowed_loop) continue
            print "a loop of calls between " cnt " files:"
            for (i = 1; i <= n; i++) for (j = 1; j <= n; j++)
                if ((gs[i] " " gs[j]) in via) print "  " gs[i] " -> " gs[j] " (" via[gs[i] " " gs[j]] ")"
            bad = 1
        }
        # 2. include pairs
        while ((getline line < incs) > 0) { split(line, w, " "); inc[w[1] " " w[2]] = 1 }
        for (e in inc) {
            split(e, w, " ")
            if (w[1] < w[2] && ((w[2] " " w[1]) in inc)) {
                print w[1] " and " w[2] " include each other'"'"'s headers"
                bad = 1
            }
        }
        exit bad
    }'
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ "${1:-}" = --self-test ]; then
    # a clean graph passes; each rule, broken once, fails
    printf '%s\n' "src/util/a.c D a_f" "src/load/b.c D b_f" "src/load/b.c U a_f" \
        "src/model/build.c D mb" "src/model/defs.c D md" "src/model/build.c U md" "src/model/defs.c U mb" > "$tmp/s0"
    : > "$tmp/i0"
    fails=0
    analyse "$tmp/s0" "$tmp/i0" > "$tmp/out" || { echo "circle-check self-test: a clean graph failed:"; cat "$tmp/out"; fails=1; }
    cp "$tmp/s0" "$tmp/s1"; printf '%s\n' "src/load/c.c D c_f" "src/load/c.c U b_f" "src/load/b.c U c_f" >> "$tmp/s1"
    cp "$tmp/s0" "$tmp/s2"; echo "src/util/a.c U b_f" >> "$tmp/s2"
    printf '%s\n' "src/load/b.c src/load/c.c" "src/load/c.c src/load/b.c" > "$tmp/i3"
    for t in "s1 i0 loop" "s2 i0 later" "s0 i3 include"; do
        set -- $t
        if analyse "$tmp/$1" "$tmp/$2" > "$tmp/out"; then
            echo "circle-check self-test: a made-up $3 passed"; fails=1
        elif ! grep -q "$3" "$tmp/out"; then
            echo "circle-check self-test: a made-up $3 failed for another reason:"; cat "$tmp/out"; fails=1
        fi
    done
    [ $fails = 0 ] && echo "circle-check self-test: a loop, a call back and an include pair each fail"
    exit $fails
fi

OBJ=${1:-build/asan}
missing=0
for c in src/*/*.c; do
    o=$OBJ/${c#src/}; o=${o%.c}.o
    if [ ! -f "$o" ]; then
        echo "circle-check: $o is missing (build it: make $o)" >&2; missing=1; continue
    fi
    nm -P "$o" | awk -v f="$c" '$2 == "U" { print f, "U", $1; next }
                                 $2 ~ /^[A-TV-Z]$/ { print f, "D", $1 }'
done > "$tmp/syms"
[ $missing = 0 ] || exit 2
# the form's modules: each defines itself, and needs what it imports
for j in src/form/*.js; do
    echo "$j D module:$j"
    sed -n "s/.*\(from\|import\)[[:space:]]*['\"]\.\/\([A-Za-z0-9_.-]*\.js\)['\"].*/\2/p" "$j" | sort -u |
        while read -r m; do echo "$j U module:src/form/$m"; done
done >> "$tmp/syms"
# includes of the header named after another file of src/ (X.h of X.c)
for c in src/*/*.c; do
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"/]*\)\.h".*/\1/p' "$c" | while read -r h; do
        for o in src/*/"$h".c; do
            [ -f "$o" ] && [ "$o" != "$c" ] && echo "$c $o"
        done
    done
done > "$tmp/incs"
if [ ! -s "$tmp/syms" ]; then
    echo "circle-check: no symbols read from $OBJ"; exit 2
fi
# 4. no dead function: one that no object needs, that no line of src/ uses
# (its own file included), no test and no example names, is removed,
# not kept exported (the public functions of schemadoc.h excepted)
awk '$2 == "U" { u[$3] = 1 } $2 == "D" && $3 !~ /^module:/ { d[$3] = $1 }
     END { for (s in d) if (!(s in u)) print s, d[s] }' "$tmp/syms" | sort > "$tmp/unneeded"
dead=0
while read -r sym file; do
    case $sym in schemadoc_*|__odr_asan*|main) continue ;; esac
    # a use is a line naming it that is not a declaration or a definition
    # (those start at the first column with the type)
    [ "$(cat src/*/*.c | grep -w "$sym" | grep -cv '^[A-Za-z_]')" -gt 0 ] && continue
    grep -rqw "$sym" tests docs/example.c 2>/dev/null && continue
    echo "$file: $sym is exported and never called (remove it)"; dead=$((dead + 1))
done < "$tmp/unneeded"
echo "circle-check: $(wc -l < "$tmp/unneeded") functions no other file calls, $dead of them called nowhere"
[ $dead -eq 0 ] || exit 1
if analyse "$tmp/syms" "$tmp/incs"; then
    echo "circle-check: $(ls src/*/*.c | wc -l) C files and $(ls src/form/*.js | wc -l) JS modules: no circle but the three recursive pairs and the validator's walk, no call to a later stage"
else
    exit 1
fi
