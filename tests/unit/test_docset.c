/* SPDX-License-Identifier: Apache-2.0 */
/* test_docset.c - document sources: schema-dependencies.json, --map, the
 * longest-prefix rule, confinement (.., absolute paths, symbolic links,
 * FIFOs, /dev/zero), memoisation, and remote documents through the test
 * server and the cache. Fixtures: tests/resolve/. Every diagnostic is
 * compared character for character. */
#include "harness.h"
#include "server.h"

#include "docset.h"
#include "file.h"
#include "uri.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>

static char cwd[PATH_MAX];
static t_server srv;
static int srv_ok;
static char tmp[64];

/* ---- helpers ------------------------------------------------------------ */

static const char *fmt(const char *f, ...)
{
    static char bufs[4][2048];
    static int next;
    char *b = bufs[next++ & 3];
    va_list ap;
    va_start(ap, f);
    vsnprintf(b, sizeof bufs[0], f, ap);
    va_end(ap);
    return b;
}

/* All diagnostics, one line each, joined by newlines; then cleared. */
static const char *lines(sd_diags *d)
{
    static char out[8192];
    size_t i;
    out[0] = '\0';
    for (i = 0; i < d->count; i++) {
        char *l = sd_diag_format(&d->items[i]);
        if (i)
            strncat(out, "\n", sizeof out - strlen(out) - 1);
        strncat(out, l ? l : "(null)", sizeof out - strlen(out) - 1);
        free(l);
    }
    sd_diags_release(d);
    return out;
}

static sd_docset *open_chart(const char *root, sd_docset_opts *o, sd_diags *d)
{
    sd_docset_opts def = { 0 };
    sd_docset *s = NULL;
    if (!o)
        o = &def;
    o->chart_root = root;
    if (!o->fetch.cache_dir)
        o->fetch.no_cache = 1;
    if (sd_docset_new(&s, o, d) < 0)
        return NULL;
    return s;
}

/* map() as a string ("(none)" when no prefix matches). */
static const char *mapped(sd_docset *s, const char *ref)
{
    static char b[4][1024];
    static int next;
    char *out = NULL, *r = b[next++ & 3];
    if (sd_docset_map(&out, s, ref) < 0)
        return "(error)";
    snprintf(r, sizeof b[0], "%s", out ? out : "(none)");
    free(out);
    return r;
}

static void rm_tree(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char p[PATH_MAX];
    struct stat st;
    if (!d)
        return;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
            rm_tree(p);
        else
            unlink(p);
    }
    closedir(d);
    rmdir(dir);
}

#define VALUES "tests/resolve/local-prefix/values.schema.json"

/* ---- local prefix maps --------------------------------------------------- */

static void test_setup(void)
{
    OK(getcwd(cwd, sizeof cwd) != NULL);
    strcpy(tmp, "/tmp/sd-docset-test-XXXXXX");
    OK(mkdtemp(tmp) != NULL);
    curl_global_init(CURL_GLOBAL_DEFAULT);
}

static void test_local_prefix(void)
{
    sd_diags d = SD_DIAGS_INIT;
    sd_docset *s = open_chart("tests/resolve/local-prefix", NULL, &d);
    sd_doc *a = NULL, *b = NULL, *root = NULL;
    char *chart = strdup(fmt("file://%s/tests/resolve/local-prefix/", cwd));
    sd_loc at = { VALUES, 5, 33 };

    OK(s != NULL);
    if (!s) {
        free(chart);
        return;
    }
    STR_EQ(sd_docset_chart_uri(s), chart);
    INT_EQ(sd_docset_read_chart_map(s, &d), 0);
    STR_EQ(lines(&d), "");
    STR_EQ(mapped(s, "local-defs/resources.json#/definitions/limits"),
           fmt("%sschemas/resources.json#/definitions/limits", chart));
    /* unmatched refs fall through to RFC 3986 resolution */
    STR_EQ(mapped(s, "other.json#/x"), "(none)");
    STR_EQ(mapped(s, "#/definitions/x"), "(none)");
    STR_EQ(mapped(s, "local-def"), "(none)");

    INT_EQ(sd_docset_get(&a, s, fmt("%sschemas/resources.json#/definitions/resourceRequirements",
                                    chart), at, "local-defs/resources.json#/definitions/x", &d), 0);
    OK(a != NULL);
    STR_EQ(a ? a->file : NULL, "tests/resolve/local-prefix/schemas/resources.json");
    /* a second ref into the same document: the same sd_doc, loaded once */
    INT_EQ(sd_docset_get(&b, s, fmt("%sschemas/./resources.json#/definitions/limits", chart),
                         at, "local-defs/resources.json#/definitions/limits", &d), 0);
    OK(a == b);
    INT_EQ(sd_docset_count(s), 1);
    STR_EQ(sd_docset_uri(s, a), fmt("%sschemas/resources.json", chart));
    INT_EQ(sd_docset_get(&root, s, fmt("%svalues.schema.json", chart), (sd_loc){ 0 }, NULL, &d), 0);
    OK(root != NULL && sd_node_get(sd_doc_root(root), "properties") != NULL);
    INT_EQ(sd_docset_count(s), 2);
    STR_EQ(lines(&d), "");
    sd_docset_free(s);
    free(chart);
}

