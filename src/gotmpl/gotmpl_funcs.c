/* gotmpl_funcs.c - Go's builtin template functions (text/template/funcs.go):
 * and, or, not, len, index, slice, print, printf, println, html, js,
 * urlquery, eq, ne, lt, le, gt, ge; fmt's verbs for printf. The lookup
 * of every function by name is gotmpl_funcmap.c. */
#include "gotmpl_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- fmt ---------------------------------------------------------------------------- */

typedef struct fspec {
    int minus, plus, sharp, space, zero;
    int width, prec;    /* -1: none */
    char verb;
} fspec;

static size_t utf8_count(const char *s, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80)
            c++;
    return c;
}

/* Pad `s` to the spec's width (runes), left or right, with spaces or zeros. */
static void pad(sd_buf *b, const fspec *f, const char *s, size_t n, int numeric)
{
    size_t w = utf8_count(s, n);
    if (f->width < 0 || (size_t)f->width <= w) {
        sd_buf_put(b, s, n);
        return;
    }
    size_t fill = (size_t)f->width - w;
    if (f->minus) {
        sd_buf_put(b, s, n);
        while (fill--)
            sd_buf_putc(b, ' ');
    } else if (f->zero && numeric) {
        size_t sign = n && (s[0] == '-' || s[0] == '+' || s[0] == ' ');
        sd_buf_put(b, s, sign);
        while (fill--)
            sd_buf_putc(b, '0');
        sd_buf_put(b, s + sign, n - sign);
    } else {
        while (fill--)
            sd_buf_putc(b, ' ');
        sd_buf_put(b, s, n);
    }
}

/* strconv.Quote */
static void quote_go(sd_buf *b, const char *s, size_t n, char q)
{
    sd_buf_putc(b, q);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '\a': sd_buf_puts(b, "\\a"); break;
        case '\b': sd_buf_puts(b, "\\b"); break;
        case '\f': sd_buf_puts(b, "\\f"); break;
        case '\n': sd_buf_puts(b, "\\n"); break;
        case '\r': sd_buf_puts(b, "\\r"); break;
        case '\t': sd_buf_puts(b, "\\t"); break;
        case '\v': sd_buf_puts(b, "\\v"); break;
        case '\\': sd_buf_puts(b, "\\\\"); break;
        default:
            if (c == (unsigned char)q)
                sd_buf_printf(b, "\\%c", q);
            else if (c < 0x20 || c == 0x7f)
                sd_buf_printf(b, "\\x%02x", c);
            else
                sd_buf_putc(b, (char)c);
        }
    }
    sd_buf_putc(b, q);
}

static void bad_verb(sd_buf *b, char verb, sd_gval v)
{
    sd_buf_printf(b, "%%!%c(", verb);
    if (v.kind == SD_G_NIL || v.kind == SD_G_MISSING) {
        sd_buf_puts(b, "<nil>)");
        return;
    }
    sd_buf_puts(b, sd_gval_type_name(v));
    sd_buf_putc(b, '=');
    sd_gval_print(b, v);
    sd_buf_putc(b, ')');
}

static void fmt_int(sd_buf *b, const fspec *f, long long i)
{
    char tmp[96];
    unsigned long long u = i < 0 ? 0ULL - (unsigned long long)i : (unsigned long long)i;
    const char *sign = i < 0 ? "-" : f->plus ? "+" : f->space ? " " : "";
    int base = 10, upper = 0;
    const char *prefix = "";
    switch (f->verb) {
    case 'x': base = 16; prefix = f->sharp ? "0x" : ""; break;
    case 'X': base = 16; upper = 1; prefix = f->sharp ? "0X" : ""; break;
    case 'o': base = 8; prefix = f->sharp ? "0" : ""; break;
    case 'O': base = 8; prefix = "0o"; break;
    case 'b': base = 2; break;
    }
    char digs[80];
    int nd = 0;
    do {
        int d = (int)(u % (unsigned)base);
        digs[nd++] = (char)(d < 10 ? '0' + d : (upper ? 'A' : 'a') + d - 10);
        u /= (unsigned)base;
    } while (u);
    size_t k = 0;
    k += (size_t)snprintf(tmp + k, sizeof tmp - k, "%s%s", sign, prefix);
    for (int z = nd; f->prec >= 0 && z < f->prec && z < 60; z++)
        tmp[k++] = '0';
    while (nd)
        tmp[k++] = digs[--nd];
    pad(b, f, tmp, k, f->prec < 0);
}

