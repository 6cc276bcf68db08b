/* SPDX-License-Identifier: Apache-2.0 */
/* test_validate.c - the resolver and validator on hostile and tricky
 * inputs: ReDoS patterns, huge uniqueItems arrays, $ref loops, long $ref
 * chains, RFC 3986 resolution, exact multipleOf, messages. Each hostile
 * case must finish in well under a second. */
#include "harness.h"
#include "buf.h"
#include "node.h"
#include "resolve.h"
#include "rules.h"
#include "validate.h"
#include "uri.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* CPU seconds of this process: the time bounds below are about our work,
 * not about what else the machine is doing. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

typedef struct fixture {
    sd_doc *sdoc, *idoc;
    sd_validator *v;
    sd_vresult res;
    sd_diags diags;
    int compile, result;
    double secs;          /* compile + validate, without loading */
} fixture;

/* Compile `schema`, validate `inst` (both JSON text) with full results. */
static void run(fixture *f, const char *schema, const char *inst, int draft)
{
    sd_validate_opts o = { 0 };
    memset(f, 0, sizeof *f);
    o.default_draft = draft;
    f->result = 99;
    if (sd_doc_load_mem(&f->sdoc, "schema.json", schema, strlen(schema), SD_FMT_JSON, NULL, &f->diags) < 0 ||
        sd_doc_load_mem(&f->idoc, "inst.json", inst, strlen(inst), SD_FMT_JSON, NULL, &f->diags) < 0) {
        f->compile = -100;
        return;
    }
    f->secs = now();
    f->compile = sd_validator_new(&f->v, f->sdoc, sd_doc_root(f->sdoc), &o, &f->diags);
    if (f->compile == 0)
        f->result = sd_validate(f->v, sd_doc_root(f->idoc), &f->res, &f->diags);
    f->secs = now() - f->secs;
}

static void done(fixture *f)
{
    sd_vresult_release(&f->res);
    sd_diags_release(&f->diags);
    sd_validator_free(f->v);
    sd_doc_free(f->sdoc);
    sd_doc_free(f->idoc);
}

static void test_redos(void)
{
    fixture f;
    char inst[64];
    double t = now();
    memset(inst, 0, sizeof inst);
    inst[0] = '"';
    memset(inst + 1, 'a', 40);
    strcpy(inst + 41, "!\"");
    run(&f, "{\"type\": \"string\", \"pattern\": \"^(a+)+$\"}", inst, 0);
    INT_EQ(f.compile, 0);
    INT_EQ(f.result, SD_EINVALID);
    OK(f.res.count == 1 && strstr(f.res.items[0].message, "backtracking") != NULL);
    OK(now() - t < 1.0);
    done(&f);
}

static void test_unique_300k(void)
{
    sd_buf b = SD_BUF_INIT;
    fixture f;
    sd_buf_puts(&b, "[");
    for (int i = 0; i < 300000; i++)
        sd_buf_printf(&b, "%s%d", i ? "," : "", i);
    sd_buf_puts(&b, "]");
    run(&f, "{\"uniqueItems\": true}", b.ptr, 0);
    INT_EQ(f.result, 0);
    OK(f.secs < 1.0);
    done(&f);
    /* one duplicate at the very end, written as 1.0 (equal by value) */
    sd_buf_truncate(&b, b.len - 1);
    sd_buf_puts(&b, ",1.0]");
    run(&f, "{\"uniqueItems\": true}", b.ptr, 0);
    INT_EQ(f.result, SD_EINVALID);
    OK(f.res.count == 1 && strcmp(f.res.items[0].path, "/300000") == 0);
    OK(f.secs < 1.0);
    done(&f);
    sd_buf_release(&b);
}

