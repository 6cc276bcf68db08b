/* SPDX-License-Identifier: Apache-2.0 */
/* gotmpl_funcs.c - Go's builtin template functions (text/template/funcs.go):
 * and, or, not, len, index, slice, print, printf, println, html, js,
 * urlquery, eq, ne, lt, le, gt, ge (printf's fmt verbs are gotmpl_fmt.c's),
 * and the names refused on purpose. The lookup of every function by name is
 * gotmpl_funcmap.c. */
#include "gotmpl_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- helpers ---------------------------------------------------------------------- */

int sd_gotmpl__buf_val(sd_gval *out, sd_gcall *c, sd_buf *b)
{
    if (sd_buf_failed(b)) {
        int e = sd_buf_error(b);
        sd_buf_release(b);
        return sd_gcall_fail(c, e == SD_ELIMIT ? "result too large" : "out of memory");
    }
    *out = sd_gstr(c->heap, b->ptr, b->len);
    sd_buf_release(b);
    return c->heap->failed ? sd_gcall_fail(c, "result too large") : 0;
}

int sd_gotmpl__buf_walked(sd_gval *out, sd_gcall *c, sd_buf *b, const gwalk *w)
{
    if (sd_gotmpl__walked(c, w) != 0) {
        sd_buf_release(b);
        return c->err;
    }
    return sd_gotmpl__buf_val(out, c, b);
}

/* fmt.Sprint: a space between operands when neither is a string. */
static void sprint(sd_buf *b, const sd_gval *argv, int argc, int ln, gwalk *w)
{
    for (int i = 0; i < argc && !w->over; i++) {
        if (i && (ln || (argv[i].kind != SD_G_STR && argv[i - 1].kind != SD_G_STR)))
            sd_buf_putc(b, ' ');
        sd_gval v = argv[i].kind == SD_G_MISSING ? sd_gnil() : argv[i];
        sd_gotmpl__print(b, v, w);
    }
    if (ln)
        sd_buf_putc(b, '\n');
}

/* text/template's evalArgs: one string as it is, else fmt.Sprint; in a
 * buffer capped as the output is. 0, or the error of a walk that ran out or
 * of a text past the cap (never a text cut at the cap: html, js and
 * urlquery of a shared alias bomb printed 64 MiB of it and went on). */
static int eval_args(sd_gcall *c, sd_buf *b, const sd_gval *argv, int argc)
{
    gwalk w = sd_gotmpl__walk(c);
    sd_gotmpl__buf(c, b);
    if (argc == 1 && argv[0].kind == SD_G_STR)
        sd_buf_put(b, argv[0].u.s.p, argv[0].u.s.n);
    else
        sprint(b, argv, argc, 0, &w);
    if (sd_gotmpl__walked(c, &w) != 0) {
        sd_buf_release(b);
        return c->err;
    }
    if (sd_buf_failed(b)) {
        int e = sd_buf_error(b);
        sd_buf_release(b);
        return sd_gcall_fail(c, e == SD_ELIMIT ? "result too large" : "out of memory");
    }
    return 0;
}

/* --- the builtins ------------------------------------------------------------------- */

static int f_print(sd_gval *out, sd_gcall *c, const sd_gval *argv, int argc)
{
    sd_buf b;
    gwalk w = sd_gotmpl__walk(c);
    sd_gotmpl__buf(c, &b);
    sprint(&b, argv, argc, 0, &w);
    return sd_gotmpl__buf_walked(out, c, &b, &w);
}

static int f_println(sd_gval *out, sd_gcall *c, const sd_gval *argv, int argc)
{
    sd_buf b;
    gwalk w = sd_gotmpl__walk(c);
    sd_gotmpl__buf(c, &b);
    sprint(&b, argv, argc, 1, &w);
    return sd_gotmpl__buf_walked(out, c, &b, &w);
}

static int f_printf(sd_gval *out, sd_gcall *c, const sd_gval *argv, int argc)
{
    sd_buf b;
    gwalk w = sd_gotmpl__walk(c);
    sd_gotmpl__buf(c, &b);
    sd_gotmpl__sprintf(&b, argv[0].u.s.p, argv[0].u.s.n, argv + 1, argc - 1, &w);
    return sd_gotmpl__buf_walked(out, c, &b, &w);
}

