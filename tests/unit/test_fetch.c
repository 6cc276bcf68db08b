/* SPDX-License-Identifier: Apache-2.0 */
/* test_fetch.c - the libcurl fetcher and its cache against tests/httpd.py
 * on 127.0.0.1: success, 404, timeout, size cap (with and without
 * Content-Length), redirect to a non-http scheme, redirect limits, cache,
 * offline hit and miss, refresh. Error sentences are checked exactly. */
#include "harness.h"
#include "server.h"

#include "fetch.h"

#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>

static t_server srv;
static int srv_ok;
static char cache_dir[64];

static void rm_rf(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char p[512];
    if (!d)
        return;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        unlink(p);
    }
    closedir(d);
    rmdir(dir);
}

/* Fetch `path` from the server with `o`; returns the code, fills why/body. */
static int get(sd_fetch_opts *o, const char *path, sd_buf *body, sd_buf *why, unsigned long *reqs)
{
    sd_fetch *f = NULL;
    int err;
    sd_buf_clear(why);
    if (sd_fetch_new(&f, o) < 0)
        return -100;
    err = sd_fetch_get(body, f, t_server_url(&srv, path), why, NULL);
    if (reqs)
        *reqs = sd_fetch_requests(f);
    sd_fetch_free(f);
    return err;
}

static char *expect(const char *fmt, const char *path)
{
    static char b[1024];
    snprintf(b, sizeof b, fmt, t_server_url(&srv, path));
    return b;
}

static void test_start(void)
{
    curl_global_init(CURL_GLOBAL_DEFAULT);
    srv_ok = t_server_start(&srv, "tests/resolve/http") == 0;
    OK(srv_ok);
    strcpy(cache_dir, "/tmp/sd-fetch-test-XXXXXX");
    OK(mkdtemp(cache_dir) != NULL);
}

static void test_success(void)
{
    sd_fetch_opts o = { .no_cache = 1 };
    sd_buf body = SD_BUF_INIT, why = SD_BUF_INIT;
    unsigned long reqs = 0;
    if (!srv_ok)
        return;
    INT_EQ(get(&o, "/int.json", &body, &why, &reqs), 0);
    STR_EQ(body.ptr, "{\"type\": \"integer\"}\n");
    INT_EQ(reqs, 1);
    INT_EQ(why.len, 0);
    /* identifies itself, sends no credentials */
    STR_EQ(t_server_get(&srv, "/__header/X-Probe"), "");
    {
        sd_fetch *f = NULL;
        OK(sd_fetch_new(&f, &o) == 0);
        INT_EQ(sd_fetch_get(&body, f, t_server_url(&srv, "/__header/User-Agent"), &why, NULL), 0);
        STR_EQ(body.ptr, "schemadoc/" SD_VERSION);
        INT_EQ(sd_fetch_get(&body, f, t_server_url(&srv, "/__header/Authorization"), &why, NULL), 0);
        STR_EQ(body.ptr, "");
        sd_fetch_free(f);
    }
    sd_buf_release(&body);
    sd_buf_release(&why);
}

