/* SPDX-License-Identifier: Apache-2.0 */
/* test_keywords.c - the keyword table (src/validate/keywords.def): its rows
 * are well formed, found by name, and each column does what it says in the
 * stage that reads it. Every row with a record is compiled and exported (the
 * record carries it, `loc` names it when it has messages); every model row is
 * put in a schema and must reach the model's constraints, the page's words
 * and both directions of a diff. A new row is tested by adding it; an OWN row
 * needs a sample schema below (the test fails until it has one). The three
 * hand lists of keywords that hold subschemas (resolve.c, lint.c, view.c)
 * are checked against the rows too. */
#include "harness.h"
#include "check.h"
#include "render_int.h"
#include "keywords.h"
#include "resolve.h"
#include "node.h"
#include "rules.h"
#include "validate.h"
#include "vmsg.h"
#include "schemadoc.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The catalogue's messages that belong to no keyword: the `false` schema,
 * the fatal stops, the root's name in paths. */
static const int not_a_keywords[] = { SD_VMSG_FALSE_SCHEMA, SD_VMSG_REF_LOOP, SD_VMSG_ALIAS_LOOP,
                                      SD_VMSG_DEPTH, SD_VMSG_ROOT_KEY };

static void test_rows(void)
{
    size_t nmodel = 0;
    uint64_t claimed = 0;
    for (size_t i = 0; i < SD_KW_COUNT; i++) {
        const sd_kw *k = &sd_kw_table[i];
        t_name = k->name;
        INT_EQ(k->id, i);
        INT_EQ(k->len, strlen(k->name));
        OK(k->from <= k->to);
        OK(k->from == 4 || k->from == 6 || k->from == 7 || k->from == 2019 || k->from == 2020);
        OK(k->to == 4 || k->to == 6 || k->to == 7 || k->to == 2019 || k->to == 2020);
        /* a GENERIC keyword needs a field of a generic kind; a field needs a place */
        if (k->compile == SD_KC_GENERIC)
            OK(k->field >= SD_KF_COUNT && k->field <= SD_KF_FLAG);
        if (k->field >= SD_KF_COUNT && k->field <= SD_KF_FLAG)
            OK(k->off > 0 && (k->field != SD_KF_RECS || k->off_n > 0));
        if (k->record)
            OK(k->field != SD_KF_NONE);
        /* only what the model shows is worded and diffed */
        if (!k->model)
            OK(k->words == SD_KS_NONE && k->diff == SD_KD_CHANGED);
        else
            nmodel++;
        OK(k->group < SD_KG_COUNT);
        if (k->words == SD_KS_RANGE) {
            const sd_kw *u = sd_kw_find(k->words_upper, strlen(k->words_upper));
            OK(k->words_text && u && u->model && u->group == k->group);
        }
        if (k->words == SD_KS_NUMBER || k->words == SD_KS_CODE || k->words == SD_KS_TRUE)
            OK(k->words_text && *k->words_text);
        OK(k->msgs >> SD_VMSG_COUNT == 0 || SD_VMSG_COUNT == 64);
        claimed |= k->msgs;
    }
    /* two properties of the whole table, one check each: no two rows share
     * a name, no two share a rules record key */
    t_name = "distinct";
    {
        size_t dup_names = 0, dup_records = 0;
        for (size_t i = 0; i < SD_KW_COUNT; i++)
            for (size_t j = 0; j < i; j++) {
                dup_names += !strcmp(sd_kw_table[j].name, sd_kw_table[i].name);
                dup_records += sd_kw_table[i].record && sd_kw_table[j].record
                               && !strcmp(sd_kw_table[j].record, sd_kw_table[i].record);
            }
        INT_EQ(dup_names, 0);
        INT_EQ(dup_records, 0);
    }
    t_name = "messages";
    for (size_t i = 0; i < sizeof not_a_keywords / sizeof *not_a_keywords; i++) {
        OK(!(claimed >> not_a_keywords[i] & 1));
        claimed |= UINT64_C(1) << not_a_keywords[i];
    }
    /* every message of the catalogue is a keyword's or listed above */
    INT_EQ(claimed, SD_VMSG_COUNT == 64 ? UINT64_MAX : (UINT64_C(1) << SD_VMSG_COUNT) - 1);

    t_name = "model order";
    {
        size_t n = 0;
        const sd_kw *const *rows = sd_kw_model_rows(&n);
        INT_EQ(n, nmodel);
        for (size_t i = 1; i < n; i++)
            OK(rows[i - 1]->group < rows[i]->group ||
               (rows[i - 1]->group == rows[i]->group && rows[i - 1]->id < rows[i]->id));
        /* the order the model has always had (docs/model.md) */
        OK(n > 3 && !strcmp(rows[0]->name, "minimum") && !strcmp(rows[5]->name, "minLength") &&
           !strcmp(rows[n - 1]->name, "additionalProperties"));
    }
}