static void fmt_val(sd_buf *b, const fspec *f, sd_gval v, int depth);

static void fmt_elems(sd_buf *b, const fspec *f, sd_gval v, int depth)
{
    fspec inner = *f;
    inner.width = -1;
    if (v.kind == SD_G_LIST) {
        sd_buf_putc(b, '[');
        for (size_t i = 0; i < v.u.l->n; i++) {
            if (i)
                sd_buf_putc(b, ' ');
            fmt_val(b, f, v.u.l->items[i], depth + 1);
        }
        sd_buf_putc(b, ']');
        return;
    }
    if (v.u.m->type_name) {
        sd_buf_putc(b, '{');
        for (size_t i = 0; i < v.u.m->n; i++) {
            if (i)
                sd_buf_putc(b, ' ');
            if (f->plus || f->sharp) {
                sd_buf_put(b, v.u.m->keys[i], v.u.m->klen[i]);
                sd_buf_putc(b, ':');
            }
            fmt_val(b, f, v.u.m->vals[i], depth + 1);
        }
        sd_buf_putc(b, '}');
        return;
    }
    sd_buf_puts(b, "map[");
    size_t n = v.u.m->n, *ix = malloc((n ? n : 1) * sizeof *ix);
    if (!ix) {
        sd_buf_puts(b, "...]");
        return;
    }
    /* sort the keys as fmt does */
    for (size_t i = 0; i < n; i++)
        ix[i] = i;
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && sd_gotmpl__strcmp(v.u.m->keys[ix[j - 1]], v.u.m->klen[ix[j - 1]],
                                                      v.u.m->keys[ix[j]], v.u.m->klen[ix[j]]) > 0; j--) {
            size_t t = ix[j]; ix[j] = ix[j - 1]; ix[j - 1] = t;
        }
    for (size_t i = 0; i < n && !sd_buf_failed(b); i++) {
        if (i)
            sd_buf_putc(b, ' ');
        fmt_val(b, &inner, sd_gstr_static(v.u.m->keys[ix[i]], v.u.m->klen[ix[i]]), depth + 1);
        sd_buf_putc(b, ':');
        fmt_val(b, &inner, v.u.m->vals[ix[i]], depth + 1);
    }
    free(ix);
    sd_buf_putc(b, ']');
}

