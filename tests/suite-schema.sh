#!/bin/sh
# tests/suite-schema.sh - the schema from what chart authors write (issue
# 35): keys commented out in values.yaml are known keys. Fixtures:
# tests/schema/<case>/. Prints "N passed, N failed" last.
set -u
cd "$(dirname "$0")/.." || exit 2
ROOT=$PWD
SD=${SD:-$ROOT/schemadoc}
S=tests/schema
export NO_COLOR=1
passed=0 failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok()   { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
has()  { # NAME FILE TEXT: FILE contains TEXT (fixed string)
    if grep -qF -- "$3" "$2"; then ok; else fail "$1: no '$3' in $2"; head -20 "$2"; fi
}
hasnt() { # NAME FILE TEXT: FILE does not contain TEXT
    if grep -qF -- "$3" "$2"; then fail "$1: '$3' in $2"; grep -nF -- "$3" "$2" | head -5; else ok; fi
}
status() { # NAME EXPECTED ACTUAL
    if [ "$2" = "$3" ]; then ok; else fail "$1: exit status $3, expected $2"; fi
}
count() { # NAME EXPECTED FILE PATTERN: FILE has EXPECTED lines matching PATTERN
    n=$(grep -c -- "$4" "$3")
    if [ "$n" = "$2" ]; then ok; else fail "$1: $n lines with '$4', expected $2"; grep -- "$4" "$3" | head -5; fi
}

# --- keys commented out in values.yaml are known keys (the lint) -----------
C=$S/commented
"$SD" validate $C $C/uses.yaml --strict >"$tmp/out" 2>"$tmp/err"
status "commented keys, --strict: nothing unknown" 0 $?
count "commented keys: no unknown key" 0 "$tmp/err" "unknown key"
"$SD" validate $C $C/typo.yaml >"$tmp/out" 2>"$tmp/err"
status "a typo of a commented key: a warning" 0 $?
count "a typo of a commented key: one finding" 1 "$tmp/err" "unknown key"
has "a typo of a commented key: did you mean the commented key" "$tmp/err" \
    "typo.yaml:2:3: warning: podDisruptionBudget.minAvailabe: unknown key \`minAvailabe\`: values.yaml does not have it (and the chart has no schema); did you mean \`podDisruptionBudget.minAvailable\`?"
"$SD" validate $C $C/typo.yaml --strict >"$tmp/out" 2>"$tmp/err"
status "a typo of a commented key, --strict: an error" 1 $?
# the same with a schema that does not list the commented keys
mkdir "$tmp/with-schema" && cp $C/Chart.yaml $C/values.yaml "$tmp/with-schema/"
printf '%s\n' '{"type": "object", "properties": {"podDisruptionBudget": {"type": "object",' \
    '"properties": {"enabled": {"type": "boolean"}}}}}' >"$tmp/with-schema/values.schema.json"
"$SD" validate "$tmp/with-schema" $C/uses.yaml --strict >"$tmp/out" 2>"$tmp/err"
status "commented keys beside a schema, --strict" 0 $?
count "commented keys beside a schema: no unknown key" 0 "$tmp/err" "unknown key"
"$SD" validate "$tmp/with-schema" $C/typo.yaml >"$tmp/out" 2>"$tmp/err"
has "a typo beside a schema: did you mean the commented key" "$tmp/err" \
    "did you mean \`podDisruptionBudget.minAvailable\`?"
# below a commented-out example nothing is judged: it shows one way, not every way
printf 'deployment:\n  lifecycle:\n    preStop:\n      httpGet: {path: /x}\n' >"$tmp/other-hook.yaml"
"$SD" validate $C "$tmp/other-hook.yaml" --strict >"$tmp/out" 2>"$tmp/err"
status "below a commented example: not judged" 0 $?

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
