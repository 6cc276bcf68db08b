/* SPDX-License-Identifier: Apache-2.0 */
/* gotmpl_lists.c - the Sprig functions on lists (list, first, rest, append,
 * uniq, until, slice, ...), dicts (dict, get, set, keys, pluck, dig, ...),
 * numbers (add, div, max, int, float64, ...) and types (typeOf, kindIs,
 * deepEqual), with Sprig's conversions: numbers through cast.ToInt64,
 * lists as []interface{}. */
#include "gotmpl_int.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define S(v) (v).u.s.p, (v).u.s.n

/* Go's int64 arithmetic wraps: the sum, difference or product of the
 * two's-complement bits, computed unsigned (defined in C) and read back. */
static long long wrap(unsigned long long u)
{
    return u <= (unsigned long long)LLONG_MAX ? (long long)u : -(long long)(~u) - 1;
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

/* --- lists ----------------------------------------------------------------------------- */

static int need_list(sd_gcall *c, sd_gval v, const char *what)
{
    if (v.kind == SD_G_LIST)
        return 0;
    return sd_gcall_fail(c, "Cannot %s on type %s", what,
                         v.kind == SD_G_NIL || v.kind == SD_G_MISSING ? "<nil>" : sd_gval_type_name(v));
}

/* A new list of l[from:to]; the elements copied count as steps (a missing
 * value after the step error). */
static sd_gval sub_list(sd_gcall *c, sd_gval l, size_t from, size_t to)
{
    if (sd_gotmpl__steps(c, to > from ? to - from : 0) != 0)
        return sd_gmissing();
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
    if (need_list(c, a[0], "find reverse") || sd_gotmpl__steps(c, a[0].u.l->n))
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
    if (sd_gotmpl__steps(c, len))
        return c->err;
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
        if (sd_gotmpl__steps(c, a[k].u.l->n))
            return c->err;
        for (size_t i = 0; i < a[k].u.l->n; i++)
            sd_glist_push(c->heap, r, a[k].u.l->items[i]);
    }
    *o = r;
    return 0;
}

static int deep_equal(sd_gval a, sd_gval b, int depth, gwalk *w);

static int f_has(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    gwalk w = sd_gotmpl__walk(c);
    (void)n;
    *o = sd_gbool(0);
    if (a[1].kind != SD_G_LIST)
        return a[1].kind == SD_G_NIL ? 0 : need_list(c, a[1], "find has");
    for (size_t i = 0; i < a[1].u.l->n && !w.over; i++)
        if (deep_equal(a[0], a[1].u.l->items[i], 0, &w)) { *o = sd_gbool(1); break; }
    return sd_gotmpl__walked(c, &w);
}

static int f_uniq(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    gwalk w = sd_gotmpl__walk(c);
    (void)n;
    if (need_list(c, a[0], "find uniq"))
        return c->err;
    sd_gval r = sd_glist_new(c->heap, a[0].u.l->n);
    for (size_t i = 0; r.kind == SD_G_LIST && i < a[0].u.l->n && !w.over; i++) {
        size_t j;
        for (j = 0; j < r.u.l->n && !w.over; j++)
            if (deep_equal(r.u.l->items[j], a[0].u.l->items[i], 0, &w))
                break;
        if (j == r.u.l->n)
            sd_glist_push(c->heap, r, a[0].u.l->items[i]);
    }
    *o = r;
    return sd_gotmpl__walked(c, &w);
}

static int f_without(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    gwalk w = sd_gotmpl__walk(c);
    if (need_list(c, a[0], "find without"))
        return c->err;
    sd_gval r = sd_glist_new(c->heap, a[0].u.l->n);
    for (size_t i = 0; r.kind == SD_G_LIST && i < a[0].u.l->n && !w.over; i++) {
        int k;
        for (k = 1; k < n; k++)
            if (deep_equal(a[k], a[0].u.l->items[i], 0, &w))
                break;
        if (k == n)
            sd_glist_push(c->heap, r, a[0].u.l->items[i]);
    }
    *o = r;
    return sd_gotmpl__walked(c, &w);
}

