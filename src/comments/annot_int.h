/* SPDX-License-Identifier: Apache-2.0 */
/* annot_int.h - what the readers of the comment dialects share (annot.h):
 * their entry points, named in dialects.def's rows, and the small helpers
 * they add annotations with. The helpers are inline, so a reader calls
 * nothing of annot.c (which calls the readers through the table). */
#ifndef SD_ANNOT_INT_H
#define SD_ANNOT_INT_H

#include "annot.h"
#include "alloc.h"

#include <string.h>

/** helm-docs (annot_helmdocs.c): `# --` comments above the keys, the old
 *  `# path -- text` anywhere; with neither, the plain comments. Adds to
 *  `out` (dialects.def's read column). Returns 0 or SD_ENOMEM. */
int sd_annot__helmdocs_read(sd_annots *out, const sd_doc *values);
/** Bitnami's readme-generator (annot_bitnami.c): 1 when `values` writes a
 *  `## @param` line (dialects.def's detect column). */
int sd_annot__bitnami_detect(const sd_doc *values);
/** Bitnami's readme-generator: every `## @...` line in file order. Adds to
 *  `out`. Returns 0 or SD_ENOMEM. */
int sd_annot__bitnami_read(sd_annots *out, const sd_doc *values);

/* A copy in the annotations' arena that records a failure (alloc.h): a
 * NULL here reads as "none". The caller does not free it. */
static inline char *sd_annot__dupn(sd_annots *a, const char *s, size_t n)
{
    char *p = sd_arena_strndup(&a->arena, s, n);
    if (!p)
        sd_alloc_note_failure();   /* callers read NULL as "no such part" */
    return p;
}

static inline char *sd_annot__dup0(sd_annots *a, const char *s)
{
    return sd_annot__dupn(a, s, strlen(s));
}

static inline const char *sd_annot__skip_ws(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

static inline void sd_annot__rtrim(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        s[--n] = '\0';
}

static inline int sd_annot__starts(const char *t, const char *word)
{
    return strncmp(t, word, strlen(word)) == 0;
}

/* A new zeroed annotation at the end of `a`'s list (owned by `a`), or
 * NULL when out of memory. */
static inline sd_annot *sd_annot__add(sd_annots *a)
{
    if (sd_grow((void **)&a->items, &a->alloc, a->n + 1, sizeof *a->items) < 0)
        return NULL;
    sd_annot *r = &a->items[a->n++];
    memset(r, 0, sizeof *r);
    return r;
}

#endif