static void fmt_val(sd_buf *b, const fspec *f, sd_gval v, int depth)
{
    sd_buf tmp = SD_BUF_INIT;
    if (depth > 50 || sd_buf_failed(b))
        return;
    if (f->verb == 'T') {
        const char *t = v.kind == SD_G_NIL || v.kind == SD_G_MISSING ? "<nil>" : sd_gval_type_name(v);
        pad(b, f, t, strlen(t), 0);
        return;
    }
    switch (v.kind) {
    case SD_G_MISSING: case SD_G_NIL:
        if (f->verb == 'v')
            pad(b, f, "<nil>", 5, 0);
        else
            bad_verb(b, f->verb, v);
        return;
    case SD_G_BOOL:
        if (f->verb == 'v' || f->verb == 't')
            pad(b, f, v.u.b ? "true" : "false", v.u.b ? 4 : 5, 0);
        else
            bad_verb(b, f->verb, v);
        return;
    case SD_G_INT:
        switch (f->verb) {
        case 'v': case 'd': case 'x': case 'X': case 'o': case 'O': case 'b': {
            fspec g = *f;
            if (g.verb == 'v')
                g.verb = 'd';
            fmt_int(b, &g, v.u.i);
            return;
        }
        case 'c': case 'q': case 'U': {
            char u[8];
            size_t k = v.u.i >= 0 && v.u.i <= 0x10FFFF ? sd_utf8_encode((unsigned long)v.u.i, u) : 0;
            if (f->verb == 'c')
                sd_buf_put(&tmp, u, k);
            else if (f->verb == 'q')
                quote_go(&tmp, u, k, '\'');
            else
                sd_buf_printf(&tmp, "U+%04llX", v.u.i);
            pad(b, f, tmp.ptr, tmp.len, 0);
            sd_buf_release(&tmp);
            return;
        }
        case 'e': case 'E': case 'f': case 'F': case 'g': case 'G':
        default:
            bad_verb(b, f->verb, v);
            return;
        }
    case SD_G_FLOAT:
        switch (f->verb) {
        case 'v': case 'g': case 'G': case 'e': case 'E': case 'f': case 'F': {
            char c = f->verb == 'v' ? 'g' : f->verb == 'F' ? 'f' : f->verb;
            if (f->plus && v.u.f >= 0)
                sd_buf_putc(&tmp, '+');
            else if (f->space && v.u.f >= 0)
                sd_buf_putc(&tmp, ' ');
            int prec = f->prec;
            if (prec < 0 && (c == 'e' || c == 'E' || c == 'f'))
                prec = 6;
            if (c == 'E' || c == 'G') {
                sd_buf t2 = SD_BUF_INIT;
                sd_gotmpl__fmt_float(&t2, v.u.f, (char)(c + 32), prec);
                for (size_t i = 0; i < t2.len; i++)
                    t2.ptr[i] = t2.ptr[i] == 'e' ? 'E' : t2.ptr[i];
                sd_buf_put(&tmp, t2.ptr, t2.len);
                sd_buf_release(&t2);
            } else {
                sd_gotmpl__fmt_float(&tmp, v.u.f, c, prec);
            }
            pad(b, f, tmp.ptr, tmp.len, isfinite(v.u.f));
            sd_buf_release(&tmp);
            return;
        }
        default:
            bad_verb(b, f->verb, v);
            return;
        }
    case SD_G_STR:
        switch (f->verb) {
        case 'v': case 's': {
            size_t n = v.u.s.n;
            if (f->prec >= 0) {
                /* precision: at most prec runes */
                size_t runes = 0, i = 0;
                for (; i < n; i++) {
                    if (((unsigned char)v.u.s.p[i] & 0xC0) != 0x80) {
                        if (runes == (size_t)f->prec)
                            break;
                        runes++;
                    }
                }
                n = i;
            }
            pad(b, f, v.u.s.p, n, 0);
            return;
        }
        case 'q':
            if (f->sharp && !memchr(v.u.s.p, '`', v.u.s.n)) {
                sd_buf_putc(&tmp, '`');
                sd_buf_put(&tmp, v.u.s.p, v.u.s.n);
                sd_buf_putc(&tmp, '`');
            } else {
                quote_go(&tmp, v.u.s.p, v.u.s.n, '"');
            }
            pad(b, f, tmp.ptr, tmp.len, 0);
            sd_buf_release(&tmp);
            return;
        case 'x': case 'X':
            for (size_t i = 0; i < v.u.s.n; i++) {
                if (f->space && i)
                    sd_buf_putc(&tmp, ' ');
                sd_buf_printf(&tmp, f->verb == 'x' ? "%02x" : "%02X", (unsigned char)v.u.s.p[i]);
            }
            pad(b, f, tmp.ptr, tmp.len, 0);
            sd_buf_release(&tmp);
            return;
        default:
            bad_verb(b, f->verb, v);
            return;
        }
    case SD_G_LIST: case SD_G_MAP:
        if (f->verb == 'v' || f->verb == 's' || f->verb == 'q' || f->verb == 'd' ||
            f->verb == 'x' || f->verb == 'X' || f->verb == 'f' || f->verb == 'g' || f->verb == 't') {
            fmt_elems(b, f, v, depth);
            return;
        }
        bad_verb(b, f->verb, v);
        return;
    case SD_G_OBJ:
        sd_gval_print(b, v);
        return;
    }
}