static void test_find(void)
{
    static const char *const no[] = { "minLengt", "minLengthx", "MinLength", "description", "title",
                                      "default", "$schema", "$defs", "x-kubernetes-preserve-unknown-fields",
                                      "e", "ref", "$" };
    char big[300];
    for (size_t i = 0; i < SD_KW_COUNT; i++) {
        const sd_kw *k = &sd_kw_table[i];
        char copy[64];
        t_name = k->name;
        OK(sd_kw_find(k->name, k->len) == k);
        /* the name need not end there */
        snprintf(copy, sizeof copy, "%sXYZ", k->name);
        OK(sd_kw_find(copy, k->len) == k);
        OK(sd_kw_find(copy, k->len + 1) == NULL);
    }
    t_name = "not keywords";
    for (size_t i = 0; i < sizeof no / sizeof *no; i++)
        OK(sd_kw_find(no[i], strlen(no[i])) == NULL);
    OK(sd_kw_find("", 0) == NULL);
    memset(big, 'a', sizeof big);
    OK(sd_kw_find(big, sizeof big) == NULL);
}

/* Every row that holds subschemas (REC, RECS) is read by the lists of the
 * stages that walk subschemas without the table: the resolver's index
 * (resolve.c, a stage before the table's) must walk it in each draft the
 * row covers, one subschema or an array of them; and the lint (lint.c)
 * must say whether its subschemas apply to the value itself (they may add
 * keys) or it is one of the others named here. A new such row fails here
 * until both know it. */
static void test_subschema_lists(void)
{
    static const char *const not_adding[] = { "additionalProperties", "propertyNames", "prefixItems", "items",
                                              "not", "if", "unevaluatedProperties", "unevaluatedItems" };
    static const int drafts[] = { 4, 6, 7, 2019, 2020 };
    size_t rows = 0;
    for (size_t i = 0; i < SD_KW_COUNT; i++) {
        const sd_kw *k = &sd_kw_table[i];
        int listed = 0;
        if ((k->field != SD_KF_REC && k->field != SD_KF_RECS) || k->compile == SD_KC_REF)
            continue;
        t_name = k->name;
        t_case_mark m = t_case_begin();
        for (size_t d = 0; d < sizeof drafts / sizeof *drafts; d++)
            if (drafts[d] >= k->from && drafts[d] <= k->to)
                OK(sd_resolve__subschemas(k->name, drafts[d]) & (k->field == SD_KF_RECS ? SD_SUB_LIST : SD_SUB_ONE));
        for (size_t j = 0; j < sizeof not_adding / sizeof *not_adding; j++)
            listed |= !strcmp(not_adding[j], k->name);
        OK(sd_check__adds_keys(k) != listed);   /* one or the other */
        t_case_end(m);
        rows++;
    }
    t_name = "subschema rows";
    OK(rows >= 13);
    printf("count: rows holding subschemas %zu\n", rows);
}

/* ---- the stages, row by row ----------------------------------------------------- */

static const char *dialect(int draft)
{
    switch (draft) {
    case 4: return "http://json-schema.org/draft-04/schema#";
    case 6: return "http://json-schema.org/draft-06/schema#";
    case 7: return "http://json-schema.org/draft-07/schema#";
    case 2019: return "https://json-schema.org/draft/2019-09/schema";
    default: return "https://json-schema.org/draft/2020-12/schema";
    }
}

/* A value of keyword `k` that gives a record or a model something, as JSON:
 * by name for the keywords with their own syntax, else by the field's kind,
 * else by how the page words it. NULL: the test has no sample for it. */
