/* SPDX-License-Identifier: Apache-2.0 */
/* test_gotmpl.c - the Go template engine: every case of tests/gotmpl/ (each .json)
 * (Go's text/template documentation examples and more, checked against Go
 * itself with tests/gotmpl/oracle.go), then the bounds a hostile template
 * meets: nesting, recursion, loops, output and memory. */
#include "harness.h"
#include "gotmpl.h"

#include <dirent.h>
#include "val.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

static sd_gval conv(sd_gheap *h, sd_val *j)
{
    switch (sd_val_typeof(j)) {
    case SD_VAL_TRUE: return sd_gbool(1);
    case SD_VAL_FALSE: return sd_gbool(0);
    case SD_VAL_INTEGER: return sd_gint(sd_val_integer_value(j));
    case SD_VAL_REAL: return sd_gfloat(sd_val_real_value(j));
    case SD_VAL_STRING: return sd_gstr(h, sd_val_string_value(j), sd_val_string_length(j));
    case SD_VAL_ARRAY: {
        sd_gval l = sd_glist_new(h, 0);
        size_t i;
        sd_val *x;
        sd_val_array_foreach(j, i, x)
            sd_glist_push(h, l, conv(h, x));
        return l;
    }
    case SD_VAL_OBJECT: {
        sd_gval m = sd_gmap_new(h);
        const char *k;
        sd_val *x;
        sd_val_object_foreach(j, k, x)
            sd_gmap_set(h, m, k, strlen(k), conv(h, x));
        return m;
    }
    default: return sd_gnil();
    }
}

/* Run `text` over `data`; returns the output (caller frees) or NULL with the
 * first diagnostic in *err (caller frees). */
static char *run(const char *text, sd_val *data, const sd_gotmpl_limits *lim, size_t heap_cap, char **err)
{
    sd_gotmpl *set = NULL;
    sd_diags d = SD_DIAGS_INIT;
    sd_buf out = SD_BUF_INIT;
    sd_gheap *h = sd_gheap_new(heap_cap);
    char *res = NULL;
    int r;

    *err = NULL;
    sd_gotmpl_new(&set, "t");
    r = sd_gotmpl_parse(set, "t", text, strlen(text), &d);
    if (r == 0)
        r = sd_gotmpl_execute(&out, set, NULL, data ? conv(h, data) : sd_gnil(), h, lim, &d);
    if (r == 0)
        res = strdup(out.ptr);
    else if (d.count)
        *err = sd_diag_format(&d.items[0]);
    else
        *err = strdup("(no diagnostic)");
    sd_buf_release(&out);
    sd_diags_release(&d);
    sd_gheap_free(h);
    sd_gotmpl_free(set);
    return res;
}

static int ncases;

static void run_file(const char *path)
{
    sd_val_error je;
    sd_val *cases = sd_val_load_file(path, 0, &je), *c;
    size_t i;
    if (!cases) {
        fprintf(stderr, "%s:%d: %s\n", path, je.line, je.text);
        OK(0);
        return;
    }
    sd_val_array_foreach(cases, i, c) {
        const char *name = sd_val_string_value(sd_val_object_get(c, "name"));
        const char *tmpl = sd_val_string_value(sd_val_object_get(c, "template"));
        const char *want = sd_val_string_value(sd_val_object_get(c, "expected"));
        const char *werr = sd_val_string_value(sd_val_object_get(c, "error"));
        char *err, *got;
        ncases++;
        t_name = name;
        got = run(tmpl, sd_val_object_get(c, "data"), NULL, 0, &err);
        if (werr) {
            if (got || !err || !strstr(err, werr)) {
                t_failed++;
                fprintf(stderr, "%s: %s: expected an error with \"%s\", got %s%s\n", path, name, werr,
                        got ? "output: " : "error: ", got ? got : err ? err : "?");
            } else {
                t_passed++;
            }
        } else if (!got || !want || strcmp(got, want) != 0) {
            t_failed++;
            fprintf(stderr, "%s: %s: got %s\"%s\", expected \"%s\"\n", path, name,
                    got ? "" : "error ", got ? got : err ? err : "?", want ? want : "(none)");
        } else {
            t_passed++;
        }
        free(got);
        free(err);
    }
    sd_val_decref(cases);
}