static int f_compact(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    (void)n;
    if (need_list(c, a[0], "compact") || sd_gotmpl__steps(c, a[0].u.l->n))
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
    long long len = (long long)a[0].u.l->n, st = n > 1 ? sd_gotmpl__to_int64(a[1]) : 0, en = n > 2 ? sd_gotmpl__to_int64(a[2]) : len;
    if (len == 0) {
        *o = sd_gnil();
        return 0;
    }
    if (st < 0 || en > len || st > en)
        return sd_gcall_fail(c, "runtime error: slice bounds out of range [%lld:%lld] with capacity %lld", st, en, len);
    *o = sub_list(c, a[0], (size_t)st, (size_t)en);
    return 0;
}

#define MAX_RANGE 10000000ULL

/* Sprig's untilStep, with Go's wrapping int: `for i := start; i < stop;
 * i += step` (i > stop for a negative step, when stop < start). A step
 * that wraps past the largest int goes on from the smallest, as in Go;
 * the elements are counted first, so a list past the limit is refused
 * before it is built. */
static int make_range(sd_gval *o, sd_gcall *c, long long start, long long stop, long long step)
{
    sd_gval r = sd_glist_new(c->heap, 0);
    int down = stop < start;
    unsigned long long count = 0;
    long long i;

    *o = r;
    if (down ? step >= 0 : step <= 0)
        return 0;
    /* |stop - start| and |step| as unsigned: exact whatever the signs */
    unsigned long long span = down ? (unsigned long long)start - (unsigned long long)stop
                                   : (unsigned long long)stop - (unsigned long long)start;
    unsigned long long st = down ? 0ULL - (unsigned long long)step : (unsigned long long)step;
    long long after = wrap((unsigned long long)stop + (unsigned long long)step);
    if (down ? after < stop : after > stop) {
        count = span / st + (span % st != 0);   /* no step can wrap past stop */
    } else {
        for (i = start; (down ? i > stop : i < stop) && count <= MAX_RANGE; count++)
            i = wrap((unsigned long long)i + (unsigned long long)step);
    }
    if (count > MAX_RANGE)
        return sd_gcall_fail(c, "a list of %llu numbers is more than the limit of %llu", count, MAX_RANGE);
    if (sd_gotmpl__steps(c, count))
        return c->err;
    i = start;
    for (unsigned long long k = 0; k < count && r.kind == SD_G_LIST; k++) {
        if (sd_glist_push(c->heap, r, sd_gint(i)) < 0)
            break;
        i = wrap((unsigned long long)i + (unsigned long long)step);
    }
    return 0;
}

static int f_until(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; return make_range(o, c, 0, a[0].u.i, a[0].u.i < 0 ? -1 : 1); }
static int f_untilstep(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; return make_range(o, c, a[0].u.i, a[1].u.i, a[2].u.i); }

/* --- dicts ----------------------------------------------------------------------------- */

