/* SPDX-License-Identifier: Apache-2.0 */
/* complete.c - textDocument/completion and textDocument/codeAction. Keys:
 * the members of the map the cursor's indentation puts it in, less those
 * already there (a free-form map offers nothing); values: after `key: `,
 * the key's enum values, booleans and null as its type allows. Code
 * actions: each unknown-key warning with a did-you-mean becomes a quick
 * fix replacing the key. */
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

/* Does LSP range `r` (of a diagnostic) meet `want`, lines only? */
static int meets(json_t *r, json_t *want)
{
    json_int_t a = json_integer_value(json_object_get(json_object_get(r, "start"), "line"));
    json_int_t b = json_integer_value(json_object_get(json_object_get(r, "end"), "line"));
    json_int_t x = json_integer_value(json_object_get(json_object_get(want, "start"), "line"));
    json_int_t y = json_integer_value(json_object_get(json_object_get(want, "end"), "line"));
    return !want || (a <= y && b >= x);
}

/* Our published diagnostic that `g` (a client's) stands for: the same
 * code and message on the same line, or NULL. The edit is made from its
 * range, never from the client's: Neovim 0.7 sends the range back in
 * byte columns whatever encoding was agreed. */
static json_t *own_diagnostic(const sd_lsp_doc *d, json_t *g)
{
    const char *msg = json_string_value(json_object_get(g, "message"));
    const char *c = json_string_value(json_object_get(g, "code"));
    json_t *line = json_object_get(json_object_get(json_object_get(g, "range"), "start"), "line");
    json_t *p;
    size_t i;
    json_array_foreach(d->published, i, p) {
        const char *pm = json_string_value(json_object_get(p, "message"));
        const char *pc = json_string_value(json_object_get(p, "code"));
        json_t *pl = json_object_get(json_object_get(json_object_get(p, "range"), "start"), "line");
        if (pm && msg && pc && c && !strcmp(pm, msg) && !strcmp(pc, c) &&
            (!json_is_integer(line) || !json_is_integer(pl) || json_integer_value(line) == json_integer_value(pl)))
            return p;
    }
    return NULL;
}

json_t *sd_lsp__actions(sd_lsp *s, json_t *params, int *code, const char **why)
{
    const char *uri = json_string_value(json_object_get(json_object_get(params, "textDocument"), "uri"));
    sd_lsp_doc *d = sd_lsp__doc_find(s, uri);
    json_t *out, *g, *given = json_object_get(json_object_get(params, "context"), "diagnostics");
    json_t *want = json_object_get(params, "range");
    size_t i;
    int whole = 1;

    if (!d) {
        *code = SD_RPC_INVALID_PARAMS;
        *why = "no such open document";
        return NULL;
    }
    if (d->dirty)   /* edits not validated yet: the actions are for the text as it is */
        sd_lsp__publish(s, d);
    /* the client's diagnostics, when it sends them whole; else (Neovim 0.7
     * sends code and relatedInformation only) ours in the range */
    json_array_foreach(given, i, g) {
        if (!json_is_string(json_object_get(g, "message")) || !json_object_get(g, "range"))
            whole = 0;
    }
    if (!whole || !json_array_size(given))
        given = d->published;
    if (!(out = json_array()))
        return NULL;
    json_array_foreach(given, i, g) {
        const char *msg = json_string_value(json_object_get(g, "message"));
        const char *c = json_string_value(json_object_get(g, "code"));
        const char *m = msg ? strstr(msg, "did you mean `") : NULL, *e;
        if (!c || (strcmp(c, "unknownKey") && strcmp(c, "additionalProperties")) || !m || !(e = strchr(m + 14, '`')) ||
            !json_object_get(g, "range") || (given == d->published && !meets(json_object_get(g, "range"), want)))
            continue;
        m += 14;
        const char *last = m;
        for (const char *q = m; q < e; q++)
            if (*q == '.')
                last = q + 1;
        if (last == e || memchr(last, '"', (size_t)(e - last)) || memchr(last, '[', (size_t)(e - last)))
            continue;
        sd_buf title = SD_BUF_INIT;
        sd_buf_printf(&title, "Did you mean `%.*s`?", (int)(e - m), m);
        json_t *mine = given == d->published ? g : own_diagnostic(d, g);
        if (!mine || !json_object_get(mine, "range")) {
            sd_buf_release(&title);
            continue;   /* not one of ours (any more): no edit from a range we did not make */
        }
        json_t *edit = json_pack("{s:{s:[{s:O,s:s%}]}}", "changes", uri, "range", json_object_get(mine, "range"),
                                 "newText", last, (size_t)(e - last));
        json_t *a = edit ? json_pack("{s:s,s:s,s:[O],s:o,s:b}", "title", title.ptr, "kind", "quickfix",
                                     "diagnostics", g, "edit", edit, "isPreferred", 1) : NULL;
        if (a)
            json_array_append_new(out, a);
        sd_buf_release(&title);
    }
    return out;
}
