#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/render/md_blocks.py SD OUTDIR - no line of a chart's text starts a
CommonMark HTML block, and no tag from it is live, in any Markdown schemadoc
writes (issue 41 item 4). Builds hostile charts under OUTDIR whose texts
start lines with <div>, <p>, <details ontoggle>, <img onerror>, <script>
(also indented, in a block quote, after a list marker, after what only
looks like a code fence, and in a real one), then writes each
Markdown context:
  md-page     the md page (tables, section headings, details, the chart's
              description) of a helm-docs chart with a schema
  readme      --readme into a README with the schemadoc markers
  params      --readme into a README's "## Parameters" (helm-docs table)
  gotmpl      the chart's README.md.gotmpl (helm-docs' templates)
  gotmpl-html the same with helm-docs' HTML table (valuesTableHtml: raw
              HTML, where a backslash escape is literal)
  bitnami     --readme into a Bitnami README's "## Parameters" section
              (readme-generator's rewrite: section headings, rows)
Each page goes through libcmark-gfm with raw HTML allowed
(CMARK_OPT_UNSAFE, the table extension on) and must hold no element whose
id starts with "sdx" (every tag of the payloads has one), no script, no
on... attribute; and the payload text must still be there to read.
OUTDIR/<context>.html is left for tests/render/md_dialogs.mjs (Chromium).
Prints one line per problem and "N passed, N failed" last."""
import ctypes
import os
import re
import subprocess
import sys
from html.parser import HTMLParser

SD, OUT = sys.argv[1], sys.argv[2]

PAYLOAD = [
    '<div id="sdx-div">a block the chart opened</div>',
    '<p id="sdx-p">a paragraph</p>',
    '<details id="sdx-details" open ontoggle="alert(\'details\')">',
    '<img id="sdx-img" src="x" onerror="alert(\'img\')">',
    '<script id="sdx-script">alert(\'script\')</script>',
    '  <div id="sdx-indented">indented</div>',
    '> <div id="sdx-quote">quoted</div>',
    '- <p id="sdx-list">listed</p>',
    '1. <div id="sdx-ordered">ordered</div>',
    '</div><img id="sdx-close" src="x" onerror="alert(\'close\')">',
    '<!-- <img id="sdx-comment" src="x" onerror="alert(\'comment\')"> -->',
    '<custom-tag id="sdx-custom">any tag name</custom-tag>',
    # a fence of the chart's is code where its lines stay lines (details,
    # the chart's description) and nothing in a table cell; what only looks
    # like one is no fence
    '~~~',
    '<div id="sdx-infence">code in a fence</div>',
    '~~~',
    '``` a`b',
    '<div id="sdx-notfence">no fence: a backtick in its info</div>',
    '    ```',
    '<div id="sdx-indented-fence">no fence: indented four spaces</div>',
]
# what GitHub's page must show as written (issue 41 item 4)
# (a line's container marks, `> `, `- `, `1. `, are the chart's Markdown:
# a quote or a list item is what the chart asked for)
GH_LINES = [re.sub(r"^\s*(?:>|-|1\.)?\s*", "", l) for l in PAYLOAD if "sdx" in l]
GH_LINES_BN = ['<div id="sdx-bn-div">desc</div>', '<img id="sdx-bn-img" src=x onerror=alert(4)> desc',
               '<details id="sdx-bn-details" open ontoggle=alert(6)>', '<script id="sdx-bn-script">alert(7)</script>',
               '<p id="sdx-bn-p">d</p>']
# what must still be readable (text, not markup)
VISIBLE = ["a block the chart opened", "a paragraph", "onerror=\"alert('img')\"", "alert('script')"]


def w(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def comment_block(indent=""):
    return "".join(f"{indent}# {line}\n" for line in PAYLOAD)


def helmdocs_chart(d):
    desc = "\n".join("  " + p for p in PAYLOAD)
    w(f"{d}/Chart.yaml", f"apiVersion: v2\nname: hostile-md\nversion: 1.0.0\ndescription: |-\n{desc}\n")
    w(f"{d}/values.yaml",
      "# @section -- <div id=\"sdx-section\">a section</div>\n"
      "# -- first line\n# @raw\n" + comment_block() + "raw: 1\n"
      "# -- <div id=\"sdx-row\">row</div> <img id=\"sdx-row-img\" src=x onerror=alert(1)>\n"
      "# @default -- <img id=\"sdx-default\" src=x onerror=alert(2)>\n"
      "plain: 2\n"
      "# -- (<img id=\"sdx-type\" src=x onerror=alert(3)>) a typed value\n"
      "typed: 3\n")
    # the schema's descriptions are many lines: the md page lists them under Details
    import json
    sdesc = "\n".join(PAYLOAD)
    w(f"{d}/values.schema.json", json.dumps({
        "type": "object",
        "properties": {
            "raw": {"type": "integer", "description": sdesc},
            "plain": {"type": "integer", "description": "plain\n" + sdesc},
            "typed": {"type": "integer"},
            "nested": {"type": "object", "description": sdesc, "properties": {
                "deep": {"type": "string", "description": sdesc}}},
        },
        "$defs": {"def": {"type": "string", "description": sdesc}},
    }, indent=2))


def bitnami_chart(d):
    w(f"{d}/Chart.yaml", "apiVersion: v2\nname: hostile-bn\nversion: 1.0.0\n")
    w(f"{d}/values.yaml",
      "## @section <div id=\"sdx-bn-section\">Common</div>\n"
      "## @param a <div id=\"sdx-bn-div\">desc</div>\n"
      "a: 1\n"
      "## @param b <img id=\"sdx-bn-img\" src=x onerror=alert(4)> desc\n"
      "b: \"x`<img id=\\\"sdx-bn-value\\\" src=x onerror=alert(5)>`y\"\n"
      "## @param c <details id=\"sdx-bn-details\" open ontoggle=alert(6)>\n"
      "c: 3\n"
      "## @section <script id=\"sdx-bn-script\">alert(7)</script>\n"
      "## @param d <p id=\"sdx-bn-p\">d</p>\n"
      "d: 4\n")
    w(f"{d}/README.md", "# hostile\n\n## Parameters\n\n### Old\n\n| Name | Description | Value |\n| --- | --- | --- |\n| `a` | old | `1` |\n\n## License\n\nx\n")


def md_to_html(md, github=False):
    lib = ctypes.CDLL("libcmark-gfm.so")
    ext = ctypes.CDLL("libcmark-gfm-extensions.so")
    ext.cmark_gfm_core_extensions_ensure_registered()
    lib.cmark_parser_new.restype = ctypes.c_void_p
    lib.cmark_parser_new.argtypes = [ctypes.c_int]
    lib.cmark_find_syntax_extension.restype = ctypes.c_void_p
    lib.cmark_find_syntax_extension.argtypes = [ctypes.c_char_p]
    lib.cmark_parser_attach_syntax_extension.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    lib.cmark_parser_feed.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
    lib.cmark_parser_finish.restype = ctypes.c_void_p
    lib.cmark_parser_finish.argtypes = [ctypes.c_void_p]
    lib.cmark_parser_get_syntax_extensions.restype = ctypes.c_void_p
    lib.cmark_parser_get_syntax_extensions.argtypes = [ctypes.c_void_p]
    lib.cmark_render_html.restype = ctypes.c_void_p
    lib.cmark_render_html.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p]
    unsafe = 1 << 17
    p = lib.cmark_parser_new(unsafe)
    names = (b"table", b"strikethrough", b"autolink") + ((b"tagfilter",) if github else ())
    for name in names:   # no tagfilter unless as GitHub: the raw HTML as it is
        e = lib.cmark_find_syntax_extension(name)
        if e:
            lib.cmark_parser_attach_syntax_extension(p, e)
    b = md.encode("utf-8")
    lib.cmark_parser_feed(p, b, len(b))
    doc = lib.cmark_parser_finish(p)
    html = lib.cmark_render_html(doc, unsafe, lib.cmark_parser_get_syntax_extensions(p))
    return ctypes.string_at(html).decode("utf-8")


# GitHub's sanitiser (html-pipeline's SanitizationFilter allowlist): an
# element not on the list is dropped and its text kept, except script and
# style whose text goes too; the page is read as the text that remains.
GITHUB_ALLOWED = set("""h1 h2 h3 h4 h5 h6 h7 h8 br b i strong em a pre code img tt div ins del sup sub
p ol ul table thead tbody tfoot blockquote dl dt dd kbd q samp var hr ruby rt rp li tr td th s strike
summary details caption figure figcaption abbr bdo cite dfn mark small span time wbr input""".split())


class GitHubText(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.text, self.drop = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.drop += 1
        elif tag in ("br", "p", "div", "tr", "td", "th", "li", "pre", "h1", "h2", "h3", "h4", "h5", "h6"):
            self.text.append("\n")

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self.drop:
            self.drop -= 1

    def handle_data(self, data):
        if not self.drop:
            self.text.append(data)


def reads_as_written(html, lines):
    """The payload lines that GitHub's page does not show as written."""
    g = GitHubText()
    g.feed(html)
    g.close()
    text = " ".join("".join(g.text).split())
    return [l for l in lines if " ".join(l.split()) not in text]


class Live(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.problems, self.text = [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if (a.get("id") or "").startswith("sdx"):
            self.problems.append(f"live <{tag} id={a['id']}>")
        if tag == "script":
            self.problems.append("a script element")
        for k, _ in attrs:
            if k.startswith("on"):
                self.problems.append(f"<{tag} {k}=...>")

    handle_startendtag = handle_starttag

    def handle_comment(self, data):
        if "sdx" in data:
            self.problems.append("a comment from the chart")

    def handle_data(self, data):
        self.text.append(data)


def main():
    passed = failed = 0
    hd, bn = f"{OUT}/helmdocs", f"{OUT}/bitnami"
    helmdocs_chart(hd)
    bitnami_chart(bn)
    gt = f"{OUT}/gotmpl"
    helmdocs_chart(gt)
    w(f"{gt}/README.md.gotmpl", '{{ template "chart.header" . }}\n{{ template "chart.description" . }}\n\n'
      '{{ template "chart.valuesSection" . }}\n')
    gh = f"{OUT}/gotmpl-html"
    helmdocs_chart(gh)
    w(f"{gh}/README.md.gotmpl", '{{ template "chart.header" . }}\n{{ template "chart.valuesSectionHtml" . }}\n')
    w(f"{OUT}/readme/README.md", "# intro\n\n<!-- schemadoc:start -->\n<!-- schemadoc:end -->\n")
    w(f"{OUT}/params/README.md", "# intro\n\n## Parameters\n\n| Key | Description |\n|---|---|\n| a | b |\n\n## More\n")
    runs = {
        "md-page": ([hd, "--format", "md", "-o", f"{OUT}/md-page.md"], f"{OUT}/md-page.md"),
        "readme": ([hd, "--readme", f"{OUT}/readme/README.md"], f"{OUT}/readme/README.md"),
        "params": ([hd, "--readme", f"{OUT}/params/README.md"], f"{OUT}/params/README.md"),
        "gotmpl": ([gt, "--format", "md", "-o", f"{OUT}/gotmpl.md"], f"{OUT}/gotmpl.md"),
        "gotmpl-html": ([gh, "--format", "md", "-o", f"{OUT}/gotmpl-html.md"], f"{OUT}/gotmpl-html.md"),
        "bitnami": ([bn, "--readme", f"{bn}/README.md"], f"{bn}/README.md"),
    }
    for name, (argv, out) in runs.items():
        # the README files are outside the chart: allowed by name for the test
        r = subprocess.run([SD] + argv + (["--lenient"] if name == "bitnami" else []),
                           capture_output=True, text=True, env=dict(os.environ, NO_COLOR="1"))
        if r.returncode != 0:
            failed += 1
            print(f"FAIL: {name}: exit {r.returncode}: {r.stderr[-400:]}")
            continue
        md = open(out, encoding="utf-8").read()
        html = md_to_html(md)
        w(f"{OUT}/{name}.html", "<!DOCTYPE html><meta charset=utf-8><title>" + name + "</title>\n" + html)
        c = Live()
        c.feed(html)
        c.close()
        text = "".join(c.text)
        want = VISIBLE if name != "bitnami" else ["desc", "onerror=alert(4)", "alert(7)"]
        for v in want:
            if v not in text:
                c.problems.append(f"payload text not visible: {v}")
        # as GitHub shows it (tagfilter, then its allowlist): every line of
        # the chart's text reads as the chart wrote it
        lines = GH_LINES if name != "bitnami" else GH_LINES_BN
        for miss in reads_as_written(md_to_html(md, github=True), lines):
            c.problems.append(f"GitHub does not show as written: {miss}")
        if c.problems:
            failed += 1
            print(f"FAIL: {name}: " + "; ".join(sorted(set(c.problems))[:12]))
        else:
            passed += 1
            print(f"ok: {name}: no element, script or handler from the chart; the text is shown")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
