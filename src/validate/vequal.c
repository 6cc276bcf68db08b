/* SPDX-License-Identifier: Apache-2.0 */
/* vequal.c - JSON values compared by value (vprog.h): equality (1 == 1.0,
 * objects unordered), a hash that agrees with it, and the duplicates of a
 * list. In: tape values. Used by const and enum (vcompile.c, which hashes
 * the enum's members) and uniqueItems (validate.c). */
#include "vprog.h"

#include <stdlib.h>
#include <string.h>

int sd_vprog__equal(const sd_tval *a, const sd_tval *b)
{
    if (tis_num(a) && tis_num(b))
        return tnumcmp(a, b) == 0;
    if (vk(a) != vk(b))
        return 0;
    switch (vk(a)) {
    case SD_NULL: return 1;
    case SD_BOOL: return !a->u.b == !b->u.b;
    case SD_STR: return a->len == b->len && memcmp(a->u.s, b->u.s, a->len) == 0;
    case SD_SEQ: {
        const sd_tval *x = a + 1, *y = b + 1;
        if (a->len != b->len)
            return 0;
        for (uint32_t i = 0; i < a->len; i++, x = sd_tval_next(x), y = sd_tval_next(y))
            if (!sd_vprog__equal(x, y))
                return 0;
        return 1;
    }
    case SD_MAP: {
        const sd_tval *k = a + 1;
        if (a->len != b->len)
            return 0;
        for (uint32_t i = 0; i < a->len; i++, k = sd_tval_next(k + 1)) {
            const sd_tval *o = map_get(b, k->u.s, k->len);
            if (!o || !sd_vprog__equal(k + 1, o))
                return 0;
        }
        return 1;
    }
    default:
        return 0;
    }
}

/* A hash that agrees with equal(): numbers by value, objects unordered. */
uint64_t sd_vprog__hash(const sd_tval *x)
{
    switch (vk(x)) {
    case SD_NULL: return 0x9e3779b97f4a7c15ULL;
    case SD_BOOL: return x->u.b ? 0x1234567ULL : 0x7654321ULL;
    case SD_INT: case SD_FLOAT: {
        double d = sd_tval_number(x);
        uint64_t bits;
        if (d == 0)
            d = 0;  /* -0 == 0 */
        memcpy(&bits, &d, sizeof bits);
        return mix(bits ^ 0x55);
    }
    case SD_STR: return mix(sd_hash_fnv(x->u.s, x->len) ^ 0x77);
    case SD_SEQ: {
        uint64_t h = 0x3141;
        const sd_tval *y = x + 1;
        for (uint32_t i = 0; i < x->len; i++, y = sd_tval_next(y))
            h = mix(h * 31 + sd_vprog__hash(y));
        return h;
    }
    default: {
        uint64_t h = 0x2718;
        const sd_tval *k = x + 1;
        for (uint32_t i = 0; i < x->len; i++, k = sd_tval_next(k + 1))
            h += mix(sd_hash_fnv(k->u.s, k->len) * 7 + sd_vprog__hash(k + 1));
        return mix(h);
    }
    }
}

/* Small lists compare every pair and stop at the first duplicate; longer
 * ones go through a hash table and report each. */
int sd_vprog__duplicates(const sd_tval *list, int (*found)(void *, size_t, size_t, const sd_tval *),
                         void *arg)
{
    size_t n = list->len;
    const sd_tval *few[16], **it = few, *x = list + 1;
    int count = 0, more = 1;
    if (n < 2)
        return 0;
    if (n > 16 && !(it = malloc(n * sizeof *it)))
        return -1;
    for (size_t i = 0; i < n; i++, x = sd_tval_next(x))
        it[i] = x;
    if (n <= 16) {
        for (size_t i = 1; i < n; i++)
            for (size_t j = 0; j < i; j++)
                if (sd_vprog__equal(it[i], it[j])) {
                    found(arg, i, j, it[i]);
                    return 1;   /* (the first only, as the interpreter does) */
                }
        return 0;
    }
    size_t cap = 32;
    while (cap < n * 2)
        cap *= 2;
    struct uslot { uint64_t h; size_t i; } *tab = calloc(cap, sizeof *tab);
    if (!tab) {
        free(it);
        return -1;
    }
    for (size_t i = 0; i < n && more; i++) {
        uint64_t h = sd_vprog__hash(it[i]);
        size_t k = h & (cap - 1);
        for (; tab[k].i; k = (k + 1) & (cap - 1))
            if (tab[k].h == h && sd_vprog__equal(it[tab[k].i - 1], it[i])) {
                count++;
                more = found(arg, i, tab[k].i - 1, it[i]);
                break;
            }
        if (!tab[k].i) {
            tab[k].h = h;
            tab[k].i = i + 1;
        }
    }
    free(tab);
    free(it);
    return count;
}
