#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/suite-dialects.sh - the comment dialects are one table
# (src/comments/dialects.def, dialect.h): no other file of src/ decides on a
# dialect by its name, its id or its marker, and a chart's dialect reaches
# the model and the page from the row.
#
# 1. The check, on a made-up tree: a file that compares a dialect's name
#    (strcmp(d, "bitnami")), its id (== SD_DIALECT_BITNAMI) or looks for
#    the `@schema` marker itself (strstr(t, "@schema")) must each fail it.
# 2. The check on src/: the rows' names and ids appear nowhere but in
#    dialects.def; the marker only in dialect.c (sd_dialect_at_schema) and
#    the reader of the `@schema` dialects (atschema.c).
# 3. Made-up charts through $SD: each dialect's name in the model's
#    source.dialect, its README table in --format md.
# Prints "N passed, N failed" last.
set -u
cd "$(dirname "$0")/.." || exit 2
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# decisions DIR: print each line of DIR's C files that decides on a dialect
# outside the table; the names and ids are read from src/comments/dialects.def
names=$(sed -n 's/^SD_DIALECT(\([A-Z0-9_]*\), *"\([^"]*\)".*/\2/p' src/comments/dialects.def)
ids=$(sed -n 's/^SD_DIALECT(\([A-Z0-9_]*\),.*/\1/p' src/comments/dialects.def)
decisions() {
    for f in $(find "$1" -name '*.c' -o -name '*.h' | sort); do
        case $f in */comments/dialect.c|*/comments/dialects.def) continue ;; esac
        for n in $names; do grep -Hn "\"$n\"" "$f"; done
        for i in $ids; do grep -Hn "SD_DIALECT_$i\b" "$f"; done
        case $f in */comments/atschema.c) ;; *) grep -Hn 'str[a-z]*(.*"@schema")' "$f" ;; esac
    done
}

if [ -z "$names" ] || [ -z "$ids" ]; then
    bad "no rows read from src/comments/dialects.def"
fi

# 1. the check can fail
mkdir -p "$tmp/src/x"
for line in 'if (strcmp(d, "bitnami") == 0) x();' 'if (a->dialect == SD_DIALECT_BITNAMI) x();' \
            'int native = !strstr(text, "@schema");'; do
    printf '%s\n' "$line" > "$tmp/src/x/a.c"
    if [ -n "$(decisions "$tmp/src")" ]; then ok; else bad "the check passed a file with: $line"; fi
done
printf 'const sd_dialect *d = sd_source_dialect(src, ch);\n' > "$tmp/src/x/a.c"
if [ -z "$(decisions "$tmp/src")" ]; then ok; else bad "the check failed a file that asks the source"; fi

# 2. src/ decides in one place
out=$(decisions src)
if [ -z "$out" ]; then ok; else bad "a dialect decided outside src/comments/dialects.def:"; echo "$out"; fi

# 3. a chart of each dialect, through the command line
SD=${SD:-build/asan/schemadoc}
if [ ! -x "$SD" ]; then
    echo "SKIPPED: no $SD (build it: make build-asan)"
    echo "$pass passed, $fail failed"
    [ "${CI:-}" = true ] && exit 1
    [ "$fail" -eq 0 ]; exit
fi
chart() {
    mkdir -p "$tmp/$1"
    printf 'apiVersion: v2\nname: %s\nversion: 1.0.0\n' "$1" > "$tmp/$1/Chart.yaml"
    printf '%b' "$2" > "$tmp/$1/values.yaml"
}
chart bn '## @section Main\n## @param replicas How many pods\nreplicas: 1\n'
chart hd '# -- How many pods\nreplicas: 1\n'
for c in "bn bitnami" "hd helm-docs"; do
    set -- $c
    if "$SD" "$tmp/$1" --format json 2>/dev/null | grep -q "\"dialect\": *\"$2\""; then ok
    else bad "$1: the model's source.dialect is not \"$2\""; fi
done
md=$("$SD" "$tmp/bn" --format md 2>/dev/null)
case $md in *'| Name | Description | Value |'*'| `replicas` | How many pods | `1` |'*) ok ;;
    *) bad "bn: no readme-generator table with code cells in --format md"; echo "$md" | head -n 30 ;; esac
md=$("$SD" "$tmp/hd" --format md 2>/dev/null)
case $md in *'| Key | Type | Default | Description |'*'| replicas | int | `1` | How many pods |'*) ok ;;
    *) bad "hd: no helm-docs table in --format md"; echo "$md" | head -n 30 ;; esac
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
