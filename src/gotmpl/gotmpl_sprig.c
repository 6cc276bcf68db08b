/* SPDX-License-Identifier: Apache-2.0 */
/* gotmpl_sprig.c - the Sprig functions on strings and defaults that
 * helm-docs templates use, with Sprig's argument order and conversions
 * (strval, strslice, toInt64), and the Sprig names refused on purpose, each
 * with its reason; lists, dicts, math and types are in gotmpl_lists.c.
 * docs/gotmpl.md lists them all. */
#include "gotmpl_int.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define S(v) (v).u.s.p, (v).u.s.n

static int ret_buf(sd_gval *out, sd_gcall *c, sd_buf *b) { return sd_gotmpl__buf_val(out, c, b); }

void sd_gotmpl__strval(sd_buf *b, sd_gval v, gwalk *w)
{
    if (v.kind == SD_G_MISSING)
        v = sd_gnil();
    sd_gotmpl__print(b, v, w);
}

int sd_gotmpl__strval_v(sd_gval *out, sd_gcall *c, sd_gval v, gwalk *w)
{
    sd_buf b;
    if (v.kind == SD_G_STR) {
        *out = v;
        return 0;
    }
    sd_gotmpl__buf(c, &b);
    sd_gotmpl__strval(&b, v, w);
    if (w->over) {
        /* the caller returns at once: the whole walk is charged here */
        sd_buf_release(&b);
        return sd_gotmpl__walked(c, w);
    }
    return sd_gotmpl__buf_val(out, c, &b);
}

int sd_gotmpl__empty_val(sd_gval v)
{
    switch (v.kind) {
    case SD_G_MISSING: case SD_G_NIL: return 1;
    case SD_G_MAP: return !v.u.m->type_name && v.u.m->n == 0;
    case SD_G_OBJ: return 0;
    default: return !sd_gval_truth(v);
    }
}

/* cast.ToInt64 as Sprig uses it: strings parse (base 0), floats truncate. */
long long sd_gotmpl__to_int64(sd_gval v)
{
    switch (v.kind) {
    case SD_G_INT: return v.u.i;
    case SD_G_FLOAT: return isfinite(v.u.f) && fabs(v.u.f) < 9.2e18 ? (long long)v.u.f : 0;
    case SD_G_BOOL: return v.u.b;
    case SD_G_STR: {
        char buf[64], *e;
        size_t n = v.u.s.n < sizeof buf - 1 ? v.u.s.n : sizeof buf - 1;
        memcpy(buf, v.u.s.p, n);
        buf[n] = '\0';
        /* trimZeroDecimal: "5.0" -> "5" */
        char *dot = strchr(buf, '.');
        if (dot && strspn(dot + 1, "0") == strlen(dot + 1))
            *dot = '\0';
        errno = 0;
        long long x = strtoll(buf, &e, 0);
        return (*buf && !*e && !errno) ? x : 0;
    }
    default: return 0;
    }
}

double sd_gotmpl__to_float64(sd_gval v)
{
    switch (v.kind) {
    case SD_G_INT: return (double)v.u.i;
    case SD_G_FLOAT: return v.u.f;
    case SD_G_BOOL: return v.u.b;
    case SD_G_STR: {
        char buf[64], *e;
        size_t n = v.u.s.n < sizeof buf - 1 ? v.u.s.n : sizeof buf - 1;
        memcpy(buf, v.u.s.p, n);
        buf[n] = '\0';
        double x = strtod(buf, &e);
        return *buf && !*e ? x : 0;
    }
    default: return 0;
    }
}



/* --- strings --------------------------------------------------------------------------- */

static int f_upper(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    sd_buf b;
    (void)n;
    sd_gotmpl__buf(c, &b);
    for (size_t i = 0; i < a[0].u.s.n; i++)
        sd_buf_putc(&b, (char)toupper((unsigned char)a[0].u.s.p[i]));
    return ret_buf(o, c, &b);
}

static int f_lower(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    sd_buf b;
    (void)n;
    sd_gotmpl__buf(c, &b);
    for (size_t i = 0; i < a[0].u.s.n; i++)
        sd_buf_putc(&b, (char)tolower((unsigned char)a[0].u.s.p[i]));
    return ret_buf(o, c, &b);
}

