/* SPDX-License-Identifier: Apache-2.0 */
/* actions.c - textDocument/codeAction: quick fixes made from our own
 * published diagnostics (never from a range the client sends back). An
 * unknown key with a did-you-mean: replace it by the key meant. A
 * deprecated key whose notice names its replacement, a key of the same map
 * that the chart knows ("use `x` instead"): rename it (never a guess: no
 * name, several names, or a key elsewhere, and there is no action). A
 * missing required key: insert `key: <default, or an empty value of its
 * type>` as the last key of its map, at the map's indentation. What
 * they need is in the diagnostics' `data` (data.c). */
#include "lsp_int.h"
#include "alloc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ---- the insertion of a required key --------------------------------------- */

/* The parsed map at pointer `ptr`, its model path in `mp` ("[3]" for list
 * items). NULL when the text does not reach it. */
static const sd_node *map_at(sd_lsp_doc *d, const char *ptr, sd_lsp_path *mp)
{
    sd_lsp_path p;
    const sd_node *n = sd_lsp__doc_root(d);
    memset(mp, 0, sizeof *mp);
    if (sd_lsp__ptr_path(ptr, &p) < 0)
        return NULL;
    for (int i = 0; n && i < p.n; i++) {
        char idx[32];
        const char *seg = p.seg[i];
        if (n->kind == SD_SEQ) {
            char *e;
            unsigned long k = strtoul(seg, &e, 10);
            n = *e || k >= n->n ? NULL : n->items[k].value;
            snprintf(idx, sizeof idx, "[%lu]", k);
            seg = idx;
        } else {
            n = n->kind == SD_MAP ? sd_node_get(n, seg) : NULL;
        }
        if (mp->n < SD_LSP_PATH_MAX && !(mp->seg[mp->n++] = strdup(seg)))
            mp->n--, n = NULL, sd_alloc_note_failure();
    }
    sd_lsp__path_release(&p);
    return n;
}

/* `key: value` for a key the schema requires: its default (short), else an
 * empty value of its type. */
