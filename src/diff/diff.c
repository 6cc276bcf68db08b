/* diff.c - compare two models key by key: added, removed, renamed or moved,
 * default, type, constraint, deprecation and description changes, and the
 * versions of a CRD. In: two models (docs/model.md) and their sources. Out:
 * the change list of docs/diff.md (a jansson tree).
 *
 * Each model is flattened to its nodes (properties, items,
 * additionalProperties, patternProperties, definitions; a CRD's versions
 * each on their own), keyed by the node id. A node in both is compared; a
 * node in one only is added or removed, unless the rename rules of
 * rename.c pair it with one on the other side. */
#include "diff.h"
#include "alloc.h"
#include "diff_int.h"
#include "sd.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* --- flattening ---------------------------------------------------------- */

static int add_entry(dside *s, json_t *n, const char *version, int parent, int depth)
{
    dentry *e;
    const char *id = json_string_value(json_object_get(n, "id"));
    const char *path = json_string_value(json_object_get(n, "path"));
    json_t *props = json_object_get(n, "properties");
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
    if (json_object_get(s->index, key.ptr)) {  /* a combinator branch sharing an id */
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
    e->has_props = json_array_size(props) > 0;
    e->match = -1;
    if (json_object_set_new(s->index, e->key, json_integer((json_int_t)s->n)) < 0) {
        free(e->key);
        return SD_ENOMEM;
    }
    return (int)s->n++;
}

static int walk(dside *s, json_t *n, const char *version, int parent, int depth)
{
    static const char *const one[] = { "items", "additionalProperties", NULL };
    size_t i;
    json_t *c;
    int me, r;

    if (!json_is_object(n) || depth > 200)
        return 0;
    if ((me = add_entry(s, n, version, parent, depth)) == SD_ENOMEM)
        return SD_ENOMEM;
    if (me < 0)
        return 0;
    json_array_foreach(json_object_get(n, "properties"), i, c)
        if ((r = walk(s, c, version, me, depth + 1)) < 0)
            return r;
    for (const char *const *k = one; *k; k++)
        if ((r = walk(s, json_object_get(n, *k), version, me, depth + 1)) < 0)
            return r;
    json_array_foreach(json_object_get(n, "patternProperties"), i, c)
        if ((r = walk(s, json_object_get(c, "node"), version, me, depth + 1)) < 0)
            return r;
    json_array_foreach(json_object_get(n, "prefixItems"), i, c)
        if ((r = walk(s, c, version, me, depth + 1)) < 0)
            return r;
    return 0;
}

static int flatten(dside *s, const json_t *m)
{
    json_t *versions = json_object_get(m, "versions"), *v, *d;
    size_t i;
    int r;

    s->index = json_object();
    if (!s->index)
        return SD_ENOMEM;
    if (json_array_size(versions) > 0) {
        json_array_foreach(versions, i, v) {
            const char *name = json_string_value(json_object_get(v, "name"));
            if (name && (r = walk(s, json_object_get(v, "root"), name, -1, 0)) < 0)
                return r;
        }
    } else if ((r = walk(s, json_object_get(m, "root"), NULL, -1, 0)) < 0) {
        return r;
    }
    json_array_foreach(json_object_get(m, "definitions"), i, d)
        if ((r = walk(s, d, NULL, -1, 0)) < 0)
            return r;
    return 0;
}

static void side_release(dside *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->e[i].key);
    free(s->e);
    json_decref(s->index);
    json_decref(s->hints);
}

int sd_diff__lookup(const dside *s, const char *key)
{
    json_t *i = json_object_get(s->index, key);
    return i ? (int)json_integer_value(i) : -1;
}

/* --- one change ---------------------------------------------------------- */

