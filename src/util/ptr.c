/* SPDX-License-Identifier: Apache-2.0 */
/* ptr.c - JSON Pointers (RFC 6901): escaping, unescaping, parsing. */
#include "ptr.h"
#include "sd.h"
#include "uri.h"

#include <stdlib.h>
#include <string.h>

void sd_ptr_push(sd_buf *out, const char *tok, size_t n)
{
    size_t start = 0;

    sd_buf_putc(out, '/');
    /* most tokens need no escape: copy runs between the rare '~' and '/' */
    for (size_t i = 0; i < n; i++) {
        if (tok[i] != '~' && tok[i] != '/')
            continue;
        sd_buf_put(out, tok + start, i - start);
        sd_buf_puts(out, tok[i] == '~' ? "~0" : "~1");
        start = i + 1;
    }
    sd_buf_put(out, tok + start, n - start);
}

void sd_ptr_push_uri(sd_buf *out, const char *tok, size_t n)
{
    sd_buf_putc(out, '/');
    for (size_t i = 0; i < n; i++) {
        if (tok[i] == '~')
            sd_buf_puts(out, "~0");
        else if (tok[i] == '/')
            sd_buf_puts(out, "~1");
        else
            sd_uri_pct_encode(out, tok + i, 1, "/?");
    }
}

const char *sd_ptr_next(sd_buf *tok, const char *p)
{
    const char *q = p + 1, *run = q;

    sd_buf_clear(tok);
    for (; *q && *q != '/'; q++) {
        if (*q == '~' && (q[1] == '0' || q[1] == '1')) {
            sd_buf_put(tok, run, (size_t)(q - run));
            sd_buf_putc(tok, q[1] == '0' ? '~' : '/');
            run = ++q + 1;
        }
    }
    sd_buf_put(tok, run, (size_t)(q - run));
    return q;
}

int sd_ptr_valid(const char *s, size_t n)
{
    if (n == 0)
        return 1;
    if (s[0] != '/')
        return 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] == '~' && (i + 1 >= n || (s[i + 1] != '0' && s[i + 1] != '1')))
            return 0;
    return 1;
}

int sd_ptr_parse(sd_ptr *out, const char *s, size_t n, int from_fragment)
{
    char *text = NULL, *mem;
    size_t len = n, i, k, count = 0;
    int err;

    memset(out, 0, sizeof *out);
    if (from_fragment) {
        if ((err = sd_uri_pct_decode(&text, &len, s, n)) < 0)
            return err;
        s = text;
    }
    if (!sd_ptr_valid(s, len)) {
        free(text);
        return SD_ESYNTAX;
    }
    if (len == 0) {
        free(text);
        return 0;
    }
    for (i = 0; i < len; i++)
        if (s[i] == '/')
            count++;
    /* one block: the pointer array, the length array, then the token bytes */
    mem = malloc(count * (sizeof(char *) + sizeof(size_t)) + len + count);
    if (!mem) {
        free(text);
        return SD_ENOMEM;
    }
    out->seg = (char **)(void *)mem;
    out->len = (size_t *)(void *)(mem + count * sizeof(char *));
    {
        char *d = mem + count * (sizeof(char *) + sizeof(size_t));
        for (i = 0, k = 0; i < len; k++) {
            size_t m = 0;
            out->seg[k] = d;
            for (i++; i < len && s[i] != '/'; i++) {
                if (s[i] == '~') {
                    d[m++] = s[i + 1] == '1' ? '/' : '~';
                    i++;
                } else {
                    d[m++] = s[i];
                }
            }
            d[m] = '\0';
            out->len[k] = m;
            d += m + 1;
        }
    }
    out->n = count;
    free(text);
    return 0;
}

void sd_ptr_release(sd_ptr *p)
{
    free(p->seg);
    memset(p, 0, sizeof *p);
}
