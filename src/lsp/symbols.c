/* SPDX-License-Identifier: Apache-2.0 */
/* symbols.c - textDocument/documentSymbol: the key tree of the open text
 * (parsed as it is now), each key with the range of its whole entry (to
 * the end of its last value's line) and its kind by its value's type. */
#include "lsp_int.h"

#include <stdio.h>
#include <string.h>

/* The last line any value under `n` starts on. */
static int last_line(const sd_node *n, int depth)
{
    int l = n ? n->loc.line : 0;
    if (!n || depth > 200 || (n->kind != SD_MAP && n->kind != SD_SEQ))
        return l;
    for (size_t i = 0; i < n->n; i++) {
        int k = last_line(n->items[i].value, depth + 1);
        if (n->items[i].key && n->items[i].key->loc.line > k)
            k = n->items[i].key->loc.line;
        if (k > l)
            l = k;
    }
    return l;
}

static int kind_of(const sd_node *v)
{
    switch (v ? v->kind : SD_NULL) {
    case SD_MAP: return 19;   /* Object */
    case SD_SEQ: return 18;   /* Array */
    case SD_STR: return 15;   /* String */
    case SD_INT: case SD_FLOAT: return 16;   /* Number */
    case SD_BOOL: return 17;  /* Boolean */
    default: return 21;       /* Null */
    }
}

static json_t *children(sd_lsp *s, sd_lsp_doc *d, const sd_node *n, int depth)
{
    json_t *out = json_array();
    if (!out || !n || depth > 100)
        return out;
    for (size_t i = 0; i < n->n; i++) {
        const sd_pair *p = &n->items[i];
        const sd_node *at = p->key ? p->key : p->value;
        if (!at || !at->loc.line)
            continue;
        size_t a = sd_lsp__loc_offset(d, at->loc.line, at->loc.column);
        size_t ka = sd_lsp__span_end(d, a, SD_SPAN_KEY);
        int ll = last_line(p->value, 0);
        if (ll < at->loc.line)
            ll = at->loc.line;
        size_t e = sd_lsp__offset(d, ll - 1, 1L << 30, SD_LSP_UTF8);
        char idx[32];
        const char *name = p->key ? p->key->str : idx;
        if (!p->key)
            snprintf(idx, sizeof idx, "[%zu]", i);
        json_t *sym = json_pack("{s:s,s:i,s:o,s:o}", "name", name && *name ? name : "\"\"",
                                "kind", kind_of(p->value), "range", sd_lsp__range(d, a, e, s->enc),
                                "selectionRange", sd_lsp__range(d, a, p->key ? ka : a, s->enc));
        if (!sym)
            continue;
        if (p->value && p->value->kind != SD_MAP && p->value->kind != SD_SEQ && p->value->str)
            json_object_set_new(sym, "detail", json_stringn(p->value->str, p->value->len > 80 ? 80 : p->value->len));
        if (p->value && (p->value->kind == SD_MAP || p->value->kind == SD_SEQ) && p->value->n)
            json_object_set_new(sym, "children", children(s, d, p->value, depth + 1));
        json_array_append_new(out, sym);
    }
    return out;
}

json_t *sd_lsp__symbols(sd_lsp *s, json_t *params, int *code, const char **why)
{
    sd_lsp_doc *d = sd_lsp__doc_find(s, json_string_value(json_object_get(json_object_get(params, "textDocument"), "uri")));
    if (!d) {
        *code = SD_RPC_INVALID_PARAMS;
        *why = "no such open document";
        return NULL;
    }
    const sd_node *root = sd_lsp__doc_root(d);
    return root && root->kind == SD_MAP ? children(s, d, root, 0) : json_array();
}
