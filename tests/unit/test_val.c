/* SPDX-License-Identifier: Apache-2.0 */
/* test_val.c - sd_val (util/val.h) against jansson 2.14, differentially.
 *
 * A seeded generator builds the same random trees in both libraries in
 * lockstep (every setter and appender, literal, static and copied keys,
 * keys and strings of any valid UTF-8 including NUL, objects on both sides
 * of the hash index's threshold, shared subtrees); each tree is then
 * walked, dumped under several flag sets, mutated, copied and compared,
 * and every answer must be jansson's, byte for byte. A case counts as one
 * check (harness.h t_case_begin): a random tree built, copied, mutated and
 * compared, one comparison of two trees, a row of a table. Every node and
 * text compared is counted apart (n_cmp), and the last check asks that
 * enough of them happened. */
#include "harness.h"
#include "val.h"
#include "alloc.h"
#include "val_pool.h"

#include <float.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#define ITERATIONS 2000
#define MIN_COMPARISONS 150000L

/* ---- a deterministic generator (harness.h) -------------------------------- */
#define PICK(arr) (arr)[t_rnd(sizeof (arr) / sizeof *(arr))]

/* ---- comparing -------------------------------------------------------------- */
static long n_cmp, n_shown;   /* comparisons made; failures printed (the first 10) */

static int texts_equal(const char *a, const char *b) { return (!a && !b) || (a && b && strcmp(a, b) == 0); }

/* A failure prints where the texts part, with 40 bytes before it. */
static void same_text(const char *got, const char *want, const char *what, size_t flags, int line)
{
    size_t i = 0, from;
    n_cmp++;
    if (texts_equal(got, want) ? ++t_passed : (++t_failed, n_shown++ >= 10))
        return;
    while (got && want && got[i] == want[i])
        i++;
    from = i > 40 ? i - 40 : 0;
    fprintf(stderr, "%s:%d: %s: %s (flags 0x%zx) differs at byte %zu:\n  sd_val:  ...%.100s\n  jansson: ...%.100s\n",
            __FILE__, line, t_name, what, flags, i, got ? got + from : "(NULL)", want ? want + from : "(NULL)");
}

static const struct { size_t s, j; } FLAGS[] = {
    { SD_VAL_INDENT(2) | SD_VAL_PRESERVE_ORDER, JSON_INDENT(2) | JSON_PRESERVE_ORDER },
    { SD_VAL_COMPACT, JSON_COMPACT },
    { 0, 0 },
    { SD_VAL_COMPACT | SD_VAL_ENCODE_ANY | SD_VAL_SORT_KEYS, JSON_COMPACT | JSON_ENCODE_ANY | JSON_SORT_KEYS },
    { SD_VAL_INDENT(2) | SD_VAL_COMPACT, JSON_INDENT(2) | JSON_COMPACT },
    { SD_VAL_INDENT(3) | SD_VAL_SORT_KEYS | SD_VAL_ENCODE_ANY, JSON_INDENT(3) | JSON_SORT_KEYS | JSON_ENCODE_ANY },
};

#define NFLAGS (sizeof FLAGS / sizeof *FLAGS)

/* Dump under flag sets from..to-1 (a scalar without ENCODE_ANY: NULL from both). */
static void cmp_dumps(const sd_val *s, const json_t *j, size_t from, size_t to, int line)
{
    for (size_t i = from; i < to; i++) {
        char *a = sd_val_dumps(s, FLAGS[i].s), *b = json_dumps(j, FLAGS[i].j);
        same_text(a, b, "dumps", FLAGS[i].s, line);
        free(a), free(b);
    }
}

/* One value each (NULL allowed: both must be NULL). */
static void one_dump(const sd_val *s, const json_t *j, const char *what, int line)
{
    char *a = s ? sd_val_dumps(s, SD_VAL_ENCODE_ANY) : NULL, *b = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
    same_text(a, b, what, SD_VAL_ENCODE_ANY, line);
    free(a), free(b);
}

static void tree_fail(const char *what, int line)
{
    if (t_failed++, n_shown++ < 10)
        fprintf(stderr, "%s:%d: %s: trees differ: %s\n", __FILE__, line, t_name, what);
}
#define TFAIL(what) do { tree_fail((what), line); return; } while (0)

/* Walk both trees: types, sizes, member order, get/getn of every key,
 * string bytes and lengths, numbers. One comparison per node. */
static void cmp_tree(const sd_val *s, const json_t *j, int line)
{
    n_cmp++;
    if (!s || !j || (int)sd_val_typeof(s) != (int)json_typeof(j))
        TFAIL("type");
    if (json_is_object(j)) {
        void *it = json_object_iter((json_t *)j);
        const char *k;
        sd_val *v;
        if (sd_val_object_size(s) != json_object_size(j))
            TFAIL("object_size");
        sd_val_object_foreach(s, k, v) {
            if (strcmp(k, json_object_iter_key(it)) != 0)
                TFAIL("member order");
            if (sd_val_object_getn(s, json_object_iter_key(it), json_object_iter_key_len(it)) != v)
                TFAIL("getn of a member");
            if (!sd_val_object_get(s, k) != !json_object_get(j, k))
                TFAIL("get of a member's key");
            cmp_tree(v, json_object_iter_value(it), line);
            it = json_object_iter_next((json_t *)j, it);
        }
    } else if (json_is_array(j)) {
        if (sd_val_array_size(s) != json_array_size(j) || sd_val_array_get(s, json_array_size(j)))
            TFAIL("array_size");
        for (size_t i = 0; i < json_array_size(j); i++)
            cmp_tree(sd_val_array_get(s, i), json_array_get(j, i), line);
    } else {
        double a = sd_val_real_value(s), b = json_real_value(j);
        size_t n = json_string_length(j);
        if (sd_val_string_length(s) != n || (n && memcmp(sd_val_string_value(s), json_string_value(j), n + 1)) ||
            sd_val_integer_value(s) != json_integer_value(j) || sd_val_number_value(s) != json_number_value(j) ||
            memcmp(&a, &b, sizeof a) || !sd_val_string_value(s) != !json_string_value(j))
            TFAIL("scalar value");
    }
    t_passed++;
}
/* One comparison of two trees (the walk and the dumps under every flag set): one check. */
#define TREE(s, j) do { t_case_mark m_ = t_case_begin(); \
    cmp_tree((s), (j), __LINE__); cmp_dumps((s), (j), 0, NFLAGS, __LINE__); t_case_end(m_); } while (0)

