/* SPDX-License-Identifier: Apache-2.0 */
/* diff.c - compare two models key by key: added, removed, renamed or moved,
 * default, type, constraint, deprecation and description changes, and the
 * versions of a CRD. In: two models (docs/model.md) and their sources. Out:
 * the change list of docs/diff.md (an sd_val tree).
 *
 * Each model is flattened to its nodes (properties, items,
 * additionalProperties, patternProperties, definitions; a CRD's versions
 * each on their own), keyed by the node id. A node in both is compared; a
 * node in one only is added or removed, unless the rename rules of
 * rename.c pair it with one on the other side. */
#include "diff.h"
#include "alloc.h"
#include "diff_int.h"
#include "k8s.h"
#include "keywords.h"
#include "sd.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* --- flattening ---------------------------------------------------------- */

static int add_entry(dside *s, sd_val *n, const char *version, int parent, int depth)
{
    dentry *e;
    const char *id = sd_val_string_value(sd_val_object_get(n, "id"));
    const char *path = sd_val_string_value(sd_val_object_get(n, "path"));
    sd_val *props = sd_val_object_get(n, "properties");
    sd_buf key = SD_BUF_INIT;

    if (!id)
        return -1;
    if (sd_grow((void **)&s->e, &s->cap, s->n + 1, sizeof *s->e) < 0)
        return SD_ENOMEM;
    if (version)
        sd_buf_printf(&key, "%s\x1f%s", version, id);
    else
        sd_buf_puts(&key, id);
    if (sd_buf_failed(&key))
        return SD_ENOMEM;
    if (sd_val_object_get(s->index, key.ptr)) {  /* a combinator branch sharing an id */
        sd_buf_release(&key);
        return -1;
    }
    e = &s->e[s->n];
    memset(e, 0, sizeof *e);
    e->key = sd_buf_detach(&key);
    e->path = path ? path : id;
    e->n = n;
    e->version = version;
    e->parent = parent;
    e->depth = depth;
    e->has_props = sd_val_array_size(props) > 0;
    e->match = -1;
    e->similar = -1;
    if (sd_val_object_set_new(s->index, e->key, sd_val_integer((sd_val_int)s->n)) < 0) {
        free(e->key);
        return SD_ENOMEM;
    }
    return (int)s->n++;
}

static int walk(dside *s, sd_val *n, const char *version, int parent, int depth)
{
    static const char *const one[] = { "items", "additionalProperties", NULL };
    size_t i;
    sd_val *c;
    int me, r;

    if (!sd_val_is_object(n) || depth > 200)
        return 0;
    if ((me = add_entry(s, n, version, parent, depth)) == SD_ENOMEM)
        return SD_ENOMEM;
    if (me < 0)
        return 0;
    sd_val_array_foreach(sd_val_object_get(n, "properties"), i, c)
        if ((r = walk(s, c, version, me, depth + 1)) < 0)
            return r;
    for (const char *const *k = one; *k; k++)
        if ((r = walk(s, sd_val_object_get(n, *k), version, me, depth + 1)) < 0)
            return r;
    sd_val_array_foreach(sd_val_object_get(n, "patternProperties"), i, c)
        if ((r = walk(s, sd_val_object_get(c, "node"), version, me, depth + 1)) < 0)
            return r;
    sd_val_array_foreach(sd_val_object_get(n, "prefixItems"), i, c)
        if ((r = walk(s, c, version, me, depth + 1)) < 0)
            return r;
    return 0;
}

static int flatten(dside *s, const sd_val *m)
{
    sd_val *versions = sd_val_object_get(m, "versions"), *v, *d;
    size_t i;
    int r;

    s->index = sd_val_object();
    if (!s->index)
        return SD_ENOMEM;
    if (sd_val_array_size(versions) > 0) {
        sd_val_array_foreach(versions, i, v) {
            const char *name = sd_val_string_value(sd_val_object_get(v, "name"));
            if (name && (r = walk(s, sd_val_object_get(v, "root"), name, -1, 0)) < 0)
                return r;
        }
    } else if ((r = walk(s, sd_val_object_get(m, "root"), NULL, -1, 0)) < 0) {
        return r;
    }
    sd_val_array_foreach(sd_val_object_get(m, "definitions"), i, d)
        if ((r = walk(s, d, NULL, -1, 0)) < 0)
            return r;
    return 0;
}