static void test_local_errors(void)
{
    sd_diags d = SD_DIAGS_INIT;
    sd_docset *s = open_chart("tests/resolve/local-prefix", NULL, &d);
    sd_doc *doc = (sd_doc *)1;
    char *u = NULL;
    sd_loc at7 = { VALUES, 7, 28 }, at8 = { VALUES, 8, 27 }, at9 = { VALUES, 9, 27 };

    OK(s != NULL);
    if (!s)
        return;
    INT_EQ(sd_docset_read_chart_map(s, &d), 0);

    /* missing file, named with what was tried */
    sd_docset_map(&u, s, "local-defs/missing.json");
    INT_EQ(sd_docset_get(&doc, s, u, at7, "local-defs/missing.json", &d), SD_ENOTFOUND);
    OK(doc == NULL);
    STR_EQ(lines(&d), VALUES ":7:28: error: $ref 'local-defs/missing.json': cannot read "
           "'tests/resolve/local-prefix/schemas/missing.json': no such file "
           "(prefix 'local-defs' maps to 'schemas/')");
    /* asked again: reported again, at the new place */
    INT_EQ(sd_docset_get(&doc, s, u, at8, "local-defs/missing.json", &d), SD_ENOTFOUND);
    OK(strncmp(lines(&d), VALUES ":8:27: error: $ref 'local-defs/missing.json': cannot read", 70) == 0);
    free(u);

    /* `..` in the ref leaving the chart */
    sd_docset_map(&u, s, "local-defs/../../outside/secret.json");
    STR_EQ(u, fmt("file://%s/tests/resolve/outside/secret.json", cwd));
    INT_EQ(sd_docset_get(&doc, s, u, at8, "local-defs/../../outside/secret.json", &d), SD_EDENIED);
    STR_EQ(lines(&d), VALUES ":8:27: error: $ref 'local-defs/../../outside/secret.json': "
           "'tests/resolve/outside/secret.json' is outside the chart directory "
           "'tests/resolve/local-prefix' (prefix 'local-defs' maps to 'schemas/')");
    free(u);

    /* escapes that only decode to ".." */
    INT_EQ(sd_docset_get(&doc, s, fmt("file://%s/tests/resolve/local-prefix/schemas%%2F..%%2F..%%2F"
                                      "outside/secret.json", cwd), at8, NULL, &d), SD_EDENIED);
    STR_EQ(lines(&d), VALUES ":8:27: error: 'tests/resolve/outside/secret.json' is outside the "
           "chart directory 'tests/resolve/local-prefix'");

    /* an absolute path, as the resolver hands it over */
    INT_EQ(sd_docset_get(&doc, s, "file:///etc/passwd", at9, "/etc/passwd", &d), SD_EDENIED);
    STR_EQ(lines(&d), VALUES ":9:27: error: $ref '/etc/passwd': '/etc/passwd' is outside the "
           "chart directory 'tests/resolve/local-prefix'");
    INT_EQ(sd_docset_get(&doc, s, "file://evil.example/etc/passwd", at9, NULL, &d), SD_EDENIED);
    STR_EQ(lines(&d), VALUES ":9:27: error: cannot read 'file://evil.example/etc/passwd': "
           "file URLs with a host are not supported");
    INT_EQ(sd_docset_get(&doc, s, "file:///x%00.json", at9, NULL, &d), SD_EDENIED);
    STR_EQ(lines(&d), VALUES ":9:27: error: cannot read 'file:///x%00.json': "
           "the path contains a NUL byte");

    /* a target that does not parse: its own position, then a note */
    sd_docset_map(&u, s, "local-defs/broken.json");
    INT_EQ(sd_docset_get(&doc, s, u, at9, "local-defs/broken.json", &d), SD_ESYNTAX);
    STR_EQ(lines(&d), "tests/resolve/local-prefix/schemas/broken.json:3:29: error: unexpected '\"', "
           "expected ',' or '}'\n"
           VALUES ":9:27: note: in the document loaded for $ref 'local-defs/broken.json'");
    INT_EQ(sd_docset_get(&doc, s, u, at9, "local-defs/broken.json", &d), SD_ESYNTAX);
    STR_EQ(lines(&d), VALUES ":9:27: error: $ref 'local-defs/broken.json': "
           "'tests/resolve/local-prefix/schemas/broken.json' could not be loaded "
           "(prefix 'local-defs' maps to 'schemas/')");
    free(u);

    /* schemes nobody loads */
    INT_EQ(sd_docset_get(&doc, s, "urn:example:thing", at9, "urn:example:thing", &d), SD_EREF);
    STR_EQ(lines(&d), VALUES ":9:27: error: $ref 'urn:example:thing': cannot load "
           "'urn:example:thing': no document has this URI, and only file, http and https "
           "URIs are loaded");
    INT_EQ(sd_docset_count(s), 0);
    sd_docset_free(s);
}

