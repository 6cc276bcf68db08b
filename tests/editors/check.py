#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# tests/editors/check.py - the helpers of tests/suite-lsp-editors.sh:
#   probe SD                 is `SD lsp` a language server? Sends initialize
#                            (Content-Length framing) and waits at most 10 s
#                            for its answer; prints the capabilities the
#                            editors' sessions use that it lacks; exit 1 and
#                            "schemadoc lsp: not available: why" when not.
#   fixture CORPUS_CHART DIR copy the chart to DIR/chart and write the
#                            session's values file (a real ci/ file with a
#                            spoiled key and a line to complete); prints the
#                            session's environment (KEY=VALUE lines).
#   check NAME RESULT SD DIR compare one editor's RESULT (JSON) with
#                            `SD validate` on the same files; prints "ok: ..."
#                            or "FAIL: ..." per check.
#   snippet DOC HEADING LANG print the first LANG code block after the
#                            Markdown heading HEADING of DOC (a setup of
#                            docs/editors.md, to run as the user would).
#   doccheck NAME RESULT SD DIR  a setup's RESULT: the server started for
#                            the values file and its diagnostics reached
#                            the editor at validate's places.
import json
import os
import re
import select
import shutil
import subprocess
import sys
import time

CI_FILE = 'ci/ha-static-values.yaml'      # argo-cd's, as the corpus has it
VALUES = 'ci/editor-values.yaml'
# (from, to) replacements on CI_FILE: a blank line inside `crds:` indented
# for completion, and the typo `replicaz` for server.replicas, written as a
# flow map after text outside the BMP, so that its column differs in bytes
# (Neovim's own), UTF-16 code units (the protocol's default) and code
# points (validate's, and Emacs's), as do the quick fix's edit range
SPOIL = [('crds:\n  keep: false\n\n', 'crds:\n  keep: false\n  \n'),
         ('server:\n  replicas: 2\n', 'server: {extraArgs: ["--x=日本🚀"], replicaz: 2}\n')]
HOVER = (2, 3)          # on `keep` under crds (0-based line, column)
HOVER_KEY = ('crds', 'keep')
COMPLETE = (3, 2)       # the indented blank line inside crds
LABEL = 'install'       # crds.install: allowed there, not yet present
PRESENT = 'keep'        # present already: must not be offered
SPOILED = 7             # the line of `replicaz`
FIXED = 'server: {extraArgs: ["--x=日本🚀"], replicas: 2}'


def frame(obj):
    b = json.dumps(obj).encode()
    return b'Content-Length: %d\r\n\r\n' % len(b) + b


