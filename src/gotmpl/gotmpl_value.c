/* SPDX-License-Identifier: Apache-2.0 */
/* gotmpl_value.c - the values a Go template sees: a heap with a byte cap,
 * strings, lists, maps and structs, Go's truth and Go's fmt %v printing. */
#include "gotmpl_int.h"
#include "alloc.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEAP_DEFAULT ((size_t)256 << 20)

sd_gheap *sd_gheap_new(size_t cap)
{
    sd_gheap *h = calloc(1, sizeof *h);
    if (h)
        h->cap = cap ? cap : HEAP_DEFAULT;
    return h;
}

void sd_gheap_free(sd_gheap *h)
{
    if (!h)
        return;
    sd_arena_release(&h->arena);
    free(h);
}

void *sd_gheap_alloc(sd_gheap *h, size_t n)
{
    void *p;
    if (h->failed)
        return NULL;
    if (n > h->cap || h->arena.used > h->cap - n) {
        h->failed = SD_ELIMIT;
        return NULL;
    }
    if (!(p = sd_arena_alloc(&h->arena, n ? n : 1)))
        h->failed = SD_ENOMEM;
    return p;
}

int sd_gheap_failed(const sd_gheap *h)
{
    return h->failed;
}

sd_gval sd_gstr(sd_gheap *h, const char *s, size_t n)
{
    sd_gval v = { SD_G_STR, 0, { 0 } };
    char *p = sd_gheap_alloc(h, n + 1);
    if (!p)
        return sd_gmissing();
    if (n)
        memcpy(p, s, n);
    p[n] = '\0';
    v.u.s.p = p;
    v.u.s.n = n;
    return v;
}

sd_gval sd_gstrz(sd_gheap *h, const char *s)
{
    return sd_gstr(h, s, strlen(s));
}

sd_gval sd_gstr_static(const char *s, size_t n)
{
    sd_gval v = { SD_G_STR, 0, { 0 } };
    v.u.s.p = s;
    v.u.s.n = n;
    return v;
}

sd_gval sd_glist_new(sd_gheap *h, size_t cap)
{
    sd_gval v = { SD_G_LIST, 0, { 0 } };
    sd_glist *l = sd_gheap_alloc(h, sizeof *l);
    if (!l)
        return sd_gmissing();
    if (cap && !(l->items = sd_gheap_alloc(h, cap * sizeof *l->items)))
        return sd_gmissing();
    l->cap = cap;
    v.u.l = l;
    return v;
}

sd_gval sd_gmap_new(sd_gheap *h)
{
    sd_gval v = { SD_G_MAP, 0, { 0 } };
    if (!(v.u.m = sd_gheap_alloc(h, sizeof *v.u.m)))
        return sd_gmissing();
    return v;
}

sd_gval sd_gstruct_new(sd_gheap *h, const char *type_name)
{
    sd_gval v = sd_gmap_new(h);
    if (v.kind == SD_G_MAP)
        v.u.m->type_name = type_name;
    return v;
}

sd_gval sd_gobj_new(sd_gheap *h, const sd_gobj_class *cls, void *self)
{
    sd_gval v = { SD_G_OBJ, 0, { 0 } };
    if (!(v.u.o = sd_gheap_alloc(h, sizeof *v.u.o)))
        return sd_gmissing();
    v.u.o->cls = cls;
    v.u.o->self = self;
    return v;
}

int sd_glist_push(sd_gheap *h, sd_gval lv, sd_gval v)
{
    sd_glist *l = lv.u.l;
    if (lv.kind != SD_G_LIST || !l)
        return SD_ERROR;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        sd_gval *items = sd_gheap_alloc(h, cap * sizeof *items);
        if (!items)
            return h->failed;
        if (l->n)
            memcpy(items, l->items, l->n * sizeof *items);
        l->items = items;
        l->cap = cap;
    }
    l->items[l->n++] = v;
    return 0;
}

/* --- maps: insertion-ordered entries with a hash index once they grow --- */

static unsigned long hash_key(const char *k, size_t n)
{
    unsigned long h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)k[i]) * 16777619u;
    return h;
}

