/* SPDX-License-Identifier: Apache-2.0 */
/* harness.h - the in-tree unit test harness (after cmark's api_test).
 *
 *   static void test_x(void) { INT_EQ(1 + 1, 2); STR_EQ(s, "a"); OK(p != NULL); }
 *   TEST_MAIN(test_x, test_y)
 *
 * Each test program prints failures as file:line and ends with the line
 * "N passed, N failed" (per check); it exits 1 if anything failed.
 *
 * A property is counted once: the checks of one case (a random tree built
 * in two libraries and compared node by node, a row of a table run through
 * every entry point) go between t_case_begin() and t_case_end(), which
 * count them as one check, failed when any of them failed (each failure is
 * still printed where it happened).
 *
 * A test that needs the corpus asks t_corpus("SUBDIR"): NULL, after a line
 * "SKIPPED: ..." (tests/run.sh fails the program under CI=true), when
 * $CORPUS/SUBDIR is not there; the corpus present but short still fails
 * the test's own coverage checks. */
#ifndef SD_TEST_HARNESS_H
#define SD_TEST_HARNESS_H

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int t_passed, t_failed;
static const char *t_name;

#define OK(cond) do { if (cond) t_passed++; else { t_failed++; \
    fprintf(stderr, "%s:%d: %s: check failed: %s\n", __FILE__, __LINE__, t_name, #cond); } } while (0)
#define INT_EQ(a, b) do { long long a_ = (long long)(a), b_ = (long long)(b); \
    if (a_ == b_) t_passed++; else { t_failed++; \
    fprintf(stderr, "%s:%d: %s: %s == %lld, expected %lld\n", __FILE__, __LINE__, t_name, #a, a_, b_); } } while (0)
#define STR_EQ(a, b) do { const char *a_ = (a), *b_ = (b); \
    if (a_ && b_ && strcmp(a_, b_) == 0) t_passed++; else { t_failed++; \
    fprintf(stderr, "%s:%d: %s: %s == \"%s\", expected \"%s\"\n", __FILE__, __LINE__, t_name, #a, \
            a_ ? a_ : "(null)", b_ ? b_ : "(null)"); } } while (0)

/* One case: the checks made between begin and end count as one. */
typedef struct { int passed, failed; } t_case_mark;
static inline t_case_mark t_case_begin(void)
{
    t_case_mark m = { t_passed, t_failed };
    return m;
}
static inline void t_case_end(t_case_mark m)
{
    if (t_failed > m.failed)
        t_failed = m.failed + 1, t_passed = m.passed;
    else
        t_passed = m.passed + 1;
}

/* $CORPUS/SUB (CORPUS defaults to ../shared/corpus) in a static buffer, or
 * NULL after "SKIPPED: no SUB under CORPUS" when that directory is absent. */
static inline const char *t_corpus(const char *sub)
{
    static char path[2048];
    const char *c = getenv("CORPUS");
    struct stat st;
    snprintf(path, sizeof path, "%.1000s/%.1000s", c && *c ? c : "../shared/corpus", sub);
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return path;
    printf("SKIPPED: no %s (set CORPUS to the corpus beside the repository)\n", path);
    return NULL;
}

/* A seeded generator (xorshift64*), the same sequence on every run:
 * t_rnd(n) is in [0, n), 0 when n is 0. */
static inline uint64_t t_rnd64(void)
{
    static uint64_t x = 0x9E3779B97F4A7C15ull;
    x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
    return x * 2685821657736338717ull;
}
static inline unsigned t_rnd(unsigned n) { return n ? (unsigned)(t_rnd64() >> 11) % n : 0; }

/* Entries of `dir` whose name starts with `prefix`, or (prefix NULL) that
 * are not hidden; -1 when it cannot be read. */
static inline int t_count_files(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    if (!d)
        return -1;
    while ((e = readdir(d)))
        n += prefix ? !strncmp(e->d_name, prefix, strlen(prefix)) : e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* Write `text` to DIR/NAME (NAME NULL: `dir` is the whole path); 0, or -1
 * when the file cannot be written. */
static inline int t_write_file(const char *dir, const char *name, const char *text)
{
    char path[1024];
    FILE *f;
    int bad;
    if (name && (strlen(dir) > 500 || strlen(name) > 500))
        return -1;   /* longer than any test's paths */
    if (name)
        snprintf(path, sizeof path, "%.500s/%.500s", dir, name);
    if (!(f = fopen(name ? path : dir, "w")))
        return -1;
    bad = fputs(text, f) < 0;
    return fclose(f) != 0 || bad ? -1 : 0;
}

typedef void (*t_fn)(void);
typedef struct { const char *name; t_fn fn; } t_case;

#define T_(f) { #f, f },
#define TEST_MAIN(...) \
    int main(void) { \
        static const t_case cases_[] = { T_EACH(__VA_ARGS__) }; \
        for (size_t i_ = 0; i_ < sizeof cases_ / sizeof *cases_; i_++) { \
            t_name = cases_[i_].name; cases_[i_].fn(); } \
        printf("%d passed, %d failed\n", t_passed, t_failed); \
        return t_failed ? 1 : 0; }

/* expand T_ over up to 40 arguments */
#define T_EACH(...) T_N(__VA_ARGS__, T40,T39,T38,T37,T36,T35,T34,T33,T32,T31,T30,T29,T28,T27,T26,T25,T24,T23,T22,T21,T20,T19,T18,T17,T16,T15,T14,T13,T12,T11,T10,T9,T8,T7,T6,T5,T4,T3,T2,T1)(__VA_ARGS__)
#define T_N(_1,_2,_3,_4,_5,_6,_7,_8,_9,_10,_11,_12,_13,_14,_15,_16,_17,_18,_19,_20,_21,_22,_23,_24,_25,_26,_27,_28,_29,_30,_31,_32,_33,_34,_35,_36,_37,_38,_39,_40,N,...) N
#define T1(a) T_(a)
#define T2(a,...) T_(a) T1(__VA_ARGS__)
#define T3(a,...) T_(a) T2(__VA_ARGS__)
#define T4(a,...) T_(a) T3(__VA_ARGS__)
#define T5(a,...) T_(a) T4(__VA_ARGS__)
#define T6(a,...) T_(a) T5(__VA_ARGS__)
#define T7(a,...) T_(a) T6(__VA_ARGS__)
#define T8(a,...) T_(a) T7(__VA_ARGS__)
#define T9(a,...) T_(a) T8(__VA_ARGS__)
#define T10(a,...) T_(a) T9(__VA_ARGS__)
#define T11(a,...) T_(a) T10(__VA_ARGS__)
#define T12(a,...) T_(a) T11(__VA_ARGS__)
#define T13(a,...) T_(a) T12(__VA_ARGS__)
#define T14(a,...) T_(a) T13(__VA_ARGS__)
#define T15(a,...) T_(a) T14(__VA_ARGS__)
#define T16(a,...) T_(a) T15(__VA_ARGS__)
#define T17(a,...) T_(a) T16(__VA_ARGS__)
#define T18(a,...) T_(a) T17(__VA_ARGS__)
#define T19(a,...) T_(a) T18(__VA_ARGS__)
#define T20(a,...) T_(a) T19(__VA_ARGS__)
#define T21(a,...) T_(a) T20(__VA_ARGS__)
#define T22(a,...) T_(a) T21(__VA_ARGS__)
#define T23(a,...) T_(a) T22(__VA_ARGS__)
#define T24(a,...) T_(a) T23(__VA_ARGS__)
#define T25(a,...) T_(a) T24(__VA_ARGS__)
#define T26(a,...) T_(a) T25(__VA_ARGS__)
#define T27(a,...) T_(a) T26(__VA_ARGS__)
#define T28(a,...) T_(a) T27(__VA_ARGS__)
#define T29(a,...) T_(a) T28(__VA_ARGS__)
#define T30(a,...) T_(a) T29(__VA_ARGS__)
#define T31(a,...) T_(a) T30(__VA_ARGS__)
#define T32(a,...) T_(a) T31(__VA_ARGS__)
#define T33(a,...) T_(a) T32(__VA_ARGS__)
#define T34(a,...) T_(a) T33(__VA_ARGS__)
#define T35(a,...) T_(a) T34(__VA_ARGS__)
#define T36(a,...) T_(a) T35(__VA_ARGS__)
#define T37(a,...) T_(a) T36(__VA_ARGS__)
#define T38(a,...) T_(a) T37(__VA_ARGS__)
#define T39(a,...) T_(a) T38(__VA_ARGS__)
#define T40(a,...) T_(a) T39(__VA_ARGS__)

#endif