static const char *sample(const sd_kw *k)
{
    static const char *const own[][2] = {
        { "$ref", "\"#\"" }, { "$dynamicRef", "\"#a\", \"$dynamicAnchor\": \"a\"" },
        { "$recursiveRef", "\"#\", \"$recursiveAnchor\": true" }, { "type", "\"string\"" },
        { "enum", "[1, \"a\"]" }, { "const", "\"a\"" }, { "pattern", "\"^x\"" }, { "format", "\"email\"" },
        { "required", "[\"a\"]" }, { "dependentRequired", "{\"a\": [\"b\"]}" },
        { "dependencies", "{\"a\": [\"b\"]}" }, { "dependentSchemas", "{\"a\": {}}" },
        { "properties", "{\"a\": {}}" }, { "patternProperties", "{\"^a\": {}}" },
        { "additionalProperties", "false" }, { "items", "{}" }, { "additionalItems", "{}" },
        { "contains", "{}" }, { "exclusiveMinimum", "3" }, { "exclusiveMaximum", "3" },
        { "multipleOf", "3" },
    };
    for (size_t i = 0; i < sizeof own / sizeof *own; i++)
        if (!strcmp(own[i][0], k->name))
            return own[i][1];
    switch (k->field) {
    case SD_KF_COUNT: case SD_KF_NUM: return "3";
    case SD_KF_FLAG: return "true";
    case SD_KF_REC: return "{}";
    case SD_KF_RECS: return "[{}]";
    default: break;
    }
    return k->words == SD_KS_CODE ? "\"x\"" : NULL;
}

static void test_export(void)
{
    size_t n = 0;
    for (size_t i = 0; i < SD_KW_COUNT; i++) {
        const sd_kw *k = &sd_kw_table[i];
        const char *val = sample(k);
        char schema[512], want[128];
        sd_doc *doc = NULL;
        sd_validator *v = NULL;
        schemadoc_diags d = SD_DIAGS_INIT;
        sd_buf out = SD_BUF_INIT;
        const char *rec;
        t_name = k->name;
        if (!k->record && !k->msgs)
            continue;
        OK(val != NULL);
        if (!val)
            continue;
        snprintf(schema, sizeof schema, "{\"$schema\": \"%s\", \"%s\": %s}", dialect(k->to), k->name, val);
        OK(sd_doc_load_mem(&doc, "s.json", schema, strlen(schema), SD_FMT_JSON, NULL, &d) == 0);
        OK(doc && sd_validator_new(&v, doc, sd_doc_root(doc), NULL, &d) == 0);
        if (v) {
            sd_rules_entry e = { "schema", v, 0, NULL, NULL, NULL, NULL, NULL };
            OK(sd_rules_export(&out, &e, 1, NULL, &d) == 0);
        }
        rec = out.ptr ? strstr(out.ptr, "\"records\": [\n  {") : NULL;
        OK(rec != NULL);
        if (rec && k->record) {
            /* the root's record (the first) carries it */
            snprintf(want, sizeof want, ",\"%s\":", k->record);
            const char *end = strchr(rec + strlen("\"records\": [\n"), '\n');   /* a record a line */
            const char *at = strstr(rec, want);
            OK(at && at < end);
            n++;
        }
        if (rec) {
            /* its errors point at its key exactly when it has messages */
            snprintf(want, sizeof want, "\"%s\":[1,", k->name);
            const char *loc = strstr(rec, "\"loc\":{");
            OK(!k->msgs == !(loc && strstr(loc, want)));
        }
        sd_buf_release(&out);
        sd_validator_free(v);
        sd_doc_free(doc);
        sd_diags_release(&d);
    }
    t_name = "export";
    OK(n >= 35);
    printf("count: keywords exported %zu/%zu\n", n, n);
}

/* `text` as tmp/NAME, opened as a source. */
static schemadoc_source *open_text(const char *dir, const char *name, const char *text, schemadoc_diags *d)
{
    char path[256];
    schemadoc_source *s = NULL;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (t_write_file(path, NULL, text) < 0 || schemadoc_open(&s, path, NULL, d) < 0)
        return NULL;
    return s;
}

