/* SPDX-License-Identifier: Apache-2.0 */
/* test_rules_suite.c - the JSON-Schema-Test-Suite through the rules export:
 * every group of every draft (4, 6, 7, 2019-09, 2020-12; required tests with
 * the default format mode, optional/format with formats asserted) is
 * compiled, validated in C, and exported with sd_rules_export().
 *
 * Counted here: every export succeeds and reads back as a rules document,
 * one check per group. C's verdict on each test is test_jsonschema_suite.c's
 * check (all five drafts), not counted again here. Without the suite under
 * $CORPUS the program says SKIPPED. With SD_RULES_SUITE=FILE
 * it also writes one JSON line per group (the rules, each test's data as
 * JSON text, the expected verdict and C's errors and warnings) for the
 * JavaScript side: tests/js/suite.test.mjs compares the interpreter with
 * both, test by test. */
#include "harness.h"
#include "buf.h"
#include "emit.h"
#include "node.h"
#include "resolve.h"
#include "rules.h"
#include "validate.h"
#include "vmsg.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

static const char *corpus(void)
{
    const char *c = getenv("CORPUS");
    return c && *c ? c : "../shared/corpus";
}

static FILE *out;

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void put_json_str(sd_buf *b, const char *s)
{
    sd_emit_json_string(b, s ? s : "", s ? strlen(s) : 0);
}

static void put_errors(sd_buf *b, const sd_verror *e, size_t n)
{
    sd_buf_putc(b, '[');
    for (size_t i = 0; i < n; i++) {
        sd_buf l = SD_BUF_INIT;
        if (i) sd_buf_putc(b, ',');
        sd_buf_puts(b, "{\"path\":");
        put_json_str(b, e[i].path);
        sd_buf_puts(b, ",\"key\":");
        put_json_str(b, e[i].key);
        sd_buf_puts(b, ",\"keyword\":");
        put_json_str(b, e[i].keyword);
        sd_buf_puts(b, ",\"message\":");
        put_json_str(b, e[i].message);
        if (e[i].schema_loc.file)
            sd_buf_printf(&l, "%s:%d:%d", e[i].schema_loc.file, e[i].schema_loc.line, e[i].schema_loc.column);
        sd_buf_puts(b, ",\"schemaLocation\":");
        put_json_str(b, l.ptr);
        sd_buf_puts(b, ",\"schemaPath\":");
        put_json_str(b, e[i].schema_path);
        sd_buf_putc(b, '}');
        sd_buf_release(&l);
    }
    sd_buf_putc(b, ']');
}

typedef struct counts { int exported, groups; } counts;

