/* SPDX-License-Identifier: Apache-2.0 */
/* test_ecma_dfa.c - src/validate/ecma_dfa.c: the automaton agrees with
 * PCRE2 (sd_regex_compile, what the validator matched with before) on every
 * ASCII string tried, refuses what it cannot do, and hands subjects with a
 * byte over 0x7F back.
 *
 * Each pattern is tried on random strings over its own characters and on
 * mutations of strings known to match; every pattern must see both verdicts
 * among the strings tried, so that agreement is not agreement on nothing. */
#include "harness.h"
#include "ecma_re.h"
#include "validate.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>


static int pcre_test(pcre2_code *re, pcre2_match_data *md, const char *s, size_t n)
{
    return pcre2_match(re, (PCRE2_SPTR)s, n, 0, 0, md, NULL) >= 0;
}

/* patterns the automaton takes, each with strings that match (some of them
 * from the corpus's charts, CRDs and the validator's benchmark schema) */
static const struct { const char *re; const char *yes[4]; } takes[] = {
    { "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", { "a", "my-app-1" } },
    { "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$", { "a.b-c.d0" } },
    { "^(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$", { "*.ex.com" } },
    { "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$",
      { "k8s.io/app_name", "x" } },
    { "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$", { "100Mi", "-1.5e3", "2" } },
    { "^/", { "/", "/x" } },
    { "^[-._a-zA-Z][-._a-zA-Z0-9]*$", { "_a.b-9" } },
    { "^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$", { "a", "v1.2-rc_3" } },
    { "^[a-z0-9]+([._-][a-z0-9]+)*(/[a-z0-9]+([._-][a-z0-9]+)*)*$", { "library/nginx", "a.b/c-d" } },
    { "^sha256:[a-f0-9]{64}$", { "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" } },
    { "^(http|https|socks5)://.+$", { "http://x", "socks5://a:1" } },
    { "^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$", { "", "a.b" } },
    { "^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$",
      { "0", "1h30m", "5ms", "2w1d" } },
    { "^([0-9]{1,5}(h|m|s|ms)){1,4}$", { "1h", "10m5s", "1h2m3s4ms" } },
    { "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$",
      { "1Gi", "+.5", "3e-2", "250m" } },
    { "^[\\w\\s:/.\\\\-]+$", { "C:\\x y/z", "a_b" } },
    { "^[A-Za-z0-9!#$%&'*+\\-.^_\\x60|~]+$", { "x-token", "a`b" } },
    { "[0-9]+(ms|s|m|h|d|w|y)", { "10s", "x 5ms y" } },
    { "(https|oci)://.+", { "oci://r", "see https://x" } },
    { "^[a-m]", { "a", "mz" } },
    { "a+", { "a", "baa" } },
    { "^a*$", { "", "aaa" } },
    { "", { "" } },
    { "^$", { "" } },
    { "$", { "" } },
    { "x$", { "ax" } },
    { "a.c", { "abc", "xa-c" } },
    { "^\\d{2,4}-\\D\\W\\S$", { "12-a!b", "1234-x.y" } },
    { "^(?:ab|a)(?<n>c)?d+?$", { "ad", "abcd", "acdd" } },
    { "^[^a-c]*$", { "", "xyz", "\n" } },
    { "^x{0}y$", { "y" } },
    { "^[^]$", { "a", "\n" } },
    { "^\\n\\t\\x41\\u0042\\cJ[\\b]$", { "\n\tAB\n\b" } },
    { "^(a|b)*c(a|b){3}$", { "cabb", "abcaaa" } },
    { "^caf[é]?$", { "caf" } },
    { "^\\/\\.\\*\\?\\+\\(\\)\\[\\]\\{\\}\\|\\^\\$$", { "/.*?+()[]{}|^$" } },
};

/* patterns it refuses: PCRE2 matches them */
static const char *const refuses[] = {
    "(a)\\1", "(?<n>a)\\k<n>", "(?=a)a", "(?!a)b", "(?<=a)b", "(?<!a)b", "\\bx", "a\\B",
    "a^b", "a$b", "^a|b$", "^.{2,}|[^./]$", "(^0|x)$", "^\\p{Letter}+$", "^[\\p{L}a]$",
    "^a{300}$", "^(a|b)*a(a|b){12}$", "^((a{1,9}){1,9}){1,9}$", "[\\S]", "\\u{41}",
    "^((25[0-5]|(2[0-4]|1\\d|[1-9]|)\\d)\\.?\\b){4}$", "[]*", "^(?:[]|a)$",
};

static void mutate(char *s, size_t *n, const char *alpha, size_t na)
{
    int k = 1 + (int)t_rnd(3);
    while (k--) {
        unsigned op = t_rnd(3), at = *n ? t_rnd((unsigned)*n + 1) : 0;
        if (op == 0 && *n < 90) {               /* insert */
            memmove(s + at + 1, s + at, *n - at);
            s[at] = alpha[t_rnd((unsigned)na)];
            (*n)++;
        } else if (op == 1 && *n && at < *n) {  /* delete */
            memmove(s + at, s + at + 1, *n - at - 1);
            (*n)--;
        } else if (*n && at < *n)               /* replace */
            s[at] = alpha[t_rnd((unsigned)na)];
    }
}

