#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/spdx.py - every source file of the repository names its licence on an
SPDX-License-Identifier line near its top (CONTRIBUTING.md).

usage: python3 tests/spdx.py          list the files without one; exit 1 if any
       python3 tests/spdx.py --fix    add the line to them (after a #! line)

Source files: C (.c .h .def .map), JavaScript (.js .mjs), shell and Python
(.sh .py, Makefile, .ci/run, .pc.in), and the Mustache templates of
templates/ and themes/. Test data (tests/golden, fixtures, fuzz seeds,
samples/) is data, not source. Generated files carry the line because their
generators write it."""
import os
import subprocess
import sys

TAG = "SPDX-License-Identifier:"
LINE = {"c": "/* SPDX-License-Identifier: Apache-2.0 */", "js": "// SPDX-License-Identifier: Apache-2.0",
        "hash": "# SPDX-License-Identifier: Apache-2.0", "mustache": "{{! SPDX-License-Identifier: Apache-2.0 }}"}


def style(f):
    base, ext = os.path.basename(f), os.path.splitext(f)[1]
    if f.startswith(("tests/golden/", "tests/fuzz/corpus", "tests/fuzz/seeds", "samples/")) or "/fixtures/" in f:
        return None
    if ext in (".c", ".h", ".def", ".map"):
        return "c"
    if ext in (".js", ".mjs"):
        return "js"
    if ext in (".sh", ".py") or base == "Makefile" or f in (".ci/run", "src/schemadoc.pc.in"):
        return "hash"
    if ext == ".mustache" and f.startswith(("templates/", "themes/")):
        return "mustache"
    return None


def main():
    fix = "--fix" in sys.argv[1:]
    files = subprocess.run(["git", "ls-files"], capture_output=True, text=True, check=True).stdout.split("\n")
    checked, missing = 0, []
    for f in files:
        st = style(f) if f else None
        if not st or not os.path.isfile(f):
            continue
        checked += 1
        text = open(f, encoding="utf-8").read()
        if TAG in text[:400]:
            continue
        missing.append(f)
        if fix:
            lines = text.split("\n")
            lines.insert(1 if lines and lines[0].startswith("#!") else 0, LINE[st])
            open(f, "w", encoding="utf-8").write("\n".join(lines))
    for f in missing:
        print(("fixed: " if fix else "FAIL: no SPDX-License-Identifier line: ") + f)
    print(f"count: {checked} source files, {len(missing)} without an SPDX line" + (" (fixed)" if fix else ""))
    return 0 if fix or not missing else 1


if __name__ == "__main__":
    sys.exit(main())
