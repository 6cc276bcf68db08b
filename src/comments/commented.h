/* SPDX-License-Identifier: Apache-2.0 */
/* commented.h - keys commented out in a values file: known optional keys.
 *
 * Chart authors leave settings they do not turn on by default as comments
 * under the map that would hold them (`# minAvailable: 1` under
 * podDisruptionBudget, a commented-out `# preStop:` example block under
 * `lifecycle: {}`). Those keys are known keys of that map, typed from the
 * commented value: neither unknown keys to the lint nor missing from a
 * generated schema.
 *
 * In: a values document (its comment table and tree). Out: each commented
 * key with the values node that holds it, its parent's path, its position
 * and its value parsed as YAML (in documents the scan owns, with the values
 * file's positions). Prose is not a key: `## ...` lines, helm-docs `# --`
 * and `# @...` lines, and `Note: ...`-style sentences are skipped, and a
 * commented block that does not parse as a YAML map gives nothing. */
#ifndef SD_COMMENTED_H
#define SD_COMMENTED_H

#include "arena.h"
#include "buf.h"
#include "node.h"
#include "pmap.h"

/** A dotted path as a link to its parent's, so that paths share their
 *  prefixes (a values file 990 levels deep with 3 KB keys made 2.9 GB of
 *  whole paths): the text is the parent's text, then `seg` (".key",
 *  "\"a.b\"" quoted as helm-docs writes it, or "[3]"). NULL is the root,
 *  "". `key` is the key the segment names, NULL for a list index. */
typedef struct sd_cpath {
    const struct sd_cpath *up;
    const char *seg, *key;
    uint32_t    seglen, keylen;
} sd_cpath;

/** Append the text of `p` to `out` (sd_buf's sticky failure). */
void sd_cpath_text(sd_buf *out, const sd_cpath *p);

/** One commented-out key. Borrowed from its sd_ckeys. */
typedef struct sd_ckey {
    const sd_node *parent;   /* the values node that holds it: a map, or
                                the null / `{}` value of the key above it;
                                NULL at the root of an empty document */
    const sd_cpath *path;    /* the parent's dotted path as helm-docs writes
                                it (NULL, "", at the root): sd_cpath_text() */
    const char    *key;
    sd_loc         loc;      /* the key, in the values file */
    sd_node       *value;    /* the commented value, typed as YAML types it */
} sd_ckey;

/** The commented-out keys of one values document. Everything it points to
 *  lives until sd_ckeys_release(). */
typedef struct sd_ckeys {
    sd_ckey   *items;        /* in file order; keys nested in a commented
                                value are inside that value, not here */
    size_t     n, alloc;
    sd_doc   **docs;         /* the parsed comment blocks, and `maps` */
    size_t     ndocs, adocs;
    sd_doc    *maps;         /* one map per parent: key -> commented value */
    sd_pmap    by_parent;    /* parent node -> its map in `maps` */
    sd_pmap    inside;       /* every node of a commented value -> 1 */
    sd_arena   arena;        /* paths and keys */
} sd_ckeys;

#define SD_CKEYS_INIT { NULL, 0, 0, NULL, 0, 0, NULL, SD_PMAP_INIT, SD_PMAP_INIT, SD_ARENA_INIT }

/** Find the commented-out keys of `values` (may be NULL: none). A key the
 *  parent map also writes for real is not listed (the real one wins), nor
 *  a second commented one of the same name under the same parent. Never
 *  fails on odd comments. Returns 0 or SD_ENOMEM (`out` is then empty but
 *  must still be released). */
int sd_ckeys_scan(sd_ckeys *out, const sd_doc *values);
/** The commented-out keys under `parent` (a node of the values document, or
 *  NULL for the root of an empty one) as a map from key to commented value,
 *  in file order; NULL when there are none. Borrowed. A commented value's
 *  own keys are that value's (it is a map). */
const sd_node *sd_ckeys_under(const sd_ckeys *ck, const sd_node *parent);
/** 1 when `node` belongs to a commented value (an example, not a default). */
int sd_ckeys_is_commented(const sd_ckeys *ck, const sd_node *node);
void sd_ckeys_release(sd_ckeys *ck);

#endif
