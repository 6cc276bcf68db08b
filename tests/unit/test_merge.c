/* SPDX-License-Identifier: Apache-2.0 */
/* test_merge.c - Helm-style values merging and the YAML emitter. */
#include "harness.h"
#include "emit.h"
#include "merge.h"
#include "render.h"
#include "synth.h"

#include <stdlib.h>
#include <string.h>

static sd_doc *load(const char *name, const char *text)
{
    sd_diags d = SD_DIAGS_INIT;
    sd_doc *doc = NULL;
    sd_doc_load_mem(&doc, name, text, strlen(text), SD_FMT_AUTO, NULL, &d);
    sd_diags_release(&d);
    return doc;
}

static char *json_of(const sd_node *n)
{
    sd_buf b = SD_BUF_INIT;
    sd_emit_json(&b, NULL, n, 0, 0);
    return sd_buf_detach(&b);
}

static void test_merge(void)
{
    sd_doc *base = load("values.yaml", "a: 1\nb:\n  c: 2\n  d: 3\ne: [1]\n");
    sd_doc *over = load("prod.yaml", "b:\n  c: null\n  x: 5\ne: [2]\nf: null\ng: {h: i}\n");
    sd_doc *out = sd_synth_new("(merged)");
    int oom;
    sd_node *m = sd_merge_values(out, sd_doc_root(base), sd_doc_root(over), &oom);
    INT_EQ(oom, 0);
    char *j = json_of(m);
    STR_EQ(j, "{\"a\":1,\"b\":{\"d\":3,\"x\":5},\"e\":[2],\"g\":{\"h\":\"i\"}}");
    free(j);
    /* leaves keep their file and line */
    STR_EQ(sd_node_get(m, "a")->loc.file, "values.yaml");
    STR_EQ(sd_node_get(sd_node_get(m, "b"), "x")->loc.file, "prod.yaml");
    INT_EQ(sd_node_get(sd_node_get(m, "b"), "x")->loc.line, 3);
    INT_EQ(sd_node_get_pair(sd_node_get(m, "b"), "d")->key->loc.line, 4);
    sd_doc_free(out);
    sd_doc_free(over);
    sd_doc_free(base);
}

static void test_defaults(void)
{
    sd_doc *schema = load("s.json", "{\"properties\": {\"a\": {\"default\": 1}, \"b\": {\"properties\": "
                                    "{\"c\": {\"default\": \"x\"}}}, \"d\": {\"type\": \"string\"}}}");
    sd_doc *vals = load("v.yaml", "b: {}\nz: 9\n");
    sd_doc *out = sd_synth_new("(defaults)");
    int oom;
    sd_node *m = sd_merge_defaults(out, sd_doc_root(vals), sd_doc_root(schema), &oom);
    char *j = json_of(m);
    STR_EQ(j, "{\"b\":{\"c\":\"x\"},\"z\":9,\"a\":1}");
    free(j);
    sd_doc_free(out);
    sd_doc_free(vals);
    sd_doc_free(schema);
}

static void test_yaml_roundtrip(void)
{
    const char *src = "{\"s\": \"yes\", \"n\": \"12\", \"e\": \"\", \"q\": \"a: b\", \"h\": \"# x\", \"f\": 1.5, "
                      "\"i\": 3, \"t\": true, \"z\": null, \"l\": [1, {\"a\": [], \"b\": {}}, [2]], "
                      "\"m\": {\"x y\": \"multi\\nline\", \"dash\": \"-x\"}, \"empty\": {}}";
    sd_doc *d = load("a.json", src);
    sd_buf y = SD_BUF_INIT;
    sd_val *j = sd_node_to_val(sd_doc_root(d));
    sd_emit_yaml(&y, j, 0);
    sd_val_decref(j);
    sd_doc *back = NULL;
    sd_diags dg = SD_DIAGS_INIT;
    INT_EQ(sd_doc_load_mem(&back, "b.yaml", y.ptr, y.len, SD_FMT_YAML, NULL, &dg), 0);
    if (back) {
        char *a = json_of(sd_doc_root(d)), *b = json_of(sd_doc_root(back));
        STR_EQ(b, a);
        free(a);
        free(b);
    } else {
        fprintf(stderr, "%s\n", y.ptr);
    }
    sd_doc_free(back);
    sd_diags_release(&dg);
    sd_buf_release(&y);
    sd_doc_free(d);
}

TEST_MAIN(test_merge, test_defaults, test_yaml_roundtrip)