/* jansson 2.14's json_equal() looks keys up as C strings and its
 * json_deep_copy() cuts keys at a NUL byte: these two go by key lengths. */
static int jequal(const json_t *a, const json_t *b)
{
    const char *k;
    size_t len;
    json_t *v;
    if (!json_is_object(a) && !json_is_array(a))
        return json_equal(a, b);
    if (!b || json_typeof(a) != json_typeof(b) || json_object_size(a) != json_object_size(b) ||
        json_array_size(a) != json_array_size(b))
        return 0;
    json_object_keylen_foreach((json_t *)a, k, len, v)
        if (!jequal(v, json_object_getn(b, k, len)))
            return 0;
    for (size_t i = 0; i < json_array_size(a); i++)
        if (!jequal(json_array_get(a, i), json_array_get(b, i)))
            return 0;
    return 1;
}

static json_t *jcopy(const json_t *j)
{
    const char *k;
    size_t len;
    json_t *v, *r = json_is_object(j) ? json_object() : json_is_array(j) ? json_array() : json_deep_copy(j);
    json_object_keylen_foreach((json_t *)j, k, len, v)
        json_object_setn_new_nocheck(r, k, len, jcopy(v));
    for (size_t i = 0; i < json_array_size(j); i++)
        json_array_append_new(r, jcopy(json_array_get(j, i)));
    return r;
}

/* ---- generating ------------------------------------------------------------- */
static size_t enc(char *o, unsigned c)
{
    size_t n = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    static const unsigned char lead[] = { 0, 0, 0xC0, 0xE0, 0xF0 };
    for (size_t i = n - 1; i > 0; i--, c >>= 6)
        o[i] = (char)(0x80 | (c & 0x3F));
    o[0] = (char)(lead[n] | c);
    return n;
}

/* Up to max code points of valid UTF-8 into o (4 * max + 1 bytes): controls
 * (NUL only with nul), quotes, 0x7F, 2-, 3- and 4-byte sequences, ASCII. */
static size_t gen_utf8(char *o, unsigned max, int nul)
{
    size_t n = 0;
    for (unsigned i = t_rnd(max + 1); i > 0; i--) {
        unsigned c;
        switch (t_rnd(10)) {
        case 0: c = t_rnd(0x20); c = c || nul ? c : 0x1F; break;
        case 1: c = (unsigned char)"\"\\/\x7F"[t_rnd(4)]; break;
        case 2: c = 0x80 + t_rnd(0x780); break;
        case 3: do c = 0x800 + t_rnd(0xF800); while (c >= 0xD800 && c <= 0xDFFF); break;
        case 4: c = 0x10000 + t_rnd(0x100000); break;
        default: c = 0x20 + t_rnd(0x5F); break;
        }
        n += enc(o + n, c);
    }
    o[n] = '\0';
    return n;
}

static const char *const KEYS[] = { "a", "b", "c", "type", "name", "id", "", "\xC3\xA9", "\"", "\\", "\t", "k\x01" };

/* A key into o (1400 bytes): a small set (replacements happen), long keys
 * starting like the literals, UTF-8, controls and quotes; with nul, NULs. */
static size_t gen_key(char *o, int nul)
{
    size_t n = 0;
    switch (t_rnd(nul ? 8 : 7)) {
    case 0: case 1: strcpy(o, PICK(KEYS)); return strlen(o);
    case 2: for (n = 1 + t_rnd(2), o[n] = 0; n-- > 0;) o[n] = "abc"[t_rnd(3)]; return strlen(o);
    case 3:
        n = 40 + t_rnd(260), o[0] = "tnia"[t_rnd(4)];
        for (size_t i = 1; i < n; i++) o[i] = (char)('a' + t_rnd(26));
        break;
    case 4: case 5: return gen_utf8(o, 8, 0);
    case 6: for (n = 1 + t_rnd(6), o[n] = 0; n-- > 0;) o[n] = "\x01\x1F\"\\/\x7F\n"[t_rnd(7)]; return strlen(o);
    default: n = gen_utf8(o, 6, 1), o[n++] = '\0', n += gen_utf8(o + n, 3, 1); break;
    }
    o[n] = '\0';
    return n;
}

/* A finite double: special values, any exponent, any bit pattern. */
static double gen_real(void)
{
    static const double fixed[] = { 0.1, 1e17, -0.0, 0.0, 1.0, -1.5, 100.0, 1e16, 1e15, 123456789012345678.0,
                                    1e-5, 1e-7, 2.5e-300, 5e-324, DBL_MIN, DBL_MAX, -DBL_MAX, 1e22, 1e21,
                                    0.30000000000000004, 3.141592653589793, 9007199254740993.0 };
    for (;;) {
        uint64_t bits = t_rnd64();
        double d;
        switch (t_rnd(3)) {
        case 0: return PICK(fixed);
        case 1: return ldexp((double)(t_rnd64() >> 11) / 9007199254740992.0, (int)t_rnd(2099) - 1074) * (t_rnd(2) ? 1 : -1);
        default:
            memcpy(&d, &bits, sizeof d);
            if (isfinite(d))
                return d;
            OK(sd_val_real(d) == NULL && json_real(d) == NULL);   /* NaN, infinities */
        }
    }
}

static int budget;   /* values left for the tree being built */
static void gen(sd_val **ps, json_t **pj, int depth);