static void new_entry(sd_buf *b, sd_lsp_chart *c, sd_lsp_path *mp, const char *key)
{
    int plain = *key && (isalpha((unsigned char)*key) || *key == '_');
    for (const char *k = key; *k && plain; k++)
        plain = isalnum((unsigned char)*k) || *k == '_' || *k == '-' || *k == '.' || *k == '/';
    if (plain)
        sd_buf_puts(b, key);
    else {
        char *q = json_dumps(json_string(key), JSON_ENCODE_ANY);
        sd_buf_puts(b, q ? q : key);
        free(q);
    }
    sd_buf_puts(b, ":");
    json_t *n = NULL;
    if (mp->n < SD_LSP_PATH_MAX && (mp->seg[mp->n] = strdup(key))) {
        mp->n++;
        n = sd_lsp__model_node(c, mp);
    } else if (mp->n < SD_LSP_PATH_MAX) {
        sd_alloc_note_failure();
    }
    char *dv = json_is_true(json_object_get(n, "has_default"))
               ? json_dumps(json_object_get(n, "default"), JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
    const char *ty = json_string_value(json_array_get(json_object_get(n, "type"), 0));
    if (dv && strlen(dv) <= 200 && !strchr(dv, '\n'))
        sd_buf_printf(b, " %s", dv);
    else if (ty)
        sd_buf_puts(b, !strcmp(ty, "string") ? " \"\"" : !strcmp(ty, "integer") || !strcmp(ty, "number") ? " 0"
                       : !strcmp(ty, "boolean") ? " false" : !strcmp(ty, "object") ? " {}"
                       : !strcmp(ty, "array") ? " []" : " null");
    free(dv);
}

/* Where `key` goes in the map at `ptr`, and its line: after the map's last
 * line, at its first key's column. 0, or -1 for a map this cannot write
 * into (a flow map, one the text does not hold). */
static int insertion(sd_lsp_doc *d, const char *ptr, const char *key, size_t *at, sd_buf *line)
{
    sd_lsp_path mp;
    const sd_node *m = map_at(d, ptr, &mp);
    const char *t = d->text.ptr;
    int col = 1;
    long first = -1, last = -1;

    if (sd_lsp__lines(d) < 0)
        goto no;
    if (m && m->kind == SD_MAP && m->n && m->items[0].key && m->items[0].key->loc.line) {
        const sd_node *k = m->items[0].key;
        size_t a = sd_lsp__loc_offset(d, k->loc.line, k->loc.column), ls = d->lines[k->loc.line - 1];
        for (size_t i = ls; i < a; i++)
            if (t[i] != ' ' && t[i] != '-')
                goto no;   /* a flow map, or a key after something else */
        col = (int)(a - ls) + 1;
        first = last = k->loc.line - 1;
    } else if (!(ptr[0] == '\0' && (!m || m->kind == SD_NULL))) {
        goto no;
    }
    /* the map's lines: those indented to its keys' column or more (blank
     * and comment lines between them go with them) */
    for (long l = first + 1; first >= 0 && (size_t)l < d->nlines; l++) {
        size_t a = d->lines[l], e = (size_t)l + 1 < d->nlines ? d->lines[l + 1] - 1 : d->text.len, i = a;
        while (i < e && t[i] == ' ')
            i++;
        if (i == e || t[i] == '#' || t[i] == '\r')
            continue;
        if ((int)(i - a) < col - 1)
            break;
        last = l;
    }
    if (last >= 0 && (size_t)last + 1 < d->nlines)
        *at = d->lines[last + 1];
    else
        *at = d->text.len;
    if (*at && t[*at - 1] != '\n')
        sd_buf_putc(line, '\n');
    for (int i = 1; i < col; i++)
        sd_buf_putc(line, ' ');
    new_entry(line, d->chart, &mp, key);
    sd_buf_putc(line, '\n');
    sd_lsp__path_release(&mp);
    return 0;
no:
    sd_lsp__path_release(&mp);
    return -1;
}

/* ---- the actions ------------------------------------------------------------ */

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


/* A quick fix: `title`, fixing `g` (the client's diagnostic), replacing
 * `range` by `text`. */
static void add_fix(json_t *out, const char *uri, const char *title, json_t *g, json_t *range, const char *text,
                    size_t n)
{
    json_t *edit = json_pack("{s:{s:[{s:O,s:s%}]}}", "changes", uri, "range", range, "newText", text, n);
    json_t *a = edit ? json_pack("{s:s,s:s,s:[O],s:o,s:b}", "title", title, "kind", "quickfix",
                                 "diagnostics", g, "edit", edit, "isPreferred", 1) : NULL;
    if (a)
        json_array_append_new(out, a);
}

/* The did-you-mean of an unknown key: the key meant, in [*m, *e). */
static int did_you_mean(const char *msg, const char **m, const char **e)
{
    const char *k = msg ? strstr(msg, "did you mean `") : NULL;
    if (!k || !(*e = strchr(k + 14, '`')))
        return 0;
    *m = k + 14;
    return 1;
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
        if (!c || !json_object_get(g, "range") || (given == d->published && !meets(json_object_get(g, "range"), want)))
            continue;
        json_t *mine = given == d->published ? g : own_diagnostic(d, g);
        if (!mine || !json_object_get(mine, "range"))
            continue;   /* not one of ours (any more): no edit from a range we did not make */
        json_t *range = json_object_get(mine, "range");
        json_t *data = json_object_get(mine, "data");
        const char *m, *e;
        sd_buf title = SD_BUF_INIT;
        if ((!strcmp(c, "unknownKey") || !strcmp(c, "additionalProperties")) && did_you_mean(msg, &m, &e)) {
            const char *last = m;
            for (const char *q = m; q < e; q++)
                if (*q == '.')
                    last = q + 1;
            if (last != e && !memchr(last, '"', (size_t)(e - last)) && !memchr(last, '[', (size_t)(e - last))) {
                sd_buf_printf(&title, "Did you mean `%.*s`?", (int)(e - m), m);
                add_fix(out, uri, title.ptr, g, range, last, (size_t)(e - last));
            }
        } else if (!strcmp(c, "deprecated") && json_string_value(json_object_get(data, "replacement"))) {
            const char *r = json_string_value(json_object_get(data, "replacement"));
            size_t a = sd_lsp__offset(d, (long)json_integer_value(json_object_get(json_object_get(range, "start"), "line")),
                                      (long)json_integer_value(json_object_get(json_object_get(range, "start"), "character")),
                                      s->enc);
            size_t b = sd_lsp__offset(d, (long)json_integer_value(json_object_get(json_object_get(range, "end"), "line")),
                                      (long)json_integer_value(json_object_get(json_object_get(range, "end"), "character")),
                                      s->enc);
            sd_buf_printf(&title, "Replace deprecated key `%.*s` by `%s`", (int)(b - a), d->text.ptr + a, r);
            add_fix(out, uri, title.ptr, g, range, r, strlen(r));
        } else if (!strcmp(c, "required") && (m = strstr(msg ? msg : "", "missing required key `")) &&
                   (e = strchr(m + 22, '`')) && json_string_value(json_object_get(data, "path"))) {
            char *key = strndup(m + 22, (size_t)(e - m - 22));
            if (!key)
                sd_alloc_note_failure();
            sd_buf line = SD_BUF_INIT;
            size_t at;
            if (key && insertion(d, json_string_value(json_object_get(data, "path")), key, &at, &line) == 0 &&
                !sd_buf_failed(&line)) {
                json_t *r = sd_lsp__range(d, at, at, s->enc);
                sd_buf_printf(&title, "Add the required key `%s`", key);
                add_fix(out, uri, title.ptr, g, r, line.ptr, line.len);
                json_decref(r);
            }
            free(key);
            sd_buf_release(&line);
        }
        sd_buf_release(&title);
    }
    return out;
}
