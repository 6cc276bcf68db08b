/* SPDX-License-Identifier: Apache-2.0 */
/* uri.c - parse, resolve and normalise URI references (RFC 3986), convert
 * file paths to and from file URIs, and parse JSON Pointers (RFC 6901).
 *
 * In: strings. Out: new malloc'd strings; no I/O besides getcwd(). */
#include "uri.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* ---- parsing (RFC 3986 appendix B) -------------------------------------- */

static int scheme_char(int c, int first)
{
    if (isalpha(c))
        return 1;
    return !first && (isdigit(c) || c == '+' || c == '-' || c == '.');
}

void sd_uri_parse(sd_uri *out, const char *s, size_t n)
{
    size_t i = 0, j;

    memset(out, 0, sizeof *out);
    /* scheme: up to the first ':' if it comes before any of "/?#" */
    for (j = 0; j < n && s[j] != ':' && s[j] != '/' && s[j] != '?' && s[j] != '#'; j++)
        ;
    if (j > 0 && j < n && s[j] == ':') {
        size_t k;
        for (k = 0; k < j && scheme_char((unsigned char)s[k], k == 0); k++)
            ;
        if (k == j) {
            out->scheme.p = s;
            out->scheme.n = j;
            i = j + 1;
        }
    }
    if (n - i >= 2 && s[i] == '/' && s[i + 1] == '/') {
        i += 2;
        for (j = i; j < n && s[j] != '/' && s[j] != '?' && s[j] != '#'; j++)
            ;
        out->authority.p = s + i;
        out->authority.n = j - i;
        i = j;
    }
    for (j = i; j < n && s[j] != '?' && s[j] != '#'; j++)
        ;
    out->path.p = s + i;
    out->path.n = j - i;
    i = j;
    if (i < n && s[i] == '?') {
        for (j = ++i; j < n && s[j] != '#'; j++)
            ;
        out->query.p = s + i;
        out->query.n = j - i;
        i = j;
    }
    if (i < n && s[i] == '#') {
        out->fragment.p = s + i + 1;
        out->fragment.n = n - i - 1;
    }
}

int sd_uri_has_scheme(const char *s)
{
    sd_uri u;
    sd_uri_parse(&u, s, strlen(s));
    return u.scheme.p != NULL;
}

int sd_uri_scheme_is(const char *s, const char *scheme)
{
    sd_uri u;
    sd_uri_parse(&u, s, strlen(s));
    return u.scheme.p && u.scheme.n == strlen(scheme)
        && strncasecmp(u.scheme.p, scheme, u.scheme.n) == 0;
}

/* ---- resolution (§5.2) -------------------------------------------------- */

static void fail(sd_buf *b)
{
    if (!b->failed)
        b->failed = SD_ENOMEM;
}

/* §5.2.4: append remove_dot_segments(in) to out. */
static void remove_dots(sd_buf *out, const char *path, size_t n)
{
    size_t start = out->len, i = 0;
    char *in;

    if (!(in = malloc(n + 1))) {
        fail(out);
        return;
    }
    memcpy(in, path, n);
    in[n] = '\0';
    while (i < n) {
        const char *p = in + i;
        size_t rest = n - i;
        if (rest >= 3 && memcmp(p, "../", 3) == 0) {
            i += 3;                                           /* A */
        } else if (rest >= 2 && memcmp(p, "./", 2) == 0) {
            i += 2;
        } else if (rest >= 3 && memcmp(p, "/./", 3) == 0) {
            i += 2;                                           /* B */
        } else if (rest == 2 && memcmp(p, "/.", 2) == 0) {
            i += 1;
            in[i] = '/';
        } else if ((rest >= 4 && memcmp(p, "/../", 4) == 0)
                   || (rest == 3 && memcmp(p, "/..", 3) == 0)) { /* C */
            size_t k = out->len;
            if (rest == 3) {
                i += 2;
                in[i] = '/';
            } else {
                i += 3;
            }
            while (k > start && out->ptr[k - 1] != '/')
                k--;
            if (k > start)
                k--;
            sd_buf_truncate(out, k);
        } else if ((rest == 1 && p[0] == '.') || (rest == 2 && memcmp(p, "..", 2) == 0)) {
            i = n;                                            /* D */
        } else {                                              /* E */
            size_t j = i + 1;
            while (j < n && in[j] != '/')
                j++;
            sd_buf_put(out, in + i, j - i);
            i = j;
        }
    }
    free(in);
}

