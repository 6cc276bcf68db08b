# SPDX-License-Identifier: Apache-2.0
# issue 15: validate on tapes (tree/tape.c): a .json values file parsed
# straight into one, with every error the validator and the lint report,
# and the inputs the tape leaves to json.c; a chart's merged values copied
# into one.
run 2 validate tests/golden/validate-json-tape/schema.json tests/golden/validate-json-tape/values.json \
    tests/golden/validate-json-tape/dup.json tests/golden/validate-json-tape/deep.json \
    tests/golden/validate-json-tape/nums.json tests/golden/validate-json-tape/ctl.json
run 1 validate --output json --strict tests/golden/validate-json-tape/schema.json tests/golden/validate-json-tape/values.json
[ -d "$CORPUS/charts/bitnami-redis" ] && run 1 validate --strict "$CORPUS/charts/bitnami-redis" tests/golden/validate-typos/typos.yaml
# a Chart.yaml given as a values file: refused, the loaded document freed
run 2 validate tests/golden/validate-values-chart-yaml/chart tests/golden/validate-values-chart-yaml/chart/Chart.yaml
run 0 validate tests/golden/validate-print-values-oneof/chart tests/golden/validate-print-values-oneof/my.yaml --print-values