/* strings.Title: upper-case letters that follow a separator (ASCII rules). */
static int f_title(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    sd_buf b;
    int prev_sep = 1;
    (void)n;
    sd_gotmpl__buf(c, &b);
    for (size_t i = 0; i < a[0].u.s.n; i++) {
        unsigned char ch = (unsigned char)a[0].u.s.p[i];
        sd_buf_putc(&b, (char)(prev_sep ? toupper(ch) : ch));
        prev_sep = ch < 0x80 ? !(isalnum(ch) || ch == '_') : 0;
        if (ch >= 0x80 && (ch & 0xC0) != 0x80)
            prev_sep = 0;
    }
    return ret_buf(o, c, &b);
}

static int f_untitle(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    sd_buf b;
    int in_word = 0;
    (void)n;
    sd_gotmpl__buf(c, &b);
    for (size_t i = 0; i < a[0].u.s.n; i++) {
        unsigned char ch = (unsigned char)a[0].u.s.p[i];
        if (isspace(ch)) {
            in_word = 0;
            sd_buf_putc(&b, (char)ch);
        } else if (!in_word) {
            sd_buf_putc(&b, (char)tolower(ch));
            in_word = 1;
        } else {
            sd_buf_putc(&b, (char)ch);
        }
    }
    return ret_buf(o, c, &b);
}

