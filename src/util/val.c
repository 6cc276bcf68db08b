/* SPDX-License-Identifier: Apache-2.0 */
/* val.c - the model's JSON values (val.h): jansson's API on smaller memory.
 *
 * A string is its header and its bytes in one block; an object is an
 * array of 16-byte members (key pointer, value pointer whose low bit says
 * "the key is a literal, not ours"), then a byte of tag per member, and
 * past SCAN_MAX members an open-addressing index of (member, hash) behind
 * a filter of the tags; an owned key is a copy with its 32-bit length in
 * front (the layout: val_int.h). The allocator is told each block's size
 * on release, so the CLI's pool needs no headers. JSON text is written by
 * val_dump.c. */
#include "val_int.h"
#include "alloc.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- allocation ---------------------------------------------------------- */
static void *sys_get(size_t n) { return malloc(n); }
static void sys_release(void *p, size_t n) { (void)n; free(p); }
static void *(*get_fn)(size_t) = sys_get;
static void (*release_fn)(void *, size_t) = sys_release;

void sd_val_set_alloc(void *(*get)(size_t), void (*release)(void *, size_t))
{
    get_fn = get && release ? get : sys_get;
    release_fn = get && release ? release : sys_release;
}

static void *vget(size_t n)
{
    void *p = get_fn(n);
    if (!p)
        sd_alloc_note_failure();
    return p;
}

static void vrelease(void *p, size_t n)
{
    if (p)
        release_fn(p, n);
}


/* ---- values whose insertion failed ----------------------------------------
 * The stealing setters (sd_val_object_set_new & co, sd_val_array_append_new)
 * take the caller's reference, and callers keep using the value through a
 * borrowed pointer after it went into the tree (`append(list, s); fill(s)`).
 * When the insertion fails for want of memory, freeing the value would leave
 * that pointer dangling (issue 41: use after free in model.c index_nodes and
 * the md cells). Such a value is parked here instead and lives until
 * sd_val_release_orphans(): the run is failing anyway (sd_alloc_failed()).
 * A fixed table, since memory is what is missing; past it, freed as before. */
#define ORPHANS_MAX 4096
static sd_val *orphans[ORPHANS_MAX];
static size_t n_orphans;

static void orphan(sd_val *v)
{
    if (v && v->refcount == 1 && n_orphans < ORPHANS_MAX)
        orphans[n_orphans++] = v;
    else
        sd_val_decref(v);
}

void sd_val_release_orphans(void)
{
    while (n_orphans)
        sd_val_decref(orphans[--n_orphans]);
}

/* ---- scalars ------------------------------------------------------------- */
static sd_val v_true = { UINT32_MAX, SD_VAL_TRUE, { 0 } };
static sd_val v_false = { UINT32_MAX, SD_VAL_FALSE, { 0 } };
static sd_val v_null = { UINT32_MAX, SD_VAL_NULL, { 0 } };

sd_val *sd_val_true(void) { return &v_true; }
sd_val *sd_val_false(void) { return &v_false; }
sd_val *sd_val_null(void) { return &v_null; }

static void init(sd_val *v, sd_val_type t)
{
    v->refcount = 1;
    v->type = (uint8_t)t;
    v->pad_[0] = v->pad_[1] = v->pad_[2] = 0;
}

/* ---- interned short strings (sd_val_set_intern) ----------------------------
 * A model says "string", "object", "schema" tens of thousands of times. With
 * interning on, a string of up to INTERN_MAX bytes that is already alive is
 * given out again with one more reference; the table holds no reference
 * (a string leaves it when freed). Open addressing, backward-shift deletion. */
#define INTERN_MAX 24
static uint32_t hash(const char *s, size_t n);
static struct {
    vstr **slot;
    uint32_t cap, n;
    int on;
} intern;

static uint32_t intern_at(const char *s, size_t len)
{
    uint32_t mask = intern.cap - 1, i;
    for (i = hash(s, len) & mask; intern.slot[i]; i = (i + 1) & mask)
        if (intern.slot[i]->len == len && memcmp(intern.slot[i]->s, s, len) == 0)
            break;
    return i;
}

