/* SPDX-License-Identifier: Apache-2.0 */
/* annot.h - doc comments in values.yaml -> annotations per values path.
 *
 * The dialects are dialects.def's rows (dialect.h), each read by its own
 * file. Two that real charts use: helm-docs (`# -- text` above a key, with
 * `# @default --`, `# @section --`, `# @raw`, `# @ignored`,
 * `# @notationType --`, `# -- (type) text`, and the old `# path.key -- text`
 * anywhere) and Bitnami's readme-generator (`## @param path [modifiers] text`,
 * `## @section`, `## @skip`, `## @extra`, `## @descriptionStart/End`).
 * Tags of one dialect never appear in the other's descriptions. */
#ifndef SD_ANNOT_H
#define SD_ANNOT_H

#include "arena.h"
#include "buf.h"
#include "dialect.h"
#include "node.h"

#include <stdint.h>

typedef struct sd_annot {
    char  *path;          /* dotted values path as the dialect writes it */
    char  *description;   /* Markdown, or NULL */
    char  *type;          /* type override: "(type)" or "tpl/..."; Bitnami modifiers: "array", "object", "string" */
    char  *default_text;  /* @default -- text, or Bitnami [default: X] */
    char  *section;       /* @section name in force here */
    char  *notation;      /* helm-docs @notationType -- X */
    char  *modifiers;     /* Bitnami: the text inside [...] */
    char  *deprecated;    /* helm-docs `# @deprecated -- text` or `# -- (deprecated, use x) ...`:
                             the notice ("" without one), or NULL */
    char  *plain;         /* the plain `#` comment block directly above the key
                             (neither `# --` nor `@param`), prose lines only, or NULL */
    unsigned char described;   /* has a non-empty `# --` description / is a @param or @extra */
    unsigned char old_style;   /* helm-docs `# path -- text` written anywhere */
    unsigned char raw, ignored, nullable, extra, skip;
    sd_loc loc;           /* where the annotation is written */
} sd_annot;

/* The strings of an sd_annots (its annotations', skips', the chart
 * description) live in its arena and go with sd_annots_release(). */
typedef struct sd_annots {
    const sd_dialect *dialect;   /* the row it was read as (static): never NULL after a scan */
    sd_annot  *items;     /* helm-docs: keyed annotations; Bitnami: @param/@extra in file order */
    size_t     n, alloc;
    char     **skips;     /* Bitnami @skip paths */
    size_t     nskips;
    char      *chart_description; /* Bitnami @descriptionStart..End */
    uint64_t  *idx;       /* (path, old_style) -> items index + 1 in the low
                             32 bits, the high 32 bits of the path's hash
                             above, open addressing (0: empty) */
    size_t     idx_cap;
    size_t     nkind[2];  /* indexed annotations: new style, old style */
    int        plain;     /* the file writes neither helm-docs nor Bitnami comments:
                             its plain comment blocks are the keys' descriptions */
    sd_arena   arena;     /* every string above */
} sd_annots;

/** Read every doc comment of `values` (may be NULL) as `dialect` reads
 *  them: the chart's, as the source chose it (sd_source_dialect()), or
 *  NULL for the one the file is written in (sd_dialect_detect()). Never
 *  fails on odd comments: what is not an annotation is ignored. The caller
 *  releases `out` with sd_annots_release() either way. Returns 0 or
 *  SD_ENOMEM. */
int sd_annots_scan(sd_annots *out, const sd_doc *values, const sd_dialect *dialect, sd_diags *diags);
/** The annotation written above the key at `path` (helm-docs: its
 *  HeadComment; Bitnami: the @param), or NULL. Borrowed. */
const sd_annot *sd_annots_get(const sd_annots *a, const char *path);
/** helm-docs: the old-style `# path -- text` annotation for `path`, or NULL. */
const sd_annot *sd_annots_get_old(const sd_annots *a, const char *path);
/** Append `key` to a dotted path as helm-docs writes it (quoted when it
 *  holds '.' or ' '; annot_helmdocs.c). */
void sd_annot_path_push(sd_buf *b, const char *key, size_t len);
void sd_annots_release(sd_annots *a);

#endif
