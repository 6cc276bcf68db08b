/* SPDX-License-Identifier: Apache-2.0 */
/* test_load.c - the loader: YAML 1.1 typing as Helm reads it, positions,
 * comments, multi-document streams, merge keys, JSON, and every error class. */
#include "harness.h"
#include "buf.h"
#include "node.h"
#include "emit.h"
#include "file.h"
#include <malloc.h>
#include <stdio.h>
#include <unistd.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static sd_doc *load(const char *text, enum sd_format fmt, sd_diags *d)
{
    sd_doc *doc = NULL;
    sd_doc_load_mem(&doc, "t.yaml", text, strlen(text), fmt, NULL, d);
    return doc;
}

/* Type of the scalar `v` written plainly as a map value. */
static int kind_of(const char *v, double *num)
{
    char buf[256];
    sd_diags d = SD_DIAGS_INIT;
    snprintf(buf, sizeof buf, "k: %s\n", v);
    sd_doc *doc = load(buf, SD_FMT_YAML, &d);
    int k = -1;
    if (doc) {
        sd_node *n = sd_node_get(sd_doc_root(doc), "k");
        k = n ? n->kind : -1;
        if (n && num)
            *num = n->kind == SD_BOOL ? n->num.b : sd_node_number(n);
    }
    sd_doc_free(doc);
    sd_diags_release(&d);
    return k;
}

static void test_yaml_typing(void)
{
    static const struct { const char *text; int kind; double num; } rows[] = {
        /* null */
        { "", SD_NULL, 0 }, { "~", SD_NULL, 0 }, { "null", SD_NULL, 0 },
        { "Null", SD_NULL, 0 }, { "NULL", SD_NULL, 0 }, { "nULL", SD_STR, 0 },
        /* booleans, YAML 1.1 as go-yaml v2 */
        { "true", SD_BOOL, 1 }, { "True", SD_BOOL, 1 }, { "TRUE", SD_BOOL, 1 },
        { "false", SD_BOOL, 0 }, { "False", SD_BOOL, 0 }, { "FALSE", SD_BOOL, 0 },
        { "yes", SD_BOOL, 1 }, { "Yes", SD_BOOL, 1 }, { "YES", SD_BOOL, 1 },
        { "no", SD_BOOL, 0 }, { "No", SD_BOOL, 0 }, { "NO", SD_BOOL, 0 },
        { "on", SD_BOOL, 1 }, { "On", SD_BOOL, 1 }, { "ON", SD_BOOL, 1 },
        { "off", SD_BOOL, 0 }, { "Off", SD_BOOL, 0 }, { "OFF", SD_BOOL, 0 },
        { "y", SD_BOOL, 1 }, { "Y", SD_BOOL, 1 }, { "n", SD_BOOL, 0 }, { "N", SD_BOOL, 0 },
        { "yEs", SD_STR, 0 }, { "tRue", SD_STR, 0 },
        /* integers */
        { "0", SD_INT, 0 }, { "42", SD_INT, 42 }, { "-17", SD_INT, -17 }, { "+5", SD_INT, 5 },
        { "1_000", SD_INT, 1000 }, { "0x1F", SD_INT, 31 }, { "0X1f", SD_INT, 31 },
        { "0o17", SD_INT, 15 }, { "017", SD_INT, 15 }, { "0b101", SD_INT, 5 },
        { "-0b11", SD_INT, -3 }, { "09", SD_FLOAT, 9 },
        { "9223372036854775807", SD_INT, 9223372036854775807.0 },
        { "18446744073709551615", SD_INT, 18446744073709551615.0 },
        /* floats */
        { "1.5", SD_FLOAT, 1.5 }, { ".5", SD_FLOAT, 0.5 }, { "-.5", SD_FLOAT, -0.5 },
        { "1.", SD_FLOAT, 1 }, { "1e3", SD_FLOAT, 1000 }, { "6.02E+23", SD_FLOAT, 6.02e23 },
        { "1_0.5", SD_FLOAT, 10.5 }, { "99999999999999999999", SD_FLOAT, 1e20 },
        { ".inf", SD_FLOAT, INFINITY }, { ".Inf", SD_FLOAT, INFINITY }, { "+.INF", SD_FLOAT, INFINITY },
        { "-.inf", SD_FLOAT, -INFINITY },
        /* strings */
        { "\"yes\"", SD_STR, 0 }, { "'123'", SD_STR, 0 }, { "\"null\"", SD_STR, 0 },
        { "1.2.3", SD_STR, 0 }, { "0x", SD_STR, 0 }, { "0o", SD_STR, 0 }, { "e3", SD_STR, 0 }, { "12:30", SD_STR, 0 },
        { "2001-12-14", SD_STR, 0 }, { "!!str 1", SD_STR, 0 }, { "!!float 1", SD_FLOAT, 1 },
        { "!!int \"7\"", SD_INT, 7 }, { "- a", -1, 0 },
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        double num = 0;
        int k = kind_of(rows[i].text, &num);
        if (rows[i].kind == -1) { OK(k != SD_STR); continue; }
        if (k != rows[i].kind)
            fprintf(stderr, "typing row '%s': got %d\n", rows[i].text, k);
        INT_EQ(k, rows[i].kind);
        if (k == SD_INT || k == SD_FLOAT || k == SD_BOOL)
            OK(num == rows[i].num);
    }
    double nan_v = 0;
    INT_EQ(kind_of(".nan", &nan_v), SD_FLOAT);
    OK(isnan(nan_v));
    INT_EQ(kind_of(".NaN", NULL), SD_FLOAT);
}