static long find_entry(const sd_gmap *m, const char *k, size_t n)
{
    if (m->index) {
        size_t mask = m->index_cap - 1, i = hash_key(k, n) & mask;
        for (; m->index[i]; i = (i + 1) & mask) {
            size_t e = m->index[i] - 1;
            if (m->klen[e] == n && memcmp(m->keys[e], k, n) == 0)
                return (long)e;
        }
        return -1;
    }
    for (size_t e = 0; e < m->n; e++)
        if (m->klen[e] == n && memcmp(m->keys[e], k, n) == 0)
            return (long)e;
    return -1;
}

static int reindex(sd_gheap *h, sd_gmap *m)
{
    size_t cap = 16;
    while (cap < m->cap * 2)
        cap *= 2;
    unsigned *ix = sd_gheap_alloc(h, cap * sizeof *ix);
    if (!ix)
        return h->failed;
    for (size_t e = 0; e < m->n; e++) {
        if (!m->keys[e])
            continue;
        size_t i = hash_key(m->keys[e], m->klen[e]) & (cap - 1);
        while (ix[i])
            i = (i + 1) & (cap - 1);
        ix[i] = (unsigned)e + 1;
    }
    m->index = ix;
    m->index_cap = cap;
    return 0;
}

int sd_gmap_set(sd_gheap *h, sd_gval mv, const char *k, size_t n, sd_gval v)
{
    sd_gmap *m = mv.u.m;
    long e;
    if (mv.kind != SD_G_MAP || !m)
        return SD_ERROR;
    if ((e = find_entry(m, k, n)) >= 0) {
        m->vals[e] = v;
        return 0;
    }
    if (m->n == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 8;
        const char **keys = sd_gheap_alloc(h, cap * sizeof *keys);
        size_t *klen = sd_gheap_alloc(h, cap * sizeof *klen);
        sd_gval *vals = sd_gheap_alloc(h, cap * sizeof *vals);
        if (!keys || !klen || !vals)
            return h->failed;
        if (m->n) {
            memcpy(keys, m->keys, m->n * sizeof *keys);
            memcpy(klen, m->klen, m->n * sizeof *klen);
            memcpy(vals, m->vals, m->n * sizeof *vals);
        }
        m->keys = keys;
        m->klen = klen;
        m->vals = vals;
        m->cap = cap;
        m->index = NULL;
    }
    char *kc = sd_gheap_alloc(h, n + 1);
    if (!kc)
        return h->failed;
    if (n)
        memcpy(kc, k, n);
    m->keys[m->n] = kc;
    m->klen[m->n] = n;
    m->vals[m->n] = v;
    m->n++;
    if (m->n > 8) {
        if (!m->index)
            return reindex(h, m);
        size_t i = hash_key(k, n) & (m->index_cap - 1);
        while (m->index[i])
            i = (i + 1) & (m->index_cap - 1);
        m->index[i] = (unsigned)m->n;
    }
    return 0;
}

sd_gval sd_gmap_get(sd_gval mv, const char *k, size_t n)
{
    long e;
    if (mv.kind != SD_G_MAP || !mv.u.m || (e = find_entry(mv.u.m, k, n)) < 0)
        return sd_gmissing();
    return mv.u.m->vals[e];
}

void sd_gmap_del(sd_gval mv, const char *k, size_t n)
{
    sd_gmap *m = mv.u.m;
    long e;
    if (mv.kind != SD_G_MAP || !m || (e = find_entry(m, k, n)) < 0)
        return;
    memmove(m->keys + e, m->keys + e + 1, (m->n - (size_t)e - 1) * sizeof *m->keys);
    memmove(m->klen + e, m->klen + e + 1, (m->n - (size_t)e - 1) * sizeof *m->klen);
    memmove(m->vals + e, m->vals + e + 1, (m->n - (size_t)e - 1) * sizeof *m->vals);
    m->n--;
    if (m->index) {
        /* rebuild in place: entries moved */
        memset(m->index, 0, m->index_cap * sizeof *m->index);
        for (size_t j = 0; j < m->n; j++) {
            size_t i = hash_key(m->keys[j], m->klen[j]) & (m->index_cap - 1);
            while (m->index[i])
                i = (i + 1) & (m->index_cap - 1);
            m->index[i] = (unsigned)j + 1;
        }
    }
}

