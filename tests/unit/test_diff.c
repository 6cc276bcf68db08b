/* SPDX-License-Identifier: Apache-2.0 */
/* test_diff.c - src/diff on small hand-written models: the rename rules and
 * their limits, constraint effects, CRD versions, table cells. */
#include "harness.h"
#include "diff.h"
#include "schemadoc.h"

#include <stdlib.h>
#include <string.h>

/* A chart-like model: {"source":{"kind":"chart"},"root":{...props}} */
static sd_val *model(const char *root_props)
{
    char buf[8192];
    sd_val_error err;
    snprintf(buf, sizeof buf,
             "{\"source\":{\"kind\":\"chart\",\"path\":\"x\"},"
             "\"root\":{\"id\":\"root\",\"path\":\"\",\"key\":null,\"properties\":[%s]}}", root_props);
    sd_val *m = sd_val_loads(buf, 0, &err);
    if (!m)
        fprintf(stderr, "bad test model: %s\n", err.text);
    return m;
}

/* the change (kind, path) or NULL */
static sd_val *find(sd_val *d, const char *kind, const char *path)
{
    size_t i;
    sd_val *c;
    sd_val_array_foreach(sd_val_object_get(d, "changes"), i, c)
        if (!strcmp(sd_val_string_value(sd_val_object_get(c, "change")), kind) &&
            !strcmp(sd_val_string_value(sd_val_object_get(c, "path")), path))
            return c;
    return NULL;
}

static sd_val *run(const char *a, const char *b)
{
    sd_val *o = model(a), *n = model(b);
    schemadoc_diags d = SD_DIAGS_INIT;
    sd_val *r = sd_diff_models(o, n, NULL, NULL, NULL, &d);
    sd_val_decref(o);
    sd_val_decref(n);
    sd_diags_release(&d);
    return r;
}

#define LEAF(id, key, def) "{\"id\":\"" id "\",\"path\":\"" id "\",\"key\":\"" key "\",\"type\":[\"string\"],\"default\":" def "}"

static void test_suffix_rename(void)
{
    /* a similar name without evidence (no notes, another last segment, another
     * default) is a suggestion on the removed key, never a rename */
    sd_val *d = run(LEAF("postgresqlUsername", "postgresqlUsername", "\"postgres\""),
                    "{\"id\":\"auth\",\"path\":\"auth\",\"key\":\"auth\",\"type\":[\"object\"],\"properties\":["
                    LEAF("auth.username", "username", "\"\"") "]}");
    sd_val *c = find(d, "removed", "postgresqlUsername");
    OK(c != NULL);
    STR_EQ(sd_val_string_value(sd_val_object_get(c, "similar")), "auth.username");
    OK(find(d, "added", "auth.username") != NULL);
    OK(find(d, "renamed", "auth.username") == NULL);
    sd_val_decref(d);
}

static void test_structural_rename(void)
{
    /* the same last segment (of two words), shape and default, and no other
     * key ends in it: a rename on evidence, its default compared under the
     * new path */
    sd_val *d = run(LEAF("existingSecret", "existingSecret", "\"\""),
                    "{\"id\":\"auth\",\"path\":\"auth\",\"key\":\"auth\",\"type\":[\"object\"],\"properties\":["
                    LEAF("auth.existingSecret", "existingSecret", "\"\"") "]}");
    sd_val *c = find(d, "renamed", "auth.existingSecret");
    OK(c != NULL);
    STR_EQ(sd_val_string_value(sd_val_object_get(c, "from")), "existingSecret");
    STR_EQ(sd_val_string_value(sd_val_object_get(c, "rule")), "key");
    OK(find(d, "removed", "existingSecret") == NULL);
    sd_val_decref(d);
    /* another default: no evidence */
    d = run(LEAF("existingSecret", "existingSecret", "\"x\""),
            "{\"id\":\"auth\",\"path\":\"auth\",\"key\":\"auth\",\"type\":[\"object\"],\"properties\":["
            LEAF("auth.existingSecret", "existingSecret", "\"\"") "]}");
    OK(find(d, "renamed", "auth.existingSecret") == NULL);
    OK(find(d, "removed", "existingSecret") != NULL);
    sd_val_decref(d);
}

static void test_generic_key_not_moved(void)
{
    /* `a.enabled` gone, `b.enabled` new, `a` still there: no evidence of a move */
    sd_val *d = run("{\"id\":\"a\",\"path\":\"a\",\"key\":\"a\",\"type\":[\"object\"],\"properties\":["
                    LEAF("a.enabled", "enabled", "true") "," LEAF("a.x", "x", "1") "]}",
                    "{\"id\":\"a\",\"path\":\"a\",\"key\":\"a\",\"type\":[\"object\"],\"properties\":["
                    LEAF("a.x", "x", "1") "]},"
                    "{\"id\":\"b\",\"path\":\"b\",\"key\":\"b\",\"type\":[\"object\"],\"properties\":["
                    LEAF("b.enabled", "enabled", "true") "]}");
    OK(find(d, "removed", "a.enabled") != NULL);
    OK(find(d, "added", "b.enabled") != NULL);
    INT_EQ(sd_val_integer_value(sd_val_object_get(sd_val_object_get(d, "counts"), "renamed")), 0);
    sd_val_decref(d);
}

static void test_description_rename(void)
{
    sd_val *d = run("{\"id\":\"old\",\"path\":\"old\",\"key\":\"old\",\"description\":\"Port  to listen on.\",\"default\":80}",
                    "{\"id\":\"net\",\"path\":\"net\",\"key\":\"net\",\"type\":[\"object\"],\"properties\":["
                    "{\"id\":\"net.p\",\"path\":\"net.p\",\"key\":\"p\",\"description\":\"port to listen on\",\"default\":80}]}");
    /* the same description and default under another key name: a suggestion */
    sd_val *c = find(d, "removed", "old");
    OK(c != NULL);
    STR_EQ(sd_val_string_value(sd_val_object_get(c, "similar")), "net.p");
    OK(find(d, "renamed", "net.p") == NULL);
    sd_val_decref(d);
}

