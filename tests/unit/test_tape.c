/* SPDX-License-Identifier: Apache-2.0 */
/* test_tape.c - the tape (src/tree/tape.c) against json.c: on every corpus
 * JSON file, on hand-written broken texts and on random mutations, the tape
 * accepts only what json.c accepts, and then holds the same values, keys,
 * numbers and positions. The same for YAML parsed straight into a tape
 * (src/load/load_tape.c) against the loader's tree: every corpus values
 * file, hand-written edges and random mutations. */
#include "harness.h"
#include "file.h"
#include "buf.h"
#include "node.h"
#include "tape.h"
#include "load_tape.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *corpus(void)
{
    const char *c = getenv("CORPUS");
    return c && *c ? c : "../shared/corpus";
}

static int mismatches;

static size_t same(const sd_node *n, sd_tape *t, size_t i);

/* Compare node `n` (a map's key when `key`) with tape value `i`; returns
 * the index past it. */
static size_t same_as(const sd_node *n, sd_tape *t, size_t i, int key)
{
    const sd_tval *v = &t->v[i];
    sd_loc l = sd_tape_loc(t, v);
    size_t tl;
    const char *tx = sd_tape_text(t, v, &tl);
    int ok = (key ? sd_tape_kind(v) == SD_STR : n->kind == sd_tape_kind(v)) && n->loc.line == l.line &&
             n->loc.column == l.column && (!t->src || t->src[i] == n);
    if (ok && key) {
        /* keys are strings, whatever YAML typed them as */
        ok = v->len == (n->str ? n->len : 0) && memcmp(v->u.s, n->str ? n->str : "", v->len) == 0;
    } else if (ok) {
        switch (n->kind) {
        case SD_STR:
            ok = n->len == v->len && memcmp(n->str, v->u.s, n->len) == 0 && v->u.s[v->len] == '\0';
            break;
        case SD_INT:
            ok = n->big == !!(v->head & SD_TAPE_BIG) &&
                 (n->big ? memcmp(&n->num.f, &v->u.f, sizeof(double)) == 0 : n->num.i == v->u.i) &&
                 n->len == tl && memcmp(n->str, tx, n->len) == 0;
            break;
        case SD_FLOAT:
            ok = memcmp(&n->num.f, &v->u.f, sizeof(double)) == 0 && n->len == tl &&
                 memcmp(n->str, tx, n->len) == 0;
            break;
        case SD_BOOL:
            ok = n->num.b == v->u.b;
            break;
        case SD_MAP:
        case SD_SEQ:
            ok = n->n == v->len;
            break;
        default:
            break;
        }
    }
    if (!ok) {
        if (mismatches++ < 5)
            fprintf(stderr, "  mismatch at %s:%d:%d (tape %d:%d, kind %d/%d)\n", n->loc.file, n->loc.line,
                    n->loc.column, l.line, l.column, n->kind, sd_tape_kind(v));
        return t->n;   /* stop this walk */
    }
    size_t j = i + 1;
    if (n->kind == SD_MAP || n->kind == SD_SEQ) {
        for (size_t k = 0; k < n->n && j < t->n; k++) {
            if (n->kind == SD_MAP)
                j = same_as(n->items[k].key, t, j, 1);
            if (j < t->n)
                j = same(n->items[k].value, t, j);
        }
        if (j != i + v->u.span && mismatches++ < 5)
            fprintf(stderr, "  subtree end %zu, expected %zu\n", j, i + v->u.span);
    }
    return j;
}

static size_t same(const sd_node *n, sd_tape *t, size_t i)
{
    return same_as(n, t, i, 0);
}

/* Parse `text` both ways: 1 when they agree (both refuse, or both hold the
 * same document), 0 otherwise; *accepted: the tape took it. */