static void add_member(sd_val *s, json_t *j, int depth)
{
    char key[1400];
    size_t len;
    sd_val *sv;
    json_t *jv;
    const char *k = PICK(KEYS);
    gen(&sv, &jv, depth + 1);
    switch (t_rnd(10)) {
    case 0: case 1: gen_key(key, 0); INT_EQ(sd_val_object_set_new(s, key, sv), json_object_set_new(j, key, jv)); break;
    case 2: len = gen_key(key, 1); INT_EQ(sd_val_object_setn_new_nocheck(s, key, len, sv), json_object_setn_new_nocheck(j, key, len, jv)); break;
    case 3: len = gen_key(key, 1); INT_EQ(sd_val_object_setn_new(s, key, len, sv), json_object_setn_new(j, key, len, jv)); break;
    case 4: INT_EQ(sd_val_object_set_new_nocheck(s, "type", sv), json_object_set_new_nocheck(j, "type", jv)); break;
    case 5: INT_EQ(sd_val_object_set_new_nocheck(s, "id", sv), json_object_set_new_nocheck(j, "id", jv)); break;
    case 6: INT_EQ(sd_val_object_set_static(s, k, sv), json_object_set_new_nocheck(j, k, jv)); break;
    case 7: case 8:   /* the setters that take their own reference */
        gen_key(key, 0);
        INT_EQ(sd_val_object_set(s, key, sv), json_object_set(j, key, jv));
        sd_val_decref(sv), json_decref(jv);
        break;
    default:
        INT_EQ(sd_val_object_set_nocheck(s, "name", sv), json_object_set_nocheck(j, "name", jv));
        sd_val_decref(sv), json_decref(jv);
    }
}

static void add_item(sd_val *s, json_t *j, int depth)
{
    sd_val *sv;
    json_t *jv;
    size_t n = json_array_size(j), i = t_rnd((unsigned)n);
    if (n && t_rnd(10) == 0) {   /* a shared subtree: an earlier item again */
        INT_EQ(sd_val_array_append(s, sd_val_array_get(s, i)), json_array_append(j, json_array_get(j, i)));
        return;
    }
    gen(&sv, &jv, depth + 1);
    if (t_rnd(2)) {
        INT_EQ(sd_val_array_append_new(s, sv), json_array_append_new(j, jv));
        return;
    }
    INT_EQ(sd_val_array_append(s, sv), json_array_append(j, jv));
    sd_val_decref(sv), json_decref(jv);
}

/* Members or items: few; past the index threshold; past 100 (roots). */
static unsigned gen_count(int depth) { return depth == 0 && t_rnd(100) == 0 ? 101 + t_rnd(60) : t_rnd(12) == 0 ? 9 + t_rnd(30) : t_rnd(7); }

static void gen_string(sd_val **ps, json_t **pj)
{
    char b[4 * 40 + 1];
    size_t n = gen_utf8(b, 40, 1);
    int d = (int)t_rnd(1000), w = t_rnd(2) ? 0 : 300, p = (int)t_rnd(4);
    switch (t_rnd(4)) {
    case 0: gen_utf8(b, 40, 0); *ps = sd_val_string(b), *pj = json_string(b); break;
    case 1: *ps = sd_val_stringn(b, n), *pj = json_stringn(b, n); break;
    case 2: *ps = sd_val_stringn_nocheck(b, n), *pj = json_stringn_nocheck(b, n); break;
    default:   /* more than 256 bytes when w is 300 */
        gen_utf8(b, 40, 0);
        *ps = sd_val_sprintf("%s|%d|%*.*s", b, d, w, p, "xyz");
        *pj = json_sprintf("%s|%d|%*.*s", b, d, w, p, "xyz");
    }
}

/* A value in both libraries; a root (depth 0) is an object or an array. */
static void gen(sd_val **ps, json_t **pj, int depth)
{
    static const long long ints[] = { LLONG_MIN, LLONG_MAX, 0, -1, 1, LLONG_MIN + 1, INT_MAX, 9007199254740993LL };
    unsigned t = depth >= 4 || budget <= 0 ? 2 + t_rnd(8) : t_rnd(10);
    long long i;
    double d;
    if (depth == 0)
        t = t_rnd(2);
    budget--;
    switch (t) {
    case 0:
        *ps = sd_val_object(), *pj = json_object();
        for (unsigned n = gen_count(depth); n > 0; n--) add_member(*ps, *pj, depth);
        break;
    case 1:
        *ps = sd_val_array(), *pj = json_array();
        for (unsigned n = gen_count(depth); n > 0; n--) add_item(*ps, *pj, depth);
        break;
    case 2: case 3: gen_string(ps, pj); break;
    case 4:
        i = t_rnd(3) == 0 ? PICK(ints) : t_rnd(2) ? (long long)t_rnd64() : (long long)t_rnd(2000) - 1000;
        *ps = sd_val_integer(i), *pj = json_integer(i);
        break;
    case 5: case 6: d = gen_real(); *ps = sd_val_real(d), *pj = json_real(d); break;
    case 7: *ps = sd_val_boolean(1), *pj = json_true(); break;
    case 8: *ps = sd_val_boolean(0), *pj = json_false(); break;
    default: *ps = sd_val_null(), *pj = json_null(); break;
    }
    if (!*ps || !*pj) {   /* counted: must not happen for valid input */
        OK(*ps && *pj);
        sd_val_decref(*ps), json_decref(*pj);
        *ps = sd_val_null(), *pj = json_null();
    }
}

/* ---- mutating in lockstep ---------------------------------------------------- */
static const char *nth_key(const json_t *j, size_t r, size_t *len)
{
    void *it = json_object_iter((json_t *)j);
    while (r--)
        it = json_object_iter_next((json_t *)j, it);
    *len = json_object_iter_key_len(it);
    return json_object_iter_key(it);
}

