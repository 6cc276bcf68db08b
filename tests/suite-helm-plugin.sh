#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/suite-helm-plugin.sh - plugin.yaml run the way Helm 3 runs a plugin
# (helm.sh/docs/topics/plugins): Helm is not packaged for Debian, so a stand-in
# `helm` finds $HELM_PLUGINS/NAME/plugin.yaml, expands environment
# variables in `command` ($HELM_PLUGIN_DIR, $HELM_BIN, ...), splits it at
# spaces, appends the user's arguments minus Helm's own global flags, and
# executes it with HELM_PLUGIN_NAME, HELM_PLUGIN_DIR, HELM_PLUGINS, HELM_BIN
# and HELM_NAMESPACE set. `helm schemadoc ...` must then behave exactly as
# the installed `schemadoc ...`.
# Environment: SD_REL (the release binary, put on PATH as `schemadoc`).
set -u
cd "$(dirname "$0")/.." || exit 2
ROOT=$PWD
SD=${SD_REL:-$ROOT/schemadoc}
passed=0 failed=0
ok()   { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
tmp=$(mktemp -d /tmp/sd-helm-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/plugins/schemadoc"
ln -s "$SD" "$tmp/bin/schemadoc"
# as `helm plugin install <repository>` would leave it: the repository's plugin.yaml
cp plugin.yaml "$tmp/plugins/schemadoc/"

cat > "$tmp/bin/helm" <<'EOF'
#!/bin/sh
# a stand-in for Helm 3's plugin runner (pkg/plugin: PrepareCommand, manuallyProcessArgs)
set -u
name=$1; shift
export HELM_PLUGINS HELM_BIN="$0" HELM_NAMESPACE="${HELM_NAMESPACE:-default}"
for y in "$HELM_PLUGINS"/*/plugin.yaml; do
    n=$(sed -n 's/^name: *"\{0,1\}\([^"]*\)"\{0,1\} *$/\1/p' "$y")
    [ "$n" = "$name" ] || continue
    export HELM_PLUGIN_NAME="$name" HELM_PLUGIN_DIR="$(dirname "$y")"
    cmd=$(sed -n 's/^command: *"\{0,1\}\([^"]*\)"\{0,1\} *$/\1/p' "$y")
    [ -n "$cmd" ] || { echo "Error: plugin \"$name\" has no command" >&2; exit 1; }
    # Helm's global flags are taken out of the plugin's arguments
    keep=""
    skipnext=0
    for a in "$@"; do
        if [ $skipnext = 1 ]; then skipnext=0; continue; fi
        case $a in
        --debug) continue ;;
        --kube-context|--namespace|-n|--kubeconfig) skipnext=1; continue ;;
        --kube-context=*|--namespace=*|--kubeconfig=*) continue ;;
        esac
        keep="$keep $(printf '%s' "$a" | sed "s/'/'\\\\''/g; s/^/'/; s/\$/'/")"
    done
    # os.ExpandEnv, then strings.Split(cmd, " "): no shell, no quoting
    expanded=$(eval "printf '%s' \"$cmd\"")
    eval "set -- $keep"
    exec $expanded "$@"
done
echo "Error: unknown command \"$name\" for \"helm\"" >&2
exit 1
EOF
chmod +x "$tmp/bin/helm"
export PATH="$tmp/bin:/usr/bin:/bin" HELM_PLUGINS="$tmp/plugins"

grep -q '^name: "schemadoc"' plugin.yaml && ok || fail "plugin.yaml names the plugin schemadoc"
grep -q '^version: "' plugin.yaml && ok || fail "plugin.yaml has a version"
helm schemadoc --version > "$tmp/v" 2>&1 && grep -q '^schemadoc ' "$tmp/v" && ok || fail "helm schemadoc --version: $(cat "$tmp/v")"
cp -r samples/podinfo "$tmp/chart"
helm schemadoc "$tmp/chart" --format html -o "$tmp/a.html" && ok || fail "helm schemadoc CHART --format html"
schemadoc "$tmp/chart" --format html -o "$tmp/b.html"
cmp -s "$tmp/a.html" "$tmp/b.html" && ok || fail "helm schemadoc and schemadoc write different pages"
helm schemadoc "$tmp/chart" --format md -o "$tmp/a.md" --debug -n kube-system && ok || fail "Helm's global flags reach schemadoc"
[ -s "$tmp/a.md" ] && ok || fail "md page written"
helm schemadoc validate "$tmp/chart"; [ $? -eq 0 ] && ok || fail "helm schemadoc validate"
printf 'replicaCount: many\n' > "$tmp/bad.yaml"
helm schemadoc validate "$tmp/chart" "$tmp/bad.yaml" >/dev/null 2>&1; st=$?
[ $st -eq 1 ] && ok || fail "helm schemadoc validate bad values: status $st, expected 1 (passed through)"
helm schemadoc "$tmp/chart" --format nope >/dev/null 2>&1; st=$?
[ $st -eq 2 ] && ok || fail "a usage error: status $st, expected 2"
helm schemadoc "$tmp/chart" "it's quoted" >/dev/null 2>"$tmp/err"; grep -q "it's quoted" "$tmp/err" && ok || fail "arguments reach schemadoc verbatim: $(cat "$tmp/err")"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
