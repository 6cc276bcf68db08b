/* SPDX-License-Identifier: Apache-2.0 */
/* rows.c - parameter rows exactly as helm-docs and Bitnami's readme-generator
 * list them (docs/annotations.md, checked by tests/fidelity.py).
 *
 * The two tools read YAML differently from Helm: helm-docs with yaml.v3
 * (only true/false are booleans) and readme-generator with YAML 1.2 core
 * (017 is decimal, 1_000 a string). Rows re-type plain scalars the way the
 * tool that made the table did, so that its defaults come out the same. */
#include "rows.h"
#include "alloc.h"
#include "buf.h"
#include "yaml_scalar.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- number formatting ----------------------------------------------------- */

/* Shortest decimal digits that read back as d: digits in `dig`, value =
 * 0.DIG x 10^exp10. */
static void shortest(double d, char *dig, int *exp10)
{
    char tmp[40];
    for (int p = 1; p <= 17; p++) {
        snprintf(tmp, sizeof tmp, "%.*e", p - 1, d);
        if (strtod(tmp, NULL) == d)
            break;
    }
    /* tmp: [-]D.DDDe[+-]XX */
    const char *s = tmp[0] == '-' ? tmp + 1 : tmp;
    int n = 0;
    for (; *s && *s != 'e'; s++)
        if (*s != '.')
            dig[n++] = *s;
    while (n > 1 && dig[n - 1] == '0')
        n--;
    dig[n] = '\0';
    *exp10 = atoi(s + 1) + 1;
}

/* Go strconv 'f' / 'e' (-1 precision) as encoding/json uses them (js = 0),
 * or JavaScript's Number#toString (js = 1). */