static void test_ref_self(void)
{
    fixture f;
    double t = now();
    run(&f, "{\"$ref\": \"#\"}", "{\"a\": 1}", SD_DRAFT_7);
    INT_EQ(f.compile, 0);
    INT_EQ(f.result, SD_ELIMIT);
    OK(f.diags.count == 1 && strstr(f.diags.items[0].message, "loop") != NULL);
    done(&f);
    run(&f, "{\"$ref\": \"#\"}", "1", SD_DRAFT_2020);
    INT_EQ(f.result, SD_ELIMIT);
    done(&f);
    /* not a pure alias: caught at run time on the same instance node */
    run(&f, "{\"allOf\": [{\"$ref\": \"#\"}]}", "[]", SD_DRAFT_2020);
    INT_EQ(f.result, SD_ELIMIT);
    OK(f.diags.count == 1 && strstr(f.diags.items[0].message, "loop without progress") != NULL);
    done(&f);
    /* recursion that consumes the instance is fine */
    run(&f, "{\"properties\": {\"next\": {\"$ref\": \"#\"}}, \"required\": [\"v\"]}",
        "{\"v\": 1, \"next\": {\"v\": 2, \"next\": {\"w\": 3}}}", SD_DRAFT_2020);
    INT_EQ(f.result, SD_EINVALID);
    OK(f.res.count == 1 && strcmp(f.res.items[0].path, "/next/next") == 0);
    OK(now() - t < 1.0);
    done(&f);
}

static void test_ref_loop_two(void)
{
    fixture f;
    run(&f, "{\"$defs\": {\"a\": {\"$ref\": \"#/$defs/b\"}, \"b\": {\"$ref\": \"#/$defs/a\"}},"
            " \"$ref\": \"#/$defs/a\"}", "{}", SD_DRAFT_2020);
    INT_EQ(f.compile, 0);
    INT_EQ(f.result, SD_ELIMIT);
    done(&f);
    run(&f, "{\"definitions\": {\"a\": {\"$ref\": \"#/definitions/b\"}, \"b\": {\"$ref\": \"#/definitions/a\"}},"
            " \"properties\": {\"x\": {\"$ref\": \"#/definitions/a\"}}}", "{\"x\": 1}", SD_DRAFT_7);
    INT_EQ(f.result, SD_ELIMIT);
    done(&f);
}

static void test_ref_chain(void)
{
    /* 50,000 definitions, each a $ref to the next: compiled without recursion */
    sd_buf b = SD_BUF_INIT;
    fixture f;
    double t = now();
    sd_buf_puts(&b, "{\"$ref\": \"#/$defs/d0\", \"$defs\": {");
    for (int i = 0; i < 50000; i++)
        sd_buf_printf(&b, "\"d%d\": {\"$ref\": \"#/$defs/d%d\"},", i, i + 1);
    sd_buf_puts(&b, "\"d50000\": {\"type\": \"string\"}}}");
    run(&f, b.ptr, "12", SD_DRAFT_2020);
    INT_EQ(f.compile, 0);
    INT_EQ(f.result, SD_EINVALID);
    OK(f.res.count == 1 && strcmp(f.res.items[0].schema_path, "#/$defs/d50000/type") == 0);
#ifdef SD_ARENA_DEBUG
    OK(now() - t < 20.0);   /* a malloc per node and string: linear, but slower */
#else
    OK(now() - t < 2.0);
#endif
    done(&f);
    sd_buf_release(&b);
}

static void test_unresolvable(void)
{
    fixture f;
    run(&f, "{\"properties\": {\"a\": {\"$ref\": \"#/definitions/nope\"}}, \"definitions\": {}}", "{}", SD_DRAFT_7);
    INT_EQ(f.compile, SD_EREF);
    OK(f.diags.count == 1);
    if (f.diags.count) {
        STR_EQ(f.diags.items[0].message,
               "cannot resolve $ref '#/definitions/nope': '#/definitions' has no key 'nope' in schema.json");
        INT_EQ(f.diags.items[0].loc.line, 1);
    }
    done(&f);
    run(&f, "{\"$ref\": \"#foo\"}", "{}", SD_DRAFT_2020);
    INT_EQ(f.compile, SD_EREF);
    OK(f.diags.count == 1 && strstr(f.diags.items[0].message, "no anchor 'foo'") != NULL);
    done(&f);
}

