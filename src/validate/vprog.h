/* SPDX-License-Identifier: Apache-2.0 */
/* vprog.h - internal to the validator (vcompile.c, and the walk: validate.c
 * and its families of checks, vwalk.h): the compiled program (one `vs`
 * record per schema node) and small value helpers that both halves use:
 * JSON types, numbers by value, key lookup. */
#ifndef SD_VPROG_H
#define SD_VPROG_H

#include "validate.h"
#include "buf.h"
#include "ecma_re.h"
#include "hash.h"
#include "tape.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#define MAX_DEPTH 3000
#define DEFAULT_MATCH_LIMIT 1000000UL

enum { VS_SCHEMA = 0, VS_TRUE, VS_FALSE };
enum { T_NULL = 1, T_BOOL = 2, T_INT = 4, T_NUM = 8, T_STR = 16, T_OBJ = 32, T_ARR = 64 };

typedef struct vs vs;
typedef struct vprop { const char *name; size_t len; uint32_t h; int req; vs *s; } vprop;
/* a pattern: PCRE2's program, and from its JIT_AFTER-th match on, the
 * automaton (ecma_re.h) when it has one */
typedef struct vre {
    pcre2_code *code; sd_ecma_dfa *dfa;
    size_t dfa_max;                     /* longest subject for the automaton */
    const char *src; size_t len;        /* the pattern as written */
    uint32_t uses;
} vre;
typedef struct vpat { vre re; vs *s; } vpat;
typedef struct vdep {
    const char *name; size_t len;
    const sd_node *req;       /* sequence of names, or NULL */
    vs *s;                    /* dependent schema, or NULL */
    const char *kw;
} vdep;

/* what a record checks, so that the walk can skip what an instance kind
 * cannot trigger without touching the rest of the record */
enum { N_TYPE = 1, N_ENUM = 2, N_STR = 4, N_NUM = 8, N_OBJ = 16, N_ARR = 32, N_APPLY = 64 };

struct vs {
    uint8_t kind, loop, has_uneval, compiled, alias_state;
    uint8_t need;             /* N_* */
    uint8_t dyn_kind;         /* 0 none, 1 $dynamicRef, 2 $recursiveRef */
    uint8_t unique, nullable, int_or_string, has_const, assert_format, warn_format;
    uint8_t embedded;         /* x-kubernetes-embedded-resource: true */
    int draft;
    unsigned types;           /* 0: no "type" */
    const sd_node *node;
    sd_schema_info *info, *res;
    vs *alias, *ref, *dynref;
    const char *dyn_name;
    vs **all, **any, **one;
    size_t nall, nany, none;
    vs *not_, *if_, *then_, *else_;
    vprop *props; size_t nprops;
    uint32_t *phash; uint32_t phcap;       /* index+1 into props, open addressing */
    vpat *pats; size_t npats;
    vs *addl, *pnames, *uprops, *uitems;
    const sd_node *required;
    size_t nreq_fast;         /* every required name is a property: count them in the member loop */
    vdep *deps; size_t ndeps;
    long long minp, maxp, mini, maxi, minc, maxc, minl, maxl;
    vs **prefix; size_t nprefix;
    vs *items, *contains;
    const sd_node *min, *max, *exmin, *exmax, *mult;
    vre pattern;              /* pattern.code NULL: none */
    int format;
    const sd_node *const_;
    const sd_node *enum_; uint64_t *ehash;
    sd_tape *ctape, *etape;   /* const_ and enum_ as tapes (what instances are compared with) */
};

struct sd_validator {
    sd_resolver *r;
    int own_r;                          /* r was made here (no opts.resolver) */
    sd_validate_opts opts;
    vs **roots; size_t nroots, aroots;  /* entry points: sd_validator_add() */
    vs **list; size_t nlist, alist;     /* every record, for freeing */
    vs **work; size_t nwork, awork, whead; /* records waiting to be compiled */
    sd_diags *diags;
    int err;
    pcre2_match_context *mctx;
    pcre2_match_data *md;
    int jit;                            /* PCRE2 has a JIT compiler here */
    int has_dynamic;                    /* some $dynamicRef/$recursiveRef is dynamic */
    struct vocab_memo { const sd_schema_info *res; int validation; } *vocab;
    size_t nvocab;
};

