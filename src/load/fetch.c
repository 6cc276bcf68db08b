/* SPDX-License-Identifier: Apache-2.0 */
/* fetch.c - http(s) documents through libcurl, with an on-disk cache.
 *
 * In: an absolute http(s) URL. Out: its bytes, from the cache or the
 * network, or a sentence saying why not. Redirects are followed here, one
 * request at a time, so that each hop's scheme is checked and counted
 * before anything is sent to it (curl's REDIR_PROTOCOLS is set as well).
 *
 * Cache: one file per URL in the cache directory, named by a 64-bit FNV-1a
 * hash of the normalised URL. The file starts with "schemadoc-cache 1\n"
 * and the URL on its own line, which a reader compares, so a hash
 * collision is a miss, never the wrong document. Files are written to a
 * temporary name and renamed into place. */
#include "fetch.h"
#include "file.h"
#include "node.h"
#include "uri.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CACHE_MAGIC "schemadoc-cache 1\n"

struct sd_fetch {
    sd_fetch_opts opts;
    char *cache_dir;          /* NULL: no cache */
    CURL *curl;
    struct curl_slist *headers;
    unsigned long requests;
};

static int curl_users;        /* sd_fetch objects alive: global init/cleanup */

/* libcurl is loaded when the first remote document is fetched, not at
 * start-up: a run that reads only local files maps none of its thirty
 * dependencies (TLS, Kerberos, LDAP, ...). $SD_LIBCURL names another
 * library file (packagers, and the test of the missing-library message). */
static struct {
    void *lib;
    CURLcode (*global_init)(long);
    void (*global_cleanup)(void);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} C;

#define SD_LIBCURL_DEFAULT "libcurl.so.4"

/* Load libcurl and its entry points once. Returns 0, or SD_ENOTFOUND with
 * what to install in `why`. */
static int load_curl(sd_buf *why)
{
    const char *name = getenv("SD_LIBCURL");
    void *lib;

    if (C.lib)
        return 0;
    if (!name || !*name)
        name = SD_LIBCURL_DEFAULT;
    if (!(lib = dlopen(name, RTLD_NOW | RTLD_LOCAL))) {
        sd_buf_printf(why, "remote documents need libcurl, which could not be loaded (%s): "
                      "install it (Debian: apt-get install libcurl4), or read the documents from "
                      "local copies with --map PREFIX=DIR", name);
        return SD_ENOTFOUND;
    }
#define SYM(field, sym) \
    if (!(*(void **)(void *)&C.field = dlsym(lib, sym))) goto missing
    SYM(global_init, "curl_global_init");
    SYM(global_cleanup, "curl_global_cleanup");
    SYM(easy_init, "curl_easy_init");
    SYM(easy_cleanup, "curl_easy_cleanup");
    SYM(easy_setopt, "curl_easy_setopt");
    SYM(easy_perform, "curl_easy_perform");
    SYM(easy_getinfo, "curl_easy_getinfo");
    SYM(easy_strerror, "curl_easy_strerror");
    SYM(slist_append, "curl_slist_append");
    SYM(slist_free_all, "curl_slist_free_all");
#undef SYM
    C.lib = lib;   /* kept until exit: libcurl's globals live in it */
    return 0;
missing:
    sd_buf_printf(why, "'%s' is not a usable libcurl (a function is missing): install Debian's libcurl4", name);
    dlclose(lib);
    memset(&C, 0, sizeof C);
    return SD_ENOTFOUND;
}

/* ---- options ------------------------------------------------------------ */

static char *default_cache_dir(void)
{
    const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    sd_buf b = SD_BUF_INIT;

    /* XDG base directory spec: relative values are invalid and ignored */
    if (x && x[0] == '/')
        sd_buf_printf(&b, "%s/schemadoc", x);
    else if (home && home[0] == '/')
        sd_buf_printf(&b, "%s/.cache/schemadoc", home);
    else
        return NULL;
    return sd_buf_detach(&b);
}

int sd_fetch_new(sd_fetch **out, const sd_fetch_opts *opts)
{
    sd_fetch *f;

    *out = NULL;
    if (!(f = calloc(1, sizeof *f)))
        return SD_ENOMEM;
    if (opts)
        f->opts = *opts;
    f->opts.cache_dir = NULL;
    if (!f->opts.connect_timeout_ms)
        f->opts.connect_timeout_ms = SD_FETCH_CONNECT_TIMEOUT_MS;
    if (!f->opts.timeout_ms)
        f->opts.timeout_ms = SD_FETCH_TIMEOUT_MS;
    if (!f->opts.max_size)
        f->opts.max_size = SD_FETCH_MAX_SIZE;
    if (!f->opts.max_redirects)
        f->opts.max_redirects = SD_FETCH_MAX_REDIRECTS;
    else if (f->opts.max_redirects < 0)
        f->opts.max_redirects = 0;
    if (!f->opts.no_cache) {
        f->cache_dir = opts && opts->cache_dir ? strdup(opts->cache_dir) : default_cache_dir();
        if (opts && opts->cache_dir && !f->cache_dir) {
            free(f);
            return SD_ENOMEM;
        }
    }
    *out = f;
    return 0;
}