static void test_longest_prefix(void)
{
    sd_diags d = SD_DIAGS_INIT;
    sd_docset *s = open_chart("tests/resolve/longest-prefix", NULL, &d);
    char *chart = strdup(fmt("file://%s/tests/resolve/longest-prefix/", cwd));
    sd_doc *v1 = NULL, *v2 = NULL;
    char *u;

    OK(s != NULL);
    if (!s) {
        free(chart);
        return;
    }
    INT_EQ(sd_docset_read_chart_map(s, &d), 0);
    STR_EQ(mapped(s, "defs/a.json"), fmt("%sschemas/a.json", chart));
    STR_EQ(mapped(s, "defs/v2/a.json"), fmt("%sschemas-v2/a.json", chart));
    STR_EQ(mapped(s, "defs/v2/remote#/definitions/x"),
           "https://example.com/v2/remote.json#/definitions/x");
    STR_EQ(mapped(s, "defs/v2x.json"), fmt("%sschemas-v2x.json", chart));
    STR_EQ(mapped(s, "defs/./v1/../a.json"), fmt("%sschemas/a.json", chart));
    u = strdup(mapped(s, "defs/a.json"));
    INT_EQ(sd_docset_get(&v1, s, u, (sd_loc){ 0 }, "defs/a.json", &d), 0);
    free(u);
    u = strdup(mapped(s, "defs/v2/a.json"));
    INT_EQ(sd_docset_get(&v2, s, u, (sd_loc){ 0 }, "defs/v2/a.json", &d), 0);
    free(u);
    OK(v1 && v2 && v1 != v2);
    STR_EQ(v1 ? sd_node_str(sd_node_get(sd_doc_root(v1), "title")) : NULL, "v1 a");
    STR_EQ(v2 ? sd_node_str(sd_node_get(sd_doc_root(v2), "title")) : NULL, "v2 a");

    /* a --map of the same length beats the chart; user maps are not confined */
    INT_EQ(sd_docset_add_map(s, "defs=tests/resolve/outside/", &d), 0);
    STR_EQ(mapped(s, "defs/secret.json"), fmt("file://%s/tests/resolve/outside/secret.json", cwd));
    STR_EQ(mapped(s, "defs/v2/a.json"), fmt("%sschemas-v2/a.json", chart));
    u = strdup(mapped(s, "defs/secret.json"));
    INT_EQ(sd_docset_get(&v1, s, u, (sd_loc){ 0 }, "defs/secret.json", &d), 0);
    STR_EQ(v1 ? v1->file : NULL, "tests/resolve/outside/secret.json");
    free(u);
    /* and its sibling, reached by a relative ref from that document */
    INT_EQ(sd_docset_get(&v1, s, fmt("file://%s/tests/resolve/outside/sibling.json", cwd),
                         (sd_loc){ "tests/resolve/outside/secret.json", 1, 41 }, "sibling.json", &d), 0);
    STR_EQ(lines(&d), "");
    sd_docset_free(s);
    free(chart);
}

static void expect_map_error(const char *chart, int code, const char *want)
{
    sd_diags d = SD_DIAGS_INIT;
    sd_docset *s = open_chart(chart, NULL, &d);
    OK(s != NULL);
    if (!s)
        return;
    INT_EQ(sd_docset_read_chart_map(s, &d), code);
    STR_EQ(lines(&d), want);
    sd_docset_free(s);
}