int sd_gotmpl__sprintf(sd_buf *b, const char *fmt, size_t flen, const sd_gval *argv, int argc)
{
    int ai = 0;
    size_t i = 0;
    while (i < flen && !sd_buf_failed(b)) {
        const char *pct = memchr(fmt + i, '%', flen - i);
        if (!pct) {
            sd_buf_put(b, fmt + i, flen - i);
            break;
        }
        sd_buf_put(b, fmt + i, (size_t)(pct - fmt) - i);
        i = (size_t)(pct - fmt) + 1;
        fspec f = { 0, 0, 0, 0, 0, -1, -1, 0 };
        for (; i < flen; i++) {
            char c = fmt[i];
            if (c == '-') f.minus = 1, f.zero = 0;
            else if (c == '+') f.plus = 1;
            else if (c == '#') f.sharp = 1;
            else if (c == ' ') f.space = 1;
            else if (c == '0') f.zero = !f.minus;
            else break;
        }
        if (i < flen && fmt[i] == '*') {
            i++;
            if (ai < argc && argv[ai].kind == SD_G_INT) {
                f.width = (int)(argv[ai].u.i > 1000000 ? 1000000 : argv[ai].u.i);
                if (f.width < 0) { f.minus = 1; f.width = -f.width; }
            } else {
                sd_buf_puts(b, "%!(BADWIDTH)");
            }
            ai++;
        } else {
            for (; i < flen && fmt[i] >= '0' && fmt[i] <= '9'; i++)
                f.width = (f.width < 0 ? 0 : f.width) * 10 + (fmt[i] - '0') > 1000000 ? 1000000
                          : (f.width < 0 ? 0 : f.width) * 10 + (fmt[i] - '0');
        }
        if (i < flen && fmt[i] == '.') {
            i++;
            f.prec = 0;
            if (i < flen && fmt[i] == '*') {
                i++;
                if (ai < argc && argv[ai].kind == SD_G_INT && argv[ai].u.i >= 0)
                    f.prec = (int)(argv[ai].u.i > 1000000 ? 1000000 : argv[ai].u.i);
                else
                    sd_buf_puts(b, "%!(BADPREC)");
                ai++;
            } else {
                for (; i < flen && fmt[i] >= '0' && fmt[i] <= '9'; i++)
                    f.prec = f.prec * 10 + (fmt[i] - '0') > 1000000 ? 1000000 : f.prec * 10 + (fmt[i] - '0');
            }
        }
        if (i >= flen) {
            sd_buf_puts(b, "%!(NOVERB)");
            break;
        }
        /* the verb: one UTF-8 character */
        unsigned char vc = (unsigned char)fmt[i];
        size_t vl = vc < 0x80 ? 1 : vc < 0xE0 ? 2 : vc < 0xF0 ? 3 : 4;
        if (vc == '%') {
            sd_buf_putc(b, '%');
            i++;
            continue;
        }
        if (vl > 1 || !strchr("vTtbcdoOqxXUeEfFgGsp", vc)) {
            sd_buf_puts(b, "%!");
            sd_buf_put(b, fmt + i, vl > flen - i ? flen - i : vl);
            if (ai < argc) {
                sd_buf_putc(b, '(');
                sd_buf_puts(b, argv[ai].kind == SD_G_NIL || argv[ai].kind == SD_G_MISSING ? "<nil>" : sd_gval_type_name(argv[ai]));
                if (argv[ai].kind != SD_G_NIL && argv[ai].kind != SD_G_MISSING) {
                    sd_buf_putc(b, '=');
                    sd_gval_print(b, argv[ai]);
                }
                sd_buf_putc(b, ')');
                ai++;
            } else {
                sd_buf_puts(b, "(MISSING)");
            }
            i += vl;
            continue;
        }
        f.verb = (char)vc;
        i++;
        if (ai >= argc) {
            sd_buf_printf(b, "%%!%c(MISSING)", f.verb);
            continue;
        }
        if (f.verb == 'p') {
            bad_verb(b, 'p', argv[ai++]);
            continue;
        }
        fmt_val(b, &f, argv[ai++], 0);
    }
    if (ai < argc) {
        sd_buf_puts(b, "%!(EXTRA ");
        for (int k = ai; k < argc; k++) {
            if (k > ai)
                sd_buf_puts(b, ", ");
            if (argv[k].kind == SD_G_NIL || argv[k].kind == SD_G_MISSING) {
                sd_buf_puts(b, "<nil>");
                continue;
            }
            sd_buf_puts(b, sd_gval_type_name(argv[k]));
            sd_buf_putc(b, '=');
            sd_gval_print(b, argv[k]);
        }
        sd_buf_putc(b, ')');
    }
    return 0;
}

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