static void test_case_files(void)
{
    DIR *d = opendir("tests/gotmpl");
    struct dirent *e;
    char *names[64];
    int n = 0;
    OK(d != NULL);
    if (!d)
        return;
    while ((e = readdir(d)) && n < 64) {
        size_t l = strlen(e->d_name);
        if (l > 5 && !strcmp(e->d_name + l - 5, ".json"))
            names[n++] = strdup(e->d_name);
    }
    closedir(d);
    for (int i = 0; i < n; i++) {
        char path[512];
        snprintf(path, sizeof path, "tests/gotmpl/%s", names[i]);
        run_file(path);
        free(names[i]);
    }
    /* the files must hold cases: an empty directory passes nothing */
    OK(n >= 6);
    OK(ncases >= 150);
    printf("count: gotmpl spec cases %d in %d files\n", ncases, n);
}

static void expect_error(const char *text, const sd_gotmpl_limits *lim, size_t heap, const char *want)
{
    char *err, *got = run(text, NULL, lim, heap, &err);
    OK(got == NULL);
    OK(err && strstr(err, want));
    if (!err || !strstr(err, want))
        fprintf(stderr, "  wanted \"%s\", got %s\n", want, err ? err : got ? got : "?");
    free(got);
    free(err);
}

static void test_limits(void)
{
    sd_gotmpl_limits small = { 1000, 20, 10000 };
    /* unbounded recursion stops at the depth bound */
    expect_error("{{define \"r\"}}{{template \"r\" .}}{{end}}{{template \"r\"}}", NULL, 0,
                 "exceeded maximum template depth (200)");
    expect_error("{{define \"r\"}}{{template \"r\" .}}{{end}}{{template \"r\"}}", &small, 0,
                 "exceeded maximum template depth (20)");
    /* include recursion is bounded the same way */
    expect_error("{{define \"r\"}}{{include \"r\" .}}{{end}}{{include \"r\" .}}", NULL, 0,
                 "exceeded maximum template depth");
    /* a long loop stops at the step bound */
    expect_error("{{range until 100000}}{{range until 100000}}{{end}}{{end}}", &small, 0,
                 "ran for more than 10000 steps");
    /* output past its cap */
    expect_error("{{range until 100}}0123456789abcdef{{end}}", &small, 0, "output is larger than 1000 bytes");
    /* a huge list fails before it is built */
    expect_error("{{until 100000000}}", NULL, 0, "more than the limit of 10000000");
    /* doubling a string twenty times: the heap cap stops it */
    expect_error("{{$s := \"0123456789\"}}{{range until 30}}{{$s = print $s $s}}{{end}}{{len $s}}", NULL,
                 (size_t)4 << 20, "result too large");
    expect_error("{{repeat 100000000 \"0123456789\"}}", NULL, 0, "result too large");
    /* parse nesting */
    char deep[4000];
    size_t k = 0;
    for (int i = 0; i < 300; i++) { memcpy(deep + k, "{{if 1}}", 8); k += 8; }
    deep[k] = '\0';
    expect_error(deep, NULL, 0, "nesting is deeper than 200 levels");
    k = 0;
    memcpy(deep + k, "{{", 2); k += 2;
    for (int i = 0; i < 300; i++) deep[k++] = '(';
    memcpy(deep + k, "1", 1); k++;
    for (int i = 0; i < 300; i++) deep[k++] = ')';
    memcpy(deep + k, "}}", 3); k += 3;
    expect_error(deep, NULL, 0, "nesting is deeper than 200 levels");
    /* 150 nested ifs in a template that calls itself: deep in C frames */
    {
        char *t = malloc(8000);
        size_t k = 0;
        k += (size_t)sprintf(t + k, "{{define \"r\"}}");
        for (int i = 0; i < 150; i++) k += (size_t)sprintf(t + k, "{{if 1}}");
        k += (size_t)sprintf(t + k, "{{template \"r\"}}");
        for (int i = 0; i < 150; i++) k += (size_t)sprintf(t + k, "{{end}}");
        sprintf(t + k, "{{end}}{{template \"r\"}}");
        expect_error(t, NULL, 0, "nesting is deeper than 1000 levels across template calls");
        free(t);
    }
    /* regular expressions with catastrophic backtracking hit the match limit */
    expect_error("{{regexMatch \"^(a+)+$\" \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\"}}", NULL, 0, "too costly");
}

