/* SPDX-License-Identifier: Apache-2.0 */
/* test_uri.c - RFC 3986 resolution (§5.4 examples), normalisation, file
 * paths, percent-decoding and JSON Pointer parsing. */
#include "harness.h"
#include "uri.h"
#include "ptr.h"

#include <stdlib.h>
#include <unistd.h>

static void check_resolve(const char *base, const char *ref, const char *want, int line)
{
    char *got = NULL;
    int err = sd_uri_resolve(&got, base, ref);
    if (err == 0 && got && strcmp(got, want) == 0) {
        t_passed++;
    } else {
        t_failed++;
        fprintf(stderr, "%s:%d: %s: resolve('%s', '%s') == \"%s\", expected \"%s\"\n",
                __FILE__, line, t_name, base, ref, got ? got : "(null)", want);
    }
    free(got);
}
#define RES(b, r, w) check_resolve(b, r, w, __LINE__)

static void test_rfc3986_normal(void)
{
    const char *b = "http://a/b/c/d;p?q";
    RES(b, "g:h", "g:h");
    RES(b, "g", "http://a/b/c/g");
    RES(b, "./g", "http://a/b/c/g");
    RES(b, "g/", "http://a/b/c/g/");
    RES(b, "/g", "http://a/g");
    RES(b, "//g", "http://g");
    RES(b, "?y", "http://a/b/c/d;p?y");
    RES(b, "g?y", "http://a/b/c/g?y");
    RES(b, "#s", "http://a/b/c/d;p?q#s");
    RES(b, "g#s", "http://a/b/c/g#s");
    RES(b, "g?y#s", "http://a/b/c/g?y#s");
    RES(b, ";x", "http://a/b/c/;x");
    RES(b, "g;x", "http://a/b/c/g;x");
    RES(b, "g;x?y#s", "http://a/b/c/g;x?y#s");
    RES(b, "", "http://a/b/c/d;p?q");
    RES(b, ".", "http://a/b/c/");
    RES(b, "./", "http://a/b/c/");
    RES(b, "..", "http://a/b/");
    RES(b, "../", "http://a/b/");
    RES(b, "../g", "http://a/b/g");
    RES(b, "../..", "http://a/");
    RES(b, "../../", "http://a/");
    RES(b, "../../g", "http://a/g");
}

static void test_rfc3986_abnormal(void)
{
    const char *b = "http://a/b/c/d;p?q";
    RES(b, "../../../g", "http://a/g");
    RES(b, "../../../../g", "http://a/g");
    RES(b, "/./g", "http://a/g");
    RES(b, "/../g", "http://a/g");
    RES(b, "g.", "http://a/b/c/g.");
    RES(b, ".g", "http://a/b/c/.g");
    RES(b, "g..", "http://a/b/c/g..");
    RES(b, "..g", "http://a/b/c/..g");
    RES(b, "./../g", "http://a/b/g");
    RES(b, "./g/.", "http://a/b/c/g/");
    RES(b, "g/./h", "http://a/b/c/g/h");
    RES(b, "g/../h", "http://a/b/c/h");
    RES(b, "g;x=1/./y", "http://a/b/c/g;x=1/y");
    RES(b, "g;x=1/../y", "http://a/b/c/y");
    RES(b, "g?y/./x", "http://a/b/c/g?y/./x");
    RES(b, "g?y/../x", "http://a/b/c/g?y/../x");
    RES(b, "g#s/./x", "http://a/b/c/g#s/./x");
    RES(b, "g#s/../x", "http://a/b/c/g#s/../x");
    RES(b, "http:g", "http:g"); /* strict parser */
}

static void test_resolve_schemas(void)
{
    RES("file:///chart/values.schema.json", "schemas/a.json#/defs/x",
        "file:///chart/schemas/a.json#/defs/x");
    RES("file:///chart/values.schema.json", "../../../etc/passwd", "file:///etc/passwd");
    RES("http://localhost:1234/", "baseUriChange/folderInteger.json",
        "http://localhost:1234/baseUriChange/folderInteger.json");
    RES("urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed", "#/$defs/x",
        "urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed#/$defs/x");
    RES("http://example.com", "a", "http://example.com/a");
}

static void check_norm(const char *in, const char *want, int line)
{
    char *got = NULL;
    int err = sd_uri_normalize(&got, in);
    if (err == 0 && got && strcmp(got, want) == 0) {
        t_passed++;
    } else {
        t_failed++;
        fprintf(stderr, "%s:%d: %s: normalize('%s') == \"%s\", expected \"%s\"\n",
                __FILE__, line, t_name, in, got ? got : "(null)", want);
    }
    free(got);
}
#define NORM(i, w) check_norm(i, w, __LINE__)

