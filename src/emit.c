/* emit.c - sd_node -> JSON text (see emit.h). */
#include "emit.h"

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

json_t *sd_node_to_jansson(const sd_node *n)
{
    json_t *v = NULL;

    switch (n->kind) {
    case SD_NULL: return json_null();
    case SD_BOOL: return json_boolean(n->num.b);
    case SD_INT: return n->big ? json_real(n->num.f) : json_integer(n->num.i);
    case SD_FLOAT: return isfinite(n->num.f) ? json_real(n->num.f) : json_null();
    case SD_STR: return json_stringn_nocheck(n->str, n->len);
    case SD_MAP:
        if (!(v = json_object()))
            return NULL;
        for (size_t i = 0; i < n->n; i++) {
            json_t *c = sd_node_to_jansson(n->items[i].value);
            if (!c || json_object_setn_new_nocheck(v, n->items[i].key->str, n->items[i].key->len, c)) {
                json_decref(v);
                return NULL;
            }
        }
        return v;
    case SD_SEQ:
        if (!(v = json_array()))
            return NULL;
        for (size_t i = 0; i < n->n; i++) {
            if (json_array_append_new(v, sd_node_to_jansson(n->items[i].value))) {
                json_decref(v);
                return NULL;
            }
        }
        return v;
    }
    return NULL;
}

void sd_emit_jansson(sd_buf *b, const json_t *v)
{
    char *s = json_dumps(v, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY);
    if (!s) {
        sd_buf_grow(b, (size_t)-1); /* marks the buffer failed */
        return;
    }
    sd_buf_puts(b, s);
    free(s);
}

/* A plain scalar reads back as the same string only if YAML 1.1 typing
 * (Helm's) leaves it a string and no indicator makes it something else. */
static int needs_quotes(const char *s, size_t n)
{
    sd_node probe;
    if (!n)
        return 1;
    memset(&probe, 0, sizeof probe);
    sd_yaml_resolve_plain(&probe, s, n);
    if (probe.kind != SD_STR)
        return 1;
    if (strchr("-?:,[]{}#&*!|>'\"%@`~ \t", s[0]) || s[n - 1] == ' ' || s[n - 1] == ':')
        return 1;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f || (c == ':' && (i + 1 == n || s[i + 1] == ' ')) ||
            (c == '#' && i && s[i - 1] == ' '))
            return 1;
    }
    return 0;
}

static void yaml_scalar(sd_buf *b, const sd_node *n)
{
    switch (n->kind) {
    case SD_NULL: sd_buf_puts(b, "null"); break;
    case SD_BOOL: sd_buf_puts(b, n->num.b ? "true" : "false"); break;
    case SD_INT:
        if (n->big) sd_emit_number(b, n->num.f);
        else sd_buf_printf(b, "%lld", n->num.i);
        break;
    case SD_FLOAT:
        if (isnan(n->num.f)) sd_buf_puts(b, ".nan");
        else if (isinf(n->num.f)) sd_buf_puts(b, n->num.f > 0 ? ".inf" : "-.inf");
        else {
            size_t at = b->len;
            sd_emit_number(b, n->num.f);
            if (!memchr(b->ptr + at, '.', b->len - at) && !memchr(b->ptr + at, 'e', b->len - at))
                sd_buf_puts(b, ".0"); /* stays a float when read back */
        }
        break;
    default:
        if (needs_quotes(n->str, n->len))
            sd_emit_json_string(b, n->str, n->len);
        else
            sd_buf_put(b, n->str, n->len);
    }
}

static void yaml_key(sd_buf *b, const sd_node *k)
{
    if (needs_quotes(k->str, k->len))
        sd_emit_json_string(b, k->str, k->len);
    else
        sd_buf_put(b, k->str, k->len);
}

static void yaml_node(sd_buf *b, const sd_node *n, int indent, int depth)
{
    if (depth > 500) {
        sd_buf_puts(b, " null\n");
        return;
    }
    if ((n->kind != SD_MAP && n->kind != SD_SEQ) || n->n == 0) {
        sd_buf_putc(b, ' ');
        if (n->kind == SD_MAP) sd_buf_puts(b, "{}");
        else if (n->kind == SD_SEQ) sd_buf_puts(b, "[]");
        else yaml_scalar(b, n);
        sd_buf_putc(b, '\n');
        return;
    }
    sd_buf_putc(b, '\n');
    for (size_t i = 0; i < n->n; i++) {
        for (int s = 0; s < indent; s++)
            sd_buf_putc(b, ' ');
        if (n->kind == SD_MAP) {
            yaml_key(b, n->items[i].key);
            sd_buf_putc(b, ':');
            yaml_node(b, n->items[i].value, indent + 2, depth + 1);
        } else {
            sd_buf_putc(b, '-');
            const sd_node *v = n->items[i].value;
            if (v->kind == SD_MAP && v->n) {
                /* "- key: value" with the rest of the map under it */
                sd_buf_putc(b, ' ');
                for (size_t k = 0; k < v->n; k++) {
                    if (k)
                        for (int s = 0; s < indent + 2; s++)
                            sd_buf_putc(b, ' ');
                    yaml_key(b, v->items[k].key);
                    sd_buf_putc(b, ':');
                    yaml_node(b, v->items[k].value, indent + 4, depth + 2);
                }
            } else {
                yaml_node(b, v, indent + 2, depth + 1);
            }
        }
    }
}

void sd_emit_yaml(sd_buf *b, const sd_node *n)
{
    if (!n) {
        sd_buf_puts(b, "null\n");
        return;
    }
    if ((n->kind == SD_MAP || n->kind == SD_SEQ) && n->n) {
        sd_buf b2 = SD_BUF_INIT;
        yaml_node(&b2, n, 0, 0);
        sd_buf_puts(b, b2.ptr + 1); /* no leading newline at the top */
        sd_buf_release(&b2);
    } else {
        yaml_node(b, n, 0, 0);
        /* drop the leading space of a top-level scalar */
        if (b->len && b->ptr[0] == ' ')
            memmove(b->ptr, b->ptr + 1, b->len--);
    }
}