static void test_uri(void)
{
    /* RFC 3986 §5.4 */
    static const char *const cases[][2] = {
        { "g:h", "g:h" }, { "g", "http://a/b/c/g" }, { "./g", "http://a/b/c/g" },
        { "g/", "http://a/b/c/g/" }, { "/g", "http://a/g" }, { "//g", "http://g" },
        { "?y", "http://a/b/c/d;p?y" }, { "g?y", "http://a/b/c/g?y" }, { "#s", "http://a/b/c/d;p?q#s" },
        { "g#s", "http://a/b/c/g#s" }, { ";x", "http://a/b/c/;x" }, { "", "http://a/b/c/d;p?q" },
        { ".", "http://a/b/c/" }, { "./", "http://a/b/c/" }, { "..", "http://a/b/" },
        { "../", "http://a/b/" }, { "../g", "http://a/b/g" }, { "../..", "http://a/" },
        { "../../g", "http://a/g" }, { "../../../g", "http://a/g" }, { "/./g", "http://a/g" },
        { "/../g", "http://a/g" }, { "g.", "http://a/b/c/g." }, { "..g", "http://a/b/c/..g" },
        { "./../g", "http://a/b/g" }, { "g/./h", "http://a/b/c/g/h" }, { "g/../h", "http://a/b/c/h" },
        { "g;x=1/../y", "http://a/b/c/y" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *r = NULL;
        INT_EQ(sd_uri_resolve(&r, "http://a/b/c/d;p?q", cases[i][0]), 0);
        STR_EQ(r, cases[i][1]);
        free(r);
    }
    {
        char *r = NULL;
        INT_EQ(sd_uri_resolve(&r, "urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed", "#/$defs/bar"), 0);
        STR_EQ(r, "urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed#/$defs/bar");
        free(r);
    }
}

static void test_numbers(void)
{
    fixture f;
    run(&f, "{\"multipleOf\": 0.1}", "0.3", 0);
    INT_EQ(f.result, 0);
    done(&f);
    run(&f, "{\"multipleOf\": 0.01}", "19.99", 0);
    INT_EQ(f.result, 0);
    done(&f);
    run(&f, "{\"multipleOf\": 0.01}", "19.991", 0);
    INT_EQ(f.result, SD_EINVALID);
    done(&f);
    /* numbers of more than 15 significant digits (each the double it
     * reads as), ties, negatives, and quotients past 2^52 or past the
     * doubles' range */
    {
        static const struct { const char *m, *x; int ok; } q[] = {
            { "0.33333333333333333333", "1", 0 },          /* 3.0000000000000004 */
            { "3.00000000000000000001", "-6", 1 },         /* -2 */
            { "3.00000000000000000001", "7.5", 0 },        /* 2.5: a tie is 0.5 away */
            { "3.00000000000000000001", "-7.5", 0 },
            { "3.00000000000000000001", "8.9999999999", 0 },
            { "1.00000000000000000001", "4503599627370497", 1 },   /* past 2^52: integral */
            { "1.00000000000000000001", "1e300", 1 },
            { "0.70000000000000000001", "2.1", 1 },
            { "0.70000000000000000001", "2.45", 0 },       /* 3.5 */
            { "1e-300", "1e300", 1 },                      /* 1e600: exact all the same */
            { "7", "1e400", 0 },                           /* infinite: never a multiple */
            { "7", "1e-500", 1 },                          /* 0 as a double: the doubles' path */
        };
        for (size_t i = 0; i < sizeof q / sizeof q[0]; i++) {
            char schema[96];
            snprintf(schema, sizeof schema, "{\"multipleOf\": %s}", q[i].m);
            run(&f, schema, q[i].x, 0);
            if (f.result != (q[i].ok ? 0 : SD_EINVALID))
                fprintf(stderr, "multipleOf %s, %s: %d\n", q[i].m, q[i].x, f.result);
            INT_EQ(f.result, q[i].ok ? 0 : SD_EINVALID);
            done(&f);
        }
    }
    run(&f, "{\"enum\": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}", "10.0", 0);
    INT_EQ(f.result, 0);
    done(&f);
    run(&f, "{\"const\": {\"a\": [1, {\"b\": 2}]}}", "{\"a\": [1.0, {\"b\": 2.0}]}", 0);
    INT_EQ(f.result, 0);
    done(&f);
    run(&f, "{\"type\": \"integer\"}", "1.0", 0);
    INT_EQ(f.result, 0);
    done(&f);
}

static void test_messages(void)
{
    fixture f;
    run(&f, "{\"properties\": {\"replicaCount\": {}, \"image\": {}}, \"additionalProperties\": false}",
        "{\"replicaCont\": 1}", 0);
    OK(f.res.count == 1);
    if (f.res.count) {
        STR_EQ(f.res.items[0].message, "unexpected key `replicaCont`; did you mean `replicaCount`?");
        STR_EQ(f.res.items[0].keyword, "additionalProperties");
        STR_EQ(f.res.items[0].path, "/replicaCont");
        STR_EQ(f.res.items[0].schema_path, "#/additionalProperties");
    }
    done(&f);
    run(&f, "{\"properties\": {\"a\": {\"properties\": {\"b\": {\"type\": \"string\"}}}}}",
        "{\"a\": {\"b\": 3}}", 0);
    OK(f.res.count == 1);
    if (f.res.count) {
        STR_EQ(f.res.items[0].message, "found integer 3, expected string");
        STR_EQ(f.res.items[0].key, "a.b");
        STR_EQ(f.res.items[0].schema_path, "#/properties/a/properties/b/type");
        INT_EQ(f.res.items[0].loc.column, 13);
        INT_EQ(f.res.items[0].schema_loc.column, 44);
    }
    done(&f);
    /* every violation is collected */
    run(&f, "{\"items\": {\"type\": \"integer\", \"minimum\": 0}}", "[-1, \"x\", 2, -5]", 0);
    INT_EQ(f.res.count, 3);
    done(&f);
    /* CRD extensions */
    run(&f, "{\"type\": \"string\", \"nullable\": true}", "null", 0);
    INT_EQ(f.result, 0);
    done(&f);
    run(&f, "{\"x-kubernetes-int-or-string\": true}", "[1]", 0);
    INT_EQ(f.result, SD_EINVALID);
    done(&f);
    run(&f, "{\"x-kubernetes-int-or-string\": true}", "\"80%\"", 0);
    INT_EQ(f.result, 0);
    done(&f);
}

/* x-kubernetes-embedded-resource: apiVersion and kind present, kind a
 * DNS-1035 label (any case), apiVersion VERSION or GROUP/VERSION */
static void test_embedded_resource(void)
{
    static const char *const ok[] = {
        "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\"}",
        "{\"apiVersion\": \"apps/v1\", \"kind\": \"Deployment\", \"metadata\": {}}",
        "{\"apiVersion\": \"example.com/v1alpha1\", \"kind\": \"my-Widget2\"}",
        "[1]",   /* not an object: nothing to say */
    };
    fixture f;
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        run(&f, "{\"x-kubernetes-embedded-resource\": true}", ok[i], 0);
        INT_EQ(f.result, 0);
        done(&f);
    }
    run(&f, "{\"x-kubernetes-embedded-resource\": true}", "{\"metadata\": {}}", 0);
    INT_EQ(f.res.count, 2);
    if (f.res.count == 2) {
        STR_EQ(f.res.items[0].message, "missing key `apiVersion` of an embedded Kubernetes object");
        STR_EQ(f.res.items[1].message, "missing key `kind` of an embedded Kubernetes object");
        STR_EQ(f.res.items[0].keyword, "x-kubernetes-embedded-resource");
        STR_EQ(f.res.items[0].path, "");
        STR_EQ(f.res.items[0].schema_path, "#/x-kubernetes-embedded-resource");
    }
    done(&f);
    run(&f, "{\"properties\": {\"t\": {\"x-kubernetes-embedded-resource\": true}}}",
        "{\"t\": {\"apiVersion\": \"a/b/c\", \"kind\": \"2x\"}}", 0);
    INT_EQ(f.res.count, 2);
    if (f.res.count == 2) {
        STR_EQ(f.res.items[0].message, "value \"a/b/c\" of `apiVersion` is not VERSION or GROUP/VERSION");
        STR_EQ(f.res.items[0].path, "/t/apiVersion");
        STR_EQ(f.res.items[1].message,
               "value \"2x\" of `kind` is not a kind (a letter, then letters, digits or '-', 63 at most)");
        STR_EQ(f.res.items[1].key, "t.kind");
    }
    done(&f);
    /* false, or another type than an object: no check */
    run(&f, "{\"x-kubernetes-embedded-resource\": false}", "{}", 0);
    INT_EQ(f.result, 0);
    done(&f);
    run(&f, "{\"x-kubernetes-embedded-resource\": true}", "{\"apiVersion\": 1, \"kind\": \"\"}", 0);
    INT_EQ(f.res.count, 2);
    done(&f);
}

