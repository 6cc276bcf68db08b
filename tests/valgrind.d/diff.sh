# SPDX-License-Identifier: Apache-2.0
# tests/valgrind.d/diff.sh - `schemadoc diff` and `upgrade-check` under valgrind
# (sourced by tests/suite-valgrind.sh: run STATUS ARGS...).
run 1 diff tests/diff/old.schema.json tests/diff/new.schema.json --format html --descriptions
run 1 diff tests/diff/chart-old tests/diff/chart-new --format json
run 2 diff tests/diff/old.schema.json tests/diff/missing.json
run 1 upgrade-check tests/diff/old.schema.json tests/diff/new.schema.json tests/diff/user-values.yaml
if [ -d "$CORPUS/upgrades/bitnami-postgresql-11.0.0" ]; then
    run 1 diff "$CORPUS/upgrades/bitnami-postgresql-10.16.3" "$CORPUS/upgrades/bitnami-postgresql-11.0.0"
fi
run 1 upgrade-check tests/diff/chart-old tests/diff/chart-new tests/diff/user-values.yaml
