# SPDX-License-Identifier: Apache-2.0
# sourced by tests/suite-valgrind.sh: --recursive over the samples, -j 2
# (valgrind follows fork(): each chart's process is checked too and exits
# 99 on an error, which the parent reports as a failed chart, status 2)
vg_site=$(mktemp -d /tmp/sd-vg-site-XXXXXX)
run 0 --recursive samples -o "$vg_site/site" -j 2 -q
run 1 --recursive samples --readme README.md --check -q
rm -rf "$vg_site"
