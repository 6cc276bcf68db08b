/* SPDX-License-Identifier: Apache-2.0 */
/* tmplrefs.h - a chart's templates/ -> how they use each values path.
 *
 * The lint (source/lint.c) judges the keys of a values file against the
 * chart's values.yaml and schema; neither says which maps are application
 * configuration that the chart hands on whole (`{{ toYaml .Values.config |
 * nindent 4 }}`), which keys are names (`{{ range $name, $r :=
 * .Values.routes }}`), or which keys the templates read although
 * values.yaml does not write them. The templates say it: this scanner
 * reads their actions (tokens from src/gotmpl's lexer; Helm's functions need
 * not be known, only their names), follows the dot through
 * `with`/`range`, the root context through `$`, `$root := .` and
 * `$root.Values`, and `$variables` through `:=`/`=`, and records each values
 * path it meets with how it was used.
 *
 * In: a chart directory (its templates/, recursively; regular files only,
 * never leaving the chart) or one template text. Out: the paths, each a
 * list of keys where "*" stands for any key or list index. Bounded: at most
 * 2,000 files and 32 MiB of text are read, 1,048,576 distinct keys kept;
 * time and memory grow linearly with the text. */
#ifndef SD_TMPLREFS_H
#define SD_TMPLREFS_H

#include "arena.h"
#include "diag.h"

#include <stddef.h>
#include <stdint.h>

/* How a path is used (flags of one sd_tmplnode). */
enum sd_tmplref_use {
    SD_TREF_READ  = 1 << 0,  /* its value is read: the key exists */
    SD_TREF_WHOLE = 1 << 1,  /* handed whole to toYaml, toJson, tpl, include,
                                template: free-form below it */
    SD_TREF_NAMES = 1 << 2,  /* ranged over: its keys are names */
    SD_TREF_DUMP  = 1 << 3   /* (with WHOLE) written out whole by toYaml,
                                toJson or tpl: free-form even where a key
                                below it is also read */
};

/* One node of the trie of paths: a key below its parent. Paths share their
 * prefixes, so memory grows with the distinct keys the templates write,
 * not with the length of each path. */
typedef struct sd_tmplnode {
    const char *seg;         /* the key ("*": any key or index; "" at the root) */
    uint32_t    len;         /* strlen(seg) */
    uint32_t    parent;      /* index of the parent (the root, 0: itself) */
    uint32_t    child, next; /* first child, next sibling: index + 1, 0: none */
    uint16_t    depth;       /* keys from the root (the root: 0) */
    uint8_t     use;         /* enum sd_tmplref_use, or'ed over every use */
    uint8_t     mark;        /* sd_tmplrefs_scan's conclusions (tmplrefs.c) */
} sd_tmplnode;

/** Node 0 is `.Values`. The strings live in `arena`; sd_tmplrefs_release()
 *  frees all. */
typedef struct sd_tmplrefs {
    sd_tmplnode *nodes;
    size_t       nnodes, anodes;
    size_t       n;              /* paths recorded: nodes with a use */
    size_t       files;          /* template files read */
    int          has_templates;  /* the chart has a templates/ directory with a file */
    int          oom;
    uint32_t    *slot;           /* (parent, key) -> node index + 1, 0 empty */
    size_t       cap;
    sd_arena     arena;
} sd_tmplrefs;

#define SD_TMPLREFS_INIT { NULL, 0, 0, 0, 0, 0, 0, NULL, 0, SD_ARENA_INIT }

/** Read every file under `chart_dir`/templates into `r` (initialised with
 *  SD_TMPLREFS_INIT). No templates/ is not an error: r->has_templates stays
 *  0. A file that cannot be read is skipped, and so are symbolic links and
 *  files whose real path leaves `chart_dir` (sd_file_read_in; a templates/
 *  that leads out is refused by sd_chart_load). Returns 0 or SD_ENOMEM. */
int sd_tmplrefs_scan_dir(sd_tmplrefs *r, const char *chart_dir);
/** Scan one template text (`len` bytes) into `r`. Returns 0 or SD_ENOMEM. */
int sd_tmplrefs_scan(sd_tmplrefs *r, const char *text, size_t len);

/** What the templates say of the values path `seg[0..nseg)` (NULL entries
 *  are list indexes): SD_TREF_WHOLE when it lies at or below a path written
 *  out whole (toYaml, toJson, tpl), or handed on whole (include, template)
 *  where the templates do not also read keys below it one by one;
 *  SD_TREF_NAMES when it is ranged over; SD_TREF_READ when a path read
 *  starts with it (so the key exists). Time: the depth of the path. */