static void put_part(sd_buf *b, const char *pre, sd_uri_part p)
{
    if (p.p) {
        sd_buf_puts(b, pre);
        sd_buf_put(b, p.p, p.n);
    }
}

int sd_uri_resolve(char **out, const char *base, const char *ref)
{
    sd_uri B, R;
    sd_buf t = SD_BUF_INIT;
    sd_uri_part query;

    *out = NULL;
    sd_uri_parse(&B, base, strlen(base));
    sd_uri_parse(&R, ref, strlen(ref));
    if (R.scheme.p) {
        sd_buf_put(&t, R.scheme.p, R.scheme.n);
        sd_buf_putc(&t, ':');
        put_part(&t, "//", R.authority);
        remove_dots(&t, R.path.p, R.path.n);
        query = R.query;
    } else {
        if (B.scheme.p) {
            sd_buf_put(&t, B.scheme.p, B.scheme.n);
            sd_buf_putc(&t, ':');
        }
        if (R.authority.p) {
            put_part(&t, "//", R.authority);
            remove_dots(&t, R.path.p, R.path.n);
            query = R.query;
        } else {
            put_part(&t, "//", B.authority);
            if (R.path.n == 0) {
                sd_buf_put(&t, B.path.p, B.path.n);
                query = R.query.p ? R.query : B.query;
            } else if (R.path.p[0] == '/') {
                remove_dots(&t, R.path.p, R.path.n);
                query = R.query;
            } else {
                /* §5.2.3 merge, then remove dot segments from the whole */
                sd_buf m = SD_BUF_INIT;
                if (B.authority.p && B.path.n == 0) {
                    sd_buf_putc(&m, '/');
                } else {
                    size_t k = B.path.n;
                    while (k > 0 && B.path.p[k - 1] != '/')
                        k--;
                    sd_buf_put(&m, B.path.p, k);
                }
                sd_buf_put(&m, R.path.p, R.path.n);
                if (sd_buf_failed(&m))
                    fail(&t);
                else
                    remove_dots(&t, m.ptr, m.len);
                sd_buf_release(&m);
                query = R.query;
            }
        }
    }
    put_part(&t, "?", query);
    put_part(&t, "#", R.fragment);
    if (sd_buf_failed(&t)) {
        sd_buf_release(&t);
        return SD_ENOMEM;
    }
    *out = sd_buf_detach(&t);
    return 0;
}

/* ---- normalisation (§6.2.2) --------------------------------------------- */

static int unreserved(int c)
{
    return isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~';
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Append a component with escapes normalised: %hh -> %HH, and decoded when
 * the byte is unreserved (§6.2.2.2). `lower` lowercases other bytes (host). */
static void put_normal(sd_buf *b, const char *s, size_t n, int lower)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t i;

    for (i = 0; i < n; i++) {
        int c = (unsigned char)s[i];
        if (c == '%' && i + 2 < n && hexval((unsigned char)s[i + 1]) >= 0
            && hexval((unsigned char)s[i + 2]) >= 0) {
            int v = hexval((unsigned char)s[i + 1]) * 16 + hexval((unsigned char)s[i + 2]);
            if (unreserved(v)) {
                sd_buf_putc(b, (char)(lower ? tolower(v) : v));
            } else {
                sd_buf_putc(b, '%');
                sd_buf_putc(b, hex[v >> 4]);
                sd_buf_putc(b, hex[v & 15]);
            }
            i += 2;
        } else {
            sd_buf_putc(b, (char)(lower ? tolower(c) : c));
        }
    }
}

