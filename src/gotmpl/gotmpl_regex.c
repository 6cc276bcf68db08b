/* SPDX-License-Identifier: Apache-2.0 */
/* gotmpl_regex.c - Sprig's regular expression functions (regexMatch,
 * regexFind, regexFindAll, regexReplaceAll with Go's $1 / ${name}
 * expansion, regexReplaceAllLiteral, regexSplit, regexQuoteMeta). Patterns
 * are Go RE2 syntax, run by PCRE2 with match and depth limits, so a pattern
 * that backtracks badly fails instead of running for ever. */
#include "gotmpl_int.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define S(v) (v).u.s.p, (v).u.s.n

/* --- regular expressions ------------------------------------------------------------------ */

static pcre2_code *re_compile(sd_gcall *c, sd_gval re, int must)
{
    int ec;
    PCRE2_SIZE eo;
    pcre2_code *code = pcre2_compile((PCRE2_SPTR)re.u.s.p, re.u.s.n, PCRE2_UTF,
                                     &ec, &eo, NULL);
    if (!code && must) {
        PCRE2_UCHAR msg[160];
        pcre2_get_error_message(ec, msg, sizeof msg);
        sd_gcall_fail(c, "error parsing regexp: %s at offset %zu", (const char *)msg, (size_t)eo);
    }
    return code;
}

typedef struct rectx {
    pcre2_code *code;
    pcre2_match_data *md;
    pcre2_match_context *mc;
    const char *checked;   /* the subject whose UTF-8 is known to be valid */
} rectx;

/* The next match at or after `start`; returns 1 with ovector filled, 0 none, <0 error.
 * Each search is one step. PCRE2 checks a subject's UTF-8 from its start at
 * every call (quadratic over many matches): it is checked at the first
 * call only, and later searches of the same subject skip the check.
 * A search that backtracks is charged for it: it runs with a match limit of
 * RE_LIMIT_START, and each time PCRE2 stops at the limit, the limit's work
 * is counted against the step bound (RE_STEP_COST steps a unit) and the
 * search runs again with four times the limit, up to RE_LIMIT_MAX (then "too costly"). So the work of
 * many searches is bounded as the template's steps are (a pattern such as
 * '(a|aa)*c|x' costs up to a million match calls at every match while
 * counting one step: 3,000 matches ran 5 s). */
#define RE_LIMIT_START 4096u
#define RE_LIMIT_MAX   1048576u
/* steps a unit of PCRE2's match limit costs: a backtracking step of PCRE2
 * takes about four times a template step (measured: 50M steps of a walk in
 * 0.3 s; 12M match units in 0.6 s) */
#define RE_STEP_COST   4u
static int re_next(sd_gcall *c, rectx *x, sd_gval s, size_t start, PCRE2_SIZE **ov)
{
    int rc;
    uint32_t lim = RE_LIMIT_START;
    if (sd_gotmpl__step(c) != 0)
        return c->err;
    for (;;) {
        pcre2_set_match_limit(x->mc, lim);
        rc = pcre2_match(x->code, (PCRE2_SPTR)s.u.s.p, s.u.s.n, start,
                         x->checked == s.u.s.p ? PCRE2_NO_UTF_CHECK : 0, x->md, x->mc);
        if (rc >= 0 || rc == PCRE2_ERROR_NOMATCH || rc == PCRE2_ERROR_PARTIAL || rc == PCRE2_ERROR_MATCHLIMIT)
            x->checked = s.u.s.p;   /* past the UTF-8 check: the subject is valid */
        if (rc != PCRE2_ERROR_MATCHLIMIT || lim >= RE_LIMIT_MAX)
            break;
        if (sd_gotmpl__steps(c, (unsigned long long)lim * RE_STEP_COST) != 0)
            return c->err;
        lim *= 4;
    }
    /* the last run repeated the work of the one before it (the same search) */
    if (lim > RE_LIMIT_START && sd_gotmpl__steps(c, (unsigned long long)lim / 4 * RE_STEP_COST) != 0)
        return c->err;
    if (rc == PCRE2_ERROR_NOMATCH)
        return 0;
    if (rc < 0) {
        if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT || rc == PCRE2_ERROR_HEAPLIMIT)
            return sd_gcall_fail(c, "regular expression too costly to match (match limit)");
        return 0;   /* e.g. invalid UTF-8 subject: no match */
    }
    *ov = pcre2_get_ovector_pointer(x->md);
    return 1;
}

static int re_open(sd_gcall *c, rectx *x, sd_gval re, int must)
{
    memset(x, 0, sizeof *x);
    if (!(x->code = re_compile(c, re, must)))
        return must ? -1 : 1;
    x->md = pcre2_match_data_create_from_pattern(x->code, NULL);
    x->mc = pcre2_match_context_create(NULL);
    if (!x->md || !x->mc)
        return sd_gcall_fail(c, "out of memory");
    pcre2_set_depth_limit(x->mc, 10000);
    return 0;
}