static void test_positions_and_comments(void)
{
    sd_diags d = SD_DIAGS_INIT;
    const char *text =
        "# header\n"
        "\n"
        "# -- Replicas\n"
        "# second line\n"
        "replicas: 1 # trailing\n"
        "image:\n"
        "  ## @param image.tag the tag\n"
        "  tag: \"v1 # not a comment\"\n"
        "  script: |\n"
        "    # inside a block scalar\n"
        "    echo\n"
        "  # -- after block\n"
        "  pull: Always\n";
    sd_doc *doc = load(text, SD_FMT_YAML, &d);
    OK(doc != NULL);
    if (!doc)
        return;
    sd_node *root = sd_doc_root(doc);
    const sd_pair *p = sd_node_get_pair(root, "replicas");
    OK(p != NULL);
    INT_EQ(p->key->loc.line, 5);
    INT_EQ(p->key->loc.column, 1);
    INT_EQ(p->value->loc.column, 11);
    INT_EQ(p->c_count, 3); /* header, -- Replicas, second line (blank line inside) */
    STR_EQ(doc->comments[p->c_first + 1].text, " -- Replicas");
    INT_EQ(doc->comments[p->c_first + 1].len, strlen(" -- Replicas"));
    OK(p->c_trail >= 0);
    sd_node *img = sd_node_get(root, "image");
    const sd_pair *tag = sd_node_get_pair(img, "tag");
    INT_EQ(tag->c_count, 1);
    OK(strncmp(doc->comments[tag->c_first].text, "# @param image.tag", 18) == 0);
    STR_EQ(sd_node_str(tag->value), "v1 # not a comment");
    INT_EQ(tag->c_trail, -1);
    const sd_pair *pull = sd_node_get_pair(img, "pull");
    INT_EQ(pull->c_count, 1);
    OK(strncmp(doc->comments[pull->c_first].text, " -- after block", 15) == 0);
    INT_EQ(doc->ncomments, 6); /* the block scalar's line is not a comment */
    sd_doc_free(doc);
    sd_diags_release(&d);
}

/* libyaml counts characters, not bytes: non-ASCII text before a quoted
 * scalar must not shift where comments are found (argo-cd regression). */
static void test_comments_after_utf8(void)
{
    sd_diags d = SD_DIAGS_INIT;
    sd_doc *doc = load("a: \"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9 \xe2\x86\x92\"\n"
                       "b:\n  # -- the size\n  # @default -- `\"\"` (none)\n  s: \"\"\n", SD_FMT_YAML, &d);
    OK(doc != NULL);
    if (doc) {
        const sd_pair *p = sd_node_get_pair(sd_node_get(sd_doc_root(doc), "b"), "s");
        INT_EQ(p->c_count, 2);
        INT_EQ(doc->comments[p->c_first].own_line, 1);
    }
    sd_doc_free(doc);
    sd_diags_release(&d);
}

