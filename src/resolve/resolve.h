/* SPDX-License-Identifier: Apache-2.0 */
/* resolve.h - JSON Schema references: index every schema resource of a
 * document once ($id / draft-4 `id`, $anchor, $dynamicAnchor,
 * $recursiveAnchor), then map any `$ref` text to the sd_node it names.
 *
 * In: sd_doc trees (schemas). Out: borrowed sd_node pointers; resolution
 * links, never copies, so recursive schemas stay a finite graph. Documents
 * that are not loaded yet come from a caller's callback (sd_resolve_load_fn);
 * this module does no I/O of its own except through the built-in file loader
 * (sd_resolve_file_loader), and knows the JSON Schema meta-schemas by heart. */
#ifndef SD_RESOLVE_H
#define SD_RESOLVE_H

#include "buf.h"
#include "diag.h"
#include "node.h"
#include "sd.h"

/* Dialects. The numbers order them: draft < SD_DRAFT_2019 means "$ref
 * overrides its siblings, `definitions`, `dependencies`, array `items`". */
enum sd_draft {
    SD_DRAFT_UNKNOWN = 0,
    SD_DRAFT_4 = 4, SD_DRAFT_6 = 6, SD_DRAFT_7 = 7,
    SD_DRAFT_2019 = 2019, SD_DRAFT_2020 = 2020
};

/** The draft that a `$schema` URI names, or SD_DRAFT_UNKNOWN. */
int sd_draft_from_uri(const char *uri);
/** The draft named on a command line: "4", "draft7", "2019-09", "2020-12"... */
int sd_draft_from_name(const char *name);
/** "draft-07", "2020-12", ... */
const char *sd_draft_name(int draft);

/** Load the document at absolute URI `abs_uri` (no fragment), which `$ref`
 *  `ref_text` at `from` asked for. On success set *out to a document that
 *  the loader owns and keeps alive as long as the resolver, and return 0.
 *  On failure return SD_E* with a diagnostic in `diags` (SD_ENOTFOUND when
 *  the loader does not serve that URI at all). */
typedef int (*sd_resolve_load_fn)(void *payload, const char *abs_uri, sd_loc from,
                                  const char *ref_text, sd_doc **out, sd_diags *diags);
/** Rewrite the raw `$ref` text before RFC 3986 resolution (prefix maps such
 *  as schema-dependencies.json). Return a new malloc'd string, or NULL to
 *  keep `ref_text` as it is. */
typedef char *(*sd_resolve_map_fn)(void *payload, const char *ref_text);

typedef struct sd_resolve_opts {
    sd_resolve_load_fn load;   /* NULL: only the loaded documents and meta-schemas */
    sd_resolve_map_fn  map;    /* NULL: no rewriting */
    void              *payload;
    int                draft;  /* default dialect when `$schema` is absent (0: 2020-12) */
} sd_resolve_opts;

typedef struct sd_resolver sd_resolver;

/** What the index knows about one schema node. Borrowed from the resolver. */
typedef struct sd_schema_info {
    const sd_node *node;
    const sd_doc  *doc;        /* the document it sits in */
    const char    *base;       /* absolute base URI in force at this node */
    const char    *ptr;        /* JSON pointer from the document root: "#/properties/a";
                                  NULL until sd_schema_ptr() builds it */
    int            draft;
    int            is_resource;/* the node has its own $id (or is a document root) */
    const char    *dyn_anchor; /* $dynamicAnchor name, or NULL */
    int            rec_anchor; /* 2019-09 $recursiveAnchor: true */
    void          *user;       /* free for the caller (validate.c memoizes here) */
    /* private: how to build `ptr` when it is first asked for (sd_schema_ptr) */
    const struct sd_schema_info *parent;
    const char    *seg_kw, *seg_key;
    size_t         seg_keylen;
    long           seg_idx;
} sd_schema_info;

/** A new, empty resolver; NULL when out of memory. Free with sd_resolver_free(). */
sd_resolver *sd_resolver_new(const sd_resolve_opts *opts);
void sd_resolver_free(sd_resolver *r);

