/* SPDX-License-Identifier: Apache-2.0 */
/* test_model.c - comment dialects, rows, humanized titles, ytt arguments. */
#include "harness.h"
#include "annot.h"
#include "model.h"
#include "model_int.h"
#include "rows.h"
#include "synth.h"
#include "ytt.h"

#include <stdlib.h>
#include <string.h>

static sd_doc *load(const char *text)
{
    sd_diags d = SD_DIAGS_INIT;
    sd_doc *doc = NULL;
    sd_doc_load_mem(&doc, "values.yaml", text, strlen(text), SD_FMT_YAML, NULL, &d);
    sd_diags_release(&d);
    return doc;
}

static void test_humanize(void)
{
    static const char *const cases[][2] = {
        { "static_ip", "Static ip" }, { "replicaCount", "Replica count" },
        { "enable-tls", "Enable tls" }, { "TLS", "TLS" }, { "apiURL", "Api URL" },
        { "x", "X" }, { "", "" }, { "URLPath", "URL path" }, { "http2Port", "Http2 port" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *h = sd_humanize(cases[i][0]);
        STR_EQ(h, cases[i][1]);
        free(h);
    }
}

/* Rows for `text` as "key=default|type;" pairs. */
static char *rows_of(const char *text)
{
    sd_doc *doc = load(text);
    sd_annots a;
    sd_diags d = SD_DIAGS_INIT;
    sd_annots_scan(&a, doc, NULL, &d);
    sd_val *rows = sd_rows_build(doc, &a);
    sd_buf b = SD_BUF_INIT;
    size_t i;
    sd_val *r;
    sd_val_array_foreach(rows, i, r) {
        const char *t = sd_val_string_value(sd_val_object_get(r, "type"));
        const char *dt = sd_val_string_value(sd_val_object_get(r, "default_text"));
        sd_buf_printf(&b, "%s=%s|%s;", sd_val_string_value(sd_val_object_get(r, "key")), dt ? dt : "(null)", t ? t : "");
    }
    sd_val_decref(rows);
    sd_annots_release(&a);
    sd_doc_free(doc);
    sd_diags_release(&d);
    return sd_buf_detach(&b);
}

#define ROWS(text, want) do { char *r_ = rows_of(text); STR_EQ(r_, want); free(r_); } while (0)

static void test_helmdocs_rows(void)
{
    /* undescribed leaves, empty collections, sorting, quoting of dotted keys */
    ROWS("b: 1\na:\n  x: \"s\"\n  e: {}\n  l: []\n\"k.y\": true\n",
         "\"k.y\"=`true`|bool;a.e=`{}`|object;a.l=`[]`|list;a.x=`\"s\"`|string;b=`1`|int;");
    /* a described map is one row with sorted JSON; its children vanish */
    ROWS("# -- labels\nm:\n  z: 1\n  a: yes\n", "m=`{\"a\":\"yes\",\"z\":1}`|object;");
    /* (type), @default, null, yes as a string, floats */
    ROWS("# -- (int) size\n# @default -- unlimited\nsize:\nflag: yes\nf: 1.50\n",
         "f=`1.5`|float;flag=`\"yes\"`|string;size=unlimited|int;");
    /* @ignore drops the key and its children; keyed comment above a key is not a description */
    ROWS("# @ignored\nsecret:\n  a: 1\n# other.key -- x\nk: 2\n", "k=`2`|int;");
    /* old style `# path -- text` anywhere in the file */
    ROWS("# m -- the map\nm:\n  a: 1\n", "m=`{\"a\":1}`|object;");
    /* list items get [i] */
    ROWS("hosts:\n  - name: a\n  - b\n", "hosts[0].name=`\"a\"`|string;hosts[1]=`\"b\"`|string;");
    /* a blank line cuts a comment off (yaml.v3 HeadComment) */
    ROWS("# -- far away\n\nm:\n  a: 1\n", "m.a=`1`|int;");
}

static void test_bitnami_rows(void)
{
    ROWS("## @section Common\n## @param image.registry [default: REGISTRY_NAME] Registry\n"
         "## @param image.pullSecrets Secrets\n## @param caps Capabilities\n## @param ratio Ratio\n"
         "## @param name Name\n## @param obj [object] An object\n## @param n [object,nullable] Nullable\n"
         "## @extra later Documented elsewhere\n## @param nil Nothing\n"
         "image: {registry: docker.io, pullSecrets: []}\ncaps: [ALL]\nratio: 0.5\nname: \"\"\n"
         "obj: {a: 1}\nn: {}\nnil: ~\n",
         "image.registry=REGISTRY_NAME|;image.pullSecrets=[]|;caps=[\"ALL\"]|;ratio=0.5|;name=\"\"|;"
         "obj={}|;n={}|;later=(null)|;nil=nil|;");
    /* params before the first @section are not printed */
    ROWS("## @param a A\n## @section S\n## @param b B\na: 1\nb: 017\n", "b=17|;");
}

static void test_helmdocs_descriptions(void)
{
    sd_doc *doc = load("# -- first line\n# second line\n## not shown\n# @default -- d\n# @section -- Net\n"
                       "key: 1\n# -- text\n# @raw\n# - a\n# - b\nraw: 2\n");
    sd_annots a;
    sd_diags d = SD_DIAGS_INIT;
    sd_annots_scan(&a, doc, NULL, &d);
    const sd_annot *k = sd_annots_get(&a, "key");
    OK(k && k->described);
    if (k) {
        STR_EQ(k->description, "first line second line");
        STR_EQ(k->default_text, "d");
        STR_EQ(k->section, "Net");
    }
    const sd_annot *r = sd_annots_get(&a, "raw");
    OK(r != NULL);
    if (r)
        STR_EQ(r->description, "text\n- a\n- b");
    sd_annots_release(&a);
    sd_doc_free(doc);
    sd_diags_release(&d);
}

static void test_ytt(void)
{
    const char *text =
        "#@data/values-schema\n---\n"
        "#@schema/desc '''triple quoted'''\n"
        "#@schema/validation min=1, max=10\n"
        "n: 2\n"
        "#@schema/nullable\n"
        "s: \"\"\n"
        "#@schema/type any=True\n"
        "a: {x: 1}\n"
        "#@schema/examples (\"t1\", [1, 2]), (\"t2\", {\"k\": None})\n"
        "l: [0]\n"
        "#@schema/validation (\"positive\", lambda v: v > 0)\n"
        "r: 1\n";
    sd_doc *doc = load(text);
    OK(doc && sd_ytt_is_schema(doc));
    if (!doc)
        return;
    sd_doc *schema = NULL;
    sd_diags d = SD_DIAGS_INIT;
    INT_EQ(sd_ytt_schema(&schema, doc, &d), 0);
    if (schema) {
        const sd_node *props = sd_node_get(sd_doc_root(schema), "properties");
        const sd_node *n = sd_node_get(props, "n");
        INT_EQ(sd_node_get(n, "minimum")->num.i, 1);
        INT_EQ(sd_node_get(n, "maximum")->num.i, 10);
        INT_EQ(sd_node_get(n, "default")->num.i, 2);
        INT_EQ(sd_node_get(n, "minimum")->loc.line, 4);
        const sd_node *s = sd_node_get(props, "s");
        INT_EQ(sd_node_get(s, "type")->kind, SD_SEQ);
        INT_EQ(sd_node_get(s, "default")->kind, SD_NULL);
        OK(sd_node_get(sd_node_get(props, "a"), "type") == NULL);
        const sd_node *l = sd_node_get(props, "l");
        INT_EQ(sd_node_get(l, "default")->n, 0);
        const sd_node *ex = sd_node_get(l, "x-examples");
        INT_EQ(ex ? (long long)ex->n : -1, 2);
        STR_EQ(sd_node_str(sd_node_get(ex->items[0].value, "title")), "t1");
        const sd_node *r = sd_node_get(props, "r");
        const sd_node *rules = sd_node_get(r, "x-ytt-rules");
        OK(rules && rules->n == 1);
        INT_EQ(d.warnings, 1);
        sd_doc_free(schema);
    }
    /* a triple-quoted description over several comment lines is not supported
     * by ytt either; the first line's text is kept as written */
    sd_doc_free(doc);
    sd_diags_release(&d);
}

/* ids: the first free "-N" from 2, however many ask for the same name, and
 * a name handed out as "a-2" is not handed out again when asked for as is */
static void test_unique_ids(void)
{
    static const char *const want[][2] = {
        { "a", "a" }, { "a", "a-2" }, { "a-2", "a-2-2" }, { "a", "a-3" }, { "a-4", "a-4" },
        { "a", "a-5" }, { "", "root" }, { NULL, "root-2" }, { "a", "a-6" }, { "a-2", "a-2-3" },
    };
    mctx c;
    memset(&c, 0, sizeof c);
    c.ids = sd_val_object();
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        char *id = sd_model__unique_id(&c, want[i][0]);
        STR_EQ(id, want[i][1]);
        free(id);
    }
    c.id_prefix = "def-";
    {
        char *x = sd_model__unique_id(&c, "a"), *y = sd_model__unique_id(&c, "a");
        STR_EQ(x, "def-a");
        STR_EQ(y, "def-a-2");
        free(x);
        free(y);
    }
    /* 3,000 alike: each still the next number, in time linear in their count */
    for (int i = 0; i < 3000; i++) {
        char *id = sd_model__unique_id(&c, "many"), expect[32];
        snprintf(expect, sizeof expect, i ? "def-many-%d" : "def-many", i + 1);
        if (strcmp(id, expect) != 0) {
            STR_EQ(id, expect);
            free(id);
            break;
        }
        free(id);
    }
    OK(sd_val_object_size(c.ids) == 10 + 2 + 3000);
    sd_val_decref(c.ids);
}

TEST_MAIN(test_unique_ids, test_humanize, test_helmdocs_rows, test_bitnami_rows, test_helmdocs_descriptions, test_ytt)