static int is_ws(int ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f'; }

static int f_trim(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    const char *s = a[0].u.s.p;
    size_t i = 0, e = a[0].u.s.n;
    (void)c; (void)n;
    while (i < e && is_ws((unsigned char)s[i])) i++;
    while (e > i && is_ws((unsigned char)s[e - 1])) e--;
    *o = sd_gstr_static(s + i, e - i);
    return 0;
}

/* trimAll CUTSET S = strings.Trim(S, CUTSET) (byte cutset; ASCII) */
static int in_set(const sd_gval *set, unsigned char ch)
{
    return memchr(set->u.s.p, ch, set->u.s.n) != NULL;
}

static int f_trimall(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    const char *s = a[1].u.s.p;
    size_t i = 0, e = a[1].u.s.n;
    (void)c; (void)n;
    while (i < e && in_set(&a[0], (unsigned char)s[i])) i++;
    while (e > i && in_set(&a[0], (unsigned char)s[e - 1])) e--;
    *o = sd_gstr_static(s + i, e - i);
    return 0;
}

static int f_trimprefix(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    (void)c; (void)n;
    *o = a[1];
    if (a[1].u.s.n >= a[0].u.s.n && memcmp(a[1].u.s.p, S(a[0])) == 0)
        *o = sd_gstr_static(a[1].u.s.p + a[0].u.s.n, a[1].u.s.n - a[0].u.s.n);
    return 0;
}

static int f_trimsuffix(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    (void)c; (void)n;
    *o = a[1];
    if (a[1].u.s.n >= a[0].u.s.n && memcmp(a[1].u.s.p + a[1].u.s.n - a[0].u.s.n, S(a[0])) == 0)
        *o = sd_gstr_static(a[1].u.s.p, a[1].u.s.n - a[0].u.s.n);
    return 0;
}

static const char *find_sub(const char *h, size_t hn, const char *nd, size_t nn)
{
    if (nn == 0)
        return h;
    for (size_t i = 0; i + nn <= hn; i++)
        if (h[i] == nd[0] && memcmp(h + i, nd, nn) == 0)
            return h + i;
    return NULL;
}

static int f_contains(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    (void)c; (void)n;
    *o = sd_gbool(find_sub(S(a[1]), S(a[0])) != NULL);
    return 0;
}

static int f_hasprefix(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    (void)c; (void)n;
    *o = sd_gbool(a[1].u.s.n >= a[0].u.s.n && memcmp(a[1].u.s.p, S(a[0])) == 0);
    return 0;
}

static int f_hassuffix(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    (void)c; (void)n;
    *o = sd_gbool(a[1].u.s.n >= a[0].u.s.n &&
                  memcmp(a[1].u.s.p + a[1].u.s.n - a[0].u.s.n, S(a[0])) == 0);
    return 0;
}

/* replace OLD NEW S = strings.Replace(S, OLD, NEW, -1) */
static int f_replace(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    sd_buf b;
    const char *s = a[2].u.s.p;
    size_t sn = a[2].u.s.n, i = 0;
    (void)n;
    sd_gotmpl__buf(c, &b);
    if (a[0].u.s.n == 0) {
        /* Go inserts NEW before every rune and at the end */
        for (i = 0; i < sn; i++) {
            if (((unsigned char)s[i] & 0xC0) != 0x80)
                sd_buf_put(&b, S(a[1]));
            sd_buf_putc(&b, s[i]);
        }
        sd_buf_put(&b, S(a[1]));
        return ret_buf(o, c, &b);
    }
    while (i < sn && !sd_buf_failed(&b)) {
        const char *f = find_sub(s + i, sn - i, S(a[0]));
        if (!f) {
            sd_buf_put(&b, s + i, sn - i);
            break;
        }
        sd_buf_put(&b, s + i, (size_t)(f - s) - i);
        sd_buf_put(&b, S(a[1]));
        i = (size_t)(f - s) + a[0].u.s.n;
    }
    return ret_buf(o, c, &b);
}

static int do_indent(sd_gval *o, sd_gcall *c, const sd_gval *a, int nl)
{
    sd_buf b;
    long long w = a[0].u.i;
    if (w < 0)
        return sd_gcall_fail(c, "strings: negative Repeat count");
    if ((unsigned long long)w > ((size_t)64 << 20))
        return sd_gcall_fail(c, "result too large");
    sd_gotmpl__buf(c, &b);
    if (nl)
        sd_buf_putc(&b, '\n');
    for (long long k = 0; k < w; k++)
        sd_buf_putc(&b, ' ');
    for (size_t i = 0; i < a[1].u.s.n && !sd_buf_failed(&b); i++) {
        sd_buf_putc(&b, a[1].u.s.p[i]);
        if (a[1].u.s.p[i] == '\n')
            for (long long k = 0; k < w; k++)
                sd_buf_putc(&b, ' ');
    }
    return ret_buf(o, c, &b);
}

static int f_indent(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; return do_indent(o, c, a, 0); }
static int f_nindent(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; return do_indent(o, c, a, 1); }

static int f_repeat(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    sd_buf b;
    (void)n;
    if (a[0].u.i < 0)
        return sd_gcall_fail(c, "strings: negative Repeat count");
    if (a[1].u.s.n && (unsigned long long)a[0].u.i > ((size_t)64 << 20) / a[1].u.s.n)
        return sd_gcall_fail(c, "result too large");
    sd_gotmpl__buf(c, &b);
    /* the whole result reserved, then doubled from inside the buffer: one
     * copy per doubling, not a call per piece (a 60 MB repeat of "[]," took
     * 10 s in the fuzz build: issue 41's fromJson seed) */
    size_t total = (size_t)a[0].u.i * a[1].u.s.n, start = b.len;
    if (total && !sd_buf_grow(&b, total)) {
        sd_buf_put(&b, S(a[1]));
        while (!sd_buf_failed(&b) && b.len - start < total) {
            size_t have = b.len - start;
            sd_buf_put(&b, b.ptr + start, have < total - have ? have : total - have);   /* no realloc: reserved */
        }
    }
    return ret_buf(o, c, &b);
}

/* quote / squote: each non-nil argument, as %q (or in single quotes), joined by spaces */
static int do_quote(sd_gval *o, sd_gcall *c, const sd_gval *a, int n, int single)
{
    sd_buf b, one;
    gwalk w = sd_gotmpl__walk(c);
    int first = 1;
    sd_gotmpl__buf(c, &b);
    for (int i = 0; i < n && !w.over && !sd_buf_failed(&b); i++) {
        if (a[i].kind == SD_G_NIL || a[i].kind == SD_G_MISSING)
            continue;
        if (!first)
            sd_buf_putc(&b, ' ');
        first = 0;
        sd_gotmpl__buf(c, &one);
        sd_gotmpl__strval(&one, a[i], &w);
        if (sd_buf_failed(&one))
            b.failed = sd_buf_error(&one);
        else if (single) {
            sd_buf_putc(&b, '\'');
            sd_buf_put(&b, one.ptr, one.len);
            sd_buf_putc(&b, '\'');
        } else {
            sd_gval s = sd_gstr_static(one.ptr, one.len);
            sd_gotmpl__sprintf(&b, "%q", 2, &s, 1, &w);
        }
        sd_buf_release(&one);
    }
    return sd_gotmpl__buf_walked(o, c, &b, &w);
}

static int f_quote(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { return do_quote(o, c, a, n, 0); }
static int f_squote(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { return do_quote(o, c, a, n, 1); }

/* cat: non-nil arguments printed with %v, separated by spaces */
static int f_cat(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    sd_buf b;
    gwalk w = sd_gotmpl__walk(c);
    int first = 1;
    sd_gotmpl__buf(c, &b);
    for (int i = 0; i < n && !w.over; i++) {
        if (a[i].kind == SD_G_NIL || a[i].kind == SD_G_MISSING)
            continue;
        if (!first)
            sd_buf_putc(&b, ' ');
        first = 0;
        sd_gotmpl__print(&b, a[i], &w);
    }
    return sd_gotmpl__buf_walked(o, c, &b, &w);
}

static int f_nospace(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    sd_buf b;
    (void)n;
    sd_gotmpl__buf(c, &b);
    for (size_t i = 0; i < a[0].u.s.n; i++)
        if (!is_ws((unsigned char)a[0].u.s.p[i]))
            sd_buf_putc(&b, a[0].u.s.p[i]);
    return ret_buf(o, c, &b);
}

static int f_trunc(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    long long k = a[0].u.i, len = (long long)a[1].u.s.n;
    (void)c; (void)n;
    *o = a[1];
    if (k < 0 && len + k > 0)
        *o = sd_gstr_static(a[1].u.s.p + len + k, (size_t)-k);
    else if (k >= 0 && len > k)
        *o = sd_gstr_static(a[1].u.s.p, (size_t)k);
    return 0;
}

static int f_abbrev(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    sd_buf b;
    long long w = a[0].u.i;
    (void)n;
    *o = a[1];
    if (w < 4 || (long long)a[1].u.s.n <= w)
        return 0;
    sd_gotmpl__buf(c, &b);
    sd_buf_put(&b, a[1].u.s.p, (size_t)(w - 3));
    sd_buf_puts(&b, "...");
    return ret_buf(o, c, &b);
}

static int f_substr(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    long long st = a[0].u.i, en = a[1].u.i, len = (long long)a[2].u.s.n;
    (void)n;
    if (st < 0) {
        if (en < 0 || en > len)
            return sd_gcall_fail(c, "slice bounds out of range [:%lld] with length %lld", en, len);
        *o = sd_gstr_static(a[2].u.s.p, (size_t)en);
        return 0;
    }
    if (en < 0 || en > len) {
        if (st > len)
            return sd_gcall_fail(c, "slice bounds out of range [%lld:%lld]", st, len);
        *o = sd_gstr_static(a[2].u.s.p + st, (size_t)(len - st));
        return 0;
    }
    if (st > en)
        return sd_gcall_fail(c, "slice bounds out of range [%lld:%lld]", st, en);
    *o = sd_gstr_static(a[2].u.s.p + st, (size_t)(en - st));
    return 0;
}

static int f_plural(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    (void)c; (void)n;
    *o = a[2].u.i == 1 ? a[0] : a[1];
    return 0;
}

/* strslice: a list's non-nil elements as strings, else [strval(v)]; 0 or
 * the error */
static int strslice(sd_gval *out, sd_gcall *c, sd_gval v)
{
    sd_gval l = sd_glist_new(c->heap, v.kind == SD_G_LIST ? v.u.l->n : 1), s;
    gwalk w = sd_gotmpl__walk(c);
    if (l.kind != SD_G_LIST)
        return sd_gcall_fail(c, "result too large");
    if (v.kind == SD_G_LIST) {
        for (size_t i = 0; i < v.u.l->n; i++)
            if (v.u.l->items[i].kind != SD_G_NIL && v.u.l->items[i].kind != SD_G_MISSING) {
                if (sd_gotmpl__strval_v(&s, c, v.u.l->items[i], &w) != 0)
                    return c->err;
                sd_glist_push(c->heap, l, s);
            }
    } else if (v.kind != SD_G_NIL && v.kind != SD_G_MISSING) {
        if (sd_gotmpl__strval_v(&s, c, v, &w) != 0)
            return c->err;
        sd_glist_push(c->heap, l, s);
    }
    if (sd_gotmpl__walked(c, &w) != 0)
        return c->err;
    *out = l;
    return sd_gheap_failed(c->heap) ? sd_gcall_fail(c, "result too large") : 0;
}

static int f_tostring(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    gwalk w = sd_gotmpl__walk(c);
    (void)n;
    if (sd_gotmpl__strval_v(o, c, a[0], &w) != 0)
        return c->err;
    return sd_gotmpl__walked(c, &w);
}

static int f_tostrings(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; return strslice(o, c, a[0]); }

static int f_join(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    sd_buf b;
    sd_gval l;
    (void)n;
    if (strslice(&l, c, a[1]) != 0)
        return c->err;
    sd_gotmpl__buf(c, &b);
    for (size_t i = 0; i < l.u.l->n && !sd_buf_failed(&b); i++) {
        if (i)
            sd_buf_put(&b, S(a[0]));
        sd_buf_put(&b, S(l.u.l->items[i]));
    }
    return ret_buf(o, c, &b);
}

/* strings.Split(orig, sep) (an empty sep splits into runes), at most max parts (0: all) */
static sd_gval split_parts(sd_gcall *c, sd_gval sep, sd_gval s, long long max)
{
    sd_gval l = sd_glist_new(c->heap, 4);
    size_t i = 0;
    if (l.kind != SD_G_LIST || max < 0)
        return l;
    if (sep.u.s.n == 0) {
        while (i < s.u.s.n) {
            size_t j = i + 1;
            while (j < s.u.s.n && ((unsigned char)s.u.s.p[j] & 0xC0) == 0x80)
                j++;
            if (max && (long long)l.u.l->n == max - 1)
                j = s.u.s.n;
            sd_glist_push(c->heap, l, sd_gstr_static(s.u.s.p + i, j - i));
            i = j;
        }
        return l;
    }
    for (;;) {
        const char *f = (max && (long long)l.u.l->n == max - 1) ? NULL
                        : find_sub(s.u.s.p + i, s.u.s.n - i, S(sep));
        if (!f) {
            sd_glist_push(c->heap, l, sd_gstr_static(s.u.s.p + i, s.u.s.n - i));
            return l;
        }
        sd_glist_push(c->heap, l, sd_gstr_static(s.u.s.p + i, (size_t)(f - s.u.s.p) - i));
        i = (size_t)(f - s.u.s.p) + sep.u.s.n;
        if (sd_gheap_failed(c->heap))
            return sd_gmissing();
    }
}

static int parts_map(sd_gval *o, sd_gcall *c, sd_gval l)
{
    sd_gval m = sd_gmap_new(c->heap);
    char key[32];
    if (l.kind != SD_G_LIST || m.kind != SD_G_MAP)
        return sd_gcall_fail(c, "out of memory");
    for (size_t i = 0; i < l.u.l->n; i++) {
        int kn = snprintf(key, sizeof key, "_%zu", i);
        sd_gmap_set(c->heap, m, key, (size_t)kn, l.u.l->items[i]);
    }
    *o = m;
    return 0;
}

static int f_split(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; return parts_map(o, c, split_parts(c, a[0], a[1], 0)); }
static int f_splitn(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; return parts_map(o, c, split_parts(c, a[0], a[2], a[1].u.i)); }
static int f_splitlist(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; *o = split_parts(c, a[0], a[1], 0); return 0; }

static int cmp_strv(const void *x, const void *y)
{
    const sd_gval *a = x, *b = y;
    return sd_gotmpl__strcmp(a->u.s.p, a->u.s.n, b->u.s.p, b->u.s.n);
}

static int f_sortalpha(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    sd_gval l;
    (void)n;
    if (strslice(&l, c, a[0]) != 0)
        return c->err;
    qsort(l.u.l->items, l.u.l->n, sizeof *l.u.l->items, cmp_strv);
    *o = l;
    return 0;
}

/* --- defaults -------------------------------------------------------------------------- */

static int f_default(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    (void)c;
    *o = (n < 2 || sd_gotmpl__empty_val(a[1])) ? a[0] : a[1];
    return 0;
}

static int f_empty(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)c; (void)n; *o = sd_gbool(sd_gotmpl__empty_val(a[0])); return 0; }

static int f_coalesce(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    (void)c;
    *o = sd_gnil();
    for (int i = 0; i < n; i++)
        if (!sd_gotmpl__empty_val(a[i])) { *o = a[i]; break; }
    return 0;
}

static int f_all(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    (void)c;
    *o = sd_gbool(1);
    for (int i = 0; i < n; i++)
        if (sd_gotmpl__empty_val(a[i])) { *o = sd_gbool(0); break; }
    return 0;
}

static int f_any(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    (void)c;
    *o = sd_gbool(0);
    for (int i = 0; i < n; i++)
        if (!sd_gotmpl__empty_val(a[i])) { *o = sd_gbool(1); break; }
    return 0;
}

static int f_ternary(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)c; (void)n; *o = a[2].u.b ? a[0] : a[1]; return 0; }

static int f_fail(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    (void)o; (void)n;
    return sd_gcall_fail(c, "%.*s", (int)(a[0].u.s.n > 400 ? 400 : a[0].u.s.n), a[0].u.s.p);
}

/* --- the table ----------------------------------------------------------------------- */

#define NOTYET "not implemented in schemadoc (docs/gotmpl.md)"
#define CLOCK "its output changes from run to run, so --check could never pass"
#define RANDOM "its output is random, so --check could never pass"
#define ENV "a template cannot read the environment"
#define NET "a template cannot reach the network"

const gfunc sd_gotmpl__sprig_funcs[] = {
    /* strings */
    { "abbrev", "IS", f_abbrev, NULL },
    { "cat", "A*", f_cat, NULL },
    { "contains", "SS", f_contains, NULL },
    { "hasPrefix", "SS", f_hasprefix, NULL },
    { "hasSuffix", "SS", f_hassuffix, NULL },
    { "indent", "IS", f_indent, NULL },
    { "join", "SA", f_join, NULL },
    { "lower", "S", f_lower, NULL },
    { "nindent", "IS", f_nindent, NULL },
    { "nospace", "S", f_nospace, NULL },
    { "plural", "SSI", f_plural, NULL },
    { "quote", "A*", f_quote, NULL },
    { "repeat", "IS", f_repeat, NULL },
    { "replace", "SSS", f_replace, NULL },
    { "sortAlpha", "A", f_sortalpha, NULL },
    { "split", "SS", f_split, NULL },
    { "splitList", "SS", f_splitlist, NULL },
    { "splitn", "SIS", f_splitn, NULL },
    { "squote", "A*", f_squote, NULL },
    { "substr", "IIS", f_substr, NULL },
    { "title", "S", f_title, NULL },
    { "toString", "A", f_tostring, NULL },
    { "toStrings", "A", f_tostrings, NULL },
    { "trim", "S", f_trim, NULL },
    { "trimAll", "SS", f_trimall, NULL },
    { "trimPrefix", "SS", f_trimprefix, NULL },
    { "trimSuffix", "SS", f_trimsuffix, NULL },
    { "trimall", "SS", f_trimall, NULL },
    { "trunc", "IS", f_trunc, NULL },
    { "untitle", "S", f_untitle, NULL },
    { "upper", "S", f_upper, NULL },
    /* defaults and flow */
    { "all", "A*", f_all, NULL },
    { "any", "A*", f_any, NULL },
    { "coalesce", "A*", f_coalesce, NULL },
    { "default", "AA*", f_default, NULL },
    { "empty", "A", f_empty, NULL },
    { "fail", "S", f_fail, NULL },
    { "ternary", "AAB", f_ternary, NULL },
    /* refused on purpose */
    { "ago", "A", NULL, CLOCK }, { "date", "A", NULL, CLOCK }, { "dateInZone", "A", NULL, CLOCK },
    { "dateModify", "A", NULL, CLOCK }, { "date_in_zone", "A", NULL, CLOCK }, { "date_modify", "A", NULL, CLOCK },
    { "duration", "A", NULL, CLOCK }, { "durationRound", "A", NULL, CLOCK }, { "htmlDate", "A", NULL, CLOCK },
    { "htmlDateInZone", "A", NULL, CLOCK }, { "mustDateModify", "A", NULL, CLOCK }, { "mustToDate", "A", NULL, CLOCK },
    { "now", "A", NULL, CLOCK }, { "toDate", "A", NULL, CLOCK }, { "unixEpoch", "A", NULL, CLOCK },
    { "env", "A", NULL, ENV }, { "expandenv", "A", NULL, ENV },
    { "getHostByName", "A", NULL, NET },
    { "randAlpha", "A", NULL, RANDOM }, { "randAlphaNum", "A", NULL, RANDOM }, { "randAscii", "A", NULL, RANDOM },
    { "randBytes", "A", NULL, RANDOM }, { "randInt", "A", NULL, RANDOM }, { "randNumeric", "A", NULL, RANDOM },
    { "shuffle", "A", NULL, RANDOM }, { "uuidv4", "A", NULL, RANDOM },
    { "bcrypt", "A", NULL, RANDOM }, { "htpasswd", "A", NULL, RANDOM }, { "derivePassword", "A", NULL, NOTYET },
    { "genCA", "A", NULL, RANDOM }, { "genCAWithKey", "A", NULL, RANDOM }, { "genPrivateKey", "A", NULL, RANDOM },
    { "genSelfSignedCert", "A", NULL, RANDOM }, { "genSelfSignedCertWithKey", "A", NULL, RANDOM },
    { "genSignedCert", "A", NULL, RANDOM }, { "genSignedCertWithKey", "A", NULL, RANDOM },
    { "encryptAES", "A", NULL, RANDOM }, { "decryptAES", "A", NULL, NOTYET }, { "buildCustomCert", "A", NULL, NOTYET },
    { "adler32sum", "A", NULL, NOTYET }, { "sha1sum", "A", NULL, NOTYET }, { "sha256sum", "A", NULL, NOTYET },
    { "sha512sum", "A", NULL, NOTYET },
    { "b32dec", "A", NULL, NOTYET }, { "b32enc", "A", NULL, NOTYET },
    { "camelcase", "A", NULL, NOTYET }, { "kebabcase", "A", NULL, NOTYET }, { "snakecase", "A", NULL, NOTYET },
    { "swapcase", "A", NULL, NOTYET }, { "initials", "A", NULL, NOTYET }, { "wrap", "A", NULL, NOTYET },
    { "wrapWith", "A", NULL, NOTYET }, { "abbrevboth", "A", NULL, NOTYET },
    { "semver", "A", NULL, NOTYET }, { "semverCompare", "A", NULL, NOTYET },
    { "merge", "A", NULL, NOTYET }, { "mergeOverwrite", "A", NULL, NOTYET }, { "mustMerge", "A", NULL, NOTYET },
    { "mustMergeOverwrite", "A", NULL, NOTYET }, { "deepCopy", "A", NULL, NOTYET }, { "mustDeepCopy", "A", NULL, NOTYET },
    { "chunk", "A", NULL, NOTYET }, { "seq", "A", NULL, NOTYET }, { "sortAlphaNum", "A", NULL, NOTYET },
    { "urlParse", "A", NULL, NOTYET }, { "urlJoin", "A", NULL, NOTYET },
    { "addf", "A", NULL, NOTYET }, { "add1f", "A", NULL, NOTYET }, { "subf", "A", NULL, NOTYET },
    { "mulf", "A", NULL, NOTYET }, { "divf", "A", NULL, NOTYET }, { "maxf", "A", NULL, NOTYET },
    { "minf", "A", NULL, NOTYET }, { "round", "A", NULL, NOTYET },
    { "toDecimal", "A", NULL, NOTYET }, { "typeIsLike", "A", NULL, NOTYET },
    { "base", "A", NULL, NOTYET }, { "clean", "A", NULL, NOTYET }, { "dir", "A", NULL, NOTYET },
    { "ext", "A", NULL, NOTYET }, { "isAbs", "A", NULL, NOTYET },
    { "osBase", "A", NULL, NOTYET }, { "osClean", "A", NULL, NOTYET }, { "osDir", "A", NULL, NOTYET },
    { "osExt", "A", NULL, NOTYET }, { "osIsAbs", "A", NULL, NOTYET },
    { NULL, NULL, NULL, NULL }
};