/** Index the schema `root` of `doc` (borrowed: it must outlive the resolver)
 *  with base URI `base` (absolute; NULL: derived from doc->file). `draft` 0
 *  means: from `$schema`, else the resolver's default. Returns 0 or SD_E*. */
int sd_resolver_add(sd_resolver *r, const sd_doc *doc, const sd_node *root,
                    const char *base, int draft, sd_diags *diags);

/** Resolve `ref` (raw `$ref` text) written in schema `from` at `loc`.
 *  On success *out is the target's info; on failure returns SD_EREF or the
 *  loader's code, with an error at `loc` naming the ref and what was tried. */
int sd_resolver_resolve(sd_resolver *r, const sd_schema_info **out,
                        const sd_node *from, const char *ref, sd_loc loc,
                        sd_diags *diags);

/** The absolute URI (fragment kept) that `ref`, written in schema `from`,
 *  names: RFC 3986 against the base in force at `from` when that names a
 *  resource the index knows (an embedded `$id`), else the prefix maps
 *  first, else RFC 3986. *out is a new string the caller frees. Returns 0
 *  or SD_ENOMEM. */
int sd_resolver_ref_uri(sd_resolver *r, char **out, const sd_node *from, const char *ref);

/** The JSON pointer of `info` from its document root ("#/properties/a"),
 *  built on first use (most are never needed: only messages show them).
 *  Borrowed from the resolver; NULL when out of memory. */
const char *sd_schema_ptr(sd_resolver *r, sd_schema_info *info);

/** The info of an indexed schema node, or NULL. */
sd_schema_info *sd_resolver_info(sd_resolver *r, const sd_node *node);

/** The schema registered for absolute URI `abs_uri` (a resource, or
 *  URI#anchor), or NULL. No loading. */
sd_schema_info *sd_resolver_lookup(sd_resolver *r, const char *abs_uri);
/** Call `fn` on every indexed schema node (a snapshot: nodes indexed by the
 *  callbacks themselves are not visited). */
void sd_resolver_each(sd_resolver *r, void (*fn)(sd_schema_info *info, void *payload),
                      void *payload);

/** Which subschemas the keyword `k` holds in `draft`, as the index walks
 *  them, as bits: SD_SUB_ONE (one), SD_SUB_LIST (an array of them; draft
 *  4 to 2019's `items` may be either), SD_SUB_MAP (a map of them); 0: none. The list is resolve.c's own (keywords.def is a
 *  later stage's): tests/unit/test_keywords.c fails when a row of the
 *  table that holds subschemas is missing here. Reads only. */
enum { SD_SUB_ONE = 1, SD_SUB_LIST = 2, SD_SUB_MAP = 4 };
int sd_resolve__subschemas(const char *k, int draft);

/* ---- loaders ----------------------------------------------------------- */

/** The built-in loader: file:// URIs and, through `prefixes`, URI prefixes
 *  mapped to local directories (e.g. "http://localhost:1234/" to the test
 *  suite's remotes). Each document is read once per run and freed by
 *  sd_file_loader_free(). */
typedef struct sd_file_loader sd_file_loader;
sd_file_loader *sd_file_loader_new(void);
/** Serve `uri_prefix` + REST from `dir` + "/" + REST. Copies both. */
int sd_file_loader_map(sd_file_loader *fl, const char *uri_prefix, const char *dir);
void sd_file_loader_free(sd_file_loader *fl);
/** The sd_resolve_load_fn to use with a sd_file_loader as payload. */
int sd_file_loader_load(void *payload, const char *abs_uri, sd_loc from,
                        const char *ref_text, sd_doc **out, sd_diags *diags);

/* ---- the built-in meta-schemas (metaschemas.c) ------------------------- */
typedef struct sd_metaschema {
    const char *uri;   /* $id without a trailing '#' */
    const char *json;
    int         len;
} sd_metaschema;
extern const sd_metaschema sd_metaschemas[];

#endif