static void mutate(sd_val *s, json_t *j, int depth)
{
    char key[1400];
    const char *k;
    size_t len, n = json_is_object(j) ? json_object_size(j) : json_array_size(j), i = t_rnd((unsigned)n);
    sd_val *sa;
    json_t *ja;
    if (json_is_object(j)) {
        switch (t_rnd(7)) {
        case 0:
            if (n && depth < 4) {
                k = nth_key(j, i, &len);
                mutate(sd_val_object_getn(s, k, len), json_object_getn(j, k, len), depth + 1);
                return;
            }
            /* fall through */
        case 1: if (n) { k = nth_key(j, i, &len); INT_EQ(sd_val_object_del(s, k), json_object_del(j, k)); } break;
        case 2: gen_key(key, 0); INT_EQ(sd_val_object_del(s, key), json_object_del(j, key)); break;
        case 3: case 4: add_member(s, j, depth); break;
        case 5:   /* lookups, mostly of keys that are not there */
            len = gen_key(key, 1);
            one_dump(sd_val_object_getn(s, key, len), json_object_getn(j, key, len), "getn", __LINE__);
            one_dump(sd_val_object_get(s, key), json_object_get(j, key), "get", __LINE__);
            break;
        default:   /* shrink, across the index threshold */
            while (json_object_size(j) > 3 && t_rnd(12)) {
                k = nth_key(j, t_rnd((unsigned)json_object_size(j)), &len);
                INT_EQ(sd_val_object_del(s, k), json_object_del(j, k));
            }
        }
    } else if (json_is_array(j)) {
        switch (t_rnd(8)) {
        case 0:
            if (n && depth < 4) {
                mutate(sd_val_array_get(s, i), json_array_get(j, i), depth + 1);
                return;
            }
            /* fall through */
        case 1:
            if (n)
                INT_EQ(sd_val_array_remove(s, i), json_array_remove(j, i));
            INT_EQ(sd_val_array_remove(s, n), json_array_remove(j, n));
            break;
        case 2: INT_EQ(sd_val_array_clear(s), json_array_clear(j)); break;
        case 3:
            budget = 8, sa = sd_val_array(), ja = json_array();
            for (unsigned m = t_rnd(5); m > 0; m--) add_item(sa, ja, 3);
            INT_EQ(sd_val_array_extend(s, sa), json_array_extend(j, ja));
            sd_val_decref(sa), json_decref(ja);
            break;
        case 4: if (n < 16) INT_EQ(sd_val_array_extend(s, s), json_array_extend(j, j)); break;
        case 5: INT_EQ(sd_val_array_extend(s, sd_val_null()), json_array_extend(j, json_null())); break;
        default: budget = 8; add_item(s, j, depth); break;
        }
    } else {   /* a scalar refuses them all */
        INT_EQ(sd_val_array_clear(s), json_array_clear(j));
        INT_EQ(sd_val_object_del(s, "a"), json_object_del(j, "a"));
        INT_EQ(sd_val_object_set_new(s, "a", sd_val_null()), json_object_set_new(j, "a", json_null()));
    }
}

/* ---- the tests --------------------------------------------------------------- */
static void test_comparator_can_fail(void)
{
    OK(!texts_equal("[1]", "[2]") && !texts_equal(NULL, "[]") && texts_equal(NULL, NULL));
}

static void test_random_trees(void)
{
    for (int it = 0; it < ITERATIONS; it++) {   /* build, copy, mutate, compare: one case */
        sd_val *s, *cs;
        json_t *j, *cj;
        t_case_mark m = t_case_begin();
        budget = 4 + (int)t_rnd(32);
        gen(&s, &j, 0);
        TREE(s, j);
        cs = sd_val_deep_copy(s), cj = jcopy(j);
        TREE(cs, j);
        INT_EQ(sd_val_equal(s, cs), 1);
        INT_EQ(jequal(j, cj), 1);
        for (size_t m = 0; m < 3; m++) {   /* one flag set after each step, all at the end */
            mutate(s, j, 0);
            cmp_tree(s, j, __LINE__);
            size_t f = m < 2 ? (m + (size_t)it) % NFLAGS : 0;
            cmp_dumps(s, j, f, m < 2 ? f + 1 : NFLAGS, __LINE__);
            INT_EQ(sd_val_equal(s, cs), jequal(j, cj));
            INT_EQ(sd_val_equal(cs, s), jequal(cj, j));
        }
        TREE(cs, cj);
        sd_val_decref(s), json_decref(j);
        /* a copy changed is no longer equal */
        s = sd_val_deep_copy(cs), j = jcopy(cj);
        if (json_is_object(j))
            INT_EQ(sd_val_object_set_new_nocheck(s, "\x02" "fresh", sd_val_null()), json_object_set_new(j, "\x02" "fresh", json_null()));
        else
            INT_EQ(sd_val_array_append_new(s, sd_val_false()), json_array_append_new(j, json_false()));
        INT_EQ(sd_val_equal(s, cs), 0);
        INT_EQ(jequal(j, cj), 0);
        sd_val_decref(s), sd_val_decref(cs), json_decref(j), json_decref(cj);
        t_case_end(m);
    }
}

static void test_scalars(void)
{
    sd_val *s, *t;
    json_t *j, *jt;
    for (int i = 0; i < 300; i++) {   /* one case each */
        t_case_mark m = t_case_begin();
        budget = 0;
        gen(&s, &j, 4);
        TREE(s, j);   /* NULL without ENCODE_ANY, the same text with it */
        OK(sd_val_dumps(s, SD_VAL_INDENT(2)) == NULL);
        mutate(s, j, 0);
        sd_val_decref(s), json_decref(j);
        t_case_end(m);
    }
    OK(sd_val_real(NAN) == NULL && json_real(NAN) == NULL);
    OK(sd_val_real(-INFINITY) == NULL && json_real(-INFINITY) == NULL);
    OK(sd_val_string(NULL) == NULL && json_string(NULL) == NULL);
    s = sd_val_sprintf("%s", ""), j = json_sprintf("%s", "");
    TREE(s, j);
    sd_val_decref(s), json_decref(j);
    s = sd_val_sprintf("%0400d|%s", 7, "\xE2\x82\xAC"), j = json_sprintf("%0400d|%s", 7, "\xE2\x82\xAC");
    TREE(s, j);
    sd_val_decref(s), json_decref(j);
    s = sd_val_integer(1), j = json_integer(1), t = sd_val_real(1.0), jt = json_real(1.0);
    INT_EQ(sd_val_equal(s, t), 0);   /* 1 is not 1.0 */
    INT_EQ(json_equal(j, jt), 0);
    OK(sd_val_number_value(s) == sd_val_number_value(t));
    sd_val_decref(s), sd_val_decref(t), json_decref(j), json_decref(jt);
    s = sd_val_real(0.0), t = sd_val_real(-0.0), j = json_real(0.0), jt = json_real(-0.0);
    INT_EQ(sd_val_equal(s, t), json_equal(j, jt));
    sd_val_decref(s), sd_val_decref(t), json_decref(j), json_decref(jt);
    s = sd_val_stringn("a\0b", 3), t = sd_val_stringn("a\0c", 3);
    INT_EQ(sd_val_equal(s, t), 0);
    sd_val_decref(s), sd_val_decref(t);
    s = sd_val_object(), t = sd_val_object(), j = json_object(), jt = json_object();   /* any order */
    sd_val_object_set_new(s, "x", sd_val_integer(1)), sd_val_object_set_new(s, "y", sd_val_null());
    sd_val_object_set_new(t, "y", sd_val_null()), sd_val_object_set_new(t, "x", sd_val_integer(1));
    json_object_set_new(j, "x", json_integer(1)), json_object_set_new(j, "y", json_null());
    json_object_set_new(jt, "y", json_null()), json_object_set_new(jt, "x", json_integer(1));
    INT_EQ(sd_val_equal(s, t), 1);
    INT_EQ(json_equal(j, jt), 1);
    sd_val_decref(s), sd_val_decref(t), json_decref(j), json_decref(jt);
}