/* Records of $dynamicAnchor schemas are made in document order: the same
 * schema exports the same rules whatever the addresses its nodes got (the
 * resolver's index is keyed by address; the export lists records in the
 * order they were made). Each round loads the schema after a different
 * number of allocations, so that its nodes land elsewhere. */
static void test_dynamic_order(void)
{
    static const char schema[] =
        "{\"$schema\": \"https://json-schema.org/draft/2020-12/schema\", \"$id\": \"https://example.com/main\","
        " \"if\": {\"$id\": \"first\", \"$defs\": {\"t\": {\"$dynamicAnchor\": \"t\", \"type\": \"number\"}}},"
        " \"then\": {\"$id\": \"second\", \"$ref\": \"start\", \"$defs\": {\"t\": {\"$dynamicAnchor\": \"t\", \"type\": \"null\"}}},"
        " \"$defs\": {\"start\": {\"$id\": \"start\", \"$dynamicRef\": \"inner#t\"},"
        " \"t\": {\"$id\": \"inner\", \"$dynamicAnchor\": \"t\", \"type\": \"string\"},"
        " \"u\": {\"$id\": \"other\", \"$dynamicAnchor\": \"t\", \"type\": \"boolean\"}}}";
    char *first = NULL;
    int same = 0, rounds = 24;
    void *junk[24] = { 0 };
    for (int r = 0; r < rounds; r++) {
        sd_diags d = SD_DIAGS_INIT;
        sd_doc *doc = NULL;
        sd_validator *v = NULL;
        sd_buf out = SD_BUF_INIT;
        junk[r] = malloc((size_t)(r * 7919) % 70000 + 16);
        if (sd_doc_load_mem(&doc, "s.json", schema, strlen(schema), SD_FMT_JSON, NULL, &d) == 0 &&
            sd_validator_new(&v, doc, sd_doc_root(doc), NULL, &d) == 0) {
            sd_rules_entry e = { "schema", v, 0, NULL, NULL, NULL, NULL, NULL };
            if (sd_rules_export(&out, &e, 1, NULL, &d) == 0 && out.ptr) {
                if (!first)
                    first = strdup(out.ptr);
                same += first && !strcmp(first, out.ptr);
            }
        }
        sd_buf_release(&out);
        sd_validator_free(v);
        sd_doc_free(doc);
        sd_diags_release(&d);
    }
    INT_EQ(same, rounds);
    OK(first && strstr(first, "\"dynamicAnchors\""));
    free(first);
    for (int r = 0; r < rounds; r++)
        free(junk[r]);
}