static void put_float(sd_buf *b, double d, int js)
{
    char dig[24];
    int e;
    double a = fabs(d);

    if (!isfinite(d)) {
        sd_buf_puts(b, js ? (isnan(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity") : "null");
        return;
    }
    if (d == 0) {
        sd_buf_puts(b, "0");
        return;
    }
    shortest(d, dig, &e);
    if (d < 0)
        sd_buf_putc(b, '-');
    int n = (int)strlen(dig);
    int fixed = js ? (e <= 21 && e > -6) : (a >= 1e-6 && a < 1e21);
    if (fixed) {
        if (e <= 0) {
            sd_buf_puts(b, "0.");
            for (int i = 0; i < -e; i++) sd_buf_putc(b, '0');
            sd_buf_puts(b, dig);
        } else if (e >= n) {
            sd_buf_puts(b, dig);
            for (int i = n; i < e; i++) sd_buf_putc(b, '0');
        } else {
            sd_buf_put(b, dig, (size_t)e);
            sd_buf_putc(b, '.');
            sd_buf_puts(b, dig + e);
        }
        return;
    }
    sd_buf_putc(b, dig[0]);
    if (n > 1) {
        sd_buf_putc(b, '.');
        sd_buf_puts(b, dig + 1);
    }
    int x = e - 1;
    if (js)
        sd_buf_printf(b, "e%c%d", x < 0 ? '-' : '+', abs(x));
    else if (x < 0)
        sd_buf_printf(b, "e-%d", -x);         /* Go json: e-07 -> e-7 */
    else
        sd_buf_printf(b, "e+%02d", x);
}

/* ---- how each tool types a plain scalar -------------------------------------- */

enum view { V_NULL, V_BOOL, V_INT, V_FLOAT, V_STR, V_MAP, V_SEQ };

typedef struct sval {
    int kind;
    int b;
    long long i;
    double f;
} sval;

/* A plain, untagged scalar typed by `rules` (util/yaml_scalar.c). */
static sval typed(const sd_node *n, enum sd_yaml_rules rules)
{
    sd_yaml_scalar y = sd_yaml_scalar_read(n->str, n->len, rules);
    sval v = { V_STR, 0, 0, 0 };
    switch (y.type) {
    case SD_YAML_NULL: v.kind = V_NULL; break;
    case SD_YAML_BOOL: v.kind = V_BOOL, v.b = y.b; break;
    case SD_YAML_INT: v.kind = V_INT, v.i = y.i; break;
    case SD_YAML_UINT: v.kind = V_FLOAT, v.f = (double)y.u; break;
    case SD_YAML_FLOAT: v.kind = V_FLOAT, v.f = y.f; break;
    default: break;   /* a string, or a yaml.v3 timestamp: its text */
    }
    return v;
}

/* yaml.v3 (helm-docs): a plain scalar by its rules (as Helm's YAML 1.1
 * except that only true/false are booleans), anything else as loaded. */
static sval view_v3(const sd_node *n)
{
    sval v = { V_STR, 0, 0, 0 };
    if (n->style == SD_STYLE_PLAIN && !n->tag && n->kind != SD_MAP && n->kind != SD_SEQ && n->str)
        return typed(n, SD_YAML_GO_V3);
    switch (n->kind) {
    case SD_NULL: v.kind = V_NULL; break;
    case SD_BOOL: v.kind = V_BOOL, v.b = n->num.b; break;
    case SD_INT:
        if (n->big) v.kind = V_FLOAT, v.f = n->num.f;
        else v.kind = V_INT, v.i = n->num.i;
        break;
    case SD_FLOAT: v.kind = V_FLOAT, v.f = n->num.f; break;
    case SD_MAP: v.kind = V_MAP; break;
    case SD_SEQ: v.kind = V_SEQ; break;
    default: v.kind = V_STR;
    }
    return v;
}

/* YAML 1.2 core schema (the npm yaml package readme-generator uses). */
static sval view_12(const sd_node *n)
{
    sval v = { V_STR, 0, 0, 0 };
    if (n->kind == SD_MAP) { v.kind = V_MAP; return v; }
    if (n->kind == SD_SEQ) { v.kind = V_SEQ; return v; }
    if (n->style != SD_STYLE_PLAIN || n->tag)
        return view_v3(n);
    return typed(n, SD_YAML_CORE12);
}

/* ---- JSON as each tool writes it ----------------------------------------------- */

static void put_str(sd_buf *b, const char *s, size_t n, int js)
{
    sd_buf_putc(b, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '"': sd_buf_puts(b, "\\\""); break;
        case '\\': sd_buf_puts(b, "\\\\"); break;
        case '\n': sd_buf_puts(b, "\\n"); break;
        case '\r': sd_buf_puts(b, "\\r"); break;
        case '\t': sd_buf_puts(b, "\\t"); break;
        case '\b': sd_buf_puts(b, js ? "\\b" : "\\u0008"); break;
        case '\f': sd_buf_puts(b, js ? "\\f" : "\\u000c"); break;
        default:
            if (c < 0x20)
                sd_buf_printf(b, "\\u%04x", c);
            else if (!js && c == 0xE2 && i + 2 < n && (unsigned char)s[i + 1] == 0x80 &&
                     ((unsigned char)s[i + 2] == 0xA8 || (unsigned char)s[i + 2] == 0xA9)) {
                sd_buf_printf(b, "\\u%04x", (unsigned char)s[i + 2] == 0xA8 ? 0x2028 : 0x2029);
                i += 2;
            } else
                sd_buf_putc(b, (char)c);
        }
    }
    sd_buf_putc(b, '"');
}

static int cmp_keys(const void *a, const void *b)
{
    const sd_pair *x = *(const sd_pair *const *)a, *y = *(const sd_pair *const *)b;
    size_t n = x->key->len < y->key->len ? x->key->len : y->key->len;
    int c = memcmp(x->key->str, y->key->str, n);
    return c ? c : (x->key->len > y->key->len) - (x->key->len < y->key->len);
}

static int same_key(const sd_pair *x, const sd_pair *y)
{
    return x->key->len == y->key->len && !memcmp(x->key->str, y->key->str, x->key->len);
}

/* Key order, and among equal keys the order of the pairs (their addresses
 * follow the map's order), so that the last one can be kept. */
static int cmp_keys_then_pos(const void *a, const void *b)
{
    int c = cmp_keys(a, b);
    const sd_pair *x = *(const sd_pair *const *)a, *y = *(const sd_pair *const *)b;
    return c ? c : (x > y) - (x < y);
}

static int js_index_key(const sd_node *k, unsigned long *out)
{
    if (!k->len || k->len > 10 || (k->len > 1 && k->str[0] == '0') || strspn(k->str, "0123456789") != k->len)
        return 0;
    *out = strtoul(k->str, NULL, 10);
    return *out < 4294967295UL;
}

static int cmp_js_keys(const void *a, const void *b)
{
    const sd_pair *x = *(const sd_pair *const *)a, *y = *(const sd_pair *const *)b;
    unsigned long i, j;
    int xi = js_index_key(x->key, &i), yj = js_index_key(y->key, &j);
    if (xi && yj) return (i > j) - (i < j);
    if (xi != yj) return xi ? -1 : 1;
    return (x < y) ? -1 : (x > y); /* insertion order */
}

static void put_json(sd_buf *b, const sd_node *n, int js, int depth)
{
    sval v = js ? view_12(n) : view_v3(n);
    if (depth > 200) {
        sd_buf_puts(b, "null");
        return;
    }
    switch (v.kind) {
    case V_NULL: sd_buf_puts(b, "null"); break;
    case V_BOOL: sd_buf_puts(b, v.b ? "true" : "false"); break;
    case V_INT: sd_buf_printf(b, "%lld", v.i); break;
    case V_FLOAT: put_float(b, v.f, js); break;
    case V_STR: put_str(b, n->str, n->len, js); break;
    case V_SEQ:
        sd_buf_putc(b, '[');
        for (size_t i = 0; i < n->n; i++) {
            if (i) sd_buf_putc(b, ',');
            put_json(b, n->items[i].value, js, depth + 1);
        }
        sd_buf_putc(b, ']');
        break;
    case V_MAP: {
        const sd_pair **ps = malloc((n->n ? n->n : 1) * sizeof *ps);
        if (!ps) { sd_buf_grow(b, (size_t)-1); return; }
        size_t m = 0;
        for (size_t i = 0; i < n->n; i++)
            ps[m++] = &n->items[i];
        /* a duplicate key keeps its last value (both tools): sort by key,
         * then position, and keep the last of each run of equal keys */
        qsort(ps, m, sizeof *ps, cmp_keys_then_pos);
        {
            size_t k = 0;
            for (size_t i = 0; i < m; i++) {
                if (i + 1 < m && same_key(ps[i], ps[i + 1]))
                    continue;
                ps[k++] = ps[i];
            }
            m = k;
        }
        if (js)   /* JavaScript's own order: index keys first, then insertion */
            qsort(ps, m, sizeof *ps, cmp_js_keys);
        sd_buf_putc(b, '{');
        for (size_t i = 0; i < m; i++) {
            if (i) sd_buf_putc(b, ',');
            put_str(b, ps[i]->key->str, ps[i]->key->len, js);
            sd_buf_putc(b, ':');
            put_json(b, ps[i]->value, js, depth + 1);
        }
        sd_buf_putc(b, '}');
        free(ps);
        break;
    }
    }
}

/* ---- helm-docs ------------------------------------------------------------------- */

static const char *v3_type(const sd_node *n)
{
    switch (view_v3(n).kind) {
    case V_BOOL: return "bool";
    case V_INT: return "int";
    case V_FLOAT: return "float";
    case V_MAP: return "object";
    case V_SEQ: return "list";
    default: return "string";
    }
}

static const char *first(const char *a, const char *b)
{
    return a && *a ? a : b && *b ? b : NULL;
}

/* helm-docs keeps Default/AutoDefault and Description/AutoDescription apart
 * (values.go createValueRow); templates may read either. The row says only
 * what differs from the common case (docs/model.md, "Rows"): `default_auto`
 * when the default is a new-style @default (Default empty), `auto_default`
 * when both styles give one, `description_field` when helm-docs' Description
 * holds the text (old style, or a nil value), `auto_description` when
 * AutoDescription is not what that implies; and the key's line and column. */
static void hd_fields(sd_val *r, const sd_node *n, const sd_annot *old, const sd_annot *an,
                      const sd_loc *kl)
{
    const char *od = old && old->default_text && *old->default_text ? old->default_text : NULL;
    const char *ad = an && an->default_text && *an->default_text ? an->default_text : NULL;
    const char *os = old && old->description && *old->description ? old->description : NULL;
    const char *as = an && an->description && *an->description ? an->description : NULL;
    int field = os || (n->kind == SD_NULL && as);

    if (ad && !od)
        sd_val_object_set_new_nocheck(r, "default_auto", sd_val_true());
    else if (ad && od)
        sd_val_object_set_new_nocheck(r, "auto_default", sd_val_string(ad));
    if (field)
        sd_val_object_set_new_nocheck(r, "description_field", sd_val_true());
    if (as && field)
        sd_val_object_set_new_nocheck(r, "auto_description", sd_val_string(as));
    if (an && an->notation && *an->notation)
        sd_val_object_set_new_nocheck(r, "notation", sd_val_string(an->notation));
    if (kl && kl->line) {
        sd_val_object_set_new_nocheck(r, "line", sd_val_integer(kl->line));
        sd_val_object_set_new_nocheck(r, "column", sd_val_integer(kl->column));
    }
}

static void hd_row(sd_val *rows, const char *key, const sd_node *n, const sd_annot *old,
                   const sd_annot *an, int as_empty_notation, const sd_loc *kl)
{
    sd_val *r = sd_val_object();
    sd_buf d = SD_BUF_INIT;
    const char *type, *def;

    sd_val_object_set_new_nocheck(r, "key", sd_val_string(key));
    if (n->kind == SD_NULL) {
        type = first(old ? old->type : NULL, an ? an->type : NULL);
        def = first(old ? old->default_text : NULL, an ? an->default_text : NULL);
        sd_val_object_set_new_nocheck(r, "type", sd_val_string(type ? type : "string"));
        sd_val_object_set_new_nocheck(r, "default_text", sd_val_string(def ? def : "`nil`"));
    } else {
        type = first(first(old ? old->type : NULL, an ? an->type : NULL), an ? an->notation : NULL);
        sd_val_object_set_new_nocheck(r, "type", sd_val_string(type ? type : v3_type(n)));
        def = first(old ? old->default_text : NULL, an ? an->default_text : NULL);
        if (!def) {
            if (an && an->notation && *an->notation) {
                if (!as_empty_notation && view_v3(n).kind == V_STR)
                    sd_buf_puts(&d, n->str);
            } else {
                sd_buf_putc(&d, '`');
                put_json(&d, n, 0, 0);
                sd_buf_putc(&d, '`');
            }
            def = d.ptr;
        }
        sd_val_object_set_new_nocheck(r, "default_text", sd_val_string(def));
    }
    const char *desc = first(old ? old->description : NULL, an ? an->description : NULL);
    sd_val_object_set_new_nocheck(r, "description", sd_val_string(desc ? desc : ""));
    const char *sec = first(old ? old->section : NULL, an ? an->section : NULL);
    if (sec)
        sd_val_object_set_new_nocheck(r, "section", sd_val_string(sec));
    hd_fields(r, n, old, an, kl);
    sd_val_array_append_new(rows, r);
    sd_buf_release(&d);
}

static void hd_walk(sd_val *rows, const sd_annots *a, const char *prefix, const sd_node *n,
                    int leaf, int depth, const sd_loc *kl)
{
    const sd_annot *an = *prefix ? sd_annots_get(a, prefix) : NULL;
    const sd_annot *old = *prefix ? sd_annots_get_old(a, prefix) : NULL;
    int has = old != NULL, autod = an && an->described;
    int described = has || autod;
    sd_buf p = SD_BUF_INIT;

    if (depth > 200)
        return;
    if (n->kind == SD_MAP || n->kind == SD_SEQ) {
        if (!n->n) {
            if (*prefix && (leaf || described))
                hd_row(rows, prefix, n, old, an, 0, kl);
            return;
        }
        if (*prefix && (has || (autod && !(an->notation && *an->notation)))) {
            hd_row(rows, prefix, n, old, an, 0, kl);
            leaf = 0;
        } else if (*prefix && autod) {
            hd_row(rows, prefix, n, old, an, 1, kl);
            leaf = 0;
        }
        for (size_t i = 0; i < n->n; i++) {
            const sd_pair *c = &n->items[i];
            sd_buf_clear(&p);
            sd_buf_puts(&p, prefix);
            if (c->key)
                sd_annot_path_push(&p, c->key->str, c->key->len);
            else
                sd_buf_printf(&p, "[%zu]", i);
            const sd_annot *ca = sd_annots_get(a, p.ptr);
            if (ca && ca->ignored)
                continue;
            hd_walk(rows, a, p.ptr, c->value, leaf, depth + 1,
                    c->key ? &c->key->loc : &c->value->loc);
        }
        sd_buf_release(&p);
        return;
    }
    if (leaf || described)
        hd_row(rows, prefix, n, old, an, 0, kl);
}

typedef struct { const char *key; sd_val *row; size_t at; } sort_row;

static int cmp_rows(const void *x, const void *y)
{
    const sort_row *a = x, *b = y;
    int c = strcmp(a->key, b->key);
    return c ? c : (a->at > b->at) - (a->at < b->at);   /* stable */
}

/* ---- Bitnami ---------------------------------------------------------------------- */

static const sd_node *bn_lookup(const sd_node *n, const char *path, int depth)
{
    if (!*path)
        return n;
    if (depth > 200)
        return NULL;
    if (n->kind == SD_MAP) {
        for (size_t i = 0; i < n->n; i++) {
            const sd_node *k = n->items[i].key;
            if (!strcmp(path, k->str))
                return n->items[i].value;
            if (!strncmp(path, k->str, k->len) && (path[k->len] == '.' || path[k->len] == '[')) {
                const char *rest = path + k->len + (path[k->len] == '.');
                const sd_node *r = bn_lookup(n->items[i].value, rest, depth + 1);
                if (r)
                    return r;
            }
        }
    } else if (n->kind == SD_SEQ && path[0] == '[') {
        char *end;
        unsigned long i = strtoul(path + 1, &end, 10);
        if (*end == ']' && i < n->n)
            return bn_lookup(n->items[i].value, end[1] == '.' ? end + 2 : end + 1, depth + 1);
    }
    return NULL;
}

static int bn_leaf(const sd_node *n)
{
    if (n->kind == SD_MAP)
        return n->n == 0;
    if (n->kind == SD_SEQ) {
        for (size_t i = 0; i < n->n; i++)
            if (view_12(n->items[i].value).kind != V_STR)
                return 0;
        return 1;
    }
    return 1;
}

static void bn_cell(sd_buf *b, const sd_node *n)
{
    sval v = view_12(n);
    switch (v.kind) {
    case V_NULL: sd_buf_puts(b, "nil"); break;
    case V_STR:
        if (!n->len) sd_buf_puts(b, "\"\"");
        else sd_buf_put(b, n->str, n->len);
        break;
    case V_BOOL: sd_buf_puts(b, v.b ? "true" : "false"); break;
    case V_INT: sd_buf_printf(b, "%lld", v.i); break;
    case V_FLOAT: put_float(b, v.f, 1); break;
    default: put_json(b, n, 1, 0);
    }
}

static void bitnami_rows(sd_val *rows, const sd_doc *values, const sd_annots *a)
{
    const sd_node *root = values ? sd_doc_root(values) : NULL;
    sd_buf cell = SD_BUF_INIT;

    for (size_t i = 0; i < a->n; i++) {
        const sd_annot *r = &a->items[i];
        if (!r->section)
            continue; /* before the first @section: never printed */
        sd_val *row = sd_val_object();
        sd_val_object_set_new_nocheck(row, "key", sd_val_string(r->path));
        sd_val_object_set_new_nocheck(row, "section", sd_val_string(r->section));
        sd_val_object_set_new_nocheck(row, "description", sd_val_string(r->description ? r->description : ""));
        if (r->extra) {
            sd_val_object_set_new_nocheck(row, "default_text", sd_val_null());
            sd_val_object_set_new_nocheck(row, "extra", sd_val_true());
            sd_val_array_append_new(rows, row);
            continue;
        }
        const sd_node *n = root ? bn_lookup(root, r->path, 0) : NULL;
        /* value: a node, a literal, or undefined */
        const sd_node *val = n && bn_leaf(n) ? n : NULL;
        const char *lit = NULL;
        char *litbuf = NULL;
        if (val && view_12(val).kind == V_NULL)
            val = NULL, lit = "nil";
        /* modifiers, in order; `nullable` last keeps the value */
        char *mods = r->modifiers ? strdup(r->modifiers) : NULL;
        char *list[32];
        int nm = 0;
        for (char *tok = mods ? strtok(mods, ",") : NULL; tok && nm < 32; tok = strtok(NULL, ",")) {
            while (*tok == ' ' || *tok == '\t') tok++;
            char *e = tok + strlen(tok);
            while (e > tok && (e[-1] == ' ' || e[-1] == '\t')) *--e = '\0';
            if (*tok)
                list[nm++] = tok;
        }
        int null_last = nm == 0 || !strcmp(list[nm - 1], "nullable");
        for (int m = 0; m < nm; m++) {
            const char *mod = list[m];
            if (!strcmp(mod, "array") || !strcmp(mod, "object") || !strcmp(mod, "string")) {
                if (!null_last) {
                    val = NULL;
                    lit = mod[0] == 'a' ? "[]" : mod[0] == 'o' ? "{}" : "\"\"";
                }
            } else if (!strcmp(mod, "nullable")) {
                if (!val && !lit)
                    lit = "nil";
            } else if (!strncmp(mod, "default:", 8)) {
                const char *x = mod + 8;
                while (*x == ' ' || *x == '\t') x++;
                free(litbuf);
                litbuf = strdup(x);
                val = NULL;
                lit = litbuf;
            }
        }
        sd_buf_clear(&cell);
        if (val)
            bn_cell(&cell, val);
        else
            sd_buf_puts(&cell, lit ? lit : "undefined");
        sd_val_object_set_new_nocheck(row, "default_text", sd_val_string(cell.ptr));
        sd_val_array_append_new(rows, row);
        free(litbuf);
        free(mods);
    }
    sd_buf_release(&cell);
}

sd_val *sd_rows_build(const sd_doc *values, const sd_annots *a)
{
    sd_val *rows = sd_val_array();
    if (!rows)
        return NULL;
    if (a->dialect && a->dialect->rows == SD_ROWS_ANNOTATIONS) {
        bitnami_rows(rows, values, a);
        return rows;
    }
    const sd_node *root = values ? sd_doc_root(values) : NULL;
    if (!root || (root->kind != SD_MAP && root->kind != SD_SEQ))
        return rows;
    hd_walk(rows, a, "", root, 1, 0, NULL);
    /* alphanumeric order (byte-wise), as helm-docs' default */
    size_t n = sd_val_array_size(rows);
    sort_row *v = malloc((n ? n : 1) * sizeof *v);
    if (!v) {
        sd_alloc_note_failure();   /* unsorted rows: fail at the end */
        return rows;
    }
    for (size_t i = 0; i < n; i++) {
        const char *k;
        v[i].row = sd_val_incref(sd_val_array_get(rows, i));
        k = sd_val_string_value(sd_val_object_get(v[i].row, "key"));
        v[i].key = k ? k : "";   /* a key that could not be copied (alloc.h) */
        v[i].at = i;
    }
    qsort(v, n, sizeof *v, cmp_rows);
    sd_val_array_clear(rows);
    for (size_t i = 0; i < n; i++)
        sd_val_array_append_new(rows, v[i].row);
    free(v);
    return rows;
}