static void test_utf8_refusal(void)
{
    static const char *const bad[] = {
        "\xC0\x80", "\xC1\xBF", "\xE0\x80\xAF", "\xE0\x9F\xBF", "\xF0\x80\x80\xAF", "\xF0\x8F\xBF\xBF",  /* overlong */
        "\xED\xA0\x80", "\xED\xBF\xBF", "\xED\xB0\x80",                                                /* surrogates */
        "\xF4\x90\x80\x80", "\xF5\x80\x80\x80", "\xF7\xBF\xBF\xBF", "\xFE", "\xFF",                    /* > U+10FFFF */
        "\xC3", "\xE2\x82", "\xF0\x9F\x98", "a\xC3(", "\xE2(\xA1",                                     /* truncated */
        "\x80", "\xBF", "ab\200cd",                                                                     /* continuation */
    };
    static const char *const good[] = { "\xC2\x80", "\xDF\xBF", "\xE0\xA0\x80", "\xED\x9F\xBF", "\xEE\x80\x80",
                                        "\xEF\xBF\xBF", "\xF0\x90\x80\x80", "\xF4\x8F\xBF\xBF" };
    sd_val *o = sd_val_object();
    json_t *jo = json_object();
    char b[64];
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {   /* one case each */
        t_case_mark m = t_case_begin();
        for (int at = 0; at < 3; at++) {   /* alone, after valid text, amid it */
            size_t len = (size_t)snprintf(b, sizeof b, "%s%s%s", at ? "x\xC3\xA9" : "", bad[i], at == 2 ? "yz" : "");
            OK(sd_val_string(b) == NULL && json_string(b) == NULL);
            OK(sd_val_stringn(b, len) == NULL && json_stringn(b, len) == NULL);
            OK(sd_val_stringn(b, len + 1) == NULL && json_stringn(b, len + 1) == NULL);
            OK(sd_val_sprintf("%s", b) == NULL && json_sprintf("%s", b) == NULL);
            INT_EQ(sd_val_object_set_new(o, b, sd_val_integer(1)), json_object_set_new(jo, b, json_integer(1)));
            INT_EQ(sd_val_object_setn_new(o, b, len, sd_val_string("v")), json_object_setn_new(jo, b, len, json_string("v")));
            INT_EQ(sd_val_object_set_new(o, b, sd_val_integer(1)), -1);
        }
        t_case_end(m);
    }
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {   /* the edges of the valid ranges, one case each */
        sd_val *s = sd_val_string(good[i]);
        json_t *j = json_string(good[i]);
        t_case_mark m = t_case_begin();
        TREE(s, j);
        INT_EQ(sd_val_object_set_new(o, good[i], s), json_object_set_new(jo, good[i], j));
        t_case_end(m);
    }
    TREE(o, jo);
    INT_EQ(sd_val_object_size(o), sizeof good / sizeof *good);
    sd_val_decref(o), json_decref(jo);
}

/* Deleting the current member while iterating: every member is visited
 * once, in jansson's order (json_object_foreach_safe). */
static void test_foreach_delete(void)
{
    char key[32];
    for (int round = 0; round < 300; round++) {   /* one case each */
        t_case_mark m = t_case_begin();
        sd_val *s = sd_val_object(), *v;
        json_t *j = json_object(), *jv;
        unsigned n = round % 10 == 0 ? 100 + t_rnd(40) : t_rnd(30), mode = t_rnd(4);
        long vs[160], vj[160];
        unsigned char del[160], seen[160] = { 0 };
        size_t ns = 0, nj = 0, k = 0, size;
        const char *ks, *kj;
        void *tmp;
        for (unsigned i = 0; i < n; i++) {
            snprintf(key, sizeof key, "m%u", t_rnd(n + 1));
            if (t_rnd(8) == 0)
                INT_EQ(sd_val_object_set_new_nocheck(s, "type", sd_val_integer(i)), json_object_set_new_nocheck(j, "type", json_integer(i)));
            else
                INT_EQ(sd_val_object_set_new(s, key, sd_val_integer(i)), json_object_set_new(j, key, json_integer(i)));
        }
        size = json_object_size(j);
        for (size_t i = 0; i < size; i++)
            del[i] = mode == 0 ? 1 : mode == 1 ? 0 : (unsigned char)t_rnd(2);
        sd_val_object_foreach(s, ks, v) {
            vs[ns++] = (long)sd_val_integer_value(v);
            if (del[k++])
                INT_EQ(sd_val_object_del(s, ks), 0);
        }
        k = 0;
        json_object_foreach_safe(j, tmp, kj, jv) {
            vj[nj++] = (long)json_integer_value(jv);
            if (del[k++])
                json_object_del(j, kj);
        }
        INT_EQ(ns, size);
        INT_EQ(nj, size);
        OK(ns == nj && memcmp(vs, vj, ns * sizeof *vs) == 0);
        for (size_t i = 0; i < ns; i++)   /* values are 0..n-1, one per set call */
            OK(vs[i] >= 0 && vs[i] < 160 && !seen[vs[i]] && (seen[vs[i]] = 1));
        TREE(s, j);
        sd_val_decref(s), json_decref(j);
        t_case_end(m);
    }
}