/* CPU seconds since `t0` (clock()). */
static double cpu_since(clock_t t0)
{
    return (double)(clock() - t0) / CLOCKS_PER_SEC;
}

/* Issue 36 items 6-8: a 410-byte alias bomb (10 levels of 10 aliases: 10^10
 * nodes, shared, never copied) through every function that walks or copies
 * a value: each stops at the step bound or the output cap, quickly; the
 * regular expression functions count a step per match (no longer per
 * 1,024) and no longer re-check the subject's UTF-8 per match; toJson sorts
 * 50,000 keys with qsort. */
static void test_walk_bounds(void)
{
    static const char bomb[] =
        "{{ $b := fromYaml \"a: &a [lol,lol,lol,lol,lol,lol,lol,lol,lol,lol]\\n"
        "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\\n"
        "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\\n"
        "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]\\ng: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f,*f]\\n"
        "h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g,*g]\\ni: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h,*h]\\n"
        "j: &j [*i,*i,*i,*i,*i,*i,*i,*i,*i,*i]\\n\" }}";
    static const char *const uses[] = {
        "toJson $b", "toPrettyJson $b", "toRawJson $b", "mustToJson $b", "toYaml $b", "toString $b",
        "quote $b", "squote $b", "cat $b", "print $b", "println $b", "printf \"%v\" $b", "printf \"%d\" $b",
        "html $b", "js $b", "urlquery $b", "join \",\" $b.j", "sortAlpha $b.j", "toStrings $b.j",
        "uniq (list $b.j $b.i $b.j)", "has $b.j (list $b.i $b.j)", "without (list $b.j) $b.j",
        "deepEqual $b.j $b.j", "dict $b.j 1", "$b", NULL };
    sd_gotmpl_limits small = { (size_t)1 << 20, 50, 200000 };
    char text[2048];
    double worst = 0;
    int bounded = 0;
    for (int i = 0; uses[i]; i++) {
        char *err = NULL, *got;
        clock_t t0 = clock();
        snprintf(text, sizeof text, "%s{{ %s }}", bomb, uses[i]);
        got = run(text, NULL, &small, 0, &err);
        double t = cpu_since(t0);
        if (t > worst)
            worst = t;
        if (!got && err && (strstr(err, "ran for more than 200000 steps") || strstr(err, "too large") ||
                            strstr(err, "larger than")))
            bounded++;
        else
            fprintf(stderr, "  alias bomb through '%s': %s\n", uses[i], got ? "no error" : err ? err : "?");
        free(got);
        free(err);
    }
    INT_EQ(bounded, 25);
    OK(worst < 1.0);
    printf("figure: gotmpl alias bomb through %d functions, each stopped; slowest %.3f s CPU\n", bounded, worst);

    /* the same under the default bounds (50 million steps, 64 MiB): toJson
     * stops at the output cap */
    snprintf(text, sizeof text, "%s{{ toJson $b | len }}", bomb);
    expect_error(text, NULL, 0, "result too large");
    /* a mapping key that is the bomb: fromYaml prints keys */
    {
        const char *y = strstr(bomb, "fromYaml \"") + 10;
        size_t yl = (size_t)(strstr(y, "\" }}") - y);
        snprintf(text, sizeof text, "{{ fromYaml \"%.*s? *j\\n: 1\\n\" | len }}", (int)yl, y);
        expect_error(text, &small, 0, "ran for more than 200000 steps");
    }

    /* a step per match: 100,000 matches are 100,000 steps */
    sd_gotmpl_limits steps = { 0, 0, 50000 };
    expect_error("{{ regexFindAll \"x\" (repeat 100000 \"x\") -1 | len }}", &steps, 0,
                 "ran for more than 50000 steps");
    expect_error("{{ regexSplit \"\" (repeat 100000 \"x\") -1 | len }}", &steps, 0,
                 "ran for more than 50000 steps");
    expect_error("{{ regexReplaceAll \"\" (repeat 100000 \"x\") \"y\" | len }}", &steps, 0,
                 "ran for more than 50000 steps");
    /* and linear: 400,000 matches over a 400,000-byte subject (UTF-8 checked once) */
    static const char *const many[] = {
        "{{ regexFindAll \"x\" (repeat 400000 \"x\") -1 | len }}",
        "{{ regexSplit \"\" (repeat 400000 \"\xc3\xa9\") -1 | len }}",
        "{{ regexReplaceAll \"\" (repeat 400000 \"x\") \"y\" | len }}", NULL };
    static const char *const counts[] = { "400000", "400000", "800001" };
    for (int i = 0; many[i]; i++) {
        char *err = NULL, *got;
        clock_t t0 = clock();
        got = run(many[i], NULL, NULL, 0, &err);
        double t = cpu_since(t0);
        STR_EQ(got, counts[i]);
        OK(t < 2.0);
        if (t >= 2.0)
            fprintf(stderr, "  %s: %.2f s CPU\n", many[i], t);
        free(got);
        free(err);
    }

    /* toJson of 50,000 keys inserted in reverse order (the insertion sort
     * took 21 s), through the API: a map built directly */
    {
        sd_gheap *h = sd_gheap_new(0);
        sd_gval m = sd_gmap_new(h);
        char key[16];
        for (int i = 50000; i > 0; i--) {
            snprintf(key, sizeof key, "k%05d", i);
            sd_gmap_set(h, m, key, strlen(key), sd_gint(i));
        }
        sd_gotmpl *set = NULL;
        sd_diags d = SD_DIAGS_INIT;
        sd_buf out = SD_BUF_INIT;
        sd_gotmpl_new(&set, "t");
        sd_gotmpl_parse(set, "t", "{{ toJson . | len }} {{ toYaml . | len }} {{ printf \"%v\" . | len }}",
                        strlen("{{ toJson . | len }} {{ toYaml . | len }} {{ printf \"%v\" . | len }}"), &d);
        clock_t t0 = clock();
        INT_EQ(sd_gotmpl_execute(&out, set, NULL, m, h, NULL, &d), 0);
        double t = cpu_since(t0);
        STR_EQ(out.ptr, "738895 688893 638898");   /* as Python's json.dumps(sort_keys) etc. count */
        OK(t < 2.0);
        printf("figure: gotmpl toJson, toYaml, printf of 50000 keys in reverse order: %.3f s CPU\n", t);
        sd_buf_release(&out);
        sd_diags_release(&d);
        sd_gotmpl_free(set);
        sd_gheap_free(h);
    }
    {   /* issue 41: `repeat` made its result a call per piece (60 MB of
         * "[],": 5-10 s in the sanitizer builds); now it doubles */
        static const char tpl[] = "{{ repeat 20000000 \"[],\" | len }} {{ repeat 7 \"abc\" }} {{ repeat 0 \"x\" }}"
                                  "{{ repeat 5 \"\" }}.";
        sd_gheap *h = sd_gheap_new(0);
        sd_gotmpl *set = NULL;
        sd_diags d = SD_DIAGS_INIT;
        sd_buf out = SD_BUF_INIT;
        sd_gotmpl_new(&set, "t");
        sd_gotmpl_parse(set, "t", tpl, strlen(tpl), &d);
        clock_t t0 = clock();
        INT_EQ(sd_gotmpl_execute(&out, set, NULL, sd_gmap_new(h), h, NULL, &d), 0);
        double t = cpu_since(t0);
        STR_EQ(out.ptr, "60000000 abcabcabcabcabcabcabc .");
        OK(t < 0.2);   /* 0.36 s before, 0.10 s after (CPU, asan build) */
        printf("figure: gotmpl repeat of 60 MB: %.3f s CPU\n", t);
        sd_buf_release(&out);
        sd_diags_release(&d);
        sd_gotmpl_free(set);
        sd_gheap_free(h);
    }
}

