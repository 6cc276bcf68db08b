/* vuri.c - the resolver's URI helpers: RFC 3986 resolution and file URIs
 * delegate to uri.c; percent-decoding appends to an sd_buf (§2.1). */
#include "resolve.h"
#include "uri.h"
#include "buf.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* RFC 3986 resolution and file URIs are uri.c's; these keep the
 * resolver's malloc-or-NULL shape. */
char *sd_vuri_resolve(const char *base, const char *ref)
{
    char *out = NULL;
    return sd_uri_resolve(&out, base, ref) == 0 ? out : NULL;
}

char *sd_vuri_from_path(const char *path)
{
    char *out = NULL;
    return sd_uri_from_path(&out, path) == 0 ? out : NULL;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Percent-decode `s` into `out` (an invalid escape is kept as written). */
void sd_vuri__pct_decode(sd_buf *out, const char *s, size_t n)
{
    size_t start = 0;
    const char *pct = memchr(s, '%', n);
    if (!pct) {
        sd_buf_put(out, s, n); /* the common case: nothing to decode */
        return;
    }
    for (size_t i = (size_t)(pct - s); i < n; i++) {
        int a, b;
        if (s[i] == '%' && i + 2 < n &&
            (a = hexval((unsigned char)s[i + 1])) >= 0 && (b = hexval((unsigned char)s[i + 2])) >= 0) {
            sd_buf_put(out, s + start, i - start);
            sd_buf_putc(out, (char)(a * 16 + b));
            i += 2;
            start = i + 1;
        }
    }
    sd_buf_put(out, s + start, n - start);
}