static void test_refcounts(void)
{
    sd_val *sh = sd_val_object(), *po = sd_val_object(), *pa = sd_val_array(), *cp;
    json_t *jsh = json_object(), *jpo = json_object(), *jpa = json_array(), *jcp;
    sd_val_object_set_new(sh, "list", sd_val_array());
    json_object_set_new(jsh, "list", json_array());
    INT_EQ(sd_val_object_set(po, "a", sh), json_object_set(jpo, "a", jsh));
    INT_EQ(sd_val_object_set_nocheck(po, "b", sh), json_object_set_nocheck(jpo, "b", jsh));
    INT_EQ(sd_val_array_append(pa, sh), json_array_append(jpa, jsh));
    INT_EQ(sd_val_array_append_new(pa, sd_val_incref(sh)), json_array_append_new(jpa, json_incref(jsh)));
    INT_EQ(sh->refcount, 5);
    INT_EQ(sd_val_object_set(po, "a", sh), 0);   /* replaced by itself */
    INT_EQ(sh->refcount, jsh->refcount);
    /* a change to the shared subtree shows in all four places */
    sd_val_array_append_new(sd_val_object_get(sh, "list"), sd_val_string("x"));
    json_array_append_new(json_object_get(jsh, "list"), json_string("x"));
    TREE(po, jpo);
    TREE(pa, jpa);
    cp = sd_val_deep_copy(po), jcp = jcopy(jpo);
    INT_EQ(sh->refcount, 5);
    sd_val_object_set_new(sh, "k", sd_val_true());
    json_object_set_new(jsh, "k", json_true());
    TREE(cp, jcp);   /* the copy shares nothing */
    TREE(po, jpo);
    INT_EQ(sd_val_equal(cp, po), 0);
    /* on failure the value is taken all the same (LeakSanitizer checks) */
    INT_EQ(sd_val_object_set_new(pa, "k", sd_val_integer(1)), json_object_set_new(jpa, "k", json_integer(1)));
    INT_EQ(sd_val_array_append_new(po, sd_val_string("s")), json_array_append_new(jpo, json_string("s")));
    INT_EQ(sd_val_object_set_new(po, "k", NULL), json_object_set_new(jpo, "k", NULL));
    INT_EQ(sd_val_array_append_new(pa, NULL), json_array_append_new(jpa, NULL));
    /* the constants are never freed */
    for (int i = 0; i < 5; i++)
        sd_val_decref(sd_val_incref(sd_val_null())), sd_val_decref(sd_val_true());
    OK(sd_val_is_true(sd_val_true()) && sd_val_true()->refcount == UINT32_MAX);
    INT_EQ(sd_val_array_remove(pa, 0), 0);
    INT_EQ(sh->refcount, 4);
    INT_EQ(sd_val_array_clear(pa), 0);
    INT_EQ(sh->refcount, 3);
    INT_EQ(sd_val_object_del(po, "b"), 0);
    INT_EQ(sh->refcount, 2);
    sd_val_decref(po), sd_val_decref(pa), sd_val_decref(cp), sd_val_decref(sh);
    json_decref(jpo), json_decref(jpa), json_decref(jcp), json_decref(jsh);
}

/* A literal key compared with longer keys that start like it (hundreds,
 * so that some pass any pre-filter): nothing may be read past the literal
 * (under ASan: a global-buffer-overflow). */
static void test_literal_key_vs_longer_key(void)
{
    char key[400];
    sd_val *s = sd_val_object();
    json_t *j = json_object();
    t_case_mark m = t_case_begin();   /* the lookups: one case */
    sd_val_object_set_new_nocheck(s, "type", sd_val_true());
    json_object_set_new_nocheck(j, "type", json_true());
    for (size_t n = 5; n < sizeof key; n++) {
        memcpy(key, "type", 4);
        for (size_t i = n % 2 ? 1 : 4; i < n; i++)
            key[i] = (char)('a' + (i * 7 + n) % 26);
        key[n] = '\0';
        one_dump(sd_val_object_get(s, key), json_object_get(j, key), "get", __LINE__);
        if (n % 50 == 0)
            INT_EQ(sd_val_object_set_new(s, key, sd_val_null()), json_object_set_new(j, key, json_null()));
    }
    t_case_end(m);
    TREE(s, j);
    sd_val_decref(s), json_decref(j);
}

/* An object made with room for n members grows, finds and deletes as any
 * other; a literal key is not found by a longer key that holds a NUL after
 * the literal's text, nor by a shorter one. */
static void test_sized_objects(void)
{
    sd_val *s;
    for (size_t n = 0; n <= 48; n += 8) {
        json_t *j = json_object();
        char key[16];
        t_case_mark m = t_case_begin();   /* one case per size */
        s = sd_val_object_sized(n);
        for (int i = 0; i < 50; i++) {
            snprintf(key, sizeof key, "k%d", i * 7 % 40);
            INT_EQ(sd_val_object_set_new(s, key, sd_val_integer(i)), json_object_set_new(j, key, json_integer(i)));
            if (i % 9 == 8) {
                snprintf(key, sizeof key, "k%d", i % 40);
                INT_EQ(sd_val_object_del(s, key), json_object_del(j, key));
            }
        }
        TREE(s, j);
        sd_val_decref(s), json_decref(j);
        t_case_end(m);
    }
    s = sd_val_object();
    sd_val_object_set_new_nocheck(s, "type", sd_val_true());
    OK(sd_val_object_getn(s, "type", 4) != NULL);
    OK(sd_val_object_getn(s, "type\0x", 6) == NULL);
    OK(sd_val_object_getn(s, "typ", 3) == NULL);
    sd_val_decref(s);
}

/* Deleting from an indexed object while the allocator refuses: jansson's
 * deletion does not allocate, and every other member is still found. */
static int refuse;
static void *get_or_refuse(size_t n) { return refuse ? NULL : malloc(n); }
static void release(void *p, size_t n) { (void)n; free(p); }

static void test_del_when_memory_runs_out(void)
{
    sd_val *s;
    json_t *j = json_object();
    char key[16];
    sd_val_set_alloc(get_or_refuse, release);
    s = sd_val_object();
    for (int i = 0; i < 40; i++) {
        snprintf(key, sizeof key, "k%d", i);
        sd_val_object_set_new(s, key, sd_val_integer(i));
        json_object_set_new(j, key, json_integer(i));
    }
    refuse = 1;
    INT_EQ(sd_val_object_del(s, "k3"), json_object_del(j, "k3"));
    refuse = 0;
    t_case_mark m = t_case_begin();   /* every member still found: one case */
    for (int i = 0; i < 40; i++) {
        snprintf(key, sizeof key, "k%d", i);
        one_dump(sd_val_object_get(s, key), json_object_get(j, key), key, __LINE__);
    }
    t_case_end(m);
    TREE(s, j);
    sd_val_decref(s), json_decref(j);
    sd_val_set_alloc(NULL, NULL);
    sd_alloc_reset();
}

