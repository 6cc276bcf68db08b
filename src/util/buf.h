/* SPDX-License-Identifier: Apache-2.0 */
/* buf.h - growable NUL-terminated byte strings with a sticky failure flag.
 *
 * Invariants (git strbuf): ptr is never NULL and always NUL-terminated.
 * A write past the cap, or a failed allocation, sets `failed` and later
 * writes are ignored, so callers check once at the end (libgit2 git_str). */
#ifndef SD_BUF_H
#define SD_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

typedef struct sd_buf {
    char  *ptr;
    size_t len;
    size_t alloc;   /* 0 while ptr points at the shared empty string */
    size_t cap;     /* 0 = no cap */
    int    failed;  /* SD_ENOMEM, SD_ELIMIT or SD_EIO once a write failed */
    /* Optional: when the buffer would grow while it holds SD_BUF_SPILL_AT
     * bytes or more, its text goes to spill() and it starts empty again.
     * For an output written only at its end (sd_out_open), whose text is
     * never read back. Not while a cap is set (a cap counts the bytes in the
 * buffer). spill() returns 0, < 0 to fail the buffer, or > 0 to stop
 * spilling (the buffer keeps its text and grows as usual). */
    int  (*spill)(void *ctx, const char *p, size_t n);
    void  *spill_ctx;
} sd_buf;

#define SD_BUF_SPILL_AT ((size_t)64 << 10)

extern char sd_buf__empty[1];
#define SD_BUF_INIT { sd_buf__empty, 0, 0, 0, 0, NULL, NULL }

enum sd_esc {
    SD_ESC_NONE = 0,
    SD_ESC_HTML,   /* & < > " ' */
    SD_ESC_ATTR,   /* same set; attribute values are always double-quoted */
    SD_ESC_JSON    /* JSON string body, also safe inside <script> (</ and <!-- escaped) */
};

/** Start an empty buffer that refuses to grow beyond `cap` bytes (0: no cap). */
void sd_buf_init(sd_buf *b, size_t cap);
/** Free the storage; the buffer is empty and reusable afterwards. */
void sd_buf_release(sd_buf *b);
void sd_buf_clear(sd_buf *b);
int  sd_buf_grow(sd_buf *b, size_t extra);
void sd_buf__put_slow(sd_buf *b, const char *s, size_t n);
void sd_buf__putc_slow(sd_buf *b, char c);
/* `n` bytes of `s` (which may lie inside the buffer): the common case
 * inline, as for sd_buf_putc() */
static inline void sd_buf_put(sd_buf *b, const char *s, size_t n)
{
    size_t need = b->len + n + 1;
    if (n && need > n && need <= b->alloc && !b->failed && (!b->cap || need <= b->cap + 1)) {
        memmove(b->ptr + b->len, s, n);
        b->len += n;
        b->ptr[b->len] = '\0';
        return;
    }
    sd_buf__put_slow(b, s, n);
}
static inline void sd_buf_puts(sd_buf *b, const char *s) { sd_buf_put(b, s, strlen(s)); }
/* One byte: the common case (room, no cap reached, not failed) inline. */
static inline void sd_buf_putc(sd_buf *b, char c)
{
    size_t need = b->len + 2;
    if (need <= b->alloc && !b->failed && (!b->cap || need <= b->cap + 1)) {
        b->ptr[b->len++] = c;
        b->ptr[b->len] = '\0';
        return;
    }
    sd_buf__putc_slow(b, c);
}
void sd_buf_printf(sd_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void sd_buf_vprintf(sd_buf *b, const char *fmt, va_list ap);
void sd_buf_put_escaped(sd_buf *b, enum sd_esc esc, const char *s, size_t n);
/** `s` as a JSON string, quotes included, byte for byte as Go's
 *  encoding/json writes it (the one writer for helm-docs' toJson and the
 *  Go tools' schemas): " \\ \n \r \t escaped as such, other bytes below
 *  0x20 as \u00XX, with `html` < > & as \u003c \u003e \u0026 too (toJson;
 *  toRawJson and json.Marshal with SetEscapeHTML(false) not), U+2028 and
 *  U+2029 as \u2028 \u2029, each byte of invalid UTF-8 as \ufffd. */
void sd_buf_put_go_json(sd_buf *b, const char *s, size_t n, int html);
/** `s` as a Markdown code span, with a fence longer than any backtick run
 *  in it (and a space inside each fence when it starts or ends with a
 *  backtick or starts with a space). Line endings become spaces, as
 *  CommonMark reads them in a code span anyway: a span is never cut by the
 *  end of a heading or a table row. With SD_MD_CODE_CELL, for a GFM table
 *  cell, '|' is written as "\|" and tabs become spaces too. The one
 *  code-span writer of the md page (render/) and the diff's tables (diff/). */
enum { SD_MD_CODE_CELL = 1 };
void sd_buf_put_md_code(sd_buf *b, const char *s, size_t n, unsigned flags);
/** `v` in decimal, without printf (which costs more than a short record). */
void sd_buf_put_int(sd_buf *b, long long v);
/** Write code point `cp` (at most U+10FFFF) as UTF-8 to `out` (room for
 *  4 bytes); returns the number of bytes written. */
size_t sd_utf8_encode(unsigned long cp, char *out);
/** The length (1-4) of the valid UTF-8 sequence at `p` (before `end`), or
 *  0: a stray or cut sequence, an overlong form, a surrogate, past U+10FFFF. */
size_t sd_utf8_len(const unsigned char *p, const unsigned char *end);
/** The four hex digits at `p` (which has 4 bytes) into *out; -1 when one is
 *  not a hex digit. */
int sd_hex4(const char *p, unsigned *out);
/** Decode the body [s, end) of a JSON string whose escapes are well formed
 *  (but for the digits of \u) into `out`, which may be `s` itself: the
 *  result is never longer. A \uD800-\uDBFF \uDC00-\uDFFF pair is one
 *  code point, a lone surrogate U+FFFD. NUL-terminates `out` and returns the
 *  bytes written, or -1 with *bad at a \u's first digit that is not hex. */
long sd_json_unescape(const char *s, const char *end, char *out, const char **bad);
/** Drop the last `n` bytes (or everything when n >= len). */
void sd_buf_truncate(sd_buf *b, size_t len);
static inline int sd_buf_failed(const sd_buf *b) { return b->failed != 0; }
static inline int sd_buf_error(const sd_buf *b) { return b->failed; }
/** Hand the string to the caller, who frees it with free(); the buffer is
 *  empty again. Returns NULL if the buffer had failed. */
char *sd_buf_detach(sd_buf *b);

#endif