static void test_streams_and_merge(void)
{
    sd_diags d = SD_DIAGS_INIT;
    sd_doc *doc = load("#@data/values-schema\n---\na: 1\n---\nb: 2\n...\n", SD_FMT_YAML, &d);
    OK(doc && doc->nroots == 2);
    if (doc) {
        INT_EQ(doc->roots[0].c_count, 1);
        INT_EQ(sd_node_get(doc->roots[1].node, "b")->num.i, 2);
    }
    sd_doc_free(doc);
    doc = load("base: &b {x: 1, y: 2}\nc:\n  <<: *b\n  y: 3\nl: [*b, *b]\n", SD_FMT_YAML, &d);
    OK(doc != NULL);
    if (doc) {
        sd_node *c = sd_node_get(sd_doc_root(doc), "c");
        INT_EQ(c->n, 2);
        INT_EQ(sd_node_get(c, "x")->num.i, 1);
        INT_EQ(sd_node_get(c, "y")->num.i, 3);
        OK(sd_node_get(sd_doc_root(doc), "l")->items[1].value == sd_node_get(sd_doc_root(doc), "base"));
    }
    sd_doc_free(doc);
    /* keys written in the map win, then earlier sources; merged keys first */
    doc = load("a: &a {x: 1, y: 1}\nb: &b {y: 2, z: 2, v: 2}\nc:\n  <<: [*a, *b]\n  z: 3\n  w: 4\n", SD_FMT_YAML, &d);
    OK(doc != NULL);
    if (doc) {
        sd_node *c = sd_node_get(sd_doc_root(doc), "c");
        static const char *const keys[] = { "x", "y", "v", "z", "w" };
        static const long long vals[] = { 1, 1, 2, 3, 4 };
        INT_EQ(c->n, 5);
        for (size_t i = 0; i < 5 && i < c->n; i++) {
            STR_EQ(c->items[i].key->str, keys[i]);
            INT_EQ(c->items[i].value->num.i, vals[i]);
        }
    }
    sd_doc_free(doc);
    INT_EQ(d.count, 0);
    sd_diags_release(&d);
}

static char *first_error(const char *text, enum sd_format fmt, int *code)
{
    sd_diags d = SD_DIAGS_INIT;
    sd_doc *doc = load(text, fmt, &d);
    char *msg = NULL;
    *code = 0;
    if (!doc && d.count) {
        msg = sd_diag_format(&d.items[0]);
        *code = d.items[0].code;
    }
    sd_doc_free(doc);
    sd_diags_release(&d);
    return msg;
}

#define ERR_EQ(text, fmt, want_code, want_msg) do { int c_; char *m_ = first_error(text, fmt, &c_); \
    STR_EQ(m_, want_msg); INT_EQ(c_, want_code); free(m_); } while (0)

static void test_errors(void)
{
    ERR_EQ("a: 1\nb: [1, 2\n", SD_FMT_YAML, SD_ESYNTAX,
           "t.yaml:3:1: error: did not find expected ',' or ']' (while parsing a flow sequence at 2:4)");
    ERR_EQ("a: 1\nb:\n  c: 1\n  c: 2\n", SD_FMT_YAML, SD_EDUP,
           "t.yaml:4:3: error: duplicate key 'c' (first defined at 3:3)");
    ERR_EQ("a: *nope\n", SD_FMT_YAML, SD_ESYNTAX, "t.yaml:1:4: error: unknown anchor 'nope' referenced");
    ERR_EQ("? [a]\n: 1\n", SD_FMT_YAML, SD_ESYNTAX,
           "t.yaml:1:3: error: mapping keys must be scalars (a list is used as a key)");
    ERR_EQ("a: !!int abc\n", SD_FMT_YAML, SD_ESYNTAX, "t.yaml:1:4: error: cannot read 'abc' as int");
    ERR_EQ("{\"a\": 1, \"a\": 2}", SD_FMT_JSON, SD_EDUP,
           "t.yaml:1:10: error: duplicate key 'a' (first defined at 1:2)");
    ERR_EQ("{\"a\": [1, 2,]}", SD_FMT_JSON, SD_ESYNTAX,
           "t.yaml:1:13: error: unexpected ']', expected a JSON value (JSON allows no comma before ']')");
    ERR_EQ("{\"a\": tru}", SD_FMT_JSON, SD_ESYNTAX, "t.yaml:1:7: error: unexpected 't', expected a JSON value");
    ERR_EQ("{\"a\": 1}\n{}", SD_FMT_JSON, SD_ESYNTAX,
           "t.yaml:2:1: error: unexpected '{', expected end of input after the JSON value");
    ERR_EQ("\"\xff\"", SD_FMT_JSON, SD_ESYNTAX, "t.yaml:1:2: error: unexpected byte 0xff, expected valid UTF-8");
    ERR_EQ("{\"a\":\n  \"x\ty\"}", SD_FMT_JSON, SD_ESYNTAX,
           "t.yaml:2:5: error: unexpected byte 0x09, expected a string character (control characters must be escaped)");
    ERR_EQ("[1, 01]", SD_FMT_JSON, SD_ESYNTAX, "t.yaml:1:6: error: unexpected '1', expected ',' or ']'");
    ERR_EQ("", SD_FMT_JSON, SD_ESYNTAX, "t.yaml:1:1: error: unexpected end of input, expected a JSON value");
}