/* A stealing setter that fails for want of memory keeps the value alive:
 * callers go on using it through a borrowed pointer (`append(list, s);
 * fill(s)`), which freeing made a use after free (issue 41: model.c
 * index_nodes, md_cells.c). sd_val_release_orphans() frees them. */
static void test_failed_insert_keeps_value(void)
{
    sd_val *a, *o, *s1, *s2, *s3, *s4;
    sd_val_set_alloc(get_or_refuse, release);
    a = sd_val_array();
    o = sd_val_object();
    for (int i = 0; i < 4; i++)   /* the array's first block is full */
        sd_val_array_append_new(a, sd_val_integer(100 + i));
    s1 = sd_val_string("one"), s2 = sd_val_string("two");
    s3 = sd_val_string("three"), s4 = sd_val_string("four");
    refuse = 1;
    sd_val *none = sd_val_object();   /* NULL: the container could not be made */
    INT_EQ(sd_val_object_set_new_nocheck(none, "k", s1), -1);
    INT_EQ(sd_val_array_append_new(none, s2), -1);
    INT_EQ(sd_val_array_append_new(a, s3), -1);            /* the array cannot grow */
    INT_EQ(sd_val_object_set_new(o, "a longer key", s4), -1);   /* nor the key be copied */
    refuse = 0;
    t_case_mark m = t_case_begin();
    STR_EQ(sd_val_string_value(s1), "one");
    STR_EQ(sd_val_string_value(s2), "two");
    STR_EQ(sd_val_string_value(s3), "three");
    STR_EQ(sd_val_string_value(s4), "four");
    OK(sd_alloc_failed());
    t_case_end(m);
    sd_val_release_orphans();
    sd_val_decref(a), sd_val_decref(o);
    sd_val_set_alloc(NULL, NULL);
    sd_alloc_reset();
}

static void test_enough_comparisons(void)
{
    printf("count: %ld nodes and texts compared with jansson\n", n_cmp);
    OK(n_cmp >= MIN_COMPARISONS);
}

/* A key borrowed from a string value (the renderers' description memos):
 * found, replaced, deleted, copied and dumped like a copied key, and the
 * string is held exactly as long as the member. */
static void test_string_value_keys(void)
{
    sd_val *o = sd_val_object(), *k = sd_val_string("a long description, \"quoted\"");
    sd_val *k2 = sd_val_stringn("x\0y", 3), *c;
    char *t;

    INT_EQ(sd_val_object_set_new_strkey(o, k, sd_val_integer(1)), 0);
    INT_EQ(k->refcount, 2);
    OK(sd_val_object_get(o, "a long description, \"quoted\"") != NULL);
    INT_EQ(sd_val_integer_value(sd_val_object_get(o, sd_val_string_value(k))), 1);
    /* the same text from elsewhere replaces the value in place, and the
     * second holder's reference is given back */
    c = sd_val_string("a long description, \"quoted\"");
    INT_EQ(sd_val_object_set_new_strkey(o, c, sd_val_integer(2)), 0);
    INT_EQ(c->refcount, 1);
    INT_EQ(k->refcount, 2);
    INT_EQ(sd_val_object_size(o), 1);
    INT_EQ(sd_val_integer_value(sd_val_object_get(o, "a long description, \"quoted\"")), 2);
    sd_val_decref(c);
    INT_EQ(sd_val_object_set_new_strkey(o, k2, sd_val_true()), 0);
    OK(sd_val_object_getn(o, "x\0y", 3) == sd_val_true());
    OK(sd_val_object_get(o, "x") == NULL);
    t = sd_val_dumps(o, SD_VAL_COMPACT);
    STR_EQ(t, "{\"a long description, \\\"quoted\\\"\":2,\"x\\u0000y\":true}");
    free(t);
    c = sd_val_deep_copy(o);
    OK(sd_val_equal(o, c));
    INT_EQ(k->refcount, 2);   /* the copy has its own key */
    sd_val_decref(c);
    INT_EQ(sd_val_object_del(o, sd_val_string_value(k)), 0);
    INT_EQ(k->refcount, 1);
    c = sd_val_integer(3);
    OK(sd_val_object_set_new_strkey(o, c, sd_val_null()) < 0);   /* not a string */
    sd_val_decref(c);
    OK(sd_val_object_set_new_strkey(o, k, NULL) < 0);
    INT_EQ(k->refcount, 1);
    INT_EQ(k2->refcount, 2);
    sd_val_decref(o);
    INT_EQ(k2->refcount, 1);
    sd_val_decref(k);
    sd_val_decref(k2);
}

/* Interned short strings (the command line's): an equal live string is
 * given out again, freed ones leave the table, and after thousands of
 * random frees every live string is still found (the table's deletions
 * keep its probe chains whole). */
