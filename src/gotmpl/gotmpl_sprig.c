/* gotmpl_sprig.c - the Sprig functions helm-docs templates use (strings,
 * defaults, lists, dicts, math, types), with Sprig's argument order and
 * conversions (strval, strslice, toInt64); and the Sprig names refused on
 * purpose, each with its reason. docs/gotmpl.md lists them. */
#include "gotmpl_int.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define S(v) (v).u.s.p, (v).u.s.n

static int ret_buf(sd_gval *out, sd_gcall *c, sd_buf *b) { return sd_gotmpl__buf_val(out, c, b); }

static void big_buf(sd_buf *b)
{
    sd_buf_init(b, (size_t)64 << 20);
}

void sd_gotmpl__strval(sd_buf *b, sd_gval v)
{
    if (v.kind == SD_G_MISSING)
        v = sd_gnil();
    sd_gval_print(b, v);
}

static sd_gval strval_v(sd_gcall *c, sd_gval v)
{
    sd_buf b = SD_BUF_INIT;
    if (v.kind == SD_G_STR)
        return v;
    sd_gotmpl__strval(&b, v);
    sd_gval r = sd_gstr(c->heap, b.ptr, b.len);
    sd_buf_release(&b);
    return r;
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
static long long to_int64(sd_gval v)
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

static double to_float64(sd_gval v)
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

static const char *kind_of_name(sd_gval v)
{
    switch (v.kind) {
    case SD_G_STR: return "string";
    case SD_G_MAP: return v.u.m->type_name ? "struct" : "map";
    case SD_G_INT: return "int";
    case SD_G_FLOAT: return "float64";
    case SD_G_BOOL: return "bool";
    default: return "invalid";
    }
}

static sd_gval int64v(long long i)
{
    sd_gval v = sd_gint(i);
    v.sub = SD_GINT_INT64;
    return v;
}

/* --- strings --------------------------------------------------------------------------- */

static int f_upper(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    sd_buf b;
    (void)n;
    big_buf(&b);
    for (size_t i = 0; i < a[0].u.s.n; i++)
        sd_buf_putc(&b, (char)toupper((unsigned char)a[0].u.s.p[i]));
    return ret_buf(o, c, &b);
}

static int f_lower(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    sd_buf b;
    (void)n;
    big_buf(&b);
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
    big_buf(&b);
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
    big_buf(&b);
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
    big_buf(&b);
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
    big_buf(&b);
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
    big_buf(&b);
    for (long long k = 0; k < a[0].u.i; k++)
        sd_buf_put(&b, S(a[1]));
    return ret_buf(o, c, &b);
}

/* quote / squote: each non-nil argument, as %q (or in single quotes), joined by spaces */
static int do_quote(sd_gval *o, sd_gcall *c, const sd_gval *a, int n, int single)
{
    sd_buf b, one;
    int first = 1;
    big_buf(&b);
    for (int i = 0; i < n; i++) {
        if (a[i].kind == SD_G_NIL || a[i].kind == SD_G_MISSING)
            continue;
        if (!first)
            sd_buf_putc(&b, ' ');
        first = 0;
        sd_buf_init(&one, 0);
        sd_gotmpl__strval(&one, a[i]);
        if (single) {
            sd_buf_putc(&b, '\'');
            sd_buf_put(&b, one.ptr, one.len);
            sd_buf_putc(&b, '\'');
        } else {
            sd_gval s = sd_gstr_static(one.ptr, one.len);
            sd_gotmpl__sprintf(&b, "%q", 2, &s, 1);
        }
        sd_buf_release(&one);
    }
    return ret_buf(o, c, &b);
}

static int f_quote(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { return do_quote(o, c, a, n, 0); }
static int f_squote(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { return do_quote(o, c, a, n, 1); }

/* cat: non-nil arguments printed with %v, separated by spaces */
static int f_cat(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    sd_buf b;
    int first = 1;
    big_buf(&b);
    for (int i = 0; i < n; i++) {
        if (a[i].kind == SD_G_NIL || a[i].kind == SD_G_MISSING)
            continue;
        if (!first)
            sd_buf_putc(&b, ' ');
        first = 0;
        sd_gval_print(&b, a[i]);
    }
    return ret_buf(o, c, &b);
}

static int f_nospace(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    sd_buf b;
    (void)n;
    big_buf(&b);
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
    big_buf(&b);
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

/* strslice: a list's non-nil elements as strings, else [strval(v)] */
static sd_gval strslice(sd_gcall *c, sd_gval v)
{
    sd_gval l = sd_glist_new(c->heap, v.kind == SD_G_LIST ? v.u.l->n : 1);
    if (l.kind != SD_G_LIST)
        return l;
    if (v.kind == SD_G_LIST) {
        for (size_t i = 0; i < v.u.l->n; i++)
            if (v.u.l->items[i].kind != SD_G_NIL && v.u.l->items[i].kind != SD_G_MISSING)
                sd_glist_push(c->heap, l, strval_v(c, v.u.l->items[i]));
    } else if (v.kind != SD_G_NIL && v.kind != SD_G_MISSING) {
        sd_glist_push(c->heap, l, strval_v(c, v));
    }
    return l;
}

static int f_tostring(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; *o = strval_v(c, a[0]); return 0; }
static int f_tostrings(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; *o = strslice(c, a[0]); return 0; }

static int f_join(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    sd_buf b;
    sd_gval l = strslice(c, a[1]);
    (void)n;
    if (l.kind != SD_G_LIST)
        return sd_gcall_fail(c, "out of memory");
    big_buf(&b);
    for (size_t i = 0; i < l.u.l->n; i++) {
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
    (void)n;
    sd_gval l = strslice(c, a[0]);
    if (l.kind != SD_G_LIST)
        return sd_gcall_fail(c, "out of memory");
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

/* --- lists ----------------------------------------------------------------------------- */

static int need_list(sd_gcall *c, sd_gval v, const char *what)
{
    if (v.kind == SD_G_LIST)
        return 0;
    return sd_gcall_fail(c, "Cannot %s on type %s", what,
                         v.kind == SD_G_NIL || v.kind == SD_G_MISSING ? "<nil>" : sd_gval_type_name(v));
}

static sd_gval sub_list(sd_gcall *c, sd_gval l, size_t from, size_t to)
{
    sd_gval r = sd_glist_new(c->heap, to > from ? to - from : 1);
    for (size_t i = from; r.kind == SD_G_LIST && i < to; i++)
        sd_glist_push(c->heap, r, l.u.l->items[i]);
    return r;
}

static int f_list(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    sd_gval l = sd_glist_new(c->heap, (size_t)n);
    for (int i = 0; l.kind == SD_G_LIST && i < n; i++)
        sd_glist_push(c->heap, l, a[i]);
    *o = l;
    return 0;
}

static int f_first(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    (void)n;
    if (need_list(c, a[0], "find first"))
        return c->err;
    *o = a[0].u.l->n ? a[0].u.l->items[0] : sd_gnil();
    return 0;
}

static int f_last(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    (void)n;
    if (need_list(c, a[0], "find last"))
        return c->err;
    *o = a[0].u.l->n ? a[0].u.l->items[a[0].u.l->n - 1] : sd_gnil();
    return 0;
}

static int f_rest(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    (void)n;
    if (need_list(c, a[0], "find rest"))
        return c->err;
    *o = a[0].u.l->n ? sub_list(c, a[0], 1, a[0].u.l->n) : sd_gnil();
    return 0;
}

static int f_initial(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    (void)n;
    if (need_list(c, a[0], "find initial"))
        return c->err;
    *o = a[0].u.l->n ? sub_list(c, a[0], 0, a[0].u.l->n - 1) : sd_gnil();
    return 0;
}

static int f_reverse(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    (void)n;
    if (need_list(c, a[0], "find reverse"))
        return c->err;
    sd_gval r = sd_glist_new(c->heap, a[0].u.l->n);
    for (size_t i = a[0].u.l->n; r.kind == SD_G_LIST && i-- > 0; )
        sd_glist_push(c->heap, r, a[0].u.l->items[i]);
    *o = r;
    return 0;
}

static int f_append(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    (void)n;
    if (a[0].kind != SD_G_LIST && a[0].kind != SD_G_NIL)
        return need_list(c, a[0], "push");
    size_t len = a[0].kind == SD_G_LIST ? a[0].u.l->n : 0;
    sd_gval r = a[0].kind == SD_G_LIST ? sub_list(c, a[0], 0, len) : sd_glist_new(c->heap, 1);
    if (r.kind == SD_G_LIST)
        sd_glist_push(c->heap, r, a[1]);
    *o = r;
    return 0;
}

static int f_prepend(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    (void)n;
    if (a[0].kind != SD_G_LIST && a[0].kind != SD_G_NIL)
        return need_list(c, a[0], "prepend");
    size_t len = a[0].kind == SD_G_LIST ? a[0].u.l->n : 0;
    sd_gval r = sd_glist_new(c->heap, len + 1);
    if (r.kind == SD_G_LIST) {
        sd_glist_push(c->heap, r, a[1]);
        for (size_t i = 0; i < len; i++)
            sd_glist_push(c->heap, r, a[0].u.l->items[i]);
    }
    *o = r;
    return 0;
}

static int f_concat(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    sd_gval r = sd_glist_new(c->heap, 8);
    for (int k = 0; k < n && r.kind == SD_G_LIST; k++) {
        if (a[k].kind != SD_G_LIST)
            return need_list(c, a[k], "concat");
        for (size_t i = 0; i < a[k].u.l->n; i++)
            sd_glist_push(c->heap, r, a[k].u.l->items[i]);
    }
    *o = r;
    return 0;
}

static int deep_equal(sd_gval a, sd_gval b, int depth);

static int f_has(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    (void)n; (void)c;
    *o = sd_gbool(0);
    if (a[1].kind != SD_G_LIST)
        return a[1].kind == SD_G_NIL ? 0 : need_list(c, a[1], "find has");
    for (size_t i = 0; i < a[1].u.l->n; i++)
        if (deep_equal(a[0], a[1].u.l->items[i], 0)) { *o = sd_gbool(1); break; }
    return 0;
}

static int f_uniq(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    (void)n;
    if (need_list(c, a[0], "find uniq"))
        return c->err;
    sd_gval r = sd_glist_new(c->heap, a[0].u.l->n);
    for (size_t i = 0; r.kind == SD_G_LIST && i < a[0].u.l->n; i++) {
        size_t j;
        for (j = 0; j < r.u.l->n; j++)
            if (deep_equal(r.u.l->items[j], a[0].u.l->items[i], 0))
                break;
        if (j == r.u.l->n)
            sd_glist_push(c->heap, r, a[0].u.l->items[i]);
        if ((i & 1023) == 0 && sd_gotmpl__step(c))
            return c->err;
    }
    *o = r;
    return 0;
}

static int f_without(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    if (need_list(c, a[0], "find without"))
        return c->err;
    sd_gval r = sd_glist_new(c->heap, a[0].u.l->n);
    for (size_t i = 0; r.kind == SD_G_LIST && i < a[0].u.l->n; i++) {
        int k;
        for (k = 1; k < n; k++)
            if (deep_equal(a[k], a[0].u.l->items[i], 0))
                break;
        if (k == n)
            sd_glist_push(c->heap, r, a[0].u.l->items[i]);
    }
    *o = r;
    return 0;
}

static int f_compact(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    (void)n;
    if (need_list(c, a[0], "compact"))
        return c->err;
    sd_gval r = sd_glist_new(c->heap, a[0].u.l->n);
    for (size_t i = 0; r.kind == SD_G_LIST && i < a[0].u.l->n; i++)
        if (!sd_gotmpl__empty_val(a[0].u.l->items[i]))
            sd_glist_push(c->heap, r, a[0].u.l->items[i]);
    *o = r;
    return 0;
}

/* Sprig's slice (it replaces Go's builtin): lists only, indexes converted */
static int f_sslice(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    if (a[0].kind != SD_G_LIST)
        return sd_gcall_fail(c, "list should be type of slice or array but %s", kind_of_name(a[0]));
    long long len = (long long)a[0].u.l->n, st = n > 1 ? to_int64(a[1]) : 0, en = n > 2 ? to_int64(a[2]) : len;
    if (len == 0) {
        *o = sd_gnil();
        return 0;
    }
    if (st < 0 || en > len || st > en)
        return sd_gcall_fail(c, "runtime error: slice bounds out of range [%lld:%lld] with capacity %lld", st, en, len);
    *o = sub_list(c, a[0], (size_t)st, (size_t)en);
    return 0;
}

static int make_range(sd_gval *o, sd_gcall *c, long long start, long long stop, long long step)
{
    sd_gval r = sd_glist_new(c->heap, 0);
    if (step == 0 || (step > 0 && start >= stop) || (step < 0 && start <= stop)) {
        *o = r;
        return 0;
    }
    unsigned long long span = step > 0 ? (unsigned long long)(stop - start) : (unsigned long long)(start - stop);
    unsigned long long st = step > 0 ? (unsigned long long)step : 0ULL - (unsigned long long)step;
    unsigned long long count = (span + st - 1) / st;
    if (count > 10000000ULL)
        return sd_gcall_fail(c, "a list of %llu numbers is more than the limit of 10000000", count);
    for (long long i = start; r.kind == SD_G_LIST && (step > 0 ? i < stop : i > stop); i += step)
        if (sd_glist_push(c->heap, r, sd_gint(i)) < 0)
            break;
    *o = r;
    return 0;
}

static int f_until(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; return make_range(o, c, 0, a[0].u.i, a[0].u.i < 0 ? -1 : 1); }
static int f_untilstep(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; return make_range(o, c, a[0].u.i, a[1].u.i, a[2].u.i); }

/* --- dicts ----------------------------------------------------------------------------- */

static int f_dict(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    sd_gval m = sd_gmap_new(c->heap);
    for (int i = 0; m.kind == SD_G_MAP && i < n; i += 2) {
        sd_gval k = strval_v(c, a[i]);
        if (k.kind != SD_G_STR)
            break;
        sd_gmap_set(c->heap, m, S(k), i + 1 < n ? a[i + 1] : sd_gstr_static("", 0));
    }
    *o = m;
    return 0;
}

static int f_get(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    (void)c; (void)n;
    *o = a[0].kind == SD_G_MAP ? sd_gmap_get(a[0], S(a[1])) : sd_gmissing();
    if (o->kind == SD_G_MISSING)
        *o = sd_gstr_static("", 0);
    return 0;
}

static int f_set(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    (void)n;
    if (a[0].kind != SD_G_MAP)
        return sd_gcall_fail(c, "assignment to entry in nil map");
    sd_gmap_set(c->heap, a[0], S(a[1]), a[2]);
    *o = a[0];
    return 0;
}

static int f_unset(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    (void)c; (void)n;
    if (a[0].kind == SD_G_MAP)
        sd_gmap_del(a[0], S(a[1]));
    *o = a[0];
    return 0;
}

static int f_haskey(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    (void)c; (void)n;
    *o = sd_gbool(a[0].kind == SD_G_MAP && sd_gmap_get(a[0], S(a[1])).kind != SD_G_MISSING);
    return 0;
}

/* keys: Go's map order is random; schemadoc gives the keys sorted. */
static int f_keys(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    sd_gval r = sd_glist_new(c->heap, 8);
    for (int k = 0; k < n && r.kind == SD_G_LIST; k++) {
        if (a[k].kind != SD_G_MAP)
            continue;
        size_t *ix = sd_gotmpl__sorted_keys(c->heap, a[k]);
        for (size_t i = 0; ix && i < sd_gmap_len(a[k]); i++) {
            size_t kl;
            const char *key = sd_gmap_key(a[k], ix[i], &kl);
            sd_glist_push(c->heap, r, sd_gstr_static(key, kl));
        }
    }
    *o = r;
    return 0;
}

static int f_values(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    (void)n;
    sd_gval r = sd_glist_new(c->heap, sd_gmap_len(a[0]));
    size_t *ix = a[0].kind == SD_G_MAP ? sd_gotmpl__sorted_keys(c->heap, a[0]) : NULL;
    for (size_t i = 0; ix && r.kind == SD_G_LIST && i < sd_gmap_len(a[0]); i++)
        sd_glist_push(c->heap, r, sd_gmap_val(a[0], ix[i]));
    *o = r;
    return 0;
}

static int f_pluck(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    sd_gval r = sd_glist_new(c->heap, (size_t)n);
    for (int k = 1; k < n && r.kind == SD_G_LIST; k++) {
        sd_gval v = a[k].kind == SD_G_MAP ? sd_gmap_get(a[k], S(a[0])) : sd_gmissing();
        if (v.kind != SD_G_MISSING)
            sd_glist_push(c->heap, r, v);
    }
    *o = r;
    return 0;
}

static int pick_omit(sd_gval *o, sd_gcall *c, const sd_gval *a, int n, int pick)
{
    sd_gval r = sd_gmap_new(c->heap);
    for (size_t i = 0; r.kind == SD_G_MAP && a[0].kind == SD_G_MAP && i < sd_gmap_len(a[0]); i++) {
        size_t kl;
        const char *k = sd_gmap_key(a[0], i, &kl);
        int listed = 0;
        for (int j = 1; j < n; j++)
            if (a[j].u.s.n == kl && memcmp(a[j].u.s.p, k, kl) == 0)
                listed = 1;
        if (listed == pick)
            sd_gmap_set(c->heap, r, k, kl, sd_gmap_val(a[0], i));
    }
    *o = r;
    return 0;
}

static int f_pick(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { return pick_omit(o, c, a, n, 1); }
static int f_omit(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { return pick_omit(o, c, a, n, 0); }

/* dig KEY... DEFAULT DICT */
static int f_dig(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    if (n < 3)
        return sd_gcall_fail(c, "dig needs at least three arguments");
    sd_gval cur = a[n - 1];
    for (int i = 0; i < n - 2; i++) {
        if (a[i].kind != SD_G_STR)
            return sd_gcall_fail(c, "interface conversion: interface {} is %s, not string", sd_gval_type_name(a[i]));
        if (cur.kind != SD_G_MAP) {
            *o = a[n - 2];
            return 0;
        }
        cur = sd_gmap_get(cur, S(a[i]));
        if (cur.kind == SD_G_MISSING) {
            *o = a[n - 2];
            return 0;
        }
    }
    *o = cur;
    return 0;
}

/* --- math ------------------------------------------------------------------------------ */

static int f_add(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    long long s = 0;
    (void)c;
    for (int i = 0; i < n; i++)
        s += to_int64(a[i]);
    *o = int64v(s);
    return 0;
}

static int f_add1(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)c; (void)n; *o = int64v(to_int64(a[0]) + 1); return 0; }
static int f_sub(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)c; (void)n; *o = int64v(to_int64(a[0]) - to_int64(a[1])); return 0; }

static int f_mul(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    long long p = to_int64(a[0]);
    (void)c;
    for (int i = 1; i < n; i++)
        p *= to_int64(a[i]);
    *o = int64v(p);
    return 0;
}

static int f_div(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    long long d = to_int64(a[1]);
    (void)n;
    if (d == 0)
        return sd_gcall_fail(c, "runtime error: integer divide by zero");
    *o = int64v(to_int64(a[0]) / d);
    return 0;
}

static int f_mod(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    long long d = to_int64(a[1]);
    (void)n;
    if (d == 0)
        return sd_gcall_fail(c, "runtime error: integer divide by zero");
    *o = int64v(to_int64(a[0]) % d);
    return 0;
}

static int f_max(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    long long m = to_int64(a[0]);
    (void)c;
    for (int i = 1; i < n; i++)
        if (to_int64(a[i]) > m)
            m = to_int64(a[i]);
    *o = int64v(m);
    return 0;
}

static int f_min(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    long long m = to_int64(a[0]);
    (void)c;
    for (int i = 1; i < n; i++)
        if (to_int64(a[i]) < m)
            m = to_int64(a[i]);
    *o = int64v(m);
    return 0;
}

static int f_floor(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)c; (void)n; *o = sd_gfloat(floor(to_float64(a[0]))); return 0; }
static int f_ceil(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)c; (void)n; *o = sd_gfloat(ceil(to_float64(a[0]))); return 0; }
static int f_int(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)c; (void)n; *o = sd_gint(to_int64(a[0])); return 0; }
static int f_int64(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)c; (void)n; *o = int64v(to_int64(a[0])); return 0; }
static int f_float64(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)c; (void)n; *o = sd_gfloat(to_float64(a[0])); return 0; }

static int f_atoi(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    char buf[64], *e;
    size_t k = a[0].u.s.n < sizeof buf - 1 ? a[0].u.s.n : sizeof buf - 1;
    (void)c; (void)n;
    memcpy(buf, a[0].u.s.p, k);
    buf[k] = '\0';
    errno = 0;
    long long x = strtoll(buf, &e, 10);
    *o = sd_gint(*buf && !*e && !errno && !isspace((unsigned char)buf[0]) ? x : 0);
    return 0;
}

/* --- types ----------------------------------------------------------------------------- */

static const char *kind_of(sd_gval v)
{
    switch (v.kind) {
    case SD_G_MISSING: case SD_G_NIL: return "invalid";
    case SD_G_BOOL: return "bool";
    case SD_G_INT: return v.sub == SD_GINT_INT64 ? "int64" : v.sub == SD_GINT_RUNE ? "int32" : "int";
    case SD_G_FLOAT: return "float64";
    case SD_G_STR: return "string";
    case SD_G_LIST: return "slice";
    case SD_G_MAP: return v.u.m->type_name ? "struct" : "map";
    default: return "ptr";
    }
}

static int f_kindof(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)c; (void)n; *o = sd_gstrz(c->heap, kind_of(a[0])); return 0; }