static int f_dict(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    sd_gval m = sd_gmap_new(c->heap);
    for (int i = 0; m.kind == SD_G_MAP && i < n; i += 2) {
        sd_gval k;
        gwalk w = sd_gotmpl__walk(c);
        if (sd_gotmpl__strval_v(&k, c, a[i], &w) != 0)
            return c->err;
        if (sd_gotmpl__walked(c, &w) != 0)
            return c->err;
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
        if (sd_gotmpl__steps(c, sd_gmap_len(a[k])))
            return c->err;
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
    if (sd_gotmpl__steps(c, sd_gmap_len(a[0])))
        return c->err;
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
    if (sd_gotmpl__steps(c, (unsigned long long)sd_gmap_len(a[0]) * (unsigned long long)n))
        return c->err;
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

/* Sprig's math on int64, as Go computes it: sums, differences and
 * products wrap; a division by zero panics (an error here: "integer
 * divide by zero"); the smallest int64 divided by -1 is itself, and the
 * remainder 0 (the Go spec, "Integer operators"), where C would trap. */
static int f_add(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    unsigned long long s = 0;
    (void)c;
    for (int i = 0; i < n; i++)
        s += (unsigned long long)sd_gotmpl__to_int64(a[i]);
    *o = int64v(wrap(s));
    return 0;
}

static int f_add1(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    (void)c; (void)n;
    *o = int64v(wrap((unsigned long long)sd_gotmpl__to_int64(a[0]) + 1));
    return 0;
}

static int f_sub(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    (void)c; (void)n;
    *o = int64v(wrap((unsigned long long)sd_gotmpl__to_int64(a[0]) - (unsigned long long)sd_gotmpl__to_int64(a[1])));
    return 0;
}

static int f_mul(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    unsigned long long p = (unsigned long long)sd_gotmpl__to_int64(a[0]);
    (void)c;
    for (int i = 1; i < n; i++)
        p *= (unsigned long long)sd_gotmpl__to_int64(a[i]);
    *o = int64v(wrap(p));
    return 0;
}

static int f_div(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    long long x = sd_gotmpl__to_int64(a[0]), d = sd_gotmpl__to_int64(a[1]);
    (void)n;
    if (d == 0)
        return sd_gcall_fail(c, "runtime error: integer divide by zero");
    *o = int64v(d == -1 ? wrap(0ULL - (unsigned long long)x) : x / d);
    return 0;
}

static int f_mod(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    long long x = sd_gotmpl__to_int64(a[0]), d = sd_gotmpl__to_int64(a[1]);
    (void)n;
    if (d == 0)
        return sd_gcall_fail(c, "runtime error: integer divide by zero");
    *o = int64v(d == -1 ? 0 : x % d);
    return 0;
}

static int f_max(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    long long m = sd_gotmpl__to_int64(a[0]);
    (void)c;
    for (int i = 1; i < n; i++)
        if (sd_gotmpl__to_int64(a[i]) > m)
            m = sd_gotmpl__to_int64(a[i]);
    *o = int64v(m);
    return 0;
}

static int f_min(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    long long m = sd_gotmpl__to_int64(a[0]);
    (void)c;
    for (int i = 1; i < n; i++)
        if (sd_gotmpl__to_int64(a[i]) < m)
            m = sd_gotmpl__to_int64(a[i]);
    *o = int64v(m);
    return 0;
}

static int f_floor(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)c; (void)n; *o = sd_gfloat(floor(sd_gotmpl__to_float64(a[0]))); return 0; }
static int f_ceil(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)c; (void)n; *o = sd_gfloat(ceil(sd_gotmpl__to_float64(a[0]))); return 0; }
static int f_int(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)c; (void)n; *o = sd_gint(sd_gotmpl__to_int64(a[0])); return 0; }
static int f_int64(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)c; (void)n; *o = int64v(sd_gotmpl__to_int64(a[0])); return 0; }
static int f_float64(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)c; (void)n; *o = sd_gfloat(sd_gotmpl__to_float64(a[0])); return 0; }

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

/* reflect.DeepEqual; each pair of nodes compared is one step of `w` (0
 * once it ran out: the caller reports). */
static int deep_equal(sd_gval a, sd_gval b, int depth, gwalk *w)
{
    if (a.kind == SD_G_MISSING) a = sd_gnil();
    if (b.kind == SD_G_MISSING) b = sd_gnil();
    if (a.kind != b.kind || depth > 100 || sd_gotmpl__visit(w) < 0)
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
            if (!deep_equal(a.u.l->items[i], b.u.l->items[i], depth + 1, w))
                return 0;
        return 1;
    case SD_G_MAP:
        if (a.u.m->n != b.u.m->n || (a.u.m->type_name != b.u.m->type_name))
            return 0;
        for (size_t i = 0; i < a.u.m->n; i++) {
            sd_gval x = sd_gmap_get(b, a.u.m->keys[i], a.u.m->klen[i]);
            if (x.kind == SD_G_MISSING || !deep_equal(a.u.m->vals[i], x, depth + 1, w))
                return 0;
        }
        return 1;
    case SD_G_OBJ: return a.u.o->self == b.u.o->self;
    }
    return 0;
}

static int f_deepequal(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    gwalk w = sd_gotmpl__walk(c);
    (void)n;
    *o = sd_gbool(deep_equal(a[0], a[1], 0, &w));
    return sd_gotmpl__walked(c, &w);
}

const gfunc sd_gotmpl__lists_funcs[] = {
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
    { NULL, NULL, NULL, NULL }
};
