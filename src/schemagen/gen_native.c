/* SPDX-License-Identifier: Apache-2.0 */
/* gen_native.c - schemadoc's own flavour (gen.h): what every comment of a
 * values file says, for a chart written for no schema tool.
 *
 * A key's schema: the default's type (a map with its keys and the keys
 * commented out under it, a list with the merged type of its items, a
 * scalar its YAML type, null anything); over it the helm-docs `(type)` or
 * the Bitnami `[array|object|string|nullable]`, and over that any
 * `@schema` annotation (a file may mix dialects). A declared type that
 * leaves out the default's own is widened by it, so that the chart's own
 * values.yaml stays valid. Descriptions (with `markdownDescription`, which
 * YAML language servers show on hover) from helm-docs or Bitnami; scalars
 * carry their `default`. A `{}` default that nothing types is free-form: an
 * object with no properties. */
#include "gen_int.h"
#include "synth.h"

#include <string.h>


/* type: one word, or the list */
static void set_types(gen *g, sd_node *s, sd_node *types)
{
    if (!types || !types->n)
        sd_gen__del(s, "type");
    else
        sd_gen__set(g, s, "type", types->n == 1 ? types->items[0].value : types);
}

/* The items of a list: the union of every item's schema (types that
 * differ become a list, keys of any item are properties), so that every
 * item of the chart's own list is valid. */
static sd_node *merge_items(gen *g, sd_node *a, sd_node *b)
{
    if (!a || !b || g->oom)   /* an item's schema was not made: out of memory */
        return a ? a : b;
    sd_node *m = sd_gen__union(g, a, b, 0);
    if (!m) {
        g->oom = 1;
        return NULL;
    }
    sd_gen__del(m, "default");
    return m;
}

/* The example values (ci/ files) at the place being made: one per example
 * file, NULL where it sets nothing. */
typedef struct exs {
    const sd_node *n[16];
    unsigned char  weak[16];   /* a README's: widens a placeholder default only */
    size_t         count;
} exs;

static void ex_child(const exs *in, exs *out, const char *key, long index)
{
    out->count = in ? in->count : 0;
    for (size_t i = 0; i < out->count; i++) {
        const sd_node *e = in->n[i];
        out->weak[i] = in->weak[i];
        out->n[i] = !e ? NULL : key ? (e->kind == SD_MAP ? sd_node_get(e, key) : NULL)
                  : (e->kind == SD_SEQ && index < (long)e->n ? e->items[index].value : NULL);
    }
}

static sd_node *node(gen *g, const sd_pair *p, const sd_node *v, int commented, const exs *ex, int depth);

/* The properties of a map: its keys and, in line order among them, the
 * keys commented out under it. */
static void properties(gen *g, sd_node *s, const sd_node *v, int commented, const exs *ex, int depth)
{
    exs cx;
    sd_node *props = sd_gen__map(g), *req = sd_gen__seq(g);
    const sd_node *cm = commented ? NULL : sd_ckeys_under(&g->ck, v);
    uint32_t ci = 0;
    size_t base = g->path.len;

    for (uint32_t i = 0; i <= v->n && !g->oom; i++) {
        /* the commented keys written before this key */
        while (cm && ci < cm->n && (i == v->n || cm->items[ci].key->loc.line < v->items[i].key->loc.line)) {
            const sd_pair *cp = &cm->items[ci++];
            if (sd_node_get(props, cp->key->str))
                continue;
            sd_annot_path_push(&g->path, cp->key->str, cp->key->len);
            ex_child(ex, &cx, cp->key->str, 0);
            sd_node *c = node(g, NULL, cp->value, 1, &cx, depth + 1);
            sd_buf_truncate(&g->path, base);
            sd_gen__set(g, props, cp->key->str, c);
        }
        if (i == v->n)
            break;
        const sd_pair *kp = &v->items[i];
        sd_annot_path_push(&g->path, kp->key->str, kp->key->len);
        ex_child(ex, &cx, kp->key->str, 0);
        sd_node *c = node(g, kp, kp->value, commented, &cx, depth + 1);
        sd_buf_truncate(&g->path, base);
        if (!c || sd_gen__flag(c, GEN_HIDDEN))
            continue;
        sd_gen__append(g, props, kp->key->str, c);
        if (sd_gen__flag(c, GEN_REQ) && sd_synth_push(g->out, req, sd_gen__str(g, kp->key->str)) < 0)
            g->oom = 1;
    }
    if (req && req->n)
        sd_gen__set(g, s, "required", req);
    if (props && props->n)
        sd_gen__set(g, s, "properties", props);
}

/* The text of a comment line ("#" + text) as helm-docs adds it to a
 * description: after the '#' and one blank. */
static const char *docs_text(const char *line)
{
    const char *h = line;
    while (*h == ' ' || *h == '\t')
        h++;
    if (*h == '#')
        h++;
    if (*h == ' ' || *h == '\t')
        h++;
    return h;
}

/* Whether `t` (docs_text of a line) is an `@schema` line: a block's fence
 * when *fence gets 1 (`@schema` or `@schema.root` alone). */