size_t sd_gmap_len(sd_gval m)
{
    return m.kind == SD_G_MAP && m.u.m ? m.u.m->n : 0;
}

const char *sd_gmap_key(sd_gval m, size_t i, size_t *len)
{
    if (len)
        *len = m.u.m->klen[i];
    return m.u.m->keys[i];
}

sd_gval sd_gmap_val(sd_gval m, size_t i)
{
    return m.u.m->vals[i];
}

int sd_gotmpl__strcmp(const char *a, size_t an, const char *b, size_t bn)
{
    int c = memcmp(a, b, an < bn ? an : bn);
    if (c)
        return c;
    return an < bn ? -1 : an > bn;
}

static const sd_gmap *sort_map;
static int cmp_idx(const void *x, const void *y)
{
    size_t i = *(const size_t *)x, j = *(const size_t *)y;
    return sd_gotmpl__strcmp(sort_map->keys[i], sort_map->klen[i], sort_map->keys[j], sort_map->klen[j]);
}

size_t *sd_gotmpl__key_order(const sd_gmap *m)
{
    size_t n = m->n, *ix = malloc((n ? n : 1) * sizeof *ix);
    if (!ix)
        return NULL;
    for (size_t i = 0; i < n; i++)
        ix[i] = i;
    sort_map = m;
    qsort(ix, n, sizeof *ix, cmp_idx);
    sort_map = NULL;
    return ix;
}

size_t *sd_gotmpl__sorted_keys(sd_gheap *h, sd_gval m)
{
    size_t n = sd_gmap_len(m);
    size_t *ix = sd_gheap_alloc(h, (n ? n : 1) * sizeof *ix);
    if (!ix)
        return NULL;
    for (size_t i = 0; i < n; i++)
        ix[i] = i;
    sort_map = m.u.m;
    qsort(ix, n, sizeof *ix, cmp_idx);
    sort_map = NULL;
    return ix;
}

/* --- truth, type names, printing ------------------------------------------ */

int sd_gval_truth(sd_gval v)
{
    switch (v.kind) {
    case SD_G_BOOL: return v.u.b;
    case SD_G_INT: return v.u.i != 0;
    case SD_G_FLOAT: return v.u.f != 0;
    case SD_G_STR: return v.u.s.n != 0;
    case SD_G_LIST: return v.u.l && v.u.l->n != 0;
    case SD_G_MAP: return v.u.m && (v.u.m->type_name || v.u.m->n != 0);
    case SD_G_OBJ: return 1;
    default: return 0;
    }
}

const char *sd_gval_type_name(sd_gval v)
{
    switch (v.kind) {
    case SD_G_MISSING: return "<nil>";
    case SD_G_NIL: return "interface {}";
    case SD_G_BOOL: return "bool";
    case SD_G_INT: return v.sub == SD_GINT_INT64 ? "int64" : v.sub == SD_GINT_RUNE ? "int32" : "int";
    case SD_G_FLOAT: return "float64";
    case SD_G_STR: return "string";
    case SD_G_LIST: return "[]interface {}";
    case SD_G_MAP: return v.u.m && v.u.m->type_name ? v.u.m->type_name : "map[string]interface {}";
    case SD_G_OBJ: return v.u.o->cls->type_name;
    }
    return "?";
}

/* The shortest digits that read back as `f` (|f| finite, non-zero): digits
 * into `dig` (no point), the decimal exponent as in d.ddd x 10^exp. */