int sd_uri_normalize(char **out, const char *uri)
{
    sd_buf t = SD_BUF_INIT, path = SD_BUF_INIT;
    sd_uri u;
    int http = 0, https = 0, file = 0;

    *out = NULL;
    sd_uri_parse(&u, uri, strlen(uri));
    if (u.scheme.p) {
        put_normal(&t, u.scheme.p, u.scheme.n, 1);
        sd_buf_putc(&t, ':');
        http = strcmp(t.ptr, "http:") == 0;
        https = strcmp(t.ptr, "https:") == 0;
        file = strcmp(t.ptr, "file:") == 0;
    }
    if (u.authority.p) {
        /* userinfo keeps its case; the host and port do not have one */
        const char *a = u.authority.p, *at = memchr(a, '@', u.authority.n);
        size_t hn, ui = at ? (size_t)(at - a) + 1 : 0;
        const char *h = a + ui;
        hn = u.authority.n - ui;
        /* drop an empty or default port; an IPv6 literal ends with ']' */
        {
            size_t k = hn;
            while (k > 0 && isdigit((unsigned char)h[k - 1]))
                k--;
            if (k > 0 && h[k - 1] == ':') {
                size_t port_len = hn - k;
                if (port_len == 0 || (http && port_len == 2 && memcmp(h + k, "80", 2) == 0)
                    || (https && port_len == 3 && memcmp(h + k, "443", 3) == 0))
                    hn = k - 1;
            }
        }
        if (file && hn == 9 && strncasecmp(h, "localhost", 9) == 0)
            hn = 0;
        sd_buf_puts(&t, "//");
        put_normal(&t, a, ui, 0);
        put_normal(&t, h, hn, 1);
    } else if (file) {
        sd_buf_puts(&t, "//");
    }
    put_normal(&path, u.path.p, u.path.n, 0);
    if (u.scheme.p && !sd_buf_failed(&path))
        remove_dots(&t, path.ptr, path.len);
    else
        sd_buf_put(&t, path.ptr, path.len);
    if ((http || https) && u.authority.p && u.path.n == 0)
        sd_buf_putc(&t, '/');
    if (u.query.p) {
        sd_buf_putc(&t, '?');
        put_normal(&t, u.query.p, u.query.n, 0);
    }
    if (u.fragment.p) {
        sd_buf_putc(&t, '#');
        put_normal(&t, u.fragment.p, u.fragment.n, 0);
    }
    if (sd_buf_failed(&path))
        fail(&t);
    sd_buf_release(&path);
    if (sd_buf_failed(&t)) {
        sd_buf_release(&t);
        return SD_ENOMEM;
    }
    *out = sd_buf_detach(&t);
    return 0;
}

int sd_uri_split_fragment(char **out_base, char **out_frag, const char *uri)
{
    const char *h = strchr(uri, '#');
    size_t n = h ? (size_t)(h - uri) : strlen(uri);
    char *b = NULL, *f = NULL;

    if (out_base) {
        if (!(b = malloc(n + 1)))
            return SD_ENOMEM;
        memcpy(b, uri, n);
        b[n] = '\0';
    }
    if (out_frag && h && !(f = strdup(h + 1))) {
        free(b);
        return SD_ENOMEM;
    }
    if (out_base)
        *out_base = b;
    if (out_frag)
        *out_frag = f;
    return 0;
}

/* ---- percent-encoding --------------------------------------------------- */

void sd_uri_pct_decode_append(sd_buf *out, const char *s, size_t n)
{
    size_t start = 0;
    const char *pct = memchr(s, '%', n);

    if (!pct) {
        sd_buf_put(out, s, n); /* the common case: nothing to decode */
        return;
    }
    for (size_t i = (size_t)(pct - s); i < n; i++) {
        int hi, lo;
        if (s[i] == '%' && i + 2 < n && (hi = hexval((unsigned char)s[i + 1])) >= 0
            && (lo = hexval((unsigned char)s[i + 2])) >= 0) {
            sd_buf_put(out, s + start, i - start);
            sd_buf_putc(out, (char)(hi * 16 + lo));
            i += 2;
            start = i + 1;
        }
    }
    sd_buf_put(out, s + start, n - start);
}