static void test_errors(void)
{
    sd_fetch_opts o = { .no_cache = 1 };
    sd_buf body = SD_BUF_INIT, why = SD_BUF_INIT;
    unsigned long reqs = 0;
    if (!srv_ok)
        return;
    INT_EQ(get(&o, "/missing.json", &body, &why, NULL), SD_ENOTFOUND);
    STR_EQ(why.ptr, expect("cannot fetch '%s': HTTP 404", "/missing.json"));
    INT_EQ(body.len, 0);
    INT_EQ(get(&o, "/__status/500", &body, &why, NULL), SD_EIO);
    STR_EQ(why.ptr, expect("cannot fetch '%s': HTTP 500", "/__status/500"));

    /* timeout: a small client limit against a slow answer */
    o.timeout_ms = 300;
    INT_EQ(get(&o, "/__slow/3000/int.json", &body, &why, NULL), SD_ELIMIT);
    STR_EQ(why.ptr, expect("cannot fetch '%s': timed out after 300 ms", "/__slow/3000/int.json"));
    o.timeout_ms = 0;

    /* size cap, announced by Content-Length or not */
    o.max_size = 1000;
    INT_EQ(get(&o, "/__big/5000", &body, &why, NULL), SD_ELIMIT);
    STR_EQ(why.ptr, expect("cannot fetch '%s': the document is larger than the limit of 1000 bytes",
                           "/__big/5000"));
    INT_EQ(get(&o, "/__big-nolength/50000000", &body, &why, NULL), SD_ELIMIT);
    STR_EQ(why.ptr, expect("cannot fetch '%s': the document is larger than the limit of 1000 bytes",
                           "/__big-nolength/50000000"));
    INT_EQ(body.len, 0);
    INT_EQ(get(&o, "/__big-nolength/1000", &body, &why, NULL), 0);
    INT_EQ(body.len, 1000);
    o.max_size = 0;

    /* redirects: only to http(s), at most 5 */
    INT_EQ(get(&o, "/__redirect?to=file:///etc/passwd", &body, &why, NULL), SD_EDENIED);
    STR_EQ(why.ptr, expect("cannot fetch '%s': redirected to 'file:///etc/passwd': "
                           "only http and https are allowed", "/__redirect?to=file:///etc/passwd"));
    INT_EQ(body.len, 0);
    INT_EQ(get(&o, "/__redirect?to=ftp://127.0.0.1/x", &body, &why, NULL), SD_EDENIED);
    INT_EQ(get(&o, "/__chain/5/int.json", &body, &why, &reqs), 0);
    STR_EQ(body.ptr, "{\"type\": \"integer\"}\n");
    INT_EQ(reqs, 6);
    INT_EQ(get(&o, "/__chain/6/int.json", &body, &why, &reqs), SD_ELIMIT);
    STR_EQ(why.ptr, expect("cannot fetch '%s': more than 5 redirects", "/__chain/6/int.json"));
    INT_EQ(reqs, 6);
    INT_EQ(get(&o, "/__loop", &body, &why, NULL), SD_ELIMIT);
    STR_EQ(why.ptr, expect("cannot fetch '%s': more than 5 redirects", "/__loop"));

    /* refused before any request */
    {
        sd_fetch *f = NULL;
        OK(sd_fetch_new(&f, &o) == 0);
        sd_buf_clear(&why);
        INT_EQ(sd_fetch_get(&body, f, "ftp://127.0.0.1/x.json", &why, NULL), SD_EDENIED);
        STR_EQ(why.ptr, "cannot fetch 'ftp://127.0.0.1/x.json': only http and https are allowed");
        sd_buf_clear(&why);
        INT_EQ(sd_fetch_get(&body, f, "file:///etc/passwd", &why, NULL), SD_EDENIED);
        sd_buf_clear(&why);
        INT_EQ(sd_fetch_get(&body, f, "http://user:pw@127.0.0.1:1/x.json", &why, NULL), SD_EDENIED);
        STR_EQ(why.ptr, "cannot fetch 'http://user:pw@127.0.0.1:1/x.json': "
                        "URLs with credentials are not supported");
        INT_EQ(sd_fetch_requests(f), 0);
        sd_fetch_free(f);
    }
    sd_buf_release(&body);
    sd_buf_release(&why);
}

static void test_cache(void)
{
    sd_fetch_opts o = { .cache_dir = cache_dir };
    sd_buf body = SD_BUF_INIT, why = SD_BUF_INIT, path = SD_BUF_INIT;
    unsigned long reqs = 0;
    sd_fetch *f = NULL;
    if (!srv_ok)
        return;
    INT_EQ(get(&o, "/defs.json", &body, &why, &reqs), 0);
    INT_EQ(reqs, 1);
    INT_EQ(t_server_count(&srv, "/defs.json"), 1);
    INT_EQ(t_count_files(cache_dir, NULL), 1);
    INT_EQ(t_count_files(cache_dir, ".tmp-"), 0);
    /* a second run finds it in the cache: no request */
    INT_EQ(get(&o, "/defs.json", &body, &why, &reqs), 0);
    INT_EQ(reqs, 0);
    OK(strstr(body.ptr, "\"definitions\"") != NULL);
    INT_EQ(t_server_count(&srv, "/defs.json"), 1);
    /* offline: a hit from the cache, a miss names the URL */
    o.offline = 1;
    INT_EQ(get(&o, "/defs.json", &body, &why, &reqs), 0);
    INT_EQ(reqs, 0);
    OK(strstr(body.ptr, "\"definitions\"") != NULL);
    INT_EQ(get(&o, "/int.json", &body, &why, &reqs), SD_ENOTFOUND);
    {
        char want[1024];
        snprintf(want, sizeof want, "cannot fetch '%s' in offline mode: it is not in the cache '%s'",
                 t_server_url(&srv, "/int.json"), cache_dir);
        STR_EQ(why.ptr, want);
    }
    INT_EQ(reqs, 0);
    /* refresh fetches again */
    o.offline = 0;
    o.refresh = 1;
    INT_EQ(get(&o, "/defs.json", &body, &why, &reqs), 0);
    INT_EQ(reqs, 1);
    INT_EQ(t_server_count(&srv, "/defs.json"), 2);
    INT_EQ(t_count_files(cache_dir, NULL), 1);
    /* the cache file: magic, URL, body */
    OK(sd_fetch_new(&f, &o) == 0);
    INT_EQ(sd_fetch_cache_path(&path, f, t_server_url(&srv, "/defs.json")), 0);
    {
        FILE *fp = fopen(path.ptr, "r");
        char line[256];
        OK(fp != NULL);
        if (fp) {
            OK(fgets(line, sizeof line, fp) != NULL);
            STR_EQ(line, "schemadoc-cache 1\n");
            OK(fgets(line, sizeof line, fp) != NULL);
            line[strcspn(line, "\n")] = '\0';
            STR_EQ(line, t_server_url(&srv, "/defs.json"));
            fclose(fp);
        }
    }
    /* the cache key ignores the fragment and normalises the URL */
    {
        sd_buf p2 = SD_BUF_INIT;
        char u[512];
        snprintf(u, sizeof u, "HTTP://127.0.0.1:%d/./defs.json#/definitions", srv.port);
        INT_EQ(sd_fetch_cache_path(&p2, f, u), 0);
        STR_EQ(p2.ptr, path.ptr);
        sd_buf_release(&p2);
    }
    sd_fetch_free(f);
    sd_buf_release(&body);
    sd_buf_release(&why);
    sd_buf_release(&path);
}