static void run_file(sd_file_loader *fl, const char *dir, const char *name, const char *draft_name,
                     int draft, int formats, counts *ct)
{
    sd_buf path = SD_BUF_INIT;
    sd_diags diags = SD_DIAGS_INIT;
    sd_doc *doc = NULL;
    const sd_node *root;

    sd_buf_printf(&path, "%s/%s", dir, name);
    if (sd_doc_load_file(&doc, path.ptr, SD_FMT_JSON, NULL, &diags) < 0) {
        fprintf(stderr, "FAIL %s: cannot load\n", path.ptr);
        t_failed++;
        goto done;
    }
    root = sd_doc_root(doc);
    for (size_t g = 0; root && g < root->n; g++) {
        const sd_node *grp = root->items[g].value;
        const sd_node *desc = sd_node_get(grp, "description");
        const sd_node *schema = sd_node_get(grp, "schema");
        const sd_node *tests = sd_node_get(grp, "tests");
        sd_validator *v = NULL;
        sd_validate_opts o = { 0 };
        sd_diags cd = SD_DIAGS_INIT;
        sd_buf line = SD_BUF_INIT, rules = SD_BUF_INIT;
        int cerr;

        if (!schema || !tests)
            continue;
        o.default_draft = draft;
        o.formats = formats;
        o.load = sd_file_loader_load;
        o.payload = fl;
        cerr = sd_validator_new(&v, doc, schema, &o, &cd);
        ct->groups++;
        if (cerr == 0) {
            sd_rules_entry e = { "schema", v, 0, NULL, NULL, NULL, NULL, NULL };
            sd_rules_opts ro = { path.ptr, "schema", NULL, formats, 0, draft, NULL };
            sd_diags rd = SD_DIAGS_INIT;
            if (sd_rules_export(&rules, &e, 1, &ro, &rd) == 0 && rules.len > 100 &&
                !strncmp(rules.ptr, "{\"rules\": 1,", 12)) {
                ct->exported++;
                t_passed++;
            } else {
                fprintf(stderr, "FAIL %s %s: %s: export failed\n", draft_name, name, desc ? desc->str : "?");
                sd_diags_print(&rd, stderr, 0);
                t_failed++;
            }
            sd_diags_release(&rd);
        }
        sd_buf_puts(&line, "{\"draft\":");
        put_json_str(&line, draft_name);
        sd_buf_puts(&line, ",\"file\":");
        put_json_str(&line, name);
        sd_buf_printf(&line, ",\"optional\":%s,\"group\":", formats == SD_FORMATS_ASSERT ? "true" : "false");
        put_json_str(&line, desc ? desc->str : "?");
        if (cerr == 0) {
            sd_buf_puts(&line, ",\"rules\":");
            for (size_t k = 0; k < rules.len; k++)   /* one line: newlines are only layout there */
                if (rules.ptr[k] == '\n')
                    rules.ptr[k] = ' ';
            sd_buf_put(&line, rules.ptr, rules.len);
        } else {
            sd_buf_puts(&line, ",\"compileError\":true");
        }
        sd_buf_puts(&line, ",\"tests\":[");
        for (size_t t = 0; t < tests->n; t++) {
            const sd_node *tc = tests->items[t].value;
            const sd_node *td = sd_node_get(tc, "description");
            const sd_node *data = sd_node_get(tc, "data");
            const sd_node *valid = sd_node_get(tc, "valid");
            int want = valid && valid->kind == SD_BOOL && valid->num.b, got = -1;
            sd_vresult res = SD_VRESULT_INIT;
            sd_diags vd = SD_DIAGS_INIT;
            sd_buf dj = SD_BUF_INIT;
            if (cerr == 0) {
                int r = sd_validate(v, data, &res, &vd);
                got = r == 0 ? 1 : r == SD_EINVALID ? 0 : -1;
            }
            if (t) sd_buf_putc(&line, ',');
            sd_buf_puts(&line, "{\"description\":");
            put_json_str(&line, td ? td->str : "?");
            sd_emit_json(&dj, NULL, data, 0, 0);
            sd_buf_puts(&line, ",\"data\":");
            sd_emit_json_string(&line, dj.ptr, dj.len);
            sd_buf_printf(&line, ",\"valid\":%s,\"c\":{\"valid\":%s,\"fatal\":%s,\"errors\":",
                          want ? "true" : "false", got == 1 ? "true" : "false", got < 0 ? "true" : "false");
            put_errors(&line, res.items, res.count);
            sd_buf_puts(&line, ",\"warnings\":");
            put_errors(&line, res.warnings, res.nwarnings);
            sd_buf_puts(&line, ",\"inputErrors\":[");
            for (size_t k = 0; k < vd.count; k++) {
                if (k) sd_buf_putc(&line, ',');
                put_json_str(&line, vd.items[k].message);
            }
            sd_buf_puts(&line, "]}}");
            sd_buf_release(&dj);
            sd_vresult_release(&res);
            sd_diags_release(&vd);
        }
        sd_buf_puts(&line, "]}\n");
        if (out)
            fwrite(line.ptr, 1, line.len, out);
        sd_buf_release(&line);
        sd_buf_release(&rules);
        sd_diags_release(&cd);
        sd_validator_free(v);
    }
done:
    sd_doc_free(doc);
    sd_diags_release(&diags);
    sd_buf_release(&path);
}

