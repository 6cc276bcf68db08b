/* vuri.c - RFC 3986 URI reference resolution (§5.2) with dot-segment
 * removal, file paths as file:// URIs, and percent-decoding (§2.1), for the
 * resolver and its file loader. (src/uri.c from the fetch work may replace
 * this; the names differ so both can live side by side until then.) */
#include "resolve.h"
#include "buf.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct uri_parts {
    const char *scheme; size_t scheme_len; int has_scheme;
    const char *auth;   size_t auth_len;   int has_auth;
    const char *path;   size_t path_len;
    const char *query;  size_t query_len;  int has_query;
    const char *frag;   size_t frag_len;   int has_frag;
} uri_parts;

/* RFC 3986 appendix B, written out. */
static void uri_split(const char *s, uri_parts *u)
{
    const char *p = s;
    memset(u, 0, sizeof *u);
    if (isalpha((unsigned char)*p)) {
        const char *q = p + 1;
        while (isalnum((unsigned char)*q) || *q == '+' || *q == '-' || *q == '.')
            q++;
        if (*q == ':') {
            u->has_scheme = 1;
            u->scheme = p;
            u->scheme_len = (size_t)(q - p);
            p = q + 1;
        }
    }
    if (p[0] == '/' && p[1] == '/') {
        p += 2;
        u->has_auth = 1;
        u->auth = p;
        while (*p && *p != '/' && *p != '?' && *p != '#')
            p++;
        u->auth_len = (size_t)(p - u->auth);
    }
    u->path = p;
    while (*p && *p != '?' && *p != '#')
        p++;
    u->path_len = (size_t)(p - u->path);
    if (*p == '?') {
        u->has_query = 1;
        u->query = ++p;
        while (*p && *p != '#')
            p++;
        u->query_len = (size_t)(p - u->query);
    }
    if (*p == '#') {
        u->has_frag = 1;
        u->frag = p + 1;
        u->frag_len = strlen(p + 1);
    }
}

/* RFC 3986 §5.2.4 remove_dot_segments of `in`, appended to `dst`. */
static void remove_dots(sd_buf *dst, const char *in, size_t n)
{
    sd_buf b = SD_BUF_INIT, o = SD_BUF_INIT, *out = &o;
    const char *p = in, *end = in + n;

    sd_buf_put(&b, in, n);
    p = b.ptr;
    end = b.ptr + b.len;
    while (p < end) {
        size_t rest = (size_t)(end - p);
        if (rest >= 3 && memcmp(p, "../", 3) == 0) { p += 3; continue; }
        if (rest >= 2 && memcmp(p, "./", 2) == 0) { p += 2; continue; }
        if (rest >= 3 && memcmp(p, "/./", 3) == 0) { p += 2; continue; }
        if (rest == 2 && memcmp(p, "/.", 2) == 0) { sd_buf_putc(out, '/'); break; }
        if ((rest >= 4 && memcmp(p, "/../", 4) == 0) || (rest == 3 && memcmp(p, "/..", 3) == 0)) {
            char *slash;
            p += 3;
            sd_buf_truncate(out, out->len);
            slash = out->len ? strrchr(out->ptr, '/') : NULL;
            sd_buf_truncate(out, slash ? (size_t)(slash - out->ptr) : 0);
            if (p == end) { sd_buf_putc(out, '/'); break; }
            continue;
        }
        if ((rest == 1 && *p == '.') || (rest == 2 && memcmp(p, "..", 2) == 0))
            break;
        /* move the first segment (with its leading '/') to the output */
        {
            const char *q = p + (*p == '/');
            while (q < end && *q != '/')
                q++;
            sd_buf_put(out, p, (size_t)(q - p));
            p = q;
        }
    }
    sd_buf_put(dst, o.ptr, o.len);
    sd_buf_release(&o);
    sd_buf_release(&b);
}