/* One budget of nodes through aliases per run (issue 41): 30,000 each in
 * two documents is 60,000, over the 50,000 of a run; a refused document
 * gives its share back; a reset starts again. Each document alone was
 * within the old limit of 4,000,000 per document. */
static void test_alias_budget(void)
{
    /* 10 + 3 x 10,000 alias nodes: 30,000 */
    const char *doc30k =
        "a: &a [1,2,3,4,5,6,7,8,9]\n"
        "b: [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
        "c: [" ;
    sd_buf b = SD_BUF_INIT;
    sd_buf_puts(&b, doc30k);
    for (int i = 0; i < 2990; i++)
        sd_buf_puts(&b, i ? ",*a" : "*a");
    sd_buf_puts(&b, "]\n");
    sd_diags d = SD_DIAGS_INIT;
    sd_doc *x, *y;
    int code;

    sd_load_budget_reset(0);
    x = load(b.ptr, SD_FMT_YAML, &d);
    OK(x != NULL);
    INT_EQ((int)sd_load_budget_used(), 30000);
    char *m = first_error(b.ptr, SD_FMT_YAML, &code);
    OK(m && strstr(m, "t.yaml:3:") && strstr(m, "more than 50000 nodes (the alias limit"));
    INT_EQ(code, SD_ELIMIT);
    free(m);
    INT_EQ((int)sd_load_budget_used(), 30000);   /* the refused one gave back its share */
    sd_load_budget_reset(100000);
    y = load(b.ptr, SD_FMT_YAML, &d);
    OK(y != NULL);
    INT_EQ((int)sd_load_budget_used(), 30000);
    sd_load_budget_reset(0);
    sd_doc_free(x);
    sd_doc_free(y);
    sd_diags_release(&d);
    sd_buf_release(&b);
}

static void test_limits(void)
{
    /* deep nesting: both parsers stop at 1000 levels */
    size_t n = 100000;
    char *deep = malloc(2 * n + 1);
    memset(deep, '[', n);
    memset(deep + n, ']', n);
    deep[2 * n] = '\0';
    int code;
    char *m = first_error(deep, SD_FMT_JSON, &code);
    STR_EQ(m, "t.yaml:1:1001: error: nesting is deeper than 1000 levels");
    INT_EQ(code, SD_ELIMIT);
    free(m);
    m = first_error(deep, SD_FMT_YAML, &code);
    STR_EQ(m, "t.yaml:1:1001: error: nesting is deeper than 1000 levels");
    free(m);
    free(deep);

    /* billion laughs: fails fast instead of expanding */
    const char *bomb =
        "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
        "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
        "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
        "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
        "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
        "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"
        "g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n"
        "h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\n"
        "i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]\n";
    clock_t t0 = clock();
    m = first_error(bomb, SD_FMT_YAML, &code);
    OK(m && strstr(m, "error: aliases expand the documents of this run to more than 50000 nodes "
                      "(the alias limit; SCHEMADOC_MAX_ALIAS_NODES=N raises it)"));
    INT_EQ(code, SD_ELIMIT);
    OK((double)(clock() - t0) / CLOCKS_PER_SEC < 0.5);
    free(m);
    test_alias_budget();
}

/* A document on one line (minified JSON loaded as YAML, a flow mapping):
 * the comment scan finds the line's end once, not once per quoted scalar.
 * 100,000 quoted keys on one line took 9 s (ASan) when it was quadratic. */
static void test_one_line_document(void)
{
    sd_buf b = SD_BUF_INIT;
    sd_diags d = SD_DIAGS_INIT;
    sd_buf_putc(&b, '{');
    for (int i = 0; i < 100000; i++)
        sd_buf_printf(&b, "%s\"key%d\": \"value #%d\"", i ? ", " : "", i, i);
    sd_buf_puts(&b, "} # the only comment\n");
    OK(!sd_buf_failed(&b));
    clock_t t0 = clock();
    sd_doc *doc = load(b.ptr, SD_FMT_YAML, &d);
    double cpu = (double)(clock() - t0) / CLOCKS_PER_SEC;
    OK(doc != NULL);
    OK(doc && doc->ncomments == 1);
    printf("figure: one-line document of %zu bytes loaded in %.3f s CPU\n", b.len, cpu);
    OK(cpu < 2.0);
    sd_doc_free(doc);
    sd_diags_release(&d);
    sd_buf_release(&b);
}

