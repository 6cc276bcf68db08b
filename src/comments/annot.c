/* SPDX-License-Identifier: Apache-2.0 */
/* annot.c - the annotations of a values file (see annot.h): the scan that
 * hands the file to its dialect's reader (dialects.def: annot_helmdocs.c,
 * annot_bitnami.c), the index of their paths and the lookups. */
#include "annot.h"
#include "alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t hash_path(const char *s, int old)
{
    uint64_t h = old ? 0x9e3779b97f4a7c15ULL : 1469598103934665603ULL, w;
    size_t n = strlen(s);
    for (; n >= 8; s += 8, n -= 8) {   /* eight bytes a step: paths are long */
        memcpy(&w, s, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    for (; n; s++, n--)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h ^ (h >> 29);
}

static size_t slot_of(const sd_annots *a, const char *path, int old, uint64_t *tag);

/* Index every annotation by (path, kind) once, so that each key's lookup
 * is a hash probe: a later annotation of the same path wins, as a scan
 * from the end would find it. */
static int index_paths(sd_annots *a)
{
    size_t cap = 16;
    while (cap < a->n * 2 + 2)
        cap *= 2;
    if (!(a->idx = calloc(cap, sizeof *a->idx)))
        return SD_ENOMEM;
    a->idx_cap = cap;
    for (size_t i = 0; i < a->n; i++) {
        uint64_t tag;
        size_t j;
        int old = a->items[i].old_style != 0;
        if (!a->items[i].path)
            continue;
        j = slot_of(a, a->items[i].path, old, &tag);
        a->idx[j] = tag | ((uint64_t)i + 1);
        a->nkind[old]++;
    }
    return 0;
}

int sd_annots_scan(sd_annots *out, const sd_doc *values, const sd_dialect *dialect, sd_diags *diags)
{
    int err;

    (void)diags;
    memset(out, 0, sizeof *out);
    out->dialect = dialect ? dialect : sd_dialect_detect(values);
    if (!values)
        return 0;
    /* an annotation per comment at most: room for a file's worth at once
     * (up to a bound; beyond, the list grows), so it is not copied while
     * it grows */
    if (sd_grow((void **)&out->items, &out->alloc, values->ncomments < 16384 ? values->ncomments + 1 : 16384,
                sizeof *out->items) < 0)
        return SD_ENOMEM;
    err = out->dialect->read(out, values);
    return err ? err : index_paths(out);
}

/* The slot of `path` among the annotations of one kind (old_style or not):
 * the slot holding the last such annotation, or the empty slot where it
 * would go; *tag is the hash's part a slot keeps. A slot whose tag differs
 * is passed without reading its annotation: most lookups find nothing
 * (keys without a comment), and each annotation read was a cache miss on
 * a large file. */
static size_t slot_of(const sd_annots *a, const char *path, int old, uint64_t *tag)
{
    uint64_t h = hash_path(path, old);
    size_t mask = a->idx_cap - 1, j = (size_t)h & mask;
    *tag = h & 0xFFFFFFFF00000000ULL;
    for (; a->idx[j]; j = (j + 1) & mask) {
        const sd_annot *x;
        if ((a->idx[j] & 0xFFFFFFFF00000000ULL) != *tag)
            continue;
        x = &a->items[(uint32_t)a->idx[j] - 1];
        if (x->old_style == old && strcmp(x->path, path) == 0)
            break;
    }
    return j;
}

static const sd_annot *lookup(const sd_annots *a, const char *path, int old)
{
    size_t j;
    uint64_t tag;
    if (!a->idx_cap || !a->nkind[old])
        return NULL;   /* none of this kind: no hash to take */
    j = slot_of(a, path, old, &tag);
    return a->idx[j] ? &a->items[(uint32_t)a->idx[j] - 1] : NULL;
}

const sd_annot *sd_annots_get(const sd_annots *a, const char *path)
{
    return lookup(a, path, 0);
}

const sd_annot *sd_annots_get_old(const sd_annots *a, const char *path)
{
    return lookup(a, path, 1);
}

void sd_annots_release(sd_annots *a)
{
    free(a->skips);
    free(a->items);
    free(a->idx);
    sd_arena_release(&a->arena);
    memset(a, 0, sizeof *a);
}
