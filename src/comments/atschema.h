/* SPDX-License-Identifier: Apache-2.0 */
/* atschema.h - the `# @schema` annotation dialects of values files.
 *
 * Two tools write JSON Schema keywords into values.yaml comments:
 *   - helm-values-schema-json (the `helm schema` plugin): `key: v  # @schema
 *     type:[string, null]; minimum: 0` on the key's line, on the lines right
 *     above the key (its yaml.v3 head comment), or right below its value at
 *     the key's column (its foot comment): parts `name: value` separated by
 *     `;`;
 *   - helm-schema (dadav): a block of YAML between two lines `# @schema`
 *     right above the key, and `# @schema.root` ... `# @schema.root` for the
 *     root schema before the first key.
 * One file may use both. This stage only reads them: which part means what
 * is the generator's (gen.h). A malformed annotation (an unclosed block, a
 * block that is not YAML or not a map, a part without `:`) is a warning at
 * its file:line:col; the rest of the file is still read.
 *
 * In: a values document. Out: per key (and per list item) the parts and
 * the block, the comment lines above it (for descriptions), and the dialects
 * seen. Everything lives until sd_atschema_release(). */
#ifndef SD_ATSCHEMA_H
#define SD_ATSCHEMA_H

#include "arena.h"
#include "node.h"
#include "pmap.h"

/** One `name: value` part of a helm-values-schema-json annotation. */
typedef struct sd_hvsj_part {
    const char   *name;      /* trimmed */
    const char   *value;     /* trimmed; "" when written without one */
    sd_loc        loc;       /* where the part starts */
    unsigned char where;     /* SD_AT_HEAD, SD_AT_LINE or SD_AT_FOOT */
    unsigned char in_docs;   /* a head line below a helm-docs `# --` line */
} sd_hvsj_part;

enum { SD_AT_HEAD = 0, SD_AT_LINE = 1, SD_AT_FOOT = 2 };

/** The annotations of one key or list item. */
typedef struct sd_atann {
    const sd_pair *pair;
    sd_hvsj_part  *parts;     /* head, then line, then foot; in order */
    size_t         nparts;
    const char   **head;      /* the head comment's last group: "#" + text each */
    size_t         nhead;
    sd_node       *block;     /* helm-schema: the block's YAML (a map), or NULL */
    unsigned char  has_block; /* a block was written (even an empty one) */
    sd_loc         block_loc; /* its first `# @schema` line */
    const char    *block_desc;/* helm-schema: the head lines outside the block,
                                 `#` and one blank taken off, joined by "\n" */
} sd_atann;

typedef struct sd_atschema {
    sd_atann   *items;
    size_t      n, alloc;
    sd_pmap     by_pair;      /* sd_pair* -> index + 1 */
    sd_node    *root_block;   /* `# @schema.root` block, or NULL */
    const char *root_desc;
    int         hvsj, blocks; /* how many keys each dialect annotates */
    int         helmdocs;     /* keys with a helm-docs `# --` head line */
    sd_doc    **docs;         /* the parsed blocks and values */
    size_t      ndocs, adocs;
    const sd_doc *last;       /* the last value sd_atschema_yaml() parsed:
                                 the same text again is the same tree */
    sd_arena    arena;        /* strings */
} sd_atschema;

/** Read every `@schema` annotation of `values` (may be NULL). Warnings for
 *  malformed ones go to `diags`. Returns 0 or SD_ENOMEM. */
int sd_atschema_scan(sd_atschema *out, const sd_doc *values, sd_diags *diags);
/** The annotations of `pair` (a pair of the scanned document), or NULL. */
const sd_atann *sd_atschema_get(const sd_atschema *s, const sd_pair *pair);
/** Parse `len` bytes of `text` (an annotation's value) as YAML into a
 *  document kept by `s`; `at` is where the text starts (errors are placed
 *  from there). Returns its root (NULL for an empty text), or NULL with a
 *  warning in `diags` when it is not YAML. */
sd_node *sd_atschema_yaml(sd_atschema *s, const char *text, size_t len, sd_loc at, sd_diags *diags,
                          int *bad);
/** losisin's helm-docs line (`# -- (type) text`, `# path.to.key -- text`):
 *  `text` is a comment's text after its '#'. Returns 1 when it is one, with
 *  the path (*plen 0 when none), the type (NULL when none) and where the
 *  description starts (each out may be NULL). */
int sd_hvsj_helmdocs(const char *text, const char **path, size_t *plen, const char **type, size_t *tlen,
                     const char **desc);
void sd_atschema_release(sd_atschema *s);

#endif
