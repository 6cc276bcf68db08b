/* SPDX-License-Identifier: Apache-2.0 */
/* keypath.c - what the cursor is on: the values path of the key (or value)
 * at a position of the open text, read from the text parsed as it is, or,
 * where the text does not parse (a key being typed), from indentation; and
 * the chart's model node of a path (docs/model.md: properties, elements,
 * items, additionalProperties, a `ref` followed into its definition). The
 * model is built once per chart, on the first question. */
#include "lsp_int.h"
#include "alloc.h"
#include "model.h"
#include "val.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sd_lsp__path_release(sd_lsp_path *p)
{
    for (int i = 0; i < p->n; i++)
        free(p->seg[i]);
    p->n = 0;
}

static int push(sd_lsp_path *p, const char *s, size_t n)
{
    if (p->n >= SD_LSP_PATH_MAX)
        return -1;
    if (!(p->seg[p->n] = strndup(s, n)))
        return sd_alloc_note_failure(), -1;
    p->n++;
    return 0;
}

/* Search `n` for the pair whose key (or scalar value on the key's line)
 * holds `off`. 1 when found (path in p), 0 if not. */
static int find(sd_lsp_doc *d, const sd_node *n, size_t off, sd_lsp_path *p, int depth)
{
    if (!n || depth > 100 || (n->kind != SD_MAP && n->kind != SD_SEQ))
        return 0;
    for (size_t i = 0; i < n->n; i++) {
        const sd_pair *q = &n->items[i];
        char idx[32];
        int len = snprintf(idx, sizeof idx, "[%zu]", i);
        if (q->key ? push(p, q->key->str, q->key->len) < 0 : push(p, idx, (size_t)len) < 0)
            return 0;
        if (find(d, q->value, off, p, depth + 1))
            return 1;
        if (q->key && q->key->loc.line) {
            size_t a = sd_lsp__loc_offset(d, q->key->loc.line, q->key->loc.column);
            size_t e = sd_lsp__span_end(d, a, SD_SPAN_KEY);
            if (off >= a && off <= e) {
                p->on_key = 1;
                return 1;
            }
            const sd_node *v = q->value;
            if (v && v->kind != SD_MAP && v->kind != SD_SEQ && v->loc.line == q->key->loc.line) {
                size_t va = sd_lsp__loc_offset(d, v->loc.line, v->loc.column);
                if (off >= e && off <= sd_lsp__span_end(d, va, SD_SPAN_VALUE))
                    return 1;
            }
        }
        free(p->seg[--p->n]);
    }
    return 0;
}

int sd_lsp__path_at(sd_lsp_doc *d, size_t off, sd_lsp_path *p)
{
    const sd_node *root = sd_lsp__doc_root(d);
    memset(p, 0, sizeof *p);
    if (find(d, root, off, p, 0))
        return 0;
    sd_lsp__path_release(p);
    return -1;
}

/* The path of the map a line indented `indent` columns before byte `off`
 * belongs to, from the lines above it ("key:" lines indented less): what a
 * half-typed text still says. List items ("- ") are skipped over. */
int sd_lsp__parent_at(sd_lsp_doc *d, size_t off, int indent, sd_lsp_path *p)
{
    const char *t = d->text.ptr;
    char *segs[SD_LSP_PATH_MAX];
    int ns = 0;
    long line, ch;

    memset(p, 0, sizeof *p);
    sd_lsp__position(d, off, SD_LSP_UTF8, &line, &ch);
    for (long l = line - 1; l >= 0 && indent > 0 && ns < SD_LSP_PATH_MAX; l--) {
        size_t a = d->lines[l], e = (size_t)l + 1 < d->nlines ? d->lines[l + 1] - 1 : d->text.len;
        size_t i = a;
        while (i < e && t[i] == ' ')
            i++;
        if (i == e || t[i] == '#' || t[i] == '\r')
            continue;
        int ind = (int)(i - a);
        if (ind >= indent)
            continue;
        if (t[i] == '-')
            return -1;   /* inside a list: left alone */
        size_t k = i;
        while (k < e && t[k] != ':')
            k++;
        if (k == e)
            return -1;
        size_t ke = k;
        while (ke > i && t[ke - 1] == ' ')
            ke--;
        const char *ks = t + i;
        size_t kl = ke - i;
        if (kl >= 2 && (ks[0] == '"' || ks[0] == '\'') && ks[kl - 1] == ks[0])
            ks++, kl -= 2;
        if (!(segs[ns] = strndup(ks, kl))) {
            sd_alloc_note_failure();
            break;
        }
        ns++;
        indent = ind;
    }
    for (int i = ns - 1; i >= 0; i--)
        p->seg[p->n++] = segs[i];
    return 0;
}