static int f_html(sd_gval *out, sd_gcall *c, const sd_gval *argv, int argc)
{
    sd_buf a, b;
    if (eval_args(c, &a, argv, argc) != 0)
        return c->err;
    sd_gotmpl__buf(c, &b);
    for (size_t i = 0; i < a.len; i++) {
        switch (a.ptr[i]) {
        case '"': sd_buf_puts(&b, "&#34;"); break;
        case '\'': sd_buf_puts(&b, "&#39;"); break;
        case '&': sd_buf_puts(&b, "&amp;"); break;
        case '<': sd_buf_puts(&b, "&lt;"); break;
        case '>': sd_buf_puts(&b, "&gt;"); break;
        case '\0': sd_buf_puts(&b, "\xEF\xBF\xBD"); break;
        default: sd_buf_putc(&b, a.ptr[i]);
        }
    }
    sd_buf_release(&a);
    return sd_gotmpl__buf_val(out, c, &b);
}

static int f_js(sd_gval *out, sd_gcall *c, const sd_gval *argv, int argc)
{
    sd_buf a, b;
    if (eval_args(c, &a, argv, argc) != 0)
        return c->err;
    sd_gotmpl__buf(c, &b);
    for (size_t i = 0; i < a.len; i++) {
        unsigned char ch = (unsigned char)a.ptr[i];
        switch (ch) {
        case '\\': sd_buf_puts(&b, "\\\\"); break;
        case '\'': sd_buf_puts(&b, "\\'"); break;
        case '"': sd_buf_puts(&b, "\\\""); break;
        case '<': sd_buf_puts(&b, "\\u003C"); break;
        case '>': sd_buf_puts(&b, "\\u003E"); break;
        case '&': sd_buf_puts(&b, "\\u0026"); break;
        case '=': sd_buf_puts(&b, "\\u003D"); break;
        default:
            if (ch < 0x20)
                sd_buf_printf(&b, "\\u%04X", ch);
            else
                sd_buf_putc(&b, (char)ch);
        }
    }
    sd_buf_release(&a);
    return sd_gotmpl__buf_val(out, c, &b);
}

static int f_urlquery(sd_gval *out, sd_gcall *c, const sd_gval *argv, int argc)
{
    sd_buf a, b;
    if (eval_args(c, &a, argv, argc) != 0)
        return c->err;
    sd_gotmpl__buf(c, &b);
    for (size_t i = 0; i < a.len; i++) {
        unsigned char ch = (unsigned char)a.ptr[i];
        if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
            ch == '-' || ch == '_' || ch == '.' || ch == '~')
            sd_buf_putc(&b, (char)ch);
        else if (ch == ' ')
            sd_buf_putc(&b, '+');
        else
            sd_buf_printf(&b, "%%%02X", ch);
    }
    sd_buf_release(&a);
    return sd_gotmpl__buf_val(out, c, &b);
}

static int f_not(sd_gval *out, sd_gcall *c, const sd_gval *argv, int argc)
{
    (void)c; (void)argc;
    *out = sd_gbool(!sd_gval_truth(argv[0]));
    return 0;
}

static int f_len(sd_gval *out, sd_gcall *c, const sd_gval *argv, int argc)
{
    sd_gval v = argv[0];
    (void)argc;
    switch (v.kind) {
    case SD_G_STR: *out = sd_gint((long long)v.u.s.n); return 0;
    case SD_G_LIST: *out = sd_gint((long long)v.u.l->n); return 0;
    case SD_G_MAP:
        if (!v.u.m->type_name) {
            *out = sd_gint((long long)v.u.m->n);
            return 0;
        }
        break;
    case SD_G_MISSING: case SD_G_NIL:
        return sd_gcall_fail(c, "len of nil pointer");
    default: break;
    }
    return sd_gcall_fail(c, "len of type %s", sd_gval_type_name(v));
}

static int index_arg(sd_gcall *c, sd_gval i, size_t cap, long long *out, const char *what)
{
    if (i.kind != SD_G_INT)
        return sd_gcall_fail(c, "cannot index %s with type %s", what,
                             i.kind == SD_G_MISSING || i.kind == SD_G_NIL ? "nil" : sd_gval_type_name(i));
    if (i.u.i < 0 || (unsigned long long)i.u.i > cap)
        return sd_gcall_fail(c, "index out of range: %lld", i.u.i);
    *out = i.u.i;
    return 0;
}