void sd_fetch_free(sd_fetch *f)
{
    if (!f)
        return;
    if (f->curl) {
        C.easy_cleanup(f->curl);
        C.slist_free_all(f->headers);
        if (--curl_users == 0)
            C.global_cleanup();
    }
    free(f->cache_dir);
    free(f);
}

const char *sd_fetch_cache_dir(const sd_fetch *f)
{
    return f->cache_dir;
}

unsigned long sd_fetch_requests(const sd_fetch *f)
{
    return f->requests;
}

/* ---- the cache ---------------------------------------------------------- */

static uint64_t fnv1a(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ULL;
    }
    return h;
}

int sd_fetch_cache_path(sd_buf *out, const sd_fetch *f, const char *url)
{
    char *key, *base;
    int err;

    sd_buf_clear(out);
    if (!f->cache_dir)
        return SD_ENOTFOUND;
    if (sd_uri_split_fragment(&base, NULL, url) < 0)
        return SD_ENOMEM;
    err = sd_uri_normalize(&key, base);
    free(base);
    if (err < 0)
        return SD_ENOMEM;
    sd_buf_printf(out, "%s/%016llx.doc", f->cache_dir, (unsigned long long)fnv1a(key));
    free(key);
    return sd_buf_failed(out) ? SD_ENOMEM : 0;
}

/* 1 on a hit (body filled), 0 on a miss, <0 when out of memory. */
static int cache_read(sd_buf *body, const sd_fetch *f, const char *key)
{
    sd_buf path = SD_BUF_INIT;
    sd_diags quiet = SD_DIAGS_INIT;
    size_t hlen = strlen(CACHE_MAGIC), klen = strlen(key), len;
    char *text = NULL;
    int err, hit = 0;

    if ((err = sd_fetch_cache_path(&path, f, key)) < 0)
        return err == SD_ENOTFOUND ? 0 : err;
    err = sd_file_read(&text, &len, path.ptr, f->opts.max_size + hlen + klen + 1, 0, &quiet);
    sd_diags_release(&quiet);
    if (err == 0 && len > hlen + klen && memcmp(text, CACHE_MAGIC, hlen) == 0
        && memcmp(text + hlen, key, klen) == 0 && text[hlen + klen] == '\n') {
        sd_buf_clear(body);
        sd_buf_put(body, text + hlen + klen + 1, len - hlen - klen - 1);
        hit = sd_buf_failed(body) ? SD_ENOMEM : 1;
    } else if (err == SD_ENOMEM) {
        hit = err;
    }
    free(text);
    sd_buf_release(&path);
    return hit;
}

static int mkdir_p(const char *dir)
{
    char *p = strdup(dir), *s;
    int ok = 1;

    if (!p)
        return -1;
    for (s = p + 1; ok && *s; s++) {
        if (*s == '/') {
            *s = '\0';
            if (mkdir(p, 0700) < 0 && errno != EEXIST)
                ok = 0;
            *s = '/';
        }
    }
    if (ok && mkdir(p, 0700) < 0 && errno != EEXIST)
        ok = 0;
    free(p);
    return ok ? 0 : -1;
}

