#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# tests/render/adoc_check.py - asciidoctor's HTML of the adoc-hostile chart's
# page shows every hostile string as text: each line of each description,
# title, enum value and example is in the page's text, whitespace aside (so
# no markup, passthrough, macro, attribute or directive of it was read),
# and the page has no element the strings would have made.
# Usage: adoc_check.py PAGE.html CHART_DIR
import json, re, sys
from html.parser import HTMLParser

class Text(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts, self.tags, self.bad = [], set(), []
    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        for k, v in attrs:
            if k.startswith("on") or (k in ("href", "src") and (v or "").strip().lower().startswith(("javascript:", "data:"))):
                self.bad.append((tag, k, v))
    def handle_data(self, d):
        self.parts.append(d)

def norm(s):
    return re.sub(r"\s+", " ", s).strip()

page, chart = sys.argv[1], sys.argv[2]
t = Text()
t.feed(open(page, encoding="utf-8").read())
text = norm(" ".join(t.parts))
schema = json.load(open(chart + "/values.schema.json", encoding="utf-8"))
want = []
for prop in schema["properties"].values():
    for k in ("description", "title"):
        want += prop.get(k, "").split("\n")
    want += [str(e) for e in prop.get("enum", [])]
    for ex in prop.get("examples", []):
        want += ex.split("\n")
fails = 0
for w in want:
    if norm(w) and norm(w) not in text:
        print("FAIL: not shown as text:", repr(w))
        fails += 1
for tag in ("script", "img", "b", "i", "u", "mark", "sup", "sub", "kbd", "iframe", "table"):
    if tag in t.tags:
        print("FAIL: the page has a <%s> element" % tag)
        fails += 1
if t.bad:
    print("FAIL: live attributes:", t.bad[:3])
    fails += 1
if "root:" in text:
    print("FAIL: /etc/passwd was included")
    fails += 1
print("%d strings checked, %d failures" % (len(want), fails))
sys.exit(1 if fails else 0)
