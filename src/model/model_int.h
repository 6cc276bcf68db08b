/* SPDX-License-Identifier: Apache-2.0 */
/* model_int.h - internal to the model builder (model.c, build.c, defs.c):
 * the build context, the shared-definition registry and JSON helpers. */
#ifndef SD_MODEL_INT_H
#define SD_MODEL_INT_H

#include "annot.h"
#include "model.h"
#include "pmap.h"
#include "source.h"

#include <stdint.h>
#include <string.h>

/* A definition: a schema reached by $ref (or listed under $defs /
 * definitions), documented once under "definitions". */
typedef struct def_entry {
    const sd_node *target;
    const sd_doc  *doc;
    char          *id;
    char          *pointer;     /* where it is: "#/$defs/a", or an absolute URI */
    char          *name;        /* shown: the name, qualified by document and
                                   pointer when another definition has it */
    int            built;
} def_entry;

typedef struct mctx {
    sd_diags      *diags;
    sd_source     *src;
    int            max_depth;
    int            descriptions;   /* enum sd_model_descriptions */
    int            skip_rows;      /* sd_model_opts.skip_rows */
    sd_annots     *annots;      /* values comments, or NULL */
    sd_val        *ids;         /* set of ids handed out */
    const char    *id_prefix;   /* "def-" while building definitions */
    def_entry     *defs;
    size_t         ndefs, adefs;
    uint32_t      *defidx;      /* target node -> defs index + 1 (open addressing) */
    size_t         defcap;
    const sd_node *building;    /* the definition being built (recursion mark) */
    int            err;         /* first error (unresolved reference without --lenient,
                                   SD_ELIMIT past SD_MODEL_MAX_NODES) */
    size_t         nodes;       /* model nodes built so far */
    size_t         max_nodes;   /* the budget (see SD_MODEL_MAX_NODES) */
    char          *where_base;  /* absolute, normalized: locations are named relative to it */
    char          *where_cwd;   /* the current directory, once */
    const char    *where_file[4]; /* the last files named (a document's own string) ... */
    char          *where_name[4]; /* ... and their names in the model */
    unsigned       where_next;  /* the slot to reuse next */
    sd_pmap        vals;        /* values node -> its JSON value, shared: a
                                   member's default is the value its parent's
                                   holds (sd_node_to_val_memo), not a copy made
                                   once for every level above it */
    sd_val        *type_lists;  /* type word -> a node's one-type "type" list,
                                   shared by every node of that type */
} mctx;

/* The model's node budget: at least SD_MODEL_MAX_NODES, and one node per
 * SD_MODEL_BYTES_PER_NODE bytes of the source's own files beyond that, so
 * that documentation grows with the input (the scaling inputs of
 * tests/gen-scale.py at 64x document) while aliases, which cost a few bytes
 * each, cannot: a values list of 300,000 aliased maps would take minutes
 * and gigabytes to document, so it is refused instead. The largest corpus
 * model (a Prometheus CRD) has about 8,600 nodes. */
#define SD_MODEL_MAX_NODES 50000
#define SD_MODEL_BYTES_PER_NODE 16
/* Shared definitions are capped at SD_MODEL_MAX_NODES whatever the size: a
 * 100,000-long chain of definitions referring to the next is refused (the
 * Kubernetes definitions x64 hold about 38,000). */
#define SD_MODEL_MAX_DEFS SD_MODEL_MAX_NODES

/* What one model node documents: a schema location and the values written
 * there (either may be absent). */
typedef struct mplace {
    const char    *key;      /* the key in its parent ("[0]", "[]", "*" for items
                                and additional properties), NULL for roots */
    const char    *path;     /* dotted values path as helm-docs writes it */
    const char    *pointer;  /* JSON pointer of the schema location */
    const sd_node *schema;   /* the schema node, or NULL */
    const sd_doc  *sdoc;     /* the document `schema` sits in */
    const sd_pair *vpair;    /* the values pair written here, or NULL */
    const sd_node *value;    /* the value written here, or NULL */
    int            depth;
} mplace;

/* build.c */
/** "file:line:col" (or the file alone, or null) as a new JSON string, the
 *  file named relative to the base set by sd_model__where_init() (a URL as
 *  it is): "values.yaml:3:3", never a directory of the machine. */
sd_val *sd_model__loc(mctx *c, sd_loc l);
/** Name locations relative to the directory `base` (as given: relative to
 *  the current directory, or absolute). Returns 0 or SD_ENOMEM; undo with
 *  sd_model__where_release(). */
int sd_model__where_init(mctx *c, const char *base);
void sd_model__where_release(mctx *c);
sd_val *sd_model__build(mctx *c, const mplace *at);

/* defs.c */
/** A new id for a node or a definition: `want` (after c->id_prefix), or with
 *  the first free "-N" when taken; remembered in c->ids. A new reference,
 *  or NULL when memory ran out (noted). */
sd_val *sd_model__unique_id_val(mctx *c, const char *want);
/** As sd_model__unique_id_val(), as a string the caller frees. */
char *sd_model__unique_id(mctx *c, const char *want);
const char *sd_model__def_id(mctx *c, const sd_node *target, const sd_doc *doc, const char *name,
                             const char *pointer);
void sd_model__register_defs(mctx *c, const sd_doc *doc);
sd_val *sd_model__definitions(mctx *c);
void sd_model__defs_release(mctx *c);

/* A string of a loaded document (its loader checked the UTF-8: libyaml
 * reads nothing else, json.c checks every byte and replaces lone
 * surrogates), so it need not be checked again; NULL stays NULL. */
static inline sd_val *sd_model__doc_str(const char *s)
{
    return s ? sd_val_stringn_nocheck(s, strlen(s)) : NULL;
}

/* Setters that leave out what the model omits (docs/model.md): a missing
 * value, a false flag, an empty array or object. Keys are literals or
 * entries of static tables: kept by pointer (sd_val_object_set_static). */
static inline void sd_model__set(sd_val *o, const char *k, sd_val *v)
{
    if (v)
        sd_val_object_set_static(o, k, v);
}

static inline void sd_model__flag(sd_val *o, const char *k, int v)
{
    if (v)
        sd_val_object_set_static(o, k, sd_val_true());
}

static inline void sd_model__set_nonempty(sd_val *o, const char *k, sd_val *v)
{
    if (v && ((sd_val_is_array(v) && sd_val_array_size(v)) || (sd_val_is_object(v) && sd_val_object_size(v))))
        sd_val_object_set_static(o, k, v);
    else
        sd_val_decref(v);
}

#endif
