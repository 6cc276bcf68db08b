/* SPDX-License-Identifier: Apache-2.0 */
/* gen_bundle.c - helm-values-schema-json's bundling (`bundle: true`,
 * --bundle): every schema file a `$ref` of the made schema names is copied
 * into the root's `$defs` and the `$ref` rewritten, as the tool writes it.
 *
 * In: the finished root (g->out) and the files its `$ref`s name, read
 * through the run's docset (the chart's confinement and its --map
 * prefixes: a `$ref` out of the chart is refused there, as everywhere).
 * Out: the root with `$defs`, one entry per file, named by the file's base
 * name ("a.json", then "a.json_2" for another file of that name); a copy
 * gets the file's path relative to the values as its `$id` and the `$ref`
 * names that path ("a.json#/properties/x"), or, `bundleWithoutID`, no
 * `$id` and the `$ref` points into `$defs` ("#/$defs/a.json/properties/x").
 * A `$ref` into a part of a file that has its own `$id` bundles that part
 * under the `$id`'s last segment, the `$ref` relative to it ("hello#/items").
 * Files the copies name are bundled too (each once), and their `$k8s`
 * aliases expanded as the values' are; `$ref`s that start with '#' and
 * URLs stay as written. */
#include "gen_int.h"
#include "docset.h"
#include "ptr.h"
#include "uri.h"

#include <stdlib.h>
#include <string.h>

typedef struct bentry {
    char       *res;   /* the bundled resource: file URI "#" pointer to it */
    const char *key;   /* its name in $defs (g->out's arena) */
} bentry;

typedef struct bundler {
    gen        *g;
    sd_docset  *ds;
    sd_node    *defs;
    int         own_defs;   /* defs is new: not the root's yet */
    char       *base;   /* base_dir as a file URI ending in '/' */
    bentry     *e;
    size_t      n, cap;
} bundler;

static const char *const one_schema[] = {
    "not", "if", "then", "else", "contentSchema", "contains", "items", "additionalItems", "unevaluatedItems",
    "propertyNames", "additionalProperties", "unevaluatedProperties", NULL
};
static const char *const schema_lists[] = { "allOf", "anyOf", "oneOf", "prefixItems", "items", NULL };
static const char *const schema_maps[] = {
    "properties", "patternProperties", "dependentSchemas", "$defs", "definitions", NULL
};

static int is_one_of(const char *k, const char *const *list)
{
    for (; *list; list++)
        if (!strcmp(k, *list))
            return 1;
    return 0;
}

static void walk(bundler *b, sd_node *s, const char *from, const char *in_key, int depth);

/* The path of file URI `file` relative to the values' directory (the
 * whole URI when it is elsewhere, e.g. reached through a --map). */
static void rel_path(sd_buf *out, const bundler *b, const char *file)
{
    size_t n = b->base ? strlen(b->base) : 0;
    if (n && !strncmp(file, b->base, n))
        sd_uri_pct_decode_append(out, file + n, strlen(file + n));
    else
        sd_buf_puts(out, file);
}

/* `key` as one JSON pointer token (RFC 6901 §3). */
static void put_token(sd_buf *out, const char *key)
{
    for (; *key; key++) {
        if (*key == '~')
            sd_buf_puts(out, "~0");
        else if (*key == '/')
            sd_buf_puts(out, "~1");
        else
            sd_buf_putc(out, *key);
    }
}

/* The copies' errors (from the docset) into the run's diagnostics. */
static void report(bundler *b, const sd_diags *quiet, const sd_node *r)
{
    size_t n = 0;
    for (size_t i = 0; i < quiet->count; i++)
        if (quiet->items[i].severity == SD_SEV_ERROR && quiet->items[i].message && ++n)
            sd_diag_error(b->g->diags, quiet->items[i].code ? quiet->items[i].code : SD_EREF, quiet->items[i].loc,
                          "%s", quiet->items[i].message);
    if (!n)
        sd_diag_error(b->g->diags, SD_EREF, r->loc, "$ref '%s': cannot bundle it", r->str);
}

/* Every node of a copy at `at`, the `$ref` that brought its file in: the
 * copy keeps no pointer into the file's document, and a message about it
 * (an alias without k8sSchemaVersion, a file it names that is missing)
 * points at the annotation the user wrote. */
static void relocate(sd_node *n, sd_loc at, int depth)
{
    if (!n || depth > 1000)
        return;
    n->loc = at;
    if (n->kind == SD_MAP || n->kind == SD_SEQ)
        for (uint32_t i = 0; i < n->n; i++) {
            if (n->kind == SD_MAP)
                n->items[i].key->loc = at;
            relocate(n->items[i].value, at, depth + 1);
        }
}

