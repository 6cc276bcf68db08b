/* SPDX-License-Identifier: Apache-2.0 */
/* diff_int.h - what the files of the diff stage share: the flattened
 * models and the context of one comparison. */
#ifndef SD_DIFF_INT_H
#define SD_DIFF_INT_H

#include "diff.h"

#include "val.h"

/* One node of a model. */
typedef struct dentry {
    char       *key;       /* the node id (a CRD: "VERSION\x1fid"); owned */
    const char *path;      /* the dotted path (borrowed from the model) */
    sd_val     *n;         /* the model node (borrowed) */
    const char *version;   /* CRD version name, or NULL (borrowed) */
    const char *rule;      /* renames: which rule paired it (static) */
    int         parent;    /* index of the parent entry, or -1 */
    int         depth;
    int         has_props; /* a map with keys: its default is compared key by key */
    int         match;     /* index of the entry on the other side, or -1 */
    int         same;      /* matched by id (not renamed) */
    int         similar;   /* OLD: a NEW entry with a similar name that no evidence
                              makes a rename (rename.c), or -1 */
} dentry;

typedef struct dside {
    dentry *e;
    size_t  n, cap;
    sd_val *index;         /* key -> index */
    sd_val *hints;         /* schema pointer -> x-renamed-from (NEW), or NULL */
} dside;

typedef struct dctx {
    sd_diff_opts opts;
    dside   old, new;
    sd_val *changes;
    const char *new_dir;   /* NEW's chart directory (its README.md states renames), or NULL */
    int     oom;
} dctx;

/** Index of the entry with `key` on side `s`, or -1. */
int sd_diff__lookup(const dside *s, const char *key);
/** Collect the `x-renamed-from` hints of `src`'s schemas into s->hints. */
void sd_diff__hints(dside *s, const sd_source *src);
/** Pair removed and added entries that are the same key renamed or moved
 *  (rename.c; the rules are in docs/diff.md). Returns 0 or SD_ENOMEM. */
int sd_diff__renames(dctx *c);

/* rename_notes.c */
/** Append to `out` (an array) the [old, new] key pairs that the upgrade
 *  notes of the chart in `dir` state ("`a` is now `b`", "... respectively"). */
void sd_diff__readme_hints(sd_val *out, const char *dir);
/** NEW's `renamedFrom` annotations: new path -> old path, as a new object
 *  (the caller decrefs it), or NULL when there are none. */
sd_val *sd_diff__path_hints(const char *dir);

#endif
