#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/suite-commits.sh - commit subjects stay readable: one line under 72
# characters (CONTRIBUTING.md, "Commits").
#
#   sh tests/suite-commits.sh            check every commit after $SINCE
#   sh tests/suite-commits.sh MSGFILE    check one message (a commit-msg hook:
#                                        ln -s ../../tests/suite-commits.sh .git/hooks/commit-msg)
#
# The rule holds for commits made after $SINCE (the time of b2addf5, the last
# commit made before it; a time, not a hash, so a shallow clone checks what it
# has); older subjects are history. Prints "N passed, N failed" last.
set -u
cd "$(dirname "$0")/.." || exit 2
SINCE=1795834223   # the commit time of b2addf5
MAX=71   # "under 72 characters"

# subject_ok TEXT: 0 when the subject (first line) is short enough
subject_ok() {
    [ "$(printf '%s' "$1" | wc -m)" -le $MAX ]
}

if [ $# -ge 1 ]; then   # commit-msg hook
    subj=$(grep -v '^#' "$1" | head -n 1)
    if subject_ok "$subj"; then exit 0; fi
    echo "commit-msg: the subject has $(printf '%s' "$subj" | wc -m) characters; keep it under 72 and put the evidence in the body" >&2
    exit 1
fi

pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# the check itself can fail: a long subject is refused, a short one taken
long=$(printf 'x%.0s' $(seq 1 72))
subject_ok "$long" && bad "a 72-character subject passed the check" || ok
subject_ok "Confine annotation refs to the chart" && ok || bad "a short subject failed the check"

if ! command -v git >/dev/null 2>&1 || ! git rev-parse --git-dir >/dev/null 2>&1; then
    echo "SKIPPED: not a git checkout (the subjects cannot be read)"
else
    n=0 long_n=0
    tmp=$(mktemp)
    git log --no-merges --format='%ct %h %s' HEAD | awk -v t="$SINCE" '$1 > t { sub(/^[0-9]+ /, ""); print }' >"$tmp"
    while IFS= read -r line; do
        n=$((n + 1))
        subj=${line#* }
        if ! subject_ok "$subj"; then
            long_n=$((long_n + 1))
            echo "  ${line%% *}: $(printf '%s' "$subj" | wc -m) characters: $subj" | cut -c1-160
        fi
    done <"$tmp"
    rm -f "$tmp"
    echo "figure: commit subjects since b2addf5: $n, over 71 characters: $long_n"
    [ "$long_n" -eq 0 ] && ok || bad "$long_n commit subjects are 72 characters or longer"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
