/* SPDX-License-Identifier: Apache-2.0 */
/* docs.c - the open documents: their text as the editor holds it, kept up
 * to date by didOpen, didChange (whole text, or incremental ranges in the
 * negotiated encoding) and didClose; file: URIs to paths and back; the
 * text parsed on demand for the features. */
#include "lsp_int.h"
#include "alloc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

sd_lsp_doc *sd_lsp__doc_find(sd_lsp *s, const char *uri)
{
    for (size_t i = 0; uri && i < s->ndocs; i++)
        if (!strcmp(s->docs[i]->uri, uri))
            return s->docs[i];
    return NULL;
}

static int hexval(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

char *sd_lsp__uri_path(const char *uri)
{
    if (!uri || strncmp(uri, "file://", 7))
        return NULL;
    const char *p = uri + 7;
    if (*p != '/') {   /* file://localhost/x */
        if (strncmp(p, "localhost/", 10))
            return NULL;
        p += 9;
    }
    char *out = malloc(strlen(p) + 1), *o = out;
    if (!out)
        return sd_alloc_note_failure(), NULL;
    for (; *p && *p != '?' && *p != '#'; p++) {
        int h, l;
        if (*p == '%' && (h = hexval(p[1])) >= 0 && (l = hexval(p[2])) >= 0) {
            *o++ = (char)(h * 16 + l);
            p += 2;
        } else {
            *o++ = *p;
        }
    }
    *o = '\0';
    if (memchr(out, '\0', (size_t)(o - out))) {   /* %00: no path */
        free(out);
        return NULL;
    }
    return out;
}

char *sd_lsp__path_uri(const char *path)
{
    sd_buf b = SD_BUF_INIT;
    sd_buf_puts(&b, "file://");
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if (isalnum(*p) || strchr("/-._~", *p))
            sd_buf_putc(&b, (char)*p);
        else
            sd_buf_printf(&b, "%%%02X", *p);
    }
    if (sd_buf_failed(&b)) {
        sd_buf_release(&b);
        return NULL;
    }
    return sd_buf_detach(&b);
}

static void doc_free(sd_lsp_doc *d)
{
    if (!d)
        return;
    free(d->uri);
    free(d->path);
    free(d->lines);
    sd_lsp__span_forget(d);
    free(d->chart_why);
    sd_buf_release(&d->text);
    sd_doc_free(d->parsed);
    json_decref(d->published);
    free(d);
}

/* The text changed: positions and the parse are stale. */
static void touched(sd_lsp_doc *d)
{
    d->nlines = 0;
    sd_lsp__span_forget(d);
    d->dirty = 1;
    sd_doc_free(d->parsed);
    d->parsed = NULL;
    d->parsed_ok = 0;
}

int sd_lsp__did_open(sd_lsp *s, json_t *params, sd_lsp_doc **out)
{
    json_t *td = json_object_get(params, "textDocument");
    const char *uri = json_string_value(json_object_get(td, "uri"));
    json_t *text = json_object_get(td, "text");
    sd_lsp_doc *d;

    *out = NULL;
    if (!uri || !json_is_string(text))
        return -1;
    if ((d = sd_lsp__doc_find(s, uri))) {   /* opened twice: the new text wins */
        sd_buf_clear(&d->text);
    } else {
        sd_lsp_doc **l = realloc(s->docs, (s->ndocs + 1) * sizeof *l);
        if (!l || !(d = calloc(1, sizeof *d)) || !(d->uri = strdup(uri))) {
            if (l)
                s->docs = l;
            free(d);
            return sd_alloc_note_failure(), -1;
        }
        s->docs = l;
        s->docs[s->ndocs++] = d;
        d->path = sd_lsp__uri_path(uri);
    }
    sd_buf_put(&d->text, json_string_value(text), json_string_length(text));
    d->version = (long)json_integer_value(json_object_get(td, "version"));
    touched(d);
    *out = d;
    return sd_buf_failed(&d->text) ? -1 : 0;
}

/* One change: a range replaced, or (no range) the whole text. */
static int apply(sd_lsp *s, sd_lsp_doc *d, json_t *c)
{
    json_t *t = json_object_get(c, "text"), *r = json_object_get(c, "range");
    if (!json_is_string(t))
        return -1;
    if (!r) {
        sd_buf_clear(&d->text);
        sd_buf_put(&d->text, json_string_value(t), json_string_length(t));
        touched(d);
        return sd_buf_failed(&d->text) ? -1 : 0;
    }
    json_t *a = json_object_get(r, "start"), *b = json_object_get(r, "end");
    json_t *al = json_object_get(a, "line"), *ac = json_object_get(a, "character");
    json_t *bl = json_object_get(b, "line"), *bc = json_object_get(b, "character");
    if (!json_is_integer(al) || !json_is_integer(ac) || !json_is_integer(bl) || !json_is_integer(bc))
        return -1;
    size_t from = sd_lsp__offset(d, (long)json_integer_value(al), (long)json_integer_value(ac), s->enc);
    size_t to = sd_lsp__offset(d, (long)json_integer_value(bl), (long)json_integer_value(bc), s->enc);
    if (to < from)
        return -1;
    size_t n = json_string_length(t), keep = d->text.len - to;
    sd_buf nb = SD_BUF_INIT;
    if (sd_buf_grow(&nb, from + n + keep + 1) < 0)
        return -1;
    sd_buf_put(&nb, d->text.ptr, from);
    sd_buf_put(&nb, json_string_value(t), n);
    sd_buf_put(&nb, d->text.ptr + to, keep);
    sd_buf_release(&d->text);
    d->text = nb;
    touched(d);
    return 0;
}