static int f_typeof(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    (void)n;
    *o = sd_gstrz(c->heap, a[0].kind == SD_G_NIL || a[0].kind == SD_G_MISSING ? "<nil>" : sd_gval_type_name(a[0]));
    return 0;
}

static int f_kindis(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    const char *k = kind_of(a[1]);
    (void)c; (void)n;
    *o = sd_gbool(strlen(k) == a[0].u.s.n && memcmp(k, S(a[0])) == 0);
    return 0;
}

static int f_typeis(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    const char *k = a[1].kind == SD_G_NIL || a[1].kind == SD_G_MISSING ? "<nil>" : sd_gval_type_name(a[1]);
    (void)c; (void)n;
    *o = sd_gbool(strlen(k) == a[0].u.s.n && memcmp(k, S(a[0])) == 0);
    return 0;
}

static int deep_equal(sd_gval a, sd_gval b, int depth)
{
    if (a.kind == SD_G_MISSING) a = sd_gnil();
    if (b.kind == SD_G_MISSING) b = sd_gnil();
    if (a.kind != b.kind || depth > 100)
        return 0;
    switch (a.kind) {
    case SD_G_NIL: return 1;
    case SD_G_BOOL: return a.u.b == b.u.b;
    case SD_G_INT: return a.u.i == b.u.i && a.sub == b.sub;
    case SD_G_FLOAT: return a.u.f == b.u.f;
    case SD_G_STR: return a.u.s.n == b.u.s.n && memcmp(a.u.s.p, b.u.s.p, a.u.s.n) == 0;
    case SD_G_LIST:
        if (a.u.l->n != b.u.l->n)
            return 0;
        for (size_t i = 0; i < a.u.l->n; i++)
            if (!deep_equal(a.u.l->items[i], b.u.l->items[i], depth + 1))
                return 0;
        return 1;
    case SD_G_MAP:
        if (a.u.m->n != b.u.m->n || (a.u.m->type_name != b.u.m->type_name))
            return 0;
        for (size_t i = 0; i < a.u.m->n; i++) {
            sd_gval x = sd_gmap_get(b, a.u.m->keys[i], a.u.m->klen[i]);
            if (x.kind == SD_G_MISSING || !deep_equal(a.u.m->vals[i], x, depth + 1))
                return 0;
        }
        return 1;
    case SD_G_OBJ: return a.u.o->self == b.u.o->self;
    }
    return 0;
}