static int intern_grow(void)
{
    uint32_t cap = intern.cap ? intern.cap * 2 : 4096, i, j;
    vstr **old = intern.slot, **slot;
    if (intern.cap >= (UINT32_MAX >> 2) || !(slot = calloc(cap, sizeof *slot))) {
        sd_alloc_note_failure();
        return -1;
    }
    intern.slot = slot;
    for (i = 0; i < intern.cap; i++)
        if (old[i]) {
            for (j = hash(old[i]->s, old[i]->len) & (cap - 1); slot[j]; j = (j + 1) & (cap - 1))
                ;
            slot[j] = old[i];
        }
    free(old);
    intern.cap = cap;
    return 0;
}

static void intern_remove(vstr *v)
{
    uint32_t mask = intern.cap - 1, i, j, k;
    for (i = hash(v->s, v->len) & mask; intern.slot[i] != v; i = (i + 1) & mask)
        ;
    intern.slot[i] = NULL;
    intern.n--;
    for (j = (i + 1) & mask; intern.slot[j]; j = (j + 1) & mask) {
        k = hash(intern.slot[j]->s, intern.slot[j]->len) & mask;
        /* move slot j to the hole unless its home k lies cyclically in (i, j] */
        if ((i <= j) ? (k <= i || k > j) : (k <= i && k > j)) {
            intern.slot[i] = intern.slot[j];
            intern.slot[j] = NULL;
            i = j;
        }
    }
}

void sd_val_set_intern(int on)
{
    intern.on = on;
}

static sd_val *make_string(const char *s, size_t len, int shared)
{
    vstr *v, **at = NULL;
    if (!s || len >= UINT32_MAX - 64)
        return NULL;
    if (shared && intern.on && len <= INTERN_MAX && ((intern.n + 1) * 2 <= intern.cap || intern_grow() == 0)) {
        at = &intern.slot[intern_at(s, len)];
        if (*at)
            return sd_val_incref(&(*at)->h);
    }
    if (!(v = vget(offsetof(vstr, s) + len + 1)))
        return NULL;
    init(&v->h, SD_VAL_STRING);
    v->len = (uint32_t)len;
    memcpy(v->s, s, len);
    v->s[len] = '\0';
    if (at) {
        v->h.pad_[0] = 1;   /* interned: leaves the table when freed */
        *at = v;
        intern.n++;
    }
    return &v->h;
}

sd_val *sd_val_stringn_nocheck(const char *s, size_t len)
{
    return make_string(s, len, 1);
}

sd_val *sd_val_stringn_unique(const char *s, size_t len)
{
    return s && utf8_ok(s, len) ? make_string(s, len, 0) : NULL;
}

sd_val *sd_val_stringn(const char *s, size_t len)
{
    return s && utf8_ok(s, len) ? sd_val_stringn_nocheck(s, len) : NULL;
}

sd_val *sd_val_string(const char *s)
{
    return s ? sd_val_stringn(s, strlen(s)) : NULL;
}