/* What the page should say for `k` given sample() as its value. */
static void words_of(const sd_kw *k, char *out, size_t n)
{
    const char *val = sample(k);
    switch (k->words) {
    case SD_KS_BOUNDS: snprintf(out, n, "%s \xe2\x89\xa4 value", val); break;
    case SD_KS_RANGE: snprintf(out, n, "at least %s %ss", val, k->words_text); break;
    case SD_KS_NUMBER: snprintf(out, n, "%s%s", k->words_text, val); break;
    case SD_KS_CODE: snprintf(out, n, "%s`%.*s`", k->words_text, (int)strlen(val) - 2, val + 1); break;
    case SD_KS_TRUE: snprintf(out, n, "%s", k->words_text); break;
    default: *out = '\0'; break;
    }
}

static void test_model_words_diff(void)
{
    char dir[] = "/tmp/sd-test-keywords-XXXXXX";
    size_t nmodel = 0, nwords = 0, ndiff = 0;
    if (!mkdtemp(dir)) {
        OK(0);
        return;
    }
    for (size_t i = 0; i < SD_KW_COUNT; i++) {
        const sd_kw *k = &sd_kw_table[i];
        const char *val = sample(k);
        char schema[512], want[160];
        schemadoc_diags *d;
        schemadoc_source *with, *without;
        char *text = NULL;
        size_t len = 0;
        t_name = k->name;
        if (!k->model)
            continue;
        OK(val != NULL);
        if (!val)
            continue;
        snprintf(schema, sizeof schema, "{\"properties\": {\"p\": {\"%s\": %s}}}", k->name, val);
        d = schemadoc_diags_new();
        with = open_text(dir, "with.json", schema, d);
        without = open_text(dir, "without.json", "{\"properties\": {\"p\": {}}}", d);
        OK(with && without);
        /* the model copies it into the node's constraints */
        if (with && schemadoc_model_json(&text, &len, with, d) == 0) {
            const char *c = strstr(text, "\"constraints\": {");
            snprintf(want, sizeof want, "\"%s\": ", k->name);
            OK(c && strstr(c, want));
            nmodel++;
        }
        schemadoc_free(text);
        text = NULL;
        /* the page says it */
        words_of(k, want, sizeof want);
        if (*want && with && schemadoc_render_page(&text, &len, with, "md", NULL, d) == 0) {
            OK(strstr(text, want) != NULL);
            if (!strstr(text, want))
                fprintf(stderr, "  wanted \"%s\" on the page\n", want);
            nwords++;
        }
        schemadoc_free(text);
        text = NULL;
        /* a diff names it, tightened when it comes, loosened when it goes
         * (`required` is said per key instead) */
        if (with && without && k->diff != SD_KD_SKIP) {
            snprintf(want, sizeof want, "\"keyword\": \"%s\",\n      \"effect\": \"tightened\"", k->name);
            OK(schemadoc_diff_sources(&text, &len, without, with, "json", 0, NULL, d) == 1 && strstr(text, want));
            schemadoc_free(text);
            text = NULL;
            snprintf(want, sizeof want, "\"keyword\": \"%s\",\n      \"effect\": \"loosened\"", k->name);
            OK(schemadoc_diff_sources(&text, &len, with, without, "json", 0, NULL, d) == 1 && strstr(text, want));
            if (!text || !strstr(text, want))
                fprintf(stderr, "  %s\n", text ? text : "(no diff)");
            schemadoc_free(text);
            text = NULL;
            ndiff++;
        }
        /* a bound that grows: a lower one tightens, an upper one loosens */
        if (with && (k->diff == SD_KD_LOWER || k->diff == SD_KD_UPPER)) {
            schemadoc_source *more;
            snprintf(schema, sizeof schema, "{\"properties\": {\"p\": {\"%s\": 5}}}", k->name);
            more = open_text(dir, "more.json", schema, d);
            snprintf(want, sizeof want, "\"from\": 3,\n      \"to\": 5,\n      \"keyword\": \"%s\",\n      \"effect\": \"%s\"",
                     k->name, k->diff == SD_KD_LOWER ? "tightened" : "loosened");
            OK(more && schemadoc_diff_sources(&text, &len, with, more, "json", 0, NULL, d) == 1 && strstr(text, want));
            schemadoc_free(text);
            schemadoc_close(more);
        }
        schemadoc_close(with);
        schemadoc_close(without);
        schemadoc_diags_free(d);
    }
    {
        char path[256];
        snprintf(path, sizeof path, "%s/with.json", dir);
        unlink(path);
        snprintf(path, sizeof path, "%s/without.json", dir);
        unlink(path);
        snprintf(path, sizeof path, "%s/more.json", dir);
        unlink(path);
        rmdir(dir);
    }
    t_name = "model";
    OK(nmodel >= 20 && nwords >= 10 && ndiff >= 19);
    printf("count: keywords in the model %zu, worded %zu, diffed %zu\n", nmodel, nwords, ndiff);
}