static void side_release(dside *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->e[i].key);
    free(s->e);
    sd_val_decref(s->index);
    sd_val_decref(s->hints);
}

int sd_diff__lookup(const dside *s, const char *key)
{
    sd_val *i = sd_val_object_get(s->index, key);
    return i ? (int)sd_val_integer_value(i) : -1;
}

/* --- one change ---------------------------------------------------------- */

static sd_val *change(dctx *c, const dentry *at, const char *kind, sd_val *from, sd_val *to)
{
    sd_val *o = sd_val_object();

    if (!o) {
        sd_val_decref(from);
        sd_val_decref(to);
        c->oom = 1;
        return NULL;
    }
    sd_val_object_set_new_nocheck(o, "path", sd_val_string(at->path));
    sd_val_object_set_new_nocheck(o, "change", sd_val_string(kind));
    sd_val_object_set_new_nocheck(o, "from", from ? from : sd_val_null());
    sd_val_object_set_new_nocheck(o, "to", to ? to : sd_val_null());
    if (at->version)
        sd_val_object_set_new_nocheck(o, "version", sd_val_string(at->version));
    if (sd_val_array_append_new(c->changes, o) < 0) {
        c->oom = 1;
        return NULL;
    }
    return o;
}

static sd_val *get(const dentry *e, const char *k) { return sd_val_object_get(e->n, k); }
static sd_val *copy(sd_val *v) { return v ? sd_val_deep_copy(v) : sd_val_null(); }
static int entry_true(const dentry *e, const char *k) { return sd_val_is_true(get(e, k)); }

static const char *notice(const dentry *e)
{
    const char *s = sd_val_string_value(get(e, "deprecation"));
    return s ? s : sd_val_string_value(get(e, "removal"));
}

/* Deprecated in the schema (`deprecated`, ytt @schema/deprecated), or a
 * description (values.yaml comment) that says the word: "Deprecated: use
 * X", "(deprecated)", "@deprecated". *text is the notice to quote. */
static int deprecated_note(const dentry *e, const char **text)
{
    const char *d = sd_val_string_value(get(e, "description"));
    *text = notice(e);
    if (entry_true(e, "deprecated"))
        return 1;
    for (const char *p = d; p && *p; p++)
        if ((p == d || !isalpha((unsigned char)p[-1])) && strncasecmp(p, "deprecated", 10) == 0) {
            *text = d;
            return 1;
        }
    return 0;
}

/* A sorted copy of the node's JSON Schema types plus "null" when nullable. */
static sd_val *types_of(const dentry *e)
{
    sd_val *t = get(e, "type"), *out = sd_val_array(), *v;
    size_t i;
    const char *order[] = { "array", "boolean", "integer", "null", "number", "object", "string" };

    for (size_t k = 0; k < sizeof order / sizeof *order; k++) {
        int has = 0;
        sd_val_array_foreach(t, i, v)
            if (sd_val_is_string(v) && strcmp(sd_val_string_value(v), order[k]) == 0)
                has = 1;
        if (strcmp(order[k], "null") == 0 && entry_true(e, "nullable"))
            has = 1;
        if (has)
            sd_val_array_append_new(out, sd_val_string(order[k]));
    }
    return out;
}

static void constraint(dctx *c, const dentry *at, const char *kw, sd_val *from, sd_val *to,
                       const char *effect)
{
    sd_val *o = change(c, at, "constraint", copy(from), copy(to));
    if (o) {
        sd_val_object_set_new_nocheck(o, "keyword", sd_val_string(kw));
        sd_val_object_set_new_nocheck(o, "effect", sd_val_string(effect));
    }
}

static double num(sd_val *v) { return sd_val_number_value(v); }

