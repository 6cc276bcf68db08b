/* SPDX-License-Identifier: Apache-2.0 */
/* emit.c - sd_node -> JSON text (see emit.h). */
#include "emit.h"
#include "alloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sd_emit_json_string(sd_buf *b, const char *s, size_t len)
{
    sd_buf_putc(b, '"');
    sd_buf_put_escaped(b, SD_ESC_JSON, s, len);
    sd_buf_putc(b, '"');
}

void sd_emit_number(sd_buf *b, double d)
{
    char tmp[40];
    if (!isfinite(d)) {
        sd_buf_puts(b, "null");
        return;
    }
    if (d == floor(d) && fabs(d) < 1e15) {
        sd_buf_printf(b, "%.0f", d);
        return;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, d);
        if (strtod(tmp, NULL) == d)
            break;
    }
    sd_buf_puts(b, tmp);
}

static void nl(sd_buf *b, int flags, int indent)
{
    if (flags & SD_EMIT_PRETTY) {
        sd_buf_putc(b, '\n');
        for (int i = 0; i < indent; i++)
            sd_buf_puts(b, "  ");
    }
}

static void scalar(sd_buf *b, const sd_node *n)
{
    switch (n->kind) {
    case SD_NULL: sd_buf_puts(b, "null"); break;
    case SD_BOOL: sd_buf_puts(b, n->num.b ? "true" : "false"); break;
    case SD_INT:
        if (n->big && n->style == SD_STYLE_JSON) sd_buf_put(b, n->str, n->len);
        else if (n->big) sd_emit_number(b, n->num.f);
        else sd_buf_printf(b, "%lld", n->num.i);
        break;
    case SD_FLOAT:
        if (n->style == SD_STYLE_JSON && n->str) sd_buf_put(b, n->str, n->len);
        else sd_emit_number(b, n->num.f);
        break;
    default: sd_emit_json_string(b, n->str, n->len); break;
    }
}

static void comments_json(sd_buf *b, const sd_doc *doc, uint32_t first, uint32_t count)
{
    sd_buf_putc(b, '[');
    for (uint32_t i = 0; i < count; i++) {
        const sd_comment *c = &doc->comments[first + i];
        if (i)
            sd_buf_puts(b, ", ");
        sd_emit_json_string(b, c->text, c->len);
    }
    sd_buf_putc(b, ']');
}

void sd_emit_json(sd_buf *b, const sd_doc *doc, const sd_node *n, int flags, int indent)
{
    int pos = flags & SD_EMIT_POSITIONS;
    const char *sep = (flags & SD_EMIT_PRETTY) ? ": " : ":";

    if (pos) {
        sd_buf_printf(b, "{\"kind\"%s\"%s\", \"line\"%s%d, \"column\"%s%d", sep,
                      sd_kind_name(n->kind), sep, n->loc.line, sep, n->loc.column);
        if (n->tag) {
            sd_buf_printf(b, ", \"tag\"%s", sep);
            sd_emit_json_string(b, n->tag, strlen(n->tag));
        }
        sd_buf_printf(b, ", \"%s\"%s", n->kind == SD_MAP ? "entries" : n->kind == SD_SEQ ? "items" : "value", sep);
    }
    if (n->kind != SD_MAP && n->kind != SD_SEQ) {
        scalar(b, n);
    } else {
        sd_buf_putc(b, n->kind == SD_MAP ? (pos ? '[' : '{') : '[');
        for (size_t i = 0; i < n->n; i++) {
            const sd_pair *p = &n->items[i];
            if (i)
                sd_buf_putc(b, ',');
            nl(b, flags, indent + 1);
            if (pos) {
                sd_buf_putc(b, '{');
                if (p->key) {
                    sd_buf_printf(b, "\"key\"%s", sep);
                    sd_emit_json_string(b, p->key->str, p->key->len);
                    sd_buf_printf(b, ", \"line\"%s%d, \"column\"%s%d, ", sep, p->key->loc.line,
                                  sep, p->key->loc.column);
                }
                if (p->c_count) {
                    sd_buf_printf(b, "\"comments\"%s", sep);
                    comments_json(b, doc, p->c_first, p->c_count);
                    sd_buf_puts(b, ", ");
                }
                if (p->c_trail >= 0) {
                    sd_buf_printf(b, "\"trailing_comment\"%s", sep);
                    comments_json(b, doc, (uint32_t)p->c_trail, 1);
                    sd_buf_puts(b, ", ");
                }
                sd_buf_printf(b, "\"value\"%s", sep);
                sd_emit_json(b, doc, p->value, flags, indent + 1);
                sd_buf_putc(b, '}');
            } else {
                if (p->key) {
                    sd_emit_json_string(b, p->key->str, p->key->len);
                    sd_buf_puts(b, sep);
                }
                sd_emit_json(b, doc, p->value, flags, indent + 1);
            }
        }
        if (n->n)
            nl(b, flags, indent);
        sd_buf_putc(b, n->kind == SD_MAP ? (pos ? ']' : '}') : ']');
    }
    if (pos)
        sd_buf_putc(b, '}');
}