/* ---- values: types, numbers, equality, hashing --------------------------- */

/* Instances are tapes (tape.h): a JSON values file parsed straight into
 * one, anything else copied from its tree. Schema values (minimum, const,
 * enum...) stay sd_nodes; const and enum also get a tape of their own. */

static inline sd_kind vk(const sd_tval *x) { return sd_tape_kind(x); }

/* 1 when the finite double `f` is a whole number: past 2^52 every double
 * is; below, a conversion to an integer keeps exactly the whole ones. No
 * floor(): where the compiler judges the code cold it calls libm's, and the
 * release binary links libc alone (docs/internals.md). */
static inline int is_whole(double f)
{
    return fabs(f) >= 4503599627370496.0 || (double)(long long)f == f;
}

static inline int is_integral(const sd_node *n)
{
    if (n->kind == SD_INT)
        return 1;
    return n->kind == SD_FLOAT && isfinite(n->num.f) && is_whole(n->num.f);
}

static inline unsigned inst_type(const sd_tval *x)
{
    switch (vk(x)) {
    case SD_NULL: return T_NULL;
    case SD_BOOL: return T_BOOL;
    case SD_INT: return T_INT;
    case SD_FLOAT: return isfinite(x->u.f) && is_whole(x->u.f) ? T_INT : T_NUM;
    case SD_STR: return T_STR;
    case SD_MAP: return T_OBJ;
    default: return T_ARR;
    }
}

static inline int is_num(const sd_node *n) { return n->kind == SD_INT || n->kind == SD_FLOAT; }
static inline int tis_num(const sd_tval *x) { return vk(x) == SD_INT || vk(x) == SD_FLOAT; }

/* -1, 0, 1 for a < b, a == b, a > b, by value (1 == 1.0): an instance's
 * number against a schema's, and two instance numbers. */
static inline int numcmp(const sd_tval *a, const sd_node *b)
{
    if (vk(a) == SD_INT && b->kind == SD_INT && !sd_tape_big(a) && !b->big)
        return a->u.i < b->num.i ? -1 : a->u.i > b->num.i;
    {
        double x = sd_tval_number(a), y = sd_node_number(b);
        return x < y ? -1 : x > y;
    }
}
static inline int tnumcmp(const sd_tval *a, const sd_tval *b)
{
    if (vk(a) == SD_INT && vk(b) == SD_INT && !sd_tape_big(a) && !sd_tape_big(b))
        return a->u.i < b->u.i ? -1 : a->u.i > b->u.i;
    {
        double x = sd_tval_number(a), y = sd_tval_number(b);
        return x < y ? -1 : x > y;
    }
}

/* A member of map `m` by key (linear: required names are few). */
static inline const sd_tval *map_get(const sd_tval *m, const char *k, size_t len)
{
    const sd_tval *x = m + 1;
    for (uint32_t i = 0; i < m->len; i++, x = sd_tval_next(x + 1))
        if (x->len == len && memcmp(x->u.s, k, len) == 0)
            return x + 1;
    return NULL;
}

static inline uint64_t mix(uint64_t x)
{
    x ^= x >> 33; x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ULL;
    return x ^ (x >> 33);
}

/** Equality of two JSON values by value (1 == 1.0; objects unordered). */
int sd_vprog__equal(const sd_tval *a, const sd_tval *b);
/** A hash of a value that agrees with sd_vprog__equal(). */
uint64_t sd_vprog__hash(const sd_tval *x);
/** The items of list `list` equal to an earlier item: `found(arg, i, j,
 *  item)` for item i equal to item j < i, in order, while it returns
 *  nonzero (a list of up to 16 items: the first only). Returns how many were found, or -1 out of memory. */
