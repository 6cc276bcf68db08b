#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/suite-fidelity.sh - the parameter rows of every corpus chart that
# ships a helm-docs or Bitnami table must be reproduced (key and default),
# 100% per chart (argo-cd's 5 hand-written .gotmpl rows are the one listed
# exception, left out by tests/fidelity.py). Then the executable models of
# docs/annotations.md sections 1 and 2 (tests/helmdocs_oracle.py,
# tests/bitnami_oracle.py) must score 100% on the charts of their dialect:
# the rules written there are enough for the corpus.
cd "$(dirname "$0")/.." || exit 2
CORPUS=${CORPUS:-../shared/corpus}
if [ ! -d "$CORPUS/charts" ]; then
    echo "SKIPPED: no corpus at $CORPUS"; echo "0 passed, 0 failed"; exit 0
fi
SDBIN=${SD:-./schemadoc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 tests/fidelity.py "$SDBIN" "$CORPUS" --no-tsv --threshold 100 >"$tmp/main.out" 2>&1
st=$?
cat "$tmp/main.out"
last=$(tail -n 1 "$tmp/main.out")
pass=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
fail=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
[ -n "$pass" ] || { pass=0; fail=1; echo "FAIL: fidelity.py printed no counts"; }
[ $st -eq 0 ] || [ "$fail" -gt 0 ] || fail=1
for oracle in helmdocs:argo-cd:traefik bitnami:bitnami-nginx:bitnami-postgresql:bitnami-redis:bitnami-wordpress; do
    name=${oracle%%:*} charts=$(echo "${oracle#*:}" | tr ':' ' ')
    printf '#!/bin/sh\nexec python3 %s/tests/%s_oracle.py %s "$1"\n' "$PWD" "$name" "$SDBIN" >"$tmp/$name.sh"
    chmod +x "$tmp/$name.sh"
    args=""; for c in $charts; do args="$args --chart $c"; done
    if python3 tests/fidelity.py "$tmp/$name.sh" "$CORPUS" --no-tsv --threshold 100 $args >"$tmp/$name.out" 2>&1; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1)); echo "FAIL: tests/${name}_oracle.py below 100% (docs/annotations.md section 4)"
    fi
    grep '^figure: fidelity overall' "$tmp/$name.out" | sed "s/overall/oracle $name/"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