/* view.c's list of the keywords whose subschemas the page shows as entries
 * of their own (sd_render__view_child): every row that holds subschemas,
 * as the resolver's index walks them, is shown or named below as left out
 * (a new such row fails here until view.c or this list knows it). Both
 * sides are checked on a page: a described key inside a shown keyword's
 * subschema is on it (walk_node() walks what the list names), inside a
 * left-out one it is not (the list is not stale). */
static void test_view_list(void)
{
    /* the model carries no entries for these: propertyNames describes the
     * names of keys, not keys; the rest are read by the validator only */
    static const char *const left_out[] = { "propertyNames", "dependentSchemas", "dependencies",
                                            "additionalItems", "unevaluatedProperties", "unevaluatedItems" };
    static const char *const sub = "{\"type\": \"object\", \"properties\": {\"q\": "
                                   "{\"type\": \"string\", \"description\": \"DESC-VIEW\"}}}";
    static const int drafts[] = { 4, 6, 7, 2019, 2020 };
    char dir[] = "/tmp/sd-test-view-XXXXXX", path[256];
    size_t shown = 0, out = 0;
    if (!mkdtemp(dir)) {
        OK(0);
        return;
    }
    for (size_t i = 0; i < SD_KW_COUNT; i++) {
        const sd_kw *k = &sd_kw_table[i];
        int holds = 0, listed = 0, child;
        char schema[1024], val[512];
        if (k->compile == SD_KC_REF)
            continue;
        for (size_t d = 0; d < sizeof drafts / sizeof *drafts; d++)
            if (drafts[d] >= k->from && drafts[d] <= k->to)
                holds |= sd_resolve__subschemas(k->name, drafts[d]);
        if (!holds)
            continue;
        t_name = k->name;
        for (size_t j = 0; j < sizeof left_out / sizeof *left_out; j++)
            listed |= !strcmp(left_out[j], k->name);
        child = sd_render__view_child(k->name);
        OK((child != 0) != listed);   /* one or the other */
        if (holds & SD_SUB_MAP)
            snprintf(val, sizeof val, "{\"^a\": %s}", sub);
        else if (holds & SD_SUB_LIST && !(holds & SD_SUB_ONE))
            snprintf(val, sizeof val, "[%s]", sub);
        else
            snprintf(val, sizeof val, "%s", sub);
        snprintf(schema, sizeof schema, "{\"$schema\": \"%s\", \"properties\": {\"p\": {\"%s\": %s}}}",
                 dialect(k->to), k->name, val);
        {
            schemadoc_diags *d = schemadoc_diags_new();
            schemadoc_source *s = open_text(dir, "view.json", schema, d);
            char *text = NULL;
            size_t len = 0;
            OK(s && schemadoc_render_page(&text, &len, s, "md", NULL, d) == 0);
            OK(!text || (strstr(text, "DESC-VIEW") != NULL) == (child != 0));
            schemadoc_free(text);
            schemadoc_close(s);
            schemadoc_diags_free(d);
        }
        child ? shown++ : out++;
    }
    snprintf(path, sizeof path, "%s/view.json", dir);
    unlink(path);
    rmdir(dir);
    t_name = "view list";
    OK(shown >= 12 && out == sizeof left_out / sizeof *left_out);
    printf("count: rows holding subschemas the page shows %zu, leaves out %zu\n", shown, out);
}

TEST_MAIN(test_rows, test_find, test_subschema_lists, test_export, test_model_words_diff, test_view_list)