/* How many values of array `a` are not in array `b`. */
static int count_missing(const sd_val *a, const sd_val *b)
{
    size_t i, j;
    sd_val *v, *w;
    int n = 0;
    sd_val_array_foreach(a, i, v) {
        int found = 0;
        sd_val_array_foreach(b, j, w)
            if (sd_val_equal(v, w))
                found = 1;
        n += !found;
    }
    return n;
}

static void compare_constraints(dctx *c, const dentry *o, const dentry *n, const dentry *at)
{
    sd_val *co = get(o, "constraints"), *cn = get(n, "constraints"), *v;
    const char *k;
    sd_val *keys = sd_val_object();

    /* the union of the keywords, old order first */
    sd_val_object_foreach(co, k, v)
        sd_val_object_set_new(keys, k, sd_val_true());
    sd_val_object_foreach(cn, k, v)
        sd_val_object_set_new(keys, k, sd_val_true());
    sd_val_object_foreach(keys, k, v) {
        sd_val *a = sd_val_object_get(co, k), *b = sd_val_object_get(cn, k);
        const sd_kw *row = sd_kw_find(k, strlen(k));
        int how = row ? row->diff : SD_KD_CHANGED;   /* keywords.def's `diff` column */
        const char *effect = "changed";
        if (how == SD_KD_SKIP)
            continue;   /* required: the children's `required` flags say it per key */
        if (a && b && sd_val_equal(a, b))
            continue;
        if (how == SD_KD_LOWER || how == SD_KD_UPPER) {
            if (!a)
                effect = "tightened";
            else if (!b)
                effect = "loosened";
            else if (sd_val_is_number(a) && sd_val_is_number(b))
                effect = (num(b) > num(a)) == (how == SD_KD_UPPER) ? "loosened" : "tightened";
        } else if (how == SD_KD_FALSE_TIGHTENS) {
            int was_closed = sd_val_is_false(a), closed = sd_val_is_false(b);
            effect = closed && !was_closed ? "tightened" : was_closed && !closed ? "loosened" : "changed";
        } else if (how == SD_KD_TRUE_TIGHTENS) {
            effect = sd_val_is_true(b) ? "tightened" : "loosened";
        } else {
            effect = !a ? "tightened" : !b ? "loosened" : "changed";
        }
        constraint(c, at, k, a, b, effect);
    }
    sd_val_decref(keys);

    /* enum: values added loosen, values removed tighten */
    sd_val *eo = get(o, "enum"), *en = get(n, "enum");
    if ((eo || en) && !(eo && en && sd_val_equal(eo, en))) {
        if (!eo || !en) {
            constraint(c, at, "enum", eo, en, eo ? "loosened" : "tightened");
        } else {
            int added = count_missing(en, eo), removed = count_missing(eo, en);
            constraint(c, at, "enum", eo, en,
                       removed && added ? "changed" : removed ? "tightened" : added ? "loosened" : "changed");
        }
    }
    if (entry_true(o, "required") != entry_true(n, "required")) {
        sd_val *x = change(c, at, "constraint", sd_val_boolean(entry_true(o, "required")), sd_val_boolean(entry_true(n, "required")));
        if (x) {
            sd_val_object_set_new_nocheck(x, "keyword", sd_val_string("required"));
            sd_val_object_set_new_nocheck(x, "effect", sd_val_string(entry_true(n, "required") ? "tightened" : "loosened"));
        }
    }
}