sd_val *sd_val_sprintf(const char *fmt, ...)
{
    va_list ap;
    char small[256], *big = NULL;
    sd_val *v;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return NULL;
    if ((size_t)n < sizeof small)
        return sd_val_stringn(small, (size_t)n);
    if (!(big = malloc((size_t)n + 1))) {
        sd_alloc_note_failure();
        return NULL;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    v = sd_val_stringn(big, (size_t)n);
    free(big);
    return v;
}

/* 0 to 1023 are shared constants: a model's line and column numbers and a
 * view's depths are mostly small, and each was a block of its own. */
#define SMALL_INTS 1024
#define I1(n) { { UINT32_MAX, SD_VAL_INTEGER, { 0 } }, (n) }
#define I4(n) I1(n), I1((n) + 1), I1((n) + 2), I1((n) + 3)
#define I16(n) I4(n), I4((n) + 4), I4((n) + 8), I4((n) + 12)
#define I64(n) I16(n), I16((n) + 16), I16((n) + 32), I16((n) + 48)
#define I256(n) I64(n), I64((n) + 64), I64((n) + 128), I64((n) + 192)
static vint small_ints[SMALL_INTS] = { I256(0), I256(256), I256(512), I256(768) };

sd_val *sd_val_integer(sd_val_int i)
{
    vint *v;
    if (i >= 0 && i < SMALL_INTS)
        return &small_ints[i].h;
    v = vget(sizeof *v);
    if (!v)
        return NULL;
    init(&v->h, SD_VAL_INTEGER);
    v->i = i;
    return &v->h;
}

sd_val *sd_val_real(double d)
{
    vreal *v;
    if (!isfinite(d) || !(v = vget(sizeof *v)))
        return NULL;
    init(&v->h, SD_VAL_REAL);
    v->d = d;
    return &v->h;
}

const char *sd_val_string_value(const sd_val *v)
{
    return sd_val_is_string(v) ? ((const vstr *)(const void *)v)->s : NULL;
}

size_t sd_val_string_length(const sd_val *v)
{
    return sd_val_is_string(v) ? ((const vstr *)(const void *)v)->len : 0;
}

sd_val_int sd_val_integer_value(const sd_val *v)
{
    return sd_val_is_integer(v) ? ((const vint *)(const void *)v)->i : 0;
}

double sd_val_real_value(const sd_val *v)
{
    return sd_val_is_real(v) ? ((const vreal *)(const void *)v)->d : 0.0;
}

double sd_val_number_value(const sd_val *v)
{
    if (sd_val_is_integer(v))
        return (double)sd_val_integer_value(v);
    return sd_val_real_value(v);
}

/* ---- keys ---------------------------------------------------------------- */


static const char *key_copy(const char *key, size_t len)
{
    char *p;
    uint32_t n = (uint32_t)len;
    if (len >= UINT32_MAX - 64 || !(p = vget(4 + len + 1)))
        return NULL;
    memcpy(p, &n, 4);
    memcpy(p + 4, key, len);
    p[4 + len] = '\0';
    return p + 4;
}

static void key_release(const member *m)
{
    if (m->v & VAL_KEY)
        sd_val_decref(&KEY_VAL(m->k)->h);
    else if (!(m->v & STATIC_KEY))
        vrelease((char *)(uintptr_t)m->k - 4, 4 + key_len(m) + 1);
}

static inline int key_eq(const member *m, const char *key, size_t len)
{
    const char *k = m->k;
    if (!(m->v & STATIC_KEY))
        return key_len(m) == len && memcmp(k, key, len) == 0;
    /* a literal: NUL-terminated, no NUL inside; strnlen reads no further
     * than its end, and then memcmp no further than its length */
    return strnlen(k, len + 1) == len && memcmp(k, key, len) == 0;
}

static inline uint8_t tag_of(const char *k, size_t n)
{
    uint32_t x;
    if (!n)
        return 0;
    x = ((uint32_t)n & 0xFF) | (uint32_t)(unsigned char)k[0] << 8 |
        (uint32_t)(unsigned char)k[n >> 1] << 16 | (uint32_t)(unsigned char)k[n - 1] << 24;
    return (uint8_t)((x * 0x9E3779B1u) >> 24);
}

/* Eight bytes a step: keys of the renderers' memos are whole descriptions. */
static uint32_t hash(const char *s, size_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15ull ^ n, w;
    while (n >= 8) {
        memcpy(&w, s, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdull;
        h ^= h >> 32;
        s += 8;
        n -= 8;
    }
    /* the last 0-7 bytes, without a call to memcpy for a variable size */
    w = 0;
    if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, s, 4);
        memcpy(&b, s + n - 4, 4);
        w = (uint64_t)a << 32 | b;
    } else if (n) {
        w = (uint64_t)(unsigned char)s[0] << 16 | (uint64_t)(unsigned char)s[n >> 1] << 8 | (unsigned char)s[n - 1];
    }
    h = (h ^ w) * 0xff51afd7ed558ccdull;
    h ^= h >> 29;
    return (uint32_t)h;
}

/* ---- objects ------------------------------------------------------------- */
sd_val *sd_val_object(void)
{
    vobj *o = vget(sizeof *o);
    if (!o)
        return NULL;
    init(&o->h, SD_VAL_OBJECT);
    o->n = o->cap = o->ixcap = 0;
    o->m = NULL;
    o->few = 0;
    return &o->h;
}

/* Move the members (and their tags) to an array of `cap`. 0, or -1 for memory. */
static int resize_members(vobj *o, uint32_t cap)
{
    member *nm = vget(MEMBERS_BYTES(cap));
    if (!nm)
        return -1;
    memset((uint8_t *)(nm + cap), 0, TAG_BYTES(cap));
    if (o->n) {
        memcpy(nm, o->m, (size_t)o->n * sizeof *nm);
        memcpy(nm + cap, TAGS(o), o->n);
    }
    vrelease(o->m, MEMBERS_BYTES(o->cap));
    o->m = nm;
    o->cap = cap;
    return 0;
}

