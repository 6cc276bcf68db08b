/* vprog.h - internal to the validator (vcompile.c, validate.c): the
 * compiled program (one `vs` record per schema node) and small value helpers
 * that both halves use: JSON types, numbers by value, key lookup. */
#ifndef SD_VPROG_H
#define SD_VPROG_H

#include "validate.h"
#include "buf.h"
#include "ecma_re.h"
#include "hash.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <math.h>
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

/* what a record checks, so that v_node can skip what an instance kind
 * cannot trigger without touching the rest of the record */
enum { N_TYPE = 1, N_ENUM = 2, N_STR = 4, N_NUM = 8, N_OBJ = 16, N_ARR = 32, N_APPLY = 64 };

struct vs {
    uint8_t kind, loop, has_uneval, compiled, alias_state;
    uint8_t need;             /* N_* */
    uint8_t dyn_kind;         /* 0 none, 1 $dynamicRef, 2 $recursiveRef */
    uint8_t unique, nullable, int_or_string, has_const, assert_format, warn_format;
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

static inline int is_integral(const sd_node *n)
{
    if (n->kind == SD_INT)
        return 1;
    return n->kind == SD_FLOAT && isfinite(n->num.f) && n->num.f == floor(n->num.f);
}

static inline unsigned inst_type(const sd_node *n)
{
    switch (n->kind) {
    case SD_NULL: return T_NULL;
    case SD_BOOL: return T_BOOL;
    case SD_INT: return T_INT;
    case SD_FLOAT: return is_integral(n) ? T_INT : T_NUM;
    case SD_STR: return T_STR;
    case SD_MAP: return T_OBJ;
    default: return T_ARR;
    }
}

static inline int is_num(const sd_node *n) { return n->kind == SD_INT || n->kind == SD_FLOAT; }

/* -1, 0, 1 for a < b, a == b, a > b, by value (1 == 1.0). */
static inline int numcmp(const sd_node *a, const sd_node *b)
{
    if (a->kind == SD_INT && b->kind == SD_INT && !a->big && !b->big)
        return a->num.i < b->num.i ? -1 : a->num.i > b->num.i;
    {
        double x = sd_node_number(a), y = sd_node_number(b);
        return x < y ? -1 : x > y;
    }
}

static inline int key_eq(const sd_node *a, const sd_node *b)
{
    return a->len == b->len && memcmp(a->str, b->str, a->len) == 0;
}

static inline const sd_node *map_get(const sd_node *m, const char *k, size_t len)
{
    for (size_t i = 0; i < m->n; i++) {
        const sd_node *kn = m->items[i].key;
        if (kn->len == len && memcmp(kn->str, k, len) == 0)
            return m->items[i].value;
    }
    return NULL;
}

static inline uint64_t mix(uint64_t x)
{
    x ^= x >> 33; x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ULL;
    return x ^ (x >> 33);
}

static inline uint64_t hash_bytes(const char *s, size_t n)
{
    return sd_hash_fnv(s, n);
}

/** Equality of two JSON values by value (1 == 1.0; objects unordered). */
int sd_vprog__equal(const sd_node *a, const sd_node *b);
/** A hash of a value that agrees with sd_vprog__equal(). */
uint64_t sd_vprog__hash(const sd_node *n);

/** Append the short rendering of `n` that messages quote (validate.c show()). */
void sd_vprog__show(sd_buf *b, const sd_node *n);
/** Append the names of the type bits `t` (T_*), "or" between them
 *  (vreport.c). */
void sd_vprog__type_names(sd_buf *b, unsigned t);
/** How far a failed anyOf/oneOf branch's result `r` is from passing: more
 *  errors, and a type mismatch on the value itself, score higher (vreport.c). */
size_t sd_vprog__branch_score(const sd_vresult *r, size_t depth_path);
/* 1 when x is a multiple of m (vnumber.c). */
int sd_vprog__multiple_of(const sd_node *x, const sd_node *m);

/* Property names are short: up to 16 bytes, two overlapping loads cover
 * every byte (no multiply per byte); longer ones take FNV-1a. */
static inline uint32_t hash32(const char *s, size_t n)
{
    uint64_t a, b;
    if (n > 16)
        return (uint32_t)mix(hash_bytes(s, n));
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

static inline vprop *find_prop(const vs *s, const sd_node *key)
{
    if (s->phash) {
        uint32_t h = hash32(key->str, key->len), j = h & (s->phcap - 1);
        for (; s->phash[j]; j = (j + 1) & (s->phcap - 1)) {
            vprop *p = &s->props[s->phash[j] - 1];
            if (p->h == h && p->len == key->len && same_bytes(p->name, key->str, key->len))
                return p;
        }
        return NULL;
    }
    for (size_t i = 0; i < s->nprops; i++) {
        vprop *p = &s->props[i];
        if (p->len == key->len && p->name[0] == key->str[0] && same_bytes(p->name, key->str, key->len))
            return p;
    }
    return NULL;
}

/* The tree is pointer-chasing bound (and a YAML map's pairs are allocated
 * after its children, far from the map node): a software pipeline over the
 * pairs of a map or list fetches the nodes of the pair two ahead, and the
 * pairs and key bytes of the pair one ahead (whose nodes the previous step
 * fetched). */
static inline void ahead(const sd_pair *it, size_t i, size_t n)
{
    if (i + 2 < n) {
        if (it[i + 2].key)
            __builtin_prefetch(it[i + 2].key);
        __builtin_prefetch(it[i + 2].value);
    }
    if (i + 1 < n) {
        const sd_node *v = it[i + 1].value;
        if (v->kind >= SD_MAP)
            __builtin_prefetch(v->items);
        else if (v->kind == SD_STR)
            __builtin_prefetch(v->str);
        if (it[i + 1].key)
            __builtin_prefetch(it[i + 1].key->str);
    }
}

#endif