static int shortest_digits(double f, char *dig, int *exp)
{
    char tmp[40];
    int p, n = 0;
    for (p = 1; p <= 17; p++) {
        snprintf(tmp, sizeof tmp, "%.*e", p - 1, f);
        if (strtod(tmp, NULL) == f)
            break;
    }
    if (p > 17)
        snprintf(tmp, sizeof tmp, "%.16e", f);
    for (const char *s = tmp; *s && *s != 'e'; s++)
        if (*s >= '0' && *s <= '9')
            dig[n++] = *s;
    while (n > 1 && dig[n - 1] == '0')
        n--;
    dig[n] = '\0';
    *exp = atoi(strchr(tmp, 'e') + 1);
    return n;
}

static void put_exp(sd_buf *b, int e)
{
    sd_buf_putc(b, 'e');
    sd_buf_putc(b, e < 0 ? '-' : '+');
    if (e < 0)
        e = -e;
    if (e < 10)
        sd_buf_putc(b, '0');
    sd_buf_printf(b, "%d", e);
}

void sd_gotmpl__fmt_float(sd_buf *b, double f, char fmtc, int prec)
{
    char dig[40];
    int nd, exp;

    if (isnan(f)) { sd_buf_puts(b, "NaN"); return; }
    if (isinf(f)) { sd_buf_puts(b, f > 0 ? "+Inf" : "-Inf"); return; }
    if (prec >= 0) {
        char fmt[16];
        snprintf(fmt, sizeof fmt, "%%.%d%c", prec > 1000 ? 1000 : prec, fmtc);
        sd_buf_printf(b, fmt, f);
        return;
    }
    if (signbit(f)) {
        sd_buf_putc(b, '-');
        f = -f;
    }
    if (f == 0) {
        sd_buf_puts(b, fmtc == 'e' ? "0e+00" : "0");
        return;
    }
    nd = shortest_digits(f, dig, &exp);
    if (fmtc == 'g')
        fmtc = (exp < -4 || exp >= 6) ? 'e' : 'f'; /* strconv: shortest uses eprec 6 */
    if (fmtc == 'e') {
        sd_buf_putc(b, dig[0]);
        if (nd > 1) {
            sd_buf_putc(b, '.');
            sd_buf_puts(b, dig + 1);
        }
        put_exp(b, exp);
        return;
    }
    /* 'f': digits around the point */
    if (exp < 0) {
        sd_buf_puts(b, "0.");
        for (int i = 0; i < -exp - 1; i++)
            sd_buf_putc(b, '0');
        sd_buf_puts(b, dig);
    } else {
        for (int i = 0; i <= exp; i++)
            sd_buf_putc(b, i < nd ? dig[i] : '0');
        if (nd > exp + 1) {
            sd_buf_putc(b, '.');
            sd_buf_puts(b, dig + exp + 1);
        }
    }
}

static void print_val(sd_buf *b, sd_gval v, int depth, gwalk *w)
{
    if (sd_gotmpl__visit(w) < 0)
        return;
    if (depth > 100) {
        sd_buf_puts(b, "...");
        return;
    }
    switch (v.kind) {
    case SD_G_MISSING: sd_buf_puts(b, "<no value>"); break;
    case SD_G_NIL: sd_buf_puts(b, "<nil>"); break;
    case SD_G_BOOL: sd_buf_puts(b, v.u.b ? "true" : "false"); break;
    case SD_G_INT: sd_buf_printf(b, "%lld", v.u.i); break;
    case SD_G_FLOAT: sd_gotmpl__fmt_float(b, v.u.f, 'g', -1); break;
    case SD_G_STR: sd_buf_put(b, v.u.s.p, v.u.s.n); break;
    case SD_G_LIST:
        sd_buf_putc(b, '[');
        for (size_t i = 0; v.u.l && i < v.u.l->n && !sd_buf_failed(b) && !w->over; i++) {
            if (i)
                sd_buf_putc(b, ' ');
            print_val(b, v.u.l->items[i], depth + 1, w);
        }
        sd_buf_putc(b, ']');
        break;
    case SD_G_MAP: {
        const sd_gmap *m = v.u.m;
        if (m && m->type_name) {
            /* a struct: its field values in order */
            sd_buf_putc(b, '{');
            for (size_t i = 0; i < m->n && !sd_buf_failed(b) && !w->over; i++) {
                if (i)
                    sd_buf_putc(b, ' ');
                print_val(b, m->vals[i], depth + 1, w);
            }
            sd_buf_putc(b, '}');
            break;
        }
        sd_buf_puts(b, "map[");
        if (m && m->n) {
            /* fmt sorts map keys */
            size_t *ix = sd_gotmpl__key_order(m);
            if (!ix) {
                sd_buf_puts(b, "...");
            } else {
                for (size_t i = 0; i < m->n && !sd_buf_failed(b) && !w->over; i++) {
                    if (i)
                        sd_buf_putc(b, ' ');
                    sd_buf_put(b, m->keys[ix[i]], m->klen[ix[i]]);
                    sd_buf_putc(b, ':');
                    print_val(b, m->vals[ix[i]], depth + 1, w);
                }
                free(ix);
            }
        }
        sd_buf_putc(b, ']');
        break;
    }
    case SD_G_OBJ:
        sd_buf_printf(b, "{%s}", v.u.o->cls->type_name);
        break;
    }
}