static int at_line(const char *t, int *fence)
{
    const char *e;
    *fence = 0;
    if (strncmp(t, "@schema", 7) != 0)
        return 0;
    e = t + 7;
    if (!strncmp(e, ".root", 5))
        e += 5;
    while (*e == ' ' || *e == '\t')
        e++;
    *fence = *e == '\0';
    return 1;
}

/* The helm-docs description of a key without its `@schema` lines (helm-docs
 * keeps them: a `# @schema` block or part written below the `# --` line is
 * text to it, an annotation to the schema tools), into `out`. */
static void without_annotations(sd_buf *out, const char *desc, const sd_atann *a)
{
    size_t from = 0;
    int in_block = 0, fence;
    sd_buf_puts(out, desc);
    for (size_t i = 0; a && i < a->nhead; i++) {
        const char *t = docs_text(a->head[i]);
        int at = at_line(t, &fence);
        if (!at && !in_block)
            continue;
        if (at && fence)
            in_block = !in_block;
        /* the line's text where it was added: after a blank or a newline */
        size_t n = strlen(t);
        for (size_t k = from; n && k + n <= out->len; k++) {
            if (k && (out->ptr[k - 1] == ' ' || out->ptr[k - 1] == '\n') && !memcmp(out->ptr + k, t, n) &&
                (k + n == out->len || out->ptr[k + n] == ' ' || out->ptr[k + n] == '\n')) {
                memmove(out->ptr + k - 1, out->ptr + k + n, out->len - k - n);
                out->len -= n + 1;
                out->ptr[out->len] = '\0';
                from = k - 1;
                break;
            }
        }
    }
}

static void describe(gen *g, sd_node *s, const sd_annot *an, const sd_atann *a)
{
    sd_buf d = SD_BUF_INIT;
    if (!an || !an->description || !*an->description)
        return;
    without_annotations(&d, an->description, a);
    if (sd_buf_failed(&d))
        g->oom = 1;
    else if (d.len) {
        sd_gen__set(g, s, "description", sd_gen__str(g, d.ptr));
        sd_gen__set(g, s, "markdownDescription", sd_gen__str(g, d.ptr));
    }
    sd_buf_release(&d);
}

/* The helm-docs / Bitnami annotation of the key at g->path. */
static const sd_annot *annot_here(gen *g)
{
    const sd_annot *an;
    if (!g->an.dialect || !g->path.len)
        return NULL;
    an = sd_annots_get(&g->an, g->path.ptr);
    if (!an)   /* (only helm-docs writes the old style; others have none) */
        an = sd_annots_get_old(&g->an, g->path.ptr);
    return an;
}

/* A default that only holds the place of a value: `""`, or a list of
 * nothing but `""` (the README shows what goes there). */
static int placeholder(const sd_node *v)
{
    if (v->kind == SD_STR)
        return v->len == 0;
    if (v->kind != SD_SEQ || !v->n)
        return 0;
    for (uint32_t i = 0; i < v->n; i++)
        if (v->items[i].value->kind != SD_STR || v->items[i].value->len)
            return 0;
    return 1;
}

/* The types the example values give a key beyond `types` (a null is no
 * type: it takes the key out, as Helm merges); a README's only where the
 * default `v` is a placeholder. */
static void widen(gen *g, sd_node *types, const exs *ex, const sd_node *v)
{
    for (size_t i = 0; ex && types->n && i < ex->count; i++) {
        const sd_node *e = ex->n[i];
        if (!e || e->kind == SD_NULL || (ex->weak[i] && !placeholder(v)))
            continue;
        const char *w = sd_node_type_word(e);
        if (!sd_gen__has_type(types, w) && sd_synth_push(g->out, types, sd_gen__str(g, w)) < 0)
            g->oom = 1;
    }
}

