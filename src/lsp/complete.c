/* SPDX-License-Identifier: Apache-2.0 */
/* complete.c - textDocument/completion. Keys: the members of the map the
 * cursor's indentation puts it in, less those already there (a free-form
 * map offers nothing); values: after `key: `, the key's enum values,
 * booleans and null as its type allows. */
#include "lsp_int.h"
#include "alloc.h"

#include <stdlib.h>
#include <string.h>

static char *dump(json_t *v)
{
    return json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
}

static int has_type(json_t *n, const char *t)
{
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(n, "type"), i, v) {
        if (json_string_value(v) && !strcmp(json_string_value(v), t))
            return 1;
    }
    return 0;
}

static void add_item(json_t *items, const char *label, int kind, const char *detail, const char *doc,
                     const char *insert)
{
    json_t *it = json_pack("{s:s,s:i}", "label", label, "kind", kind);
    if (!it)
        return;
    if (detail)
        json_object_set_new(it, "detail", json_string(detail));
    if (doc)
        json_object_set_new(it, "documentation", json_pack("{s:s,s:s}", "kind", "markdown", "value", doc));
    if (insert)
        json_object_set_new(it, "insertText", json_string(insert));
    json_array_append_new(items, it);
}

/* enum values, booleans, null for the value of model node `n` */
static void values(json_t *items, json_t *n)
{
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(n, "enum"), i, v) {
        char *t = dump(v);
        if (t)
            add_item(items, t, 20, "enum", NULL, NULL);
        free(t);
    }
    if (json_array_size(json_object_get(n, "enum")))
        return;
    if (has_type(n, "boolean")) {
        add_item(items, "true", 12, "boolean", NULL, NULL);
        add_item(items, "false", 12, "boolean", NULL, NULL);
    }
    if (has_type(n, "null") || json_is_true(json_object_get(n, "nullable")))
        add_item(items, "null", 12, "null", NULL, NULL);
}

/* Is `key` already written at `indent` in the block around line `line`? */
static int present(sd_lsp_doc *d, long line, int indent, const char *key)
{
    const char *t = d->text.ptr;
    size_t kl = strlen(key);
    for (int dir = -1; dir <= 1; dir += 2) {
        for (long l = line + (dir > 0); l >= 0 && (size_t)l < d->nlines; l += dir) {
            size_t a = d->lines[l], e = (size_t)l + 1 < d->nlines ? d->lines[l + 1] - 1 : d->text.len, i = a;
            while (i < e && t[i] == ' ')
                i++;
            if (i == e || t[i] == '#' || t[i] == '\r' || l == line)
                continue;
            int ind = (int)(i - a);
            if (ind < indent)
                break;
            if (ind == indent && e - i > kl && !strncmp(t + i, key, kl) && t[i + kl] == ':')
                return 1;
        }
    }
    return 0;
}

json_t *sd_lsp__complete(sd_lsp *s, json_t *params, int *code, const char **why)
{
    size_t off;
    sd_lsp_doc *d = sd_lsp__doc_at(s, params, &off, code, why);
    sd_lsp_path p;
    json_t *items, *n;
    long line, ch;

    if (!d || !d->chart || !(items = json_array()))
        return d ? json_array() : NULL;
    sd_lsp__position(d, off, SD_LSP_UTF8, &line, &ch);
    const char *t = d->text.ptr, *ls = t + d->lines[line], *cur = t + off;
    const char *k = ls;
    while (k < cur && *k == ' ')
        k++;
    int indent = (int)(k - ls);
    const char *colon = memchr(k, ':', (size_t)(cur - k));
    if (colon && k < cur && *k != '-' && *k != '#') {
        /* a value: the key's enum, booleans, null */
        sd_lsp__parent_at(d, off, indent, &p);
        if (p.n < SD_LSP_PATH_MAX) {
            if ((p.seg[p.n] = strndup(k, (size_t)(colon - k))))
                p.n++;
            else
                sd_alloc_note_failure();
        }
        if ((n = sd_lsp__model_node(d->chart, &p)))
            values(items, n);
        sd_lsp__path_release(&p);
        return items;
    }
    for (const char *c = k; c < cur; c++)
        if (!(c[0] == '_' || c[0] == '-' || c[0] == '.' || (c[0] >= '0' && c[0] <= '9') ||
              ((c[0] | 32) >= 'a' && (c[0] | 32) <= 'z')))
            return items;   /* a list item, a comment: no key here */
    if (sd_lsp__parent_at(d, off, indent, &p) < 0)
        return items;
    json_t *m = (n = sd_lsp__model_node(d->chart, &p)) ? sd_lsp__members(d->chart, n) : NULL, *c;
    size_t i;
    json_array_foreach(m, i, c) {
        const char *key = json_string_value(json_object_get(c, "key"));
        if (!key || !*key || present(d, line, indent, key))
            continue;
        sd_buf detail = SD_BUF_INIT, ins = SD_BUF_INIT;
        size_t j;
        json_t *ty;
        json_array_foreach(json_object_get(c, "type"), j, ty) sd_buf_printf(&detail, "%s%s", j ? " | " : "", json_string_value(ty));
        json_t *dv = json_object_get(c, "default");
        sd_buf_printf(&ins, "%s: ", key);
        if (json_is_true(json_object_get(c, "has_default")) && dv && !json_is_object(dv) && !json_is_array(dv)) {
            char *dt = dump(dv);
            sd_buf_printf(&detail, "%sdefault %s", detail.len ? ", " : "", dt ? dt : "");
            free(dt);
        }
        add_item(items, key, 10, detail.ptr, json_string_value(json_object_get(c, "description")), ins.ptr);
        sd_buf_release(&detail);
        sd_buf_release(&ins);
    }
    sd_lsp__path_release(&p);
    return items;
}
