/* SPDX-License-Identifier: Apache-2.0 */
/* frame.c - the bytes of the protocol: a header block ("Content-Length:
 * N\r\n", other headers ignored, an empty line) then N bytes of JSON. In:
 * a file descriptor. Out: one message body at a time, or the reason a
 * header block was refused (malformed, no Content-Length, a body over the
 * limit, which is skipped as it streams by, never kept). Writing is the
 * same framing the other way, and the JSON-RPC messages written with it. */
#include "lsp_int.h"
#include "alloc.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HEADER_MAX 8192
#define CHUNK      65536

/* Read more bytes after buf[len). Returns > 0, 0 at the end, < 0 on error. */
static long fill(sd_lsp_reader *r)
{
    if (r->eof)
        return 0;
    if (r->pos == r->len)
        r->pos = r->len = 0;
    if (r->pos > 0 && r->cap - r->len < CHUNK) {
        memmove(r->buf, r->buf + r->pos, r->len - r->pos);
        r->len -= r->pos;
        r->pos = 0;
    }
    if (r->cap - r->len < CHUNK) {
        char *b = realloc(r->buf, r->len + CHUNK);
        if (!b)
            return sd_alloc_note_failure(), -1;
        r->buf = b;
        r->cap = r->len + CHUNK;
    }
    for (;;) {
        ssize_t n = read(r->fd, r->buf + r->len, r->cap - r->len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            r->eof = 1;
            return n < 0 ? -1 : 0;
        }
        r->len += (size_t)n;
        return (long)n;
    }
}

/* The end of the header block in buf[pos..len): the offset after its empty
 * line, or 0 when it has not all arrived. */
static size_t header_end(const sd_lsp_reader *r)
{
    for (size_t i = r->pos; i < r->len; i++) {
        if (r->buf[i] != '\n')
            continue;
        /* "\n\n" or "\n\r\n": an empty line */
        if (i + 1 < r->len && r->buf[i + 1] == '\n')
            return i + 2;
        if (i + 2 < r->len && r->buf[i + 1] == '\r' && r->buf[i + 2] == '\n')
            return i + 3;
    }
    return 0;
}

/* Skip `n` body bytes without keeping them. 0, or 0 at the end too. */
static void skip(sd_lsp_reader *r, unsigned long long n)
{
    while (n) {
        if (r->pos == r->len && fill(r) <= 0)
            return;
        size_t have = r->len - r->pos, k = n < have ? (size_t)n : have;
        r->pos += k;
        n -= k;
    }
}

/* The value of Content-Length in the header block [p, e): 1 with *out, 0
 * when absent, -1 when malformed (reason in why). */
static int parse_header(const char *p, const char *e, unsigned long long *out, sd_buf *why)
{
    int found = 0;
    while (p < e) {
        const char *nl = memchr(p, '\n', (size_t)(e - p));
        const char *le = nl ? nl : e;
        size_t n = (size_t)(le - p);
        if (n && p[n - 1] == '\r')
            n--;
        if (n == 0)
            break;   /* the empty line */
        const char *colon = memchr(p, ':', n);
        if (!colon) {
            sd_buf_printf(why, "malformed header line (no ':'): \"%.*s\"", (int)(n > 60 ? 60 : n), p);
            return -1;
        }
        if ((size_t)(colon - p) == 14 && strncasecmp(p, "Content-Length", 14) == 0) {
            const char *v = colon + 1, *ve = p + n;
            unsigned long long x = 0;
            int digits = 0;
            while (v < ve && (*v == ' ' || *v == '\t'))
                v++;
            while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t'))
                ve--;
            for (; v < ve && *v >= '0' && *v <= '9'; v++, digits++) {
                if (x > (ULLONG_MAX - 9) / 10) {
                    x = ULLONG_MAX;   /* refused as too large below */
                    continue;
                }
                x = x * 10 + (unsigned)(*v - '0');
            }
            if (!digits || v != ve) {
                sd_buf_printf(why, "malformed Content-Length: \"%.*s\"", (int)(n > 60 ? 60 : n), p);
                return -1;
            }
            if (found && x != *out) {
                sd_buf_puts(why, "two different Content-Length headers");
                return -1;
            }
            *out = x;
            found = 1;
        }
        p = nl ? nl + 1 : e;
    }
    return found;
}

