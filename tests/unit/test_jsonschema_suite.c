/* SPDX-License-Identifier: Apache-2.0 */
/* test_jsonschema_suite.c - run JSON-Schema-Test-Suite files through the
 * validator: $CORPUS/jsonschema-test-suite/tests/{draft4,draft7,draft2020-12}.
 *
 * The files are read with sd_doc_load_file (so our JSON parser is tested
 * too). Remote references to http://localhost:1234/ are served from the
 * suite's remotes/ directory by the built-in file loader. Each instance
 * (a test of a group) is one check: the verdict is the expected one, the
 * fast path (no result wanted) agrees, and the same instance parsed into a
 * tape reports as its tree does. The optional/format tests run with format
 * assertion on and count against a pinned baseline: a miss that is not in
 * `known_misses` fails, and so does a known miss that passes (update the
 * baseline). Every skipped test is printed with its reason as a `skip:` line.
 * Without the suite under $CORPUS the program says SKIPPED. */
#include "harness.h"
#include "buf.h"
#include "node.h"
#include "resolve.h"
#include "file.h"
#include "validate.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

static const char *corpus(void)
{
    const char *c = getenv("CORPUS");
    return c && *c ? c : "../shared/corpus";
}

/* Tests skipped on purpose: file, group description prefix, reason. */
static const struct { const char *draft, *file, *group, *reason; } skips[] = {
    { NULL, NULL, NULL, NULL }
};

/* The optional format tests the validator is known to miss: draft, file,
 * group description, test description, and why. */
static const struct { const char *draft, *file, *group, *test, *why; } known_misses[] = {
    /* none since the regex format follows ECMA-262 (ecma_re.c); an entry
     * looks like { "draft7", "ecmascript-regex.json", "GROUP", "TEST", "why" } */
    { NULL, NULL, NULL, NULL, NULL }
};

static const char *known_miss(const char *draft, const char *file, const char *group, const char *test)
{
    for (size_t i = 0; known_misses[i].file; i++)
        if (!strcmp(known_misses[i].draft, draft) && !strcmp(known_misses[i].file, file) &&
            !strcmp(known_misses[i].group, group) && !strcmp(known_misses[i].test, test))
            return known_misses[i].why;
    return NULL;
}

static const char *skip_reason(const char *draft, const char *file, const char *group)
{
    for (size_t i = 0; skips[i].file; i++)
        if ((!skips[i].draft || !strcmp(skips[i].draft, draft)) && !strcmp(skips[i].file, file) &&
            (!skips[i].group || !strncmp(group, skips[i].group, strlen(skips[i].group))))
            return skips[i].reason;
    return NULL;
}

/* Instances passed, failed, skipped, known misses; `tape`: instances whose
 * tape reported as the tree (part of each pass, counted for the figure). */
typedef struct counts { int pass, fail, skip, known, tape; } counts;

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ---- the same instances parsed straight into a tape --------------------- */

/* Member `key` of the map at tape index `m`, or 0. */
static size_t tget(const sd_tape *t, size_t m, const char *key)
{
    size_t k = m + 1;
    for (uint32_t i = 0; i < t->v[m].len; i++, k = sd_tape_next(t, k + 1))
        if (strcmp(t->v[k].u.s, key) == 0)
            return k + 1;
    return 0;
}

/* Item `n` of the list (or the value of member `n` of the map) at `m`. */
static size_t titem(const sd_tape *t, size_t m, size_t n)
{
    size_t k = m + 1, map = sd_tape_kind(&t->v[m]) == SD_MAP;
    for (size_t i = 0; i < n; i++)
        k = sd_tape_next(t, k + map);
    return k + map;
}

