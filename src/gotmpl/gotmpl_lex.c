/* SPDX-License-Identifier: Apache-2.0 */
/* gotmpl_lex.c - Go text/template text -> tokens (text/template/parse/lex.go
 * rules): text runs, {{ }} with the "{{- " and " -}}" trim markers, comments,
 * and inside actions fields, variables, identifiers, keywords, numbers,
 * strings, raw strings, character constants, pipes, parentheses, := and =. */
#include "gotmpl_lex.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct lexer {
    const char *s;
    size_t n, pos;
    /* position cursor: line and column of offset `cur` */
    size_t cur;
    int line, col;
    int paren;
    gtok *toks;
    size_t ntoks, cap;
    char *err;          /* first error, malloc'd */
    int eline, ecol;
    int oom;            /* a token could not be stored */
} lexer;

static void move_to(lexer *lx, size_t off)
{
    while (lx->cur < off) {
        unsigned char c = (unsigned char)lx->s[lx->cur++];
        if (c == '\n') {
            lx->line++;
            lx->col = 1;
        } else if ((c & 0xC0) != 0x80) {
            lx->col++;
        }
    }
}

static int lerror(lexer *lx, size_t off, const char *fmt, ...)
{
    va_list ap;
    char buf[256];
    if (lx->err)
        return -1;
    if (off < lx->cur) {
        /* an error before the cursor: count again from the start */
        lx->cur = 0;
        lx->line = lx->col = 1;
    }
    move_to(lx, off);
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    lx->err = strdup(buf);
    lx->eline = lx->line;
    lx->ecol = lx->col;
    return -1;
}

static int emit(lexer *lx, int t, size_t start, size_t end)
{
    if (lx->ntoks == lx->cap) {
        size_t cap = lx->cap ? lx->cap * 2 : 256;
        gtok *v = realloc(lx->toks, cap * sizeof *v);
        if (!v) {
            lx->oom = 1;
            return lerror(lx, start, "out of memory");
        }
        lx->toks = v;
        lx->cap = cap;
    }
    move_to(lx, start);
    gtok *k = &lx->toks[lx->ntoks++];
    k->t = t;
    k->p = lx->s + start;
    k->n = end - start;
    k->line = lx->line;
    k->col = lx->col;
    return 0;
}

static int is_space(int c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
static int is_alnum(int c)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || (c & 0x80);
}

static int at(const lexer *lx, size_t p, const char *lit)
{
    size_t l = strlen(lit);
    return p + l <= lx->n && memcmp(lx->s + p, lit, l) == 0;
}

/* At a right delimiter: 1 "}}", 2 " -}}" (trim); 0 otherwise. */
static int at_right(const lexer *lx, size_t p)
{
    if (p + 4 <= lx->n && is_space((unsigned char)lx->s[p]) && lx->s[p + 1] == '-' &&
        lx->s[p + 2] == '}' && lx->s[p + 3] == '}')
        return 2;
    return at(lx, p, "}}") ? 1 : 0;
}

static int at_terminator(const lexer *lx, size_t p)
{
    if (p >= lx->n)
        return 1;
    int c = (unsigned char)lx->s[p];
    if (is_space(c) || c == '.' || c == ',' || c == '|' || c == ':' || c == ')' || c == '(')
        return 1;
    return at(lx, p, "}}");
}

static size_t skip_space(const lexer *lx, size_t p)
{
    while (p < lx->n && is_space((unsigned char)lx->s[p]))
        p++;
    return p;
}

static const struct { const char *w; int t; } keywords[] = {
    { "block", GT_BLOCK }, { "break", GT_BREAK }, { "continue", GT_CONTINUE },
    { "define", GT_DEFINE }, { "else", GT_ELSE }, { "end", GT_END }, { "if", GT_IF },
    { "range", GT_RANGE }, { "nil", GT_NIL }, { "template", GT_TEMPLATE },
    { "with", GT_WITH }, { "true", GT_BOOL }, { "false", GT_BOOL }, { NULL, 0 }
};

static size_t scan_number(lexer *lx, size_t p, int *ok)
{
    const char *digits = "0123456789_";
    size_t q = p;
    if (q < lx->n && (lx->s[q] == '+' || lx->s[q] == '-'))
        q++;
    if (q < lx->n && lx->s[q] == '0') {
        q++;
        if (q < lx->n && (lx->s[q] == 'x' || lx->s[q] == 'X')) { q++; digits = "0123456789abcdefABCDEF_"; }
        else if (q < lx->n && (lx->s[q] == 'o' || lx->s[q] == 'O')) { q++; digits = "01234567_"; }
        else if (q < lx->n && (lx->s[q] == 'b' || lx->s[q] == 'B')) { q++; digits = "01_"; }
    }
    while (q < lx->n && lx->s[q] && strchr(digits, lx->s[q]))
        q++;
    if (q < lx->n && lx->s[q] == '.') {
        q++;
        while (q < lx->n && lx->s[q] && strchr(digits, lx->s[q]))
            q++;
    }
    if (strlen(digits) == 11 && q < lx->n && (lx->s[q] == 'e' || lx->s[q] == 'E')) {
        q++;
        if (q < lx->n && (lx->s[q] == '+' || lx->s[q] == '-'))
            q++;
        while (q < lx->n && lx->s[q] && strchr("0123456789_", lx->s[q]))
            q++;
    }
    if (strlen(digits) == 23 && q < lx->n && (lx->s[q] == 'p' || lx->s[q] == 'P')) {
        q++;
        if (q < lx->n && (lx->s[q] == '+' || lx->s[q] == '-'))
            q++;
        while (q < lx->n && lx->s[q] && strchr("0123456789_", lx->s[q]))
            q++;
    }
    if (q < lx->n && lx->s[q] == 'i')
        q++;
    *ok = !(q < lx->n && is_alnum((unsigned char)lx->s[q]));
    return q;
}

