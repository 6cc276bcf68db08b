#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/oom/run.py - allocation-failure torture (make check-oom).

For each representative command, count its allocations (SD_OOM_COUNT),
then run it again failing allocation N for every N = 1..total (a stride
when the total is over OOM_MAX_RUNS, default 4000). Each run must end with
exit 2 and "out of memory" on stderr, no sanitizer report (leaks included)
and no output file; or, when the failure was recovered from, exit as the
clean run did with the same output. Prints the allocation points
exercised and "N passed, N failed".

Usage: run.py OOM_BINARY [COMMAND-NAME...]"""
import concurrent.futures as cf
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAX_RUNS = int(os.environ.get("OOM_MAX_RUNS", "4000"))
JOBS = int(os.environ.get("OOM_JOBS", "2"))

BAD_VALUES = "replicaCount: many\nimage:\n  tag: [1]\n"
# lists of several items: their schemas are merged (gen_native.c merge_items)
TAPE_VALUES = ("base: &b {port: 80, name: 'x''y'}\nservice:\n  <<: *b\n  type: \"Cluster\\tIP\"\n"
               "replicaCount: many\nimage: {tag: [1]}\nlist: [*b, *b]\nnote: |\n  block\n")
MADE_EXTRA = "# -- sidecars\nextraSidecars:\n  - name: a\n    port: 1\n  - name: b\n    image: x\n  - [1, two]\n"

# name: (argv after the binary, output file or None, expected clean status)
COMMANDS = {
    "load-chart": (["samples/podinfo", "--format", "json", "-o", "{out}"], "{out}", 0),
    "render-html": (["samples/podinfo", "--format", "html", "-o", "{out}"], "{out}", 0),
    "render-md": (["samples/podinfo", "--format", "md", "-o", "{out}"], "{out}", 0),
    "validate": (["validate", "samples/podinfo", "{tmp}/bad.yaml", "--output", "json"], None, 1),
    # a YAML values file against a plain schema: straight into a tape
    # (load/load_tape.c: anchors, merge keys, strings left in the text or
    # copied); an allocation failed there leaves the file to the loader
    "validate-yaml-tape": (["validate", "samples/podinfo/values.schema.json", "{tmp}/tape.yaml", "--output", "json"],
                           None, 1),
    # a chart with templates/: the lint's reading of them (tmplrefs.c) and Helm's merge
    "validate-templates": (["validate", "tests/golden/validate-lint-template-roots/chart",
                            "tests/golden/validate-lint-template-roots/ci.yaml",
                            "tests/golden/validate-lint-template-roots/typo.yaml", "--output", "json"], None, 0),
    "rules": (["rules", "samples/podinfo", "-o", "{out}"], "{out}", 0),
    # the Kubernetes types (src/k8s/: inflating the embedded definitions, the layer)
    "validate-k8s": (["validate", "tests/k8s/spoils", "tests/k8s/spoils/spoiled.yaml",
                      "--output", "json"], None, 1),
    # ... and the made schema's Kubernetes $defs (k8s_schema.c)
    "schema-k8s": (["schema", "tests/k8s/spoils", "-o", "{out}"], "{out}", 0),
    # the made schema (src/schemagen/gen*.c): podinfo ships a values.schema.json,
    # so no command above ever made one, and merge_items ran on after a
    # failed allocation unseen (issue 41: SIGSEGV under ulimit -v)
    "schema-made": (["schema", "{tmp}/made", "-o", "{out}"], "{out}", 0),
    # the render over a made schema (the model indexes its nodes, md_cells
    # sets static keys): issue 41 found use-after-frees there
    "render-md-made": (["{tmp}/made", "--format", "md", "-o", "{out}"], "{out}", 0),
    # the language server over a scripted session (lsp_session() below):
    # open, edit, hover, complete, quick fix, symbols, shutdown
    "lsp-session": (["lsp", "--stdio"], None, 0),
    # the same over a chart with templates/ and files outside it
    # (lsp_features() below): settings, $progress, references, definition,
    # a $schema modeline, the required-key fix, didChangeConfiguration
    "lsp-features": (["lsp"], None, 0),
}
STDIN = {"lsp-session": "lsp.in", "lsp-features": "lsp-features.in"}


def lsp_features(tmp):
    """A chart of samples/podinfo with a template, a schema and values
    files outside it, and the bytes of a session over them."""
    import json
    chart = os.path.join(tmp, "refs")
    os.makedirs(os.path.join(chart, "templates"))
    for name in ("Chart.yaml", "values.yaml", "values.schema.json"):
        shutil.copy(os.path.join(ROOT, "samples/podinfo", name), os.path.join(chart, name))
    with open(os.path.join(chart, "templates", "deploy.yaml"), "w") as f:
        f.write("image: {{ .Values.image.repository }}:{{ .Values.image.tag }}\n"
                "{{- with .Values.image }}\npull: {{ .tag }}\n{{- end }}\n"
                "res: {{ toYaml .Values.resources | nindent 2 }}\n")
    os.makedirs(os.path.join(tmp, "schemas"))
    with open(os.path.join(tmp, "schemas", "s.json"), "w") as f:
        json.dump({"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}, f)
    a = "file://" + os.path.join(chart, "ci-a.yaml")
    x = "file://" + os.path.join(tmp, "deploy", "x.yaml")
    y = "file://" + os.path.join(tmp, "deploy", "y.yaml")
    os.makedirs(os.path.join(tmp, "deploy"))
    pos = {"line": 1, "character": 3}
    msgs = [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "capabilities": {"window": {"workDoneProgress": True}}, "rootUri": "file://" + tmp,
                "initializationOptions": {"schemadoc": {"charts": {"deploy/x*.yaml": "refs"}}}}},
            {"jsonrpc": "2.0", "method": "initialized", "params": {}},
            {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                "uri": a, "languageId": "yaml", "version": 1, "text": "image:\n  tag: x\nresources: {}\n"}}},
            {"jsonrpc": "2.0", "id": 2, "method": "textDocument/references", "params": {
                "textDocument": {"uri": a}, "position": pos, "context": {"includeDeclaration": True}}},
            {"jsonrpc": "2.0", "id": 3, "method": "textDocument/definition", "params": {
                "textDocument": {"uri": a}, "position": pos}},
            {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                "uri": x, "languageId": "yaml", "version": 1, "text": "replicaCount: many\n"}}},
            {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                "uri": y, "languageId": "yaml", "version": 1,
                "text": "# yaml-language-server: $schema=../schemas/s.json\nother:\n  a: 1\n"}}},
            {"jsonrpc": "2.0", "id": 4, "method": "textDocument/codeAction", "params": {
                "textDocument": {"uri": y}, "range": {"start": {"line": 0, "character": 0},
                "end": {"line": 3, "character": 0}}, "context": {"diagnostics": []}}},
            {"jsonrpc": "2.0", "method": "workspace/didChangeConfiguration", "params": {
                "settings": {"schemadoc": {"charts": {}}}}},
            {"jsonrpc": "2.0", "id": 5, "method": "shutdown"},
            {"jsonrpc": "2.0", "method": "exit"}]
    with open(os.path.join(tmp, "lsp-features.in"), "wb") as f:
        for m in msgs:
            b = json.dumps(m).encode()
            f.write(b"Content-Length: %d\r\n\r\n" % len(b) + b)


def lsp_session(tmp):
    """The bytes a client sends: a values file of samples/podinfo edited,
    each feature asked once. (The server reads messages with load/json.c,
    not jansson's json_loadb: jansson's lexer asserts, load.c
    lex_scan_string, when an allocation fails while it reads a string.)"""
    import json
    uri = "file://" + os.path.join(ROOT, "samples/podinfo/ci-oom.yaml")
    text = "{replicaCount: many, image: {tagg: 1},\n ingress: {enabled: \"yes\"}}\n"
    msgs = [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}},
            {"jsonrpc": "2.0", "method": "initialized", "params": {}},
            {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                "uri": uri, "languageId": "yaml", "version": 1, "text": text}}},
            {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                "textDocument": {"uri": uri, "version": 2}, "contentChanges": [
                    {"range": {"start": {"line": 0, "character": 15}, "end": {"line": 0, "character": 19}},
                     "text": "\u65e5\U0001F600"}]}},
            {"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover",
             "params": {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 21}}},
            {"jsonrpc": "2.0", "id": 3, "method": "textDocument/completion",
             "params": {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}},
            {"jsonrpc": "2.0", "id": 4, "method": "textDocument/codeAction",
             "params": {"textDocument": {"uri": uri}, "range": {"start": {"line": 0, "character": 0},
                        "end": {"line": 0, "character": 60}}, "context": {"diagnostics": []}}},
            {"jsonrpc": "2.0", "id": 5, "method": "textDocument/documentSymbol",
             "params": {"textDocument": {"uri": uri}}},
            {"jsonrpc": "2.0", "id": 6, "method": "shutdown"},
            {"jsonrpc": "2.0", "method": "exit"}]
    with open(os.path.join(tmp, "lsp.in"), "wb") as f:
        for m in msgs:
            b = json.dumps(m).encode()
            f.write(b"Content-Length: %d\r\n\r\n" % len(b) + b)


def run(binary, argv, tmp, n, tag):
    out = os.path.join(tmp, f"out-{tag}-{n}")
    args = [a.format(out=out, tmp=tmp) for a in argv]
    env = dict(os.environ, SD_OOM_FAIL_AT=str(n), NO_COLOR="1",
               ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:allocator_may_return_null=1",
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")
    if n == 0:
        env["SD_OOM_COUNT"] = os.path.join(tmp, f"count-{tag}")
    stdin = open(os.path.join(tmp, STDIN[tag]), "rb") if tag in STDIN else subprocess.DEVNULL
    p = subprocess.run([binary] + args, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       stdin=stdin, timeout=120)
    if tag in STDIN:
        stdin.close()
    data = None
    if os.path.exists(out):
        with open(out, "rb") as f:
            data = f.read()
        os.unlink(out)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace"), data


def main():
    binary = os.path.abspath(sys.argv[1])
    names = sys.argv[2:] or list(COMMANDS)
    tmp = tempfile.mkdtemp(prefix="sd-oom-")
    passed = failed = points = 0
    try:
        with open(os.path.join(tmp, "bad.yaml"), "w") as f:
            f.write(BAD_VALUES)
        with open(os.path.join(tmp, "tape.yaml"), "w") as f:
            f.write(TAPE_VALUES)
        os.makedirs(os.path.join(tmp, "made"))
        for name in ("Chart.yaml", "values.yaml"):   # a chart without a schema
            shutil.copy(os.path.join(ROOT, "samples/podinfo", name), os.path.join(tmp, "made", name))
        with open(os.path.join(tmp, "made", "values.yaml"), "a") as f:
            f.write(MADE_EXTRA)
        lsp_session(tmp)
        lsp_features(tmp)
        for name in names:
            argv, outf, want = COMMANDS[name]
            rc, sout, serr, data = run(binary, argv, tmp, 0, name)
            if rc != want:
                print(f"FAIL: {name}: the clean run exited {rc}, expected {want}: {serr[-500:]}")
                failed += 1
                continue
            with open(os.path.join(tmp, f"count-{name}")) as f:
                total = int(f.read())
            stride = max(1, total // MAX_RUNS)
            ns = list(range(1, total + 1, stride))
            bad = []
            recovered = 0

            def one(n):
                return n, run(binary, argv, tmp, n, name)

            with cf.ThreadPoolExecutor(JOBS) as ex:
                for n, (frc, fout, ferr, fdata) in ex.map(one, ns):
                    why = None
                    if "Sanitizer" in ferr or "runtime error" in ferr:
                        why = "sanitizer report: " + ferr[-1200:]
                    elif frc == 2:
                        if "out of memory" not in ferr:
                            why = "exit 2 without 'out of memory': " + ferr[-300:]
                        elif fdata is not None:
                            why = "left a partial output file"
                    elif frc == want and fdata == data and (outf or fout == sout):
                        recovered += 1
                    else:
                        why = f"exit {frc} ({'same' if fdata == data else 'different'} output): {ferr[-300:]}"
                    if why:
                        bad.append((n, why))
            points += len(ns)
            if bad:
                failed += 1
                print(f"FAIL: {name}: {len(bad)} of {len(ns)} failing points misbehave; first ones:")
                for n, why in bad[:5]:
                    print(f"    allocation {n}: {why}")
                if os.environ.get("OOM_LOG"):
                    with open(os.environ["OOM_LOG"], "a") as f:
                        for n, why in bad:
                            f.write(f"=== {name} {n}\n{why}\n")
            else:
                passed += 1
                print(f"ok: {name}: {total} allocations, {len(ns)} failed in turn (stride {stride}); "
                      f"{len(ns) - recovered} ended with 'out of memory', {recovered} recovered")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"figure: check-oom exercised {points} allocation points")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