static void test_bad_chart_maps(void)
{
    expect_map_error("tests/resolve/dotdot-target", SD_EDENIED,
                     "tests/resolve/dotdot-target/schema-dependencies.json:3:9: error: the target "
                     "of prefix 'up' leaves the chart directory: 'schemas/../../outside/'");
    expect_map_error("tests/resolve/abs-target", SD_EDENIED,
                     "tests/resolve/abs-target/schema-dependencies.json:2:10: error: the target of "
                     "prefix 'etc' is an absolute path: '/etc/' (local targets are relative to the "
                     "chart directory)");
    expect_map_error("tests/resolve/bad-scheme", SD_EDENIED,
                     "tests/resolve/bad-scheme/schema-dependencies.json:2:13: error: the target of "
                     "prefix 'passwd' must be a path inside the chart or an http(s) URL, not "
                     "'file:///etc/passwd'");
    expect_map_error("tests/resolve/bad-target", SD_ESYNTAX,
                     "tests/resolve/bad-target/schema-dependencies.json:3:8: error: the target of "
                     "prefix 'n' must be a string, not a number");
    expect_map_error("tests/resolve/bad-json", SD_ESYNTAX,
                     "tests/resolve/bad-json/schema-dependencies.json:3:3: error: unexpected '\"', "
                     "expected ',' or '}'");
    expect_map_error("tests/resolve/not-object", SD_ESYNTAX,
                     "tests/resolve/not-object/schema-dependencies.json:1:1: error: "
                     "schema-dependencies.json must contain a JSON object, not an array");
    /* no file: no maps, no error */
    expect_map_error("tests/resolve/outside", 0, "");
    expect_map_error("tests/resolve/local-prefix/", 0, "");
    {
        sd_diags d = SD_DIAGS_INIT;
        sd_docset_opts o = { .chart_root = "tests/resolve/no-such-chart" };
        sd_docset *s = (sd_docset *)1;
        INT_EQ(sd_docset_new(&s, &o, &d), SD_ENOTFOUND);
        OK(s == NULL);
        STR_EQ(lines(&d), "tests/resolve/no-such-chart: error: not a chart directory");
    }
}

static void test_user_maps(void)
{
    sd_diags d = SD_DIAGS_INIT;
    sd_docset *s = open_chart(NULL, NULL, &d);
    OK(s != NULL);
    if (!s)
        return;
    INT_EQ(sd_docset_add_map(s, "nomap", &d), SD_EUSAGE);
    STR_EQ(lines(&d), "schemadoc: error: --map 'nomap': expected PREFIX=TARGET with a non-empty prefix");
    INT_EQ(sd_docset_add_map(s, "=x", &d), SD_EUSAGE);
    STR_EQ(lines(&d), "schemadoc: error: --map '=x': expected PREFIX=TARGET with a non-empty prefix");
    INT_EQ(sd_docset_add_map(s, "p=", &d), SD_EUSAGE);
    STR_EQ(lines(&d), "schemadoc: error: --map 'p=': the target is empty");
    INT_EQ(sd_docset_add_map(s, "p=ftp://example.com/x", &d), SD_EUSAGE);
    STR_EQ(lines(&d), "schemadoc: error: --map 'p=ftp://example.com/x': the target must be a path "
           "or an http, https or file URL");
    INT_EQ(sd_docset_add_map(s, "https://schemas.example.com/=tests/resolve/outside/", &d), 0);
    INT_EQ(sd_docset_add_map(s, "k8s=https://Example.COM:443/k8s/defs.json", &d), 0);
    INT_EQ(sd_docset_add_map(s, "one=/abs/one.json", &d), 0);
    STR_EQ(mapped(s, "https://schemas.example.com/secret.json#/a"),
           fmt("file://%s/tests/resolve/outside/secret.json#/a", cwd));
    STR_EQ(mapped(s, "k8s#/definitions/io.k8s.api.core.v1.Probe"),
           "https://example.com/k8s/defs.json#/definitions/io.k8s.api.core.v1.Probe");
    STR_EQ(mapped(s, "one"), "file:///abs/one.json");
    STR_EQ(mapped(s, "https://other.example.com/x.json"), "(none)");
    STR_EQ(lines(&d), "");
    sd_docset_free(s);
}

/* ---- confinement on disk -------------------------------------------------- */

static void alarm_handler(int sig)
{
    (void)sig;
    write(2, "test_docset: blocked on a FIFO: an outside file was opened\n", 59);
    _exit(3);
}