int sd_uri_pct_decode(char **out, size_t *out_len, const char *s, size_t n)
{
    char *d = malloc(n + 1);
    size_t i, k = 0;

    *out = NULL;
    if (out_len)
        *out_len = 0;
    if (!d)
        return SD_ENOMEM;
    for (i = 0; i < n; i++) {
        int hi, lo;
        if (s[i] == '%' && i + 2 < n && (hi = hexval((unsigned char)s[i + 1])) >= 0
            && (lo = hexval((unsigned char)s[i + 2])) >= 0) {
            d[k++] = (char)(hi * 16 + lo);
            i += 2;
        } else {
            d[k++] = s[i];
        }
    }
    d[k] = '\0';
    *out = d;
    if (out_len)
        *out_len = k;
    return 0;
}

void sd_uri_pct_encode(sd_buf *out, const char *s, size_t n, const char *keep)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t i;

    for (i = 0; i < n; i++) {
        int c = (unsigned char)s[i];
        if (unreserved(c) || (c && strchr("!$&'()*+,;=:@", c)) || (c && keep && strchr(keep, c))) {
            sd_buf_putc(out, (char)c);
        } else {
            sd_buf_putc(out, '%');
            sd_buf_putc(out, hex[c >> 4]);
            sd_buf_putc(out, hex[c & 15]);
        }
    }
}

/* ---- file paths --------------------------------------------------------- */

int sd_uri_from_path(char **out, const char *path)
{
    sd_buf abs = SD_BUF_INIT, enc = SD_BUF_INIT, t = SD_BUF_INIT;
    size_t i;

    *out = NULL;
    if (path[0] != '/') {
        char cwd[PATH_MAX];
        if (!getcwd(cwd, sizeof cwd))
            return errno == ENOMEM ? SD_ENOMEM : SD_EIO;
        sd_buf_puts(&abs, cwd);
        sd_buf_putc(&abs, '/');
    }
    /* collapse repeated slashes */
    for (i = 0; path[i]; i++)
        if (!(path[i] == '/' && ((i > 0 && path[i - 1] == '/')
                                 || (i == 0 && abs.len && abs.ptr[abs.len - 1] == '/'))))
            sd_buf_putc(&abs, path[i]);
    sd_uri_pct_encode(&enc, abs.ptr, abs.len, "/");
    sd_buf_puts(&t, "file://");
    if (!sd_buf_failed(&enc))
        remove_dots(&t, enc.ptr, enc.len);
    /* "a/.." ends as "/" already; "/a/." too: the trailing slash survives */
    if (sd_buf_failed(&abs) || sd_buf_failed(&enc))
        fail(&t);
    sd_buf_release(&abs);
    sd_buf_release(&enc);
    if (sd_buf_failed(&t)) {
        sd_buf_release(&t);
        return SD_ENOMEM;
    }
    *out = sd_buf_detach(&t);
    return 0;
}

int sd_uri_to_path(char **out, const char *uri)
{
    sd_uri u;
    char *p;
    size_t n;
    int err;

    *out = NULL;
    sd_uri_parse(&u, uri, strlen(uri));
    if (!u.scheme.p || u.scheme.n != 4 || strncasecmp(u.scheme.p, "file", 4) != 0)
        return SD_EINVALID;
    if (u.authority.p && u.authority.n != 0
        && !(u.authority.n == 9 && strncasecmp(u.authority.p, "localhost", 9) == 0))
        return SD_EINVALID;
    if (u.path.n == 0 || u.path.p[0] != '/')
        return SD_EINVALID;
    if ((err = sd_uri_pct_decode(&p, &n, u.path.p, u.path.n)) < 0)
        return err;
    if (strlen(p) != n) {
        free(p);
        return SD_ESYNTAX;
    }
    *out = p;
    return 0;
}
