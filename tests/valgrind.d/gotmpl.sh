# SPDX-License-Identifier: Apache-2.0
# tests/valgrind.d/gotmpl.sh - sourced by tests/suite-valgrind.sh: a helm-docs
# template, a Bitnami Parameters rewrite and a failing template under valgrind.
if [ -d "$CORPUS/charts/bjw-s-common" ]; then
    run 0 "$CORPUS/charts/bjw-s-common" --readme "$CORPUS/charts/bjw-s-common/README.md" --check \
        --map "https://raw.githubusercontent.com/=$CORPUS/charts/_remote/raw.githubusercontent.com/" --offline \
        --cache-dir /tmp/sd-vg-cache.$$
    rm -rf /tmp/sd-vg-cache.$$
    run 0 "$CORPUS/charts/bitnami-nginx" --readme "$CORPUS/charts/bitnami-nginx/README.md" --check
fi
printf '{{ define "r" }}{{ include "r" . | upper }}{{ end }}{{ template "r" . }}\n' > /tmp/sd-vg-gotmpl.$$
run 2 samples/podinfo --gotmpl /tmp/sd-vg-gotmpl.$$
rm -f /tmp/sd-vg-gotmpl.$$