static void test_formats(void)
{
    OK(sd_format_check(sd_format_id("port"), "8080", 4));
    OK(!sd_format_check(sd_format_id("port"), "65536", 5));
    OK(sd_format_check(sd_format_id("go-duration"), "1h30m", 5));
    OK(sd_format_check(sd_format_id("go-duration"), "-1.5s", 5));
    OK(!sd_format_check(sd_format_id("go-duration"), "1d", 2));
    OK(sd_format_check(sd_format_id("percent"), "50%", 3));
    OK(!sd_format_check(sd_format_id("percent"), "150%", 4));
    OK(sd_format_check(sd_format_id("date-time"), "2024-02-29T12:00:00Z", 20));
    OK(!sd_format_check(sd_format_id("date-time"), "2023-02-29T12:00:00Z", 20));
    OK(sd_format_id("no-such-format") < 0);
}

static void test_recursive_ref_2019(void)
{
    static const char schema[] =
        "{\"$schema\": \"https://json-schema.org/draft/2019-09/schema\","
        " \"$id\": \"http://example.com/tree\", \"$recursiveAnchor\": true ,"
        " \"type\": \"object\", \"required\": [\"meta\", \"nodes\"],"
        " \"properties\": {\"meta\": {\"type\": \"string\"},"
        "   \"nodes\": {\"type\": \"array\", \"items\": {\"$ref\": \"node\"}}},"
        " \"$defs\": {\"node\": {\"$id\": \"http://example.com/node\", \"$recursiveAnchor\": true,"
        "   \"type\": \"object\", \"required\": [\"value\"],"
        "   \"properties\": {\"value\": {\"type\": \"number\"}, \"subtree\": {\"$recursiveRef\": \"#\"}}}}}";
    fixture f;
    run(&f, schema, "{\"meta\": \"r\", \"nodes\": [{\"value\": 1, \"subtree\": {\"meta\": \"c\", \"nodes\": []}}]}", 0);
    INT_EQ(f.compile, 0);
    INT_EQ(f.result, 0);
    done(&f);
    /* the subtree is checked against the outermost schema: "meta" is required */
    run(&f, schema, "{\"meta\": \"r\", \"nodes\": [{\"value\": 1, \"subtree\": {\"value\": 2}}]}", 0);
    INT_EQ(f.result, SD_EINVALID);
    OK(f.res.count >= 1 && strcmp(f.res.items[0].path, "/nodes/0/subtree") == 0);
    done(&f);
    /* without $recursiveAnchor on the root it is a plain $ref to "node" */
    {
        char buf[sizeof schema];
        char *p;
        strcpy(buf, schema);
        p = strstr(buf, "true ,");
        memcpy(p, "false,", 6);
        run(&f, buf, "{\"meta\": \"r\", \"nodes\": [{\"value\": 1, \"subtree\": {\"value\": 2}}]}", 0);
        INT_EQ(f.compile, 0);
        INT_EQ(f.result, 0);
        done(&f);
    }
}