/* A name for a new $defs entry: `name`, else `name_2`, `name_3`... */
static const char *fresh_key(bundler *b, const char *name)
{
    sd_buf k = SD_BUF_INIT;
    const char *key = NULL;
    sd_buf_puts(&k, name);
    for (int i = 2; !sd_buf_failed(&k) && sd_node_get(b->defs, k.ptr); i++) {
        sd_buf_clear(&k);
        sd_buf_printf(&k, "%s_%d", name, i);
    }
    if (!sd_buf_failed(&k)) {
        sd_node *s = sd_gen__str(b->g, k.ptr);
        key = s ? s->str : NULL;
    }
    sd_buf_release(&k);
    return key;
}

/* One `$ref` to a file: bundle the file (or its part with an `$id`), once,
 * and rewrite `r`. `from`: the URI of the file the `$ref` is written in
 * (NULL: the values). */
static void bundle_ref(bundler *b, sd_node *s, const sd_node *r, const char *from)
{
    gen *g = b->g;
    char *uri = NULL, *file = NULL, *frag = NULL;
    sd_buf tok = SD_BUF_INIT, res = SD_BUF_INIT, txt = SD_BUF_INIT, name = SD_BUF_INIT;
    sd_diags quiet = SD_DIAGS_INIT;
    sd_doc *d = NULL;
    const sd_node *t, *part;
    const char *p, *rest, *id = NULL, *key = NULL;

    if (from ? sd_uri_resolve(&uri, from, r->str) < 0 : !(uri = sd_gen__ref_uri(g, b->ds, r->str))) {
        g->oom = 1;
        goto done;
    }
    if (!sd_uri_scheme_is(uri, "file"))
        goto done;   /* a prefix to a URL: left as written */
    if (sd_uri_split_fragment(&file, &frag, uri) < 0) {
        g->oom = 1;
        goto done;
    }
    if (sd_docset_get(&d, b->ds, file, r->loc, r->str, &quiet) < 0 || !d || !(t = sd_doc_root(d))) {
        report(b, &quiet, r);
        goto done;
    }
    /* the deepest part on the fragment's way that has its own $id */
    part = t;
    rest = p = frag ? frag : "";
    sd_buf_puts(&res, file);
    sd_buf_putc(&res, '#');
    size_t res_len = res.len;
    for (const sd_node *n = t; n && *p == '/';) {
        sd_buf_clear(&tok);
        p = sd_ptr_next(&tok, p);
        n = sd_gen__ptr_step(n, tok.ptr);
        const sd_node *nid = n && n->kind == SD_MAP ? sd_node_get(n, "$id") : NULL;
        if (nid && nid->kind == SD_STR && *nid->str) {
            part = n;
            id = nid->str;
            rest = p;
            sd_buf_put(&res, frag, (size_t)(p - frag));
            res_len = res.len;
        }
    }
    res.len = res_len;
    if (part->kind != SD_MAP) {
        sd_diag_error(g->diags, SD_EREF, r->loc, "$ref '%s': no schema there to bundle", r->str);
        goto done;
    }
    if (sd_buf_failed(&res)) {
        g->oom = 1;
        goto done;
    }
    for (size_t i = 0; i < b->n; i++)
        if (!strcmp(b->e[i].res, res.ptr))
            key = b->e[i].key;
    if (!key) {
        /* a new entry, named by the file's (or the $id's) last segment */
        const char *src = id ? id : file, *slash = strrchr(src, '/');
        if (id)
            sd_buf_puts(&name, slash ? slash + 1 : src);
        else
            sd_uri_pct_decode_append(&name, slash ? slash + 1 : src, strlen(slash ? slash + 1 : src));
        if (b->n == b->cap) {
            size_t cap = b->cap ? 2 * b->cap : 8;
            bentry *e = realloc(b->e, cap * sizeof *e);
            if (!e) {
                g->oom = 1;
                goto done;
            }
            b->e = e;
            b->cap = cap;
        }
        sd_node *copy = sd_gen__copy(g, part);
        if (sd_buf_failed(&name) || !(key = fresh_key(b, name.ptr)) || !copy ||
            !(b->e[b->n].res = strdup(res.ptr))) {
            g->oom = 1;
            goto done;
        }
        b->e[b->n++].key = key;
        if (g->o->bundle_without_id) {
            sd_gen__del(copy, "$id");
        } else if (!id) {
            sd_buf_clear(&txt);
            rel_path(&txt, b, file);
            sd_gen__set(g, copy, "$id", sd_gen__str(g, txt.ptr));
        }
        relocate(copy, r->loc, 0);
        sd_gen__set(g, b->defs, key, copy);
        sd_gen__k8s_refs(g, copy, 0);   /* the file's `$k8s` aliases, as the values' */
        walk(b, copy, file, key, 0);
    }
    /* the $ref, rewritten */
    sd_buf_clear(&txt);
    if (g->o->bundle_without_id) {
        sd_buf_puts(&txt, "#/$defs/");
        put_token(&txt, key);
        sd_buf_puts(&txt, rest);
    } else {
        if (id)
            sd_buf_puts(&txt, id);
        else
            rel_path(&txt, b, file);
        if (*rest) {
            sd_buf_putc(&txt, '#');
            sd_buf_puts(&txt, rest);
        }
    }
    if (sd_buf_failed(&txt))
        g->oom = 1;
    else
        sd_gen__set(g, s, "$ref", sd_gen__str(g, txt.ptr));
done:
    sd_diags_release(&quiet);
    sd_buf_release(&tok);
    sd_buf_release(&res);
    sd_buf_release(&txt);
    sd_buf_release(&name);
    free(uri);
    free(file);
    free(frag);
}

