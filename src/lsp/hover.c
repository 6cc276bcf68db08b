/* SPDX-License-Identifier: Apache-2.0 */
/* hover.c - textDocument/hover and where a key is defined: the model node
 * (keypath.c) of the key under the cursor, said in Markdown as the
 * reference page says it (description, type, default, constraints, enum,
 * deprecation, where values.yaml sets it), and the place in values.yaml
 * (else the schema) that defines it (for definition, references.c). */
#include "lsp_int.h"
#include "alloc.h"

#include <stdlib.h>
#include <string.h>

sd_lsp_doc *sd_lsp__doc_at(sd_lsp *s, json_t *params, size_t *off, int *code, const char **why)
{
    sd_lsp_doc *d = sd_lsp__doc_find(s, json_string_value(json_object_get(json_object_get(params, "textDocument"), "uri")));
    json_t *pos = json_object_get(params, "position");
    json_t *l = json_object_get(pos, "line"), *c = json_object_get(pos, "character");
    if (!d || !json_is_integer(l) || !json_is_integer(c)) {
        *code = SD_RPC_INVALID_PARAMS;
        *why = d ? "no position" : "no such open document";
        return NULL;
    }
    *off = sd_lsp__offset(d, (long)json_integer_value(l), (long)json_integer_value(c), s->enc);
    return d;
}

/* `v` as compact JSON, at most 200 bytes, in backticks. */
static void put_value(sd_buf *b, json_t *v)
{
    char *t = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
    if (!t)
        return;
    size_t n = strlen(t);
    sd_buf_printf(b, "`%.*s%s`", (int)(n > 200 ? 200 : n), t, n > 200 ? "..." : "");
    free(t);
}

static void put_markdown(sd_buf *b, json_t *n)
{
    json_t *t = json_object_get(n, "type"), *v;
    const char *s;
    size_t i;

    sd_buf_printf(b, "**%s**", json_string_value(json_object_get(n, "path")) ? json_string_value(json_object_get(n, "path")) : "(values)");
    if (json_array_size(t)) {
        sd_buf_puts(b, " (");
        json_array_foreach(t, i, v) sd_buf_printf(b, "%s%s", i ? " | " : "", json_string_value(v) ? json_string_value(v) : "");
        sd_buf_puts(b, ")");
    }
    if (json_is_true(json_object_get(n, "deprecated")) || json_object_get(n, "deprecation")) {
        s = json_string_value(json_object_get(n, "deprecation"));
        sd_buf_printf(b, "\n\n**Deprecated**%s%s", s ? ": " : "", s ? s : "");
    }
    if ((s = json_string_value(json_object_get(n, "description"))))
        sd_buf_printf(b, "\n\n%s", s);
    sd_buf_puts(b, "\n");
    if ((s = json_string_value(json_object_get(n, "default_text"))))
        sd_buf_printf(b, "\n- Default: %s", s);
    else if (json_is_true(json_object_get(n, "has_default"))) {
        sd_buf_puts(b, "\n- Default: ");
        put_value(b, json_object_get(n, "default"));
    }
    if (json_array_size(json_object_get(n, "enum"))) {
        sd_buf_puts(b, "\n- Allowed values: ");
        json_array_foreach(json_object_get(n, "enum"), i, v) {
            sd_buf_puts(b, i ? ", " : "");
            put_value(b, v);
        }
    }
    if (json_object_get(n, "const")) {
        sd_buf_puts(b, "\n- Only: ");
        put_value(b, json_object_get(n, "const"));
    }
    const char *k;
    json_object_foreach(json_object_get(n, "constraints"), k, v) {
        sd_buf_printf(b, "\n- %s: ", k);
        put_value(b, v);
    }
    if (json_is_true(json_object_get(n, "required")))
        sd_buf_puts(b, "\n- Required");
    if ((s = json_string_value(json_object_get(n, "value_at"))))
        sd_buf_printf(b, "\n- Set in %s", s);
    if ((s = json_string_value(json_object_get(n, "defined_at"))))
        sd_buf_printf(b, "\n- Schema: %s", s);
}

json_t *sd_lsp__hover(sd_lsp *s, json_t *params, int *code, const char **why)
{
    size_t off;
    sd_lsp_doc *d = sd_lsp__doc_at(s, params, &off, code, why);
    sd_lsp_path p;
    json_t *n, *out = NULL;

    if (!d || !d->chart || sd_lsp__path_at(d, off, &p) < 0)
        return NULL;
    if ((n = sd_lsp__model_node(d->chart, &p))) {
        sd_buf b = SD_BUF_INIT;
        put_markdown(&b, n);
        out = json_pack("{s:{s:s,s:s}}", "contents", "kind", "markdown", "value", b.ptr);
        sd_buf_release(&b);
    }
    sd_lsp__path_release(&p);
    return out;
}

/* "values.yaml:12:5" of the chart in `dir` as a Location. */
static json_t *location(const char *dir, const char *at)
{
    const char *c2 = strrchr(at, ':'), *c1;
    if (!c2 || c2 == at)
        return NULL;
    for (c1 = c2 - 1; c1 > at && *c1 != ':'; c1--)
        ;
    if (*c1 != ':')
        return NULL;
    long line = strtol(c1 + 1, NULL, 10), col = strtol(c2 + 1, NULL, 10);
    sd_buf f = SD_BUF_INIT;
    sd_buf_printf(&f, "%s/%.*s", dir, (int)(c1 - at), at);
    char *uri = sd_lsp__path_uri(f.ptr);
    sd_buf_release(&f);
    if (!uri || line < 1)
        return free(uri), NULL;
    json_t *l = json_pack("{s:s,s:{s:{s:i,s:i},s:{s:i,s:i}}}", "uri", uri, "range", "start", "line",
                          (json_int_t)(line - 1), "character", (json_int_t)(col > 0 ? col - 1 : 0), "end", "line",
                          (json_int_t)(line - 1), "character", (json_int_t)(col > 0 ? col - 1 : 0));
    free(uri);
    return l;
}

json_t *sd_lsp__values_location(sd_lsp_chart *c, const sd_lsp_path *p)
{
    json_t *n = sd_lsp__model_node(c, p);
    const char *at;
    json_t *l = NULL;
    if (n && ((at = json_string_value(json_object_get(n, "value_at"))) ||
              (at = json_string_value(json_object_get(n, "defined_at")))) && strncmp(at, "http", 4) &&
        (!c->is_schema || c->dir[0] == '/')) {
        /* a plain schema's places are named from its folder */
        const char *slash = c->is_schema ? strrchr(c->dir, '/') : NULL;
        char *dir = slash ? strndup(c->dir, (size_t)(slash - c->dir)) : NULL;
        if (slash && !dir)
            return sd_alloc_note_failure(), NULL;
        l = location(dir ? dir : c->dir, at);
        free(dir);
    }
    return l;
}
