/* SPDX-License-Identifier: Apache-2.0 */
/* gotmpl_fmt.c - Go's fmt.Sprintf for printf (and quote): the verbs
 * %v %s %q %d %x %X %o %O %b %c %U %e %E %f %F %g %G %t %T %%, the flags
 * + - # 0 space, width and precision (also *), and fmt's error forms
 * (%!v(MISSING), %!d(string=x), %!(EXTRA ...)). In: a format and values;
 * out: text appended to a buffer. docs/gotmpl.md lists the differences. */
#include "gotmpl_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static void bad_verb(sd_buf *b, char verb, sd_gval v, gwalk *w)
{
    sd_buf_printf(b, "%%!%c(", verb);
    if (v.kind == SD_G_NIL || v.kind == SD_G_MISSING) {
        sd_buf_puts(b, "<nil>)");
        return;
    }
    sd_buf_puts(b, sd_gval_type_name(v));
    sd_buf_putc(b, '=');
    sd_gotmpl__print(b, v, w);
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

static void fmt_val(sd_buf *b, const fspec *f, sd_gval v, int depth, gwalk *w);

static void fmt_elems(sd_buf *b, const fspec *f, sd_gval v, int depth, gwalk *w)
{
    fspec inner = *f;
    inner.width = -1;
    if (v.kind == SD_G_LIST) {
        sd_buf_putc(b, '[');
        for (size_t i = 0; i < v.u.l->n && !w->over && !sd_buf_failed(b); i++) {
            if (i)
                sd_buf_putc(b, ' ');
            fmt_val(b, f, v.u.l->items[i], depth + 1, w);
        }
        sd_buf_putc(b, ']');
        return;
    }
    if (v.u.m->type_name) {
        sd_buf_putc(b, '{');
        for (size_t i = 0; i < v.u.m->n && !w->over && !sd_buf_failed(b); i++) {
            if (i)
                sd_buf_putc(b, ' ');
            if (f->plus || f->sharp) {
                sd_buf_put(b, v.u.m->keys[i], v.u.m->klen[i]);
                sd_buf_putc(b, ':');
            }
            fmt_val(b, f, v.u.m->vals[i], depth + 1, w);
        }
        sd_buf_putc(b, '}');
        return;
    }
    sd_buf_puts(b, "map[");
    /* the keys sorted as fmt does */
    size_t n = v.u.m->n, *ix = sd_gotmpl__key_order(v.u.m);
    if (!ix) {
        sd_buf_puts(b, "...]");
        return;
    }
    for (size_t i = 0; i < n && !sd_buf_failed(b) && !w->over; i++) {
        if (i)
            sd_buf_putc(b, ' ');
        fmt_val(b, &inner, sd_gstr_static(v.u.m->keys[ix[i]], v.u.m->klen[ix[i]]), depth + 1, w);
        sd_buf_putc(b, ':');
        fmt_val(b, &inner, v.u.m->vals[ix[i]], depth + 1, w);
    }
    free(ix);
    sd_buf_putc(b, ']');
}

static void fmt_val(sd_buf *b, const fspec *f, sd_gval v, int depth, gwalk *w)
{
    sd_buf tmp = SD_BUF_INIT;
    if (depth > 50 || sd_buf_failed(b) || sd_gotmpl__visit(w) < 0)
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
            bad_verb(b, f->verb, v, w);
        return;
    case SD_G_BOOL:
        if (f->verb == 'v' || f->verb == 't')
            pad(b, f, v.u.b ? "true" : "false", v.u.b ? 4 : 5, 0);
        else
            bad_verb(b, f->verb, v, w);
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
            bad_verb(b, f->verb, v, w);
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
            bad_verb(b, f->verb, v, w);
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
        case 'x': case 'X': {
            /* two digits a byte from a table (a printf a byte made %x of
             * a shared alias bomb 6x slower than %v) */
            const char *dig = f->verb == 'x' ? "0123456789abcdef" : "0123456789ABCDEF";
            sd_buf *to = f->width < 0 ? b : &tmp;   /* no width: nothing to pad */
            for (size_t i = 0; i < v.u.s.n && !sd_buf_failed(to); i++) {
                unsigned char ch = (unsigned char)v.u.s.p[i];
                char two[3] = { ' ', dig[ch >> 4], dig[ch & 15] };
                if (f->space && i)
                    sd_buf_put(to, two, 3);
                else
                    sd_buf_put(to, two + 1, 2);
            }
            if (to == &tmp)
                pad(b, f, tmp.ptr, tmp.len, 0);
            sd_buf_release(&tmp);
            return;
        }
        default:
            bad_verb(b, f->verb, v, w);
            return;
        }
    case SD_G_LIST: case SD_G_MAP:
        if (f->verb == 'v' || f->verb == 's' || f->verb == 'q' || f->verb == 'd' ||
            f->verb == 'x' || f->verb == 'X' || f->verb == 'f' || f->verb == 'g' || f->verb == 't') {
            fmt_elems(b, f, v, depth, w);
            return;
        }
        bad_verb(b, f->verb, v, w);
        return;
    case SD_G_OBJ:
        sd_gotmpl__print(b, v, w);
        return;
    }
}

int sd_gotmpl__sprintf(sd_buf *b, const char *fmt, size_t flen, const sd_gval *argv, int argc, gwalk *w)
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
            /* fmt's intFromArg: an int within +-1e6 (tooLarge), else BADWIDTH */
            if (ai < argc && argv[ai].kind == SD_G_INT && argv[ai].u.i <= 1000000 && argv[ai].u.i >= -1000000) {
                f.width = (int)argv[ai].u.i;
                if (f.width < 0) { f.minus = 1; f.zero = 0; f.width = -f.width; }
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
                if (ai < argc && argv[ai].kind == SD_G_INT && argv[ai].u.i >= 0 && argv[ai].u.i <= 1000000)
                    f.prec = (int)argv[ai].u.i;
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
                    sd_gotmpl__print(b, argv[ai], w);
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
            bad_verb(b, 'p', argv[ai++], w);
            continue;
        }
        fmt_val(b, &f, argv[ai++], 0, w);
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
            sd_gotmpl__print(b, argv[k], w);
        }
        sd_buf_putc(b, ')');
    }
    return 0;
}