/* Every `$ref` in schema `s` (and its subschemas). `in_key`: the $defs
 * entry `s` is in (NULL: the values' own schema); a `$ref` to "#..." in a
 * copy without `$id` is pointed into that entry. */
static void walk(bundler *b, sd_node *s, const char *from, const char *in_key, int depth)
{
    const sd_node *r;
    if (!s || s->kind != SD_MAP || depth > 1000 || b->g->oom)
        return;
    if ((r = sd_node_get(s, "$ref")) && r->kind == SD_STR && *r->str) {
        if (r->str[0] == '#') {
            if (in_key && b->g->o->bundle_without_id) {
                sd_buf t = SD_BUF_INIT;
                sd_buf_puts(&t, "#/$defs/");
                put_token(&t, in_key);
                sd_buf_puts(&t, r->str + 1);
                if (sd_buf_failed(&t))
                    b->g->oom = 1;
                else
                    sd_gen__set(b->g, s, "$ref", sd_gen__str(b->g, t.ptr));
                sd_buf_release(&t);
            }
        } else if (!strstr(r->str, "://") && strncmp(r->str, "$k8s", 4) != 0) {
            bundle_ref(b, s, r, from);
        }
    }
    for (uint32_t i = 0; i < s->n && !b->g->oom; i++) {
        const char *k = s->items[i].key->str;
        sd_node *v = s->items[i].value;
        if (is_one_of(k, schema_lists) && v->kind == SD_SEQ) {
            for (uint32_t j = 0; j < v->n; j++)
                walk(b, v->items[j].value, from, in_key, depth + 1);
        } else if (is_one_of(k, one_schema)) {
            walk(b, v, from, in_key, depth + 1);
        } else if (is_one_of(k, schema_maps) && v->kind == SD_MAP && (v != b->defs || !b->own_defs)) {
            for (uint32_t j = 0; j < v->n; j++)
                walk(b, v->items[j].value, from, in_key, depth + 1);
        }
    }
}

void sd_gen__bundle(gen *g, sd_node *root)
{
    bundler b;
    sd_buf dir = SD_BUF_INIT;

    if (!root || root->kind != SD_MAP || !g->o->base_dir)
        return;
    memset(&b, 0, sizeof b);
    b.g = g;
    if (!(b.ds = sd_gen__docs(g)))
        return;
    sd_buf_printf(&dir, "%s/", g->o->base_dir);
    if (sd_buf_failed(&dir) || sd_uri_from_path(&b.base, dir.ptr) < 0) {
        g->oom = 1;
        goto done;
    }
    /* the entries go into the root's own $defs when it has one */
    b.defs = sd_node_get(root, "$defs");
    if (!b.defs || b.defs->kind != SD_MAP) {
        b.defs = sd_gen__map(g);
        b.own_defs = 1;
    }
    if (!b.defs)
        goto done;
    walk(&b, root, NULL, NULL, 0);
    if (b.defs->n && b.own_defs)
        sd_gen__set(g, root, "$defs", b.defs);
done:
    for (size_t i = 0; i < b.n; i++)
        free(b.e[i].res);
    free(b.e);
    free(b.base);
    sd_buf_release(&dir);
}
