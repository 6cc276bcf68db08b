/* SPDX-License-Identifier: Apache-2.0 */
/* node.h - the document model: every value keeps its file:line:column.
 *
 * A loaded file (sd_doc) holds one or more documents (a YAML stream can have
 * several). Maps and sequences are both arrays of sd_pair: a map's pairs have
 * a key, a sequence's items have key == NULL. Each pair also knows the
 * comment lines written above it and the comment at the end of its line,
 * as index ranges into the file's comment table, because doc comments
 * (helm-docs, Bitnami, ytt annotations) live in comments.
 *
 * All nodes, strings and tables belong to the sd_doc's arena; they are valid
 * until sd_doc_free(). Aliases share the anchored node (the tree is a DAG). */
#ifndef SD_NODE_H
#define SD_NODE_H

#include "arena.h"
#include "diag.h"
#include "sd.h"

#include <stddef.h>
#include <stdint.h>

typedef enum sd_kind {
    SD_NULL = 0, SD_BOOL, SD_INT, SD_FLOAT, SD_STR, SD_MAP, SD_SEQ
} sd_kind;

/* How a scalar or collection was written. */
enum sd_style {
    SD_STYLE_PLAIN = 0, SD_STYLE_SQUOTED, SD_STYLE_DQUOTED,
    SD_STYLE_LITERAL, SD_STYLE_FOLDED, SD_STYLE_BLOCK, SD_STYLE_FLOW,
    SD_STYLE_JSON
};

/* A comment: the text after '#' up to the end of the line (no newline),
 * NUL-terminated, owned by the document's arena. */
typedef struct sd_comment {
    int line, column;
    int own_line;        /* 1 if nothing but blanks precede it on its line */
    const char *text;
    size_t len;
} sd_comment;

typedef struct sd_pair {
    sd_node *key;        /* string scalar for maps, NULL for sequence items */
    sd_node *value;
    uint32_t c_first;    /* leading comment block: comments[c_first..+c_count) */
    uint32_t c_count;
    int32_t  c_trail;    /* comment at the end of the key's line, or -1 */
} sd_pair;

/* 64 bytes, one cache line: a value's size and its list's length are
 * 32-bit (a document is at most SD_DOC_MAX_BYTES). */
struct sd_node {
    uint8_t  kind;       /* sd_kind */
    uint8_t  style;      /* enum sd_style */
    uint8_t  is_alias;   /* reached through *alias at least once */
    uint8_t  big;        /* integer outside int64: num.f holds it */
    uint32_t len;        /* length of str (a string may contain NUL) */
    sd_loc   loc;        /* where the value starts */
    const char *tag;     /* explicit YAML tag, or NULL */
    const char *str;     /* scalars: the string value (NUL-terminated);
                            numbers/bools/null: the text as written */
    union { int b; long long i; double f; } num;
    sd_pair *items;      /* maps and sequences */
    uint32_t n;
    uint8_t  keyidx;     /* maps: a hash index of the keys follows items[n]
                            (sd_node__set_items), so lookups are O(1) */
};

/* The largest text a document may have: sizes and counts in a node are
 * 32-bit. */
#define SD_DOC_MAX_BYTES ((size_t)0xFFFFFFF0u)

/* One document of a stream. */
typedef struct sd_root {
    sd_node *node;
    uint32_t c_first, c_count;  /* comment block above the document (`---`) */
} sd_root;

struct sd_doc {
    sd_arena    arena;
    const char *file;     /* display name, as given */
    char       *text;     /* the source text (malloc'd), NUL-terminated */
    size_t      text_len;
    int         is_json;
    sd_root    *roots;
    size_t      nroots;
    sd_comment *comments; /* sorted by position */
    size_t      ncomments;
};

enum sd_format { SD_FMT_AUTO = 0, SD_FMT_YAML, SD_FMT_JSON };

typedef struct sd_load_limits {
    size_t max_file;      /* bytes; default 64 MiB */
    int    max_depth;     /* nesting; default 1000 */
    uint64_t max_nodes;   /* nodes this document's aliases may add; default
                           * (0) and at most: what the run's budget has left */
    int    no_comments;   /* YAML: keep no comments (doc->comments empty, no
                           * pair documented): a values file that is only
                           * merged and validated (source/check.c) */
} sd_load_limits;

