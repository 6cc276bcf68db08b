#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/diff_oracle.py - check `schemadoc diff --format json` of two charts
against an independent flattening of their two values.yaml files (PyYAML,
Debian's python3-yaml; no code shared with schemadoc).

Every key in one values.yaml and not the other must be listed as added,
removed or renamed; every value that differs between two leaves at the same
path (or at the two ends of a rename) must be listed as a default (or type)
change. Maps with keys are walked; anything else (scalars, lists, empty maps)
is a leaf. Prints "N checked, M missing" and the misses; exits 1 on a miss.

usage: diff_oracle.py OLD/values.yaml NEW/values.yaml diff.json
"""
import json
import re
import sys

import yaml


class Loader12(yaml.SafeLoader):
    """YAML 1.2 core booleans only (true/false): helm reads 'on'/'yes' as strings."""


Loader12.yaml_implicit_resolvers = {
    k: [(tag, rx) for tag, rx in v if tag != 'tag:yaml.org,2002:bool']
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
Loader12.add_implicit_resolver(
    'tag:yaml.org,2002:bool', re.compile(r'^(?:true|True|TRUE|false|False|FALSE)$'), list('tTfF'))


def key_text(k):
    k = str(k)
    return '"%s"' % k if ('.' in k or ' ' in k) else k


def flatten(doc, prefix='', out=None):
    if out is None:
        out = {}
    for k, v in doc.items():
        p = (prefix + '.' if prefix else '') + key_text(k)
        if isinstance(v, dict) and v:
            out[p] = ('map', None)
            flatten(v, p, out)
        else:
            out[p] = ('leaf', v)
    return out


def main():
    old = flatten(yaml.load(open(sys.argv[1]), Loader=Loader12) or {})
    new = flatten(yaml.load(open(sys.argv[2]), Loader=Loader12) or {})
    changes = json.load(open(sys.argv[3]))['changes']
    by = {}
    renamed_to, renamed_from = {}, {}
    for c in changes:
        by.setdefault((c['change'], c['path']), c)
        if c['change'] == 'renamed':
            renamed_to[c['from']] = c['to']
            renamed_from[c['to']] = c['from']
    missing, checked, schema_only = [], 0, 0

    def default_gone(p, side):
        # the key left one values.yaml but the other side's schema still has
        # it: its default (or a default under it) changes to/from nothing
        for c in changes:
            if c['change'] == 'default' and (c['path'] == p or c['path'].startswith(p + '.')) \
                    and c['to' if side == 'old' else 'from'] is None:
                return True
        return False
    for p in old:
        if p not in new:
            checked += 1
            if ('removed', p) not in by and p not in renamed_to:
                if default_gone(p, 'old'):
                    schema_only += 1
                else:
                    missing.append('key only in OLD, not removed/renamed: ' + p)
    for p in new:
        if p not in old:
            checked += 1
            if ('added', p) not in by and p not in renamed_from:
                if default_gone(p, 'new'):
                    schema_only += 1
                else:
                    missing.append('key only in NEW, not added/renamed: ' + p)
    pairs = [(p, p) for p in old if p in new] + [(f, t) for f, t in renamed_to.items() if f in old and t in new]
    ndefaults = 0
    for f, t in pairs:
        (ko, vo), (kn, vn) = old[f], new[t]
        if ko == 'leaf' and kn == 'leaf':
            if json.dumps(vo, sort_keys=True, default=str) != json.dumps(vn, sort_keys=True, default=str):
                checked += 1
                ndefaults += 1
                if ('default', t) not in by and ('type', t) not in by:
                    missing.append('default differs, not listed: %s: %r -> %r' % (t, vo, vn))
                elif ('default', t) in by:
                    c = by[('default', t)]
                    if json.dumps(c['from'], sort_keys=True) != json.dumps(vo, sort_keys=True, default=str) or \
                       json.dumps(c['to'], sort_keys=True) != json.dumps(vn, sort_keys=True, default=str):
                        missing.append('default listed with other values: %s: %r -> %r, listed %r -> %r'
                                       % (t, vo, vn, c['from'], c['to']))
        elif ko != kn:
            checked += 1
            if ('default', t) not in by and ('type', t) not in by:
                missing.append('a map on one side, a value on the other, not listed: ' + t)
    # and nothing listed that the files contradict
    for c in changes:
        if c['change'] == 'added' and c['path'] in old:
            missing.append('listed as added but in OLD: ' + c['path'])
        if c['change'] == 'removed' and c['path'] in new:
            missing.append('listed as removed but in NEW: ' + c['path'])
    for m in missing:
        print(m)
    print('keys only in OLD: %d, only in NEW: %d, renamed: %d, differing values: %d, '
          'still in the other schema (default gone): %d'
          % (len([p for p in old if p not in new]), len([p for p in new if p not in old]),
             len(renamed_to), ndefaults, schema_only))
    print('%d checked, %d missing' % (checked, len(missing)))
    sys.exit(1 if missing else 0)


main()