static int f_deepequal(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)c; (void)n; *o = sd_gbool(deep_equal(a[0], a[1], 0)); return 0; }

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
    /* lists */
    { "append", "AA", f_append, NULL },
    { "compact", "A", f_compact, NULL },
    { "concat", "A*", f_concat, NULL },
    { "first", "A", f_first, NULL },
    { "has", "AA", f_has, NULL },
    { "initial", "A", f_initial, NULL },
    { "last", "A", f_last, NULL },
    { "list", "A*", f_list, NULL },
    { "prepend", "AA", f_prepend, NULL },
    { "push", "AA", f_append, NULL },
    { "rest", "A", f_rest, NULL },
    { "slice", "AA*", f_sslice, NULL },
    { "reverse", "A", f_reverse, NULL },
    { "uniq", "A", f_uniq, NULL },
    { "until", "I", f_until, NULL },
    { "untilStep", "III", f_untilstep, NULL },
    { "without", "AA*", f_without, NULL },
    /* dicts */
    { "dict", "A*", f_dict, NULL },
    { "dig", "A*", f_dig, NULL },
    { "get", "MS", f_get, NULL },
    { "hasKey", "MS", f_haskey, NULL },
    { "keys", "M*", f_keys, NULL },
    { "omit", "MS*", f_omit, NULL },
    { "pick", "MS*", f_pick, NULL },
    { "pluck", "SM*", f_pluck, NULL },
    { "set", "MSA", f_set, NULL },
    { "unset", "MS", f_unset, NULL },
    { "values", "M", f_values, NULL },
    /* math and conversions */
    { "add", "A*", f_add, NULL },
    { "add1", "A", f_add1, NULL },
    { "atoi", "S", f_atoi, NULL },
    { "ceil", "A", f_ceil, NULL },
    { "div", "AA", f_div, NULL },
    { "float64", "A", f_float64, NULL },
    { "floor", "A", f_floor, NULL },
    { "int", "A", f_int, NULL },
    { "int64", "A", f_int64, NULL },
    { "max", "AA*", f_max, NULL },
    { "min", "AA*", f_min, NULL },
    { "mod", "AA", f_mod, NULL },
    { "mul", "AA*", f_mul, NULL },
    { "sub", "AA", f_sub, NULL },
    /* types */
    { "deepEqual", "AA", f_deepequal, NULL },
    { "kindIs", "SA", f_kindis, NULL },
    { "kindOf", "A", f_kindof, NULL },
    { "typeIs", "SA", f_typeis, NULL },
    { "typeOf", "A", f_typeof, NULL },
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
