#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/ux/phone_check.py PAGE.html WIDTH... - load a schemadoc page in
headless Chromium emulating a phone of each WIDTH (CSS px, 800 high, touch,
mobile viewport) and check the phone layout (issue 17):

  - no horizontal scroll: the document is no wider than the screen;
  - the filter box comes before the table of contents, and within the first
    screen;
  - every entry's key path wraps inside the screen.

Talks to Chromium over the DevTools protocol on a pipe
(--remote-debugging-pipe: JSON messages ended by NUL on fds 3 and 4), so
nothing but Debian's chromium is needed. Prints one line per width and
"figure:" lines; exits 1 on a failed check, 77 when Chromium cannot start."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

MEASURE = r"""((vw) => {
  const de = document.documentElement;
  const top = e => e ? e.getBoundingClientRect().top + window.scrollY : -1;
  const search = document.getElementById('sd-search');
  const toc = document.querySelector('.toc');
  const wide = [];
  for (const e of document.querySelectorAll('body *')) {
    const r = e.getBoundingClientRect();
    if (r.width && r.right > vw + 1 && !e.closest('pre') && getComputedStyle(e).position !== 'fixed')
      wide.push((e.tagName + '.' + e.className + ' ' + (e.textContent || '').slice(0, 50)).slice(0, 90) + ' right=' + Math.round(r.right));
  }
  const keys = [...document.querySelectorAll('.entry .key code, .c-key code')];
  const keysOut = keys.filter(k => k.getBoundingClientRect().right > vw + 1).length;
  return {vw, docWidth: de.scrollWidth, searchTop: Math.round(top(search)),
          searchVisible: !!(search && search.offsetParent),
          tocTop: Math.round(top(toc)), wide: wide.slice(0, 8), keys: keys.length, keysOut};
})(SCREEN)"""


class Browser:
    def __init__(self):
        exe = shutil.which("chromium") or shutil.which("chromium-browser")
        if not exe:
            raise OSError("no chromium")
        self.r_cmd, self.w_cmd = os.pipe()   # we write commands, Chromium reads fd 3
        self.r_out, self.w_out = os.pipe()   # Chromium writes fd 4, we read
        self.profile = tempfile.mkdtemp(prefix="ux-phone-")

        def fds():
            # through spare numbers: dup2(3, 3) would keep close-on-exec
            a, b = os.dup(self.r_cmd), os.dup(self.w_out)
            os.dup2(a, 3)
            os.dup2(b, 4)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)
        self.proc = subprocess.Popen(
            [exe, "--headless=new", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             "--no-first-run", "--user-data-dir=" + self.profile, "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=fds, close_fds=False)
        os.close(self.r_cmd)
        os.close(self.w_out)
        self.buf = b""
        self.next = 0
        self.events = []

    def send(self, method, params=None, session=None):
        self.next += 1
        msg = {"id": self.next, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.w_cmd, json.dumps(msg).encode() + b"\0")
        want = self.next
        while True:
            m = self.read()
            if m.get("id") == want:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            self.events.append(m)

    def read(self):
        while b"\0" not in self.buf:
            chunk = os.read(self.r_out, 1 << 16)
            if not chunk:
                raise OSError("chromium closed the pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def wait_event(self, method):
        for i, e in enumerate(self.events):
            if e.get("method") == method:
                del self.events[i]
                return e
        while True:
            e = self.read()
            if e.get("method") == method:
                return e

    def close(self):
        try:
            self.send("Browser.close")
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


def measure(b, url, width):
    t = b.send("Target.createTarget", {"url": "about:blank"})["targetId"]
    s = b.send("Target.attachToTarget", {"targetId": t, "flatten": True})["sessionId"]
    b.send("Emulation.setDeviceMetricsOverride",
           {"width": width, "height": 800, "deviceScaleFactor": 2, "mobile": True}, s)
    b.send("Emulation.setTouchEmulationEnabled", {"enabled": True}, s)
    b.send("Page.enable", {}, s)
    b.send("Page.navigate", {"url": url}, s)
    b.wait_event("Page.loadEventFired")
    r = b.send("Runtime.evaluate", {"expression": MEASURE.replace("SCREEN", str(width)),
                                    "returnByValue": True}, s)
    b.send("Target.closeTarget", {"targetId": t})
    return r["result"]["value"]


def main():
    page, widths = sys.argv[1], [int(w) for w in sys.argv[2:]]
    url = "file://" + os.path.abspath(page)
    try:
        b = Browser()
    except OSError as e:
        print("SKIPPED: cannot start chromium: %s" % e)
        return 77
    bad = 0
    try:
        for w in widths:
            m = measure(b, url, w)
            fails = []
            if m["docWidth"] > w:
                fails.append("page %d px wide on a %d px screen: %s" % (m["docWidth"], w, "; ".join(m["wide"])))
            if not m["searchVisible"]:
                fails.append("no filter box")
            elif m["tocTop"] >= 0 and m["searchTop"] > m["tocTop"]:
                fails.append("filter at %d px, after the contents at %d px" % (m["searchTop"], m["tocTop"]))
            elif m["searchTop"] > 800:
                fails.append("filter %d px down, below the first screen" % m["searchTop"])
            if m["keysOut"]:
                fails.append("%d of %d key paths overflow" % (m["keysOut"], m["keys"]))
            print("figure: phone %s at %d px: page %d px wide, filter %d px down, %d keys" %
                  (os.path.basename(page), w, m["docWidth"], m["searchTop"], m["keys"]))
            for f in fails:
                print("FAIL: %s at %d px: %s" % (page, w, f))
            bad += bool(fails)
    finally:
        b.close()
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
