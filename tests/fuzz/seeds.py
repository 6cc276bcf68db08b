#!/usr/bin/env python3
"""tests/fuzz/seeds.py - seed corpora for the fuzz targets, made at run time
from ../shared/corpus (nothing large is committed).

Usage: seeds.py TARGET OUTDIR CORPUS
Writes small inputs shaped as the target reads them (tests/fuzz/fuzz.h:
parts separated by "\\n--8<--\\n")."""
import glob
import hashlib
import json
import os
import sys

SEP = b"\n--8<--\n"
MAX = 64 * 1024


def main():
    target, out, corpus = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(out, exist_ok=True)
    seeds = []

    def files(*pats):
        got = []
        for p in pats:
            got += sorted(glob.glob(os.path.join(corpus, p), recursive=True))
        return [f for f in got if os.path.isfile(f) and os.path.getsize(f) <= MAX]

    def read(f):
        with open(f, "rb") as fh:
            return fh.read()

    def suite_tests(limit):
        n = 0
        for f in files("jsonschema-test-suite/tests/draft2020-12/*.json",
                       "jsonschema-test-suite/tests/draft7/*.json",
                       "jsonschema-test-suite/tests/draft4/*.json"):
            try:
                groups = json.loads(read(f))
            except ValueError:
                continue
            draft = 5 if "2020" in f else 3 if "draft7" in f else 1
            for g in groups:
                for t in g.get("tests", [])[:2]:
                    yield draft, json.dumps(g["schema"]).encode(), json.dumps(t["data"]).encode()
                    n += 1
                    if n >= limit:
                        return

    if target == "load":
        seeds = [read(f) for f in files("charts/*/values.yaml", "ytt/**/*.yml", "ytt/**/*.yaml",
                                        "jsonschema-test-suite/remotes/**/*.json", "charts/*/Chart.yaml")]
    elif target == "comments":
        seeds = [read(f) for f in files("charts/*/values*.yaml", "charts/*/ci/*.yaml",
                                        "schema-gen/losisin/testdata/*.yaml", "schema-gen/dadav/tests/charts/*.yaml",
                                        "schema-gen/dadav/examples/values.yaml")]
    elif target == "ytt":
        seeds = [read(f) for f in files("ytt/**/*.yml", "ytt/**/*.yaml")]
    elif target == "resolve":
        remotes = [read(f) for f in files("jsonschema-test-suite/remotes/*.json")]
        for i, (d, s, _) in enumerate(suite_tests(100000)):
            if b"$ref" in s or b"$id" in s:
                seeds.append(s + SEP + remotes[i % len(remotes)] if remotes else s)
        seeds = seeds[:300]
    elif target == "validate":
        seeds = [bytes([d]) + s + SEP + data for d, s, data in suite_tests(400)]
    elif target == "rules":
        seen = set()
        for d, s, _ in suite_tests(100000):
            if s not in seen:
                seen.add(s)
                seeds.append(s)
        seeds = seeds[:300]
    elif target == "mustache":
        for f in files("mustache-spec/specs/*.json"):
            for t in json.loads(read(f)).get("tests", []):
                parts = [t["template"].encode(), json.dumps(t.get("data", {})).encode()]
                partials = t.get("partials", {})
                if partials:
                    parts.append(next(iter(partials.values())).encode())
                seeds.append(SEP.join(parts))
        seeds += [read(f) for f in sorted(glob.glob(os.path.join(os.path.dirname(__file__),
                                                                    "../../templates/*.mustache")))
                  if os.path.getsize(f) <= MAX]
    elif target == "render":
        for d in sorted(glob.glob(os.path.join(corpus, "charts/*/"))):
            v, s = os.path.join(d, "values.yaml"), os.path.join(d, "values.schema.json")
            if os.path.isfile(v) and os.path.getsize(v) <= MAX:
                seeds.append(read(v) + (SEP + read(s) if os.path.isfile(s) and os.path.getsize(s) <= MAX else b""))
        seeds.append(b"# -- <script>alert(1)</script>\nx: '<img src=x onerror=alert(1)>'\n")
    elif target == "regex":
        pats = {}

        def collect(node, subjects):
            if isinstance(node, dict):
                for k, v in node.items():
                    if k == "pattern" and isinstance(v, str):
                        pats.setdefault(v, set()).update(subjects)
                    elif k == "patternProperties" and isinstance(v, dict):
                        for key in v:
                            pats.setdefault(key, set()).update(subjects)
                    collect(v, subjects)
            elif isinstance(node, list):
                for v in node:
                    collect(v, subjects)

        for f in files("jsonschema-test-suite/tests/**/*.json", "charts/**/values.schema.json", "crds/*.json"):
            try:
                doc = json.loads(read(f))
            except ValueError:
                continue
            for g in doc if isinstance(doc, list) else [{"schema": doc}]:
                data = [t.get("data") for t in g.get("tests", [])] if isinstance(g, dict) else []
                subj = {x for x in data if isinstance(x, str)}
                subj |= {k for x in data if isinstance(x, dict) for k in x}
                collect(g.get("schema") if isinstance(g, dict) else None, subj)
        generic = ["", "a", "abc", "my-app-1", "a.b.c", "1h30m", "100Mi", "-", "a\u00e9", "x y", "/path"]
        for pat, subj in sorted(pats.items()):
            lines = [x for x in sorted(subj) + generic if "\n" not in x]
            seeds.append(pat.encode() + SEP + "\n".join(lines).encode())
    elif target == "archive":
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../pathological"))
        import tarfile
        import tars
        seeds = list(tars.CASES.values())
        for d in sorted(glob.glob(os.path.join(corpus, "charts/*/"))):
            name = os.path.basename(d.rstrip("/"))
            body = b""
            for f in ("Chart.yaml", "values.yaml", "values.schema.json", "README.md.gotmpl"):
                if os.path.isfile(d + f) and len(body) + os.path.getsize(d + f) < MAX - 4096:
                    body += tars.member(name + "/" + f, read(d + f))
            if body:
                # as helm package writes it: a directory entry first, and one
                # file through a PAX path record
                seeds.append(tars.member(name + "/", b"", tarfile.DIRTYPE) + body + tars.end())
                seeds.append(tars.pax(tars.pax_record(b"path", name.encode() + b"/" + b"x" * 120 + b".yaml"))
                             + tars.member("placeholder", b"a: 1\n") + body + tars.end())
    elif target == "gotmpl":
        here = os.path.dirname(os.path.abspath(__file__))
        values = b"# -- a number\nreplicas: 1\nimage:\n  # -- the tag\n  tag: '1.0'\nlist: [a, b]\n"
        for f in sorted(glob.glob(os.path.join(here, "../gotmpl/*.json"))):
            for c in json.loads(read(f)):
                seeds.append(c["template"].encode() + SEP + values)
        for d in sorted(glob.glob(os.path.join(corpus, "charts/*/"))):
            t, v = os.path.join(d, "README.md.gotmpl"), os.path.join(d, "values.yaml")
            if os.path.isfile(t) and os.path.isfile(v):
                seeds.append((read(t) + SEP + read(v))[:MAX])
        # issue 36: the cases that hung or crashed (an alias bomb read
        # through .Files, backtracking globs, regexes, int overflow)
        bomb = "".join("%s: &%s [%s]\n" % (k, k, ",".join(["lol"] * 10 if k == "a" else ["*" + chr(ord(k) - 1)] * 10))
                       for k in "abcdefghij").encode()
        for use in (b"toJson $b", b"toYaml $b", b"toString $b", b"quote $b", b"join \",\" $b.j", b"sortAlpha $b.j",
                    b"uniq (list $b.j $b.j)", b"deepEqual $b.j $b.j", b"$b", b"printf \"%v\" $b",
                    b"html $b", b"js $b", b"urlquery $b", b"printf \"%x\" $b"):
            seeds.append(b'{{ $b := .Files.Get "files/data.yaml" | fromYaml }}{{ ' + use + b" | len }}"
                         + SEP + values + SEP + bomb)
        for t in (b'{{ (.Files.Glob "*a*a*a*a*a*b").AsConfig }}', b'{{ (.Files.Glob "' + b"**?" * 20 + b'Q").AsConfig }}',
                  b'{{ regexFindAll "x" (repeat 100000 "x") -1 | len }}', b'{{ regexSplit "" "abc" -1 }}',
                  b'{{ regexFindAll "(a|aa)*c|x" (repeat 3000 (printf "%sx" (repeat 22 "a"))) -1 | len }}',
                  b"{{ div -9223372036854775808 -1 }}{{ mod -9223372036854775808 -1 }}{{ add 9223372036854775807 1 }}",
                  b"{{ untilStep 1 2 9223372036854775807 }}{{ printf \"%*d\" -2147483648 1 }}",
                  b'{{ range .Values }}{{ .Key }} {{ toJson .Default }}{{ end }}{{ .Files.Lines "files/data.yaml" }}'):
            seeds.append(t + SEP + values + SEP + b"a" * 200)
        # issue 41: fromJson of a repeated text (70 bytes took 4.9 GB), alias
        # bombs reaching templates as the chart's own .Values, a long prefix
        # bound by `with`
        seeds.append(b'{{ printf "[%s0]" (repeat 20000000 "[],") | fromJson | len }}' + SEP + values)
        seeds.append(b'{{ printf "{%s\\"z\\":0}" (repeat 5000000 "\\"a\\":{},") | fromJson | toJson | len }}' + SEP + values)
        for t in (b"{{ toJson .Values | len }}", b"{{ toYaml .Values.j | len }}",
                  b"{{ range .Values }}{{ .Key }} {{ toJson .Default | len }}{{ end }}",
                  b"{{ range $k, $v := .Values.j }}{{ $k }}{{ toString $v | len }}{{ end }}",
                  b"{{ deepEqual .Values.i .Values.j }}{{ .Values | toPrettyJson | len }}"):
            seeds.append(t + SEP + bomb)
        prefix = b".".join(b"k%d" % i + b"x" * 200 for i in range(24))
        seeds.append(b"{{ with .Values." + prefix + b" }}" + b"".join(b"{{ .r%d }}" % i for i in range(200))
                     + b"{{ end }}" + SEP + values)
    elif target == "tmplrefs":
        # Helm template actions: values handed on whole, ranged over, read
        here = os.path.dirname(os.path.abspath(__file__))
        for f in sorted(glob.glob(os.path.join(here, "../gotmpl/*.json"))):
            for c in json.loads(read(f)):
                seeds.append(c["template"].encode())
        for t in (b"data:\n  c: |\n    {{- toYaml .Values.server.global | nindent 4 }}\n",
                  b"{{- with .Values.podAnnotations }}{{ toYaml . | nindent 4 }}{{- end }}",
                  b"{{- range $name, $r := .Values.route }}{{ if $r.enabled }}{{ $r.kind }}{{ end }}{{ end }}",
                  b'{{ include "x" (dict "value" .Values.a "context" $) }}{{ $v := .Values.b }}{{ tpl $v.c . }}',
                  b'{{ index .Values "a-b" "c" | toJson }}{{ dig "x" "y" "" .Values.d }}{{ hasKey .Values.e "f" }}',
                  b"{{/* comment }} */}}{{ .Values.a | sha256sum }}{{ else }}{{ end }}{{ block \"b\" .Values.g }}{{ end }}",
                  # the root context through variables, merges, a chain after a call (issue 39 section 3)
                  b"{{ $root := . }}{{ $ := . }}{{ range .Values.l }}{{ $r := $ }}{{ $r.Values.s | toJson }}{{ end }}"
                  b"{{ $root.Values.server.global | toYaml }}{{ toYaml (.Values.a).b }}",
                  b"{{ $m := merge (deepCopy .Values.a) .Values.b }}{{ mergeOverwrite (dict) .Values.c $m | toYaml }}"
                  b"{{ .Values.config.x }}{{ .Values.config | toYaml }}{{ tpl .Values.t . }}",
                  # issue 41 item 8: a long prefix bound by `with`, keys read below it
                  b"{{ with .Values." + b".".join(b"k%d" % i + b"x" * 200 for i in range(24)) + b" }}"
                  + b"".join(b"{{ .r%d }}" % i for i in range(200)) + b"{{ end }}"):
            seeds.append(t)
        # the places reader (src/k8s/places.c): the fixtures of tests/k8s-places,
        # each chart's files as the parts of one input
        for chart in sorted(glob.glob(os.path.join(here, "../k8s-places/*/templates"))):
            files = sorted(glob.glob(os.path.join(chart, "**/*"), recursive=True))
            files = [f for f in files if os.path.isfile(f)][:4]
            if files:
                seeds.append(SEP.join(read(f) for f in files))
    elif target == "lsp":
        # client sessions: the lifecycle, edits in each encoding, requests,
        # and hostile framing (src/lsp/, docs/lsp.md)
        def fr(o):
            b = o if isinstance(o, bytes) else json.dumps(o).encode()
            return b"Content-Length: %d\r\n\r\n" % len(b) + b
        uri = "file:///nonexistent/chart/ci/x.yaml"
        text = "name: \u65e5\u672c\U0001F600\nimage:\n  tag: 1\nlist:\n  - a\n"
        for enc in ("utf-8", "utf-16", "utf-32"):
            s = [fr({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                     "params": {"capabilities": {"general": {"positionEncodings": [enc]}}}}),
                 fr({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
                 fr({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                     "uri": uri, "languageId": "yaml", "version": 1, "text": text}}}),
                 fr({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                     "textDocument": {"uri": uri, "version": 2}, "contentChanges": [
                         {"range": {"start": {"line": 0, "character": 7}, "end": {"line": 2, "character": 3}},
                          "text": "\U0001F389\n  x"}]}}),
                 fr({"jsonrpc": "2.0", "id": 2, "method": "textDocument/documentSymbol",
                     "params": {"textDocument": {"uri": uri}}}),
                 fr({"jsonrpc": "2.0", "id": 3, "method": "textDocument/hover",
                     "params": {"textDocument": {"uri": uri}, "position": {"line": 1, "character": 2}}}),
                 fr({"jsonrpc": "2.0", "id": 4, "method": "textDocument/completion",
                     "params": {"textDocument": {"uri": uri}, "position": {"line": 2, "character": 2}}}),
                 fr({"jsonrpc": "2.0", "id": 5, "method": "textDocument/codeAction",
                     "params": {"textDocument": {"uri": uri}, "context": {"diagnostics": [{"code": "unknownKey",
                         "message": "a: did you mean `b.c`?", "range": {}}]}}}),
                 fr({"jsonrpc": "2.0", "method": "textDocument/didClose", "params": {"textDocument": {"uri": uri}}}),
                 fr({"jsonrpc": "2.0", "id": 6, "method": "shutdown"}),
                 fr({"jsonrpc": "2.0", "method": "exit"})]
            seeds.append(b"".join(s))
            seeds.append(b"".join(s[:3]) + b"Content-Length: 99999999\r\n\r\n" + b"x" * 100)
        # settings, $progress, references, definition, the modelines, the
        # deprecated and required fixes, didChangeConfiguration
        y = "file:///nonexistent/deploy/y.yaml"
        seeds.append(b"".join([
            fr({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "capabilities": {"window": {"workDoneProgress": True}}, "rootUri": "file:///nonexistent",
                "initializationOptions": {"schemadoc": {"charts": {"deploy/**/*.yaml": "chart", "/x/?*": "/y"}}}}}),
            fr({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
            fr({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                "uri": uri, "languageId": "yaml", "version": 1, "text": text}}}),
            fr({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                "uri": y, "languageId": "yaml", "version": 1,
                "text": "# yaml-language-server: $schema=../s.json\na:\n  b: 1\n"}}}),
            fr({"jsonrpc": "2.0", "id": 2, "method": "textDocument/references", "params": {
                "textDocument": {"uri": uri}, "position": {"line": 2, "character": 3},
                "context": {"includeDeclaration": True}}}),
            fr({"jsonrpc": "2.0", "id": 3, "method": "textDocument/definition", "params": {
                "textDocument": {"uri": uri}, "position": {"line": 2, "character": 3}}}),
            fr({"jsonrpc": "2.0", "id": 4, "method": "textDocument/codeAction", "params": {
                "textDocument": {"uri": y}, "range": {"start": {"line": 0, "character": 0},
                                                      "end": {"line": 9, "character": 0}},
                "context": {"diagnostics": [
                    {"code": "deprecated", "message": "a.b: `b` is deprecated: use `a.c` instead",
                     "range": {"start": {"line": 2, "character": 2}, "end": {"line": 2, "character": 3}},
                     "data": {"path": "/a/b", "replacement": "c"}},
                    {"code": "required", "message": "a: missing required key `z`",
                     "range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 1}},
                     "data": {"path": "/a"}}]}}}),
            fr({"jsonrpc": "2.0", "method": "workspace/didChangeConfiguration", "params": {
                "settings": {"schemadoc": {"charts": {"**": "chart"}}}}}),
            fr({"jsonrpc": "2.0", "method": "workspace/didChangeConfiguration", "params": {"settings": None}}),
            fr({"jsonrpc": "2.0", "id": 5, "method": "shutdown"}),
            fr({"jsonrpc": "2.0", "method": "exit"})]))
        seeds.append(b"Content-Length: 12x\r\n\r\n" + fr(b"[1,2]") + fr(b"{\"jsonrpc\": \"2.0\", \"id\": ") +
                     b"garbage\r\n\r\n" + b"Content-Type: x\r\n\r\n{}")
    else:
        sys.exit("unknown target " + target)
    for s in seeds:
        with open(os.path.join(out, hashlib.sha1(s).hexdigest()), "wb") as fh:
            fh.write(s)
    print(f"{target}: {len(seeds)} seeds")


if __name__ == "__main__":
    main()
