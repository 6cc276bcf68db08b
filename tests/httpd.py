#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""httpd.py - a loopback HTTP server for schemadoc's fetch tests (stdlib only).

    python3 tests/httpd.py [--port N] [--root DIR] [--time-limit S]

Listens on 127.0.0.1 (port 0 = pick a free one) and prints "port N" on
stdout once it accepts connections. It exits by itself after --time-limit
seconds (default 120), on GET /__stop, or when the process that started it
(or the one named by --parent PID) ends, so a test that dies does not leave
it behind.

Routes:
    /<path>                  a file under --root (404 when missing)
    /__status/<code>         an empty response with that status
    /__slow/<ms>/<path>      waits <ms> milliseconds, then serves <path>
    /__big/<bytes>           a body of <bytes> bytes with Content-Length
    /__big-nolength/<bytes>  the same without Content-Length (ends at close)
    /__redirect?to=<url>     302 to <url> (e.g. file:///etc/passwd)
    /__chain/<n>/<path>      302 to /__chain/<n-1>/<path>; /__chain/0/<path> serves <path>
    /__loop                  302 to itself
    /__count?path=<path>     how many requests <path> received so far (text)
    /__header/<name>         the value of request header <name> (text)
    /__stop                  shuts the server down

To serve the JSON-Schema-Test-Suite remotes for its run:
    python3 tests/httpd.py --port 1234 --root .../jsonschema-test-suite/remotes
"""
import argparse
import http.server
import os
import posixpath
import sys
import threading
import time
import urllib.parse

COUNTS = {}
LOCK = threading.Lock()
ROOT = "."


class Handler(http.server.BaseHTTPRequestHandler):
    server_version = "sd-test-httpd"
    protocol_version = "HTTP/1.0"

    def log_message(self, fmt, *args):  # keep test output quiet
        pass

    def send_body(self, code, body, ctype="application/json", length=True):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        if length:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            try:
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass

    def redirect(self, to):
        self.send_response(302)
        self.send_header("Location", to)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def serve_file(self, rel):
        rel = posixpath.normpath("/" + urllib.parse.unquote(rel)).lstrip("/")
        path = os.path.join(ROOT, rel)
        if not os.path.isfile(path):
            self.send_body(404, b"not found\n", "text/plain")
            return
        with open(path, "rb") as f:
            body = f.read()
        ctype = "application/json" if path.endswith(".json") else "application/yaml"
        self.send_body(200, body, ctype)

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        path, query = url.path, urllib.parse.parse_qs(url.query)
        with LOCK:
            COUNTS[path] = COUNTS.get(path, 0) + 1
        parts = path.split("/")  # ['', '__slow', '500', 'a.json']
        head = parts[1] if len(parts) > 1 else ""
        if head == "__stop":
            self.send_body(200, b"bye\n", "text/plain")
            threading.Thread(target=self.server.shutdown, daemon=True).start()
        elif head == "__count":
            with LOCK:
                n = COUNTS.get(query.get("path", [""])[0], 0)
            self.send_body(200, b"%d\n" % n, "text/plain")
        elif head == "__header" and len(parts) > 2:
            value = self.headers.get(parts[2], "")
            self.send_body(200, value.encode(), "text/plain")
        elif head == "__status" and len(parts) > 2:
            self.send_body(int(parts[2]), b"", "text/plain")
        elif head == "__slow" and len(parts) > 3:
            time.sleep(int(parts[2]) / 1000.0)
            self.serve_file("/".join(parts[3:]))
        elif head in ("__big", "__big-nolength") and len(parts) > 2:
            n = int(parts[2])
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            if head == "__big":
                self.send_header("Content-Length", str(n))
            self.end_headers()
            chunk = b" " * 65536
            try:
                while n > 0:
                    self.wfile.write(chunk[:min(n, len(chunk))])
                    n -= len(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass
        elif head == "__redirect":
            self.redirect(query.get("to", ["/"])[0])
        elif head == "__chain" and len(parts) > 3:
            n = int(parts[2])
            rest = "/".join(parts[3:])
            if n <= 0:
                self.serve_file(rest)
            else:
                self.redirect("/__chain/%d/%s" % (n - 1, rest))
        elif head == "__loop":
            self.redirect("/__loop")
        else:
            self.serve_file(path)

    do_HEAD = do_GET


def main():
    global ROOT
    ap = argparse.ArgumentParser(description="loopback test server")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--root", default="tests/resolve/http")
    ap.add_argument("--time-limit", type=float, default=120.0)
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--parent", type=int, default=0,
                    help="exit when this process is gone (default: the parent)")
    args = ap.parse_args()
    ROOT = os.path.abspath(args.root)

    httpd = http.server.ThreadingHTTPServer((args.host, args.port), Handler)
    httpd.daemon_threads = True

    def stop_later():
        time.sleep(args.time_limit)
        httpd.shutdown()

    def stop_when_orphaned():
        start_ppid = os.getppid()
        parent = args.parent or start_ppid

        def alive():
            try:
                os.kill(parent, 0)
            except ProcessLookupError:
                return False
            except PermissionError:
                pass
            return os.getppid() == start_ppid

        while alive():
            time.sleep(0.2)
        httpd.shutdown()

    threading.Thread(target=stop_later, daemon=True).start()
    threading.Thread(target=stop_when_orphaned, daemon=True).start()
    print("port %d" % httpd.server_address[1], flush=True)
    try:
        httpd.serve_forever(poll_interval=0.1)
    finally:
        httpd.server_close()


if __name__ == "__main__":
    main()
