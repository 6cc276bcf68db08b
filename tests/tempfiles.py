#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/tempfiles.py SD - temporary files and output files as a user meets
them from a shell (issue 36 items 2 and 16), with the command line itself:

- a packaged chart's temporary folder goes when `schemadoc diff` is
  interrupted (SIGINT, SIGTERM, SIGHUP) or fails, and the process dies of
  the signal it got;
- `-o FILE` interrupted while the page is being written leaves no
  FILE.tmpXXXXXX and FILE as it was;
- `-o FILE` over an existing file keeps its mode and its hard links;
- `-o LINK` (a symbolic link, or a dangling one) is refused with exit 2,
  the link and what it points to untouched; `-o /dev/stdout` still works.

The inputs are generated (a 40,000-key schema and chart, big enough that
the run is still going when the signal comes). Each run starts with the
three signals at their default action, as from a terminal (a background
job of a script starts with SIGINT ignored). Prints one line per check and
"N passed, N failed" last."""
import gzip
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time

SD = sys.argv[1]
passed = failed = 0


def check(ok, what, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL: {what}" + (f": {detail}" if detail else ""))


def default_signals():
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, signal.SIG_DFL)
    os.setsid()


def start(argv, cwd, env=None):
    return subprocess.Popen([SD] + argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, preexec_fn=default_signals,
                            env=dict(os.environ, NO_COLOR="1", **(env or {})))


def run(argv, cwd, env=None):
    p = subprocess.run([SD] + argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       stdin=subprocess.DEVNULL, preexec_fn=default_signals, timeout=120,
                       env=dict(os.environ, NO_COLOR="1", **(env or {})))
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def wait_for(pred, p, limit=60.0):
    """Poll until pred() holds (True) or the process ended (False)."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < limit:
        if pred():
            return True
        if p.poll() is not None:
            return False
        time.sleep(0.002)
    return False


def interrupt(name, argv, cwd, seen, sig, env=None):
    """Start argv, send sig once seen() holds; returns (caught in time,
    exit status) - exit status -sig when the process died of it."""
    p = start(argv, cwd, env)
    caught = wait_for(seen, p)
    if caught:
        p.send_signal(sig)
    try:
        p.wait(timeout=120)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    return caught, p.returncode