/* ---- the model ------------------------------------------------------------ */

json_t *sd_lsp__model(sd_lsp_chart *c)
{
    if (c->model || !c->src || c->model_failed)
        return c->model;
    sd_diags dg = SD_DIAGS_INIT;
    sd_model_opts mo;
    memset(&mo, 0, sizeof mo);
    mo.skip_rows = 1;
    sd_load_budget_reset(0);
    sd_val *m = sd_model_build(c->src, &mo, &dg);
    sd_buf b = SD_BUF_INIT;
    int err = m ? sd_model_write_json(&b, m) : 0, oom = 0;
    sd_doc *doc = NULL;
    if (m && err == 0 && (err = sd_doc_load_mem(&doc, "model", b.ptr, b.len, SD_FMT_JSON, NULL, &dg)) == 0 &&
        doc->nroots == 1)
        c->model = sd_lsp__json_from_node(doc->roots[0].node, 0, &oom);
    sd_doc_free(doc);
    sd_lsp__note_oom(&dg, oom ? SD_ENOMEM : err);
    sd_val_decref(m);
    sd_buf_release(&b);
    sd_diags_release(&dg);
    c->model_failed = !c->model;
    return c->model;
}

/* A node's definition when it is a `ref`, else the node. */
static json_t *deref(json_t *model, json_t *n)
{
    const char *ref = json_string_value(json_object_get(n, "ref"));
    size_t i;
    json_t *def;
    if (!ref)
        return n;
    json_array_foreach(json_object_get(model, "definitions"), i, def) {
        if (!strcmp(json_string_value(json_object_get(def, "id")) ? json_string_value(json_object_get(def, "id")) : "", ref))
            return def;
    }
    return n;
}

/* The member of `n` (an object node) for `key`. */
static json_t *child(json_t *model, json_t *n, const char *key)
{
    size_t i;
    json_t *c, *d = deref(model, n);
    json_array_foreach(json_object_get(n, "properties"), i, c) {
        if (!strcmp(json_string_value(json_object_get(c, "key")) ? json_string_value(json_object_get(c, "key")) : "", key))
            return c;
    }
    if (d != n)
        json_array_foreach(json_object_get(d, "properties"), i, c) {
            if (!strcmp(json_string_value(json_object_get(c, "key")) ? json_string_value(json_object_get(c, "key")) : "", key))
                return c;
        }
    if (key[0] == '[') {
        long k = strtol(key + 1, NULL, 10);
        json_t *e = json_array_get(json_object_get(n, "elements"), (size_t)k);
        if (e)
            return e;
        if ((e = json_object_get(n, "items")) || (e = json_object_get(d, "items")))
            return e;
        return NULL;
    }
    json_t *ap = json_object_get(n, "additionalProperties");
    if (!json_is_object(ap))
        ap = json_object_get(d, "additionalProperties");
    return json_is_object(ap) ? ap : NULL;
}

json_t *sd_lsp__model_node(sd_lsp_chart *c, const sd_lsp_path *p)
{
    json_t *model = sd_lsp__model(c), *n = json_object_get(model, "root");
    for (int i = 0; n && i < p->n; i++)
        n = child(model, n, p->seg[i]);
    return n;
}

json_t *sd_lsp__members(sd_lsp_chart *c, json_t *n)
{
    json_t *d = deref(sd_lsp__model(c), n), *p = json_object_get(n, "properties");
    return json_array_size(p) ? p : json_object_get(d, "properties");
}