static void test_cache_unwritable(void)
{
    sd_fetch_opts o = { .cache_dir = "/proc/self/no-such-dir/cache" };
    sd_buf body = SD_BUF_INIT, why = SD_BUF_INIT, warn = SD_BUF_INIT;
    sd_fetch *f = NULL;
    if (!srv_ok)
        return;
    OK(sd_fetch_new(&f, &o) == 0);
    INT_EQ(sd_fetch_get(&body, f, t_server_url(&srv, "/int.json"), &why, &warn), 0);
    OK(strncmp(warn.ptr, "cannot write the cache for 'http://127.0.0.1:", 45) == 0);
    STR_EQ(body.ptr, "{\"type\": \"integer\"}\n");
    sd_fetch_free(f);
    sd_buf_release(&body);
    sd_buf_release(&why);
    sd_buf_release(&warn);
}

static void test_default_cache_dir(void)
{
    sd_fetch *f = NULL;
    const char *old = getenv("XDG_CACHE_HOME");
    char *saved = old ? strdup(old) : NULL;
    setenv("XDG_CACHE_HOME", "/xdg/cache", 1);
    OK(sd_fetch_new(&f, NULL) == 0);
    STR_EQ(sd_fetch_cache_dir(f), "/xdg/cache/schemadoc");
    sd_fetch_free(f);
    setenv("XDG_CACHE_HOME", "relative/ignored", 1);
    setenv("HOME", "/home/someone", 1);
    OK(sd_fetch_new(&f, NULL) == 0);
    STR_EQ(sd_fetch_cache_dir(f), "/home/someone/.cache/schemadoc");
    sd_fetch_free(f);
    if (saved)
        setenv("XDG_CACHE_HOME", saved, 1);
    else
        unsetenv("XDG_CACHE_HOME");
    free(saved);
}

static void test_url_diag(void)
{
    sd_fetch_opts o = { .no_cache = 1 };
    sd_diags d = SD_DIAGS_INIT;
    sd_fetch *f = NULL;
    char *out = NULL, *line;
    sd_loc at = { "values.schema.json", 3, 14 };
    if (!srv_ok)
        return;
    OK(sd_fetch_new(&f, &o) == 0);
    INT_EQ(sd_fetch_url(&out, NULL, f, t_server_url(&srv, "/nope.json"), at, &d), SD_ENOTFOUND);
    OK(out == NULL);
    INT_EQ(d.count, 1);
    line = d.count ? sd_diag_format(&d.items[0]) : NULL;
    STR_EQ(line, expect("values.schema.json:3:14: error: cannot fetch '%s': HTTP 404", "/nope.json"));
    free(line);
    sd_diags_release(&d);
    sd_fetch_free(f);
}

/* The server is gone once stopped (no process left behind for the next
 * test), and the cache directory with everything the tests put in it. */
static void test_stop(void)
{
    pid_t pid = srv.pid;
    struct stat st;
    t_server_stop(&srv);
    OK(!srv_ok || (pid > 0 && kill(pid, 0) == -1));   /* test_start failed otherwise */
    rm_rf(cache_dir);
    OK(stat(cache_dir, &st) == -1);
    curl_global_cleanup();
}

TEST_MAIN(test_start, test_success, test_errors, test_cache, test_cache_unwritable,
          test_default_cache_dir, test_url_diag, test_stop)
