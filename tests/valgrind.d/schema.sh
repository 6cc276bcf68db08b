# SPDX-License-Identifier: Apache-2.0
# the schema made from a chart's values and comments (issue 35), and a chart
# without a schema checked against it
[ -d "$CORPUS/charts/grafana" ] && run 0 schema "$CORPUS/charts/grafana"
[ -d "$CORPUS/charts/grafana/ci" ] && run 0 validate --each "$CORPUS/charts/grafana" "$CORPUS"/charts/grafana/ci/*.yaml
[ -d "$CORPUS/schema-gen/losisin" ] && run 0 schema --like helm-values-schema-json "$CORPUS/schema-gen/losisin/testdata/full.yaml"
