/* SPDX-License-Identifier: Apache-2.0 */
/* vnumber.c - the number keywords of the validator's walk (vwalk.h):
 * minimum, maximum, exclusiveMinimum, exclusiveMaximum (draft 4's boolean
 * forms compiled into the same bounds) and `multipleOf`, exactly where the
 * numbers' texts allow it: a short decimal mantissa and any exponent (1e308
 * against 1e-308), else in doubles with a relative tolerance. The rules
 * interpreter does the same in JavaScript (src/form/rules_text.js), so both
 * give one verdict. A record and a tape number in, a verdict out. */
#include "vwalk.h"
#include "buf.h"
#include "vmsg.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

__extension__ typedef unsigned __int128 u128;

/* Exact decimal `multipleOf` when both numbers are short decimals: x = a*10^ea,
 * m = b*10^eb with integer mantissas. Returns 1/0, or -1 when it cannot say. */
/* 1 if s is [-+]digits[.digits][e[-+]digits] with 1 to 15 significant digits. */
static int short_decimal(const char *s, size_t n)
{
    size_t i = 0, sig = 0, lead = 1, mant = 0;
    if (i < n && (s[i] == '-' || s[i] == '+'))
        i++;
    for (int dot = 0; i < n; i++) {
        if (s[i] == '.' && !dot) {
            dot = 1;
        } else if (s[i] >= '0' && s[i] <= '9') {
            mant++;
            if (s[i] != '0')
                lead = 0;
            if (!lead)
                sig++;
        } else {
            break;
        }
    }
    if (!mant || sig > 15)
        return 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        size_t d;
        if (++i < n && (s[i] == '-' || s[i] == '+'))
            i++;
        for (d = i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
            ;
        if (i == d || i - d > 3)
            return 0;
    }
    return i == n;
}

/* A number as both sides have it: kind, value and text as written. */
typedef struct vnum { int is_int; long long i; double d; const char *s; size_t len; } vnum;

static int decimal_parts(const vnum *n, uint64_t *mant, int *exp)
{
    char buf[64];
    const char *s;
    uint64_t m = 0;
    int e = 0, digits = 0, seen_dot = 0;
    if (n->is_int) {
        long long v = n->i;
        uint64_t m = (uint64_t)(v < 0 ? -(v + 1) + 1ULL : (uint64_t)v);
        int e = 0;
        while (m && m % 10 == 0) {
            m /= 10;
            e++;
        }
        *mant = m;
        *exp = e;
        return 0;
    }
    /* the shortest decimal that reads back as the same double (what
     * JavaScript's String(x) prints, so that src/form/rules.js decides
     * alike): a plain decimal of up to 15 significant digits as written
     * is that decimal already; anything else is printed again */
    if (n->s && n->len < sizeof buf && short_decimal(n->s, n->len)) {
        memcpy(buf, n->s, n->len);
        buf[n->len] = '\0';
    } else {
        double d = n->d;
        for (int prec = 1; prec <= 17; prec++) {
            snprintf(buf, sizeof buf, "%.*g", prec, d);
            if (strtod(buf, NULL) == d)
                break;
        }
    }
    s = buf;
    if (*s == '-' || *s == '+')
        s++;
    for (; *s; s++) {
        if (*s >= '0' && *s <= '9') {
            if (m == 0 && *s == '0') {
                if (seen_dot)
                    e--;
                continue;
            }
            if (++digits > 18)
                return -1;
            m = m * 10 + (uint64_t)(*s - '0');
            if (seen_dot)
                e--;
        } else if (*s == '.') {
            seen_dot = 1;
        } else if (*s == 'e' || *s == 'E') {
            char *end;
            long x = strtol(s + 1, &end, 10);
            if (*end || x > 400 || x < -400)
                return -1;
            e += (int)x;
            break;
        } else {
            return -1;
        }
    }
    /* one form per value: trailing zeros go to the exponent (100 = 1e2) */
    while (m && m % 10 == 0) {
        m /= 10;
        e++;
    }
    *mant = m;
    *exp = e;
    return 0;
}