static void test_symlink_escape(void)
{
    sd_diags d = SD_DIAGS_INIT;
    char chart[512], p[PATH_MAX], q[PATH_MAX];
    sd_docset *s;
    sd_doc *doc = NULL;
    sd_loc at = { "values.schema.json", 2, 3 };

    signal(SIGALRM, alarm_handler);
    alarm(20); /* opening the outside FIFO would block: fail instead */
    snprintf(chart, sizeof chart, "%s/chart", tmp);
    mkdir(chart, 0755);
    snprintf(p, sizeof p, "%s/secret.fifo", tmp);
    OK(mkfifo(p, 0600) == 0);
    snprintf(p, sizeof p, "%s/secret.json", tmp);
    t_write_file(p, NULL, "{\"secret\": true}\n");
    snprintf(p, sizeof p, "%s/link.json", chart);
    OK(symlink("../secret.fifo", p) == 0);
    snprintf(p, sizeof p, "%s/linkdir", chart);
    OK(symlink("..", p) == 0);
    snprintf(p, sizeof p, "%s/inner.json", chart);
    t_write_file(p, NULL, "{\"inner\": true}\n");
    snprintf(p, sizeof p, "%s/inner-link.json", chart);
    OK(symlink("inner.json", p) == 0);
    snprintf(p, sizeof p, "%s/pipe.json", chart);
    OK(mkfifo(p, 0600) == 0);
    snprintf(p, sizeof p, "%s/big.json", chart);
    t_write_file(p, NULL, "{\"a\": \"0123456789012345678901234567890123456789012345678901234567890123456789\"}\n");

    {
        sd_docset_opts o = { .fetch.max_size = 64 };
        s = open_chart(chart, &o, &d);
    }
    OK(s != NULL);
    if (!s)
        return;
    snprintf(q, sizeof q, "file://%s/link.json", chart);
    INT_EQ(sd_docset_get(&doc, s, q, at, "link.json", &d), SD_EDENIED);
    STR_EQ(lines(&d), fmt("values.schema.json:2:3: error: $ref 'link.json': '%s/link.json' leads "
                          "outside the chart directory '%s' through a symbolic link", chart, chart));
    snprintf(q, sizeof q, "file://%s/linkdir/secret.json", chart);
    INT_EQ(sd_docset_get(&doc, s, q, at, "linkdir/secret.json", &d), SD_EDENIED);
    STR_EQ(lines(&d), fmt("values.schema.json:2:3: error: $ref 'linkdir/secret.json': "
                          "'%s/linkdir/secret.json' leads outside the chart directory '%s' "
                          "through a symbolic link", chart, chart));
    /* a missing file behind the link says nothing about the outside */
    snprintf(q, sizeof q, "file://%s/linkdir/nothing-here.json", chart);
    INT_EQ(sd_docset_get(&doc, s, q, at, NULL, &d), SD_EDENIED);
    STR_EQ(lines(&d), fmt("values.schema.json:2:3: error: '%s/linkdir/nothing-here.json' leads "
                          "outside the chart directory '%s' through a symbolic link", chart, chart));
    /* links that stay inside are fine */
    snprintf(q, sizeof q, "file://%s/inner-link.json", chart);
    INT_EQ(sd_docset_get(&doc, s, q, at, NULL, &d), 0);
    OK(doc && sd_node_get(sd_doc_root(doc), "inner") != NULL);
    /* only regular files, under the size cap */
    snprintf(q, sizeof q, "file://%s/pipe.json", chart);
    INT_EQ(sd_docset_get(&doc, s, q, at, NULL, &d), SD_EIO);
    STR_EQ(lines(&d), fmt("values.schema.json:2:3: error: cannot read '%s/pipe.json': not a "
                          "regular file", chart));
    snprintf(q, sizeof q, "file://%s/big.json", chart);
    INT_EQ(sd_docset_get(&doc, s, q, at, NULL, &d), SD_ELIMIT);
    STR_EQ(lines(&d), fmt("values.schema.json:2:3: error: cannot read '%s/big.json': the file is "
                          "larger than the limit of 64 bytes", chart));
    sd_docset_free(s);

    /* the map file itself may not lead out of the chart */
    snprintf(p, sizeof p, "%s/deps-outside.json", tmp);
    t_write_file(p, NULL, "{\"x\": \"schemas/\"}\n");
    snprintf(p, sizeof p, "%s/schema-dependencies.json", chart);
    OK(symlink("../deps-outside.json", p) == 0);
    s = open_chart(chart, NULL, &d);
    OK(s != NULL);
    if (s) {
        INT_EQ(sd_docset_read_chart_map(s, &d), SD_EDENIED);
        STR_EQ(lines(&d), fmt("%s/schema-dependencies.json: error: '%s/schema-dependencies.json' "
                              "leads outside the chart directory '%s' through a symbolic link",
                              chart, chart, chart));
        sd_docset_free(s);
    }

    /* without a chart nothing is confined, but /dev/zero and FIFOs still fail fast */
    s = open_chart(NULL, NULL, &d);
    OK(s != NULL);
    if (s) {
        INT_EQ(sd_docset_get(&doc, s, "file:///dev/zero", at, "/dev/zero", &d), SD_EIO);
        STR_EQ(lines(&d), "values.schema.json:2:3: error: $ref '/dev/zero': cannot read "
               "'/dev/zero': not a regular file");
        snprintf(q, sizeof q, "file://%s/secret.fifo", tmp);
        INT_EQ(sd_docset_get(&doc, s, q, at, NULL, &d), SD_EIO);
        STR_EQ(lines(&d), fmt("values.schema.json:2:3: error: cannot read '%s/secret.fifo': not a "
                              "regular file", tmp));
        snprintf(q, sizeof q, "file://%s/secret.json", tmp);
        INT_EQ(sd_docset_get(&doc, s, q, at, NULL, &d), 0);
        sd_docset_free(s);
    }
    alarm(0);
}

