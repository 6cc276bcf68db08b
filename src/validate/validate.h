/* SPDX-License-Identifier: Apache-2.0 */
/* validate.h - JSON Schema validation: compile a schema once into a
 * program (per-node keyword records, precompiled PCRE2 regexes, resolved
 * references, hashed enums), then check any number of instances.
 *
 * In: a schema sd_node (drafts 4, 6, 7, 2019-09, 2020-12) and instances
 * as sd_node trees (YAML or JSON, with positions) or as tapes (tape.h: a
 * JSON text parsed flat, in a third of a tree's memory; a tree is copied
 * into a tape before it is validated). Out: every violation, each
 * with the instance pointer, the dotted key path, the instance position, the
 * keyword, and the keyword's place in the schema (file:line:col and
 * `#/json/pointer`). See docs/validate.md.
 *
 * A validator is not thread-safe (it keeps PCRE2 match data and JIT-compiles
 * patterns on use); give each thread its own. */
#ifndef SD_VALIDATE_H
#define SD_VALIDATE_H

#include "diag.h"
#include "node.h"
#include "resolve.h"
#include "tape.h"
#include "sd.h"

/* When `format` asserts. */
enum sd_format_mode {
    SD_FORMATS_DEFAULT = 0,  /* drafts 4-7 assert; 2019-09 and 2020-12 annotate only */
    SD_FORMATS_ASSERT,       /* always assert known formats */
    SD_FORMATS_IGNORE        /* never assert */
};

typedef struct sd_validate_opts {
    int draft;               /* forced dialect for the root (wins over `$schema`); 0: none */
    int default_draft;       /* dialect when `$schema` is absent (0: 2020-12) */
    int formats;             /* enum sd_format_mode */
    sd_resolver *resolver;   /* a resolver shared with other stages (borrowed;
                                it must outlive the validator), whose
                                documents are indexed already; NULL: the
                                validator makes its own from load/map/payload.
                                One validator per resolver: compiled records
                                are memoized in the resolver's schema infos */
    sd_resolve_load_fn load; /* external documents (NULL: none) */
    sd_resolve_map_fn  map;  /* $ref prefix rewriting (NULL: none) */
    void *payload;           /* for load and map */
    const char *base_uri;    /* the schema's retrieval URI (NULL: from its file name) */
    unsigned long regex_match_limit; /* PCRE2 match limit (0: 1,000,000) */
    size_t max_errors;       /* stop collecting after this many (0: 1000) */
    int lenient;             /* an unresolvable $ref is a warning and
                                validates as `true`; the rest is checked */
} sd_validate_opts;

typedef struct sd_validator sd_validator;

/** Compile `schema` (a node of `doc`; both borrowed, they must outlive the
 *  validator) as entry point 0. With `schema` NULL the validator starts
 *  empty (add entry points with sd_validator_add()). On success *out is a
 *  new validator freed with sd_validator_free(); on failure returns
 *  SD_EREF, SD_ESYNTAX (a bad regex or keyword value), SD_ENOMEM..., with
 *  errors in `diags`. */
int sd_validator_new(sd_validator **out, const sd_doc *doc, const sd_node *schema,
                     const sd_validate_opts *opts, sd_diags *diags);
/** Compile one more entry point, `schema` (a node of `doc`, borrowed),
 *  sharing the records already compiled. Returns its index (0, 1, ...) or
 *  a negative SD_E* with errors in `diags`; after a failure the validator
 *  refuses further entry points (returns the same code). */
int sd_validator_add(sd_validator *v, const sd_doc *doc, const sd_node *schema, sd_diags *diags);
void sd_validator_free(sd_validator *v);

/** One violation. Strings are owned by the sd_vresult. */
typedef struct sd_verror {
    char       *path;        /* instance JSON pointer: "/image/tag" ("" for the root) */
    char       *key;         /* dotted key path: "image.tag", "items[3].name", "(root)" */
    sd_loc      loc;         /* instance position (file borrowed from the instance doc) */
    const char *keyword;     /* "type", "enum", ... (static) */
    char       *message;     /* "found integer 3, expected string" */
    sd_loc      schema_loc;  /* where the keyword is written (file borrowed) */
    char       *schema_path; /* "#/properties/image/properties/tag/type" */
    int         at_key;      /* loc is the key (an unexpected key), not the value */
    int         end_line, end_column; /* just past the key or value (tree/span.h), set by
                                         the check at report time; 0: unknown */
} sd_verror;