static void run_dir(sd_file_loader *fl, const char *dir, const char *draft_name, int draft,
                    int formats, counts *ct)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char **names = NULL;
    size_t n = 0;

    if (!d) {
        fprintf(stderr, "FAIL: cannot open %s\n", dir);
        t_failed++;
        return;
    }
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len > 5 && !strcmp(e->d_name + len - 5, ".json")) {
            names = realloc(names, (n + 1) * sizeof *names);
            names[n++] = strdup(e->d_name);
        }
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        run_file(fl, dir, names[i], draft_name, draft, formats, ct);
        free(names[i]);
    }
    free(names);
}

static void run_draft(const char *draft_name, int draft)
{
    sd_file_loader *fl = sd_file_loader_new();
    sd_buf dir = SD_BUF_INIT, remotes = SD_BUF_INIT;
    counts req = { 0, 0 }, fmt = { 0, 0 };

    sd_buf_printf(&remotes, "%s/jsonschema-test-suite/remotes", corpus());
    sd_file_loader_map(fl, "http://localhost:1234/", remotes.ptr);
    sd_buf_printf(&dir, "%s/jsonschema-test-suite/tests/%s", corpus(), draft_name);
    run_dir(fl, dir.ptr, draft_name, draft, SD_FORMATS_DEFAULT, &req);
    sd_buf_puts(&dir, "/optional/format");
    run_dir(fl, dir.ptr, draft_name, draft, SD_FORMATS_ASSERT, &fmt);
    printf("count: %s rules exported for %d/%d groups\n", draft_name, req.exported + fmt.exported,
           req.groups + fmt.groups);
    sd_file_loader_free(fl);
    sd_buf_release(&dir);
    sd_buf_release(&remotes);
}

static void test_suite(void)
{
    const char *f = getenv("SD_RULES_SUITE");
    if (!t_corpus("jsonschema-test-suite"))
        return;
    if (f && *f && !(out = fopen(f, "w"))) {
        fprintf(stderr, "cannot write %s\n", f);
        t_failed++;
        return;
    }
    run_draft("draft4", SD_DRAFT_4);
    run_draft("draft6", SD_DRAFT_6);
    run_draft("draft7", SD_DRAFT_7);
    run_draft("draft2019-09", SD_DRAFT_2019);
    run_draft("draft2020-12", SD_DRAFT_2020);
    if (out)
        fclose(out);
}

/* The exported catalogue holds every message of vmsg.h. */
static void test_catalogue(void)
{
    sd_doc *d = NULL;
    sd_diags diags = SD_DIAGS_INIT;
    sd_validator *v = NULL;
    sd_buf out = SD_BUF_INIT;
    const char *src = "{\"type\": \"string\"}";
    OK(sd_doc_load_mem(&d, "catalogue.json", src, strlen(src), SD_FMT_JSON, NULL, &diags) == 0);
    OK(sd_validator_new(&v, d, sd_doc_root(d), NULL, &diags) == 0);
    if (v) {
        sd_rules_entry e = { "schema", v, 0, NULL, NULL, NULL, NULL, NULL };
        sd_doc *rd = NULL;
        OK(sd_rules_export(&out, &e, 1, NULL, &diags) == 0);
        OK(sd_doc_load_mem(&rd, "rules.json", out.ptr, out.len, SD_FMT_JSON, NULL, &diags) == 0);
        const sd_node *m = rd ? sd_node_get(sd_doc_root(rd), "messages") : NULL;
        OK(m && m->kind == SD_MAP);
        INT_EQ(m ? m->n : 0, SD_VMSG_COUNT);
        STR_EQ(sd_node_str(sd_node_get(m, "TYPE_VALUE")), SD_MSG_TYPE_VALUE);
        sd_doc_free(rd);
    }
    sd_buf_release(&out);
    sd_validator_free(v);
    sd_doc_free(d);
    sd_diags_release(&diags);
}

TEST_MAIN(test_catalogue, test_suite)