static void test_interning(void)
{
    enum { N = 20000 };
    static sd_val *live[N];
    char text[32];
    size_t found = 0, wrong = 0;
    uint64_t r = 88172645463325252ull;
    sd_val *a, *b, *c, *l;

    sd_val_set_intern(1);
    a = sd_val_string("object");
    b = sd_val_stringn("object", 6);
    OK(a == b);
    INT_EQ(a->refcount, 2);
    l = sd_val_string("a string longer than twenty-four bytes");
    b = sd_val_string("a string longer than twenty-four bytes");
    OK(l != b);                     /* long strings are not shared */
    sd_val_decref(b);
    sd_val_decref(l);
    /* a unique text neither takes a shared string nor gives its own */
    l = sd_val_stringn_unique("object", 6);
    OK(l != a);
    INT_EQ(l->refcount, 1);
    INT_EQ(a->refcount, 2);
    b = sd_val_stringn_unique("k-unique", 8);
    c = sd_val_string("k-unique");
    OK(c != b);
    INT_EQ(c->refcount, 1);
    sd_val_decref(c);
    sd_val_decref(b);                /* leaves nothing behind in the table */
    b = sd_val_string("k-unique");
    INT_EQ(b->refcount, 1);
    c = sd_val_string("k-unique");
    OK(c == b);
    INT_EQ(b->refcount, 2);
    sd_val_decref(c);
    sd_val_decref(b);
    STR_EQ(sd_val_string_value(l), "object");
    sd_val_decref(l);
    OK(sd_val_stringn_unique("k\xff", 2) == NULL);   /* checked as sd_val_stringn() is */
    OK(sd_val_stringn_unique(NULL, 0) == NULL);
    sd_val_decref(a);
    sd_val_decref(a);
    for (int i = 0; i < N; i++) {
        r ^= r << 13; r ^= r >> 7; r ^= r << 17;
        snprintf(text, sizeof text, "k%u", (unsigned)(r % 5000));
        live[i] = sd_val_string(text);
    }
    for (int i = 0; i < N; i++) {   /* free about half, scattered */
        r ^= r << 13; r ^= r >> 7; r ^= r << 17;
        if (r & 1) {
            sd_val_decref(live[i]);
            live[i] = NULL;
        }
    }
    for (int i = 0; i < N; i++) {
        if (!live[i])
            continue;
        a = sd_val_stringn(sd_val_string_value(live[i]), sd_val_string_length(live[i]));
        found++;
        wrong += a != live[i];
        sd_val_decref(a);
    }
    OK(found > N / 4);
    INT_EQ(wrong, 0);
    for (int i = 0; i < N; i++)
        sd_val_decref(live[i]);
    sd_val_set_intern(0);
    a = sd_val_string("object");
    b = sd_val_string("object");
    OK(a != b);                     /* off again: separate strings */
    sd_val_decref(a);
    sd_val_decref(b);
}

/* A counting allocator: how many blocks a few calls take. */
static long gets;
static void *count_get(size_t n) { gets++; return malloc(n); }

static void test_reserve(void)
{
    static const char *const keys[] = { "a", "b", "c", "d", "e", "f", "g", "h", "i", "j" };
    sd_val *o, *x = sd_val_array();
    json_t *j = json_object();
    sd_val_set_alloc(count_get, release);
    o = sd_val_object();
    for (int i = 0; i < 3; i++) {
        sd_val_object_set_static(o, keys[i], sd_val_integer(5000 + i));
        json_object_set_new(j, keys[i], json_integer(5000 + i));
    }
    INT_EQ(sd_val_object_reserve(o, 10), 0);
    INT_EQ(sd_val_object_reserve(o, 10), 0);   /* room already: no move */
    gets = 0;
    for (int i = 3; i < 10; i++) {
        sd_val_object_set_static(o, keys[i], sd_val_true());
        json_object_set_new(j, keys[i], json_true());
    }
    INT_EQ(gets, 0);                 /* seven members, no allocation */
    TREE(o, j);
    sd_val_decref(o);
    o = sd_val_object();             /* without the reservation: the members move */
    gets = 0;
    for (int i = 0; i < 10; i++)
        sd_val_object_set_static(o, keys[i], sd_val_true());
    OK(gets >= 2);
    INT_EQ(sd_val_object_reserve(x, 1), -1);
    INT_EQ(sd_val_object_reserve(NULL, 1), -1);
    sd_val_decref(o);
    sd_val_decref(x);
    json_decref(j);
    sd_val_set_alloc(NULL, NULL);
}

/* 0 to 1023 are shared constants; other integers are blocks of their own. */
static void test_small_integers(void)
{
    sd_val *a, *b;
    char *t;
    sd_val_set_alloc(count_get, release);
    gets = 0;
    a = sd_val_integer(7), b = sd_val_integer(7);
    OK(a == b);
    INT_EQ(a->refcount, UINT32_MAX);
    sd_val_decref(a);
    sd_val_decref(b);
    a = sd_val_integer(0), b = sd_val_integer(1023);
    INT_EQ(sd_val_integer_value(a), 0);
    INT_EQ(sd_val_integer_value(b), 1023);
    t = sd_val_dumps(b, SD_VAL_ENCODE_ANY);
    STR_EQ(t, "1023");
    free(t);
    INT_EQ(gets, 0);
    a = sd_val_integer(1024), b = sd_val_integer(-1);
    INT_EQ(gets, 2);
    INT_EQ(sd_val_integer_value(a), 1024);
    INT_EQ(sd_val_integer_value(b), -1);
    INT_EQ(a->refcount, 1);
    sd_val_decref(a);
    sd_val_decref(b);
    sd_val_set_alloc(NULL, NULL);
}

/* The CLI's pool cuts a freed block of a larger size in two for a smaller
 * request, front part first. */
static void test_pool_split(void)
{
    char big[200], small[12];
    sd_val *s, *t, *u, *keep;
    uintptr_t at;
    memset(big, 'x', sizeof big);
    memset(small, 'y', sizeof small);
    sd_val_pool_install();
    keep = sd_val_stringn(big, 100);     /* the pool's chunk is in use */
    s = sd_val_stringn(big, sizeof big);   /* a 216-byte block */
    at = (uintptr_t)s;
    sd_val_decref(s);
    t = sd_val_stringn(small, 8);        /* 24 bytes: the freed block's front */
    u = sd_val_stringn(small, 9);        /* 24 bytes again: the rest's front */
    OK((uintptr_t)t == at);
    OK((uintptr_t)u == at + 24);
    STR_EQ(sd_val_string_value(t), "yyyyyyyy");
    STR_EQ(sd_val_string_value(u), "yyyyyyyyy");
    sd_val_decref(t);
    sd_val_decref(u);
    sd_val_decref(keep);
    sd_val_set_intern(0);
    sd_val_set_alloc(NULL, NULL);
}

TEST_MAIN(test_reserve, test_small_integers, test_pool_split, test_comparator_can_fail, test_random_trees, test_scalars, test_utf8_refusal, test_foreach_delete,
          test_refcounts, test_literal_key_vs_longer_key, test_del_when_memory_runs_out, test_failed_insert_keeps_value, test_string_value_keys, test_interning,
          test_enough_comparisons, test_sized_objects)