static int agree(const char *name, const char *text, size_t len, int *accepted, int *json_ok)
{
    sd_doc *doc = NULL;
    sd_diags d = SD_DIAGS_INIT;
    sd_tape t;
    char *copy = malloc(len + 1);
    int r, jr, before = mismatches;

    memcpy(copy, text, len);
    copy[len] = '\0';
    jr = sd_doc_load_mem(&doc, name, text, len, SD_FMT_JSON, NULL, &d);
    r = sd_tape_parse(&t, copy, len, name, 0);
    *accepted = r == 0;
    *json_ok = jr == 0;
    int ok = 1;
    if (r == 0 && jr != 0)
        ok = 0;   /* the tape took what json.c refuses */
    else if (r == 0) {
        const sd_node *root = sd_doc_root(doc);
        ok = root && same(root, &t, 0) == t.n && mismatches == before;
    }
    if (r == 0)
        sd_tape_free(&t);
    sd_doc_free(doc);
    sd_diags_release(&d);
    free(copy);
    return ok;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *b = NULL;
    long n;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (b = malloc((size_t)n + 1)) && fread(b, 1, (size_t)n, f) == (size_t)n) {
        b[n] = '\0';
        *len = (size_t)n;
    } else {
        free(b);
        b = NULL;
    }
    fclose(f);
    return b;
}

static int files, refused;

static void one_file(const char *path)
{
    size_t len;
    char *text = slurp(path, &len);
    int acc, jok;
    if (!text)
        return;
    files++;
    OK(agree(path, text, len, &acc, &jok));
    if (jok && !acc)
        refused++;
    free(text);
}

static void dir_files(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[2048];
    if (!d)
        return;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n > 5 && !strcmp(e->d_name + n - 5, ".json")) {
            if ((size_t)snprintf(path, sizeof path, "%.1000s/%.255s", dir, e->d_name) >= sizeof path)
                continue;
            one_file(path);
        }
    }
    closedir(d);
}

/* every JSON file of the corpus: the test suite's five drafts, the charts'
 * schemas, the Kubernetes definitions */
static void test_corpus(void)
{
    static const char *const drafts[] = { "draft4", "draft6", "draft7", "draft2019-09", "draft2020-12" };
    char path[2048];
    if (!t_corpus("jsonschema-test-suite") || !t_corpus("charts"))
        return;
    for (size_t i = 0; i < 5; i++) {
        snprintf(path, sizeof path, "%s/jsonschema-test-suite/tests/%s", corpus(), drafts[i]);
        dir_files(path);
    }
    snprintf(path, sizeof path, "%s/kubernetes/_definitions.json", corpus());
    one_file(path);
    snprintf(path, sizeof path, "%s/charts", corpus());
    DIR *d = opendir(path);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%.1000s/charts/%.255s/values.schema.json", corpus(), e->d_name);
        one_file(path);
    }
    if (d)
        closedir(d);
    printf("  count: %d corpus JSON files, %d refused by the tape\n", files, refused);
    OK(files > 150);   /* the suite's files are there: no empty comparison */
    INT_EQ(refused, 0);
}