int sd_vprog__duplicates(const sd_tval *list, int (*found)(void *, size_t, size_t, const sd_tval *),
                         void *arg);

/* A step of the instance path: a map's key (a tape value) or a list index. */
typedef struct vseg { const sd_tval *key; size_t idx; } vseg;

/** Append one finding (a warning when `warn`) of record `s`'s keyword `kw`
 *  at `loc` (a key's, when `at_key`) to `r`, at most `max` of each kind (errors past it are only
 *  counted): its JSON pointer and dotted key from `path`, its message, the
 *  keyword's pointer and place in the schema (vreport.c). */
void sd_vprog__record(sd_validator *v, sd_vresult *r, size_t max, int warn, const vseg *path, size_t npath,
                      const vs *s, const char *kw, sd_loc loc, int at_key, const char *fmt, va_list ap);

/** Append the short rendering of value `x` of tape `t` that messages quote
 *  (vreport.c); of a schema's node `n`. */
void sd_vprog__show(sd_buf *b, const sd_tape *t, const sd_tval *x);
void sd_vprog__show_node(sd_buf *b, const sd_node *n);
/** Append the names of the type bits `t` (T_*), "or" between them
 *  (vreport.c). */
void sd_vprog__type_names(sd_buf *b, unsigned t);
/** How far a failed anyOf/oneOf branch's result `r` is from passing: more
 *  errors, and a type mismatch on the value itself, score higher (vreport.c). */
size_t sd_vprog__branch_score(const sd_vresult *r, size_t depth_path);

/* Property names are short: up to 16 bytes, two overlapping loads cover
 * every byte (no multiply per byte); longer ones take FNV-1a. */
static inline uint32_t hash32(const char *s, size_t n)
{
    uint64_t a, b;
    if (n > 16)
        return (uint32_t)mix(sd_hash_fnv(s, n));
    sd_hash_ends(s, n, &a, &b);
    return (uint32_t)mix(a ^ (b * 0x9E3779B97F4A7C15ULL) ^ n);
}

/* Short keys: a few word loads, overlapping at the end, beat a call to
 * memcmp and a byte loop. */
static inline int same_bytes(const char *a, const char *b, size_t n)
{
    uint64_t x, y;
    uint32_t u, v;
    uint16_t g, h;
    if (n >= 8) {
        for (size_t i = 0; i + 8 < n; i += 8) {
            memcpy(&x, a + i, 8);
            memcpy(&y, b + i, 8);
            if (x != y)
                return 0;
        }
        memcpy(&x, a + n - 8, 8);
        memcpy(&y, b + n - 8, 8);
        return x == y;
    }
    if (n >= 4) {
        memcpy(&u, a, 4);
        memcpy(&v, b, 4);
        if (u != v)
            return 0;
        memcpy(&u, a + n - 4, 4);
        memcpy(&v, b + n - 4, 4);
        return u == v;
    }
    if (n >= 2) {
        memcpy(&g, a, 2);
        memcpy(&h, b, 2);
        if (g != h)
            return 0;
        return a[n - 1] == b[n - 1];
    }
    return n == 0 || a[0] == b[0];
}

static inline vprop *find_prop(const vs *s, const char *k, size_t len)
{
    if (s->phash) {
        uint32_t h = hash32(k, len), j = h & (s->phcap - 1);
        for (; s->phash[j]; j = (j + 1) & (s->phcap - 1)) {
            vprop *p = &s->props[s->phash[j] - 1];
            if (p->h == h && p->len == len && same_bytes(p->name, k, len))
                return p;
        }
        return NULL;
    }
    for (size_t i = 0; i < s->nprops; i++) {
        vprop *p = &s->props[i];
        if (p->len == len && p->name[0] == k[0] && same_bytes(p->name, k, len))
            return p;
    }
    return NULL;
}

#endif
