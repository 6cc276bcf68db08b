/* SPDX-License-Identifier: Apache-2.0 */
/* position.c - positions in an open document: an LSP position (line,
 * character in UTF-8 bytes, UTF-16 code units or code points, as
 * negotiated) to a byte offset and back, a model position (line, column in
 * code points) to a byte offset, and where a key or value ends (the
 * library's tree/span.h, on the document's text). Lines end at "\n"
 * (a "\r" before it belongs to the line break). */
#include "lsp_int.h"
#include "alloc.h"

#include <stdlib.h>
#include <string.h>

int sd_lsp__lines(sd_lsp_doc *d)
{
    size_t n = 1, k = 0;
    const char *t = d->text.ptr, *e = t ? t + d->text.len : t;

    if (d->nlines)
        return 0;
    for (const char *p = t; p < e && (p = memchr(p, '\n', (size_t)(e - p))); p++)
        n++;   /* (p < e first: an empty text's pointer may be NULL after a failed edit) */
    size_t *l = realloc(d->lines, n * sizeof *l);
    if (!l)
        return sd_alloc_note_failure(), SD_ENOMEM;
    d->lines = l;
    l[k++] = 0;
    for (const char *p = t; p < e && (p = memchr(p, '\n', (size_t)(e - p))); p++)
        l[k++] = (size_t)(p - t) + 1;
    d->nlines = n;
    return 0;
}

/* The end of line `i`'s text (before "\n" or "\r\n"). */
static size_t line_end(const sd_lsp_doc *d, size_t i)
{
    size_t e = i + 1 < d->nlines ? d->lines[i + 1] - 1 : d->text.len;
    if (e > d->lines[i] && i + 1 < d->nlines && d->text.ptr[e - 1] == '\r')
        e--;
    return e;
}

/* The code point at p (end: the line's end); its length in bytes in *len.
 * A byte that starts no valid sequence is one code point of its own. */
static unsigned long next_cp(const unsigned char *p, const unsigned char *end, size_t *len)
{
    unsigned long c = p[0];
    size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || p + n > end) {
        *len = 1;
        return c;
    }
    for (size_t i = 1; i < n; i++)
        if ((p[i] & 0xC0) != 0x80) {
            *len = 1;
            return c;
        }
    *len = n;
    if (n == 1)
        return c;
    c &= 0x7F >> n;
    for (size_t i = 1; i < n; i++)
        c = (c << 6) | (p[i] & 0x3F);
    return c;
}

static long units(unsigned long cp, size_t len, int enc)
{
    if (enc == SD_LSP_UTF8)
        return (long)len;
    if (enc == SD_LSP_UTF16)
        return cp >= 0x10000 && len == 4 ? 2 : 1;
    return 1;
}

size_t sd_lsp__offset(sd_lsp_doc *d, long line, long ch, int enc)
{
    if (sd_lsp__lines(d) < 0 || line < 0)
        return 0;
    if ((size_t)line >= d->nlines)
        return d->text.len;
    size_t p = d->lines[line], e = line_end(d, (size_t)line);
    const unsigned char *t = (const unsigned char *)d->text.ptr;
    long u = 0;
    while (p < e && u < ch) {
        size_t len;
        unsigned long cp = next_cp(t + p, t + e, &len);
        long w = units(cp, len, enc);
        if (u + w > ch)
            break;   /* inside a character: its start */
        u += w;
        p += len;
    }
    return p;
}

void sd_lsp__position(sd_lsp_doc *d, size_t off, int enc, long *line, long *ch)
{
    *line = *ch = 0;
    if (sd_lsp__lines(d) < 0)
        return;
    if (off > d->text.len)
        off = d->text.len;
    size_t lo = 0, hi = d->nlines;   /* the last line starting at or before off */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->lines[mid] <= off)
            lo = mid;
        else
            hi = mid;
    }
    size_t p = d->lines[lo], e = line_end(d, lo);
    const unsigned char *t = (const unsigned char *)d->text.ptr;
    long u = 0;
    if (off > e)
        off = e;
    while (p < off) {
        size_t len;
        unsigned long cp = next_cp(t + p, t + e, &len);
        u += units(cp, len, enc);
        p += len;
    }
    *line = (long)lo;
    *ch = u;
}

size_t sd_lsp__loc_offset(sd_lsp_doc *d, int line, int column)
{
    if (line < 1)
        return 0;
    return sd_lsp__offset(d, line - 1, column > 1 ? column - 1 : 0, SD_LSP_UTF32);
}

json_t *sd_lsp__range(sd_lsp_doc *d, size_t from, size_t to, int enc)
{
    long l1, c1, l2, c2;
    sd_lsp__position(d, from, enc, &l1, &c1);
    sd_lsp__position(d, to < from ? from : to, enc, &l2, &c2);
    return json_pack("{s:{s:i,s:i},s:{s:i,s:i}}", "start", "line", (json_int_t)l1, "character",
                     (json_int_t)c1, "end", "line", (json_int_t)l2, "character", (json_int_t)c2);
}

size_t sd_lsp__span_end(sd_lsp_doc *d, size_t off, int what)
{
    long line, ch;
    int el, ec;

    if (!d->span_ok) {
        if (sd_span_text_init(&d->span, d->text.ptr, d->text.len) < 0)
            return sd_alloc_note_failure(), off;
        d->span_ok = 1;
    }
    sd_lsp__position(d, off, SD_LSP_UTF32, &line, &ch);
    if (sd_span_end(&d->span, (int)line + 1, (int)ch + 1, what, &el, &ec) < 0)
        return off;
    return sd_lsp__loc_offset(d, el, ec);
}

void sd_lsp__span_forget(sd_lsp_doc *d)
{
    if (d->span_ok)
        sd_span_text_release(&d->span);
    d->span_ok = 0;
}