static void test_constraints(void)
{
    sd_val *d = run("{\"id\":\"n\",\"path\":\"n\",\"key\":\"n\",\"type\":[\"integer\"],\"constraints\":{\"maximum\":5,\"minimum\":1},\"enum\":[1,2]}",
                    "{\"id\":\"n\",\"path\":\"n\",\"key\":\"n\",\"type\":[\"integer\",\"null\"],\"constraints\":{\"maximum\":9},\"enum\":[1,2,3],\"required\":true}");
    size_t i;
    sd_val *c;
    int max = 0, min = 0, en = 0, req = 0;
    sd_val_array_foreach(sd_val_object_get(d, "changes"), i, c) {
        const char *kw = sd_val_string_value(sd_val_object_get(c, "keyword"));
        const char *ef = sd_val_string_value(sd_val_object_get(c, "effect"));
        if (!kw)
            continue;
        if (!strcmp(kw, "maximum"))
            max = !strcmp(ef, "loosened");
        if (!strcmp(kw, "minimum"))
            min = !strcmp(ef, "loosened");
        if (!strcmp(kw, "enum"))
            en = !strcmp(ef, "loosened");
        if (!strcmp(kw, "required"))
            req = !strcmp(ef, "tightened");
    }
    OK(max);
    OK(min);
    OK(en);
    OK(req);
    OK(find(d, "type", "n") != NULL);
    sd_val_decref(d);
}

static void test_crd_versions(void)
{
    sd_val_error e;
    sd_val *o = sd_val_loads("{\"source\":{\"kind\":\"crd\"},\"versions\":["
                           "{\"name\":\"v1\",\"served\":true,\"storage\":true,\"root\":{\"id\":\"root\",\"path\":\"\"}}]}", 0, &e);
    sd_val *n = sd_val_loads("{\"source\":{\"kind\":\"crd\"},\"versions\":["
                           "{\"name\":\"v1\",\"served\":false,\"storage\":false,\"root\":{\"id\":\"root\",\"path\":\"\"}},"
                           "{\"name\":\"v2\",\"served\":true,\"storage\":true,\"root\":{\"id\":\"root\",\"path\":\"\"}}]}", 0, &e);
    schemadoc_diags dg = SD_DIAGS_INIT;
    sd_val *d = sd_diff_models(o, n, NULL, NULL, NULL, &dg);
    INT_EQ(sd_val_integer_value(sd_val_object_get(sd_val_object_get(d, "counts"), "version")), 3);
    sd_buf md = SD_BUF_INIT;
    OK(sd_diff_write_md(&md, d) == 0);
    OK(md.ptr && strstr(md.ptr, "| `v2` |  | version (added)") != NULL);
    sd_buf_release(&md);
    sd_val_decref(d);
    sd_val_decref(o);
    sd_val_decref(n);
    sd_diags_release(&dg);
}

static void test_cells(void)
{
    sd_buf b = SD_BUF_INIT;
    sd_val *v = sd_val_string("");
    sd_diff_value_text(&b, v);
    STR_EQ(b.ptr, "\"\"");
    sd_val_decref(v);
    sd_buf_clear(&b);
    v = sd_val_string("yes");
    sd_diff_value_text(&b, v);
    OK(b.ptr && b.ptr[0] != 'y');   /* quoted: YAML 1.1 would read a boolean */
    sd_val_decref(v);
    sd_buf_release(&b);

    sd_val *d = run(LEAF("k", "k", "\"a|b`c\""), LEAF("k", "k", "\"<b>\\nx\""));
    sd_buf md = SD_BUF_INIT;
    sd_diff_write_md(&md, d);
    OK(md.ptr && strstr(md.ptr, "``a\\|b`c``") != NULL);
    OK(md.ptr && strstr(md.ptr, "\n\"") == NULL && strstr(md.ptr, "<b>\\nx") != NULL);
    sd_buf_release(&md);
    sd_val_decref(d);
}

/* the public call, on the small schemas of tests/diff */
static void test_public_call(void)
{
    schemadoc_source *a = NULL, *b = NULL;
    schemadoc_diags *d = schemadoc_diags_new();
    char *text = NULL;
    size_t len = 0;
    OK(schemadoc_open(&a, "tests/diff/old.schema.json", NULL, d) == 0);
    OK(schemadoc_open(&b, "tests/diff/new.schema.json", NULL, d) == 0);
    INT_EQ(schemadoc_diff_sources(&text, &len, a, b, "md", 0, NULL, d), 1);
    OK(text && len == strlen(text) && strstr(text, "| `server.wait` | renamed | `timeoutSeconds` |"));
    schemadoc_free(text);
    INT_EQ(schemadoc_diff_sources(&text, &len, a, a, "json", SD_DIFF_DESCRIPTIONS, NULL, d), 0);
    OK(text && strstr(text, "\"changes\": []"));
    schemadoc_free(text);
    OK(schemadoc_diff_sources(&text, &len, a, b, "yaml", 0, NULL, d) < 0 && text == NULL);
    schemadoc_close(a);
    schemadoc_close(b);
    schemadoc_diags_free(d);
}

TEST_MAIN(test_public_call, test_suffix_rename, test_structural_rename, test_generic_key_not_moved, test_description_rename, test_constraints,
          test_crd_versions, test_cells)