sd_val *sd_val_object_sized(size_t n)
{
    sd_val *o = sd_val_object();
    if (o && n && resize_members(OBJ(o), (uint32_t)(n < SCAN_MAX ? n : SCAN_MAX)) < 0) {
        sd_val_decref(o);
        return NULL;
    }
    return o;
}

int sd_val_object_reserve(sd_val *o, size_t more)
{
    vobj *x;
    size_t want;
    if (!sd_val_is_object(o))
        return -1;
    x = OBJ(o);
    want = (size_t)x->n + more;
    if (want <= x->cap)
        return 0;
    if (want >= UINT32_MAX / 64)
        return -1;
    return resize_members(x, (uint32_t)want);
}

size_t sd_val_object_size(const sd_val *o)
{
    return sd_val_is_object(o) ? COBJ(o)->n : 0;
}

/* Index of `key` among the members, or -1. */
static long find(const vobj *o, const char *key, size_t len)
{
    uint32_t i, h, mask;
    if (!o->n)
        return -1;
    if (!o->ixcap) {
        const uint8_t *tags = TAGS(o);
        uint8_t t = tag_of(key, len);
        uint64_t pat = 0x0101010101010101ull * t;
        if (!(o->few >> (t & 63) & 1))
            return -1;
        for (i = 0; i < o->n; i += 8) {
            uint64_t w, z;
            memcpy(&w, tags + i, 8);   /* TAG_BYTES: whole words */
            w ^= pat;                  /* a matching tag is a zero byte */
            for (z = (w - 0x0101010101010101ull) & ~w & 0x8080808080808080ull; z; z &= z - 1) {
                uint32_t at = i + (uint32_t)__builtin_ctzll(z) / 8;
                if (at >= o->n)
                    break;   /* past the last member */
                if (key_eq(&o->m[at], key, len))
                    return (long)at;
            }
        }
        return -1;
    }
    i = tag_of(key, len);
    if (!(BLOOM(o)[i >> 6] >> (i & 63) & 1))
        return -1;
    h = hash(key, len);
    mask = o->ixcap - 1;
    for (i = h & mask; SLOTS(o)[i].at; i = (i + 1) & mask)
        if (SLOTS(o)[i].hash == h && key_eq(&o->m[SLOTS(o)[i].at - 1], key, len))
            return (long)SLOTS(o)[i].at - 1;
    return -1;
}

/* (Re)build the index for `o` at a capacity that keeps it at most three
 * quarters full; drop it at SCAN_MAX members or fewer. 0, or -1 for memory. */
static int reindex(vobj *o, uint32_t members)
{
    uint32_t cap = 64, i, j;
    uint64_t *bloom;
    slot *ix;

    if (members <= SCAN_MAX) {
        if (o->ixcap)
            vrelease(o->ix, IX_BYTES(o->ixcap));
        o->ixcap = 0;
        o->few = 0;
        for (i = 0; i < o->n; i++)
            o->few |= (uint64_t)1 << (TAGS(o)[i] & 63);
        return 0;
    }
    while (cap * 3 < members * 4)
        cap *= 2;
    if (o->ixcap && cap <= o->ixcap) {
        cap = o->ixcap;   /* fewer members (a deletion): rebuild in place */
        bloom = o->ix;
    } else if (!(bloom = vget(IX_BYTES(cap)))) {
        return -1;
    }
    memset(bloom, 0, IX_BYTES(cap));
    ix = (slot *)(void *)(bloom + BLOOM_WORDS);
    for (i = 0; i < o->n; i++) {
        uint8_t t = TAGS(o)[i];
        uint32_t h = hash(o->m[i].k, key_len(&o->m[i]));
        for (j = h & (cap - 1); ix[j].at; j = (j + 1) & (cap - 1))
            ;
        ix[j].at = i + 1;
        ix[j].hash = h;
        bloom[t >> 6] |= (uint64_t)1 << (t & 63);
    }
    if (o->ixcap && bloom != o->ix)
        vrelease(o->ix, IX_BYTES(o->ixcap));
    o->ix = bloom;
    o->ixcap = cap;
    return 0;
}

sd_val *sd_val_object_getn(const sd_val *o, const char *key, size_t len)
{
    long i;
    if (!sd_val_is_object(o) || !key || (i = find(COBJ(o), key, len)) < 0)
        return NULL;
    return MVAL(&COBJ(o)->m[i]);
}

/* Set a member; `k` is the key to store when the member is new (a copy;
 * a literal or a held string value's bytes as `kbits` says), and is given
 * back otherwise. */