/** The run's budget of nodes that aliases add (a shared node counts once
 *  for each use, as if it were copied): one per thread, counted over every
 *  document the run loads (values files, schemas, `$ref` targets, `@schema`
 *  annotations). A document that would exceed it is refused with
 *  SD_ELIMIT and gives back what it took. `max` 0 is the default
 *  (SD_LOAD_MAX_ALIAS_NODES); the count starts again from 0. */
#define SD_LOAD_MAX_ALIAS_NODES ((uint64_t)50000)
void sd_load_budget_reset(uint64_t max);
/** The nodes aliases have added in this run so far. */
uint64_t sd_load_budget_used(void);

/** Read and parse `path` (JSON when it ends in .json or when `fmt` says so,
 *  YAML otherwise). On success *out is a new document the caller frees with
 *  sd_doc_free(); on failure returns SD_E* with one error in `diags`. */
int sd_doc_load_file(sd_doc **out, const char *path, enum sd_format fmt,
                     const sd_load_limits *lim, sd_diags *diags);
/** sd_doc_load_file() for a file of the chart in `chart_dir`: read with
 *  sd_file_read_in() (file.h), so a path or symbolic link leading out of
 *  the chart is refused (SD_EDENIED, reported at `path` naming it `what`)
 *  before a byte of it is read. */
int sd_doc_load_in(sd_doc **out, const char *chart_dir, const char *path, const char *what,
                   enum sd_format fmt, const sd_load_limits *lim, sd_diags *diags);
/** Parse `len` bytes of `text` (copied) named `name` in messages. */
int sd_doc_load_mem(sd_doc **out, const char *name, const char *text, size_t len,
                    enum sd_format fmt, const sd_load_limits *lim, sd_diags *diags);
/** Free `doc`, its text and every node of its arena (node.c: a document
 *  made in code is freed the same way, synth.h). NULL is allowed. */
void sd_doc_free(sd_doc *doc);

/** The first document's root, or NULL for an empty stream. Borrowed. */
sd_node *sd_doc_root(const sd_doc *doc);

/** Look a key up in a map (NULL when absent or not a map). Borrowed. */
sd_node *sd_node_get(const sd_node *map, const char *key);
const sd_pair *sd_node_get_pair(const sd_node *map, const char *key);
/** The string of a string node, or NULL for any other kind. Borrowed. */
const char *sd_node_str(const sd_node *n);
const char *sd_kind_name(sd_kind k);
/** The JSON Schema type word of a value: "null", "boolean", "integer",
 *  "number", "string", "object" or "array". Static. */
const char *sd_node_type_word(const sd_node *n);
/** The same word for a kind. Static. */
const char *sd_kind_type_word(sd_kind k);
/** Number value of an int or float node (0 otherwise). */
double sd_node_number(const sd_node *n);

/** Internal to the loaders: give `n` (a map or a list) its final pairs,
 *  a copy of `cnt` pairs of `src` in `a`. A map of more than 16 keys gets
 *  a hash index of its keys after the pairs, so that sd_node_get() stays
 *  constant-time on wide maps; the first of duplicate keys wins, as a scan
 *  would find it. Returns 0 or SD_ENOMEM. A map changed later (synth.c)
 *  must clear `keyidx`. */
int sd_node__set_items(sd_arena *a, sd_node *n, const sd_pair *src, size_t cnt);

/** Internal to the loaders: the bytes that `cnt` pairs of a node of kind
 *  `kind` take with their key index, and the adoption of `cnt` pairs
 *  already in place in zeroed arena memory of that size (the JSON loader
 *  puts a container's pairs right after its node, so that a walk of the
 *  tree reads memory in order). */
size_t sd_node__items_bytes(int kind, size_t cnt);
void sd_node__adopt_items(sd_node *n, sd_pair *items, size_t cnt);

/** Internal to the loaders: report a duplicate key among `n` map pairs
 *  (an error naming both places) and return SD_EDUP, else 0. */
int sd_node__check_dups(const sd_pair *items, size_t n, sd_diags *diags);

#endif