static void test_adopt(void)
{
    sd_diags d = SD_DIAGS_INIT;
    sd_docset *s = open_chart(NULL, NULL, &d);
    sd_doc *doc = NULL, *got = NULL, *other = NULL;
    OK(s != NULL);
    if (!s)
        return;
    OK(sd_doc_load_mem(&doc, "root.json", "{\"a\": 1}", 8, SD_FMT_JSON, NULL, &d) == 0);
    OK(sd_doc_load_mem(&other, "root2.json", "{}", 2, SD_FMT_JSON, NULL, &d) == 0);
    INT_EQ(sd_docset_adopt(s, "file:///virtual/root.json#ignored", doc), 0);
    INT_EQ(sd_docset_adopt(s, "file:///virtual/./root.json", other), SD_EDUP);
    sd_doc_free(other);
    INT_EQ(sd_docset_get(&got, s, "file:///virtual/root.json#/a", (sd_loc){ 0 }, NULL, &d), 0);
    OK(got == doc);
    STR_EQ(sd_docset_uri(s, doc), "file:///virtual/root.json");
    OK(sd_docset_uri(s, NULL) == NULL);
    STR_EQ(lines(&d), "");
    sd_docset_free(s);
}

/* ---- remote documents ----------------------------------------------------- */

static int make_remote_chart(char *chart, size_t n)
{
    char p[PATH_MAX], line[512], base[128];
    FILE *in, *out;
    snprintf(chart, n, "%s/remote-chart", tmp);
    snprintf(base, sizeof base, "http://127.0.0.1:%d", srv.port);
    if (mkdir(chart, 0755) < 0)
        return -1;
    snprintf(p, sizeof p, "%s/schema-dependencies.json", chart);
    if (!(in = fopen("tests/resolve/remote-prefix/schema-dependencies.json.in", "r")))
        return -1;
    if (!(out = fopen(p, "w"))) {
        fclose(in);
        return -1;
    }
    while (fgets(line, sizeof line, in)) {
        char *at = strstr(line, "@BASE@");
        if (at) {
            *at = '\0';
            fprintf(out, "%s%s%s", line, base, at + 6);
        } else {
            fputs(line, out);
        }
    }
    fclose(in);
    fclose(out);
    snprintf(p, sizeof p, "%s/values.schema.json", chart);
    t_write_file(p, NULL, "{\"type\": \"object\"}\n");
    return 0;
}