static void init_buf(sd_gcall *c, sd_buf *b)
{
    sd_buf_init(b, c->lim.max_output ? c->lim.max_output : ((size_t)64 << 20));
}

/* fmt.Sprint: a space between operands when neither is a string. */
static void sprint(sd_buf *b, const sd_gval *argv, int argc, int ln)
{
    for (int i = 0; i < argc; i++) {
        if (i && (ln || (argv[i].kind != SD_G_STR && argv[i - 1].kind != SD_G_STR)))
            sd_buf_putc(b, ' ');
        sd_gval v = argv[i].kind == SD_G_MISSING ? sd_gnil() : argv[i];
        sd_gval_print(b, v);
    }
    if (ln)
        sd_buf_putc(b, '\n');
}

/* text/template's evalArgs: one string as it is, else fmt.Sprint. */
static void eval_args(sd_buf *b, const sd_gval *argv, int argc)
{
    if (argc == 1 && argv[0].kind == SD_G_STR)
        sd_buf_put(b, argv[0].u.s.p, argv[0].u.s.n);
    else
        sprint(b, argv, argc, 0);
}

/* --- the builtins ------------------------------------------------------------------- */

static int f_print(sd_gval *out, sd_gcall *c, const sd_gval *argv, int argc)
{
    sd_buf b;
    init_buf(c, &b);
    sprint(&b, argv, argc, 0);
    return sd_gotmpl__buf_val(out, c, &b);
}

static int f_println(sd_gval *out, sd_gcall *c, const sd_gval *argv, int argc)
{
    sd_buf b;
    init_buf(c, &b);
    sprint(&b, argv, argc, 1);
    return sd_gotmpl__buf_val(out, c, &b);
}

static int f_printf(sd_gval *out, sd_gcall *c, const sd_gval *argv, int argc)
{
    sd_buf b;
    init_buf(c, &b);
    sd_gotmpl__sprintf(&b, argv[0].u.s.p, argv[0].u.s.n, argv + 1, argc - 1);
    return sd_gotmpl__buf_val(out, c, &b);
}

static int f_html(sd_gval *out, sd_gcall *c, const sd_gval *argv, int argc)
{
    sd_buf a = SD_BUF_INIT, b;
    init_buf(c, &b);
    eval_args(&a, argv, argc);
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
    sd_buf a = SD_BUF_INIT, b;
    init_buf(c, &b);
    eval_args(&a, argv, argc);
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
    sd_buf a = SD_BUF_INIT, b;
    init_buf(c, &b);
    eval_args(&a, argv, argc);
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
    init_buf(c, &b);
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
