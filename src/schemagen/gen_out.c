/* SPDX-License-Identifier: Apache-2.0 */
/* gen_out.c - write a generated schema (gen.h): schemadoc's way (keywords
 * in one order, properties in the chart author's), or as Go's encoding/json
 * writes the tools' structs: helm-values-schema-json's Schema struct order
 * (its fields only), helm-schema's sorted keys; both escape <, > and & and
 * print numbers the Go way. */
#include "gen_int.h"
#include "alloc.h"
#include "emit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* helm-values-schema-json's Schema struct, in field order (the order the
 * JSON has), and what each field holds. */
enum { K_RAW, K_SCHEMA, K_LIST, K_MAP };
typedef struct kwdef { const char *name; int kind; } kwdef;

static const kwdef hvsj_order[] = {
    { "$schema", K_RAW }, { "$id", K_RAW }, { "$vocabulary", K_RAW }, { "$anchor", K_RAW },
    { "$dynamicAnchor", K_RAW }, { "$recursiveAnchor", K_RAW }, { "title", K_RAW }, { "description", K_RAW },
    { "$comment", K_RAW }, { "examples", K_RAW }, { "deprecated", K_RAW }, { "readOnly", K_RAW },
    { "writeOnly", K_RAW }, { "default", K_RAW }, { "$ref", K_RAW }, { "$dynamicRef", K_RAW },
    { "$recursiveRef", K_RAW }, { "type", K_RAW }, { "const", K_RAW }, { "enum", K_RAW }, { "allOf", K_LIST },
    { "anyOf", K_LIST }, { "oneOf", K_LIST }, { "not", K_SCHEMA }, { "if", K_SCHEMA }, { "then", K_SCHEMA },
    { "else", K_SCHEMA }, { "exclusiveMaximum", K_RAW }, { "maximum", K_RAW }, { "exclusiveMinimum", K_RAW },
    { "minimum", K_RAW }, { "multipleOf", K_RAW }, { "pattern", K_RAW }, { "format", K_RAW },
    { "maxLength", K_RAW }, { "minLength", K_RAW }, { "contentEncoding", K_RAW },
    { "contentMediaType", K_RAW }, { "contentSchema", K_SCHEMA }, { "maxItems", K_RAW }, { "minItems", K_RAW },
    { "uniqueItems", K_RAW }, { "maxContains", K_RAW }, { "minContains", K_RAW }, { "contains", K_SCHEMA },
    { "prefixItems", K_LIST }, { "items", K_SCHEMA }, { "additionalItems", K_SCHEMA },
    { "unevaluatedItems", K_SCHEMA }, { "required", K_RAW }, { "maxProperties", K_RAW },
    { "minProperties", K_RAW }, { "propertyNames", K_SCHEMA }, { "properties", K_MAP },
    { "patternProperties", K_MAP }, { "additionalProperties", K_SCHEMA }, { "unevaluatedProperties", K_SCHEMA },
    { "dependentRequired", K_RAW }, { "dependencies", K_RAW }, { "dependentSchemas", K_MAP },
    { "$defs", K_MAP }, { "definitions", K_MAP }, { NULL, 0 }
};

static const kwdef *kw_of(const char *k)
{
    for (const kwdef *d = hvsj_order; d->name; d++)
        if (!strcmp(d->name, k))
            return d;
    return NULL;
}

/* ---- Go's encoding/json ------------------------------------------------------ */