static int write_all(int fd, const char *s, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        s += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Store `body` for `key`: temp file + rename, so a reader never sees half a
 * document. Failures land in `warning`; the fetch itself succeeded. */
static void cache_write(const sd_fetch *f, const char *key, const sd_buf *body,
                        sd_buf *warning)
{
    sd_buf path = SD_BUF_INIT, tmp = SD_BUF_INIT;
    int fd = -1, ok = 0, e = 0;

    if (sd_fetch_cache_path(&path, f, key) < 0)
        goto done;
    sd_buf_printf(&tmp, "%s/.tmp-XXXXXX", f->cache_dir);
    if (sd_buf_failed(&tmp))
        goto done;
    if (mkdir_p(f->cache_dir) < 0 || (fd = mkstemp(tmp.ptr)) < 0) {
        e = errno;
        goto done;
    }
    if (write_all(fd, CACHE_MAGIC, strlen(CACHE_MAGIC)) < 0
        || write_all(fd, key, strlen(key)) < 0 || write_all(fd, "\n", 1) < 0
        || write_all(fd, body->ptr, body->len) < 0) {
        e = errno;
        close(fd);
        unlink(tmp.ptr);
        goto done;
    }
    if (close(fd) < 0 || rename(tmp.ptr, path.ptr) < 0) {
        e = errno;
        unlink(tmp.ptr);
        goto done;
    }
    ok = 1;
done:
    if (!ok && warning)
        sd_buf_printf(warning, "cannot write the cache for '%s' in '%s': %s", key,
                      f->cache_dir, e ? strerror(e) : "out of memory");
    sd_buf_release(&path);
    sd_buf_release(&tmp);
}

/* ---- one request -------------------------------------------------------- */

typedef struct sink {
    sd_buf *body;
    size_t max;
    int too_large;
} sink;

static size_t on_data(char *p, size_t size, size_t n, void *payload)
{
    sink *s = payload;
    size_t len = size * n;

    if (len > s->max - s->body->len) {
        s->too_large = 1;
        return 0; /* curl aborts with CURLE_WRITE_ERROR */
    }
    sd_buf_put(s->body, p, len);
    return sd_buf_failed(s->body) ? 0 : len;
}

static int setup(sd_fetch *f)
{
    CURL *c;

    if (f->curl)
        return 0;
    if (curl_users == 0 && C.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
        return SD_ERROR;
    curl_users++;
    if (!(c = C.easy_init())) {
        if (--curl_users == 0)
            C.global_cleanup();
        return SD_ERROR;
    }
    f->curl = c;
    f->headers = C.slist_append(NULL, "Accept: application/schema+json, application/json;q=0.9, "
                                         "application/yaml;q=0.8, */*;q=0.5");
    C.easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    C.easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    C.easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L); /* followed by hand, below */
    C.easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 1L);
    C.easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 2L);
    C.easy_setopt(c, CURLOPT_NETRC, (long)CURL_NETRC_IGNORED);
    C.easy_setopt(c, CURLOPT_USERAGENT, "schemadoc/" SD_VERSION);
    C.easy_setopt(c, CURLOPT_HTTPHEADER, f->headers);
    C.easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    C.easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, f->opts.connect_timeout_ms);
    C.easy_setopt(c, CURLOPT_TIMEOUT_MS, f->opts.timeout_ms);
    C.easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)f->opts.max_size);
    C.easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
    return 0;
}

/* Refuse what we never send a request to: other schemes and userinfo. */
static int check_url(const char *url, const char *orig, sd_buf *why)
{
    sd_uri u;

    sd_uri_parse(&u, url, strlen(url));
    if (!sd_uri_scheme_is(url, "http") && !sd_uri_scheme_is(url, "https")) {
        if (orig)
            sd_buf_printf(why, "cannot fetch '%s': redirected to '%s': only http and https are allowed",
                          orig, url);
        else
            sd_buf_printf(why, "cannot fetch '%s': only http and https are allowed", url);
        return SD_EDENIED;
    }
    if (u.authority.p && memchr(u.authority.p, '@', u.authority.n)) {
        if (orig)
            sd_buf_printf(why, "cannot fetch '%s': redirected to a URL with credentials", orig);
        else
            sd_buf_printf(why, "cannot fetch '%s': URLs with credentials are not supported", url);
        return SD_EDENIED;
    }
    return 0;
}

