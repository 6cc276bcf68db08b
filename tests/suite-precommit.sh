#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/suite-precommit.sh - the hooks of .pre-commit-hooks.yaml run by the
# pre-commit tool (Debian package pre-commit) on a throw-away git
# repository of two charts: a commit touching one chart rewrites that
# chart's README only (and pre-commit fails the commit, as it does when a
# hook changes files); the check hook fails on a stale README and passes
# once it is up to date. Nothing is fetched: the hooks are language: system.
# Environment: SD_REL (the release binary; its folder goes first on PATH).
set -u
cd "$(dirname "$0")/.." || exit 2
ROOT=$PWD
SD=${SD_REL:-$ROOT/schemadoc}
passed=0 failed=0
ok()   { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
if ! command -v pre-commit >/dev/null 2>&1 || ! command -v git >/dev/null 2>&1; then
    echo "SKIPPED: pre-commit or git is not installed (apt-get install pre-commit git)"
    echo "0 passed, 0 failed"; exit 0
fi
tmp=$(mktemp -d /tmp/sd-precommit-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin" && ln -s "$SD" "$tmp/bin/schemadoc"
export PATH="$tmp/bin:/usr/bin:/bin" HOME="$tmp/home" PRE_COMMIT_HOME="$tmp/cache"
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.invalid GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.invalid
# no network: a proxy that does not exist, so any attempt to reach PyPI fails loudly
export http_proxy=http://127.0.0.1:9 https_proxy=http://127.0.0.1:9 PIP_NO_INDEX=1
mkdir -p "$HOME"
git config --global init.defaultBranch main
git config --global advice.detachedHead false

# the hook repository: this file, committed in a repository of its own
mkdir "$tmp/hooks" && cp .pre-commit-hooks.yaml "$tmp/hooks/"
(cd "$tmp/hooks" && git init -q && git add . && git commit -qm hooks) || { fail "hook repo"; }
rev=$(git -C "$tmp/hooks" rev-parse HEAD)

# the charts repository
R=$tmp/repo
mkdir -p "$R/charts"
for c in alpha beta; do
    cp -r samples/podinfo "$R/charts/$c"
    sed -i "s/^name: .*/name: $c/" "$R/charts/$c/Chart.yaml"
    rm -f "$R/charts/$c/README.md" "$R/charts/$c/README.md.gotmpl"
    printf '# %s\n\n<!-- schemadoc:start -->\n<!-- schemadoc:end -->\n' "$c" > "$R/charts/$c/README.md"
done
cat > "$R/.pre-commit-config.yaml" <<EOF
repos:
  - repo: $tmp/hooks
    rev: $rev
    hooks:
      - id: schemadoc
EOF
cd "$R" || exit 2
git init -q && git add . && git commit -qm "charts, READMEs not yet written" --no-verify
pre-commit install >/dev/null 2>&1 && ok || fail "pre-commit install"

# a commit that touches alpha only
printf '# -- a new value\nnewValue: 1\n' >> charts/alpha/values.yaml
git add charts/alpha/values.yaml
if git commit -qm "alpha: new value" >"$tmp/commit.log" 2>&1; then
    fail "the commit passed although the hook rewrote a README"; cat "$tmp/commit.log"
else ok; fi
grep -q 'files were modified by this hook' "$tmp/commit.log" && ok || { fail "pre-commit did not report the rewrite"; tail -5 "$tmp/commit.log"; }
grep -q 'newValue' charts/alpha/README.md && ok || fail "alpha/README.md was not rewritten"
grep -q '^<!-- schemadoc:start -->$' charts/alpha/README.md && grep -q '| Key' charts/alpha/README.md && ok || fail "alpha/README.md has no table between the markers"
[ "$(grep -c . charts/beta/README.md)" -eq 3 ] && ok || fail "beta/README.md was touched by a commit that did not touch beta"
grep -qi 'pypi\|Collecting\|pip' "$tmp/commit.log" && fail "pre-commit tried to install something" || ok
git add charts/alpha/README.md
git commit -qm "alpha: new value" >"$tmp/commit2.log" 2>&1 && ok || { fail "the second commit (README up to date) failed"; tail -5 "$tmp/commit2.log"; }

# the check hook, over the whole repository: beta is stale
cat > .pre-commit-config.yaml <<EOF
repos:
  - repo: $tmp/hooks
    rev: $rev
    hooks:
      - id: schemadoc-check
EOF
pre-commit run --all-files >"$tmp/check.log" 2>&1; st=$?
[ $st -ne 0 ] && ok || fail "schemadoc-check passed with a stale beta/README.md"
grep -q '^+.*replicaCount' "$tmp/check.log" && ok || fail "schemadoc-check showed no difference"
[ "$(grep -c . charts/beta/README.md)" -eq 3 ] && ok || fail "schemadoc-check wrote beta/README.md"
"$SD" --recursive charts --readme README.md -q && ok || fail "rewriting every README"
pre-commit run --all-files >"$tmp/check2.log" 2>&1 && ok || { fail "schemadoc-check failed on up-to-date READMEs"; tail -5 "$tmp/check2.log"; }

# the schema hook: a commit touching values.yaml fails while the chart's
# values.schema.json is not the schema its values and comments make
cat > .pre-commit-config.yaml <<EOF
repos:
  - repo: $tmp/hooks
    rev: $rev
    hooks:
      - id: schemadoc-schema
EOF
"$SD" schema charts/alpha -o charts/alpha/values.schema.json && "$SD" schema charts/beta -o charts/beta/values.schema.json \
    && ok || fail "writing the schemas"
git add -A && git commit -qm "schemas written" >"$tmp/s0.log" 2>&1 && ok || { fail "commit with up-to-date schemas"; tail -5 "$tmp/s0.log"; }
printf '# -- (int) how many workers\nworkers: 2\n' >> charts/beta/values.yaml
git add charts/beta/values.yaml
git commit -qm "beta: workers" >"$tmp/s1.log" 2>&1 && fail "the commit passed with a stale beta/values.schema.json" || ok
grep -q '^+.*"workers"' "$tmp/s1.log" && ok || { fail "schemadoc-schema showed no difference"; tail -20 "$tmp/s1.log"; }
grep -q 'alpha/values.schema.json' "$tmp/s1.log" && fail "schemadoc-schema looked at alpha, which the commit did not touch" || ok
"$SD" schema charts/beta -o charts/beta/values.schema.json && git add -A
git commit -qm "beta: workers" >"$tmp/s2.log" 2>&1 && ok || { fail "the commit failed with the schema written"; tail -5 "$tmp/s2.log"; }

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