void sd_emit_doc_json(sd_buf *b, const sd_doc *doc)
{
    int flags = SD_EMIT_PRETTY | SD_EMIT_POSITIONS;
    sd_buf_puts(b, "{\n  \"file\": ");
    sd_emit_json_string(b, doc->file, strlen(doc->file));
    sd_buf_printf(b, ",\n  \"format\": \"%s\",\n  \"documents\": [", doc->is_json ? "json" : "yaml");
    for (size_t i = 0; i < doc->nroots; i++) {
        const sd_root *r = &doc->roots[i];
        sd_buf_puts(b, i ? ",\n    {" : "\n    {");
        if (r->c_count) {
            sd_buf_puts(b, "\"comments\": ");
            comments_json(b, doc, r->c_first, r->c_count);
            sd_buf_puts(b, ", ");
        }
        sd_buf_puts(b, "\"root\": ");
        sd_emit_json(b, doc, r->node, flags, 2);
        sd_buf_putc(b, '}');
    }
    sd_buf_puts(b, doc->nroots ? "\n  ],\n  \"comments\": [" : "],\n  \"comments\": [");
    for (size_t i = 0; i < doc->ncomments; i++) {
        const sd_comment *c = &doc->comments[i];
        sd_buf_printf(b, "%s\n    {\"line\": %d, \"column\": %d, \"own_line\": %s, \"text\": ",
                      i ? "," : "", c->line, c->column, c->own_line ? "true" : "false");
        sd_emit_json_string(b, c->text, c->len);
        sd_buf_putc(b, '}');
    }
    sd_buf_puts(b, doc->ncomments ? "\n  ]\n}\n" : "]\n}\n");
}

sd_val *sd_node_to_val_memo(const sd_node *n, sd_pmap *memo)
{
    uintptr_t *hit;
    sd_val *v = NULL;

    switch (n->kind) {
    case SD_NULL: return sd_val_null();
    case SD_BOOL: return sd_val_boolean(n->num.b);
    case SD_INT: return n->big ? sd_val_real(n->num.f) : sd_val_integer(n->num.i);
    case SD_FLOAT: return isfinite(n->num.f) ? sd_val_real(n->num.f) : sd_val_null();
    default: break;   /* strings, maps and lists: worth remembering */
    }
    if (memo && (hit = sd_pmap_get(memo, n)))
        return sd_val_incref((sd_val *)*hit);
    if (n->kind == SD_STR) {
        v = sd_val_stringn_nocheck(n->str, n->len);
    } else if (n->kind == SD_MAP) {
        if (!(v = sd_val_object_sized(n->n)))
            return NULL;
        for (size_t i = 0; i < n->n; i++) {
            sd_val *c = sd_node_to_val_memo(n->items[i].value, memo);
            if (!c || sd_val_object_setn_new_nocheck(v, n->items[i].key->str, n->items[i].key->len, c)) {
                sd_val_decref(v);
                return NULL;
            }
        }
    } else if (n->kind == SD_SEQ) {
        if (!(v = sd_val_array()))
            return NULL;
        for (size_t i = 0; i < n->n; i++) {
            if (sd_val_array_append_new(v, sd_node_to_val_memo(n->items[i].value, memo))) {
                sd_val_decref(v);
                return NULL;
            }
        }
    }
    if (v && memo && sd_pmap_put(memo, n, (uintptr_t)sd_val_incref(v)) < 0)
        sd_val_decref(v);   /* not remembered: the next ask converts it again */
    return v;
}

sd_val *sd_node_to_val(const sd_node *n)
{
    return sd_node_to_val_memo(n, NULL);
}

void sd_node_val_memo_release(sd_pmap *memo)
{
    for (size_t i = 0; i < memo->cap; i++)
        if (memo->s[i].k)
            sd_val_decref((sd_val *)memo->s[i].v);
    sd_pmap_release(memo);
}