/* strconv.AppendFloat(f, 'f' or 'e', -1, 64) as encoding/json picks it. */
static void go_float(sd_buf *b, double f)
{
    char tmp[64], digits[32];
    int prec, exp10;

    if (!isfinite(f)) {
        sd_buf_puts(b, "null");   /* (Go refuses these; a schema cannot hold them) */
        return;
    }
    if (f == 0) {
        sd_buf_puts(b, signbit(f) ? "-0" : "0");
        return;
    }
    for (prec = 0; prec < 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*e", prec, f);
        if (strtod(tmp, NULL) == f)
            break;
    }
    /* tmp: [-]D.DDDDe[+-]XX */
    const char *p = tmp;
    int neg = *p == '-';
    size_t nd = 0;
    if (neg)
        p++;
    for (; *p && *p != 'e'; p++)
        if (*p != '.')
            digits[nd++] = *p;
    digits[nd] = '\0';
    exp10 = atoi(p + 1);
    double a = fabs(f);
    if (neg)
        sd_buf_putc(b, '-');
    if (a < 1e-6 || a >= 1e21) {
        sd_buf_putc(b, digits[0]);
        if (nd > 1) {
            sd_buf_putc(b, '.');
            sd_buf_put(b, digits + 1, nd - 1);
        }
        sd_buf_printf(b, "e%c%d", exp10 < 0 ? '-' : '+', exp10 < 0 ? -exp10 : exp10);
        return;
    }
    if (exp10 < 0) {
        sd_buf_puts(b, "0.");
        for (int i = -1; i > exp10; i--)
            sd_buf_putc(b, '0');
        sd_buf_put(b, digits, nd);
    } else if ((size_t)exp10 + 1 >= nd) {
        sd_buf_put(b, digits, nd);
        for (size_t i = nd; i < (size_t)exp10 + 1; i++)
            sd_buf_putc(b, '0');
    } else {
        sd_buf_put(b, digits, (size_t)exp10 + 1);
        sd_buf_putc(b, '.');
        sd_buf_put(b, digits + exp10 + 1, nd - (size_t)exp10 - 1);
    }
}

typedef struct gw {
    sd_buf     *b;
    int         flavour;
    const char *indent;
} gw;

static void nl(gw *w, int depth)
{
    sd_buf_putc(w->b, '\n');
    for (int i = 0; i < depth; i++)
        sd_buf_puts(w->b, w->indent);
}

static int cmp_keys(const void *a, const void *b)
{
    const sd_pair *x = *(const sd_pair *const *)a, *y = *(const sd_pair *const *)b;
    return strcmp(x->key->str, y->key->str);
}

static void go_value(gw *w, const sd_node *v, int kind, int depth);

/* A map with its keys sorted, each value of `kind`. */
static void go_sorted(gw *w, const sd_node *m, int kind, int depth)
{
    const sd_pair **ps;
    if (!m->n) {
        sd_buf_puts(w->b, "{}");
        return;
    }
    if (!(ps = malloc(m->n * sizeof *ps))) {
        sd_buf_puts(w->b, "{}");
        w->b->failed = SD_ENOMEM;
        return;
    }
    for (uint32_t i = 0; i < m->n; i++)
        ps[i] = &m->items[i];
    qsort(ps, m->n, sizeof *ps, cmp_keys);
    sd_buf_putc(w->b, '{');
    for (uint32_t i = 0; i < m->n; i++) {
        if (i)
            sd_buf_putc(w->b, ',');
        nl(w, depth + 1);
        sd_buf_put_go_json(w->b, ps[i]->key->str, ps[i]->key->len, 1);
        sd_buf_puts(w->b, ": ");
        go_value(w, ps[i]->value, kind, depth + 1);
    }
    nl(w, depth);
    sd_buf_putc(w->b, '}');
    free(ps);
}

/* A schema object as the tool's struct writes it. */
static void go_schema(gw *w, const sd_node *s, int depth)
{
    int first = 1;
    if (s->kind != SD_MAP || w->flavour == SD_GEN_HELMSCHEMA) {
        go_value(w, s, K_RAW, depth);   /* helm-schema: every map sorted */
        return;
    }
    for (const kwdef *d = hvsj_order; d->name; d++) {
        const sd_node *v = sd_node_get(s, d->name);
        if (!v)
            continue;
        sd_buf_putc(w->b, first ? '{' : ',');
        first = 0;
        nl(w, depth + 1);
        sd_buf_put_go_json(w->b, d->name, strlen(d->name), 1);
        sd_buf_puts(w->b, ": ");
        go_value(w, v, d->kind, depth + 1);
    }
    if (first) {
        sd_buf_puts(w->b, "{}");
        return;
    }
    nl(w, depth);
    sd_buf_putc(w->b, '}');
}