static int set(sd_val *ov, const char *key, size_t len, const char *k, uintptr_t kbits, sd_val *v)
{
    vobj *o = OBJ(ov);
    long i = find(o, key, len);
    member *m;

    if (i >= 0) {
        m = &o->m[i];
        member tmp = { k, kbits };
        sd_val_decref(MVAL(m));
        m->v = (uintptr_t)v | (m->v & KEY_BITS);
        key_release(&tmp);
        return 0;
    }
    /* half again, not twice: a view node stops a few members past a power
     * of two (the model's fields and the view's) */
    if (o->n == o->cap &&
        (o->cap >= UINT32_MAX / 64 ||
         resize_members(o, o->cap < 8 ? (o->cap ? o->cap * 2 : 4) : o->cap + o->cap / 2) < 0))
        goto fail;
    if (o->n + 1 > SCAN_MAX && (!o->ixcap || (o->n + 1) * 4 > o->ixcap * 3) && reindex(o, o->n + 1) < 0)
        goto fail;
    m = &o->m[o->n];
    TAGS(o)[o->n] = tag_of(key, len);
    m->k = k;
    m->v = (uintptr_t)v | kbits;
    if (!o->ixcap) {
        o->few |= (uint64_t)1 << (TAGS(o)[o->n] & 63);
    } else {
        uint32_t h = hash(key, len), j, mask = o->ixcap - 1;
        uint8_t t = TAGS(o)[o->n];
        for (j = h & mask; SLOTS(o)[j].at; j = (j + 1) & mask)
            ;
        SLOTS(o)[j].at = o->n + 1;
        SLOTS(o)[j].hash = h;
        BLOOM(o)[t >> 6] |= (uint64_t)1 << (t & 63);
    }
    o->n++;
    return 0;
fail:
    {
        member tmp = { k, kbits };
        key_release(&tmp);
    }
    orphan(v);   /* out of memory: the caller may still point at v */
    return -1;
}

int sd_val_object_setn_new_nocheck(sd_val *o, const char *key, size_t len, sd_val *v)
{
    const char *k;
    if (!v)
        return -1;
    if (!o || !key) {   /* the object or the key could not be made */
        orphan(v);
        return -1;
    }
    if (!sd_val_is_object(o) || o == v) {
        sd_val_decref(v);
        return -1;
    }
    if (!(k = key_copy(key, len))) {
        orphan(v);
        return -1;
    }
    return set(o, key, len, k, 0, v);
}

int sd_val_object_setn_new(sd_val *o, const char *key, size_t len, sd_val *v)
{
    if (key && !utf8_ok(key, len)) {
        sd_val_decref(v);
        return -1;
    }
    return sd_val_object_setn_new_nocheck(o, key, len, v);
}

int sd_val_object_set_new(sd_val *o, const char *key, sd_val *v)
{
    return sd_val_object_setn_new(o, key, key ? strlen(key) : 0, v);
}

int sd_val__object_set_static_n(sd_val *o, const char *key, size_t len, sd_val *v)
{
    if (!v)
        return -1;
    if (!o) {
        orphan(v);
        return -1;
    }
    if (!sd_val_is_object(o) || o == v) {
        sd_val_decref(v);
        return -1;
    }
    return set(o, key, len, key, STATIC_KEY, v);
}

int sd_val_object_set_new_strkey(sd_val *o, sd_val *key, sd_val *v)
{
    if (!v)
        return -1;
    if (!o || !key) {
        orphan(v);
        return -1;
    }
    if (!sd_val_is_object(o) || !sd_val_is_string(key) || o == v) {
        sd_val_decref(v);
        return -1;
    }
    return set(o, sd_val_string_value(key), sd_val_string_length(key), sd_val_string_value(sd_val_incref(key)),
               VAL_KEY, v);
}

int sd_val_object_del(sd_val *ov, const char *key)
{
    vobj *o;
    long i;
    if (!sd_val_is_object(ov) || !key)
        return -1;
    o = OBJ(ov);
    if ((i = find(o, key, strlen(key))) < 0)
        return -1;
    sd_val_decref(MVAL(&o->m[i]));
    key_release(&o->m[i]);
    memmove(&o->m[i], &o->m[i + 1], (size_t)(o->n - (uint32_t)i - 1) * sizeof *o->m);
    memmove(TAGS(o) + i, TAGS(o) + i + 1, (size_t)(o->n - (uint32_t)i - 1));
    o->n--;
    TAGS(o)[o->n] = 0;
    reindex(o, o->n);   /* in place, or dropped, or the filter anew: cannot fail */
    return 0;
}