static void re_close(rectx *x)
{
    pcre2_match_context_free(x->mc);
    pcre2_match_data_free(x->md);
    pcre2_code_free(x->code);
}

/* Each non-overlapping match (Go's allMatches rule for empty matches), up to
 * `max` (negative: all); calls fn(start, end, ovector). */
typedef int (*re_fn)(void *p, size_t a, size_t e, PCRE2_SIZE *ov);
static int re_all(sd_gcall *c, rectx *x, sd_gval s, long long max, re_fn fn, void *payload)
{
    size_t pos = 0, prev_end = (size_t)-1;
    long long count = 0;
    PCRE2_SIZE *ov;
    while (pos <= s.u.s.n && (max < 0 || count < max)) {
        int r = re_next(c, x, s, pos, &ov);
        if (r <= 0)
            return r;
        size_t a = ov[0], e = ov[1];
        if (a == e && a == prev_end) {
            /* an empty match right after the previous match is skipped */
            if (pos >= s.u.s.n)
                break;
            pos++;
            while (pos < s.u.s.n && ((unsigned char)s.u.s.p[pos] & 0xC0) == 0x80)
                pos++;
            continue;
        }
        if ((r = fn(payload, a, e, ov)) < 0)
            return r;
        count++;
        prev_end = e;
        if (e > a)
            pos = e;
        else {
            if (e >= s.u.s.n)
                break;
            pos = e + 1;
            while (pos < s.u.s.n && ((unsigned char)s.u.s.p[pos] & 0xC0) == 0x80)
                pos++;
        }
    }
    return 0;
}

static int f_regexmatch(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    rectx x;
    PCRE2_SIZE *ov;
    int r = re_open(c, &x, a[0], n < 0);
    if (r) {
        *o = sd_gbool(0);
        return r < 0 ? r : 0;
    }
    r = re_next(c, &x, a[1], 0, &ov);
    re_close(&x);
    if (r < 0)
        return r;
    *o = sd_gbool(r);
    return 0;
}

static int f_mustregexmatch(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; return f_regexmatch(o, c, a, -1); }

typedef struct fctx {
    sd_gcall *c;
    sd_gval s, list;
    sd_buf *b;
    sd_gval repl;
    int literal;
    size_t last;
    rectx *x;
    size_t at;        /* regexSplit: where the last match started */
    long long max;    /* regexSplit: at most this many pieces (< 0: all) */
} fctx;

static int collect(void *p, size_t a, size_t e, PCRE2_SIZE *ov)
{
    fctx *f = p;
    (void)ov;
    return sd_glist_push(f->c->heap, f->list, sd_gstr_static(f->s.u.s.p + a, e - a));
}

static int f_regexfind(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    rectx x;
    PCRE2_SIZE *ov;
    int r = re_open(c, &x, a[0], n < 0);
    *o = sd_gstr_static("", 0);
    if (r)
        return r < 0 ? r : 0;
    r = re_next(c, &x, a[1], 0, &ov);
    if (r > 0)
        *o = sd_gstr_static(a[1].u.s.p + ov[0], ov[1] - ov[0]);
    re_close(&x);
    return r < 0 ? r : 0;
}

static int f_regexfindall(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    rectx x;
    fctx f = { c, a[1], sd_glist_new(c->heap, 4), NULL, sd_gmissing(), 0, 0, &x, 0, -1 };
    int r = re_open(c, &x, a[0], n < 0);
    *o = f.list;
    if (r)
        return r < 0 ? r : 0;
    r = re_all(c, &x, a[1], a[2].u.i, collect, &f);
    re_close(&x);
    return r < 0 ? r : 0;
}

/* Go's Regexp.Expand for $1, ${1}, $name, ${name}, $$ */
static void expand(fctx *f, PCRE2_SIZE *ov)
{
    const char *t = f->repl.u.s.p;
    size_t n = f->repl.u.s.n;
    uint32_t groups = 0;
    pcre2_pattern_info(f->x->code, PCRE2_INFO_CAPTURECOUNT, &groups);
    for (size_t i = 0; i < n; i++) {
        if (t[i] != '$' || i + 1 >= n) {
            sd_buf_putc(f->b, t[i]);
            continue;
        }
        if (t[i + 1] == '$') {
            sd_buf_putc(f->b, '$');
            i++;
            continue;
        }
        size_t st = i + 1, en;
        int brace = t[st] == '{';
        if (brace)
            st++;
        en = st;
        while (en < n && (t[en] == '_' || (t[en] >= 'a' && t[en] <= 'z') || (t[en] >= 'A' && t[en] <= 'Z') ||
                          (t[en] >= '0' && t[en] <= '9')))
            en++;
        if (en == st || (brace && (en >= n || t[en] != '}'))) {
            sd_buf_putc(f->b, '$');
            continue;
        }
        char name[64];
        size_t nl = en - st < sizeof name - 1 ? en - st : sizeof name - 1;
        memcpy(name, t + st, nl);
        name[nl] = '\0';
        long g = -1;
        char *e;
        long num = strtol(name, &e, 10);
        if (!*e)
            g = num;
        else
            g = pcre2_substring_number_from_name(f->x->code, (PCRE2_SPTR)name);
        if (g >= 0 && (uint32_t)g <= groups && ov[2 * g] != PCRE2_UNSET)
            sd_buf_put(f->b, f->s.u.s.p + ov[2 * g], ov[2 * g + 1] - ov[2 * g]);
        i = brace ? en : en - 1;
    }
}