unsigned sd_tmplrefs_use(const sd_tmplrefs *r, const char *const *seg, size_t nseg);

/** The keys of node `i` (borrowed, into `r`) in seg[0..depth): at most
 *  `max`; returns the node's depth. */
size_t sd_tmplrefs_path(const sd_tmplrefs *r, size_t i, const char **seg, size_t max);

void sd_tmplrefs_release(sd_tmplrefs *r);

/* ---- for src/k8s/places.c: what each action does, as it is read -------- */

#define SD_TMPLACT_WHOLE 8   /* nodes one action writes out whole, kept */
#define SD_TMPLACT_PAIRS 8   /* (dict "k" v ...) pairs of an include, kept */
#define SD_TMPL_ROOTCTX  UINT32_MAX   /* sd_tmplact.arg: the root context */

#define SD_TMPLACT_TERMS 16  /* values terms one action writes, kept */

/** A term of an action that stands for values: `.Values.a.b`, `.b` under
 *  `with .Values.a`, `$r.host` in a range: its bytes [start, end) in the
 *  text, the nodes it may be (node ids; a named template's dot is below
 *  sd_tmplrefs__param()), and how it is used (enum sd_tmplref_use). */
typedef struct sd_tmplterm {
    size_t   start, end;
    uint32_t node[4];
    size_t   nnode;
    unsigned use;
} sd_tmplterm;

enum sd_tmplact_kind {
    SD_TACT_OTHER,   /* an action that opens or closes nothing */
    SD_TACT_OPEN,    /* if, with, range, block: closed by an end */
    SD_TACT_DEFINE,  /* define "name": its body runs to the matching end */
    SD_TACT_END
};

/** A (dict "k" v ...) pair handed to an include: the key (borrowed from
 *  the text) and the node of its value. */
typedef struct sd_tmplpair { const char *k; size_t kn; uint32_t node; } sd_tmplpair;

/** One action, reported after it is read. Node ids index r->nodes; under
 *  sd_tmplrefs__scan_each, a named template's dot is the node
 *  sd_tmplrefs__param() (its paths are relative to what the caller passes). */
typedef struct sd_tmplact {
    size_t      start, end;  /* byte offsets: "{{" .. just after "}}" */
    int         line, col;   /* of "{{", 1-based */
    int         kind;        /* enum sd_tmplact_kind */
    const char *name;        /* define, include, template: the template name */
    size_t      name_n;      /* (borrowed from the text; NULL: none) */
    uint32_t    whole[SD_TMPLACT_WHOLE];  /* written out whole (toYaml, toJson, tpl) */
    size_t      nwhole;
    uint32_t    arg[4];      /* include/template: what the argument stands for */
    size_t      narg;        /* (SD_TMPL_ROOTCTX: the root context) */
    sd_tmplpair pair[SD_TMPLACT_PAIRS];
    uint32_t    tested[4];   /* the arguments of typeOf, typeIs, kindOf, kindIs */
    size_t      ntested;
    size_t      npair;       /* the argument is (dict "k" v ...): its pairs */
    sd_tmplterm term[SD_TMPLACT_TERMS];  /* its values terms, in order (the LSP's */
    size_t      nterm;                   /* references, src/lsp/references.c) */
} sd_tmplact;

/** As sd_tmplrefs_scan() (without the final marks), calling `fn` after
 *  each action of `text`; `fn` returning non-zero stops the scan. Returns 0
 *  or SD_ENOMEM. */
int sd_tmplrefs__scan_each(sd_tmplrefs *r, const char *text, size_t len,
                           int (*fn)(const sd_tmplact *act, void *payload), void *payload);
/** The node that stands for a named template's dot (made on first call; a
 *  child of node 0 whose key is "\x01", which no template writes). */
uint32_t sd_tmplrefs__param(sd_tmplrefs *r);

/** Call `fn` with each regular file under `chart_dir`/templates (its path
 *  relative to `chart_dir`, its text, borrowed for the call), with the
 *  bounds and confinement of sd_tmplrefs_scan_dir(); `*has_templates` is
 *  set when there is one. Returns 0, SD_ENOMEM, or what `fn` returned. */
int sd_tmplrefs__each_file(const char *chart_dir, int *has_templates,
                           int (*fn)(const char *rel, const char *text, size_t len, void *payload),
                           void *payload);

#endif
