# tests/valgrind.d/form.sh - sourced by tests/suite-valgrind.sh: the form page
# (--format form) of a chart, a CRD and a ytt schema, and a failing one.
run 0 samples/podinfo --format form -o /tmp/sd-vg-form.$$
run 0 samples/crd/widgets.example.com.yaml --format form -o /tmp/sd-vg-form.$$
run 0 samples/ytt/schema.yml --format form -o /tmp/sd-vg-form.$$
printf '{"type": "object", "properties": {"a": {"$ref": "#/nope"}}}' > /tmp/sd-vg-form.$$.json
run 2 /tmp/sd-vg-form.$$.json --format form -o /tmp/sd-vg-form.$$
rm -f /tmp/sd-vg-form.$$ /tmp/sd-vg-form.$$.json