def probe(sd):
    try:
        p = subprocess.Popen([sd, 'lsp'], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
    except OSError as e:
        print(f'schemadoc lsp: not available: {e}')
        return 1
    p.stdin.write(frame({'jsonrpc': '2.0', 'id': 1, 'method': 'initialize',
                         'params': {'processId': None, 'rootUri': None, 'capabilities': {}}}))
    p.stdin.flush()
    buf, deadline, answer = b'', time.time() + 10, None
    while time.time() < deadline and answer is None:
        r, _, _ = select.select([p.stdout], [], [], max(0.0, deadline - time.time()))
        if not r:
            break
        chunk = os.read(p.stdout.fileno(), 65536)
        if not chunk:
            break
        buf += chunk
        m = re.match(rb'Content-Length: *(\d+)\r\n(?:[^\r\n]*\r\n)*\r\n', buf, re.I)
        if m and len(buf) >= m.end() + int(m.group(1)):
            try:
                answer = json.loads(buf[m.end():m.end() + int(m.group(1))])
            except ValueError:
                answer = {}
    try:
        p.stdin.write(frame({'jsonrpc': '2.0', 'method': 'exit'}))
        p.stdin.close()
    except OSError:
        pass
    try:
        p.wait(5)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    err = p.stderr.read().decode(errors='replace').strip().splitlines()
    caps = (answer or {}).get('result', {}).get('capabilities') if isinstance(answer, dict) else None
    if not isinstance(caps, dict):
        why = err[0] if err else (f'no answer to initialize (status {p.returncode})' if answer is None
                                  else 'the answer to initialize has no result.capabilities')
        print(f'schemadoc lsp: not available: {why}')
        return 1
    lacks = [c for c in ('hoverProvider', 'completionProvider', 'codeActionProvider') if caps.get(c) in (None, False)]
    if lacks:
        print('note: the server does not announce ' + ', '.join(lacks))
    return 0


def fixture(chart, d):
    dst = os.path.join(d, 'chart')
    shutil.copytree(chart, dst)
    with open(os.path.join(dst, CI_FILE), encoding='utf-8') as f:
        text = f.read()
    for a, b in SPOIL:
        if a not in text:
            sys.exit(f'fixture: {CI_FILE} of {chart} no longer has {a!r}')
        text = text.replace(a, b, 1)
    if 'replicaz: 2' not in text.split('\n')[SPOILED]:
        sys.exit(f'fixture: line {SPOILED + 1} is not the spoiled key')
    with open(os.path.join(dst, VALUES), 'w', encoding='utf-8') as f:
        f.write(text)
    print(f'ED_FILE={os.path.join(dst, VALUES)}')
    print(f'ED_HOVER={HOVER[0]}:{HOVER[1]}')
    print(f'ED_COMPLETE={COMPLETE[0]}:{COMPLETE[1]}')
    print(f'ED_LABEL={LABEL}')
    print(f'ED_SPOILED={SPOILED}')
    return 0


def validate(sd, chart, path):
    """`SD validate CHART PATH --output json`: (status, findings about PATH)."""
    p = subprocess.run([sd, 'validate', chart, path, '--output', 'json'], capture_output=True, text=True)
    try:
        res = json.loads(p.stdout)
    except ValueError:
        return p.returncode, None
    found = []
    for r in res:
        for kind in ('errors', 'warnings'):
            for e in r.get(kind, []):
                if e.get('file') == path:
                    found.append(e)
    return p.returncode, found


def description(values, path):
    """The `# --` (or plain `#`) comment right above the key PATH in values.yaml."""
    lines = open(values, encoding='utf-8').read().split('\n')
    i, indent = 0, 0
    for key in path:
        pat = re.compile(r'^' + ' ' * indent + re.escape(key) + r':')
        while i < len(lines) and not pat.match(lines[i]):
            i += 1
        if i == len(lines):
            return None
        found, indent = i, indent + 2
        i += 1
    above = lines[found - 1].strip()
    return re.sub(r'^#+\s*(--\s*)?', '', above) if above.startswith('#') else None


def check(name, result, sd, d):
    chart = os.path.join(d, 'chart')
    values = os.path.join(chart, VALUES)
    passed = failed = 0

    def verdict(cond, what, detail=''):
        nonlocal passed, failed
        if cond:
            passed += 1
            print(f'ok: {name}: {what}')
        else:
            failed += 1
            print(f'FAIL: {name}: {what}' + (f': {detail}' if detail else ''))

    try:
        r = json.load(open(result, encoding='utf-8'))
    except (OSError, ValueError) as e:
        verdict(False, 'the session wrote its result', str(e))
        return passed, failed
    verdict(not r.get('errors'), 'the session ran every step',
            '; '.join(r.get('errors') or []) + ' (done: ' + ', '.join(r.get('steps') or []) + ')')

    # diagnostics: exactly validate's findings on the same file, at the same places
    st, want = validate(sd, chart, values)
    if want is None:
        verdict(False, 'validate runs on the session file', f'status {st}')
        want = []
    got = r.get('diagnostics') or []
    exp = sorted((e['line'] - 1, e['column'] - 1) for e in want)
    have = sorted((g['line'], g['col']) for g in got)
    verdict(exp == have and len(want) > 0, 'diagnostics at validate\'s lines and columns',
            f'validate (0-based) {exp}, editor {have}')
    for e in want:
        m = [g for g in got if (g['line'], g['col']) == (e['line'] - 1, e['column'] - 1)]
        verdict(any(e['message'] in (g.get('message') or '') for g in m),
                f'the message at {e["line"]}:{e["column"]} is validate\'s',
                f'validate: {e["message"]!r}; editor: {[g.get("message") for g in m]!r}')

    # hover: the key's description from values.yaml
    desc = description(os.path.join(chart, 'values.yaml'), HOVER_KEY)
    verdict(bool(desc) and desc in (r.get('hover') or ''), 'hover shows the description from values.yaml',
            f'want {desc!r} in {r.get("hover")!r}')

    # completion: the key not yet present is offered, the present one is not
    labels = r.get('completion_labels') or []
    verdict(LABEL in labels and PRESENT not in labels,
            f'completion offers `{LABEL}`, not the present `{PRESENT}`', f'labels {labels}')

    # the buffer after completion and quick fix
    if 'text' not in r and 'lines' not in r:
        verdict(False, 'the editor gave its buffer back')
        return passed, failed
    text = r['text'] if 'text' in r else '\n'.join(r['lines']) + '\n'
    lines = text.split('\n') + [''] * (SPOILED + 1)
    after = os.path.join(d, f'after-{name}.yaml')
    with open(after, 'w', encoding='utf-8') as f:
        f.write(text)
    verdict(lines[COMPLETE[0]].startswith(' ' * COMPLETE[1] + LABEL + ':'),
            'the accepted completion is in the buffer', repr(lines[COMPLETE[0]]))
    verdict(lines[SPOILED] == FIXED, 'the quick fix is in the buffer', repr(lines[SPOILED]))
    st, left = validate(sd, chart, after)
    verdict(st == 0 and left == [], 'the buffer validates with `schemadoc validate`',
            f'status {st}, findings {[e.get("message") for e in left or []]}')
    verdict(r.get('final_diagnostics') == [], 'the editor\'s diagnostics list is empty after the fix',
            str(r.get('final_diagnostics')))
    return passed, failed


def snippet(doc, heading, lang):
    text = open(doc, encoding='utf-8').read()
    at = re.search(r'^#+ ' + re.escape(heading) + r'\s*$', text, re.M)
    m = at and re.compile(r'^```' + re.escape(lang) + r'\n(.*?)^```', re.M | re.S).search(text, at.end())
    if not m:
        sys.exit(f'snippet: no {lang} block after "{heading}" in {doc}')
    sys.stdout.write(m.group(1))
    return 0


def doccheck(name, result, sd, d):
    chart = os.path.join(d, 'chart')
    try:
        r = json.load(open(result, encoding='utf-8'))
    except (OSError, ValueError) as e:
        print(f'FAIL: {name}: the editor wrote no result: {e}')
        return 0, 1
    _, want = validate(sd, chart, os.path.join(chart, VALUES))
    exp = sorted((e['line'] - 1, e['column'] - 1) for e in want or [])
    have = sorted((g['line'], g['col']) for g in r.get('diagnostics', []))
    if exp and exp == have:
        print(f'ok: {name}: the server started and its diagnostics reached the editor')
        return 1, 0
    print(f'FAIL: {name}: diagnostics at (0-based) {have}, validate says {exp} ({r})')
    return 0, 1


def main():
    a = sys.argv[1:]
    if a[:1] == ['probe'] and len(a) == 2:
        return probe(a[1])
    if a[:1] == ['fixture'] and len(a) == 3:
        return fixture(a[1], a[2])
    if a[:1] == ['snippet'] and len(a) == 4:
        return snippet(*a[1:])
    if a[:1] in (['check'], ['doccheck']) and len(a) == 5:
        p, f = (check if a[0] == 'check' else doccheck)(*a[1:])
        print(f'result: {p} {f}')
        return 0
    sys.exit('usage: check.py probe SD | fixture CHART DIR | check|doccheck NAME RESULT SD DIR\n'
             '       | snippet DOC HEADING LANG')


if __name__ == '__main__':
    sys.exit(main())
