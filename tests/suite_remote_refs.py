#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/suite_remote_refs.py - the JSON-Schema-Test-Suite groups whose
schema names http://localhost:1234/, through the command line with the
suite's remotes mapped (--map http://localhost:1234/=REMOTES/), as a user
would run them: `rules` exports each group (status 0), and `validate` gives
each test its expected verdict. A resource the schema embeds (`"$id":
"nested.json"` under the root's base) is known before the map is asked.

Usage: suite_remote_refs.py SCHEMADOC CORPUS TMPDIR
Prints failures, then "count:" lines; exit 1 on any failure."""
import json
import os
import subprocess
import sys

sd, corpus, tmp = sys.argv[1:4]
remotes = os.path.join(corpus, "jsonschema-test-suite", "remotes") + "/"
drafts = {"draft4": "4", "draft6": "6", "draft7": "7", "draft2019-09": "2019-09", "draft2020-12": "2020-12"}
groups = tests = bad = 0
for draft, dname in drafts.items():
    d = os.path.join(corpus, "jsonschema-test-suite", "tests", draft)
    for f in sorted(os.listdir(d)):
        if not f.endswith(".json"):
            continue
        for gi, g in enumerate(json.load(open(os.path.join(d, f)))):
            text = json.dumps(g["schema"])
            if "localhost:1234" not in text:
                continue
            groups += 1
            schema = os.path.join(tmp, "schema.json")
            json.dump(g["schema"], open(schema, "w"))
            common = ["--draft", dname, "--map", "http://localhost:1234/=" + remotes, "--offline",
                      "--cache-dir", os.path.join(tmp, "cache")]
            r = subprocess.run([sd, "rules", schema, "-o", os.path.join(tmp, "rules.json")] + common,
                               capture_output=True, text=True)
            if r.returncode != 0:
                bad += 1
                print("FAIL rules %s %s #%d %s: %s" % (draft, f, gi, g["description"], r.stderr.strip()[:300]))
                continue
            files = []
            for ti, t in enumerate(g["tests"]):
                p = os.path.join(tmp, "t%d.json" % ti)
                json.dump(t["data"], open(p, "w"))
                files.append(p)
            r = subprocess.run([sd, "validate", schema] + files + ["--output", "json"] + common,
                               capture_output=True, text=True)
            try:
                res = json.loads(r.stdout)
            except ValueError:
                bad += 1
                print("FAIL validate %s %s #%d: %s" % (draft, f, gi, r.stderr.strip()[:300]))
                continue
            for t, out in zip(g["tests"], res):
                tests += 1
                if out["valid"] != t["valid"] or out.get("inputErrors"):
                    bad += 1
                    print("FAIL %s %s #%d %s / %s: valid %s, expected %s %s" % (
                        draft, f, gi, g["description"], t["description"], out["valid"], t["valid"],
                        out.get("inputErrors", "")))
print("count: remote-ref groups exported through rules with the remotes mapped: %d (%d tests validated)" % (groups, tests))
sys.exit(1 if bad else 0)