/* Compare a node present on both sides (`at`: where the change is reported). */
static void compare(dctx *c, const dentry *o, const dentry *n, const dentry *at)
{
    sd_val *to = types_of(o), *tn = types_of(n);
    sd_val *ro = get(o, "ref"), *rn = get(n, "ref");

    if (sd_val_array_size(to) && sd_val_array_size(tn) && !sd_val_equal(to, tn)) {
        change(c, at, "type", to, tn);
    } else if (ro && rn && !sd_val_equal(ro, rn)) {
        sd_val_decref(to);
        sd_val_decref(tn);
        sd_val *x = change(c, at, "type", copy(ro), copy(rn));
        if (x)
            sd_val_object_set_new_nocheck(x, "keyword", sd_val_string("ref"));
    } else if (!ro != !rn && sd_val_is_string(ro ? ro : rn) &&
               sd_k8s_ref_label(NULL, NULL, sd_val_string_value(ro ? ro : rn))) {
        /* a Kubernetes type on one side only (docs/k8s.md): the type on
         * that side, the JSON Schema types on the other */
        sd_val *x = change(c, at, "type", ro ? copy(ro) : to, rn ? copy(rn) : tn);
        sd_val_decref(ro ? to : NULL);
        sd_val_decref(rn ? tn : NULL);
        if (x)
            sd_val_object_set_new_nocheck(x, "keyword", sd_val_string("ref"));
    } else {
        sd_val_decref(to);
        sd_val_decref(tn);
    }
    /* defaults: where either side is a leaf (two maps with keys are
     * compared key by key) */
    if (!o->has_props || !n->has_props) {
        sd_val *a = get(o, "default"), *b = get(n, "default");
        if ((a || b) && !(a && b && sd_val_equal(a, b))) {
            sd_val *x = change(c, at, "default", copy(a), copy(b));
            /* null is a default too: say when there is none */
            if (x && !a)
                sd_val_object_set_new_nocheck(x, "from_absent", sd_val_true());
            if (x && !b)
                sd_val_object_set_new_nocheck(x, "to_absent", sd_val_true());
        }
    }
    compare_constraints(c, o, n, at);
    if (!entry_true(o, "deprecated") && entry_true(n, "deprecated")) {
        const char *t = notice(n);
        sd_val *x = change(c, at, "deprecated", sd_val_false(), t ? sd_val_string(t) : sd_val_true());
        if (x && t)
            sd_val_object_set_new_nocheck(x, "notice", sd_val_string(t));
    } else if (entry_true(o, "deprecated") && !entry_true(n, "deprecated") && n->same) {
        change(c, at, "deprecated", sd_val_true(), sd_val_false());
    }
    if (!entry_true(o, "removed") && entry_true(n, "removed")) {
        const char *t = sd_val_string_value(get(n, "removal"));
        sd_val *x = change(c, at, "removed", copy(get(o, "default")), sd_val_null());
        if (x) {
            sd_val_object_set_new_nocheck(x, "notice", sd_val_string(t ? t : "marked removed"));
        }
    }
    if (c->opts.descriptions) {
        sd_val *a = get(o, "description"), *b = get(n, "description");
        if ((a || b) && !(a && b && sd_val_equal(a, b)))
            change(c, at, "description", copy(a), copy(b));
    }
}

/* --- CRD versions -------------------------------------------------------- */

static sd_val *version_named(const sd_val *m, const char *name)
{
    size_t i;
    sd_val *v;
    sd_val_array_foreach(sd_val_object_get(m, "versions"), i, v)
        if (sd_val_string_value(sd_val_object_get(v, "name")) &&
            strcmp(sd_val_string_value(sd_val_object_get(v, "name")), name) == 0)
            return v;
    return NULL;
}

static void version_change(dctx *c, const char *version, const char *kw, sd_val *from, sd_val *to)
{
    dentry at;
    memset(&at, 0, sizeof at);
    at.path = "";
    at.version = version;
    sd_val *x = change(c, &at, "version", from, to);
    if (x)
        sd_val_object_set_new_nocheck(x, "keyword", sd_val_string(kw));
}

