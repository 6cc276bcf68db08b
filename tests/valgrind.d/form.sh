# SPDX-License-Identifier: Apache-2.0
# tests/valgrind.d/form.sh - sourced by tests/suite-valgrind.sh: the form page
# (--format form) of a chart, a CRD and a ytt schema, with --reference, and failing ones.
run 0 samples/podinfo --format form -o /tmp/sd-vg-form.$$
run 0 samples/crd/widgets.example.com.yaml --format form -o /tmp/sd-vg-form.$$
run 0 samples/ytt/schema.yml --format form -o /tmp/sd-vg-form.$$
run 0 tests/form/fixtures/chart-basic --format form --reference values.html -o /tmp/sd-vg-form.$$
run 0 samples/crd/widgets.example.com.yaml --format form --reference https://example.com/w.html -o /tmp/sd-vg-form.$$
run 2 samples/podinfo --format form --reference 'javascript:alert(1)' -o /tmp/sd-vg-form.$$
printf '{"type": "object", "properties": {"a": {"$ref": "#/nope"}}}' > /tmp/sd-vg-form.$$.json
run 2 /tmp/sd-vg-form.$$.json --format form -o /tmp/sd-vg-form.$$
rm -f /tmp/sd-vg-form.$$ /tmp/sd-vg-form.$$.json