const char *sd_val__key_at(const sd_val *o, size_t i)
{
    return COBJ(o)->m[i].k;
}

sd_val *sd_val__value_at(const sd_val *o, size_t i)
{
    return MVAL(&COBJ(o)->m[i]);
}

size_t sd_val__key_len_at(const sd_val *o, size_t i)
{
    return key_len(&COBJ(o)->m[i]);
}

size_t sd_val__next(const sd_val *o, size_t i, const char *key)
{
    /* the body deleted the current member: the next one moved to i */
    return i < sd_val_object_size(o) && COBJ(o)->m[i].k == key ? i + 1 : i;
}

/* ---- arrays -------------------------------------------------------------- */
sd_val *sd_val_array(void)
{
    varr *a = vget(sizeof *a);
    if (!a)
        return NULL;
    init(&a->h, SD_VAL_ARRAY);
    a->n = a->cap = 0;
    a->it = NULL;
    return &a->h;
}

size_t sd_val_array_size(const sd_val *a)
{
    return sd_val_is_array(a) ? CARR(a)->n : 0;
}

sd_val *sd_val_array_get(const sd_val *a, size_t i)
{
    return sd_val_is_array(a) && i < CARR(a)->n ? CARR(a)->it[i] : NULL;
}

static int reserve(varr *a, size_t need)
{
    uint32_t cap;
    sd_val **it;
    if (need <= a->cap)
        return 0;
    if (need >= UINT32_MAX / 4) {
        sd_alloc_note_failure();
        return -1;
    }
    cap = a->cap ? a->cap : 4;
    while (cap < need)
        cap *= 2;
    if (!(it = vget((size_t)cap * sizeof *it)))
        return -1;
    if (a->n)
        memcpy(it, a->it, (size_t)a->n * sizeof *it);
    vrelease(a->it, (size_t)a->cap * sizeof *it);
    a->it = it;
    a->cap = cap;
    return 0;
}

int sd_val_array_append_new(sd_val *av, sd_val *v)
{
    if (!v)
        return -1;
    if (!av) {   /* the array could not be made */
        orphan(v);
        return -1;
    }
    if (!sd_val_is_array(av) || av == v) {
        sd_val_decref(v);
        return -1;
    }
    if (reserve(ARR(av), (size_t)ARR(av)->n + 1) < 0) {
        orphan(v);
        return -1;
    }
    ARR(av)->it[ARR(av)->n++] = v;
    return 0;
}

int sd_val_array_extend(sd_val *av, sd_val *bv)
{
    uint32_t i, n;
    if (!sd_val_is_array(av) || !sd_val_is_array(bv))
        return -1;
    n = ARR(bv)->n;
    if (reserve(ARR(av), (size_t)ARR(av)->n + n) < 0)
        return -1;
    for (i = 0; i < n; i++)
        ARR(av)->it[ARR(av)->n++] = sd_val_incref(ARR(bv)->it[i]);
    return 0;
}

int sd_val_array_remove(sd_val *av, size_t i)
{
    varr *a;
    if (!sd_val_is_array(av) || i >= ARR(av)->n)
        return -1;
    a = ARR(av);
    sd_val_decref(a->it[i]);
    memmove(&a->it[i], &a->it[i + 1], (a->n - i - 1) * sizeof *a->it);
    a->n--;
    return 0;
}

int sd_val_array_clear(sd_val *av)
{
    uint32_t i;
    if (!sd_val_is_array(av))
        return -1;
    for (i = 0; i < ARR(av)->n; i++)
        sd_val_decref(ARR(av)->it[i]);
    ARR(av)->n = 0;
    return 0;
}