static sd_node *node(gen *g, const sd_pair *p, const sd_node *v, int commented, const exs *ex, int depth)
{
    exs cx;
    g->loc = p && p->key ? p->key->loc : v->loc;
    sd_node *s = sd_gen__map(g), *types = sd_gen__seq(g);
    const char *own = v->kind == SD_NULL ? NULL : sd_node_type_word(v);
    const sd_annot *an = commented ? NULL : annot_here(g);
    size_t base = g->path.len;

    if (!s || !types || depth > 1000)
        return s;
    g->loc = p && p->key ? p->key->loc : v->loc;
    if (own && sd_synth_push(g->out, types, sd_gen__str(g, own)) < 0)
        g->oom = 1;
    if (v->kind == SD_MAP && v->n) {
        properties(g, s, v, commented, ex, depth);
    } else if (v->kind == SD_MAP && !commented) {
        /* `{}`: free-form, unless the keys commented out under it say more */
    } else if (v->kind == SD_SEQ && v->n) {
        sd_node *items = NULL;
        for (uint32_t i = 0; i < v->n && i < GEN_MAX_ITEMS && !g->oom; i++) {
            sd_buf_printf(&g->path, "[%u]", i);
            ex_child(NULL, &cx, NULL, 0);
            sd_node *c = node(g, &v->items[i], v->items[i].value, commented, &cx, depth + 1);
            sd_buf_truncate(&g->path, base);
            items = items ? merge_items(g, items, c) : c;
        }
        sd_gen__del(items, "default");
        /* a list of `""`: its items are what the examples' items are too */
        sd_node *it = items ? sd_node_get(items, "type") : NULL;
        if (it && placeholder(v)) {
            sd_node *w = sd_gen__seq(g);
            for (uint32_t j = 0; w && j < (it->kind == SD_SEQ ? it->n : 1); j++)
                if (sd_synth_push(g->out, w, it->kind == SD_SEQ ? it->items[j].value : it) < 0)
                    g->oom = 1;
            if (w)
                for (size_t i = 0; ex && i < ex->count; i++)
                    for (uint32_t j = 0; ex->n[i] && ex->n[i]->kind == SD_SEQ && j < ex->n[i]->n; j++) {
                        const sd_node *e = ex->n[i]->items[j].value;
                        if (e->kind != SD_NULL && !sd_gen__has_type(w, sd_node_type_word(e)) &&
                            sd_synth_push(g->out, w, sd_gen__str(g, sd_node_type_word(e))) < 0)
                            g->oom = 1;
                    }
            set_types(g, items, w);
        }
        if (items && items->n)
            sd_gen__set(g, s, "items", items);
    } else if (v->kind != SD_MAP && v->kind != SD_SEQ && v->kind != SD_NULL && !commented) {
        sd_gen__set(g, s, "default", sd_gen__copy(g, v));
    }
    /* helm-docs `(type)`, Bitnami `[modifiers]`: over the default's type,
     * which stays allowed (the chart's own values.yaml is valid) */
    if (an) {
        sd_node *declared = sd_gen__seq(g);
        if (an->type && sd_gen__helm_types(g, declared, an->type)) {
            if (own && !sd_gen__has_type(declared, own) && sd_synth_push(g->out, declared, sd_gen__str(g, own)) < 0)
                g->oom = 1;
            if (v->kind == SD_NULL && !sd_gen__has_type(declared, "null") &&
                sd_synth_push(g->out, declared, sd_gen__str(g, "null")) < 0)
                g->oom = 1;
            types = declared;
        }
        if (an->nullable && types->n && !sd_gen__has_type(types, "null") &&
            sd_synth_push(g->out, types, sd_gen__str(g, "null")) < 0)
            g->oom = 1;
        describe(g, s, an, p && !commented ? sd_atschema_get(&g->at, p) : NULL);
    }
    g->loc = p && p->key ? p->key->loc : v->loc;
    widen(g, types, ex, v);
    set_types(g, s, types);
    /* `@schema` annotations, strongest (a file may mix dialects) */
    const sd_atann *a = p && !commented ? sd_atschema_get(&g->at, p) : NULL;
    if (a && a->nparts)
        sd_gen__hvsj_apply(g, s, a, 0);
    if (a && a->block)
        for (uint32_t i = 0; i < a->block->n; i++) {
            const char *k = a->block->items[i].key->str;
            const sd_node *bv = a->block->items[i].value;
            if (!strcmp(k, "required") && bv->kind == SD_BOOL)
                sd_gen__set_flag(g, s, GEN_REQ, bv->num.b);
            else if (!strcmp(k, "renamedFrom") || !strcmp(k, "k8s"))
                continue;   /* diff's note of an old name (docs/annotations.md 8.4), the key's
                               Kubernetes type (docs/k8s.md): no keyword */
            else
                sd_gen__set(g, s, k, sd_gen__copy(g, bv));
        }
    return s;
}

sd_node *sd_gen__native(gen *g)
{
    const sd_node *root = sd_doc_root(g->values);
    g->loc = (sd_loc){ g->values->file, 1, 1 };
    sd_node *s = sd_gen__map(g);

    if (!s)
        return NULL;
    sd_buf_clear(&g->path);
    exs ex;
    ex.count = 0;
    for (size_t i = 0; i < g->o->nexamples + g->o->nreadme && ex.count < 16; i++) {
        int weak = i >= g->o->nexamples;
        const sd_doc *d = weak ? g->o->readme[i - g->o->nexamples] : g->o->examples[i];
        ex.weak[ex.count] = (unsigned char)weak;
        ex.n[ex.count++] = d ? sd_doc_root(d) : NULL;
    }
    sd_gen__set(g, s, "type", sd_gen__str(g, "object"));
    if (root && root->kind == SD_MAP)
        properties(g, s, root, 0, &ex, 0);
    else if (!root && sd_ckeys_under(&g->ck, NULL))
        properties(g, s, sd_ckeys_under(&g->ck, NULL), 1, &ex, 0);
    return g->oom ? NULL : s;
}

sd_node *sd_gen__native_finish(gen *g, sd_node *root)
{
    const char *url = g->draft == 7 ? "http://json-schema.org/draft-07/schema#"
                    : g->draft == 2019 ? "https://json-schema.org/draft/2019-09/schema"
                    : "https://json-schema.org/draft/2020-12/schema";
    sd_gen__set(g, root, "$schema", sd_gen__str(g, url));
    if (!sd_node_get(root, "type"))
        sd_gen__set(g, root, "type", sd_gen__str(g, "object"));
    return root;
}