void sd_gotmpl__print(sd_buf *b, sd_gval v, gwalk *w)
{
    print_val(b, v, 0, w);
}

void sd_gval_print(sd_buf *b, sd_gval v)
{
    gwalk w = sd_gotmpl__walk_alone();
    print_val(b, v, 0, &w);
}

/* --- JSON in ------------------------------------------------------------------ */

static sd_gval from_json(sd_gheap *h, json_t *j, int depth)
{
    switch (json_typeof(j)) {
    case JSON_NULL: return sd_gnil();
    case JSON_TRUE: return sd_gbool(1);
    case JSON_FALSE: return sd_gbool(0);
    case JSON_INTEGER: return sd_gfloat((double)json_integer_value(j));
    case JSON_REAL: return sd_gfloat(json_real_value(j));
    case JSON_STRING: return sd_gstr(h, json_string_value(j), json_string_length(j));
    case JSON_ARRAY: {
        size_t i;
        json_t *x;
        sd_gval l = sd_glist_new(h, json_array_size(j));
        if (l.kind != SD_G_LIST)
            return l;
        json_array_foreach(j, i, x)
            if (sd_glist_push(h, l, depth > 1000 ? sd_gnil() : from_json(h, x, depth + 1)) < 0)
                return sd_gmissing();
        return l;
    }
    case JSON_OBJECT: {
        const char *k;
        json_t *x;
        sd_gval m = sd_gmap_new(h);
        if (m.kind != SD_G_MAP)
            return m;
        json_object_foreach(j, k, x)
            if (sd_gmap_set(h, m, k, strlen(k), depth > 1000 ? sd_gnil() : from_json(h, x, depth + 1)) < 0)
                return sd_gmissing();
        return m;
    }
    }
    return sd_gnil();
}

int sd_gval_from_json_text(sd_gval *out, sd_gheap *h, const char *s, size_t n,
                           char *err, size_t errlen)
{
    json_error_t je;
    /* jansson's tree is made before the values: it may take what the heap
     * has left, counted as it is made (a 70-byte template made 4.9 GB of
     * it from a repeated text) */
    if (h->failed)
        return h->failed;
    sd_alloc_json_cap(h->cap - h->arena.used, 1);
    json_t *j = json_loadb(s, n, JSON_DECODE_ANY | JSON_DECODE_INT_AS_REAL | JSON_ALLOW_NUL, &je);
    int over = sd_alloc_json_over();
    if (over) {
        json_decref(j);
        sd_alloc_json_cap(0, 0);   /* after the tree is freed: its allocator */
        snprintf(err, errlen, "result too large");
        return h->failed = SD_ELIMIT;
    }
    if (!j) {
        sd_alloc_json_cap(0, 0);
        snprintf(err, errlen, "%s", je.text);
        return SD_ESYNTAX;
    }
    /* from_json allocates from the heap, not through jansson: the cap's
     * count does not move while the tree is read */
    *out = from_json(h, j, 0);
    json_decref(j);
    sd_alloc_json_cap(0, 0);
    return h->failed;
}