static void test_normalize(void)
{
    NORM("HTTP://Example.COM:80/a/./b/../c", "http://example.com/a/c");
    NORM("https://example.com:443", "https://example.com/");
    NORM("https://example.com:8443/x", "https://example.com:8443/x");
    NORM("http://example.com:/x", "http://example.com/x");
    NORM("http://a/%7euser/%2fx%2Fy", "http://a/~user/%2Fx%2Fy");
    NORM("http://User@A/x?Q#F", "http://User@a/x?Q#F");
    NORM("file:/tmp/x.json", "file:///tmp/x.json");
    NORM("file://localhost/tmp/x.json", "file:///tmp/x.json");
    NORM("FILE:///tmp/./x.json#/a", "file:///tmp/x.json#/a");
    NORM("urn:example:Thing", "urn:example:Thing");
}

static void test_parse_parts(void)
{
    sd_uri u;
    const char *s = "http://h:1/p?q#f";
    sd_uri_parse(&u, s, strlen(s));
    INT_EQ(u.scheme.n, 4);
    INT_EQ(u.authority.n, 3);
    INT_EQ(u.path.n, 2);
    INT_EQ(u.query.n, 1);
    INT_EQ(u.fragment.n, 1);
    sd_uri_parse(&u, "local-defs/x.json", 17);
    OK(u.scheme.p == NULL);
    OK(u.authority.p == NULL);
    OK(u.query.p == NULL && u.fragment.p == NULL);
    sd_uri_parse(&u, "a b:c", 5); /* not a scheme: space */
    OK(u.scheme.p == NULL);
    sd_uri_parse(&u, "#", 1);
    OK(u.fragment.p != NULL && u.fragment.n == 0);
    OK(sd_uri_has_scheme("k8s-api:x"));
    OK(!sd_uri_has_scheme("k8s-api#/x"));
    OK(sd_uri_scheme_is("HTTPS://x", "https"));
    OK(!sd_uri_scheme_is("http://x", "https"));
}

static void test_split_fragment(void)
{
    char *b = NULL, *f = NULL;
    INT_EQ(sd_uri_split_fragment(&b, &f, "http://a/b#/c/d"), 0);
    STR_EQ(b, "http://a/b");
    STR_EQ(f, "/c/d");
    free(b);
    free(f);
    INT_EQ(sd_uri_split_fragment(&b, &f, "http://a/b"), 0);
    STR_EQ(b, "http://a/b");
    OK(f == NULL);
    free(b);
    INT_EQ(sd_uri_split_fragment(&b, NULL, "x#"), 0);
    STR_EQ(b, "x");
    free(b);
}

static void test_pct(void)
{
    char *s;
    size_t n;
    sd_buf b = SD_BUF_INIT;
    INT_EQ(sd_uri_pct_decode(&s, &n, "a%20b%zz%4", 10), 0);
    STR_EQ(s, "a b%zz%4");
    INT_EQ(n, 8);
    free(s);
    INT_EQ(sd_uri_pct_decode(&s, &n, "%00x", 4), 0);
    INT_EQ(n, 2);
    OK(s[0] == '\0' && s[1] == 'x');
    free(s);
    sd_uri_pct_encode(&b, "a b/%\xc3\xa9", 7, "/");
    STR_EQ(b.ptr, "a%20b/%25%C3%A9");
    sd_buf_release(&b);
}

static void test_paths(void)
{
    char *u = NULL, *p = NULL, cwd[4096], want[4200];
    INT_EQ(sd_uri_from_path(&u, "/tmp/a b/../c.json"), 0);
    STR_EQ(u, "file:///tmp/c.json");
    free(u);
    INT_EQ(sd_uri_from_path(&u, "/tmp//dir/./"), 0);
    STR_EQ(u, "file:///tmp/dir/");
    free(u);
    INT_EQ(sd_uri_from_path(&u, "/x/%#?.json"), 0);
    STR_EQ(u, "file:///x/%25%23%3F.json");
    INT_EQ(sd_uri_to_path(&p, u), 0);
    STR_EQ(p, "/x/%#?.json");
    free(u);
    free(p);
    OK(getcwd(cwd, sizeof cwd) != NULL);
    snprintf(want, sizeof want, "file://%s/tests/x.json", cwd);
    INT_EQ(sd_uri_from_path(&u, "tests/./x.json"), 0);
    STR_EQ(u, want);
    free(u);
    INT_EQ(sd_uri_to_path(&p, "file://localhost/a/b%20c.json#/x"), 0);
    STR_EQ(p, "/a/b c.json");
    free(p);
    INT_EQ(sd_uri_to_path(&p, "file:/a"), 0);
    STR_EQ(p, "/a");
    free(p);
    INT_EQ(sd_uri_to_path(&p, "file://evil/etc/passwd"), SD_EINVALID);
    INT_EQ(sd_uri_to_path(&p, "http://a/b"), SD_EINVALID);
    INT_EQ(sd_uri_to_path(&p, "file:///a%00b"), SD_ESYNTAX);
    OK(p == NULL);
}