static void test_ecma_regex(void)
{
    static const struct { const char *schema, *inst; int valid; } t[] = {
        { "{\"pattern\": \"^a.b$\"}", "\"a\\u2028b\"", 0 },   /* `.` excludes line terminators */
        { "{\"pattern\": \"^a.b$\"}", "\"a\\u0085b\"", 1 },   /* ... but not NEL */
        { "{\"pattern\": \"^\\\\s$\"}", "\"\\u00a0\"", 1 },  /* \s is Unicode whitespace */
        { "{\"pattern\": \"^[\\\\sx]+$\"}", "\"x\\ufeffx\"", 1 },
        { "{\"pattern\": \"^\\\\S$\"}", "\"\\u3000\"", 0 },
        { "{\"pattern\": \"^\\\\d$\"}", "\"\\u0663\"", 0 },  /* \d is ASCII */
        { "{\"pattern\": \"^\\\\w$\"}", "\"\\u00e9\"", 0 },  /* \w is ASCII */
        { "{\"pattern\": \"^[.]$\"}", "\"x\"", 0 },              /* `.` in a class is a dot */
        { "{\"pattern\": \"^[^]$\"}", "\"\\n\"", 1 },            /* [^] is anything */
        { "{\"pattern\": \"^\\\\p{Letter}+$\"}", "\"\\u00e9t\\u00e9\"", 1 },
        { "{\"pattern\": \"a$\"}", "\"a\\n\"", 0 },             /* $ only at the very end */
        /* groups capture only for a numbered backreference (format.c) */
        { "{\"pattern\": \"^(?:x)(a)\\\\1$\"}", "\"xaa\"", 1 },
        { "{\"pattern\": \"^(?:x)(a)\\\\1$\"}", "\"xab\"", 0 },
        { "{\"pattern\": \"^(b)(a)\\\\2\\\\1$\"}", "\"baab\"", 1 },
        { "{\"pattern\": \"^(?<q>[a-z])\\\\k<q>$\"}", "\"zz\"", 1 },
        { "{\"pattern\": \"^(?<q>[a-z])\\\\k<q>$\"}", "\"zy\"", 0 },
        { "{\"pattern\": \"^([a-z]+)-(\\\\d+)$\"}", "\"ab-12\"", 1 },
    };
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        fixture f;
        run(&f, t[i].schema, t[i].inst, 0);
        INT_EQ(f.compile, 0);
        if (f.result != (t[i].valid ? 0 : SD_EINVALID))
            fprintf(stderr, "case %zu: %s on %s\n", i, t[i].schema, t[i].inst);
        INT_EQ(f.result, t[i].valid ? 0 : SD_EINVALID);
        done(&f);
    }
}