static int same_str(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Validate the suite file's instance at tape index `at` (a view of the
 * tape from there on: offsets stay the file's) and compare every result
 * with the tree's: the tape a JSON values file is parsed into must report
 * as the tree would, positions and values as written included. */
static int tape_agrees(sd_validator *v, sd_tape *t, size_t at, int r, const sd_vresult *res)
{
    sd_tape view = *t;
    sd_vresult tr = SD_VRESULT_INIT;
    sd_diags vd = SD_DIAGS_INIT;
    int ok;

    view.v = t->v + at;
    view.n = sd_tape_next(t, at) - at;
    view.lines = NULL;
    view.nlines = 0;
    memset(&view.arena, 0, sizeof view.arena);
    int r2 = sd_validate_tape(v, 0, &view, &tr, &vd);
    ok = r2 == r && tr.count == res->count && tr.total == res->total && tr.nwarnings == res->nwarnings;
    for (size_t i = 0; ok && i < tr.count + tr.nwarnings; i++) {
        const sd_verror *a = i < tr.count ? &tr.items[i] : &tr.warnings[i - tr.count];
        const sd_verror *b = i < tr.count ? &res->items[i] : &res->warnings[i - tr.count];
        ok = same_str(a->path, b->path) && same_str(a->key, b->key) && same_str(a->keyword, b->keyword) &&
             same_str(a->message, b->message) && same_str(a->schema_path, b->schema_path) &&
             a->loc.line == b->loc.line && a->loc.column == b->loc.column && same_str(a->loc.file, b->loc.file);
        if (!ok)
            fprintf(stderr, "  tape: %s %d:%d %s | tree: %s %d:%d %s\n", a->key, a->loc.line, a->loc.column,
                    a->message, b->key, b->loc.line, b->loc.column, b->message);
    }
    free(view.lines);
    sd_vresult_release(&tr);
    sd_diags_release(&vd);
    return ok;
}

static void run_file(sd_file_loader *fl, const char *dir, const char *name, const char *draft_name,
                     int draft, int formats, counts *ct, int verbose)
{
    sd_buf path = SD_BUF_INIT;
    sd_diags diags = SD_DIAGS_INIT;
    sd_doc *doc = NULL;
    sd_node *root;
    char *text = NULL;
    sd_tape tape;
    int have_tape = 0;

    sd_buf_printf(&path, "%s/%s", dir, name);
    if (sd_doc_load_file(&doc, path.ptr, SD_FMT_JSON, NULL, &diags) < 0) {
        fprintf(stderr, "FAIL %s: cannot load\n", path.ptr);
        sd_diags_print(&diags, stderr, 0);
        ct->fail++;
        goto done;
    }
    /* the same text as a tape: json.c's document and the tape must agree */
    /* (read again: json.c rewrites its copy of the text) */
    size_t len;
    if (sd_file_read(&text, &len, path.ptr, SD_FILE_MAX, 0, &diags) == 0)
        have_tape = sd_tape_parse(&tape, text, len, doc->file, 0) == 0;
    if (!have_tape) {
        fprintf(stderr, "FAIL %s: the tape refused it\n", path.ptr);
        ct->fail++;
    }
    root = sd_doc_root(doc);
    for (size_t g = 0; root && g < root->n; g++) {
        const sd_node *grp = root->items[g].value;
        const sd_node *desc = sd_node_get(grp, "description");
        const sd_node *schema = sd_node_get(grp, "schema");
        const sd_node *tests = sd_node_get(grp, "tests");
        const char *reason = skip_reason(draft_name, name, desc ? desc->str : "");
        sd_validator *v = NULL;
        sd_validate_opts o = { 0 };
        sd_diags cd = SD_DIAGS_INIT;
        int cerr;

        if (!schema || !tests)
            continue;
        if (reason) {
            for (size_t t = 0; t < tests->n; t++) {
                const sd_node *td = sd_node_get(tests->items[t].value, "description");
                printf("skip: %s %s: %s / %s: %s\n", draft_name, name, desc ? desc->str : "?",
                       td ? td->str : "?", reason);
                ct->skip++;
            }
            continue;
        }
        o.default_draft = draft;
        o.formats = formats;
        o.load = sd_file_loader_load;
        o.payload = fl;
        cerr = sd_validator_new(&v, doc, schema, &o, &cd);
        for (size_t t = 0; t < tests->n; t++) {
            const sd_node *tc = tests->items[t].value;
            const sd_node *td = sd_node_get(tc, "description");
            const sd_node *data = sd_node_get(tc, "data");
            const sd_node *valid = sd_node_get(tc, "valid");
            int want = valid && valid->kind == SD_BOOL && valid->num.b, got = -1, tape_ok = 1;
            sd_vresult res = SD_VRESULT_INIT;
            sd_diags vd = SD_DIAGS_INIT;
            if (cerr == 0) {
                int r = sd_validate(v, data, &res, &vd);
                int r2 = sd_validate(v, data, NULL, &vd);   /* the fast path must agree */
                got = r == 0 ? 1 : r == SD_EINVALID ? 0 : -1;
                if ((r == 0) != (r2 == 0))
                    got = -2;
                if (have_tape) {
                    size_t grp = titem(&tape, 0, g);
                    size_t tl = tget(&tape, grp, "tests");
                    size_t di = tl ? tget(&tape, titem(&tape, tl, t), "data") : 0;
                    if (di && tape_agrees(v, &tape, di, r, &res)) {
                        ct->tape++;
                    } else {
                        tape_ok = 0;
                        fprintf(stderr, "FAIL %s %s: %s / %s: the tape reports otherwise\n", draft_name, name,
                                desc ? desc->str : "?", td ? td->str : "?");
                    }
                }
            }
            const char *miss = formats == SD_FORMATS_ASSERT
                ? known_miss(draft_name, name, desc ? desc->str : "", td ? td->str : "") : NULL;
            if (!tape_ok) {   /* printed above */
                ct->fail++;
            } else if (got == want && miss) {
                ct->fail++;
                fprintf(stderr, "FAIL %s %s: %s / %s: passes now; remove it from known_misses\n",
                        draft_name, name, desc ? desc->str : "?", td ? td->str : "?");
            } else if (got == want) {
                ct->pass++;
            } else if (miss) {
                ct->known++;
                printf("skip: %s %s: %s / %s: known miss: %s\n", draft_name, name,
                       desc ? desc->str : "?", td ? td->str : "?", miss);
            } else {
                ct->fail++;
                if (verbose) {
                    fprintf(stderr, "%s %s %s: %s / %s: expected %s, got %s\n",
                            formats == SD_FORMATS_ASSERT ? "MISS" : "FAIL", draft_name, name,
                            desc ? desc->str : "?", td ? td->str : "?",
                            want ? "valid" : "invalid",
                            got == 1 ? "valid" : got == 0 ? "invalid" : got == -2 ? "fast/slow disagree" : "error");
                    if (cerr)
                        sd_diags_print(&cd, stderr, 0);
                    sd_diags_print(&vd, stderr, 0);
                    for (size_t i = 0; i < res.count && i < 3; i++)
                        fprintf(stderr, "    %s: %s [%s]\n", res.items[i].key, res.items[i].message,
                                res.items[i].schema_path);
                }
            }
            sd_vresult_release(&res);
            sd_diags_release(&vd);
        }
        sd_diags_release(&cd);
        sd_validator_free(v);
    }
done:
    if (have_tape)
        sd_tape_free(&tape);
    free(text);
    sd_doc_free(doc);
    sd_diags_release(&diags);
    sd_buf_release(&path);
}

static void run_dir(sd_file_loader *fl, const char *dir, const char *draft_name, int draft,
                    int formats, counts *ct, int verbose)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char **names = NULL;
    size_t n = 0;

    if (!d) {
        fprintf(stderr, "FAIL: cannot open %s\n", dir);
        ct->fail++;
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
        run_file(fl, dir, names[i], draft_name, draft, formats, ct, verbose);
        free(names[i]);
    }
    free(names);
}