char *sd_vuri_resolve(const char *base, const char *ref)
{
    uri_parts b, r;
    sd_buf t = SD_BUF_INIT;

    uri_split(base ? base : "", &b);
    uri_split(ref, &r);
    /* §5.2.2, strict parser */
    if (r.has_scheme) {
        sd_buf_put(&t, r.scheme, r.scheme_len);
        sd_buf_putc(&t, ':');
        if (r.has_auth) { sd_buf_puts(&t, "//"); sd_buf_put(&t, r.auth, r.auth_len); }
        remove_dots(&t, r.path, r.path_len);
        if (r.has_query) { sd_buf_putc(&t, '?'); sd_buf_put(&t, r.query, r.query_len); }
    } else {
        if (b.has_scheme) { sd_buf_put(&t, b.scheme, b.scheme_len); sd_buf_putc(&t, ':'); }
        if (r.has_auth) {
            sd_buf_puts(&t, "//");
            sd_buf_put(&t, r.auth, r.auth_len);
            remove_dots(&t, r.path, r.path_len);
            if (r.has_query) { sd_buf_putc(&t, '?'); sd_buf_put(&t, r.query, r.query_len); }
        } else {
            if (b.has_auth) { sd_buf_puts(&t, "//"); sd_buf_put(&t, b.auth, b.auth_len); }
            if (r.path_len == 0) {
                sd_buf_put(&t, b.path, b.path_len);
                if (r.has_query) { sd_buf_putc(&t, '?'); sd_buf_put(&t, r.query, r.query_len); }
                else if (b.has_query) { sd_buf_putc(&t, '?'); sd_buf_put(&t, b.query, b.query_len); }
            } else {
                if (r.path[0] == '/') {
                    remove_dots(&t, r.path, r.path_len);
                } else {
                    /* §5.2.3 merge */
                    sd_buf m = SD_BUF_INIT;
                    if (b.has_auth && b.path_len == 0) {
                        sd_buf_putc(&m, '/');
                    } else {
                        size_t k = b.path_len;
                        while (k > 0 && b.path[k - 1] != '/')
                            k--;
                        sd_buf_put(&m, b.path, k);
                    }
                    sd_buf_put(&m, r.path, r.path_len);
                    remove_dots(&t, m.ptr, m.len);
                    sd_buf_release(&m);
                }
                if (r.has_query) { sd_buf_putc(&t, '?'); sd_buf_put(&t, r.query, r.query_len); }
            }
        }
    }
    if (r.has_frag) { sd_buf_putc(&t, '#'); sd_buf_put(&t, r.frag, r.frag_len); }
    return sd_buf_detach(&t);
}

char *sd_vuri_from_path(const char *path)
{
    sd_buf t = SD_BUF_INIT;
    sd_buf_puts(&t, "file://");
    if (path[0] != '/') {
        char cwd[PATH_MAX];
        if (getcwd(cwd, sizeof cwd)) {
            for (const char *c = cwd; *c; c++)
                if (isalnum((unsigned char)*c) || strchr("/-._~", *c))
                    sd_buf_putc(&t, *c);
                else
                    sd_buf_printf(&t, "%%%02X", (unsigned char)*c);
        }
        sd_buf_putc(&t, '/');
    }
    for (const char *c = path; *c; c++)
        if (isalnum((unsigned char)*c) || strchr("/-._~", *c))
            sd_buf_putc(&t, *c);
        else
            sd_buf_printf(&t, "%%%02X", (unsigned char)*c);
    /* tidy "a/./b" and "a/../b" the way a resolver would */
    {
        char *raw = sd_buf_detach(&t), *out;
        if (!raw)
            return NULL;
        out = sd_vuri_resolve(raw, "");
        free(raw);
        return out;
    }
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
    for (size_t i = 0; i < n; i++) {
        int a, b;
        if (s[i] == '%' && i + 2 < n &&
            (a = hexval((unsigned char)s[i + 1])) >= 0 && (b = hexval((unsigned char)s[i + 2])) >= 0) {
            sd_buf_putc(out, (char)(a * 16 + b));
            i += 2;
        } else {
            sd_buf_putc(out, s[i]);
        }
    }
}