/* Issue 36 item 5: .Files.Glob's matcher (gobwas/glob rules), and its work
 * bounded by pattern x name where backtracking took minutes. */
static void test_glob(void)
{
    static const struct { const char *pat, *name; int want; } cases[] = {
        { "*.yaml", "a.yaml", 1 }, { "*.yaml", "d/a.yaml", 0 }, { "**.yaml", "d/e/a.yaml", 1 },
        { "**/*.yaml", "d/e/a.yaml", 1 }, { "files/**", "files/x/y", 1 }, { "?.txt", "a.txt", 1 },
        { "?.txt", "ab.txt", 0 }, { "?", "/", 0 }, { "?", "\xc3\xa9", 1 }, { "?", "\xc3\xa9" "a", 0 },
        { "[ab]c", "bc", 1 }, { "[ab]c", "cc", 0 }, { "[!ab]c", "cc", 1 }, { "[!ab]c", "ac", 0 },
        { "[a-c]x", "bx", 1 }, { "[a-c]x", "dx", 0 }, { "{a,b}.md", "b.md", 1 }, { "{a,b}.md", "c.md", 0 },
        { "{a,{b,c}}.md", "c.md", 1 }, { "{*.md,*.txt}", "x.txt", 1 }, { "{*.md,*.txt}", "d/x.txt", 0 },
        { "x{,y}z", "xz", 1 }, { "x{,y}z", "xyz", 1 }, { "\\*", "*", 1 }, { "\\*", "a", 0 },
        { "a*", "a", 1 }, { "*", "", 1 }, { "", "", 1 }, { "", "a", 0 }, { "**", "", 1 },
        { "[", "[", 0 }, { "{a", "{a", 0 }, { "a\\", "a\\", 0 }, { "[]", "]", 0 }, { "*a*b", "xaxxb", 1 },
        { "*a*a*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab", 1 },
        { "\xff?", "\xff" "a", 1 }, { "?", "\xff", 1 }, { "\xc3\x83", "\xc3", 0 }, { "[\xc3\x83]", "\xc3", 0 },
    };
    int right = 0, n = (int)(sizeof cases / sizeof *cases);
    for (int i = 0; i < n; i++) {
        sd_gotmpl_glob *g = NULL;
        unsigned long long work = 0;
        int m = -1;
        if (sd_gotmpl_glob_compile(&g, cases[i].pat, strlen(cases[i].pat)) == 0)
            m = sd_gotmpl_glob_match(g, cases[i].name, strlen(cases[i].name), &work);
        if (m == cases[i].want)
            right++;
        else
            fprintf(stderr, "  glob '%s' on '%s': %d, expected %d\n", cases[i].pat, cases[i].name, m, cases[i].want);
        sd_gotmpl_glob_free(g);
    }
    INT_EQ(right, n);

    /* the two patterns that backtracked for minutes: work within states x characters */
    char name[256], pat[128];
    memset(name, 'a', 200);
    name[200] = '\0';
    size_t k = 0;
    for (int i = 0; i < 20; i++) { memcpy(pat + k, "**?", 3); k += 3; }
    pat[k++] = 'Q';
    pat[k] = '\0';
    const char *pats[] = { "*a*a*a*a*a*b", pat };
    for (int i = 0; i < 2; i++) {
        sd_gotmpl_glob *g = NULL;
        unsigned long long work = 0;
        clock_t t0 = clock();
        OK(sd_gotmpl_glob_compile(&g, pats[i], strlen(pats[i])) == 0);
        INT_EQ(sd_gotmpl_glob_match(g, name, 200, &work), 0);
        OK(work > 0 && work < 4ULL * 200 * (strlen(pats[i]) + 2) * 2);
        OK(cpu_since(t0) < 0.1);
        sd_gotmpl_glob_free(g);
    }
}

