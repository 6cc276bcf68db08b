#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/pathological/run.py - hostile inputs with a time and memory limit
per case (cmark's pathological tests are the model).

Every case is generated here into a temporary directory (nothing big is
committed), then run with the release binary under a CPU-time and wall
limit (2 s) and an address-space limit (512 MiB), and once more with the
sanitizer build (no memory limit, a looser time limit) to catch memory
errors. A case passes when
  - the exit status is one it allows (2 for refused input, 0/1 for a
    correct verdict),
  - it ended within the limits,
  - stderr names the problem: a regular expression, usually FILE:LINE:COL
    or FILE: for a file-level refusal,
  - a refused run left no output file (-o), and a check on stdout/output
    holds where the case has one.
Prints one line per failure, the worst time and memory, and
"N passed, N failed" last.

Usage: run.py SD_REL SD_ASAN [CASE-SUBSTRING...]
"""
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tars  # noqa: E402  (hostile tar streams, shared with tests/fuzz/seeds.py)

TIME_LIMIT = 2.0      # CPU seconds (user + sys) per case
WALL_LIMIT = 6.0      # a hang guard: the machine may be shared, so wall time
                      # is reported but the budget is CPU time
MEM_LIMIT = 512 << 20
# UBSan's report ("src/x.c:12:5: runtime error: ..."), not a template's own
# message quoting Go ("error calling div: runtime error: integer divide by zero")
UBSAN = re.compile(r"\.[ch]:\d+:\d+: runtime error")
ASAN_TIME = 30.0

CHART = "apiVersion: v2\nname: c\nversion: 1.0.0\n"


def w(path, data, mode="w"):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, mode if isinstance(data, str) else "wb") as f:
        f.write(data)


def chart(d, values=None, schema=None, chart_yaml=CHART):
    w(f"{d}/c/Chart.yaml", chart_yaml)
    if values is not None:
        w(f"{d}/c/values.yaml", values)
    if schema is not None:
        w(f"{d}/c/values.schema.json", schema)


CASES = []


def case(name, argv, rc, err=None, out_file=None, check=None, asan=True, tmpdir=False, env=None, bound=False,
         max_err=None, secret=None, bound_m=None, bound_c=None):
    """Register a case; the decorated function writes its files into dir.
    tmpdir: the run gets a $TMPDIR of its own that must be empty after it.
    env: more environment. bound: the address-space limit is BOUND_M x the
    case's input bytes + BOUND_C instead of MEM_LIMIT (bound_m, bound_c:
    a tighter M and C of the case's own). max_err: stderr may
    be at most this many bytes. secret: a text planted outside the chart
    that must appear in no output (stdout, stderr, an out.* file), whatever
    the exit status."""
    def deco(fn):
        CASES.append(dict(name=name, setup=fn, argv=argv, rc=rc, err=err, out_file=out_file, check=check,
                          asan=asan, tmpdir=tmpdir, env=env, bound=bound, max_err=max_err, secret=secret,
                          bound_m=bound_m, bound_c=bound_c))
        return fn
    return deco


RENDER = ["c", "--format", "md", "-o", "out.md"]
RENDER_HTML = ["c", "--format", "html", "-o", "out.html"]
REFUSED = dict(rc={2}, out_file="out.md")

# ---- files that are not regular files ------------------------------------


@case("fifo-values", RENDER, err=r"c/values\.yaml: error: not a regular file", **REFUSED)
def _(d):
    chart(d)
    os.mkfifo(f"{d}/c/values.yaml")


@case("fifo-schema", RENDER, err=r"c/values\.schema\.json: error: not a regular file", **REFUSED)
def _(d):
    chart(d, "a: 1\n")
    os.mkfifo(f"{d}/c/values.schema.json")


@case("fifo-validate-values", ["validate", "c", "v.yaml"], {2}, err=r"v\.yaml: error: not a regular file")
def _(d):
    chart(d, "a: 1\n")
    os.mkfifo(f"{d}/v.yaml")


@case("fifo-chart-yaml", RENDER, err=r"c/Chart\.yaml: error: not a regular file", **REFUSED)
def _(d):
    os.makedirs(f"{d}/c")
    os.mkfifo(f"{d}/c/Chart.yaml")


@case("fifo-schema-file", ["s.json", "--format", "md", "-o", "out.md"], err=r"s\.json: error: not a regular file", **REFUSED)
def _(d):
    os.mkfifo(f"{d}/s.json")


@case("fifo-ref-target", RENDER, err=r"b\.json.*not a regular file", **REFUSED)
def _(d):
    chart(d, "a: 1\n", '{"properties": {"a": {"$ref": "b.json"}}}')
    os.mkfifo(f"{d}/c/b.json")


@case("fifo-template", ["c", "--format", "md", "--template", "t.mustache", "-o", "out.md"],
      err=r"t\.mustache: error: not a regular file", **REFUSED)
def _(d):
    chart(d, "a: 1\n")
    os.mkfifo(f"{d}/t.mustache")


@case("fifo-partial", ["template", "t.mustache", "--data", "d.json", "--partials", "p", "-o", "out.md"],
      err=r"t\.mustache:1:1: error: cannot read partial 'p/x\.mustache': not a regular file", **REFUSED)
def _(d):
    w(f"{d}/t.mustache", "{{>x}}")
    w(f"{d}/d.json", "{}")
    os.makedirs(f"{d}/p")
    os.mkfifo(f"{d}/p/x.mustache")


@case("fifo-readme-gotmpl", ["c", "--readme", "c/README.md"], {2},
      err=r"c/README\.md\.gotmpl: error: not a regular file")
def _(d):
    chart(d, "a: 1\n")
    os.mkfifo(f"{d}/c/README.md.gotmpl")


@case("symlink-self-values", RENDER, err=r"c/values\.yaml: error: .*symbolic link loop", **REFUSED)
def _(d):
    chart(d)
    os.symlink("values.yaml", f"{d}/c/values.yaml")


@case("symlink-mutual-schema", RENDER, err=r"c/values\.schema\.json: error: .*symbolic link loop", **REFUSED)
def _(d):
    chart(d, "a: 1\n")
    os.symlink("b", f"{d}/c/values.schema.json")
    os.symlink("values.schema.json", f"{d}/c/b")


@case("symlink-dev-zero", RENDER, err=r"c/values\.yaml: error: refusing the values file: it leads outside the chart "
      r"directory 'c' through a symbolic link \(to '/dev/zero'\)", **REFUSED)
def _(d):
    chart(d)
    os.symlink("/dev/zero", f"{d}/c/values.yaml")


@case("device-values-validate", ["validate", "c", "/dev/zero"], {2}, err=r"/dev/zero: error: not a regular file")
def _(d):
    chart(d, "a: 1\n")


@case("dir-values", RENDER, err=r"c/values\.yaml: error: not a regular file", **REFUSED)
def _(d):
    chart(d)
    os.makedirs(f"{d}/c/values.yaml")


@case("dangling-schema", RENDER, err=r"c/values\.schema\.json: error: cannot open file", **REFUSED)
def _(d):
    chart(d, "a: 1\n")
    os.symlink("nowhere.json", f"{d}/c/values.schema.json")


# ---- chart files and annotation $refs leading out of the chart (issue 41) ----

SECRET = "token: SECRET-TOKEN-41\n"
OUT_SECRET = dict(secret="SECRET-TOKEN-41")


def leaked(d, secret, out):
    """Whether `secret` is in `out` (bytes) or in a file out.* in d."""
    return secret.encode() in out or any(
        secret in open(os.path.join(d, f), errors="replace").read()
        for f in os.listdir(d) if f.startswith("out.") and os.path.isfile(os.path.join(d, f)))


@case("symlink-values-out", RENDER, err=r"c/values\.yaml: error: refusing the values file: it leads outside the "
      r"chart directory 'c' through a symbolic link", **OUT_SECRET, **REFUSED)
def _(d):
    chart(d)
    w(f"{d}/secret.yaml", SECRET)
    os.symlink("../secret.yaml", f"{d}/c/values.yaml")


@case("symlink-ci-out", ["schema", "c", "--check"], {2}, **OUT_SECRET,
      err=r"c/ci/x\.yaml: error: refusing the ci/ values file: it leads outside the chart directory 'c'")
def _(d):
    chart(d, "a: 1\n")
    w(f"{d}/secret.yaml", SECRET)
    os.makedirs(f"{d}/c/ci")
    os.symlink("../../secret.yaml", f"{d}/c/ci/x.yaml")


@case("atschema-ref-out", ["schema", "c", "--check"], {2}, **OUT_SECRET,
      err=r"c/values\.yaml:1:1: error: \$ref '\.\./secret\.yaml': 'secret\.yaml' is outside the chart directory 'c'")
def _(d):
    chart(d, "# @schema\n# $ref: ../secret.yaml\n# @schema\na: {}\n")
    w(f"{d}/secret.yaml", SECRET)


@case("schema-settings-values-out", ["schema", "c"], {2}, **OUT_SECRET,
      err=r"c/\.schema\.yaml:1:10: error: `values` in the schema settings: '\.\./secret\.yaml' leaves the chart")
def _(d):
    chart(d, "a: 1\n")
    w(f"{d}/secret.yaml", SECRET)
    w(f"{d}/c/.schema.yaml", "values: [../secret.yaml]\n")


# ---- subcharts -----------------------------------------------------------


@case("subchart-symlink-loop", RENDER, err=r"c/charts/a: error: this subchart leads back to the chart 'c'", **REFUSED)
def _(d):
    chart(d, "a: 1\n")
    os.makedirs(f"{d}/c/charts")
    for n in "abcdefghij":  # ten links to the chart itself: 10^depth if followed
        os.symlink("..", f"{d}/c/charts/{n}")


@case("subcharts-10k", RENDER, rc={0}, out_file="out.md", asan=False)
def _(d):
    chart(d, "a: 1\n")
    for i in range(10000):
        w(f"{d}/c/charts/s{i}/Chart.yaml", f"apiVersion: v2\nname: s{i}\nversion: 1.0.0\n")
        w(f"{d}/c/charts/s{i}/values.yaml", f"x{i}: 1\n")


# ---- YAML and JSON shapes ------------------------------------------------

BOMB_ERR = r"(bomb|values)\.yaml:\d+:\d+: error: .*(aliases|nodes)"


@case("alias-bomb-seq", RENDER, err=r"c/values\.yaml:\d+:\d+: error: .*aliases", **REFUSED)
def _(d):
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    prev = "a"
    for n in "bcdefghij":
        lines.append(f"{n}: &{n} [" + ",".join([f"*{prev}"] * 10) + "]")
        prev = n
    # a schema of its own: the schema made from values.yaml is another case
    chart(d, "\n".join(lines) + "\n", '{"type": "object"}')


@case("alias-bomb-map", RENDER, err=r"c/values\.yaml:\d+:\d+: error: .*aliases", **REFUSED)
def _(d):
    lines = ["a0: &a0 {k: v, l: w}"]
    for i in range(1, 40):
        lines.append(f"a{i}: &a{i} {{x: *a{i-1}, y: *a{i-1}}}")
    # a schema of its own: the schema made from values.yaml is another case
    chart(d, "\n".join(lines) + "\n", '{"type": "object"}')


@case("alias-bomb-merge-keys", RENDER, err=r"c/values\.yaml:\d+:\d+: error: .*aliases", asan=False, **REFUSED)
def _(d):
    lines = ["a0: &a0 {k0: v}"]
    for i in range(1, 2000):
        lines.append(f"a{i}: &a{i} {{<<: *a{i-1}, k{i}: v}}")
    # a schema of its own: the schema made from values.yaml is another case
    chart(d, "\n".join(lines) + "\n", '{"type": "object"}')


@case("alias-bomb-schema", ["s.yaml", "--format", "md", "-o", "out.md"],
      err=r"s\.yaml:\d+:\d+: error: .*aliases", **REFUSED)
def _(d):
    lines = ["definitions:", "  a0: &a0 {type: string, enum: [x, y, z, w, v, u, t, s, r, q]}"]
    for i in range(1, 12):
        lines.append(f"  a{i}: &a{i} {{anyOf: [" + ", ".join([f"*a{i-1}"] * 10) + "]}")
    w(f"{d}/s.yaml", "\n".join(lines) + "\n")


@case("alias-wide", RENDER, err=r"c/values\.yaml:\d+:\d+: error: (the documentation would have more than|aliases expand)",
      asan=False, **REFUSED)
def _(d):
    chart(d, "a: &a {x: 1}\nb: [" + ",".join(["*a"] * 300000) + "]\n")


DEEP = 100000
DEEP_ERR = r"c/values\.yaml:1:\d+: error: .*(nest|deep)"


@case("deep-json-array", ["s.json", "--format", "md", "-o", "out.md"], err=r"s\.json:1:\d+: error: .*(nest|deep)", **REFUSED)
def _(d):
    w(f"{d}/s.json", "[" * DEEP + "]" * DEEP)


@case("deep-json-object", ["s.json", "--format", "md", "-o", "out.md"], err=r"s\.json:1:\d+: error: .*(nest|deep)", **REFUSED)
def _(d):
    w(f"{d}/s.json", '{"a":' * DEEP + "1" + "}" * DEEP)


@case("deep-json-schema-properties", ["s.json", "--format", "md", "-o", "out.md"], err=r"s\.json:1:\d+: error: .*(nest|deep)", **REFUSED)
def _(d):
    w(f"{d}/s.json", '{"properties":{"a":' * (DEEP // 2) + "{}" + "}}" * (DEEP // 2))


@case("deep-yaml-flow", RENDER, err=DEEP_ERR, **REFUSED)
def _(d):
    chart(d, "a: " + "[" * DEEP + "]" * DEEP + "\n")


@case("deep-yaml-flow-map", RENDER, err=DEEP_ERR, **REFUSED)
def _(d):
    chart(d, "a: " + "{a: " * DEEP + "1" + "}" * DEEP + "\n")


@case("deep-yaml-block", RENDER, err=r"c/values\.yaml:\d+:\d+: error: .*(nest|deep)", **REFUSED)
def _(d):
    chart(d, "a:\n" + "- " * DEEP + "x\n")


@case("deep-yaml-block-map", RENDER, err=r"c/values\.yaml:\d+:\d+: error: .*(nest|deep)", **REFUSED)
def _(d):
    chart(d, "".join(" " * i + "a:\n" for i in range(3000)) + " " * 3000 + "b: 1\n")


@case("deep-validate-instance", ["validate", "c", "v.json"], {2}, err=r"v\.json:1:\d+: error: .*(nest|deep)")
def _(d):
    chart(d, "a: 1\n", '{"type": "object"}')
    w(f"{d}/v.json", '{"a":' * DEEP + "1" + "}" * DEEP)


BIG = 10 << 20


@case("long-string-10mb", RENDER, rc={0}, out_file="out.md", asan=False,
      check=lambda d, o: os.path.getsize(f"{d}/out.md") > 1000)
def _(d):
    chart(d, "# -- a long one\nbig: \"" + "x" * BIG + "\"\n")


@case("long-comment-10mb", RENDER, rc={0}, out_file="out.md", asan=False)
def _(d):
    chart(d, "# -- " + "y" * BIG + "\nbig: 1\n")


@case("long-key-10mb", RENDER, rc={0, 2}, out_file="out.md", asan=False)
def _(d):
    chart(d, "k" * BIG + ": 1\n")


@case("bad-utf8-key", RENDER, err=r"c/values\.yaml:\d+:\d+: error: .*UTF-8", **REFUSED)
def _(d):
    chart(d, b"ok: 1\nk\xff\xfe: 1\n")


@case("bad-utf8-comment", RENDER, err=r"c/values\.yaml:\d+:\d+: error: .*UTF-8", **REFUSED)
def _(d):
    chart(d, b"# -- caf\xc3\x28 au lait\nok: 1\n")


@case("bad-utf8-chart-yaml", RENDER, err=r"c/Chart\.yaml:\d+:\d+: error: .*UTF-8", **REFUSED)
def _(d):
    chart(d, "a: 1\n", chart_yaml=b"apiVersion: v2\nname: c\xc0\xafx\nversion: 1.0.0\n")


@case("nul-in-key", RENDER, err=r"c/values\.yaml:\d+:\d+: error: ", **REFUSED)
def _(d):
    chart(d, b"ok: 1\nk\x00ey: 1\n")


@case("nul-in-comment", RENDER, err=r"c/values\.yaml:\d+:\d+: error: ", **REFUSED)
def _(d):
    chart(d, b"# -- a \x00 b\nok: 1\n")


@case("nul-in-chart-yaml", RENDER, err=r"c/Chart\.yaml:\d+:\d+: error: ", **REFUSED)
def _(d):
    chart(d, "a: 1\n", chart_yaml=b"apiVersion: v2\nname: c\x00\nversion: 1.0.0\n")


@case("nul-in-json-schema", RENDER, err=r"c/values\.schema\.json:\d+:\d+: error: ", **REFUSED)
def _(d):
    chart(d, "a: 1\n", b'{"properties": {"a\x00": {}}}')


@case("bom-crlf", RENDER, rc={0}, out_file="out.md",
      check=lambda d, o: "replicaCount" in open(f"{d}/out.md").read()
      and "the replicas" in open(f"{d}/out.md").read() and "\r" not in open(f"{d}/out.md").read())
def _(d):
    chart(d, "\ufeff# -- the replicas\r\nreplicaCount: 1\r\nimage:\r\n  # -- the tag\r\n  tag: v1\r\n",
          '\ufeff{\r\n "properties": {"replicaCount": {"type": "integer"}}\r\n}\r\n',
          chart_yaml="\ufeffapiVersion: v2\r\nname: c\r\nversion: 1.0.0\r\n")


@case("bom-crlf-validate", ["validate", "c", "v.yaml"], {1}, err=r"v\.yaml:3:\d+: ")
def _(d):
    chart(d, "replicaCount: 1\n", '{"properties": {"replicaCount": {"type": "integer"}}}')
    w(f"{d}/v.yaml", "\ufeff# x\r\n\r\nreplicaCount: two\r\n")


# ---- $ref ------------------------------------------------------------------

CHAIN = 100000


@case("ref-chain-100k-one-file", ["s.json", "--format", "md", "-o", "out.md"],
      err=r"s\.json:1:\d+: error: the documentation would have more than 50000 entries", asan=False, **REFUSED)
def _(d):
    defs = ",".join(f'"d{i}": {{"$ref": "#/definitions/d{i+1}"}}' for i in range(CHAIN))
    w(f"{d}/s.json", '{"properties": {"a": {"$ref": "#/definitions/d0"}}, "definitions": {'
      + defs + f', "d{CHAIN}": {{"type": "string"}}}}}}')


@case("ref-chain-across-files", ["validate", "s.json", "v.json"], rc={0, 2}, asan=False)
def _(d):
    n = 3000  # 3000 files, 33 refs each: ~100k $ref hops
    for i in range(n):
        defs = ",".join(f'"d{j}": {{"$ref": "#/definitions/d{j+1}"}}' for j in range(32))
        nxt = f'"$ref": "f{i+1}.json#/definitions/d0"' if i + 1 < n else '"type": "integer"'
        w(f"{d}/f{i}.json", '{"definitions": {' + defs + f', "d32": {{{nxt}}}}}}}')
    w(f"{d}/s.json", '{"$ref": "f0.json#/definitions/d0"}')
    w(f"{d}/v.json", "1")


@case("ref-chain-100k-validate", ["validate", "s.json", "v.json"], rc={1},
      err=r"v\.json:1:7: error: a: found integer 1, expected string")
def _(d):
    defs = ",".join(f'"d{i}": {{"$ref": "#/definitions/d{i+1}"}}' for i in range(CHAIN))
    w(f"{d}/s.json", '{"properties": {"a": {"$ref": "#/definitions/d0"}}, "definitions": {'
      + defs + f', "d{CHAIN}": {{"type": "string"}}}}}}')
    w(f"{d}/v.json", '{"a": 1}')


@case("ref-self", ["s.json", "--format", "md", "-o", "out.md"], rc={0, 2}, out_file="out.md")
def _(d):
    w(f"{d}/s.json", '{"$ref": "#"}')


@case("ref-self-validate", ["validate", "s.json", "v.json"], rc={0, 1, 2})
def _(d):
    w(f"{d}/s.json", '{"properties": {"a": {"$ref": "#"}}, "$ref": "#/properties/a"}')
    w(f"{d}/v.json", '{"a": {"a": {"a": 1}}}')


@case("ref-mutual-files", RENDER, rc={0, 2}, out_file="out.md")
def _(d):
    chart(d, "a: 1\n", '{"properties": {"a": {"$ref": "a.json"}}}')
    w(f"{d}/c/a.json", '{"$ref": "b.json"}')
    w(f"{d}/c/b.json", '{"$ref": "a.json"}')


@case("ref-mutual-validate", ["validate", "s.json", "v.json"], rc={2}, err=r"s\.json:\d+:\d+: error: .*\$ref")
def _(d):
    w(f"{d}/s.json", '{"$ref": "#/$defs/a", "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}}')
    w(f"{d}/v.json", "1")


# ---- regular expressions ---------------------------------------------------


@case("redos-pattern", ["validate", "s.json", "v.json"], rc={1, 2})
def _(d):
    w(f"{d}/s.json", '{"type": "string", "pattern": "^(a+)+$"}')
    w(f"{d}/v.json", '"' + "a" * 5000 + '!"')


@case("redos-pattern-nested", ["validate", "s.json", "v.json"], rc={1, 2})
def _(d):
    w(f"{d}/s.json", '{"type": "string", "pattern": "^((a|aa)*)*(b|c)$"}')
    w(f"{d}/v.json", '"' + "a" * 50000 + '"')


@case("redos-pattern-properties", ["validate", "s.json", "v.json"], rc={0, 1, 2})
def _(d):
    w(f"{d}/s.json", '{"patternProperties": {"^(\\\\w+\\\\s?)*$": {"type": "integer"}}}')
    w(f"{d}/v.json", '{"' + "ab " * 3000 + '!": 1}')


@case("redos-backreference", ["validate", "s.json", "v.json"], rc={0, 1, 2})
def _(d):
    w(f"{d}/s.json", '{"type": "string", "pattern": "^(a*)*\\\\1$"}')
    w(f"{d}/v.json", '"' + "a" * 3000 + 'b"')


@case("format-regex-pcre-only", ["validate", "s.json", "v.json", "--formats"], rc={1},
      err=r"v\.json:1:\d+: .*regex")
def _(d):
    w(f"{d}/s.json", '{"type": "array", "items": {"type": "string", "format": "regex"}}')
    w(f"{d}/v.json", '["(?>atomic)", "a++", "\\\\Aanchor\\\\Z", "(?R)", "(?i)x", "[[:alpha:]]", "\\\\p{L"]')


# docs/validate.md: `pattern` is matched by PCRE2, which honours its own
# extensions (an atomic group here); the rules export warns that the browser
# refuses them
@case("pattern-pcre-only", ["validate", "s.json", "v.json"], rc={0})
def _(d):
    w(f"{d}/s.json", '{"type": "string", "pattern": "(?>a+)b"}')
    w(f"{d}/v.json", '"aab"')


@case("pattern-pcre-only-rules", ["rules", "s.json", "-o", "out.json"], rc={0}, out_file="out.json",
      err=r"s\.json:1:\d+: warning: JavaScript refuses the pattern")
def _(d):
    w(f"{d}/s.json", '{"type": "string", "pattern": "(?>a+)b"}')


@case("pattern-huge-repeat", ["validate", "s.json", "v.json"], rc={0, 1, 2})
def _(d):
    w(f"{d}/s.json", '{"type": "string", "pattern": "^((a{1000}){1000}){1000}$"}')
    w(f"{d}/v.json", '"aaaa"')


# ---- numbers ---------------------------------------------------------------


@case("multipleof-1e308", ["validate", "s.json", "v.json"], rc={0})
def _(d):
    w(f"{d}/s.json", '{"multipleOf": 1e-308}')
    w(f"{d}/v.json", "1e308")


# numbers are IEEE doubles, as in the browser (JSON.parse): 10^400 is
# Infinity there, never a multiple of anything
@case("multipleof-400-digits", ["validate", "s.json", "v.json"], rc={1},
      err=r"v\.json:1:1: error: .* is not a multiple of 2")
def _(d):
    w(f"{d}/s.json", '{"multipleOf": 2}')
    w(f"{d}/v.json", "1" + "0" * 400)


@case("number-400-digits-schema", ["validate", "s.json", "v.json"], rc={0, 1, 2})
def _(d):
    w(f"{d}/s.json", '{"multipleOf": 0.' + "0" * 399 + '1, "maximum": 1' + "0" * 400 + "}")
    w(f"{d}/v.json", "12345.678")


@case("multipleof-tiny-of-huge", ["validate", "s.json", "v.json"], rc={0, 1})
def _(d):
    w(f"{d}/s.json", '{"multipleOf": 0.0001}')
    w(f"{d}/v.json", "1e300")


@case("number-exponent-huge", ["validate", "s.json", "v.json"], rc={0, 1, 2})
def _(d):
    w(f"{d}/s.json", '{"type": "integer", "maximum": 1e999999999}')
    w(f"{d}/v.json", "1e-999999999")


# ---- uniqueItems -----------------------------------------------------------

MILLION = 1000000


@case("unique-items-1m", ["validate", "s.json", "v.json"], rc={0}, asan=False)
def _(d):
    w(f"{d}/s.json", '{"type": "array", "uniqueItems": true}')
    w(f"{d}/v.json", "[" + ",".join(str(i) for i in range(MILLION)) + "]")


@case("unique-items-1m-dup", ["validate", "s.json", "v.json"], rc={1}, asan=False,
      err=r"v\.json:1:\d+: .*(unique|duplicate)")
def _(d):
    w(f"{d}/s.json", '{"type": "array", "uniqueItems": true}')
    w(f"{d}/v.json", "[" + ",".join(str(i) for i in range(MILLION)) + ",5]")


@case("unique-items-1m-objects", ["validate", "s.json", "v.json"], rc={0, 2}, asan=False)
def _(d):
    w(f"{d}/s.json", '{"type": "array", "uniqueItems": true}')
    w(f"{d}/v.json", "[" + ",".join('{"a":%d}' % i for i in range(MILLION)) + "]")


# ---- the ends of findings (src/tree/span.c, src/source/check_ends.c) -------

# 1,000 `required` errors all at the start of a 250,000-line mapping: each
# finding's end is the mapping's last line, found once (check_ends.c's
# memo), not once per finding (2.3 s of CPU before the memo, 1.1 s after)
@case("ends-required-at-one-place", ["validate", "c", "v.yaml", "--output", "json"], rc={1}, asan=False)
def _(d):
    chart(d, "", '{"type": "object", "required": [%s]}' % ", ".join('"k%d"' % i for i in range(1000)))
    w(f"{d}/v.yaml", "".join("x%d: %d\n" % (i, i) for i in range(250000)))


# ---- Mustache --------------------------------------------------------------


@case("mustache-10k-sections", ["template", "t.mustache", "--data", "d.json", "-o", "out.txt"], rc={0, 2},
      out_file="out.txt")
def _(d):
    w(f"{d}/t.mustache", "{{#a}}" * 10000 + "x" + "{{/a}}" * 10000)
    w(f"{d}/d.json", '{"a": true}')


@case("mustache-10k-nested-data", ["template", "t.mustache", "--data", "d.json", "-o", "out.txt"], rc={0, 2},
      out_file="out.txt")
def _(d):
    w(f"{d}/t.mustache", "".join("{{#a%d}}" % i for i in range(10000)) + "{{v}}"
      + "".join("{{/a%d}}" % i for i in reversed(range(10000))))
    w(f"{d}/d.json", "".join('{"a%d":' % i for i in range(900)) + '{"v":1}' + "}" * 900)


@case("mustache-recursive-partial", ["template", "t.mustache", "--data", "d.json", "--partials", "p", "-o", "out.txt"],
      rc={2}, out_file="out.txt", err=r"p/r\.mustache:1:\d+: error: ")
def _(d):
    w(f"{d}/t.mustache", "{{>r}}")
    w(f"{d}/p/r.mustache", "x{{>r}}")
    w(f"{d}/d.json", "{}")


@case("mustache-mutual-partials", ["template", "t.mustache", "--data", "d.json", "--partials", "p", "-o", "out.txt"],
      rc={2}, out_file="out.txt", err=r"p/[ab]\.mustache:1:\d+: error: ")
def _(d):
    w(f"{d}/t.mustache", "{{>a}}")
    w(f"{d}/p/a.mustache", "{{>b}}{{>b}}")
    w(f"{d}/p/b.mustache", "{{>a}}{{>a}}")
    w(f"{d}/d.json", "{}")


@case("mustache-partial-bomb", ["template", "t.mustache", "--data", "d.json", "--partials", "p", "-o", "out.txt"],
      rc={0, 2}, out_file="out.txt")
def _(d):
    w(f"{d}/t.mustache", "{{>p0}}")
    for i in range(40):
        w(f"{d}/p/p{i}.mustache", "{{>p%d}}{{>p%d}}" % (i + 1, i + 1))
    w(f"{d}/p/p40.mustache", "lol")
    w(f"{d}/d.json", "{}")


@case("mustache-data-deep", ["template", "t.mustache", "--data", "d.json", "-o", "out.txt"], rc={2},
      out_file="out.txt", err=r"d\.json:")
def _(d):
    w(f"{d}/t.mustache", "{{a}}")
    w(f"{d}/d.json", '{"a":' * DEEP + "1" + "}" * DEEP)


# ---- packaged charts (issue 36 items 1-2: tests/pathological/tars.py) -----

def tgz_case(name):
    import gzip

    def setup(d):
        w(f"{d}/bad.tgz", gzip.compress(tars.CASES[name]), "wb")
        w(f"{d}/ok.tgz", gzip.compress(tars.chart(tars.member("c/values.yaml", b"a: 1\n")) + tars.end()), "wb")
    err = tars.ERRORS.get(name)
    # refused: exit 2 naming bad.tgz and the entry; read: a diff (exit 1)
    CASES.append(dict(name="tgz-" + name, setup=setup, argv=["diff", "bad.tgz", "ok.tgz"],
                      rc={2} if err else {0, 1}, err=r"bad\.tgz: error: " + err if err else None,
                      out_file=None, check=None, asan=True, tmpdir=True))


for _name in tars.CASES:
    tgz_case(_name)


# ---- the lint and its reading of templates/ (issue 39 item 5, issue 41 item 8) ----

NO_UNKNOWN = r"^(?![\s\S]*unknown key)"


# 200,000 keys the chart does not have: one warning each, in linear time
# (Helm's merge searched the map made so far for every key: 32,000 keys 12 s)
@case("lint-unknown-keys-200k", ["validate", "c", "v.yaml"], {0, 1},
      err=r"v\.yaml:1:1: warning: k0000000: unknown key", asan=False)
def _(d):
    chart(d, "a: 1\n")
    w(f"{d}/v.yaml", "".join("k%07d: 1\n" % i for i in range(200000)))


# 60,000 maps handed on whole (2.3 MB of templates): each was compared
# with every other path (mark_read_below: 2.2 MB took 29 s)
@case("tmplrefs-whole-60k", ["validate", "c", "v.yaml"], {0, 1}, err=NO_UNKNOWN, asan=False)
def _(d):
    chart(d, "a: 1\n")
    w(f"{d}/c/templates/cm.yaml", "".join('{{ include "t" .Values.k%05d }}\n' % i for i in range(60000)))
    w(f"{d}/v.yaml", "k00042:\n  anything: 1\nk59999:\n  x: {y: 1}\n")


# a 470 KB prefix bound by `with` and 4,000 keys read below it: every path
# stored its whole prefix (a 495 KB template took 6.3 GB); the key read
# after it must still be seen
@case("tmplrefs-with-prefix", ["validate", "c", "v.json"], {0, 1}, err=NO_UNKNOWN, asan=False)
def _(d):
    chart(d, "a: 1\n")
    keys = ["p%02d" % i + "x" * 20000 for i in range(23)]
    w(f"{d}/c/templates/cm.yaml", "{{ with .Values.%s }}" % ".".join(keys)
      + "".join("{{ .r%04d }}" % i for i in range(4000)) + "{{ end }}{{ .Values.late }}\n")
    w(f"{d}/v.json", '{"late": 1, "%s": {"r0042": 1}}' % keys[0])


# ---- Go templates (issue 36 items 4-8) --------------------------------------

GOTMPL = ["c", "--gotmpl", "t.gotmpl", "-o", "out.md"]
BOMB = "".join("%s: &%s [%s]\n" % (k, k, ",".join(["lol"] * 10 if k == "a" else ["*" + chr(ord(k) - 1)] * 10))
               for k in "abcdefghij")
BOUNDED = r"t\.gotmpl:1:\d+: error: .*(ran for more than 50000000 steps|result too large|larger than)"


def gotmpl_case(name, text, rc={2}, err=None, check=None, files=None):
    def setup(d):
        chart(d, "a: 1\n")
        w(f"{d}/t.gotmpl", text)
        for k, v in (files or {}).items():
            w(f"{d}/c/{k}", v)
    CASES.append(dict(name="gotmpl-" + name, setup=setup, argv=GOTMPL, rc=rc, err=err, out_file="out.md",
                      check=check, asan=True, tmpdir=False))


# a 410-byte alias bomb (10^10 nodes, shared) through what walks values
for _fn, _use in (("toJson", "toJson $b"), ("toYaml", "toYaml $b"), ("toString", "toString $b"),
                  ("quote", "quote $b"), ("join", "join \",\" $b.j"), ("sortAlpha", "sortAlpha $b.j"),
                  ("uniq", "uniq (list $b.j $b.j)"), ("deepEqual", "deepEqual $b.j $b.j"),
                  ("printf", "printf \"%v\" $b | len"), ("print", "$b"),
                  # text cut at the output cap and printed (exit 0, 64 MiB), or 3 s of CPU
                  ("html", "html $b"), ("js", "js $b"), ("urlquery", "urlquery $b"),
                  ("printf-x", "printf \"%x\" $b")):
    gotmpl_case("alias-bomb-" + _fn, '{{ $b := .Files.Get "bomb.yaml" | fromYaml }}{{ %s%s }}'
                % (_use, "" if _fn in ("print", "printf") else " | len"), err=BOUNDED, files={"bomb.yaml": BOMB})
# checked arithmetic, as Go computes it (the release build died of SIGFPE)
gotmpl_case("div-minint", "{{ div -9223372036854775808 -1 }} {{ mod \"-9223372036854775808\" \"-1\" }} "
            "{{ add 9223372036854775807 1 }}", rc={0},
            check=lambda d, out: open(f"{d}/out.md").read().strip() == "-9223372036854775808 0 -9223372036854775808")
gotmpl_case("div-zero", "{{ div 1 0 }}", err=r"t\.gotmpl:1:4: error: error calling div: runtime error: integer divide by zero")
# .Files.Glob patterns that backtracked for minutes on one 200-character name
for _i, _pat in enumerate(["*a*a*a*a*a*b", "**?" * 20 + "Q"]):
    gotmpl_case("glob-backtrack-%d" % _i, '[{{ (.Files.Glob "%s").AsConfig }}]' % _pat, rc={0},
                check=lambda d, out: open(f"{d}/out.md").read().strip() == "[]", files={"a" * 200: "x\n"})
# regular expressions: many matches, an empty pattern (quadratic before)
for _name, _text, _want in (("regex-findall-2m", '{{ regexFindAll "x" (repeat 2000000 "x") -1 | len }}', "2000000"),
                            ("regex-split-empty", '{{ regexSplit "" (repeat 2000000 "x") -1 | len }}', "2000000"),
                            ("regex-replace-empty", '{{ regexReplaceAll "" (repeat 1000000 "x") "y" | len }}', "2000001")):
    gotmpl_case(_name, _text, rc={0}, check=lambda d, out, _w=_want: open(f"{d}/out.md").read().strip() == _w)
# a pattern that backtracks at every match: each search counted one step
# whatever its work (3,000 matches: 5 s of CPU); now its match-limit work is
# charged against the step bound
gotmpl_case("regex-backtrack-many", '{{ regexFindAll "(a|aa)*c|x" (repeat 30000 (printf "%sx" (repeat 22 "a"))) -1 | len }}',
            err=r"t\.gotmpl:1:4: error: the template ran for more than 50000000 steps")
# toJson of 50,000 keys in reverse order (an insertion sort: 21 s)
gotmpl_case("tojson-50k-keys", '{{ .Files.Get "big.yaml" | fromYaml | toJson | len }}', rc={0},
            check=lambda d, out: open(f"{d}/out.md").read().strip() == "738895",
            files={"big.yaml": "".join("k%05d: %d\n" % (i, i) for i in range(50000, 0, -1))})


# ---- memory bounded by the input (issue 41, docs/internals.md "Limits") ----
# Each case runs under an address-space limit of BOUND_M x its input bytes +
# BOUND_C (the rule in docs/internals.md) and the CPU limit; a signal, a
# timeout, an exit other than 0/2 or running out of memory (where the case
# does not ask for it) fails it. Each one took gigabytes (or died of
# SIGSEGV) before the fix named beside it.
BOUND_M = 128
BOUND_C = 320 << 20
BOUNDED = dict(rc={0, 2}, bound=True)


def ladder(levels, width=10, maps=False):
    """A YAML alias bomb: `levels` anchors, each `width` uses of the one
    before (lists, or maps of `width` keys)."""
    ks = "abcdefghijklmnop"
    if maps:
        out = ["a: &a {" + ", ".join(f"k{j}: x" for j in range(width)) + "}"]
        out += [f"{ks[i]}: &{ks[i]} {{" + ", ".join(f"k{j}: *{ks[i - 1]}" for j in range(width)) + "}"
                for i in range(1, levels)]
    else:
        out = ["a: &a [" + ",".join(["x"] * width) + "]"]
        out += [f"{ks[i]}: &{ks[i]} [" + ",".join([f"*{ks[i - 1]}"] * width) + "]" for i in range(1, levels)]
    return "\n".join(out) + "\n"


# item 5: 1.1M nodes through aliases in 218 bytes (the loader's old limit
# was 4M per document): md, schema and validate made 1.1 GB, 5-13 s
for _shape, _maps in (("lists", False), ("maps", True)):
    for _cmd, _argv in (("md", RENDER), ("schema", ["schema", "c", "-o", "out.json"]),
                        ("validate", ["validate", "c", "c/values.yaml"])):
        def _setup(d, _m=_maps):
            chart(d, ladder(6, maps=_m))
        CASES.append(dict(name=f"bound-alias-{_shape}-{_cmd}", setup=_setup, argv=_argv, err=r"(aliases|alias limit)",
                          out_file=None, check=None, asan=True, tmpdir=False, **BOUNDED))


# item 5: the made schema's merge_items ran on after an allocation failed
# (SIGSEGV under ulimit -v): with the alias limit raised, memory runs out
# there and the run must say so
@case("bound-made-schema-oom", ["schema", "c", "-o", "out.json"], env={"SCHEMADOC_MAX_ALIAS_NODES": "2000000"},
      err=r"out of memory", asan=False, **BOUNDED)
def _(d):
    chart(d, ladder(6))


# item 5: no alias at all, 4.05M nodes: "expands to more than 4000000 nodes
# through aliases" before; loads now (a schema is there: no made schema)
@case("bound-plain-4m-nodes", ["validate", "c", "v.yaml"], rc={0}, asan=False, bound=True)
def _(d):
    chart(d, "a: []\n", '{"type": "object"}')
    w(f"{d}/v.yaml", "a: [" + "1," * 4050000 + "1]\n")


CASES[-1]["wall"] = 30.0   # 8 MB read and 450 MB touched: slow on a loaded machine


# item 5's last part: memory per byte of YAML at the JSON figure. A values
# file validated against a plain schema is parsed straight into a tape
# (load/load_tape.c), as JSON is: both must fit in 5 bytes of address space
# per input byte + 16 MiB. Least `ulimit -v` each needs (--version alone: 6
# MiB): the JSON, 6.9 MB, 29 MiB; the YAML, 4.9 MB, 28 MiB (98 MiB when it
# went through a node tree, which this bound of 39 MiB refuses).
def service_blocks(n):
    """`n` service blocks as a values file might hold them."""
    return "".join(
        f"k{i:06d}:\n  name: svc-{i}\n  image: {{repository: registry.example/app{i}, tag: \"1.{i}.0\"}}\n"
        f"  port: {8000 + i % 1000}\n  enabled: true\n  ratio: 0.{i % 97}\n  labels:\n    app: a{i}\n"
        f"    tier: web\n  args: [--v=2, --name=s{i}]\n  env:\n  - name: MODE\n    value: fast\n"
        for i in range(n))


AS_JSON = dict(rc={0}, asan=False, bound=True, bound_m=5, bound_c=16 << 20)


@case("bound-yaml-values-as-json", ["validate", "s.json", "v.yaml"], **AS_JSON)
def _(d):
    w(f"{d}/s.json", '{"type": "object", "additionalProperties": {"type": "object"}}')
    w(f"{d}/v.yaml", service_blocks(20000))


@case("bound-json-values-as-json", ["validate", "s.json", "v.json"], **AS_JSON)
def _(d):
    import json
    w(f"{d}/s.json", '{"type": "object", "additionalProperties": {"type": "object"}}')
    w(f"{d}/v.json", json.dumps({f"k{i:06d}": {
        "name": f"svc-{i}", "image": {"repository": f"registry.example/app{i}", "tag": f"1.{i}.0"},
        "port": 8000 + i % 1000, "enabled": True, "ratio": float(f"0.{i % 97}"),
        "labels": {"app": f"a{i}", "tier": "web"}, "args": ["--v=2", f"--name=s{i}"],
        "env": [{"name": "MODE", "value": "fast"}]} for i in range(20000)}, indent=1))


# item 6: alias bombs in `@schema` annotations (helm-schema blocks on ten
# keys) and helm-schema `$ref`s to one small bomb from 100 keys: one budget
_BLOCK_BOMB = "".join(f"#   {line}\n" for line in ladder(6).splitlines())


@case("bound-atschema-block-bombs", ["schema", "c", "-o", "out.json"], **BOUNDED)
def _(d):
    chart(d, "".join(f"# @schema\n# default:\n{_BLOCK_BOMB}# @schema\nk{i}: 1\n" for i in range(10)))


@case("bound-helmschema-ref-bombs", ["schema", "c", "-o", "out.json"], **BOUNDED)
def _(d):
    chart(d, "".join(f"# @schema\n# $ref: bomb.yaml\n# @schema\nk{i}: 1\n" for i in range(100)))
    w(f"{d}/c/bomb.yaml", "type: object\ndefault:\n" + "".join("  " + line + "\n" for line in ladder(5).splitlines()))


# item 7: fromJson of a repeated text: jansson's tree had no bound
# (a 70-byte template: 4.9 GB, 84 s)
@case("bound-gotmpl-fromjson", GOTMPL, err=r"t\.gotmpl:1:\d+: error: .*(result too large|steps)", **BOUNDED)
def _(d):
    chart(d, "a: 1\n")
    w(f"{d}/t.gotmpl", '{{ printf "[%s0]" (repeat 20000000 "[],") | fromJson | len }}')


# item 9: the commented keys' scan kept every key's whole dotted path (990
# levels of 3 KB keys with a commented key under each: 2.9 GB)
@case("bound-commented-deep-keys", ["schema", "c", "-o", "out.json"], asan=False, **BOUNDED)
def _(d):
    lines = []
    for i in range(990):   # explicit keys: libyaml takes 1024 bytes at most for `key:`
        ind = "  " * i
        lines += [f"{ind}? {'k' * 3000}{i}", f"{ind}:", f"{ind}  # c{i}: 1"]
    lines.append("  " * 990 + "leaf: 1")
    chart(d, "\n".join(lines) + "\n")


# item 11: one `@schema` line of a million parts (4.5 KB each: 4.5 GB)
@case("bound-atschema-million-parts", ["schema", "c", "-o", "out.json"], asan=False, **BOUNDED)
def _(d):
    chart(d, "k: a # @schema " + "enum: [a];" * 1000000 + "\n")
# ---- the Bitnami metadata check (issue 41 item 10) --------------------------
# 60 levels of 6 KB keys above 3,000 values without a `## @param`: each
# message named the 360 KB path three times (3 GB on stderr, a string per
# value in memory: 61 s, 7.4 GB). Now 20 messages of each kind, a path past
# 200 bytes shown by its two ends, and one line for the rest (16 KB).
def bitnami_deep(d):
    lines = ["## @param a An annotated value", "a: 1"]
    for i in range(60):   # explicit keys: an implicit one is at most 1024 bytes
        lines += ["  " * i + "? k%02d" % i + "x" * 6000, "  " * i + ":"]
    lines.append("  " * 60 + "leaves: {" + ", ".join("v%d: 1" % i for i in range(3000)) + "}")
    # a schema of its own: the schema made from values.yaml is another case
    chart(d, "\n".join(lines) + "\n", '{"type": "object"}')


@case("bitnami-check-deep-paths", ["c", "--readme", "c/README.md"], {2}, max_err=64 << 10,
      err=r"c/values\.yaml:\d+:\d+: error: missing metadata for key: k00x+\.\.\.\(\d+ bytes\)\.\.\.x+\.leaves\.v0 "
          r"(?s:.*)c/values\.yaml:\d+:\d+: error: 2980 more keys without metadata left out \(the first 20 are listed\)")
def _(d):
    bitnami_deep(d)


# ---- runner ----------------------------------------------------------------


def limits(mem=MEM_LIMIT):
    def preexec():
        resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
        resource.setrlimit(resource.RLIMIT_CPU, (3, 4))
        os.setsid()
    return preexec


def input_bytes(d):
    """What a case gives the binary: the bytes of every file it wrote."""
    return sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(d) for f in fs
               if os.path.isfile(os.path.join(r, f)))


def run(argv, cwd, timeout, preexec, env=None):
    """Run argv; returns (status, stdout, stderr, wall, timed_out, peak RSS in
    bytes). The child's own rusage comes from wait4()."""
    t0 = time.monotonic()
    with tempfile.TemporaryFile() as fo, tempfile.TemporaryFile() as fe:
        p = subprocess.Popen(argv, cwd=cwd, stdout=fo, stderr=fe, stdin=subprocess.DEVNULL,
                             preexec_fn=preexec, env=dict(os.environ, NO_COLOR="1", **(env or {})))
        timed_out = False
        while True:
            pid, status, ru = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - t0 > timeout:
                timed_out = True
                os.killpg(p.pid, signal.SIGKILL)
                pid, status, ru = os.wait4(p.pid, 0)
                break
            time.sleep(0.005)
        p.returncode = 0  # reaped here, not by Popen
        wall = time.monotonic() - t0
        rc = os.waitstatus_to_exitcode(status)
        fo.seek(0)
        fe.seek(0)
        return rc, fo.read(), fe.read(), wall, timed_out, ru.ru_maxrss * 1024, ru.ru_utime + ru.ru_stime


def main():
    sd_rel, sd_asan = sys.argv[1], sys.argv[2]
    only = sys.argv[3:]
    base = tempfile.mkdtemp(prefix="sd-path-")
    passed = failed = 0
    worst_t = (0.0, "")
    worst_m = (0, "")
    try:
        for c in CASES:
            if only and not any(o in c["name"] for o in only):
                continue
            d = os.path.join(base, c["name"])
            os.makedirs(d)
            c["setup"](d)
            problems = []
            env = dict(c.get("env") or {}) or None
            if c["tmpdir"]:
                env = dict(env or {}, TMPDIR=os.path.join(d, "tmp"))
                os.makedirs(env["TMPDIR"])
            mem = MEM_LIMIT
            if c.get("bound"):
                mem = (c.get("bound_m") or BOUND_M) * input_bytes(d) + (c.get("bound_c") or BOUND_C)
            # release build, under the limits; RUSAGE_CHILDREN is the max
            # over all children so far, so measure each run alone
            wall_limit = c.get("wall", WALL_LIMIT)
            rc, out, err, wall, timed_out, rss, cpu = run([sd_rel] + c["argv"], d, wall_limit, limits(mem), env)
            errs = err.decode("utf-8", "replace")
            if timed_out or rc < 0:
                problems.append(f"killed (signal {-rc}) after {wall:.2f}s" if not timed_out
                                else f"timed out after {wall_limit}s")
            elif rc not in c["rc"]:
                problems.append(f"exit {rc}, expected {sorted(c['rc'])}")
            if cpu > TIME_LIMIT:
                problems.append(f"took {cpu:.2f}s of CPU")
            if rc == 2 and not re.search(r"\S+:( |\d+:\d+: )error: ", errs):
                problems.append("refused without a FILE: error: line")
            if c.get("bound") and "out of memory" in errs and not (c["err"] and "out of memory" in c["err"]):
                problems.append("ran out of memory under the bound")
            if c.get("max_err") is not None and len(err) > c["max_err"]:
                problems.append(f"{len(err)} bytes on stderr, at most {c['max_err']}")
            if c["err"] and not re.search(c["err"], errs):
                problems.append(f"stderr does not match /{c['err']}/")
            of = c["out_file"] and os.path.join(d, c["out_file"])
            if of and rc != 0 and os.path.exists(of):
                problems.append(f"left {c['out_file']} behind after exit {rc}")
            if of and rc == 0 and not os.path.exists(of):
                problems.append(f"exit 0 without writing {c['out_file']}")
            if c["check"] and rc == 0 and not problems and not c["check"](d, out):
                problems.append("output check failed")
            if c.get("secret") and leaked(d, c["secret"], out + err):
                problems.append("the secret planted outside the chart is in the output")
            if "AddressSanitizer" in errs or UBSAN.search(errs):
                problems.append("sanitizer report")
            if c["tmpdir"] and os.listdir(env["TMPDIR"]):
                problems.append(f"left {len(os.listdir(env['TMPDIR']))} entries in $TMPDIR")
            if cpu > worst_t[0]:
                worst_t = (cpu, c["name"])
            if rss > worst_m[0]:
                worst_m = (rss, c["name"])
            # the sanitizer build: same verdict, no report
            if c["asan"] and not problems and sd_asan != "-":
                if of and os.path.exists(of):
                    os.unlink(of)
                arc, _, aerr, awall, ato, _, _ = run([sd_asan] + c["argv"], d, ASAN_TIME, os.setsid, env)
                aerrs = aerr.decode("utf-8", "replace")
                if c["tmpdir"] and os.listdir(env["TMPDIR"]):
                    problems.append(f"asan build: left {len(os.listdir(env['TMPDIR']))} entries in $TMPDIR")
                if ato:
                    problems.append(f"asan build timed out after {ASAN_TIME}s")
                elif arc != rc:
                    problems.append(f"asan build: exit {arc}, release {rc}: {aerrs[-600:]}")
                if "Sanitizer" in aerrs or UBSAN.search(aerrs):
                    problems.append("asan build: sanitizer report: " + aerrs[-1500:])
                c["asan_wall"] = awall
            status = "ok" if not problems else "FAIL"
            print(f"{status}: {c['name']}: exit {rc}, {cpu:.2f}s CPU, {wall:.2f}s wall, {rss >> 20} MiB"
                  + (f" (bound {mem >> 20} MiB)" if c.get("bound") else "")
                  + (f" (sanitizer build {c['asan_wall']:.2f}s)" if "asan_wall" in c else "")
                  + ("" if not problems else ": " + "; ".join(problems)))
            if problems:
                failed += 1
                print("    stderr: " + errs[:400].replace("\n", "\n    "))
            else:
                passed += 1
            shutil.rmtree(d, ignore_errors=True)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    print(f"figure: pathological worst CPU time {worst_t[0]:.2f}s ({worst_t[1]}), "
          f"worst peak RSS {worst_m[0] >> 20} MiB ({worst_m[1]}); limits {TIME_LIMIT:.0f}s, "
          f"{MEM_LIMIT >> 20} MiB")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