static int replace_one(void *p, size_t a, size_t e, PCRE2_SIZE *ov)
{
    fctx *f = p;
    sd_buf_put(f->b, f->s.u.s.p + f->last, a - f->last);
    if (f->literal)
        sd_buf_put(f->b, S(f->repl));
    else
        expand(f, ov);
    f->last = e;
    return sd_buf_failed(f->b) ? SD_ELIMIT : 0;
}

static int do_replace(sd_gval *o, sd_gcall *c, const sd_gval *a, int literal, int must)
{
    rectx x;
    sd_buf b;
    fctx f = { c, a[1], sd_gmissing(), &b, a[2], literal, 0, &x, 0, -1 };
    int r = re_open(c, &x, a[0], must);
    if (r) {
        *o = a[1];
        return r < 0 ? r : 0;
    }
    sd_gotmpl__buf(c, &b);
    r = re_all(c, &x, a[1], -1, replace_one, &f);
    re_close(&x);
    if (r < 0) {
        sd_buf_release(&b);
        return c->err ? c->err : sd_gcall_fail(c, "result too large");
    }
    sd_buf_put(&b, a[1].u.s.p + f.last, a[1].u.s.n - f.last);
    return sd_gotmpl__buf_val(o, c, &b);
}

static int f_regexreplaceall(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; return do_replace(o, c, a, 0, 0); }
static int f_regexreplaceallliteral(sd_gval *o, sd_gcall *c, const sd_gval *a, int n) { (void)n; return do_replace(o, c, a, 1, 0); }

/* Go's Regexp.Split: a piece before each match, but not before an empty
 * match at the start; the rest after the last match unless that match
 * started at the end. f->last is the end of the previous match, f->at
 * the start of the last one. */
static int split_one(void *p, size_t a, size_t e, PCRE2_SIZE *ov)
{
    fctx *f = p;
    (void)ov;
    if (f->max > 0 && (long long)f->list.u.l->n == f->max - 1)
        return 0;   /* n pieces: the rest is the last one, later matches are passed over */
    f->at = a;
    if (e != 0) {
        int r = sd_glist_push(f->c->heap, f->list, sd_gstr_static(f->s.u.s.p + f->last, a - f->last));
        if (r < 0)
            return r;
    }
    f->last = e;
    return 0;
}

static int f_regexsplit(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    rectx x;
    fctx f = { c, a[1], sd_glist_new(c->heap, 4), NULL, sd_gmissing(), 0, 0, &x, 0, a[2].u.i };
    (void)n;
    *o = f.list;
    if (f.max == 0) {
        *o = sd_gnil();
        return 0;
    }
    int r = re_open(c, &x, a[0], 0);
    if (r)
        return 0;
    if (a[0].u.s.n && a[1].u.s.n == 0) {
        re_close(&x);
        sd_glist_push(c->heap, f.list, a[1]);
        return 0;
    }
    r = re_all(c, &x, a[1], f.max, split_one, &f);
    re_close(&x);
    if (r < 0)
        return r;
    if (f.at != a[1].u.s.n)
        sd_glist_push(c->heap, f.list, sd_gstr_static(a[1].u.s.p + f.last, a[1].u.s.n - f.last));
    return 0;
}

static int f_regexquotemeta(sd_gval *o, sd_gcall *c, const sd_gval *a, int n)
{
    sd_buf b;
    (void)n;
    sd_gotmpl__buf(c, &b);
    for (size_t i = 0; i < a[0].u.s.n; i++) {
        if (strchr("\\.+*?()|[]{}^$", a[0].u.s.p[i]) && a[0].u.s.p[i])
            sd_buf_putc(&b, '\\');
        sd_buf_putc(&b, a[0].u.s.p[i]);
    }
    return sd_gotmpl__buf_val(o, c, &b);
}

const gfunc sd_gotmpl__regex_funcs[] = {
    { "mustRegexMatch", "SS", f_mustregexmatch, NULL },
    { "regexFind", "SS", f_regexfind, NULL },
    { "regexFindAll", "SSI", f_regexfindall, NULL },
    { "regexMatch", "SS", f_regexmatch, NULL },
    { "regexQuoteMeta", "S", f_regexquotemeta, NULL },
    { "regexReplaceAll", "SSS", f_regexreplaceall, NULL },
    { "regexReplaceAllLiteral", "SSS", f_regexreplaceallliteral, NULL },
    { "regexSplit", "SSI", f_regexsplit, NULL },
    { NULL, NULL, NULL, NULL }
};
