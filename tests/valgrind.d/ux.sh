# SPDX-License-Identifier: Apache-2.0
# issue 17: the lint of validate, --lenient, --each, the md schema keys and
# details, ytt variables, the html additions, the template's failed lookup
run 1 validate --strict tests/golden/validate-typos/chart tests/golden/validate-typos/typos.yaml
run 1 validate --output json tests/golden/validate-typos-noschema/chart tests/golden/validate-typos-noschema/typos.yaml --strict
run 1 validate --lenient tests/golden/validate-lenient/schema.json tests/golden/validate-lenient/values.yaml
run 1 validate --each samples/ytt/schema.yml tests/golden/validate-ytt-each/good.yaml tests/golden/validate-ytt-each/typo.yaml
run 0 tests/ux/md-chart --format md
run 0 tests/ux/html-chart --format html
run 0 tests/ux/ytt-starlark/bindings.yml --format html
run 0 tests/ux/def-names/schema.json --format md
run 0 template tests/golden/template-failed-lookup-dynamic/page.mustache --data tests/golden/template-failed-lookup-dynamic/data.json