int sd_lsp__did_change(sd_lsp *s, json_t *params)
{
    json_t *td = json_object_get(params, "textDocument");
    sd_lsp_doc *d = sd_lsp__doc_find(s, json_string_value(json_object_get(td, "uri")));
    json_t *changes = json_object_get(params, "contentChanges"), *c;
    size_t i;

    if (!d || !json_is_array(changes))
        return -1;
    json_array_foreach(changes, i, c) {
        if (apply(s, d, c) < 0)
            return -1;
    }
    if (json_is_integer(json_object_get(td, "version")))
        d->version = (long)json_integer_value(json_object_get(td, "version"));
    return 0;
}

int sd_lsp__did_close(sd_lsp *s, json_t *params)
{
    const char *uri = json_string_value(json_object_get(json_object_get(params, "textDocument"), "uri"));
    for (size_t i = 0; uri && i < s->ndocs; i++)
        if (!strcmp(s->docs[i]->uri, uri)) {
            /* its diagnostics go with it */
            sd_lsp__notify(s, "textDocument/publishDiagnostics",
                           json_pack("{s:s,s:[]}", "uri", uri, "diagnostics"));
            doc_free(s->docs[i]);
            memmove(s->docs + i, s->docs + i + 1, (s->ndocs - i - 1) * sizeof *s->docs);
            s->ndocs--;
            return 0;
        }
    return -1;
}

void sd_lsp__docs_free(sd_lsp *s)
{
    for (size_t i = 0; i < s->ndocs; i++)
        doc_free(s->docs[i]);
    free(s->docs);
    s->docs = NULL;
    s->ndocs = 0;
}

/* A JSON document of the loader (load/json.c: positions, limits, and no
 * assertion inside when an allocation fails, as jansson's lexer has) as
 * jansson values. NULL with *oom set when an allocation failed. */
json_t *sd_lsp__json_from_node(const sd_node *n, int depth, int *oom)
{
    json_t *j = NULL;
    if (!n || depth > 1000)
        return json_null();
    switch (n->kind) {
    case SD_NULL:  j = json_null(); break;
    case SD_BOOL:  j = json_boolean(n->num.b); break;
    case SD_INT:   j = n->big ? json_real(n->num.f) : json_integer(n->num.i); break;
    case SD_FLOAT: j = json_real(n->num.f); break;
    case SD_STR:   j = json_stringn_nocheck(n->str, n->len); break;
    case SD_MAP:
        if (!(j = json_object()))
            break;
        for (size_t i = 0; i < n->n && !*oom; i++)
            if (json_object_setn_new_nocheck(j, n->items[i].key->str, n->items[i].key->len,
                                             sd_lsp__json_from_node(n->items[i].value, depth + 1, oom)) < 0)
                *oom = 1;
        break;
    case SD_SEQ:
        if (!(j = json_array()))
            break;
        for (size_t i = 0; i < n->n && !*oom; i++)
            if (json_array_append_new(j, sd_lsp__json_from_node(n->items[i].value, depth + 1, oom)) < 0)
                *oom = 1;
        break;
    }
    if (!j)
        *oom = 1;
    if (*oom) {
        json_decref(j);
        return NULL;
    }
    return j;
}

void sd_lsp__note_oom(const sd_diags *dg, int err)
{
    int oom = err == SD_ENOMEM;
    for (size_t i = 0; i < dg->count && !oom; i++)
        oom = dg->items[i].code == SD_ENOMEM;
    if (oom)   /* the answer is incomplete: the exit status says so (main.c) */
        sd_alloc_note_failure();
}

const sd_node *sd_lsp__doc_root(sd_lsp_doc *d)
{
    if (!d->parsed && !d->parsed_ok) {
        sd_diags dg = SD_DIAGS_INIT;
        d->parsed_ok = 1;   /* tried: not again until the text changes */
        sd_load_budget_reset(0);
        int err = sd_doc_load_mem(&d->parsed, d->path ? d->path : d->uri, d->text.ptr, d->text.len,
                                  SD_FMT_YAML, NULL, &dg);
        if (err < 0)
            d->parsed = NULL;
        sd_lsp__note_oom(&dg, err);
        sd_diags_release(&dg);
    }
    return d->parsed ? sd_doc_root(d->parsed) : NULL;
}