static json_t *change(dctx *c, const dentry *at, const char *kind, json_t *from, json_t *to)
{
    json_t *o = json_object();

    if (!o) {
        json_decref(from);
        json_decref(to);
        c->oom = 1;
        return NULL;
    }
    json_object_set_new(o, "path", json_string(at->path));
    json_object_set_new(o, "change", json_string(kind));
    json_object_set_new(o, "from", from ? from : json_null());
    json_object_set_new(o, "to", to ? to : json_null());
    if (at->version)
        json_object_set_new(o, "version", json_string(at->version));
    if (json_array_append_new(c->changes, o) < 0) {
        c->oom = 1;
        return NULL;
    }
    return o;
}

static json_t *get(const dentry *e, const char *k) { return json_object_get(e->n, k); }
static json_t *copy(json_t *v) { return v ? json_deep_copy(v) : json_null(); }
static int flag(const dentry *e, const char *k) { return json_is_true(get(e, k)); }

static const char *notice(const dentry *e)
{
    const char *s = json_string_value(get(e, "deprecation"));
    return s ? s : json_string_value(get(e, "removal"));
}

/* Deprecated in the schema (`deprecated`, ytt @schema/deprecated), or a
 * description (values.yaml comment) that says the word: "Deprecated: use
 * X", "(deprecated)", "@deprecated". *text is the notice to quote. */
static int deprecated_note(const dentry *e, const char **text)
{
    const char *d = json_string_value(get(e, "description"));
    *text = notice(e);
    if (flag(e, "deprecated"))
        return 1;
    for (const char *p = d; p && *p; p++)
        if ((p == d || !isalpha((unsigned char)p[-1])) && strncasecmp(p, "deprecated", 10) == 0) {
            *text = d;
            return 1;
        }
    return 0;
}

/* A sorted copy of the node's JSON Schema types plus "null" when nullable. */
static json_t *types_of(const dentry *e)
{
    json_t *t = get(e, "type"), *out = json_array(), *v;
    size_t i;
    const char *order[] = { "array", "boolean", "integer", "null", "number", "object", "string" };

    for (size_t k = 0; k < sizeof order / sizeof *order; k++) {
        int has = 0;
        json_array_foreach(t, i, v)
            if (json_is_string(v) && strcmp(json_string_value(v), order[k]) == 0)
                has = 1;
        if (strcmp(order[k], "null") == 0 && flag(e, "nullable"))
            has = 1;
        if (has)
            json_array_append_new(out, json_string(order[k]));
    }
    return out;
}

/* Keywords whose higher value is looser / tighter. */
static const char *const lower_bounds[] = { "minimum", "exclusiveMinimum", "minLength", "minItems",
                                            "minProperties", "minContains", NULL };
static const char *const upper_bounds[] = { "maximum", "exclusiveMaximum", "maxLength", "maxItems",
                                            "maxProperties", "maxContains", NULL };
static const char *const other_kw[] = { "pattern", "format", "multipleOf", "uniqueItems",
                                        "additionalProperties", "const", "contentEncoding",
                                        "contentMediaType", NULL };

static int in_list(const char *const *l, const char *k)
{
    for (; *l; l++)
        if (strcmp(*l, k) == 0)
            return 1;
    return 0;
}

static void constraint(dctx *c, const dentry *at, const char *kw, json_t *from, json_t *to,
                       const char *effect)
{
    json_t *o = change(c, at, "constraint", copy(from), copy(to));
    if (o) {
        json_object_set_new(o, "keyword", json_string(kw));
        json_object_set_new(o, "effect", json_string(effect));
    }
}

static double num(json_t *v) { return json_number_value(v); }

/* How many values of array `a` are not in array `b`. */
static int count_missing(const json_t *a, const json_t *b)
{
    size_t i, j;
    json_t *v, *w;
    int n = 0;
    json_array_foreach(a, i, v) {
        int found = 0;
        json_array_foreach(b, j, w)
            if (json_equal(v, w))
                found = 1;
        n += !found;
    }
    return n;
}