static int f_index(sd_gval *out, sd_gcall *c, const sd_gval *argv, int argc)
{
    sd_gval item = argv[0];
    long long x;
    if (item.kind == SD_G_MISSING || item.kind == SD_G_NIL)
        return sd_gcall_fail(c, "index of untyped nil");
    for (int k = 1; k < argc; k++) {
        sd_gval ix = argv[k];
        switch (item.kind) {
        case SD_G_LIST:
            if (index_arg(c, ix, item.u.l->n, &x, "slice/array") < 0)
                return c->err;
            if ((size_t)x == item.u.l->n)
                return sd_gcall_fail(c, "index out of range: %lld", x);
            item = item.u.l->items[x];
            break;
        case SD_G_STR:
            if (index_arg(c, ix, item.u.s.n, &x, "slice/array") < 0)
                return c->err;
            if ((size_t)x == item.u.s.n)
                return sd_gcall_fail(c, "index out of range: %lld", x);
            item = sd_gint((unsigned char)item.u.s.p[x]);
            break;
        case SD_G_MAP:
            if (!item.u.m->type_name) {
                if (ix.kind == SD_G_MISSING || ix.kind == SD_G_NIL)
                    return sd_gcall_fail(c, "value is nil; should be of type string");
                if (ix.kind != SD_G_STR)
                    return sd_gcall_fail(c, "value has type %s; should be string", sd_gval_type_name(ix));
                item = sd_gmap_get(item, ix.u.s.p, ix.u.s.n);
                if (item.kind == SD_G_MISSING)
                    item = sd_gnil();
                break;
            }
            /* fall through */
        default:
            if (item.kind == SD_G_NIL)
                return sd_gcall_fail(c, "index of nil pointer");
            return sd_gcall_fail(c, "can't index item of type %s", sd_gval_type_name(item));
        }
    }
    *out = item;
    return 0;
}

/* Go's builtin slice (sprig replaces it with its own, for lists only;
 * this one follows Go and slices strings too). */
static int f_slice(sd_gval *out, sd_gcall *c, const sd_gval *argv, int argc)
{
    sd_gval item = argv[0];
    long long ix[3] = { 0, 0, 0 };
    size_t len;
    if (item.kind == SD_G_STR) len = item.u.s.n;
    else if (item.kind == SD_G_LIST) len = item.u.l->n;
    else if (item.kind == SD_G_MISSING || item.kind == SD_G_NIL) return sd_gcall_fail(c, "slice of untyped nil");
    else return sd_gcall_fail(c, "can't slice item of type %s", sd_gval_type_name(item));
    if (argc > 4)
        return sd_gcall_fail(c, "too many slice indexes: %d", argc - 1);
    if (argc == 4 && item.kind == SD_G_STR)
        return sd_gcall_fail(c, "cannot 3-index slice a string");
    ix[1] = (long long)len;
    for (int k = 1; k < argc; k++)
        if (index_arg(c, argv[k], len, &ix[k - 1], "slice/array") < 0)
            return c->err;
    if (ix[0] > ix[1])
        return sd_gcall_fail(c, "invalid slice index: %lld > %lld", ix[0], ix[1]);
    if (item.kind == SD_G_STR) {
        *out = sd_gstr_static(item.u.s.p + ix[0], (size_t)(ix[1] - ix[0]));
        return 0;
    }
    sd_gval l = sd_glist_new(c->heap, (size_t)(ix[1] - ix[0]));
    if (l.kind != SD_G_LIST)
        return sd_gcall_fail(c, "out of memory");
    for (long long k = ix[0]; k < ix[1]; k++)
        sd_glist_push(c->heap, l, item.u.l->items[k]);
    *out = l;
    return 0;
}

/* basicKind: 1 bool, 2 int, 3 float, 4 string; 0 other; -1 invalid (nil). */
static int basic(sd_gval v)
{
    switch (v.kind) {
    case SD_G_BOOL: return 1;
    case SD_G_INT: return 2;
    case SD_G_FLOAT: return 3;
    case SD_G_STR: return 4;
    case SD_G_MISSING: case SD_G_NIL: return -1;
    default: return 0;
    }
}

static int eq2(sd_gcall *c, sd_gval a, sd_gval b, int *truth)
{
    int k1 = basic(a), k2 = basic(b);
    *truth = 0;
    if (k1 != k2) {
        if (k1 != -1 && k2 != -1)
            return sd_gcall_fail(c, "incompatible types for comparison");
        return 0;
    }
    switch (k1) {
    case 1: *truth = a.u.b == b.u.b; return 0;
    case 2: *truth = a.u.i == b.u.i; return 0;
    case 3: *truth = a.u.f == b.u.f; return 0;
    case 4: *truth = a.u.s.n == b.u.s.n && memcmp(a.u.s.p, b.u.s.p, a.u.s.n) == 0; return 0;
    case -1: *truth = 1; return 0;
    default:
        return sd_gcall_fail(c, "non-comparable type %s", sd_gval_type_name(b));
    }
}

