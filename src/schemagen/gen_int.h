/* SPDX-License-Identifier: Apache-2.0 */
/* gen_int.h - what the schema generator's files share (gen.h): the run's
 * state and the helpers that build schema maps in its output document.
 *
 * A schema is a synthetic map in `out`; its keys are in the order they were
 * set (the writers order them). Facts that are not keywords ride along as
 * keys that start with "\x01" (GEN_HIDDEN ...); sd_gen_schema() removes
 * them before it returns. */
#ifndef SD_GEN_INT_H
#define SD_GEN_INT_H

#include "annot.h"
#include "atschema.h"
#include "buf.h"
#include "commented.h"
#include "gen.h"

#define GEN_HIDDEN "\x01hidden"     /* helm-values-schema-json `hidden` */
#define GEN_SKIP   "\x01skip"       /* `skipProperties` */
#define GEN_MERGE  "\x01merge"      /* `mergeProperties` */
#define GEN_REQ    "\x01required"   /* `required: true`: the parent lists the key */
#define GEN_DATA   "\x01" "data"       /* helm-schema: the key had a `@schema` block */

typedef struct gen {
    const sd_gen_opts *o;
    sd_doc       *out;
    sd_diags     *diags;
    const sd_doc *values;      /* the values file being read */
    sd_atschema   at;          /* its `@schema` annotations */
    sd_annots     an;          /* its helm-docs / Bitnami comments */
    sd_ckeys      ck;          /* its keys commented out */
    int           flavour, draft, helm_docs;
    const char  **ptr;         /* the key path of the node being made (hvsj) */
    size_t        nptr, aptr;
    sd_buf        path;        /* the same as helm-docs writes it (native) */
    sd_node      *root;        /* helm-schema: the root schema (its definitions) */
    sd_loc        loc;         /* where what is being made was written (a key,
                                  an annotation): its nodes carry it, so a
                                  message about a keyword points there */
    struct sd_docset *docs;    /* opts->docs, or the run's own (own_docs) */
    int           own_docs;
    int           oom;
} gen;

/* Ownership, for every function below: a node the generator makes lives in
 * g->out's arena and is freed with that document (sd_doc_free() of the
 * run's output), never one by one; a node read from another document
 * (g->values, a `$ref`'d file) is borrowed from it. A `gen` itself is the
 * run's (gen.c), on its stack.
 *
 * Building maps and values in g->out. Each returns a new node owned by
 * g->out's arena (not yet in any map), or NULL with the failure noted in
 * g->oom. `s` is copied into the arena. */
sd_node *sd_gen__map(gen *g);
sd_node *sd_gen__seq(gen *g);
sd_node *sd_gen__str(gen *g, const char *s);
sd_node *sd_gen__strn(gen *g, const char *s, size_t n);
sd_node *sd_gen__bool(gen *g, int v);
sd_node *sd_gen__int(gen *g, long long v);
sd_node *sd_gen__num(gen *g, double v);
/** A deep copy of `src` (any document, only read) in g->out: new nodes
 *  owned by g->out's arena; NULL with g->oom set when out of memory. */
sd_node *sd_gen__copy(gen *g, const sd_node *src);
/** Set, replacing in place (the key keeps its place) or appending. `v`
 *  (g->out's) becomes the member; `key` is copied; the replaced value stays
 *  in the arena until the document is freed. A failure sets g->oom. */
void sd_gen__set(gen *g, sd_node *map, const char *key, sd_node *v);
/** Append `key` (not in `map` yet: the keys of a values map are unique)
 *  without looking for it first. `v` (g->out's) becomes the member; `key`
 *  is copied. A failure sets g->oom. */
void sd_gen__append(gen *g, sd_node *map, const char *key, sd_node *v);
/** The most list items whose schemas a list's `items` merges: a list of a
 *  million items (or aliases) costs no more than its first thousand. */
#define GEN_MAX_ITEMS 1000
/** Remove `key` from `map` (nothing when absent): the member is unlinked,
 *  its nodes stay in the arena until the document is freed. */
void sd_gen__del(sd_node *map, const char *key);
/** Whether the hidden key `flag` (GEN_*) is set on `s`: only reads. */
int  sd_gen__flag(const sd_node *s, const char *flag);
/** Set (`on`) or remove the hidden key `flag` on `s`, with nodes of
 *  g->out's arena; a failure sets g->oom. */
void sd_gen__set_flag(gen *g, sd_node *s, const char *flag, int on);
/** Push / pop a key path segment: `seg` is borrowed and must stay valid
 *  until its pop (g->ptr grows on the heap, freed with the run; a failure
 *  sets g->oom). */
void sd_gen__push(gen *g, const char *seg);
void sd_gen__pop(gen *g);
/** The JSON types of a helm-docs `(type)` or a Bitnami modifier ("int",
 *  "string, object", "tpl/array"), appended to the seq `types` unless there
 *  (new string nodes of g->out's arena; `t` is only read); returns how many
 *  it added. */