/* GET `url`, following redirects, into `body`. */
static int transfer(sd_buf *body, sd_fetch *f, const char *url, sd_buf *why)
{
    char errbuf[CURL_ERROR_SIZE];
    char *cur = strdup(url), *next;
    sink s;
    int hops = 0, err = 0;

    if (!cur)
        return SD_ENOMEM;
    if ((err = load_curl(why)) < 0) {
        free(cur);
        return err;
    }
    if (setup(f) < 0) {
        free(cur);
        sd_buf_printf(why, "cannot fetch '%s': libcurl failed to start", url);
        return SD_EIO;
    }
    for (;;) {
        CURLcode rc;
        long status = 0;
        curl_off_t connect_us = 0;

        sd_buf_clear(body);
        s.body = body;
        s.max = f->opts.max_size;
        s.too_large = 0;
        errbuf[0] = '\0';
        C.easy_setopt(f->curl, CURLOPT_URL, cur);
        C.easy_setopt(f->curl, CURLOPT_WRITEDATA, &s);
        C.easy_setopt(f->curl, CURLOPT_ERRORBUFFER, errbuf);
        f->requests++;
        rc = C.easy_perform(f->curl);
        C.easy_getinfo(f->curl, CURLINFO_RESPONSE_CODE, &status);
        if (rc == CURLE_OPERATION_TIMEDOUT) {
            C.easy_getinfo(f->curl, CURLINFO_CONNECT_TIME_T, &connect_us);
            if (connect_us == 0)
                sd_buf_printf(why, "cannot fetch '%s': connection timed out after %ld ms",
                              url, f->opts.connect_timeout_ms);
            else
                sd_buf_printf(why, "cannot fetch '%s': timed out after %ld ms",
                              url, f->opts.timeout_ms);
            err = SD_ELIMIT;
            break;
        }
        if (s.too_large || rc == CURLE_FILESIZE_EXCEEDED) {
            sd_buf_printf(why, "cannot fetch '%s': the document is larger than the limit of %zu bytes",
                          url, f->opts.max_size);
            err = SD_ELIMIT;
            break;
        }
        if (rc == CURLE_WRITE_ERROR && sd_buf_failed(body)) {
            sd_buf_printf(why, "cannot fetch '%s': out of memory", url);
            err = SD_ENOMEM;
            break;
        }
        if (rc != CURLE_OK) {
            sd_buf_printf(why, "cannot fetch '%s': %s", url,
                          errbuf[0] ? errbuf : C.easy_strerror(rc));
            /* most often no network at all: say what works without one */
            if (rc == CURLE_COULDNT_RESOLVE_HOST || rc == CURLE_COULDNT_RESOLVE_PROXY ||
                rc == CURLE_COULDNT_CONNECT)
                sd_buf_puts(why, " (no network? read a local copy with --map PREFIX=DIR, "
                                 "use the cache with --offline, or skip the reference with --lenient)");
            err = SD_EIO;
            break;
        }
        if (status >= 200 && status < 300)
            break;
        if (status >= 300 && status < 400 && status != 304) {
            char *loc = NULL;
            C.easy_getinfo(f->curl, CURLINFO_REDIRECT_URL, &loc);
            if (!loc) {
                sd_buf_printf(why, "cannot fetch '%s': HTTP %ld without a Location", url, status);
                err = SD_EIO;
                break;
            }
            if (++hops > f->opts.max_redirects) {
                sd_buf_printf(why, "cannot fetch '%s': more than %d redirects", url,
                              f->opts.max_redirects);
                err = SD_ELIMIT;
                break;
            }
            if ((err = check_url(loc, url, why)) < 0)
                break;
            if (!(next = strdup(loc))) {
                err = SD_ENOMEM;
                break;
            }
            free(cur);
            cur = next;
            continue;
        }
        sd_buf_printf(why, "cannot fetch '%s': HTTP %ld", url, status);
        err = status == 404 || status == 410 ? SD_ENOTFOUND : SD_EIO;
        break;
    }
    free(cur);
    if (err < 0)
        sd_buf_clear(body);
    return err;
}

/* ---- entry points ------------------------------------------------------- */

int sd_fetch_get(sd_buf *body, sd_fetch *f, const char *url, sd_buf *why, sd_buf *warning)
{
    char *key = NULL;
    int err;

    sd_buf_clear(body);
    if ((err = check_url(url, NULL, why)) < 0)
        return err;
    if ((err = sd_uri_split_fragment(&key, NULL, url)) < 0)
        return err;
    {
        char *norm;
        if ((err = sd_uri_normalize(&norm, key)) < 0)
            goto done;
        free(key);
        key = norm;
    }
    if (!f->opts.refresh || f->opts.offline) {
        if ((err = cache_read(body, f, key)) != 0)
            goto done; /* a hit (1 -> 0 below) or out of memory */
    }
    if (f->opts.offline) {
        if (f->cache_dir)
            sd_buf_printf(why, "cannot fetch '%s' in offline mode: it is not in the cache '%s'",
                          url, f->cache_dir);
        else
            sd_buf_printf(why, "cannot fetch '%s' in offline mode: there is no cache directory", url);
        err = SD_ENOTFOUND;
        goto done;
    }
    if ((err = transfer(body, f, key, why)) < 0)
        goto done;
    if (f->cache_dir)
        cache_write(f, key, body, warning);
done:
    free(key);
    if (err == 1)
        err = 0;
    if (err == SD_ENOMEM && why->len == 0)
        sd_buf_printf(why, "cannot fetch '%s': out of memory", url);
    return err;
}

int sd_fetch_url(char **out, size_t *out_len, sd_fetch *f, const char *url,
                 sd_loc from, sd_diags *diags)
{
    sd_buf body = SD_BUF_INIT, why = SD_BUF_INIT, warn = SD_BUF_INIT;
    int err;

    *out = NULL;
    if (out_len)
        *out_len = 0;
    err = sd_fetch_get(&body, f, url, &why, &warn);
    if (warn.len)
        sd_diag_warning(diags, from, "%s", warn.ptr);
    if (err < 0) {
        sd_diag_error(diags, err, from, "%s", why.ptr);
    } else {
        if (out_len)
            *out_len = body.len;
        if (!(*out = sd_buf_detach(&body)))
            err = sd_diag_error(diags, SD_ENOMEM, from, "out of memory");
    }
    sd_buf_release(&body);
    sd_buf_release(&why);
    sd_buf_release(&warn);
    return err;
}