static int f_eq(sd_gval *out, sd_gcall *c, const sd_gval *argv, int argc)
{
    int t;
    if (argc < 2)
        return sd_gcall_fail(c, "missing argument for comparison");
    for (int i = 1; i < argc; i++) {
        if (eq2(c, argv[0], argv[i], &t) < 0)
            return c->err;
        if (t) {
            *out = sd_gbool(1);
            return 0;
        }
    }
    *out = sd_gbool(0);
    return 0;
}

static int f_ne(sd_gval *out, sd_gcall *c, const sd_gval *argv, int argc)
{
    int t;
    (void)argc;
    if (eq2(c, argv[0], argv[1], &t) < 0)
        return c->err;
    *out = sd_gbool(!t);
    return 0;
}

static int lt2(sd_gcall *c, sd_gval a, sd_gval b, int *truth)
{
    int k1 = basic(a), k2 = basic(b);
    if (k1 <= 0 || k2 <= 0)
        return sd_gcall_fail(c, "invalid type for comparison");
    if (k1 != k2)
        return sd_gcall_fail(c, "incompatible types for comparison");
    switch (k1) {
    case 2: *truth = a.u.i < b.u.i; return 0;
    case 3: *truth = a.u.f < b.u.f; return 0;
    case 4: *truth = sd_gotmpl__strcmp(a.u.s.p, a.u.s.n, b.u.s.p, b.u.s.n) < 0; return 0;
    default: return sd_gcall_fail(c, "invalid type for comparison");
    }
}

static int f_cmp(sd_gval *out, sd_gcall *c, const sd_gval *argv, int which)
{
    int lt = 0, eq = 0;
    if (lt2(c, argv[0], argv[1], &lt) < 0)
        return c->err;
    if (which == 1 || which == 2)
        eq2(c, argv[0], argv[1], &eq);
    switch (which) {
    case 0: *out = sd_gbool(lt); break;            /* lt */
    case 1: *out = sd_gbool(lt || eq); break;      /* le */
    case 2: *out = sd_gbool(!(lt || eq)); break;   /* gt */
    default: *out = sd_gbool(!lt); break;          /* ge */
    }
    return 0;
}

static int f_lt(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; return f_cmp(o, c, a, 0); }
static int f_le(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; return f_cmp(o, c, a, 1); }
static int f_gt(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; return f_cmp(o, c, a, 2); }
static int f_ge(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; return f_cmp(o, c, a, 3); }

/* helm-docs' include: a template's output as a string. */
static int f_include(sd_gval *out, sd_gcall *c, const sd_gval *argv, int argc)
{
    sd_buf b;
    int r;
    (void)argc;
    sd_gotmpl__buf(c, &b);
    char *name = malloc(argv[0].u.s.n + 1);
    if (!name)
        return sd_gcall_fail(c, "out of memory");
    memcpy(name, argv[0].u.s.p, argv[0].u.s.n);
    name[argv[0].u.s.n] = '\0';
    const char *fname = c->fname;
    r = sd_gotmpl__exec_named(c, &b, name, argv[1]);
    c->fname = fname;
    free(name);
    if (r) {
        sd_buf_release(&b);
        return r;
    }
    return sd_gotmpl__buf_val(out, c, &b);
}

const gfunc sd_gotmpl__builtin_funcs[] = {
    { "and", "VV*", NULL, NULL },
    { "call", "VV*", NULL, "template data holds no functions to call" },
    { "eq", "VV*", f_eq, NULL },
    { "ge", "VV", f_ge, NULL },
    { "gt", "VV", f_gt, NULL },
    { "html", "A*", f_html, NULL },
    { "include", "SA", f_include, NULL },
    { "index", "VV*", f_index, NULL },
    { "js", "A*", f_js, NULL },
    { "le", "VV", f_le, NULL },
    { "len", "V", f_len, NULL },
    { "lt", "VV", f_lt, NULL },
    { "ne", "VV", f_ne, NULL },
    { "not", "V", f_not, NULL },
    { "or", "VV*", NULL, NULL },
    { "print", "A*", f_print, NULL },
    { "printf", "SA*", f_printf, NULL },
    { "println", "A*", f_println, NULL },
    { "slice", "VV*", f_slice, NULL },
    { "urlquery", "A*", f_urlquery, NULL },
    { NULL, NULL, NULL, NULL }
};