/* ---- freeing ------------------------------------------------------------- */
void sd_val__free(sd_val *v)
{
    uint32_t i;
    switch (v->type) {
    case SD_VAL_STRING:
        if (v->pad_[0])
            intern_remove((vstr *)(void *)v);
        vrelease(v, offsetof(vstr, s) + ((vstr *)(void *)v)->len + 1);
        break;
    case SD_VAL_INTEGER:
        vrelease(v, sizeof(vint));
        break;
    case SD_VAL_REAL:
        vrelease(v, sizeof(vreal));
        break;
    case SD_VAL_ARRAY:
        for (i = 0; i < ARR(v)->n; i++)
            sd_val_decref(ARR(v)->it[i]);
        vrelease(ARR(v)->it, (size_t)ARR(v)->cap * sizeof(sd_val *));
        vrelease(v, sizeof(varr));
        break;
    case SD_VAL_OBJECT:
        for (i = 0; i < OBJ(v)->n; i++) {
            sd_val_decref(MVAL(&OBJ(v)->m[i]));
            key_release(&OBJ(v)->m[i]);
        }
        vrelease(OBJ(v)->m, MEMBERS_BYTES(OBJ(v)->cap));
        if (OBJ(v)->ixcap)
            vrelease(OBJ(v)->ix, IX_BYTES(OBJ(v)->ixcap));
        vrelease(v, sizeof(vobj));
        break;
    default:
        break;
    }
}

/* ---- whole trees --------------------------------------------------------- */
int sd_val_equal(const sd_val *a, const sd_val *b)
{
    uint32_t i;
    if (!a || !b || a->type != b->type)
        return 0;
    if (a == b)
        return 1;
    switch (a->type) {
    case SD_VAL_STRING:
        return sd_val_string_length(a) == sd_val_string_length(b) &&
               memcmp(sd_val_string_value(a), sd_val_string_value(b), sd_val_string_length(a)) == 0;
    case SD_VAL_INTEGER:
        return sd_val_integer_value(a) == sd_val_integer_value(b);
    case SD_VAL_REAL:
        return sd_val_real_value(a) == sd_val_real_value(b);
    case SD_VAL_ARRAY:
        if (CARR(a)->n != CARR(b)->n)
            return 0;
        for (i = 0; i < CARR(a)->n; i++)
            if (!sd_val_equal(CARR(a)->it[i], CARR(b)->it[i]))
                return 0;
        return 1;
    case SD_VAL_OBJECT:
        if (COBJ(a)->n != COBJ(b)->n)
            return 0;
        for (i = 0; i < COBJ(a)->n; i++) {
            const member *m = &COBJ(a)->m[i];
            if (!sd_val_equal(MVAL(m), sd_val_object_getn(b, m->k, key_len(m))))
                return 0;
        }
        return 1;
    default:
        return 1;   /* true, false, null: the type says it all */
    }
}

sd_val *sd_val_deep_copy(const sd_val *v)
{
    sd_val *c;
    uint32_t i;
    if (!v)
        return NULL;
    switch (v->type) {
    case SD_VAL_STRING:
        return sd_val_stringn_nocheck(sd_val_string_value(v), sd_val_string_length(v));
    case SD_VAL_INTEGER:
        return sd_val_integer(sd_val_integer_value(v));
    case SD_VAL_REAL:
        return sd_val_real(sd_val_real_value(v));
    case SD_VAL_ARRAY:
        if (!(c = sd_val_array()) || reserve(ARR(c), CARR(v)->n) < 0)
            goto fail;
        for (i = 0; i < CARR(v)->n; i++)
            if (sd_val_array_append_new(c, sd_val_deep_copy(CARR(v)->it[i])) < 0)
                goto fail;
        return c;
    case SD_VAL_OBJECT:
        if (!(c = sd_val_object()))
            return NULL;
        for (i = 0; i < COBJ(v)->n; i++) {
            const member *m = &COBJ(v)->m[i];
            sd_val *x = sd_val_deep_copy(MVAL(m));
            int r = !x ? -1
                  : m->v & STATIC_KEY ? sd_val_object_set_static(c, m->k, x)
                  : sd_val_object_setn_new_nocheck(c, m->k, key_len(m), x);
            if (r < 0)
                goto fail;
        }
        return c;
    default:
        return (sd_val *)v;   /* the shared constants */
    }
fail:
    sd_val_decref(c);
    return NULL;
}

sd_val *sd_val_objectv(int n, ...)
{
    va_list ap;
    sd_val *o = sd_val_object();
    int i, ok = o != NULL;

    va_start(ap, n);
    for (i = 0; i < n; i++) {
        const char *k = va_arg(ap, const char *);
        sd_val *v = va_arg(ap, sd_val *);
        if (!v || (ok && sd_val_object_set_static(o, k, v) < 0))
            ok = 0;
        else if (!ok)
            sd_val_decref(v);
    }
    va_end(ap);
    if (!ok) {
        sd_val_decref(o);
        return NULL;
    }
    return o;
}
