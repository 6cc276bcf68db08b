#!/bin/sh
# tests/suite-confine.sh - files a chart names stay inside the chart (issue
# 36 item 14): a README.md, a --gotmpl template, an -o file or a folder the
# chart ships as a symbolic link leading out of it is refused (exit 2, the
# outside file neither printed nor written), one leading elsewhere inside
# the chart is followed, a path outside the chart as written is the user's
# own; .Files lists and reads nothing through links. Run as a user would,
# from a shell. Prints "N passed, N failed" last.
set -u
cd "$(dirname "$0")/.." || exit 2
SD=${SD:-$PWD/schemadoc}
export NO_COLOR=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }

mkdir -p "$tmp/outside" "$tmp/c/docs"
printf 'SECRET-LINE-1\nSECRET-LINE-2\n' > "$tmp/outside/secret.txt"
cp "$tmp/outside/secret.txt" "$tmp/secret.orig"
printf 'apiVersion: v2\nname: c\nversion: 1.0.0\n' > "$tmp/c/Chart.yaml"
printf '# -- replicas\nreplicas: 1\n' > "$tmp/c/values.yaml"
cd "$tmp" || exit 2

# --- a README linked out of the chart --------------------------------------
# (with a README.md.gotmpl the whole README is the template's: --check would
# print every line of the file it replaces)
printf '{{ template "chart.valuesTable" . }}\n' > c/README.md.gotmpl
ln -s ../outside/secret.txt c/README.md
"$SD" c --readme c/README.md --check >out 2>err; st=$?
[ $st -eq 2 ] && grep -q "c/README.md: error: refusing the README: it leads outside the chart directory 'c'" err \
    && ! grep -q SECRET out err && ok || { bad "--check through an outside link: status $st"; cat out err; }
"$SD" c --readme c/README.md >out 2>err; st=$?
[ $st -eq 2 ] && [ -L c/README.md ] && cmp -s outside/secret.txt secret.orig && ok \
    || { bad "README write through an outside link: status $st"; cat err; }
# the same file reached through a folder link
rm c/README.md
ln -s ../../outside c/docs/out
"$SD" c --readme c/docs/out/secret.txt --check >out 2>err; st=$?
[ $st -eq 2 ] && ! grep -q SECRET out err && ok || { bad "README in a linked folder: status $st"; cat out err; }
rm c/README.md.gotmpl

# --- a README linked inside the chart: followed, the link kept --------------
printf '# c\n\n<!-- schemadoc:start -->\n<!-- schemadoc:end -->\n' > c/docs/README.md
ln -s docs/README.md c/README.md
"$SD" c --readme c/README.md >out 2>err; st=$?
[ $st -eq 0 ] && [ -L c/README.md ] && grep -q 'replicas' c/docs/README.md && ok \
    || { bad "README linked inside the chart: status $st"; cat err; }
"$SD" c --readme c/README.md --check >out 2>err; st=$?
[ $st -eq 0 ] && ok || { bad "--check of the README linked inside: status $st"; cat out err; }

# --- a README outside the chart as written: the user's own -------------------
printf '<!-- schemadoc:start -->\n<!-- schemadoc:end -->\n' > README.md
"$SD" c --readme README.md >out 2>err; st=$?
[ $st -eq 0 ] && grep -q replicas README.md && ok || { bad "a README outside the chart: status $st"; cat err; }

# --- --gotmpl and -o linked out ----------------------------------------------
printf '{{ .Name }}\n' > outside/t.gotmpl
ln -s ../outside/t.gotmpl c/VALUES.md.gotmpl
"$SD" c --gotmpl c/VALUES.md.gotmpl >out 2>err; st=$?
[ $st -eq 2 ] && grep -q "refusing the template: it leads outside the chart directory" err && ok \
    || { bad "--gotmpl linked out: status $st"; cat err; }
"$SD" c --gotmpl outside/t.gotmpl -o out.md 2>err; st=$?
[ $st -eq 0 ] && [ "$(cat out.md)" = c ] && ok || { bad "--gotmpl outside the chart as written: status $st"; cat err; }
ln -s ../outside/secret.txt c/VALUES.md
"$SD" c --format md -o c/VALUES.md --check >out 2>err; st=$?
[ $st -eq 2 ] && grep -q "refusing the output file" err && ! grep -q SECRET out err && ok \
    || { bad "-o --check through an outside link: status $st"; cat out err; }
"$SD" c --format md -o c/docs/out/page.md >out 2>err; st=$?
[ $st -eq 2 ] && [ ! -e outside/page.md ] && ok || { bad "-o into a linked folder: status $st"; cat err; }
cmp -s outside/secret.txt secret.orig && ok || bad "the outside file changed"

# --- .Files through links ------------------------------------------------------
mkdir -p c/files
ln -s ../../outside c/files/linkdir
ln -s ../../outside/secret.txt c/files/link.txt
printf '[{{ .Files.Get "files/link.txt" }}][{{ .Files.Get "files/linkdir/secret.txt" }}][{{ (.Files.Glob "files/**").AsConfig }}][{{ .Files.Lines "c/files/linkdir/secret.txt" }}]\n' > t.gotmpl
"$SD" c --gotmpl t.gotmpl -o files.md 2>err; st=$?
[ $st -eq 0 ] && [ "$(cat files.md)" = '[][][][[]]' ] && ok || { bad ".Files through links: status $st"; cat files.md err; }

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