static void test_pointer(void)
{
    sd_ptr p = SD_PTR_INIT;
    sd_buf b = SD_BUF_INIT;

    INT_EQ(sd_ptr_parse(&p, "", 0, 0), 0);
    INT_EQ(p.n, 0);
    sd_ptr_release(&p);
    INT_EQ(sd_ptr_parse(&p, "/a~1b/m~0n/~01/", 15, 0), 0);
    INT_EQ(p.n, 4);
    STR_EQ(p.seg[0], "a/b");
    STR_EQ(p.seg[1], "m~n");
    STR_EQ(p.seg[2], "~1");
    STR_EQ(p.seg[3], "");
    INT_EQ(p.len[3], 0);
    sd_ptr_release(&p);
    /* RFC 6901 §6: fragment form is percent-decoded first */
    INT_EQ(sd_ptr_parse(&p, "/c%25d/e%5Ef/%20/k%22l/a~1b", 27, 1), 0);
    INT_EQ(p.n, 5);
    STR_EQ(p.seg[0], "c%d");
    STR_EQ(p.seg[1], "e^f");
    STR_EQ(p.seg[2], " ");
    STR_EQ(p.seg[3], "k\"l");
    STR_EQ(p.seg[4], "a/b");
    sd_ptr_release(&p);
    INT_EQ(sd_ptr_parse(&p, "/%7E1", 5, 1), 0); /* "~1" after decoding */
    STR_EQ(p.seg[0], "/");
    sd_ptr_release(&p);
    INT_EQ(sd_ptr_parse(&p, "/a%00b", 6, 1), 0);
    INT_EQ(p.len[0], 3);
    sd_ptr_release(&p);
    INT_EQ(sd_ptr_parse(&p, "a/b", 3, 0), SD_ESYNTAX);
    INT_EQ(sd_ptr_parse(&p, "/a~2", 4, 0), SD_ESYNTAX);
    INT_EQ(sd_ptr_parse(&p, "/a~", 3, 0), SD_ESYNTAX);
    OK(p.seg == NULL);

    sd_ptr_push(&b, "a/b~c", 5);
    sd_ptr_push(&b, "", 0);
    STR_EQ(b.ptr, "/a~1b~0c/");
    sd_buf_clear(&b);
    sd_ptr_push_uri(&b, "x y%#", 5);
    STR_EQ(b.ptr, "/x%20y%25%23");
    sd_buf_release(&b);

    /* walking: one token at a time, escapes undone, a bad '~' kept */
    {
        const char *text = "/a~1b/~0~1/x~2/", *q = text;
        sd_buf t = SD_BUF_INIT;
        q = sd_ptr_next(&t, q);
        STR_EQ(t.ptr, "a/b");
        OK(*q == '/');
        q = sd_ptr_next(&t, q);
        STR_EQ(t.ptr, "~/");
        q = sd_ptr_next(&t, q);
        STR_EQ(t.ptr, "x~2");
        q = sd_ptr_next(&t, q);
        STR_EQ(t.ptr, "");
        OK(*q == '\0');
        sd_buf_release(&t);
    }
    INT_EQ(sd_ptr_valid("", 0), 1);
    INT_EQ(sd_ptr_valid("/a~0", 4), 1);
    INT_EQ(sd_ptr_valid("a", 1), 0);
    INT_EQ(sd_ptr_valid("/~", 2), 0);
    INT_EQ(sd_ptr_valid("/~2", 3), 0);
}

TEST_MAIN(test_rfc3986_normal, test_rfc3986_abnormal, test_resolve_schemas,
          test_normalize, test_parse_parts, test_split_fragment, test_pct,
          test_paths, test_pointer)