static void test_agrees(void)
{
    pcre2_match_data *md = pcre2_match_data_create(1, NULL);
    long compared = 0;
    for (size_t p = 0; p < sizeof takes / sizeof *takes; p++) {
        const char *src = takes[p].re;
        int ec;
        size_t off;
        pcre2_code *re = sd_regex_compile(src, strlen(src), &ec, &off);
        sd_ecma_dfa *d = sd_ecma_dfa_compile(src, strlen(src));
        char alpha[160];
        size_t na = 0;
        long yes = 0, no = 0, bad = 0;
        if (!re || !d) {
            fprintf(stderr, "pattern '%s': %s\n", src, re ? "no automaton" : "PCRE2 refuses it");
            OK(0);
            pcre2_code_free(re);
            sd_ecma_dfa_free(d);
            continue;
        }
        /* the pattern's own characters, and some it does not name */
        for (const char *c = src; *c && na < 120; c++)
            if ((unsigned char)*c < 0x80 && !memchr(alpha, *c, na))
                alpha[na++] = *c;
        for (const char *c = "aZ09-._/ :\n\r\t\x01~"; *c; c++)
            if (!memchr(alpha, *c, na))
                alpha[na++] = *c;
        for (int i = 0; i < 6000; i++) {
            char s[128];
            size_t n = 0;
            size_t ny = 0;
            while (ny < 4 && takes[p].yes[ny])
                ny++;
            if (i % 2 && ny) {
                const char *y = takes[p].yes[t_rnd((unsigned)ny)];
                n = strlen(y);
                memcpy(s, y, n);
                if (i % 4 == 3)
                    mutate(s, &n, alpha, na);
            } else {
                n = t_rnd(14);
                for (size_t k = 0; k < n; k++)
                    s[k] = alpha[t_rnd((unsigned)na)];
            }
            int want = pcre_test(re, md, s, n), got = sd_ecma_dfa_match(d, s, n);
            if (got != want) {
                if (bad++ < 3)
                    fprintf(stderr, "pattern '%s' on \"%.*s\": automaton %d, PCRE2 %d\n", src, (int)n, s, got, want);
            }
            yes += want;
            no += !want;
            compared++;
        }
        OK(bad == 0);
        /* "" and "$" match every string; each other pattern must see both */
        if (!yes || (!no && strcmp(src, "") && strcmp(src, "$")))
            fprintf(stderr, "pattern '%s': %ld matches, %ld misses among the strings tried\n", src, yes, no);
        OK(yes > 0 && (no > 0 || !strcmp(src, "") || !strcmp(src, "$")));
        /* a byte over 0x7F goes back to PCRE2, unless the answer came first */
        INT_EQ(sd_ecma_dfa_match(d, "\xC3\xA9", 2) == -1 || pcre_test(re, md, "\xC3\xA9", 2) == sd_ecma_dfa_match(d, "\xC3\xA9", 2), 1);
        pcre2_code_free(re);
        sd_ecma_dfa_free(d);
    }
    OK(compared >= 6000L * (long)(sizeof takes / sizeof *takes));
    pcre2_match_data_free(md);
}

static void test_refuses(void)
{
    for (size_t i = 0; i < sizeof refuses / sizeof *refuses; i++) {
        sd_ecma_dfa *d = sd_ecma_dfa_compile(refuses[i], strlen(refuses[i]));
        if (d)
            fprintf(stderr, "automaton made for '%s'\n", refuses[i]);
        OK(d == NULL);
        sd_ecma_dfa_free(d);
    }
    /* bad syntax: no automaton either */
    OK(sd_ecma_dfa_compile("(", 1) == NULL);
    OK(sd_ecma_dfa_compile("a{2,1}", 6) == NULL);
}

static void test_non_ascii(void)
{
    sd_ecma_dfa *d = sd_ecma_dfa_compile("^[^x]+$", 7), *e = sd_ecma_dfa_compile("^a", 2);
    OK(d && e);
    if (!d || !e)
        return;
    INT_EQ(sd_ecma_dfa_match(d, "ab\xC3\xA9", 4), -1);    /* é: PCRE2 decides */
    INT_EQ(sd_ecma_dfa_match(d, "x\xC3\xA9", 3), 0);      /* settled before it */
    INT_EQ(sd_ecma_dfa_match(e, "a\xC3\xA9", 3), 1);
    INT_EQ(sd_ecma_dfa_match(e, "\xC3\xA9", 2), -1);
    sd_ecma_dfa_free(d);
    sd_ecma_dfa_free(e);
}

/* the risk decides where the validator may use the automaton: as the
 * browser's RegExp, everywhere for linear patterns, up to 512 characters
 * for polynomial ones, never for exponential ones */
static void test_risk(void)
{
    static const struct { const char *re; int risk; } cases[] = {
        { "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", SD_RE_LINEAR }, { "^(a+)+$", SD_RE_EXP },
        { "^a*a*$", SD_RE_POLY }, { "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$", SD_RE_POLY },
        { "abc", SD_RE_LINEAR }, { "(a|a)*", SD_RE_EXP },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        sd_ecma_dfa *d = sd_ecma_dfa_compile(cases[i].re, strlen(cases[i].re));
        sd_ecma_re r;
        sd_ecma_re_check(&r, cases[i].re, strlen(cases[i].re));
        OK(d != NULL);
        if (!d)
            continue;
        INT_EQ(sd_ecma_dfa_risk(d), cases[i].risk);
        INT_EQ(sd_ecma_dfa_risk(d), r.risk);
        sd_ecma_dfa_free(d);
    }
}

TEST_MAIN(test_agrees, test_refuses, test_non_ascii, test_risk)