static void test_remote(void)
{
    sd_diags d = SD_DIAGS_INIT;
    char chart[512], cache[PATH_MAX];
    sd_docset_opts o = { 0 };
    sd_docset *s;
    sd_doc *a = NULL, *b = NULL, *doc = NULL;
    char *u = NULL;
    sd_loc at = { "values.schema.json", 4, 15 };

    srv_ok = t_server_start(&srv, "tests/resolve/http") == 0;
    OK(srv_ok);
    if (!srv_ok)
        return;
    OK(make_remote_chart(chart, sizeof chart) == 0);
    snprintf(cache, sizeof cache, "%s/cache", tmp);
    o.fetch.cache_dir = cache;
    s = open_chart(chart, &o, &d);
    OK(s != NULL);
    if (!s)
        return;
    INT_EQ(sd_docset_read_chart_map(s, &d), 0);
    STR_EQ(lines(&d), "");
    STR_EQ(mapped(s, "k8s-api#/definitions/port"), t_server_url(&srv, "/defs.json#/definitions/port"));
    STR_EQ(mapped(s, "remote/int.json"), t_server_url(&srv, "/int.json"));

    /* two refs into one remote document: one request */
    sd_docset_map(&u, s, "k8s-api#/definitions/port");
    INT_EQ(sd_docset_get(&a, s, u, at, "k8s-api#/definitions/port", &d), 0);
    free(u);
    sd_docset_map(&u, s, "k8s-api#/definitions/name");
    INT_EQ(sd_docset_get(&b, s, u, at, "k8s-api#/definitions/name", &d), 0);
    free(u);
    OK(a && a == b);
    STR_EQ(a ? a->file : NULL, t_server_url(&srv, "/defs.json"));
    INT_EQ(t_server_count(&srv, "/defs.json"), 1);
    INT_EQ(sd_fetch_requests(sd_docset_fetcher(s)), 1);

    /* 404: reported with the prefix; asked again, not fetched again */
    sd_docset_map(&u, s, "remote/gone.json");
    INT_EQ(sd_docset_get(&doc, s, u, at, "remote/gone.json", &d), SD_ENOTFOUND);
    STR_EQ(lines(&d), fmt("values.schema.json:4:15: error: $ref 'remote/gone.json': cannot fetch "
                          "'%s': HTTP 404 (prefix 'remote' maps to '%s')",
                          t_server_url(&srv, "/gone.json"), t_server_url(&srv, "/")));
    INT_EQ(sd_docset_get(&doc, s, u, at, "remote/gone.json", &d), SD_ENOTFOUND);
    STR_EQ(lines(&d), fmt("values.schema.json:4:15: error: $ref 'remote/gone.json': cannot fetch "
                          "'%s': HTTP 404 (prefix 'remote' maps to '%s')",
                          t_server_url(&srv, "/gone.json"), t_server_url(&srv, "/")));
    INT_EQ(t_server_count(&srv, "/gone.json"), 1);
    free(u);

    /* a remote document may not reach local files */
    {
        sd_loc from_remote = { a ? a->file : "", 3, 5 };
        INT_EQ(sd_docset_get(&doc, s, fmt("file://%s/values.schema.json", chart), from_remote,
                             "file:///values.schema.json", &d), SD_EDENIED);
        STR_EQ(lines(&d), fmt("%s:3:5: error: $ref 'file:///values.schema.json': cannot read "
                              "'%s/values.schema.json': a document fetched from '%s' may not "
                              "refer to local files", t_server_url(&srv, "/defs.json"), chart,
                              t_server_url(&srv, "/defs.json")));
    }
    /* a remote document that does not parse */
    INT_EQ(sd_docset_get(&doc, s, t_server_url(&srv, "/bad.json"), at, "remote/bad.json", &d),
           SD_ESYNTAX);
    STR_EQ(lines(&d), fmt("%s:2:1: error: unexpected end of input, expected a string key\n"
                          "values.schema.json:4:15: note: in the document loaded for $ref "
                          "'remote/bad.json'", t_server_url(&srv, "/bad.json")));
    /* a timeout through the set */
    sd_docset_free(s);

    /* offline: the cache has defs.json, not int.json */
    o.fetch.offline = 1;
    s = open_chart(chart, &o, &d);
    OK(s != NULL);
    if (!s)
        return;
    INT_EQ(sd_docset_read_chart_map(s, &d), 0);
    INT_EQ(sd_docset_get(&a, s, t_server_url(&srv, "/defs.json"), at, "k8s-api", &d), 0);
    INT_EQ(t_server_count(&srv, "/defs.json"), 1);
    INT_EQ(sd_docset_get(&a, s, t_server_url(&srv, "/int.json"), at, "remote/int.json", &d),
           SD_ENOTFOUND);
    STR_EQ(lines(&d), fmt("values.schema.json:4:15: error: $ref 'remote/int.json': cannot fetch "
                          "'%s' in offline mode: it is not in the cache '%s' (prefix 'remote' "
                          "maps to '%s')", t_server_url(&srv, "/int.json"), cache,
                          t_server_url(&srv, "/")));
    INT_EQ(t_server_count(&srv, "/int.json"), 0);
    sd_docset_free(s);

    /* refresh: fetched again */
    o.fetch.offline = 0;
    o.fetch.refresh = 1;
    s = open_chart(chart, &o, &d);
    OK(s != NULL);
    if (!s)
        return;
    INT_EQ(sd_docset_get(&a, s, t_server_url(&srv, "/defs.json"), at, NULL, &d), 0);
    INT_EQ(t_server_count(&srv, "/defs.json"), 2);
    /* a small timeout through the set's options */
    sd_docset_free(s);
    o.fetch.refresh = 0;
    o.fetch.timeout_ms = 200;
    s = open_chart(chart, &o, &d);
    if (s) {
        INT_EQ(sd_docset_get(&a, s, t_server_url(&srv, "/__slow/2000/int.json"), at, NULL, &d),
               SD_ELIMIT);
        STR_EQ(lines(&d), fmt("values.schema.json:4:15: error: cannot fetch '%s': timed out "
                              "after 200 ms", t_server_url(&srv, "/__slow/2000/int.json")));
        sd_docset_free(s);
    }
    t_server_stop(&srv);
}

