#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/render/xss_check.py [--md] PAGE [--payloads TEXT...] - assert that a page rendered
from a hostile fixture (tests/render/hostile, hostile-ytt) runs nothing from
the chart: exactly one script element (ours), no event-handler attributes,
no javascript:, vbscript: or data: URLs, no embedding elements; and that the
payload text is still shown (the fixture's own list, or --payloads). With
--md the Markdown page is first turned into HTML by libcmark-gfm with raw
HTML allowed (CMARK_OPT_UNSAFE: what a viewer that does not sanitize shows),
and no script element at all may appear; every heading (definition names,
details keys) and example title is covered, and no code fence of an
example may end before its example does.
Prints problems and exits 1 if any."""
import ctypes
import sys
from html.parser import HTMLParser

BAD_TAGS = {"iframe", "img", "svg", "object", "embed", "frame", "base", "form", "link", "meta_refresh"}
URL_ATTRS = {"href", "src", "action", "formaction", "xlink:href", "srcset", "poster", "data"}


class Check(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.problems, self.scripts, self.text = [], 0, []
        self.in_script = False

    def handle_starttag(self, tag, attrs):
        if tag == "script":
            self.scripts += 1
            self.in_script = True
            if attrs:
                self.problems.append(f"script with attributes {attrs}")
        if tag in BAD_TAGS:
            self.problems.append(f"element <{tag}> {attrs}")
        if tag == "meta" and any(k == "http-equiv" and (v or "").lower() == "refresh" for k, v in attrs):
            self.problems.append("meta refresh")
        for k, v in attrs:
            if k.startswith("on"):
                self.problems.append(f"event handler {k}={v!r} on <{tag}>")
            if k in URL_ATTRS and v is not None:
                u = "".join(ch for ch in v if ch > " ").lower()
                if u.startswith(("javascript:", "vbscript:", "data:")):
                    self.problems.append(f"{k}={v!r} on <{tag}>")
            if k == "style" and "url(" in (v or ""):
                self.problems.append(f"style with url() on <{tag}>")

    handle_startendtag = handle_starttag

    def handle_endtag(self, tag):
        if tag == "script":
            self.in_script = False

    def handle_data(self, data):
        if not self.in_script:
            self.text.append(data)


def md_to_html(path):
    lib = ctypes.CDLL("libcmark-gfm.so")
    lib.cmark_markdown_to_html.restype = ctypes.c_void_p
    lib.cmark_markdown_to_html.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_int]
    md = open(path, "rb").read()
    p = lib.cmark_markdown_to_html(md, len(md), 1 << 17)  # CMARK_OPT_UNSAFE
    return ctypes.string_at(p).decode("utf-8")


def main():
    args = sys.argv[1:]
    md = args[0] == "--md"
    if md:
        args = args[1:]
    own = None
    if "--payloads" in args:
        own = args[args.index("--payloads") + 1:]
        args = args[:args.index("--payloads")]
    page = md_to_html(args[0]) if md else open(args[0], encoding="utf-8").read()
    c = Check()
    c.feed(page)
    c.close()
    if c.scripts != (0 if md else 1):
        c.problems.append(f"{c.scripts} script elements, expected {0 if md else 1}")
    text = "".join(c.text)
    for payload in own if own is not None else [
                    "<script>alert('key')</script>", "<script>alert('title')</script>",
                    "evil<script>alert('name')</script>", "</script><script>alert('default')</script>",
                    "alert('example')", "<img src=x onerror=alert('enum')>", "^<script>alert('pattern')</script>$",
                    "<script>alert('defaulttext')</script>", "<b onclick=alert(5)>Mallory</b>",
                    "javascript:alert('home')", "<iframe src=javascript:alert(14)>",
                    "onerror=alert(22", "alert(27)",
                    # issue 36 item 13: a $defs name (headings, "in definition"),
                    # its description, a CEL rule and message, a fence breaker
                    "x`<svg onload=alert(30)>`y", "<img src=x onerror=alert(31)>",
                    "`<img src=x onerror=alert(32)>`", "<img src=x onerror=alert(33)>",
                    "<img src=x onerror=alert(34)>"]:
        if md and payload in ("<script>alert('title')</script>", "javascript:alert('home')"):
            continue   # the Markdown page shows neither titles nor an unsafe homepage
        if not md and payload in ("<img src=x onerror=alert(31)>",):
            continue   # the html page shows a definition's description in its own entry
        if not md and payload == "onerror=alert(22":
            continue   # a helm-docs type override is a Markdown-table thing
        if payload not in text:
            c.problems.append(f"payload text not visible: {payload}")
    for p in c.problems:
        print("xss:", p)
    sys.exit(1 if c.problems else 0)


main()
