#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/suite-values.sh - `validate --print-values` prints values the schema
# accepts (docs/validate.md): for every corpus chart's ci/ file (and
# bjw-s-common's test-chart-ci/) that passes `validate CHART FILE`, the
# printed effective values (defaults filled in) pass `validate CHART` too.
# Defaults taken from every oneOf branch at once, or empty maps made for
# keys nobody set, broke this on 20 of the 48 files that pass.
set -u
cd "$(dirname "$0")/.." || exit 2
SD=${SD:-./schemadoc}
CORPUS=${CORPUS:-../shared/corpus}
C=$CORPUS
if [ ! -d "$C/charts" ]; then
    echo "SKIPPED: no corpus charts at $C/charts"
    echo "0 passed, 0 failed"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0 files=0 skipped=0
MAPS="--offline --map https://raw.githubusercontent.com/yannh/kubernetes-json-schema/master/master-standalone-strict/_definitions.json=$C/kubernetes/_definitions.json --map https://raw.githubusercontent.com/=$C/charts/_remote/raw.githubusercontent.com/"
for c in "$C"/charts/*/; do
    c=${c%/}
    for f in "$c"/ci/*.yaml "$c"/test-chart-ci/*.yaml; do
        [ -f "$f" ] || continue
        # only files that pass: what they print must pass too
        # shellcheck disable=SC2086
        if ! "$SD" validate "$c" "$f" $MAPS >/dev/null 2>&1; then
            skipped=$((skipped + 1)); continue
        fi
        files=$((files + 1))
        # the values come first on stdout, then one result line naming the files
        # shellcheck disable=SC2086
        "$SD" validate "$c" "$f" --print-values $MAPS 2>/dev/null | grep -v "^$c/values.yaml + " >"$tmp/pv.yaml"
        # shellcheck disable=SC2086
        if "$SD" validate "$c" "$tmp/pv.yaml" $MAPS >/dev/null 2>"$tmp/err"; then
            passed=$((passed + 1))
        else
            failed=$((failed + 1))
            echo "FAIL: printed values of $(basename "$c")/$(basename "$f") do not pass"
            grep 'error:' "$tmp/err" | head -3
        fi
    done
done
echo "figure: print-values: $files corpus ci/ files that pass, their printed values pass: $passed; $skipped files that fail themselves left out"
[ "$files" -ge 40 ] && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL: only $files files checked"; }
# the golden case's printed values pass their own schema
g=tests/golden/validate-print-values-oneof
"$SD" validate "$g/chart" "$g/my.yaml" --print-values 2>/dev/null | grep -v "^$g/chart/values.yaml + " >"$tmp/g.yaml"
if "$SD" validate "$g/chart" "$tmp/g.yaml" >/dev/null 2>&1; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $g printed values do not pass"; fi
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