int sd_gen__helm_types(gen *g, sd_node *types, const char *t);
/** 1 when the seq of type words `types` allows `t` (number allows
 *  integer). Only reads. */
int sd_gen__has_type(const sd_node *types, const char *t);
/** Schemadoc's precedence in the tools' readings (not under `exact`): a
 *  helm-docs `(type)` in the key's head comment (`a`) types `s` where no
 *  `@schema` did, widened by the default's own type. `s` (g->out's) gains
 *  nodes of g->out's arena; `a` and the values node `v` are borrowed. */
void sd_gen__helmdocs_type(gen *g, sd_node *s, const sd_atann *a, const sd_node *v);
/** Deep equality of two JSON values (any documents). Only reads. */
int sd_gen__equal(const sd_node *a, const sd_node *b);
/** The JSON Schema `type` of a values node as Go's yaml.v3 tags it
 *  (helm-schema: !!str, !!int ...; a timestamp is a string). A static
 *  string; `v` is only read. */
const char *sd_gen__yaml12_type(const sd_node *v);

/* The flavours (gen_hvsj.c, gen_helmschema.c, gen_native.c): the schema of
 * values document g->values (borrowed), a new root map owned by g->out's
 * arena; NULL when out of memory. */
sd_node *sd_gen__hvsj(gen *g);
sd_node *sd_gen__helmschema(gen *g);
sd_node *sd_gen__native(gen *g);
/** The root as each reading finishes it ($schema, root options, `global`,
 *  closing objects...): `root` (g->out's) changed in place, or a new map of
 *  g->out's arena in its place; returned, NULL when out of memory. */
sd_node *sd_gen__hvsj_finish(gen *g, sd_node *root);
sd_node *sd_gen__helmschema_finish(gen *g, sd_node *root);
sd_node *sd_gen__native_finish(gen *g, sd_node *root);
/** helm-values-schema-json's mergeSchemas(dest, src): `src` folded into
 *  `dest` (both in g->out); returns the result, which is `dest` changed in
 *  place, or `src` when it takes the place (a NULL or boolean `dest`);
 *  every node stays g->out's. */
sd_node *sd_gen__hvsj_merge(gen *g, sd_node *dest, sd_node *src);
/** The union of two list items' schemas `a` and `b` (in g->out; a new map
 *  of g->out's arena, which may share their members): a schema
 *  that accepts what either accepts, as close as keywords allow: types
 *  joined, every key of either as a property (a key both have: the union
 *  of its two), `items` the union, `enum` joined, `required` what both
 *  require; a constraint or `default` only where both have it alike; the
 *  later item's annotations. NULL when either is NULL (any value). */
sd_node *sd_gen__union(gen *g, sd_node *a, sd_node *b, int depth);
/** The documents relative `$ref`s are read from: the run's docset (the
 *  chart's confinement and its --map prefixes), or one of the generator's
 *  own confined to base_dir. Borrowed; NULL when out of memory (noted). */
struct sd_docset *sd_gen__docs(gen *g);
/** The absolute URI a relative `$ref` names: by a prefix map, else against
 *  base_dir. A new string the caller frees; NULL when out of memory. */
char *sd_gen__ref_uri(gen *g, struct sd_docset *ds, const char *ref);
/** One step of a JSON pointer: the member `tok` of a map, or the item of
 *  a list `tok` numbers; NULL otherwise. Borrowed from `n`. */
const sd_node *sd_gen__ptr_step(const sd_node *n, const char *tok);
/** The node at JSON pointer `p` ("/a/0/b") under `n` (borrowed), or NULL. */
const sd_node *sd_gen__ptr_walk(const sd_node *n, const char *p);
/** `$ref: $k8s/FILE#PTR` aliases under `s` expanded to the k8sSchemaURL
 *  (gen_merge.c); without k8sSchemaVersion a warning, left as written.
 *  `s` (g->out's) is changed in place with new strings of g->out's arena;
 *  warnings go to g->diags. */
void sd_gen__k8s_refs(gen *g, sd_node *s, int depth);
/** helm-values-schema-json's bundling (gen_bundle.c): every file a `$ref`
 *  of `root` names copied into the root's `$defs` and the `$ref`s
 *  rewritten. `root` (g->out's) changes in place; the copies are new nodes
 *  of g->out's arena, the files read are the docset's (sd_gen__docs).
 *  Problems are errors in g->diags. */
void sd_gen__bundle(gen *g, sd_node *root);
/** helm-values-schema-json's annotations of one key on `s`: `s` (g->out's)
 *  gains nodes of g->out's arena; `a` is borrowed (g->at's). */
void sd_gen__hvsj_apply(gen *g, sd_node *s, const sd_atann *a, int helm_docs);

#endif
