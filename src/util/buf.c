/* SPDX-License-Identifier: Apache-2.0 */
/* buf.c - growable strings (see buf.h for the invariants). */
#include "buf.h"
#include "alloc.h"
#include "sd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char sd_buf__empty[1];

void sd_buf_init(sd_buf *b, size_t cap)
{
    b->ptr = sd_buf__empty;
    b->len = b->alloc = 0;
    b->cap = cap;
    b->failed = 0;
    b->spill = NULL;
    b->spill_ctx = NULL;
}

void sd_buf_release(sd_buf *b)
{
    if (b->alloc)
        free(b->ptr);
    b->ptr = sd_buf__empty;
    b->len = b->alloc = 0;
    b->failed = 0;
}

void sd_buf_clear(sd_buf *b)
{
    b->len = 0;
    b->ptr[0] = '\0';
    b->failed = 0;
}

int sd_buf_grow(sd_buf *b, size_t extra)
{
    size_t need, n;
    char *p;

    if (b->failed)
        return b->failed;
    if (extra > (size_t)-1 / 2 - b->len) {
        sd_alloc_note_failure();
        return b->failed = SD_ENOMEM;
    }
    need = b->len + extra + 1;
    if (b->cap && need > b->cap + 1)
        return b->failed = SD_ELIMIT;
    if (need <= b->alloc)
        return 0;
    if (b->spill && !b->cap && b->len >= SD_BUF_SPILL_AT) {
        int r = b->spill(b->spill_ctx, b->ptr, b->len);
        if (r < 0)
            return b->failed = SD_EIO;
        if (r > 0) {
            b->spill = NULL;
        } else {
            b->len = 0;
            b->ptr[0] = '\0';
            if ((need = extra + 1) <= b->alloc)
                return 0;
        }
    }
    n = b->alloc ? b->alloc : 64;
    while (n < need)
        n += n / 2 + 16;
    p = realloc(b->alloc ? b->ptr : NULL, n);
    if (!p) {
        sd_alloc_note_failure();   /* callers that never look still fail at the end */
        return b->failed = SD_ENOMEM;
    }
    if (!b->alloc)
        p[0] = '\0';
    b->ptr = p;
    b->alloc = n;
    return 0;
}

void sd_buf__put_slow(sd_buf *b, const char *s, size_t n)
{
    if (n == 0 || sd_buf_grow(b, n))
        return;
    memmove(b->ptr + b->len, s, n);
    b->len += n;
    b->ptr[b->len] = '\0';
}

void sd_buf__putc_slow(sd_buf *b, char c)
{
    if (sd_buf_grow(b, 1))
        return;
    b->ptr[b->len++] = c;
    b->ptr[b->len] = '\0';
}

void sd_buf_vprintf(sd_buf *b, const char *fmt, va_list ap)
{
    va_list cp;
    int n;

    if (b->failed)
        return;
    va_copy(cp, ap);
    n = vsnprintf(b->ptr + b->len, b->alloc ? b->alloc - b->len : 0, fmt, cp);
    va_end(cp);
    if (n < 0) {
        b->failed = SD_ENOMEM;
        return;
    }
    if (b->alloc && (size_t)n < b->alloc - b->len) {
        b->len += (size_t)n;
        return;
    }
    if (sd_buf_grow(b, (size_t)n))
        return;
    vsnprintf(b->ptr + b->len, b->alloc - b->len, fmt, ap);
    b->len += (size_t)n;
}

void sd_buf_printf(sd_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sd_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

void sd_buf_put_escaped(sd_buf *b, enum sd_esc esc, const char *s, size_t n)
{
    size_t i, start = 0;
    const char *rep;
    char tmp[8];

    if (esc == SD_ESC_NONE) {
        sd_buf_put(b, s, n);
        return;
    }
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        rep = NULL;
        if (esc == SD_ESC_JSON) {
            switch (c) {
            case '"': rep = "\\\""; break;
            case '\\': rep = "\\\\"; break;
            case '\n': rep = "\\n"; break;
            case '\r': rep = "\\r"; break;
            case '\t': rep = "\\t"; break;
            case '\b': rep = "\\b"; break;
            case '\f': rep = "\\f"; break;
            case '<': rep = "\\u003c"; break;  /* no </script> or <!-- breakout */
            case '>': rep = "\\u003e"; break;
            case '&': rep = "\\u0026"; break;
            default:
                if (c < 0x20) {
                    snprintf(tmp, sizeof tmp, "\\u%04x", c);
                    rep = tmp;
                }
            }
        } else {
            switch (c) {
            case '&': rep = "&amp;"; break;
            case '<': rep = "&lt;"; break;
            case '>': rep = "&gt;"; break;
            case '"': rep = "&quot;"; break;
            case '\'': rep = "&#39;"; break;
            }
        }
        if (rep) {
            sd_buf_put(b, s + start, i - start);
            sd_buf_puts(b, rep);
            start = i + 1;
        }
    }
    sd_buf_put(b, s + start, n - start);
}

void sd_buf_put_int(sd_buf *b, long long v)
{
    char tmp[24];
    int k = (int)sizeof tmp;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do tmp[--k] = (char)('0' + u % 10); while ((u /= 10) && k > 1);
    if (v < 0)
        tmp[--k] = '-';
    sd_buf_put(b, tmp + k, sizeof tmp - (size_t)k);
}

void sd_buf_truncate(sd_buf *b, size_t len)
{
    if (len < b->len) {
        b->len = len;
        b->ptr[len] = '\0';
    }
}