/* texts json.c refuses: the tape must refuse each; and some it accepts */
static void test_edges(void)
{
    static const char *const bad[] = {
        "", " ", "{", "[", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "[01]", "[-]", "[1.]", "[1e]",
        "[.5]", "[+1]", "[1]x", "[\"a\tb\"]", "[\"\\x\"]", "[\"\\u12G4\"]", "[\"\\u12\"]", "[\"abc]",
        "[\"\xC0\xAF\"]", "[\"\xED\xA0\x80\"]", "[\"\xF5\x80\x80\x80\"]", "[tru]", "[nul]", "[True]",
        "{\"a\":1,\"a\":2}", "[NaN]", "[Infinity]", "[\"a\" \"b\"]", "[1 2]", "{\"a\":1 \"b\":2}",
    };
    static const char *const good[] = {
        "0", "-0", "[]", "{}", " [ ] ", "\"\"", "[\"\\ud83d\\ude00\"]", "[\"\\ud800\"]", "[\"\\udc00x\"]",
        "[\"\\/\\b\\f\\n\\r\\t\\\"\\\\\"]", "[1e308, -1e-308, 1E+2, 0.5]", "[9223372036854775807]",
        "[9223372036854775808]", "[-9223372036854775809]", "[123456789012345678901234567890]",
        "{\"é\":\"日本\", \"k\\u00e9\":[true,false,null]}", 
        /* escapes decoded before the line's first raw non-ASCII byte (json.c
         * decodes in place: its columns once counted the rewritten bytes) */
        "{\"t\\u00e9am\": true, \"a\\nb\": 1, \"équipe\": [5, \"ü\", 7]}",
        "[\"\\ud83d\\ude00\", \"\\t\", \"é\", 1, {\"x\\u00fc\": \"ü\", \"y\": 2}]", "\n\n  {\"a\":\n [1,\n  {\"b\":\"\xF0\x9F\x98\x80 x\"}]}\n",
    };
    int acc, jok;
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        OK(agree("bad.json", bad[i], strlen(bad[i]), &acc, &jok));
        OK(!acc);
    }
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        OK(agree("good.json", good[i], strlen(good[i]), &acc, &jok));
        OK(acc && jok);
    }
    /* what the tape leaves to json.c though json.c takes it */
    OK(agree("bom.json", "\xEF\xBB\xBF[1]", 6, &acc, &jok) && !acc && jok);
    char deep[2100];
    memset(deep, '[', 1001);
    memset(deep + 1001, ']', 1001);
    OK(agree("deep.json", deep, 2002, &acc, &jok) && !acc && !jok);
    OK(agree("deep.json", deep + 1, 2000, &acc, &jok) && acc && jok);
}

/* random byte changes to small documents: never a document json.c refuses,
 * never a different one */
static void test_mutations(void)
{
    static const char *const seeds[] = {
        "{\"a\": [1, 2.5, -3e2, \"x\\ny\"], \"b\": {\"c\": null, \"d\": true}, \"\xC3\xA9\": \"\\u00e9\"}",
        "[{\"k\": \"v\"}, [[]], {}, 12345678901234567890, \"\\ud83d\\ude00\"]",
    };
    static const char alphabet[] = "{}[],:\"\\ u0123456789.eE+-tfnrl\xC3\xA9\x80\xFF\n";
    int accepted = 0, both = 0, bad = 0;
    for (int round = 0; round < 20000; round++) {
        const char *s = seeds[t_rnd(2)];
        size_t len = strlen(s);
        char buf[256];
        memcpy(buf, s, len + 1);
        for (unsigned k = 1 + t_rnd(3); k; k--)
            buf[t_rnd((unsigned)len)] = alphabet[t_rnd(sizeof alphabet - 1)];
        int acc, jok;
        if (!agree("m.json", buf, len, &acc, &jok))
            bad++;
        accepted += acc;
        both += jok;
    }
    printf("  count: 20000 mutations, json.c took %d, the tape %d\n", both, accepted);
    INT_EQ(bad, 0);
    OK(accepted > 500);   /* enough of them stay valid to compare */
}

/* Trees copied into tapes (sd_tape_from_node): every chart's values.yaml
 * of the corpus, and YAML the JSON parser never makes (aliases, merge
 * keys, keys that are numbers, booleans or null, big integers). */
static void check_tree(const char *name, const char *text, size_t len, size_t *values)
{
    sd_doc *d = NULL;
    sd_diags dg = SD_DIAGS_INIT;
    sd_tape t;
    OK(sd_doc_load_mem(&d, name, text, len, SD_FMT_YAML, NULL, &dg) == 0);
    if (d && sd_doc_root(d)) {
        int before = mismatches;
        OK(sd_tape_from_node(&t, sd_doc_root(d)) == 0);
        OK(same(sd_doc_root(d), &t, 0) == t.n);
        if (mismatches != before)
            fprintf(stderr, "  (in %s)\n", name);
        OK(mismatches == before);
        *values += t.n;
        sd_tape_free(&t);
    }
    sd_doc_free(d);
    sd_diags_release(&dg);
}