static void test_api(void)
{
    sd_gheap *h = sd_gheap_new(0);
    sd_gval m = sd_gmap_new(h), s = sd_gstruct_new(h, "pkg.T");
    sd_buf b = SD_BUF_INIT;
    char key[16];

    /* maps grow past their hash threshold and keep insertion order */
    for (int i = 0; i < 100; i++) {
        snprintf(key, sizeof key, "k%d", i);
        OK(sd_gmap_set(h, m, key, strlen(key), sd_gint(i)) == 0);
    }
    INT_EQ(sd_gmap_len(m), 100);
    INT_EQ(sd_gmap_get(m, "k57", 3).u.i, 57);
    sd_gmap_set(h, m, "k57", 3, sd_gint(-1));
    INT_EQ(sd_gmap_get(m, "k57", 3).u.i, -1);
    INT_EQ(sd_gmap_len(m), 100);
    sd_gmap_del(m, "k3", 2);
    INT_EQ(sd_gmap_get(m, "k3", 2).kind, SD_G_MISSING);
    INT_EQ(sd_gmap_get(m, "k99", 3).u.i, 99);
    /* a struct's missing field is an error, a map's is no value */
    sd_gmap_set(h, s, "A", 1, sd_gstr_static("a", 1));
    STR_EQ(sd_gval_type_name(s), "pkg.T");
    OK(sd_gval_truth(s));
    sd_gval_print(&b, sd_gfloat(1e21));
    STR_EQ(b.ptr, "1e+21");
    sd_buf_clear(&b);
    sd_gval_print(&b, sd_gfloat(-0.000123));
    STR_EQ(b.ptr, "-0.000123");
    sd_buf_release(&b);
    sd_gheap_free(h);

    char *err = NULL, *got;
    sd_gotmpl *set = NULL;
    sd_diags d = SD_DIAGS_INIT;
    sd_buf out = SD_BUF_INIT;
    h = sd_gheap_new(0);
    s = sd_gstruct_new(h, "pkg.T");
    sd_gmap_set(h, s, "A", 1, sd_gstr_static("a", 1));
    sd_gotmpl_new(&set, "x.gotmpl");
    OK(sd_gotmpl_parse(set, "x.gotmpl", "{{.A}} {{.B}}", strlen("{{.A}} {{.B}}"), &d) == 0);
    OK(sd_gotmpl_execute(&out, set, NULL, s, h, NULL, &d) == SD_EINVALID);
    OK(d.count == 1);
    got = d.count ? sd_diag_format(&d.items[0]) : NULL;
    STR_EQ(got, "x.gotmpl:1:10: error: can't evaluate field B in type pkg.T");
    free(got);
    /* a later parse redefines a template; a blank one does not */
    sd_diags_release(&d);
    sd_buf_clear(&out);
    OK(sd_gotmpl_parse(set, "y", "{{define \"n\"}}one{{end}}", strlen("{{define \"n\"}}one{{end}}"), &d) == 0);
    OK(sd_gotmpl_parse(set, "z", "{{define \"n\"}}two{{end}}{{define \"m\"}} {{end}}", strlen("{{define \"n\"}}two{{end}}{{define \"m\"}} {{end}}"), &d) == 0);
    OK(sd_gotmpl_parse(set, "w", "{{define \"n\"}}  {{end}}", strlen("{{define \"n\"}}  {{end}}"), &d) == 0);
    OK(sd_gotmpl_execute(&out, set, "n", s, h, NULL, &d) == 0);
    STR_EQ(out.ptr, "two");
    OK(sd_gotmpl_has(set, "n"));
    OK(!sd_gotmpl_has(set, "m"));
    OK(sd_gotmpl_execute(&out, set, "none", s, h, NULL, &d) == SD_ENOTFOUND);
    sd_buf_release(&out);
    sd_diags_release(&d);
    sd_gotmpl_free(set);
    sd_gheap_free(h);
    (void)err;
}

TEST_MAIN(test_case_files, test_limits, test_walk_bounds, test_glob, test_api)