/* Lex one action starting after "{{" (and its trim marker) at `p`; returns
 * the offset after the closing delimiter and its trailing trim. */
static size_t lex_action(lexer *lx, size_t p, size_t open)
{
    for (;;) {
        int r = at_right(lx, p);
        if (r) {
            if (lx->paren > 0)
                return lerror(lx, p, "unclosed left paren"), lx->n;
            emit(lx, GT_RDELIM, p, p + (r == 2 ? 4 : 2));
            p += r == 2 ? 4 : 2;
            return r == 2 ? skip_space(lx, p) : p;
        }
        if (p >= lx->n)
            return lerror(lx, open, "unclosed action"), lx->n;
        int c = (unsigned char)lx->s[p];
        size_t q;
        if (is_space(c)) {
            q = p;
            while (q < lx->n && is_space((unsigned char)lx->s[q]))
                q++;
            /* a space before " -}}" belongs to the trim marker */
            if (at_right(lx, q - 1) == 2) {
                q--;
                if (q == p)
                    continue;
            }
            emit(lx, GT_SPACE, p, q);
            p = q;
        } else if (c == '=') {
            emit(lx, GT_ASSIGN, p, p + 1);
            p++;
        } else if (c == ':') {
            if (p + 1 >= lx->n || lx->s[p + 1] != '=')
                return lerror(lx, p, "expected :="), lx->n;
            emit(lx, GT_DECLARE, p, p + 2);
            p += 2;
        } else if (c == '|') {
            emit(lx, GT_PIPE, p, p + 1);
            p++;
        } else if (c == '"') {
            for (q = p + 1;; q++) {
                if (q >= lx->n || lx->s[q] == '\n')
                    return lerror(lx, p, "unterminated quoted string"), lx->n;
                if (lx->s[q] == '\\') {
                    q++;
                    if (q >= lx->n || lx->s[q] == '\n')
                        return lerror(lx, p, "unterminated quoted string"), lx->n;
                } else if (lx->s[q] == '"') {
                    break;
                }
            }
            emit(lx, GT_STRING, p, q + 1);
            p = q + 1;
        } else if (c == '`') {
            const char *e = memchr(lx->s + p + 1, '`', lx->n - p - 1);
            if (!e)
                return lerror(lx, p, "unterminated raw quoted string"), lx->n;
            q = (size_t)(e - lx->s);
            emit(lx, GT_RAWSTRING, p, q + 1);
            p = q + 1;
        } else if (c == '\'') {
            for (q = p + 1;; q++) {
                if (q >= lx->n || lx->s[q] == '\n')
                    return lerror(lx, p, "unterminated character constant"), lx->n;
                if (lx->s[q] == '\\') {
                    q++;
                    if (q >= lx->n || lx->s[q] == '\n')
                        return lerror(lx, p, "unterminated character constant"), lx->n;
                } else if (lx->s[q] == '\'') {
                    break;
                }
            }
            emit(lx, GT_CHAR, p, q + 1);
            p = q + 1;
        } else if (c == '$' || (c == '.' && !(p + 1 < lx->n && lx->s[p + 1] >= '0' && lx->s[p + 1] <= '9'))) {
            q = p + 1;
            if (at_terminator(lx, q)) {
                emit(lx, c == '$' ? GT_VARIABLE : GT_DOT, p, q);
                p = q;
                continue;
            }
            while (q < lx->n && is_alnum((unsigned char)lx->s[q]))
                q++;
            if (!at_terminator(lx, q))
                return lerror(lx, q, "bad character '%c'", lx->s[q]), lx->n;
            emit(lx, c == '$' ? GT_VARIABLE : GT_FIELD, p, q);
            p = q;
        } else if (c == '+' || c == '-' || c == '.' || (c >= '0' && c <= '9')) {
            int ok;
            q = scan_number(lx, p, &ok);
            if (!ok)
                return lerror(lx, p, "bad number syntax: \"%.*s\"", (int)(q - p + 1), lx->s + p), lx->n;
            emit(lx, GT_NUMBER, p, q);
            p = q;
        } else if (is_alnum(c)) {
            q = p;
            while (q < lx->n && is_alnum((unsigned char)lx->s[q]))
                q++;
            if (!at_terminator(lx, q))
                return lerror(lx, q, "bad character '%c'", lx->s[q]), lx->n;
            int t = GT_IDENT;
            for (int k = 0; keywords[k].w; k++)
                if (strlen(keywords[k].w) == q - p && memcmp(keywords[k].w, lx->s + p, q - p) == 0)
                    t = keywords[k].t;
            emit(lx, t, p, q);
            p = q;
        } else if (c == '(') {
            lx->paren++;
            emit(lx, GT_LPAREN, p, p + 1);
            p++;
        } else if (c == ')') {
            if (--lx->paren < 0)
                return lerror(lx, p, "unexpected right paren"), lx->n;
            emit(lx, GT_RPAREN, p, p + 1);
            p++;
        } else if (c < 0x7f && c > 0x20) {
            emit(lx, GT_CHARTOK, p, p + 1);
            p++;
        } else {
            return lerror(lx, p, "unrecognized character in action: 0x%02X", c), lx->n;
        }
        if (lx->err)
            return lx->n;
    }
}