static void compare_constraints(dctx *c, const dentry *o, const dentry *n, const dentry *at)
{
    json_t *co = get(o, "constraints"), *cn = get(n, "constraints"), *v;
    const char *k;
    void *tmp;
    json_t *keys = json_object();

    /* the union of the keywords, old order first */
    json_object_foreach(co, k, v)
        json_object_set_new(keys, k, json_true());
    json_object_foreach(cn, k, v)
        json_object_set_new(keys, k, json_true());
    json_object_foreach_safe(keys, tmp, k, v) {
        json_t *a = json_object_get(co, k), *b = json_object_get(cn, k);
        const char *effect = "changed";
        if (strcmp(k, "required") == 0)
            continue;   /* the children's `required` flags say it per key */
        if (a && b && json_equal(a, b))
            continue;
        if (in_list(lower_bounds, k) || in_list(upper_bounds, k)) {
            int upper = in_list(upper_bounds, k);
            if (!a)
                effect = "tightened";
            else if (!b)
                effect = "loosened";
            else if (json_is_number(a) && json_is_number(b))
                effect = (num(b) > num(a)) == upper ? "loosened" : "tightened";
        } else if (strcmp(k, "additionalProperties") == 0) {
            int was_closed = json_is_false(a), closed = json_is_false(b);
            effect = closed && !was_closed ? "tightened" : was_closed && !closed ? "loosened" : "changed";
        } else if (strcmp(k, "uniqueItems") == 0) {
            effect = json_is_true(b) ? "tightened" : "loosened";
        } else if (in_list(other_kw, k)) {
            effect = !a ? "tightened" : !b ? "loosened" : "changed";
        } else {
            effect = !a ? "tightened" : !b ? "loosened" : "changed";
        }
        constraint(c, at, k, a, b, effect);
    }
    json_decref(keys);

    /* enum: values added loosen, values removed tighten */
    json_t *eo = get(o, "enum"), *en = get(n, "enum");
    if ((eo || en) && !(eo && en && json_equal(eo, en))) {
        if (!eo || !en) {
            constraint(c, at, "enum", eo, en, eo ? "loosened" : "tightened");
        } else {
            int added = count_missing(en, eo), removed = count_missing(eo, en);
            constraint(c, at, "enum", eo, en,
                       removed && added ? "changed" : removed ? "tightened" : added ? "loosened" : "changed");
        }
    }
    if (flag(o, "required") != flag(n, "required")) {
        json_t *x = change(c, at, "constraint", json_boolean(flag(o, "required")), json_boolean(flag(n, "required")));
        if (x) {
            json_object_set_new(x, "keyword", json_string("required"));
            json_object_set_new(x, "effect", json_string(flag(n, "required") ? "tightened" : "loosened"));
        }
    }
}

/* Compare a node present on both sides (`at`: where the change is reported). */
static void compare(dctx *c, const dentry *o, const dentry *n, const dentry *at)
{
    json_t *to = types_of(o), *tn = types_of(n);
    json_t *ro = get(o, "ref"), *rn = get(n, "ref");

    if (json_array_size(to) && json_array_size(tn) && !json_equal(to, tn)) {
        change(c, at, "type", to, tn);
    } else if (ro && rn && !json_equal(ro, rn)) {
        json_decref(to);
        json_decref(tn);
        json_t *x = change(c, at, "type", copy(ro), copy(rn));
        if (x)
            json_object_set_new(x, "keyword", json_string("ref"));
    } else {
        json_decref(to);
        json_decref(tn);
    }
    /* defaults: where either side is a leaf (two maps with keys are
     * compared key by key) */
    if (!o->has_props || !n->has_props) {
        json_t *a = get(o, "default"), *b = get(n, "default");
        if ((a || b) && !(a && b && json_equal(a, b))) {
            json_t *x = change(c, at, "default", copy(a), copy(b));
            /* null is a default too: say when there is none */
            if (x && !a)
                json_object_set_new(x, "from_absent", json_true());
            if (x && !b)
                json_object_set_new(x, "to_absent", json_true());
        }
    }
    compare_constraints(c, o, n, at);
    if (!flag(o, "deprecated") && flag(n, "deprecated")) {
        const char *t = notice(n);
        json_t *x = change(c, at, "deprecated", json_false(), t ? json_string(t) : json_true());
        if (x && t)
            json_object_set_new(x, "notice", json_string(t));
    } else if (flag(o, "deprecated") && !flag(n, "deprecated") && n->same) {
        change(c, at, "deprecated", json_true(), json_false());
    }
    if (!flag(o, "removed") && flag(n, "removed")) {
        const char *t = json_string_value(get(n, "removal"));
        json_t *x = change(c, at, "removed", copy(get(o, "default")), json_null());
        if (x) {
            json_object_set_new(x, "notice", json_string(t ? t : "marked removed"));
        }
    }
    if (c->opts.descriptions) {
        json_t *a = get(o, "description"), *b = get(n, "description");
        if ((a || b) && !(a && b && json_equal(a, b)))
            change(c, at, "description", copy(a), copy(b));
    }
}