static void compare_versions(dctx *c, const sd_val *om, const sd_val *nm)
{
    static const char *const fields[] = { "served", "storage", "deprecated", "deprecationWarning", NULL };
    size_t i;
    sd_val *v;

    sd_val_array_foreach(sd_val_object_get(om, "versions"), i, v) {
        const char *name = sd_val_string_value(sd_val_object_get(v, "name"));
        sd_val *w = name ? version_named(nm, name) : NULL;
        if (!name)
            continue;
        if (!w) {
            version_change(c, name, "removed", sd_val_string(name), sd_val_null());
            continue;
        }
        for (const char *const *f = fields; *f; f++) {
            sd_val *a = sd_val_object_get(v, *f), *b = sd_val_object_get(w, *f);
            if ((a || b) && !(a && b && sd_val_equal(a, b)))
                version_change(c, name, *f, copy(a), copy(b));
        }
    }
    sd_val_array_foreach(sd_val_object_get(nm, "versions"), i, v) {
        const char *name = sd_val_string_value(sd_val_object_get(v, "name"));
        if (name && !version_named(om, name)) {
            sd_val *to = sd_val_object();
            sd_val_object_set_nocheck(to, "served", sd_val_object_get(v, "served"));
            sd_val_object_set_nocheck(to, "storage", sd_val_object_get(v, "storage"));
            version_change(c, name, "added", sd_val_null(), to);
        }
    }
}

/* --- the whole diff ------------------------------------------------------ */

static const char *const kind_order[] = { "version", "removed", "renamed", "type", "constraint",
                                          "deprecated", "default", "added", "description", NULL };

static int kind_rank(const char *k)
{
    for (int i = 0; kind_order[i]; i++)
        if (strcmp(kind_order[i], k) == 0)
            return i;
    return 99;
}

static int by_kind(const void *a, const void *b)
{
    const sd_val *x = *(sd_val *const *)a, *y = *(sd_val *const *)b;
    int d = kind_rank(sd_val_string_value(sd_val_object_get(x, "change"))) -
            kind_rank(sd_val_string_value(sd_val_object_get(y, "change")));
    if (d)
        return d;
    /* stable: the order they were found in */
    return (int)(sd_val_integer_value(sd_val_object_get(x, "_seq")) - sd_val_integer_value(sd_val_object_get(y, "_seq")));
}

static sd_val *side_info(const sd_val *m)
{
    sd_val *o = sd_val_object(), *src = sd_val_object_get(m, "source"), *chart = sd_val_object_get(m, "chart");
    sd_val_object_set_nocheck(o, "kind", sd_val_object_get(src, "kind"));
    sd_val_object_set_nocheck(o, "path", sd_val_object_get(src, "path"));
    if (chart) {
        sd_val_object_set_nocheck(o, "name", sd_val_object_get(chart, "name"));
        sd_val_object_set_nocheck(o, "version", sd_val_object_get(chart, "version"));
        if (sd_val_object_get(chart, "appVersion"))
            sd_val_object_set_nocheck(o, "appVersion", sd_val_object_get(chart, "appVersion"));
    }
    if (sd_val_object_get(m, "crd")) {
        sd_val *crd = sd_val_object_get(m, "crd");
        sd_val_object_set_nocheck(o, "name", sd_val_object_get(crd, "name"));
    }
    return o;
}