static void test_from_node(void)
{
    static const char *const yaml[] = {
        "a: &x {b: [1, 2.5, true, null, \"s\"]}\nc: *x\nd: *x\n",
        "base: &b {x: 1, y: 2}\nm:\n  <<: *b\n  y: 3\n",
        "1: one\ntrue: yes\n~: nothing\n2.5: float\n\"q\": quoted\n",
        "big: 123456789012345678901234567890\nneg: -9223372036854775809\nhex: 0x1F\noct: 0o17\n",
        "- [ ]\n- { }\n- ''\n- !!str 12\n- |\n  block\n",
        "k: \"\\u00e9\\u0000x\"\n",
    };
    size_t values = 0, files = 0;
    for (size_t i = 0; i < sizeof yaml / sizeof *yaml; i++)
        check_tree("edge.yaml", yaml[i], strlen(yaml[i]), &values);
    if (!t_corpus("charts"))
        return;
    sd_buf dir = SD_BUF_INIT;
    sd_buf_printf(&dir, "%s/charts", corpus());
    DIR *dp = opendir(dir.ptr);
    OK(dp != NULL);
    for (struct dirent *e; dp && (e = readdir(dp));) {
        sd_buf path = SD_BUF_INIT;
        char *text;
        size_t len;
        sd_diags dg = SD_DIAGS_INIT;
        sd_buf_printf(&path, "%s/%s/values.yaml", dir.ptr, e->d_name);
        if (e->d_name[0] != '.' && sd_file_read(&text, &len, path.ptr, SD_FILE_MAX, 0, &dg) == 0) {
            check_tree(path.ptr, text, len, &values);
            free(text);
            files++;
        }
        sd_diags_release(&dg);
        sd_buf_release(&path);
    }
    if (dp)
        closedir(dp);
    sd_buf_release(&dir);
    printf("  count: %zu YAML trees copied into tapes (%zu values), %zu of them corpus charts\n",
           sizeof yaml / sizeof *yaml + files, values, files);
    OK(files >= 13);
}


/* YAML both ways: the loader's tree (copied into a tape) and the tape made
 * from libyaml's events. 1 when they agree: the tape refused (any text),
 * or both took it and hold the same values at the same positions, and
 * the run's alias budget was charged the same. */
static int one_doc;   /* the last agree_yaml(): the loader took one document */

static int agree_yaml(const char *name, const char *text, size_t len, int *accepted)
{
    sd_doc *doc = NULL;
    sd_diags d = SD_DIAGS_INIT;
    sd_tape t;
    char *copy = malloc(len + 1);
    int r, lr, before = mismatches, ok = 1;

    memcpy(copy, text, len);
    copy[len] = '\0';
    sd_load_budget_reset(0);
    lr = sd_doc_load_mem(&doc, name, text, len, SD_FMT_YAML, NULL, &d);
    uint64_t tree_used = sd_load_budget_used();
    one_doc = lr == 0 && doc->nroots == 1;
    sd_load_budget_reset(0);
    r = sd_load_tape_yaml(&t, copy, len, name, NULL);
    *accepted = r == 0;
    if (r == 0 && (lr != 0 || doc->nroots != 1)) {
        ok = 0;   /* the tape took what the loader refuses, or a stream it must leave */
        if (mismatches++ < 5)
            fprintf(stderr, "  the tape took what the loader does not (%s)\n", name);
    } else if (r == 0) {
        ok = same(sd_doc_root(doc), &t, 0) == t.n && mismatches == before &&
             sd_load_budget_used() == tree_used;
    } else if (r != SD_ESYNTAX) {
        ok = 0;
    }
    if (r == 0)
        sd_tape_free(&t);
    sd_doc_free(doc);
    sd_diags_release(&d);
    free(copy);
    sd_load_budget_reset(0);
    return ok;
}