char *sd_buf_detach(sd_buf *b)
{
    char *p;

    if (b->failed) {
        sd_buf_release(b);
        return NULL;
    }
    p = b->alloc ? b->ptr : calloc(1, 1);
    if (!p)
        sd_alloc_note_failure();   /* the caller's NULL is an out-of-memory one */
    sd_buf_init(b, b->cap);
    return p;
}

void sd_buf_put_go_json(sd_buf *b, const char *s, size_t n, int html)
{
    static const char hex[] = "0123456789abcdef";
    size_t i = 0, start = 0;

    sd_buf_putc(b, '"');
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        size_t l = 1;
        const char *rep = NULL;
        char u[7];
        if (c < 0x80) {
            if (c >= 0x20 && c != '"' && c != '\\' && !(html && (c == '<' || c == '>' || c == '&'))) {
                i++;
                continue;
            }
            switch (c) {
            case '"': rep = "\\\""; break;
            case '\\': rep = "\\\\"; break;
            case '\n': rep = "\\n"; break;
            case '\r': rep = "\\r"; break;
            case '\t': rep = "\\t"; break;
            default:
                memcpy(u, "\\u00", 4);
                u[4] = hex[c >> 4], u[5] = hex[c & 15], u[6] = '\0';
                rep = u;
            }
        } else if (!(l = sd_utf8_len((const unsigned char *)s + i, (const unsigned char *)s + n))) {
            rep = "\\ufffd", l = 1;   /* Go: one replacement per invalid byte */
        } else if (l == 3 && c == 0xE2 && (unsigned char)s[i + 1] == 0x80 &&
                   ((unsigned char)s[i + 2] == 0xA8 || (unsigned char)s[i + 2] == 0xA9)) {
            rep = (unsigned char)s[i + 2] == 0xA8 ? "\\u2028" : "\\u2029";
        } else {
            i += l;
            continue;
        }
        sd_buf_put(b, s + start, i - start);
        sd_buf_puts(b, rep);
        i += l;
        start = i;
    }
    sd_buf_put(b, s + start, n - start);
    sd_buf_putc(b, '"');
}

void sd_buf_put_md_code(sd_buf *b, const char *s, size_t n, unsigned flags)
{
    size_t run = 0, best = 0;
    int pad = n && (s[0] == '`' || s[n - 1] == '`' || s[0] == ' ');

    for (size_t i = 0; i < n; i++) {
        run = s[i] == '`' ? run + 1 : 0;
        if (run > best)
            best = run;
    }
    for (size_t i = 0; i <= best; i++)
        sd_buf_putc(b, '`');
    if (pad)
        sd_buf_putc(b, ' ');
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '\n' || c == '\r' || (c == '\t' && (flags & SD_MD_CODE_CELL)))
            sd_buf_putc(b, ' ');
        else if (c == '|' && (flags & SD_MD_CODE_CELL))
            sd_buf_puts(b, "\\|");
        else
            sd_buf_putc(b, c);
    }
    if (pad)
        sd_buf_putc(b, ' ');
    for (size_t i = 0; i <= best; i++)
        sd_buf_putc(b, '`');
}

size_t sd_utf8_len(const unsigned char *p, const unsigned char *end)
{
    unsigned c = p[0], cp;
    size_t n;
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) n = 2, cp = c & 0x1F;
    else if (c >= 0xE0 && c <= 0xEF) n = 3, cp = c & 0x0F;
    else if (c >= 0xF0 && c <= 0xF4) n = 4, cp = c & 0x07;
    else return 0;
    if ((size_t)(end - p) < n) return 0;
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80) return 0;
        cp = cp << 6 | (p[i] & 0x3F);
    }
    if ((n == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
        return 0;
    return n;
}

int sd_hex4(const char *p, unsigned *out)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
        else return -1;
    }
    *out = v;
    return 0;
}

long sd_json_unescape(const char *run, const char *end, char *out, const char **bad)
{
    char *o = out;
    while (run < end) {
        if (*run != '\\') { *o++ = *run++; continue; }
        run++;
        switch (*run) {
        case 'b': *o++ = '\b'; run++; break;
        case 'f': *o++ = '\f'; run++; break;
        case 'n': *o++ = '\n'; run++; break;
        case 'r': *o++ = '\r'; run++; break;
        case 't': *o++ = '\t'; run++; break;
        case 'u': {
            unsigned cp, lo;
            if (sd_hex4(run + 1, &cp)) {
                *bad = run + 1;
                return -1;
            }
            run += 5;
            if (cp >= 0xD800 && cp <= 0xDBFF && run + 6 <= end && run[0] == '\\' && run[1] == 'u' &&
                !sd_hex4(run + 2, &lo) && lo >= 0xDC00 && lo <= 0xDFFF) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                run += 6;
            } else if (cp >= 0xD800 && cp <= 0xDFFF) {
                cp = 0xFFFD; /* lone surrogate: the replacement character (jansson refuses it) */
            }
            o += sd_utf8_encode(cp, o);
            break;
        }
        default: *o++ = *run++; break;   /* \" \\ \/ */
        }
    }
    *o = '\0';
    return (long)(o - out);
}

size_t sd_utf8_encode(unsigned long cp, char *o)
{
    if (cp < 0x80) { o[0] = (char)cp; return 1; }
    if (cp < 0x800) { o[0] = (char)(0xC0 | cp >> 6); o[1] = (char)(0x80 | (cp & 0x3F)); return 2; }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | cp >> 12); o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F)); return 3;
    }
    o[0] = (char)(0xF0 | cp >> 18); o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F)); o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}