int sd_lsp__read(sd_lsp_reader *r, sd_buf *body, size_t max, sd_buf *why)
{
    size_t he;
    unsigned long long cl = 0;

    sd_buf_clear(body);
    sd_buf_clear(why);
    /* blank lines between messages are no header */
    for (;;) {
        while (r->pos < r->len && (r->buf[r->pos] == '\r' || r->buf[r->pos] == '\n'))
            r->pos++;
        if (r->pos < r->len && (he = header_end(r)))
            break;
        if (r->len - r->pos > HEADER_MAX) {
            /* no empty line where a header block would have ended: drop
             * what came, keep looking */
            sd_buf_printf(why, "no message header in the %zu bytes read (no empty line after the header)",
                          r->len - r->pos);
            r->pos = r->len;
            return -1;
        }
        long n = fill(r);
        if (n <= 0) {
            if (n < 0 && !r->eof)
                return 0;
            if (r->pos < r->len) {   /* a header cut short at the end */
                sd_buf_puts(why, "the input ended inside a message header");
                r->pos = r->len;
                return -1;
            }
            return 0;
        }
    }
    int h = parse_header(r->buf + r->pos, r->buf + he, &cl, why);
    r->pos = he;
    if (h < 0)
        return -1;
    if (h == 0) {
        sd_buf_puts(why, "a message header without Content-Length");
        return -1;
    }
    if (cl > max) {
        sd_buf_printf(why, "a message of %llu bytes is over the limit of %zu bytes; skipped", cl, max);
        skip(r, cl);
        return -1;
    }
    size_t need = (size_t)cl;
    if (sd_buf_grow(body, need + 1) < 0) {
        sd_buf_printf(why, "out of memory for a message of %zu bytes; skipped", need);
        skip(r, cl);
        return -1;
    }
    /* what has come already, then the rest read straight into the body:
     * a large message is read in large pieces, copied once */
    size_t have = r->len - r->pos, k = need < have ? need : have;
    sd_buf_put(body, r->buf + r->pos, k);
    r->pos += k;
    while (body->len < need) {
        ssize_t n = r->eof ? 0 : read(r->fd, body->ptr + body->len, need - body->len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            r->eof = 1;
            body->ptr[body->len] = '\0';
            return 0;   /* the input ended inside the body */
        }
        body->len += (size_t)n;
    }
    body->ptr[body->len] = '\0';
    return 1;
}

int sd_lsp__pending(sd_lsp_reader *r)
{
    struct pollfd p = { r->fd, POLLIN, 0 };
    if (r->pos < r->len)
        return 1;
    if (r->eof)
        return 0;
    return poll(&p, 1, 0) > 0 && (p.revents & POLLIN);
}

static int write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return SD_EIO;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int sd_lsp__write(int fd, const char *body, size_t len)
{
    char h[64];
    int n = snprintf(h, sizeof h, "Content-Length: %zu\r\n\r\n", len);
    if (write_all(fd, h, (size_t)n) < 0 || write_all(fd, body, len) < 0)
        return SD_EIO;
    return 0;
}

/* ---- messages out ---------------------------------------------------------------- */

static void send_json(sd_lsp *s, json_t *msg)
{
    char *text;
    if (!msg) {
        sd_alloc_note_failure();
        return;
    }
    text = json_dumps(msg, JSON_COMPACT);
    json_decref(msg);
    if (!text) {
        sd_alloc_note_failure();
        return;
    }
    if (!s->write_failed && sd_lsp__write(s->out_fd, text, strlen(text)) < 0)
        s->write_failed = 1;   /* the client is gone: the loop ends */
    free(text);
}

void sd_lsp__reply(sd_lsp *s, json_t *id, json_t *result)
{
    send_json(s, json_pack("{s:s,s:O,s:o}", "jsonrpc", "2.0", "id", id ? id : json_null(),
                           "result", result ? result : json_null()));
}

void sd_lsp__error(sd_lsp *s, json_t *id, int code, const char *msg)
{
    send_json(s, json_pack("{s:s,s:O,s:{s:i,s:s}}", "jsonrpc", "2.0", "id", id ? id : json_null(),
                           "error", "code", code, "message", msg));
}

void sd_lsp__notify(sd_lsp *s, const char *method, json_t *params)
{
    send_json(s, json_pack("{s:s,s:s,s:o}", "jsonrpc", "2.0", "method", method,
                           "params", params ? params : json_null()));
}


void sd_lsp__request(sd_lsp *s, const char *method, json_t *params)
{
    send_json(s, json_pack("{s:s,s:I,s:s,s:o}", "jsonrpc", "2.0", "id", (json_int_t)++s->next_id, "method", method,
                           "params", params ? params : json_null()));
}