/* sd_file_read_in (issue 41): the one opener of chart files. An outside
 * FIFO behind a link would block if it were opened: the alarm of
 * test_symlink_escape turns that into a failure. */
static void test_chart_files(void)
{
    sd_diags d = SD_DIAGS_INIT;
    char chart[512], p[PATH_MAX], *text = NULL;
    size_t len = 0;

    signal(SIGALRM, alarm_handler);
    alarm(20);
    snprintf(chart, sizeof chart, "%s/cf", tmp);
    mkdir(chart, 0755);
    snprintf(p, sizeof p, "%s/cf-secret.fifo", tmp);
    OK(mkfifo(p, 0600) == 0);
    snprintf(p, sizeof p, "%s/cf-secret.yaml", tmp);
    t_write_file(p, NULL, "token: SECRET\n");
    snprintf(p, sizeof p, "%s/values.yaml", chart);
    OK(symlink("../cf-secret.yaml", p) == 0);
    snprintf(p, sizeof p, "%s/pipe.yaml", chart);
    OK(symlink("../cf-secret.fifo", p) == 0);
    snprintf(p, sizeof p, "%s/in.yaml", chart);
    t_write_file(p, NULL, "a: 1\n");
    snprintf(p, sizeof p, "%s/in-link.yaml", chart);
    OK(symlink("in.yaml", p) == 0);
    snprintf(p, sizeof p, "%s/loop.yaml", chart);
    OK(symlink("loop.yaml", p) == 0);
    snprintf(p, sizeof p, "%s/dangling.yaml", chart);
    OK(symlink("../cf-nowhere.yaml", p) == 0);

    /* a link out: refused, nothing read */
    snprintf(p, sizeof p, "%s/values.yaml", chart);
    INT_EQ(sd_file_read_in(&text, &len, chart, p, 1 << 20, "values file", &d), SD_EDENIED);
    OK(text == NULL);
    STR_EQ(lines(&d), fmt("%s: error: refusing the values file: it leads outside the chart directory '%s' "
                          "through a symbolic link (to '%s/cf-secret.yaml')", p, chart, tmp));
    snprintf(p, sizeof p, "%s/pipe.yaml", chart);
    INT_EQ(sd_file_read_in(&text, &len, chart, p, 1 << 20, "values file", &d), SD_EDENIED);
    sd_diags_release(&d);
    /* outside as written: "../x" and absolute paths */
    snprintf(p, sizeof p, "%s/../cf-secret.yaml", chart);
    INT_EQ(sd_file_read_in(&text, &len, chart, p, 1 << 20, "values file", &d), SD_EDENIED);
    STR_EQ(lines(&d), fmt("%s: error: refusing the values file: it lies outside the chart directory '%s'",
                          p, chart));
    /* a link inside the chart is followed */
    snprintf(p, sizeof p, "%s/in-link.yaml", chart);
    INT_EQ(sd_file_read_in(&text, &len, chart, p, 1 << 20, "values file", &d), 0);
    OK(text && strcmp(text, "a: 1\n") == 0 && len == 5);
    free(text);
    text = NULL;
    /* a loop and a dangling link: said as sd_file_read says them */
    snprintf(p, sizeof p, "%s/loop.yaml", chart);
    INT_EQ(sd_file_read_in(&text, &len, chart, p, 1 << 20, "values file", &d), SD_EIO);
    STR_EQ(lines(&d), fmt("%s: error: cannot open file: a symbolic link loop", p));
    snprintf(p, sizeof p, "%s/dangling.yaml", chart);
    INT_EQ(sd_file_read_in(&text, &len, chart, p, 1 << 20, "values file", &d), SD_ENOTFOUND);
    STR_EQ(lines(&d), fmt("%s: error: cannot open file: No such file or directory", p));
    alarm(0);
}

static void test_cleanup(void)
{
    rm_tree(tmp);
    curl_global_cleanup();
    OK(access(tmp, F_OK) != 0);
}

TEST_MAIN(test_setup, test_local_prefix, test_local_errors, test_longest_prefix,
          test_bad_chart_maps, test_user_maps, test_symlink_escape, test_chart_files, test_adopt,
          test_remote, test_cleanup)