/* From its 32nd use a pattern runs on its automaton (ecma_dfa.c), and a
 * string with a byte over 0x7F still goes to PCRE2: the verdicts must not
 * change across that point, for `pattern` and `patternProperties` alike. */
static void test_pattern_automaton(void)
{
    sd_buf b = SD_BUF_INIT;
    fixture f;
    sd_buf_puts(&b, "{\"list\": [");
    for (int i = 0; i < 100; i++) { /* bad, good, non-ASCII (bad), bad only at its end */
        static const char *const s4[] = { "bad_name", "ok-1", "\u00e9-x", "ok-" };
        sd_buf_printf(&b, "%s\"%s\"", i ? "," : "", s4[i % 4]);
    }
    sd_buf_puts(&b, "], \"map\": {");
    for (int i = 0; i < 100; i++)   /* even: an integer as asked; odd: a string */
        sd_buf_printf(&b, "%s\"k%d\": %s", i ? "," : "", i, i % 2 ? "\"s\"" : "1");
    sd_buf_puts(&b, ", \"k\u00e9\": \"s\"}}");
    run(&f, "{\"properties\": {\"list\": {\"items\": {\"pattern\": \"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$\"}},"
            " \"map\": {\"patternProperties\": {\"^k[0-9]+$\": {\"type\": \"integer\"},"
            " \"^k[^0-9]$\": {\"type\": \"integer\"}}}}}", b.ptr, 0);
    INT_EQ(f.compile, 0);
    INT_EQ(f.result, SD_EINVALID);
    INT_EQ(f.res.count, 75 + 50 + 1);
    {
        int last_list = 0, last_map = 0, nonascii = 0;
        for (size_t i = 0; i < f.res.count; i++) {
            last_list |= !strcmp(f.res.items[i].path, "/list/99");
            last_map |= !strcmp(f.res.items[i].path, "/map/k99");
            nonascii |= !strcmp(f.res.items[i].path, "/map/k\u00e9") || !strcmp(f.res.items[i].path, "/map/k\xC3\xA9");
        }
        OK(last_list && last_map && nonascii);
    }
    done(&f);
    sd_buf_release(&b);
}

TEST_MAIN(test_pattern_automaton, test_ecma_regex, test_recursive_ref_2019, test_redos, test_unique_300k, test_ref_self, test_ref_loop_two, test_ref_chain,
          test_unresolvable, test_uri, test_numbers, test_messages, test_embedded_resource, test_dynamic_order, test_formats)