static void run_draft(const char *draft_name, int draft)
{
    sd_file_loader *fl;
    sd_buf dir = SD_BUF_INIT, remotes = SD_BUF_INIT;
    counts req = { 0 }, fmt = { 0 };
    static int absent = -1;

    if (absent < 0)   /* said once */
        absent = !t_corpus("jsonschema-test-suite");
    if (absent)
        return;
    fl = sd_file_loader_new();
    sd_buf_printf(&remotes, "%s/jsonschema-test-suite/remotes", corpus());
    sd_file_loader_map(fl, "http://localhost:1234/", remotes.ptr);
    sd_buf_printf(&dir, "%s/jsonschema-test-suite/tests/%s", corpus(), draft_name);
    run_dir(fl, dir.ptr, draft_name, draft, SD_FORMATS_DEFAULT, &req, 1);
    sd_buf_puts(&dir, "/optional/format");
    run_dir(fl, dir.ptr, draft_name, draft, SD_FORMATS_ASSERT, &fmt, 1);
    printf("count: %s required %d/%d (%d skipped)\n", draft_name, req.pass, req.pass + req.fail, req.skip);
    printf("count: %s format %d/%d (%d known misses)\n", draft_name, fmt.pass,
           fmt.pass + fmt.fail + fmt.known, fmt.known);
    printf("count: %s tape %d instances report as their tree\n", draft_name, req.tape + fmt.tape);
    /* coverage: every passing instance went through the tape too (a file
     * the tape refused fails above), and the suite's files were there */
    if (req.tape + fmt.tape < req.pass + fmt.pass)
        fprintf(stderr, "FAIL %s: only %d instances compared as tapes\n", draft_name, req.tape + fmt.tape);
    OK(req.tape + fmt.tape >= req.pass + fmt.pass);
    if (req.pass + req.fail < 100 || fmt.pass + fmt.fail < 50)
        fprintf(stderr, "FAIL %s: too few tests ran (%d required, %d format): is the suite there?\n",
                draft_name, req.pass + req.fail, fmt.pass + fmt.fail);
    OK(req.pass + req.fail >= 100 && fmt.pass + fmt.fail >= 50);
    t_passed += req.pass + fmt.pass;
    t_failed += req.fail + fmt.fail;
    sd_file_loader_free(fl);
    sd_buf_release(&dir);
    sd_buf_release(&remotes);
}

static void test_draft4(void) { run_draft("draft4", SD_DRAFT_4); }
static void test_draft6(void) { run_draft("draft6", SD_DRAFT_6); }
static void test_draft7(void) { run_draft("draft7", SD_DRAFT_7); }
static void test_draft2019(void) { run_draft("draft2019-09", SD_DRAFT_2019); }
static void test_draft2020(void) { run_draft("draft2020-12", SD_DRAFT_2020); }

TEST_MAIN(test_draft4, test_draft6, test_draft7, test_draft2019, test_draft2020)