/* --- CRD versions -------------------------------------------------------- */

static json_t *version_named(const json_t *m, const char *name)
{
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(m, "versions"), i, v)
        if (json_string_value(json_object_get(v, "name")) &&
            strcmp(json_string_value(json_object_get(v, "name")), name) == 0)
            return v;
    return NULL;
}

static void version_change(dctx *c, const char *version, const char *kw, json_t *from, json_t *to)
{
    dentry at;
    memset(&at, 0, sizeof at);
    at.path = "";
    at.version = version;
    json_t *x = change(c, &at, "version", from, to);
    if (x)
        json_object_set_new(x, "keyword", json_string(kw));
}

static void compare_versions(dctx *c, const json_t *om, const json_t *nm)
{
    static const char *const fields[] = { "served", "storage", "deprecated", "deprecationWarning", NULL };
    size_t i;
    json_t *v;

    json_array_foreach(json_object_get(om, "versions"), i, v) {
        const char *name = json_string_value(json_object_get(v, "name"));
        json_t *w = name ? version_named(nm, name) : NULL;
        if (!name)
            continue;
        if (!w) {
            version_change(c, name, "removed", json_string(name), json_null());
            continue;
        }
        for (const char *const *f = fields; *f; f++) {
            json_t *a = json_object_get(v, *f), *b = json_object_get(w, *f);
            if ((a || b) && !(a && b && json_equal(a, b)))
                version_change(c, name, *f, copy(a), copy(b));
        }
    }
    json_array_foreach(json_object_get(nm, "versions"), i, v) {
        const char *name = json_string_value(json_object_get(v, "name"));
        if (name && !version_named(om, name)) {
            json_t *to = json_object();
            json_object_set(to, "served", json_object_get(v, "served"));
            json_object_set(to, "storage", json_object_get(v, "storage"));
            version_change(c, name, "added", json_null(), to);
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
    const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
    int d = kind_rank(json_string_value(json_object_get(x, "change"))) -
            kind_rank(json_string_value(json_object_get(y, "change")));
    if (d)
        return d;
    /* stable: the order they were found in */
    return (int)(json_integer_value(json_object_get(x, "_seq")) - json_integer_value(json_object_get(y, "_seq")));
}

static json_t *side_info(const json_t *m)
{
    json_t *o = json_object(), *src = json_object_get(m, "source"), *chart = json_object_get(m, "chart");
    json_object_set(o, "kind", json_object_get(src, "kind"));
    json_object_set(o, "path", json_object_get(src, "path"));
    if (chart) {
        json_object_set(o, "name", json_object_get(chart, "name"));
        json_object_set(o, "version", json_object_get(chart, "version"));
        if (json_object_get(chart, "appVersion"))
            json_object_set(o, "appVersion", json_object_get(chart, "appVersion"));
    }
    if (json_object_get(m, "crd")) {
        json_t *crd = json_object_get(m, "crd");
        json_object_set(o, "name", json_object_get(crd, "name"));
    }
    return o;
}

json_t *sd_diff_models(const json_t *old_model, const json_t *new_model,
                       const sd_source *old_src, const sd_source *new_src,
                       const sd_diff_opts *opts, sd_diags *diags)
{
    dctx c;
    json_t *out = NULL, *counts, *v;
    size_t i, nch;
    json_t **arr = NULL;

    memset(&c, 0, sizeof c);
    if (opts)
        c.opts = *opts;
    c.changes = json_array();
    if (!c.changes || flatten(&c.old, old_model) < 0 || flatten(&c.new, new_model) < 0)
        goto oom;
    c.new_dir = json_string_value(json_object_get(json_object_get(new_model, "chart"), "dir"));
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
            json_t *x = change(&c, o, "removed", get(o, "default") ? copy(get(o, "default")) : NULL, NULL);
            if (x && deprecated_note(o, &t)) {
                json_object_set_new(x, "notice", json_string(t ? t : "was deprecated"));
                json_object_set_new(x, "was_deprecated", json_true());
            }
        }
    }
    for (i = 0; i < c.new.n; i++) {
        dentry *n = &c.new.e[i];
        if (n->match < 0) {
            json_t *x = change(&c, n, "added", NULL, get(n, "default") ? copy(get(n, "default")) : NULL);
            if (x && flag(n, "required"))
                json_object_set_new(x, "required", json_true());
        } else {
            dentry *o = &c.old.e[n->match];
            if (!n->same) {
                json_t *x = change(&c, n, "renamed", json_string(o->path), json_string(n->path));
                if (x) {
                    json_object_set_new(x, "rule", json_string(n->rule ? n->rule : "description"));
                    if (o->version && (!n->version || strcmp(o->version, n->version) != 0))
                        json_object_set_new(x, "from_version", json_string(o->version));
                    const char *t;
                    if (deprecated_note(o, &t) && t)
                        json_object_set_new(x, "notice", json_string(t));
                }
            }
            compare(&c, o, n, n);
        }
    }
    if (c.oom)
        goto oom;

    /* order by kind, then as found */
    nch = json_array_size(c.changes);
    if (nch) {
        if (!(arr = malloc(nch * sizeof *arr)))
            goto oom;
        json_array_foreach(c.changes, i, v) {
            json_object_set_new(v, "_seq", json_integer((json_int_t)i));
            arr[i] = json_incref(v);
        }
        qsort(arr, nch, sizeof *arr, by_kind);
        json_array_clear(c.changes);
        for (i = 0; i < nch; i++) {
            json_object_del(arr[i], "_seq");
            json_array_append_new(c.changes, arr[i]);
        }
        free(arr);
    }

    out = json_object();
    counts = json_object();
    if (!out || !counts)
        goto oom;
    json_object_set_new(out, "schemadoc_diff", json_integer(1));
    json_object_set_new(out, "kind", json_deep_copy(json_object_get(json_object_get(new_model, "source"), "kind")));
    json_object_set_new(out, "old", side_info(old_model));
    json_object_set_new(out, "new", side_info(new_model));
    for (const char *const *k = kind_order; *k; k++)
        json_object_set_new(counts, *k, json_integer(0));
    json_array_foreach(c.changes, i, v) {
        const char *k = json_string_value(json_object_get(v, "change"));
        json_object_set_new(counts, k, json_integer(json_integer_value(json_object_get(counts, k)) + 1));
    }
    json_object_set_new(out, "counts", counts);
    json_object_set(out, "changes", c.changes);
    json_decref(c.changes);
    side_release(&c.old);
    side_release(&c.new);
    return out;
oom:
    json_decref(out);
    json_decref(c.changes);
    side_release(&c.old);
    side_release(&c.new);
    sd_diag_error(diags, SD_ENOMEM, (sd_loc){ NULL, 0, 0 }, "out of memory");
    return NULL;
}

size_t sd_diff_count(const json_t *diff)
{
    return json_array_size(json_object_get(diff, "changes"));
}