static void test_json_values(void)
{
    sd_diags d = SD_DIAGS_INIT;
    sd_doc *doc = load("{\"s\": \"a\\u00e9\\ud83d\\ude00\\n\", \"i\": -12, \"f\": 1.50, \"big\": 123456789012345678901,"
                       " \"t\": true, \"z\": null, \"l\": []}", SD_FMT_JSON, &d);
    OK(doc != NULL);
    if (!doc)
        return;
    sd_node *r = sd_doc_root(doc);
    STR_EQ(sd_node_str(sd_node_get(r, "s")), "a\xc3\xa9\xf0\x9f\x98\x80\n");
    INT_EQ(sd_node_get(r, "i")->num.i, -12);
    INT_EQ(sd_node_get(r, "f")->kind, SD_FLOAT);
    OK(sd_node_get(r, "big")->big);
    INT_EQ(sd_node_get(r, "z")->kind, SD_NULL);
    INT_EQ(sd_node_get(r, "l")->kind, SD_SEQ);
    INT_EQ(sd_node_get(r, "f")->loc.column, 47);
    sd_buf b = SD_BUF_INIT;
    sd_emit_json(&b, doc, r, 0, 0);
    STR_EQ(b.ptr, "{\"s\":\"a\xc3\xa9\xf0\x9f\x98\x80\\n\",\"i\":-12,\"f\":1.50,\"big\":123456789012345678901,"
                  "\"t\":true,\"z\":null,\"l\":[]}");
    sd_buf_release(&b);
    sd_doc_free(doc);
    sd_diags_release(&d);
}

/* JSON containers keep their pairs right after their node (json.c's
 * count_members), counted through strings with brackets, commas and
 * escaped quotes; wide maps get their key index in the same piece, and
 * duplicates are still found. */
static void test_json_layout(void)
{
    sd_diags d = SD_DIAGS_INIT;
    sd_buf t = SD_BUF_INIT;
    sd_doc *doc = load("{\"a,[{\": [1, \"]\\\"}\", {}], \"b\": {\"c\": [[], [3]]}, \"d\": \"x\"}", SD_FMT_JSON, &d);
    OK(doc != NULL);
    if (doc) {
        sd_node *r = sd_doc_root(doc), *a = sd_node_get(r, "a,[{"), *b = sd_node_get(r, "b");
        INT_EQ(r->n, 3);
        OK(r->items == (sd_pair *)(void *)(r + 1));
        OK(a && a->n == 3 && a->items == (sd_pair *)(void *)(a + 1));
        OK(a && a->n == 3 && a->items[2].value->kind == SD_MAP && a->items[2].value->n == 0);
        OK(a && a->n == 3 && strcmp(a->items[1].value->str, "]\"}") == 0);
        OK(b && b->n == 1 && sd_node_get(b, "c")->n == 2 && sd_node_get(b, "c")->items[1].value->n == 1);
        STR_EQ(sd_node_str(sd_node_get(r, "d")), "x");
        sd_doc_free(doc);
    }
    sd_buf_putc(&t, '{');
    for (int i = 0; i < 100; i++)
        sd_buf_printf(&t, "%s\"k%d\": [%d]", i ? ", " : "", i, i);
    sd_buf_putc(&t, '}');
    doc = load(t.ptr, SD_FMT_JSON, &d);
    OK(doc != NULL);
    if (doc) {
        sd_node *r = sd_doc_root(doc);
        INT_EQ(r->n, 100);
        OK(r->keyidx);
        OK(r->items == (sd_pair *)(void *)(r + 1));
        INT_EQ(sd_node_get(r, "k77")->items[0].value->num.i, 77);
        OK(sd_node_get(r, "k100") == NULL);
        sd_doc_free(doc);
    }
    sd_buf_clear(&t);
    sd_buf_puts(&t, "[{\"x\": 1, \"y\": 2, \"x\": 3}]");
    OK(load(t.ptr, SD_FMT_JSON, &d) == NULL);
    OK(d.count > 0 && strstr(d.items[d.count - 1].message, "duplicate key 'x'") != NULL);
    sd_buf_clear(&t);
    sd_buf_puts(&t, "[1, 2,, 3]");   /* the count is off for bad text: still a clean error */
    OK(load(t.ptr, SD_FMT_JSON, &d) == NULL);
    sd_buf_release(&t);
    sd_diags_release(&d);
}

