#!/bin/sh
# tests/suite-fidelity.sh - the parameter rows of every corpus chart that
# ships a helm-docs or Bitnami table must be reproduced (key and default),
# at least 99% per chart. Skipped when the corpus is not beside the repo.
cd "$(dirname "$0")/.." || exit 2
CORPUS=${CORPUS:-../shared/corpus}
if [ ! -d "$CORPUS/charts" ]; then
    echo "SKIPPED: no corpus at $CORPUS"; echo "0 passed, 0 failed"; exit 0
fi
exec python3 tests/fidelity.py "${SD:-./schemadoc}" "$CORPUS" --no-tsv