typedef struct sd_vresult {
    sd_verror *items;
    size_t     count, alloc;
    size_t     total;        /* violations found, also those past max_errors */
    sd_verror *warnings;     /* findings that do not make the value invalid: a */
    size_t     nwarnings, awarnings; /* `format` that is only an annotation here */
} sd_vresult;

#define SD_VRESULT_INIT { NULL, 0, 0, 0, NULL, 0, 0 }

/** Validate `instance` and append its violations to `res` (NULL: just the
 *  verdict, fastest). Returns 0 when valid, SD_EINVALID when not, or a
 *  fatal SD_E* (SD_ELIMIT for a $ref loop without progress, nesting too
 *  deep; SD_EREF, SD_ENOMEM) with an error in `diags`. */
int sd_validate(sd_validator *v, const sd_node *instance, sd_vresult *res, sd_diags *diags);

/** Validate `instance` against entry point `entry` (sd_validator_add());
 *  sd_validate() is entry 0. Same results as sd_validate(). */
int sd_validate_entry(sd_validator *v, size_t entry, const sd_node *instance, sd_vresult *res,
                      sd_diags *diags);

/** The same for an instance held as a tape (tape.h): what the two above
 *  do after copying their tree into one, and what a JSON values file is
 *  parsed into directly, in a third of a tree's memory. Positions are
 *  computed from the tape (which is why it is not const). */
int sd_validate_tape(sd_validator *v, size_t entry, sd_tape *instance, sd_vresult *res,
                     sd_diags *diags);

/** Free the strings of every error; the result is empty and reusable. */
void sd_vresult_release(sd_vresult *res);

/** Append each error (and warning) of `res` to `diags` as
 *  "KEY: MESSAGE (SCHEMA-FILE:LINE:COL)" at the instance position. */
void sd_vresult_to_diags(const sd_vresult *res, sd_diags *diags);

/* ---- formats (format.c) ------------------------------------------------- */

/** The id of a known format name, or -1 (unknown formats never assert). */
int sd_format_id(const char *name);
/** The id to use for `name` in schemas of `draft` (the hostname of drafts
 *  4 and 6 is plain RFC 1123, without the IDNA A-label rules). */
int sd_format_id_for(const char *name, int draft);
/** 1 if `s` (`len` bytes) is a valid `id`, else 0. */
int sd_format_check(int id, const char *s, size_t len);
/** The name of a format id. */
const char *sd_format_name(int id);
/** The check an id runs, as the rules name it: the name, except
 *  "hostname-rfc1123" for the hostname of drafts 4 and 6. Static. */
const char *sd_format_check_name(int id);
/** Internal to format.c/idna.c: hostname (idn: idn-hostname) and draft 4's
 *  plain RFC 1123 hostname checks; 1 if valid. */
int sd_format__hostname(const char *s, size_t n, int idn);
int sd_format__hostname_1123(const char *s, size_t n);
/** quantity.c: a Kubernetes quantity ("500m", "1Gi": resource.ParseQuantity)
 *  and an IntOrString written as a string (a port name or a percentage);
 *  1 if valid. Also the k8s stage's checks. */
int sd_format__quantity(const char *s, size_t n);
int sd_format__int_or_string(const char *s, size_t n);
/** Compile an ECMA-262 style `pattern` with PCRE2 (UTF mode, `$` only at
 *  the very end, \uHHHH, \p{Long_Name} mapped to PCRE2's names). Returns a
 *  pcre2_code* (as void*) the caller frees with pcre2_code_free(), or NULL
 *  with the PCRE2 error code and offset set. */
void *sd_regex_compile(const char *src, size_t len, int *errcode, size_t *erroff);

/** The edit distance (Levenshtein, ASCII letters compared without case)
 *  between a[0..n) and b[0..m): what "did you mean" suggestions rank by, in
 *  the validator's messages and in the lint of values files. 999 when either
 *  is 64 bytes or longer. */
unsigned sd_edit_distance(const char *a, size_t n, const char *b, size_t m);

#endif
