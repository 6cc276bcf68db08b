/* SPDX-License-Identifier: Apache-2.0 */
/* test_ecma_re.c - src/validate/ecma_re.c: what JavaScript's RegExp(src, "u")
 * accepts, what PCRE2 reads differently, and the backtracking risk.
 *
 * Built-in cases here; with SD_ECMA_RE_IN=FILE (a JSON array of patterns)
 * it also writes one verdict line per pattern to
 * SD_ECMA_RE_OUT ({"ok":1,"risk":0,"differs":0}) for tests/js, which checks
 * every verdict against node's own RegExp. */
#include "harness.h"
#include "buf.h"
#include "ecma_re.h"
#include "node.h"

#include <stdlib.h>
#include <string.h>

static sd_ecma_re chk(const char *s)
{
    sd_ecma_re r;
    sd_ecma_re_check(&r, s, strlen(s));
    return r;
}

static void test_syntax(void)
{
    static const char *const ok[] = {
        "", "a", "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", "\\d+\\.\\d+", "(?<name>a)\\k<name>", "(a)\\1",
        "[\\-]", "\\u{1F600}", "\\uD83D\\uDE00", "\\p{Letter}", "\\p{Script=Greek}", "\\p{scx=Latn}",
        "\\P{gc=Lu}", "(?<=a+)b", "(?<!a)b", "(?=a)b", "[]", "[^]", "a{2,3}?", "\\cJ", "\\0", "\\x41",
        "[\\b]", "[a-z\\d]", "[\\d-]", "\\/", "a|b|", "(?:)", "\\p{ASCII_Hex_Digit}",
        "\\k<a>(?<a>x)", "x{0}", NULL
    };
    static const char *const bad[] = {
        "(", ")", "[", "a**", "a{2,1}", "{", "}", "]", "a{", "\\a", "\\-", "\\e", "\\z", "(?i)a",
        "(?P<n>a)", "a++", "(?>a)", "\\1", "(a)\\2", "\\k<x>", "(?<a>x)(?<a>y)", "[z-a]", "[\\d-z]",
        "\\p{Foo}", "\\p{Script=Foo}", "\\p{letter}", "\\012", "\\c1", "\\x4", "\\u12", "\\u{110000}",
        "[[:alpha:]]", "[\\p{L}--]", "^*", "(?=a)*", "(?<=a){2}", "\\b+", "\\Q.\\E", "x{,5}", "\\", "(?<1a>x)", NULL
    };
    for (int i = 0; ok[i]; i++) {
        sd_ecma_re r = chk(ok[i]);
        if (!r.ok)
            fprintf(stderr, "refused '%s': %s at %zu\n", ok[i], r.error, r.offset);
        OK(r.ok);
    }
    for (int i = 0; bad[i]; i++) {
        sd_ecma_re r = chk(bad[i]);
        if (r.ok)
            fprintf(stderr, "accepted '%s'\n", bad[i]);
        OK(!r.ok && r.error);
    }
}

static void test_differs(void)
{
    INT_EQ(chk("[\\S]").differs, SD_RE_DIFF_CLASS_S);
    INT_EQ(chk("\\S").differs, 0);
    INT_EQ(chk("\\u{41}").differs, SD_RE_DIFF_U_BRACE);
    INT_EQ(chk("(a)\\1").differs, 0);
    INT_EQ(chk("(a)?\\1").differs, SD_RE_DIFF_BACKREF);
    INT_EQ(chk("(a)|\\1b").differs, SD_RE_DIFF_BACKREF);
    INT_EQ(chk("\\1(a)").differs, SD_RE_DIFF_BACKREF);
    INT_EQ(chk("((a)|b)\\1").differs, 0);
}

static void test_risk(void)
{
    static const struct { const char *re; int risk; } cases[] = {
        { "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", SD_RE_LINEAR },
        { "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$", SD_RE_LINEAR },
        { "^sha256:[a-f0-9]{64}$", SD_RE_LINEAR },
        { "^(a+)+$", SD_RE_EXP },
        { "^(a|a)*$", SD_RE_EXP },
        { "^(a|ab)*c$", SD_RE_LINEAR },
        { "^(\\w+\\s?)*$", SD_RE_EXP },
        { "^([a-zA-Z0-9])(([\\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$", SD_RE_EXP },
        { "^a*a*$", SD_RE_POLY },
        { "\\s*$", SD_RE_POLY },
        { "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$", SD_RE_POLY },
        { "abc", SD_RE_LINEAR },
        { "^(?=(a+)+b)", SD_RE_EXP },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        sd_ecma_re r = chk(cases[i].re);
        if (r.risk != cases[i].risk)
            fprintf(stderr, "risk of '%s': %d, expected %d\n", cases[i].re, r.risk, cases[i].risk);
        INT_EQ(r.risk, cases[i].risk);
    }
}

/* SD_ECMA_RE_IN / SD_ECMA_RE_OUT: verdicts for the JavaScript comparison. */
static void test_file(void)
{
    const char *in = getenv("SD_ECMA_RE_IN"), *outp = getenv("SD_ECMA_RE_OUT");
    sd_doc *d = NULL;
    sd_diags diags = SD_DIAGS_INIT;
    FILE *out;
    size_t patterns = 0, lines = 0;
    int wrote;
    if (!in || !*in || !outp || !*outp)
        return;
    if (sd_doc_load_file(&d, in, SD_FMT_JSON, NULL, &diags) < 0 || !(out = fopen(outp, "w"))) {
        sd_diags_print(&diags, stderr, 0);
        OK(0);
        return;
    }
    for (size_t k = 0; k < d->nroots; k++) {
        const sd_node *list = d->roots[k].node;
        for (size_t i = 0; list && list->kind == SD_SEQ && i < list->n; i++) {
            const sd_node *s = list->items[i].value;
            sd_ecma_re r;
            sd_ecma_re_check(&r, s->str ? s->str : "", s->str ? s->len : 0);
            patterns++;
            lines += fprintf(out, "{\"ok\":%d,\"risk\":%d,\"differs\":%u}\n", r.ok, r.risk, r.differs) > 0;
        }
    }
    wrote = fclose(out) == 0;
    /* a verdict written for every pattern of a list that is not empty
     * (tests/js reads them back line by line) */
    if (!wrote || !patterns || lines != patterns)
        fprintf(stderr, "%s: %zu patterns, %zu verdicts written%s\n", outp, patterns, lines,
                wrote ? "" : ", and the file could not be closed");
    OK(wrote && patterns > 0 && lines == patterns);
    sd_doc_free(d);
    sd_diags_release(&diags);
}

TEST_MAIN(test_syntax, test_differs, test_risk, test_file)