def main():
    base = tempfile.mkdtemp(prefix="sd-tempfiles-")
    try:
        # --- inputs ---------------------------------------------------------
        props = {"key%05d" % i: {"type": "string", "default": "v%d" % i,
                                 "description": "Entry %d, with *Markdown* and `code`." % i}
                 for i in range(40000)}
        with open(f"{base}/big.schema.json", "w") as f:
            json.dump({"type": "object", "properties": props}, f)
        values = "".join("# -- entry %d\nkey%05d: v%d\n" % (i, i, i) for i in range(40000)).encode()
        chart = b"apiVersion: v2\nname: big\nversion: 1.0.0\n"
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w") as t:
            for name, data in (("big/Chart.yaml", chart), ("big/values.yaml", values)):
                i = tarfile.TarInfo(name)
                i.size = len(data)
                t.addfile(i, io.BytesIO(data))
        with open(f"{base}/big.tgz", "wb") as f:
            f.write(gzip.compress(buf.getvalue()))

        # --- item 2: the unpacked chart goes on a signal, and on a failure ---
        tmp = f"{base}/tmp"
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            os.makedirs(tmp)
            caught, rc = interrupt("diff", ["diff", "big.tgz", "big.tgz"], base,
                                   lambda: any(n.startswith("schemadoc-chart-") for n in os.listdir(tmp)),
                                   sig, dict(TMPDIR=tmp))
            left = os.listdir(tmp)
            check(caught, f"diff {sig.name}: the unpacked chart was seen in $TMPDIR while it ran")
            check(rc == -sig, f"diff {sig.name}: died of the signal", f"exit status {rc}")
            check(caught and not left, f"diff {sig.name}: $TMPDIR empty afterwards", f"left {left}")
            shutil.rmtree(tmp)
        os.makedirs(tmp)
        rc, _, err = run(["diff", "big.tgz", "big.schema.json"], base, dict(TMPDIR=tmp))
        check(rc == 2 and "different kinds of source" in err, "diff of a chart and a schema: refused", err[-300:])
        check(not os.listdir(tmp), "a failed diff leaves $TMPDIR empty", str(os.listdir(tmp)))
        shutil.rmtree(tmp)

        # --- item 16: -o interrupted while the page is written ----------------
        out = f"{base}/out.html"
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            with open(out, "w") as f:
                f.write("before\n")
            caught, rc = interrupt("render", ["big.schema.json", "--format", "html", "-o", "out.html"], base,
                                   lambda: any(n.startswith("out.html.tmp") for n in os.listdir(base)), sig)
            left = [n for n in os.listdir(base) if n.startswith("out.html.tmp")]
            check(caught, f"-o {sig.name}: the temporary file was seen while the page was written")
            check(rc == -sig, f"-o {sig.name}: died of the signal", f"exit status {rc}")
            check(caught and not left, f"-o {sig.name}: no temporary file left", str(left))
            check(open(out).read() == "before\n", f"-o {sig.name}: the file is as it was")

        # --- item 16: mode, hard links, symbolic links -------------------------
        small = f"{base}/small.schema.json"
        with open(small, "w") as f:
            json.dump({"type": "object", "properties": {"a": {"type": "string"}}}, f)
        # 0600 (the case; also what mkstemp makes) and 0640 (neither
        # mkstemp's mode nor the umask's: a check that the mode is copied)
        for mode in (0o600, 0o640):
            with open(out, "w") as f:
                f.write("before\n")
            os.chmod(out, mode)
            rc, _, err = run(["small.schema.json", "--format", "md", "-o", "out.html"], base)
            check(rc == 0 and os.stat(out).st_mode & 0o7777 == mode, f"-o over a {mode:04o} file keeps {mode:04o}",
                  f"exit {rc}, mode {oct(os.stat(out).st_mode & 0o7777)} {err[-200:]}")
        os.chmod(out, 0o644)
        os.link(out, f"{base}/second-name.html")
        with open(out, "w") as f:
            f.write("before\n")
        rc, _, err = run(["small.schema.json", "--format", "md", "-o", "out.html"], base)
        st, st2 = os.stat(out), os.stat(f"{base}/second-name.html")
        check(rc == 0 and st.st_ino == st2.st_ino and st.st_nlink == 2, "-o over a hard-linked file keeps the link",
              f"exit {rc}, inodes {st.st_ino} {st2.st_ino}, links {st.st_nlink}")
        check(open(f"{base}/second-name.html").read().startswith("#"), "the other name sees the new text")

        os.symlink("second-name.html", f"{base}/link.md")
        before = open(out).read()
        rc, _, err = run(["small.schema.json", "--format", "md", "-o", "link.md"], base)
        check(rc == 2 and "link.md: error: refusing to write through a symbolic link" in err,
              "-o through a symbolic link: refused", f"exit {rc} {err[-200:]}")
        check(os.path.islink(f"{base}/link.md") and open(out).read() == before,
              "the link and its target are untouched")
        os.symlink("nowhere.md", f"{base}/dangling.md")
        rc, _, err = run(["small.schema.json", "--format", "md", "-o", "dangling.md"], base)
        check(rc == 2 and os.path.islink(f"{base}/dangling.md") and not os.path.exists(f"{base}/nowhere.md"),
              "-o through a dangling link: refused, nothing made", f"exit {rc} {err[-200:]}")
        rc, so, err = run(["small.schema.json", "--format", "md", "-o", "/dev/stdout"], base)
        check(rc == 0 and so.startswith(b"#"), "-o /dev/stdout writes to stdout", f"exit {rc} {err[-200:]}")
        left = [n for n in os.listdir(base) if ".tmp" in n]
        check(not left, "no temporary file anywhere", str(left))
    finally:
        shutil.rmtree(base, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