static void test_yaml(void)
{
    static const char *const good[] = {
        "a: 1\nb: [x, 'y', \"z\", 2.5, true, ~, null, '', \"\"]\nc: {d: e}\n",
        "a: &x {b: [1, 2.5, true, null, \"s\"]}\nc: *x\nd: *x\n",
        "base: &b {x: 1, y: 2}\nm:\n  <<: *b\n  y: 3\n",
        "a: &a {p: 1, q: 2}\nb: &b {q: 3, r: 4}\nm:\n  r: 0\n  <<: [*a, *b]\n  s: 5\n",
        "a: &a {p: 1}\nm: {<<: *a, q: 2}\nn: {\"<<\": 1}\no: {'<<': *a}\n",
        "l: &l [1, [2, 3], {k: v}]\nm: [*l, *l]\ns: &s str\nt: *s\n",
        "1: one\ntrue: yes\n~: nothing\n2.5: float\n\"q\": quoted\n",
        "big: 123456789012345678901234567890\nneg: -9223372036854775809\nhex: 0x1F\noct: 0o17\n"
        "u: 18446744073709551615\nf: .inf\nn: .NaN\ne: 1e3\nund: 1_000\nsex: 1:30\n",
        "- [ ]\n- { }\n- ''\n- |\n  block\n  text\n- >\n  folded\n  text\n- plain\n  on two lines\n",
        "k: \"\\u00e9\\u0000x\"\nq: 'it''s'\nd: \"a\\\"b\"\nm: \"two\n  lines\"\n",
        "é: ééé x\nb: [1, \"ü\", 日本]\nc: 😀 d\n\"ключ\": значение # комментарий\n",
        "# only a comment\n---\na: 1\n...\n",
        "a:\nb:\n  c:\n  - \n  -\n", "plain", "42", "'q'", "[1, 2]", "{a: b, c: {d: [e]}}",
        "a:    x   # trailing\nb: \"y\"   # c\nc: 'z'# c\n",
        "a: &s 'anchored string'\nb: *s\nc: &t plain\nd: [*t, *s]\n",
        "x:\n  - &i {a: 1}\n  - *i\ny: {<<: [], z: 1}\n",
        "seq:\n- a\n- b: c\n  d: e\n- - nested\n  - list\n",
        "k: \"a\\tb\"\nflow: {a: 1, b: [x, y], c: 'q'}\nurl: http://x:80/y\ncolon: a:b\n",
    };
    static const char *const refused[] = {
        "", "# comment only\n", "a: 1\n---\nb: 2\n", "a: !!str 1\n", "a: !t x\n", "a: &n 1\nb: *n\n",
        "&k a: 1\n", "a: 1\na: 2\n", "m: {a: 1, a: 2}\n", "a: *nope\n", "a: &x [*x]\n",
        "a:\r\n  b: 1\r\n", "\xEF\xBB\xBF" "a: 1\n", "a: 1\n\tb: 2\n", "a: [1\n", "a: 'x\n",
        "x: {<<: 1}\n", "m: {<<: {a: 1}, '<<': 2}\n", ": empty\n", "x: {<<: [1]}\n", "a: &a {p: 1}\nm: {<<: *a, z: &z [1], y: *z}\n",
        "? [a]\n: 1\n", "a: b: c\n", "a: \xC2\x85 b\n", "- a\n- \xE2\x80\xA8\n", "*x : 1\n",
        "!!map {a: 1}\n", "a: !!seq [1]\n",
        /* libyaml puts the end of a stream without a last line break on a
         * line of its own: the empty document's null is there */
        "---",
    };
    int acc;
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        OK(agree_yaml("good.yaml", good[i], strlen(good[i]), &acc));
        if (!acc)
            fprintf(stderr, "  refused: %s\n", good[i]);
        OK(acc);
    }
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        OK(agree_yaml("refused.yaml", refused[i], strlen(refused[i]), &acc));
        if (acc)
            fprintf(stderr, "  taken: %s\n", refused[i]);
        OK(!acc);
    }
    /* nesting: the loader's depth limit */
    char deep[2100];
    memset(deep, '[', 1001);
    memset(deep + 1001, ']', 1001);
    OK(agree_yaml("deep.yaml", deep, 2002, &acc) && !acc);
    OK(agree_yaml("deep.yaml", deep + 1, 2000, &acc) && acc);
    /* the run's alias budget: a ladder past it is refused, one within taken */
    static const char ladder[] = "a: &a [1,1,1,1,1,1,1,1,1,1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
                                 "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
                                 "e: [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\n";
    OK(agree_yaml("ladder.yaml", ladder, strlen(ladder) - 36, &acc) && acc);
    OK(agree_yaml("ladder.yaml", ladder, strlen(ladder), &acc) && !acc);

    /* every values file of the corpus's charts */
    size_t files = 0, taken = 0, single = 0;
    if (t_corpus("charts")) {
        sd_buf dir = SD_BUF_INIT;
        sd_buf_printf(&dir, "%s/charts", corpus());
        DIR *dp = opendir(dir.ptr);
        OK(dp != NULL);
        for (struct dirent *e; dp && (e = readdir(dp));) {
            static const char *const names[] = { "values.yaml", "ci/ct-values.yaml", "ci/default-values.yaml" };
            for (size_t k = 0; k < 3 && e->d_name[0] != '.'; k++) {
                sd_buf path = SD_BUF_INIT;
                sd_diags dg = SD_DIAGS_INIT;
                char *text;
                size_t len;
                sd_buf_printf(&path, "%s/%s/%s", dir.ptr, e->d_name, names[k]);
                if (sd_file_read(&text, &len, path.ptr, SD_FILE_MAX, 0, &dg) == 0) {
                    OK(agree_yaml(path.ptr, text, len, &acc));
                    files++;
                    taken += (size_t)acc;
                    single += (size_t)one_doc;
                    free(text);
                }
                sd_diags_release(&dg);
                sd_buf_release(&path);
            }
        }
        if (dp)
            closedir(dp);
        sd_buf_release(&dir);
        OK(files >= 13 && taken == single);
    }
    /* random byte changes: the tape never takes what the loader refuses,
     * never holds a different document */
    static const char *const seeds[] = {
        "a: &x {b: [1, 2.5, 'q', \"d\"]}\nm:\n  <<: *x\n  c: *x\n  é: ü # c\n",
        "- k: v\n  n: -3e2\n- [x, {y: z}]\n- |\n  t\n- 0x1F\n",
    };
    static const char alphabet[] = "{}[],:&*<-'\"\\ #|>!0123456789.eE~\xC3\xA9\x80\n\t";
    int bad = 0, took = 0;
    for (int round = 0; round < 20000; round++) {
        const char *sd = seeds[t_rnd(2)];
        size_t len = strlen(sd);
        char buf[256];
        memcpy(buf, sd, len + 1);
        for (unsigned k = 1 + t_rnd(3); k; k--)
            buf[t_rnd((unsigned)len)] = alphabet[t_rnd(sizeof alphabet - 1)];
        if (!agree_yaml("m.yaml", buf, len, &acc))
            bad++;
        took += acc;
    }
    printf("  count: %zu corpus values files (%zu straight into tapes), 20000 mutations (%d taken)\n",
           files, taken, took);
    INT_EQ(bad, 0);
    OK(took > 2000);
}

TEST_MAIN(test_corpus, test_edges, test_mutations, test_from_node, test_yaml)