sd_val *sd_diff_models(const sd_val *old_model, const sd_val *new_model,
                       const sd_source *old_src, const sd_source *new_src,
                       const sd_diff_opts *opts, sd_diags *diags)
{
    dctx c;
    sd_val *out = NULL, *counts, *v;
    size_t i, nch;
    sd_val **arr = NULL;

    memset(&c, 0, sizeof c);
    if (opts)
        c.opts = *opts;
    c.changes = sd_val_array();
    if (!c.changes || flatten(&c.old, old_model) < 0 || flatten(&c.new, new_model) < 0)
        goto oom;
    c.new_dir = sd_val_string_value(sd_val_object_get(sd_val_object_get(new_model, "chart"), "dir"));
    sd_diff__hints(&c.old, old_src);
    sd_diff__hints(&c.new, new_src);

    compare_versions(&c, old_model, new_model);
    /* nodes on both sides */
    for (i = 0; i < c.new.n; i++) {
        int o = sd_diff__lookup(&c.old, c.new.e[i].key);
        if (o >= 0) {
            c.old.e[o].match = (int)i;
            c.new.e[i].match = o;
            c.old.e[o].same = c.new.e[i].same = 1;
        }
    }
    if (sd_diff__renames(&c) < 0)
        goto oom;
    for (i = 0; i < c.old.n; i++) {
        dentry *o = &c.old.e[i];
        if (o->match < 0) {
            const char *t;
            sd_val *x = change(&c, o, "removed", get(o, "default") ? copy(get(o, "default")) : NULL, NULL);
            if (x && deprecated_note(o, &t)) {
                sd_val_object_set_new_nocheck(x, "notice", sd_val_string(t ? t : "was deprecated"));
                sd_val_object_set_new_nocheck(x, "was_deprecated", sd_val_true());
            }
            /* a similar name, no evidence of a rename: a suggestion only */
            if (x && o->similar >= 0)
                sd_val_object_set_new_nocheck(x, "similar", sd_val_string(c.new.e[o->similar].path));
        }
    }
    for (i = 0; i < c.new.n; i++) {
        dentry *n = &c.new.e[i];
        if (n->match < 0) {
            sd_val *x = change(&c, n, "added", NULL, get(n, "default") ? copy(get(n, "default")) : NULL);
            if (x && entry_true(n, "required"))
                sd_val_object_set_new_nocheck(x, "required", sd_val_true());
        } else {
            dentry *o = &c.old.e[n->match];
            if (!n->same) {
                sd_val *x = change(&c, n, "renamed", sd_val_string(o->path), sd_val_string(n->path));
                if (x) {
                    sd_val_object_set_new_nocheck(x, "rule", sd_val_string(n->rule ? n->rule : "description"));
                    if (o->version && (!n->version || strcmp(o->version, n->version) != 0))
                        sd_val_object_set_new_nocheck(x, "from_version", sd_val_string(o->version));
                    const char *t;
                    if (deprecated_note(o, &t) && t)
                        sd_val_object_set_new_nocheck(x, "notice", sd_val_string(t));
                }
            }
            compare(&c, o, n, n);
        }
    }
    if (c.oom)
        goto oom;

    /* order by kind, then as found */
    nch = sd_val_array_size(c.changes);
    if (nch) {
        if (!(arr = malloc(nch * sizeof *arr)))
            goto oom;
        sd_val_array_foreach(c.changes, i, v) {
            sd_val_object_set_new_nocheck(v, "_seq", sd_val_integer((sd_val_int)i));
            arr[i] = sd_val_incref(v);
        }
        qsort(arr, nch, sizeof *arr, by_kind);
        sd_val_array_clear(c.changes);
        for (i = 0; i < nch; i++) {
            sd_val_object_del(arr[i], "_seq");
            sd_val_array_append_new(c.changes, arr[i]);
        }
        free(arr);
    }

    out = sd_val_object();
    counts = sd_val_object();
    if (!out || !counts)
        goto oom;
    sd_val_object_set_new_nocheck(out, "schemadoc_diff", sd_val_integer(1));
    sd_val_object_set_new_nocheck(out, "kind", sd_val_deep_copy(sd_val_object_get(sd_val_object_get(new_model, "source"), "kind")));
    sd_val_object_set_new_nocheck(out, "old", side_info(old_model));
    sd_val_object_set_new_nocheck(out, "new", side_info(new_model));
    for (const char *const *k = kind_order; *k; k++)
        sd_val_object_set_new(counts, *k, sd_val_integer(0));
    sd_val_array_foreach(c.changes, i, v) {
        const char *k = sd_val_string_value(sd_val_object_get(v, "change"));
        sd_val_object_set_new(counts, k, sd_val_integer(sd_val_integer_value(sd_val_object_get(counts, k)) + 1));
    }
    sd_val_object_set_new_nocheck(out, "counts", counts);
    sd_val_object_set_nocheck(out, "changes", c.changes);
    sd_val_decref(c.changes);
    side_release(&c.old);
    side_release(&c.new);
    return out;
oom:
    sd_val_decref(out);
    sd_val_decref(c.changes);
    side_release(&c.old);
    side_release(&c.new);
    sd_diag_error(diags, SD_ENOMEM, (sd_loc){ NULL, 0, 0 }, "out of memory");
    return NULL;
}

size_t sd_diff_count(const sd_val *diff)
{
    return sd_val_array_size(sd_val_object_get(diff, "changes"));
}