/* 1 when value `tx` of tape `t` is a multiple of `nm`. */
static int multiple_of(const sd_tape *t, const sd_tval *tx, const sd_node *nm)
{
    uint64_t a, b;
    int ea, eb;
    vnum x, m;
    x.is_int = vk(tx) == SD_INT && !sd_tape_big(tx);
    x.i = x.is_int ? tx->u.i : 0;
    x.d = sd_tval_number(tx);
    x.s = sd_tape_text(t, tx, &x.len);
    m.is_int = nm->kind == SD_INT && !nm->big;
    m.i = m.is_int ? nm->num.i : 0;
    m.d = sd_node_number(nm);
    m.s = nm->str;
    m.len = nm->len;
    if (decimal_parts(&x, &a, &ea) == 0 && decimal_parts(&m, &b, &eb) == 0 && b != 0) {
        /* x/m = (a/b) * 10^(ea-eb): an integer iff b divides a*10^(ea-eb) */
        int d = ea - eb;
        if (a == 0)
            return 1;
        if (d >= 0) {
            /* a * 10^d mod b, d up to ~800 (1e308 / 1e-308): by steps mod b */
            u128 v = a % b;
            for (int i = 0; i < d; i++)
                v = v * 10 % b;
            return v == 0;
        }
        if (d < 0 && d >= -19) {
            u128 w = b;
            for (int i = 0; i < -d; i++)
                w *= 10;
            return (u128)a % w == 0;
        }
        if (d < -19)
            return 0;   /* |x/m| < 1 and x != 0 */
    }
    {
        /* a text the decimals above cannot read, such as 1e-500 (0 as a
         * double): the quotient against its nearest integer (floor() is
         * compiled inline, as in tree/emit.c: the binary links no libm) */
        double xv = x.d, mv = m.d, q = xv / mv, aq = fabs(q);
        if (!isfinite(q))
            return 0;
        return fabs(aq - floor(aq + 0.5)) <= 1e-9 * (aq > 1.0 ? aq : 1.0);
    }
}

/* A number's text as written, for a message (NUL-terminated in `b`). */
static const char *numtext(const vctx *c, const sd_tval *x, sd_buf *b)
{
    size_t len;
    const char *s = sd_tape_text(c->t, x, &len);
    sd_buf_clear(b);
    if (s)
        sd_buf_put(b, s, len);
    return s ? b->ptr : NULL;
}

#define NUMTXT numtext(c, inst, &txt)

int sd_vwalk__number(vctx *c, const vs *s, const sd_tval *inst)
{
    int ok = 1;
    sd_buf txt = SD_BUF_INIT;
    if (s->min && numcmp(inst, s->min) < 0) {
        ok = 0; if (!c->res) goto out;
        sd_vwalk__err(c, s, "minimum", inst, NULL, SD_MSG_MINIMUM, NUMTXT, s->min->str);
    }
    if (s->max && numcmp(inst, s->max) > 0) {
        ok = 0; if (!c->res) goto out;
        sd_vwalk__err(c, s, "maximum", inst, NULL, SD_MSG_MAXIMUM, NUMTXT, s->max->str);
    }
    if (s->exmin && numcmp(inst, s->exmin) <= 0) {
        ok = 0; if (!c->res) goto out;
        sd_vwalk__err(c, s, s->draft == SD_DRAFT_4 ? "minimum" : "exclusiveMinimum", inst, NULL,
                      SD_MSG_EXCLUSIVE_MINIMUM, NUMTXT, s->exmin->str);
    }
    if (s->exmax && numcmp(inst, s->exmax) >= 0) {
        ok = 0; if (!c->res) goto out;
        sd_vwalk__err(c, s, s->draft == SD_DRAFT_4 ? "maximum" : "exclusiveMaximum", inst, NULL,
                      SD_MSG_EXCLUSIVE_MAXIMUM, NUMTXT, s->exmax->str);
    }
    if (s->mult && !multiple_of(c->t, inst, s->mult)) {
        ok = 0; if (!c->res) goto out;
        sd_vwalk__err(c, s, "multipleOf", inst, NULL, SD_MSG_MULTIPLE_OF, NUMTXT, s->mult->str);
    }
out:
    sd_buf_release(&txt);
    return ok;
}
