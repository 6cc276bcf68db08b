/* SPDX-License-Identifier: Apache-2.0 */
/* pmap.c - see pmap.h. */
#include "pmap.h"
#include "sd.h"

#include <stdlib.h>

static size_t hash(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;   /* half of murmur3's finalizer */
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (size_t)x;
}

uintptr_t *sd_pmap_get(const sd_pmap *m, const void *k)
{
    if (!m->cap)
        return NULL;
    for (size_t i = hash(k) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        if (!m->s[i].k)
            return NULL;
        if (m->s[i].k == k)
            return &m->s[i].v;
    }
}

int sd_pmap_put(sd_pmap *m, const void *k, uintptr_t v)
{
    if ((m->n + 1) * 2 > m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 256;
        sd_pmap_slot *s = calloc(cap, sizeof *s);
        if (!s)
            return SD_ENOMEM;
        for (size_t i = 0; i < m->cap; i++)
            if (m->s[i].k) {
                size_t j = hash(m->s[i].k) & (cap - 1);
                while (s[j].k)
                    j = (j + 1) & (cap - 1);
                s[j] = m->s[i];
            }
        free(m->s);
        m->s = s;
        m->cap = cap;
    }
    size_t i = hash(k) & (m->cap - 1);
    while (m->s[i].k && m->s[i].k != k)
        i = (i + 1) & (m->cap - 1);
    if (!m->s[i].k)
        m->n++;
    m->s[i].k = k;
    m->s[i].v = v;
    return 0;
}

void sd_pmap_release(sd_pmap *m)
{
    free(m->s);
    m->s = NULL;
    m->n = m->cap = 0;
}
