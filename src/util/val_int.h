/* SPDX-License-Identifier: Apache-2.0 */
/* val_int.h - the layout of sd_val's values, shared by val.c (making,
 * finding, freeing) and val_dump.c (writing JSON text); nothing else
 * includes it. */
#ifndef SD_VAL_INT_H
#define SD_VAL_INT_H

#include "val.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct { sd_val h; uint32_t len; char s[]; } vstr;
typedef struct { sd_val h; sd_val_int i; } vint;
typedef struct { sd_val h; double d; } vreal;
typedef struct { sd_val h; uint32_t n, cap; sd_val **it; } varr;
typedef struct { const char *k; uintptr_t v; } member;        /* v | KEY_BITS */
typedef struct { uint32_t at, hash; } slot;                    /* at: member + 1; 0 empty */
/* An index is a 256-bit filter of its members' tags (an absent key is
 * usually refused without hashing it), then its slots. */
#define BLOOM_WORDS 4
#define IX_BYTES(cap) (BLOOM_WORDS * sizeof(uint64_t) + (size_t)(cap) * sizeof(slot))
#define BLOOM(o) ((uint64_t *)(void *)(o)->ix)
#define SLOTS(o) ((slot *)(void *)(BLOOM(o) + BLOOM_WORDS))
/* Up to SCAN_MAX members (ixcap 0), `few` has bit (tag & 63) set for each
 * member's tag, so that most absent keys are refused without a scan. */
typedef struct { sd_val h; uint32_t n, cap; member *m; union { void *ix; uint64_t few; }; uint32_t ixcap; } vobj;

#define SCAN_MAX 32       /* members looked up by their tags; beyond, the index */
/* A member's tag: one byte from the key's length and three of its bytes,
 * kept in a byte array after the members; a lookup compares eight tags at
 * a time and only the keys whose tag matches. */
#define TAGS(o) ((uint8_t *)((o)->m + (o)->cap))
#define TAG_BYTES(cap) (((size_t)(cap) + 7) & ~(size_t)7)
#define MEMBERS_BYTES(cap) ((size_t)(cap) * sizeof(member) + TAG_BYTES(cap))
#define STATIC_KEY ((uintptr_t)1)   /* the key is a literal: not ours */
#define VAL_KEY ((uintptr_t)2)      /* the key is the bytes of a string value we hold */
#define KEY_BITS (STATIC_KEY | VAL_KEY)

#define OBJ(v) ((vobj *)(void *)(v))
#define COBJ(v) ((const vobj *)(const void *)(v))
#define ARR(v) ((varr *)(void *)(v))
#define CARR(v) ((const varr *)(const void *)(v))
#define MVAL(m) ((sd_val *)((m)->v & ~KEY_BITS))
#define KEY_VAL(k) ((vstr *)(void *)((char *)(uintptr_t)(k) - offsetof(vstr, s)))

/* A member's key length: a literal's strlen, a held string's length, or
 * the 32-bit length in front of an owned copy. */
static inline size_t key_len(const member *m)
{
    uint32_t n;
    if (m->v & STATIC_KEY)
        return strlen(m->k);
    if (m->v & VAL_KEY)
        return KEY_VAL(m->k)->len;
    memcpy(&n, m->k - 4, 4);
    return n;
}

/* ---- UTF-8, as jansson checks it ----------------------------------------- */
/* Length of the valid sequence at p (at most e), or 0 when invalid. */
static inline size_t utf8_seq(const unsigned char *p, const unsigned char *e)
{
    unsigned c = *p, cp;
    size_t k, i;

    if (c < 0x80)
        return 1;
    if (c < 0xC2)
        return 0;
    else if (c < 0xE0) { k = 2; cp = c & 0x1F; }
    else if (c < 0xF0) { k = 3; cp = c & 0x0F; }
    else if (c < 0xF5) { k = 4; cp = c & 0x07; }
    else
        return 0;
    if ((size_t)(e - p) < k)
        return 0;
    for (i = 1; i < k; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        cp = cp << 6 | (p[i] & 0x3F);
    }
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) ||
        (k == 3 && cp < 0x800) || (k == 4 && cp < 0x10000))
        return 0;
    return k;
}

static inline int utf8_ok(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s, *e = p + n;
    size_t k;
    while (p < e) {
        uint64_t w;
        if ((size_t)(e - p) >= 8 && (memcpy(&w, p, 8), !(w & 0x8080808080808080ull))) {
            p += 8;   /* eight ASCII bytes */
            continue;
        }
        if (*p < 0x80) {
            p++;
            continue;
        }
        if (!(k = utf8_seq(p, e)))
            return 0;
        p += k;
    }
    return 1;
}

#endif