static void go_value(gw *w, const sd_node *v, int kind, int depth)
{
    switch (v->kind) {
    case SD_NULL:
        sd_buf_puts(w->b, "null");
        return;
    case SD_BOOL:
        sd_buf_puts(w->b, v->num.b ? "true" : "false");
        return;
    case SD_INT:
        if (v->big)
            go_float(w->b, v->num.f);
        else
            sd_buf_printf(w->b, "%lld", v->num.i);
        return;
    case SD_FLOAT:
        go_float(w->b, v->num.f);
        return;
    case SD_STR:
        sd_buf_put_go_json(w->b, v->str, v->len, 1);
        return;
    case SD_SEQ:
        if (!v->n) {
            sd_buf_puts(w->b, "[]");
            return;
        }
        sd_buf_putc(w->b, '[');
        for (uint32_t i = 0; i < v->n; i++) {
            if (i)
                sd_buf_putc(w->b, ',');
            nl(w, depth + 1);
            if (kind == K_LIST)
                go_schema(w, v->items[i].value, depth + 1);
            else
                go_value(w, v->items[i].value, kind, depth + 1);
        }
        nl(w, depth);
        sd_buf_putc(w->b, ']');
        return;
    case SD_MAP:
        if (w->flavour == SD_GEN_HELMSCHEMA || kind == K_RAW)
            go_sorted(w, v, K_RAW, depth);
        else if (kind == K_MAP)
            go_sorted(w, v, K_LIST, depth);   /* a map of schemas: each value a schema */
        else
            go_schema(w, v, depth);
        return;
    }
}

/* ---- schemadoc's own order ------------------------------------------------- */

static const char *const native_first[] = {
    "$schema", "$id", "title", "description", "markdownDescription", "$comment", "$ref", "type", "enum",
    "const", "default", "examples", "deprecated", "readOnly", "writeOnly", NULL
};

/* Put a schema's keywords in schemadoc's order (recursively): the words
 * above first, then helm-values-schema-json's struct order, then any other
 * keyword as it came; properties keep the author's order. */
static void native_order(sd_node *s, int depth)
{
    if (!s || s->kind != SD_MAP || depth > 1000 || s->n < 2)
        goto children;
    sd_pair *sorted = malloc(s->n * sizeof *sorted);
    unsigned char *used = calloc(s->n, 1);
    uint32_t k = 0;
    if (!sorted || !used) {
        free(sorted);
        free(used);
        sd_alloc_note_failure();   /* out of order is a wrong schema: not written */
        goto children;
    }
    for (const char *const *w = native_first; *w; w++)
        for (uint32_t i = 0; i < s->n; i++)
            if (!used[i] && !strcmp(s->items[i].key->str, *w))
                sorted[k++] = s->items[i], used[i] = 1;
    for (const kwdef *d = hvsj_order; d->name; d++)
        for (uint32_t i = 0; i < s->n; i++)
            if (!used[i] && !strcmp(s->items[i].key->str, d->name))
                sorted[k++] = s->items[i], used[i] = 1;
    for (uint32_t i = 0; i < s->n; i++)
        if (!used[i])
            sorted[k++] = s->items[i];
    memcpy(s->items, sorted, s->n * sizeof *sorted);
    s->keyidx = 0;
    free(sorted);
    free(used);
children:
    if (!s || s->kind != SD_MAP || depth > 1000)
        return;
    for (uint32_t i = 0; i < s->n; i++) {
        const kwdef *d = kw_of(s->items[i].key->str);
        sd_node *v = s->items[i].value;
        if (!d)
            continue;
        if (d->kind == K_SCHEMA)
            native_order(v, depth + 1);
        else if ((d->kind == K_LIST || d->kind == K_MAP) && (v->kind == SD_SEQ || v->kind == SD_MAP))
            for (uint32_t j = 0; j < v->n; j++)
                native_order(v->items[j].value, depth + 1);
    }
}

void sd_gen_write(sd_buf *out, const sd_doc *schema, int flavour, const sd_gen_opts *opts)
{
    sd_node *root = schema ? sd_doc_root(schema) : NULL;
    if (!root)
        return;
    if (flavour == SD_GEN_HVSJ || flavour == SD_GEN_HELMSCHEMA) {
        char spaces[17];
        int ind = opts && opts->indent > 0 && opts->indent <= 16 ? opts->indent : flavour == SD_GEN_HVSJ ? 4 : 2;
        memset(spaces, ' ', sizeof spaces - 1);
        spaces[ind] = '\0';
        gw w = { out, flavour, spaces };
        go_schema(&w, root, 0);
        if (flavour == SD_GEN_HVSJ)
            sd_buf_putc(out, '\n');
        return;
    }
    native_order(root, 0);
    sd_emit_json(out, schema, root, SD_EMIT_PRETTY, 0);
    sd_buf_putc(out, '\n');
}