int sd_gotmpl__lex(gtok **out, size_t *count, const char *s, size_t n,
                   char **err, int *eline, int *ecol)
{
    lexer lx;
    size_t p = 0;

    memset(&lx, 0, sizeof lx);
    lx.s = s;
    lx.n = n;
    lx.line = lx.col = 1;
    while (p < n && !lx.err) {
        const char *o = NULL;
        for (size_t q = p; q + 1 < n; q++)
            if (s[q] == '{' && s[q + 1] == '{') { o = s + q; break; }
        if (!o) {
            emit(&lx, GT_TEXT, p, n);
            break;
        }
        size_t at_o = (size_t)(o - s), te = at_o, a = at_o + 2;
        int ltrim = a + 1 < n && s[a] == '-' && is_space((unsigned char)s[a + 1]);
        if (ltrim) {
            while (te > p && is_space((unsigned char)s[te - 1]))
                te--;
            a += 2;
        }
        if (te > p)
            emit(&lx, GT_TEXT, p, te);
        if (at(&lx, a, "/*")) {
            const char *e = NULL;
            for (size_t q = a + 2; q + 1 < n; q++)
                if (s[q] == '*' && s[q + 1] == '/') { e = s + q; break; }
            if (!e) {
                lerror(&lx, at_o, "unclosed comment");
                break;
            }
            size_t q = (size_t)(e - s) + 2;
            int r = at_right(&lx, q);
            if (!r) {
                lerror(&lx, at_o, "comment ends before closing delimiter");
                break;
            }
            p = q + (r == 2 ? 4 : 2);
            if (r == 2)
                p = skip_space(&lx, p);
            continue;
        }
        emit(&lx, GT_LDELIM, at_o, a);
        p = lex_action(&lx, a, at_o);
    }
    if (!lx.err)
        emit(&lx, GT_EOF, n, n);
    if (lx.err) {
        free(lx.toks);
        *err = lx.err;
        *eline = lx.eline;
        *ecol = lx.ecol;
        return -1;
    }
    *out = lx.toks;
    *count = lx.ntoks;
    return 0;
}

/* The offset after the first "}}" at or after `p`, or `n`. */
static size_t after_close(const char *s, size_t n, size_t p)
{
    for (; p + 1 < n; p++)
        if (s[p] == '}' && s[p + 1] == '}')
            return p + 2;
    return n;
}

int sd_gotmpl__lex_actions(const char *s, size_t n,
                           int (*fn)(const gtok *toks, size_t count, void *payload),
                           void *payload)
{
    lexer lx;
    size_t p = 0;
    int rc = 0;

    memset(&lx, 0, sizeof lx);
    lx.s = s;
    lx.n = n;
    lx.line = lx.col = 1;
    while (p < n && !rc) {
        size_t o = p;
        while (o + 1 < n && !(s[o] == '{' && s[o + 1] == '{'))
            o++;
        if (o + 1 >= n)
            break;
        size_t a = o + 2;
        if (a + 1 < n && s[a] == '-' && is_space((unsigned char)s[a + 1]))
            a += 2;
        if (at(&lx, a, "/*")) {
            size_t q = a + 2;
            while (q + 1 < n && !(s[q] == '*' && s[q + 1] == '/'))
                q++;
            if (q + 1 >= n)
                break;               /* an unclosed comment: the rest is comment */
            q += 2;
            int r = at_right(&lx, q);
            p = r ? q + (r == 2 ? 4 : 2) : q;
            continue;
        }
        lx.ntoks = 0;
        emit(&lx, GT_LDELIM, o, a);
        size_t next = lex_action(&lx, a, o);
        if (lx.oom) {
            rc = -1;
            break;
        }
        if (lx.err) {                /* skipped: resume after the next "}}" */
            free(lx.err);
            lx.err = NULL;
            lx.paren = 0;
            p = after_close(s, n, a);
            continue;
        }
        rc = fn(lx.toks, lx.ntoks, payload);
        p = next > p ? next : n;
    }
    free(lx.toks);
    free(lx.err);
    return rc;
}