static void test_read_file(void)
{
    sd_diags d = SD_DIAGS_INIT;
    sd_doc *doc = NULL;
    INT_EQ(sd_doc_load_file(&doc, "/dev/zero", SD_FMT_AUTO, NULL, &d), SD_EIO);
    INT_EQ(sd_doc_load_file(&doc, "/nonexistent/x.yaml", SD_FMT_AUTO, NULL, &d), SD_ENOTFOUND);
    sd_load_limits lim = { 4, 0, 0, 0 };
    INT_EQ(sd_doc_load_file(&doc, "Makefile", SD_FMT_YAML, &lim, &d), SD_ELIMIT);
    char *m = sd_diag_format(&d.items[0]);
    STR_EQ(m, "/dev/zero: error: not a regular file");
    free(m);
    sd_diags_release(&d);

    /* a file read whole takes its size and a byte or two, not double */
    char path[] = "/tmp/sd-test-read-XXXXXX";
    int fd = mkstemp(path);
    OK(fd >= 0);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    OK(f != NULL);
    size_t n = 100000;
    for (size_t i = 0; f && i < n; i++)
        fputc('a' + (int)(i % 26), f);
    if (f)
        fclose(f);
    char *text = NULL;
    size_t len = 0;
    INT_EQ(sd_file_read(&text, &len, path, SD_FILE_MAX, 0, &d), 0);
    OK(len == n && text && text[n] == '\0' && text[0] == 'a' && text[n - 1] == 'a' + (int)((n - 1) % 26));
    OK(text && malloc_usable_size(text) < n + 64);
    free(text);
    /* the limit is inclusive: n bytes fit a limit of n and not of n - 1 */
    INT_EQ(sd_file_read(&text, &len, path, n, 0, &d), 0);
    OK(len == n);
    free(text);
    INT_EQ(sd_file_read(&text, &len, path, n - 1, 0, &d), SD_ELIMIT);
    OK(text == NULL && d.count > 0 && strstr(d.items[d.count - 1].message, "limit of 99999 bytes") != NULL);
    unlink(path);
    sd_diags_release(&d);
}


/* sd_load_limits.no_comments (a values file Helm's merge reads): the same
 * tree, no comment kept, every pair and root undocumented, less memory */
static void test_no_comments(void)
{
    static const char text[] =
        "# above the document\n# -- the base\nbase: &b {x: 1}  # trailing\n"
        "m:\n  # -- merged\n  <<: *b\n  # -- y\n  y: [*b, 2]  # two\n# port: 80\nz: \"q # not a comment\"\n";
    sd_load_limits bare = { 0, 0, 0, 1 };
    sd_diags d = SD_DIAGS_INIT;
    sd_doc *full = NULL, *none = NULL;
    OK(sd_doc_load_mem(&full, "c.yaml", text, sizeof text - 1, SD_FMT_YAML, NULL, &d) == 0);
    OK(sd_doc_load_mem(&none, "c.yaml", text, sizeof text - 1, SD_FMT_YAML, &bare, &d) == 0);
    if (!full || !none)
        return;
    sd_buf a = SD_BUF_INIT, b = SD_BUF_INIT;
    sd_emit_json(&a, full, sd_doc_root(full), 0, 0);
    sd_emit_json(&b, none, sd_doc_root(none), 0, 0);
    STR_EQ(a.ptr, b.ptr);
    OK(full->ncomments == 7);
    OK(none->ncomments == 0 && none->comments == NULL);
    OK(none->roots[0].c_count == 0 && none->roots[0].c_first == 0);
    const sd_node *r = sd_doc_root(none), *m = sd_node_get(r, "m");
    for (size_t i = 0; i < r->n; i++)
        OK(r->items[i].c_trail == -1 && r->items[i].c_count == 0);
    for (size_t i = 0; m && i < m->n; i++)
        OK(m->items[i].c_trail == -1 && m->items[i].c_count == 0);
    OK(m && m->n == 2);
    OK(none->arena.used < full->arena.used);
    sd_buf_release(&a);
    sd_buf_release(&b);
    sd_doc_free(full);
    sd_doc_free(none);
    sd_diags_release(&d);
}

TEST_MAIN(test_yaml_typing, test_positions_and_comments, test_comments_after_utf8, test_streams_and_merge, test_errors,
          test_limits, test_one_line_document, test_json_values, test_json_layout, test_read_file,
          test_no_comments)
