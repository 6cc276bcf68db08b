/* SPDX-License-Identifier: Apache-2.0 */
/* check.h - values files checked against a source, as the tools that
 * consume them would check them (docs/validate.md):
 *   - a chart: values.yaml, then each file merged over it as `helm -f a -f b`
 *     does, validated once against values.schema.json; each subchart's part
 *     (under its alias, over its own values.yaml) against its own schema;
 *   - a CRD file: each document against the version its apiVersion names;
 *   - a ytt schema: the schema's defaults, then each file as an overlay,
 *     validated once; deprecated keys warn, removed keys fail;
 *   - any other schema: each file (each document of it) on its own.
 * The schemas are compiled once, through the source's validator.
 *
 * In: an opened source and file names ("-" is standard input). Out: one
 * result per thing validated, each with its verdict, its violations and the
 * range of diagnostics recorded for it, and the effective values (merged,
 * for charts and ytt). */
#ifndef SD_CHECK_H
#define SD_CHECK_H

#include "source.h"
#include "validate.h"

typedef struct sd_check_opts {
    int    draft;        /* dialect forced on the schemas (wins over `$schema`); 0: none */
    int    formats;      /* enum sd_format_mode; ytt asserts unless told to ignore */
    size_t max_errors;   /* per result (0: 1000) */
    int    strict;       /* keys nobody knows are errors, not warnings */
    int    each;         /* a chart (ytt schema): each file over values.yaml (the
                            defaults) on its own, not merged */
    int    by_position;  /* errors and warnings sorted by file, line, column (what a
                            person reads); 0: the validator's order, which the JSON
                            output and the browser rules share (docs/rules.md) */
    /* a values file given as text (an editor's unsaved buffer, src/lsp/):
     * the file named `mem_name` is read from `mem_text` (`mem_len` bytes),
     * never from disk, and its positions are named `mem_name` */
    const char *mem_name;
    const char *mem_text;
    size_t      mem_len;
    int         mem_defaults; /* a chart: that text is values.yaml itself, the
                                 defaults (not merged over the file on disk) */
} sd_check_opts;

/** One thing validated. Owned by the sd_check. */
typedef struct sd_check_result {
    char          *label;      /* "values.yaml + prod.yaml", "x.yaml (subchart redis)" */
    const sd_node *values;     /* the instance; NULL when it could not be read, or
                                  when it was parsed straight into a tape (a
                                  file against a plain schema: tape.h,
                                  load_tape.h) */
    int            status;     /* 0 valid, SD_EINVALID, or another SD_E* (an input error) */
    sd_vresult     res;        /* violations and warnings */
    size_t         diag_first; /* diagnostics recorded for it: diags->items[first..+count) */
    size_t         diag_count;
} sd_check_result;

typedef struct sd_check sd_check;

/** Check `nfiles` values files against `src`. Diagnostics (load errors,
 *  warnings, compile errors, and the violations of each result as
 *  recorded by sd_check_result_diags()) go to `diags`. Returns 0 with *out
 *  set (every result then has its own status), or a negative SD_E* with
 *  *out NULL when nothing could be validated (a schema that does not
 *  compile, a values file of a chart or ytt run that cannot be read). */
int sd_check_run(sd_check **out, sd_source *src, const char *const *files, size_t nfiles,
                 const sd_check_opts *opts, sd_diags *diags);
void sd_check_free(sd_check *chk);

size_t sd_check_count(const sd_check *chk);

/** The document the run read from the file named `file` (a values file,
 *  or the text of `mem_name`), handed over: the caller frees it with
 *  sd_doc_free() (positions of the results keep pointing at its name, so
 *  read them before). NULL when the run kept none by that name (it could
 *  not be read, it was parsed straight into a tape). */
sd_doc *sd_check_take_doc(sd_check *chk, const char *file);
const sd_check_result *sd_check_result_at(const sd_check *chk, size_t i);

/** The values a chart or ytt run validated (merged), or NULL; and the schema
 *  whose defaults fill them in (sd_merge_defaults). Borrowed. */
const sd_node *sd_check_effective(const sd_check *chk);
const sd_node *sd_check_effective_schema(const sd_check *chk);

/** The exit status of a run: 0 all valid, 1 a violation, 2 an input error. */
int sd_check_status(const sd_check *chk);

/** The validator options a check (or a rules export) of `src` compiles its
 *  schemas with: a ytt schema's `format=` rules always assert unless
 *  `formats` says to ignore them. */
void sd_check_validate_opts(sd_validate_opts *out, const sd_source *src, const sd_check_opts *opts);

/** What the lint knows of a chart beside values.yaml and the schema (all
 *  borrowed; any may be NULL): how its templates use each values path (no
 *  templates/: the default's shape decides what is free-form), and the doc
 *  comments of its values.yaml (Bitnami `@param key DEPRECATED ...`). */
typedef struct sd_check_k8s sd_check_k8s;
typedef struct sd_lint_chart {
    const struct sd_tmplrefs *refs;
    const struct sd_annots   *annots;
    sd_check_k8s             *k8s;   /* the chart's Kubernetes types (check_k8s.c), made on first use */
    int shape_used;   /* set by the lint: a key was judged without templates to read */
} sd_lint_chart;

/** Internal (lint.c): warn (error when `strict`) on keys of `values` (a
 *  tape: parsed, or copied from a tree whose nodes `defaults` may share)
 *  that neither `defaults` (a chart's values.yaml, or NULL) nor `schema`
 *  (a node of `doc`; $refs through `src`) knows, with the closest known
 *  key, and on values set for deprecated keys (`deprecated: true`, a
 *  "Deprecated:" description, or such a values.yaml comment) outside
 *  `defaults_file`. `extra`: more names known at the root; `lc`: what the
 *  chart's templates and comments add (may be NULL). Findings are appended
 *  to `res`. Returns 0 or SD_ENOMEM. */
int sd_check__lint(sd_source *src, sd_tape *values, const sd_node *defaults,
                   const char *defaults_file, const sd_doc *doc, const sd_node *schema,
                   const char *const *extra, size_t nextra, int strict,
                   sd_lint_chart *lc, sd_vresult *res);

struct sd_kw;
/** Internal (lint.c): 1 when the keyword of row `kw` (keywords.def) holds
 *  subschemas that apply to the value itself and may allow keys of it
 *  (allOf, anyOf, oneOf, then, else), so the lint gathers them with the
 *  schema (a row's name and its REC / RECS shape come from the table).
 *  Reads only. */
int sd_check__adds_keys(const struct sd_kw *kw);

/** Internal (check_k8s.c): check the keys of `chart` that its evidence
 *  types as Kubernetes types (docs/k8s.md) in `values` (the merged values
 *  validated), where `schema` (the one validated against: the chart's, or
 *  the one made for it; NULL: none) leaves them open; findings that
 *  `res` has no other at the same place are appended to it. *state (NULL
 *  at first) keeps the chart's types and typed keys; free it with
 *  sd_check__k8s_free(). Nothing under --k8s-types off. Returns 0 or
 *  SD_ENOMEM. */
int sd_check__k8s(sd_check_k8s **state, sd_source *src, const sd_chart *chart, const sd_node *schema,
                  const sd_node *values, sd_vresult *res);
void sd_check__k8s_free(sd_check_k8s *st);
/** Internal (check_k8s.c, for check_rules.c): the Kubernetes layer of
 *  `src`'s rules document (docs/rules.md "k8s"): for a chart with a schema
 *  of its own, the keys its evidence types and that schema leaves open,
 *  with the definitions they need, appended to `out` as ",\n \"k8s\": {...}"
 *  (nothing for any other source, or under --k8s-types off). Returns 0 or
 *  SD_ENOMEM. */
int sd_check__k8s_rules(sd_buf *out, sd_source *src);

/** Internal (check.c, check_rules.c): warn once per run (*said), at the
 *  first CEL rule (x-kubernetes-validations) under `n`, that CEL rules are
 *  not checked `where` ("in the rules"): the API server checks them. */
void sd_check__cel_note(sd_diags *diags, const sd_node *n, int *said, int depth, const char *where);

/** Internal (check.c, check_ends.c): a text a run read, by the name its
 *  positions carry (all borrowed). */
typedef struct sd_check_text {
    const char *file, *text;
    size_t      len;
    const char *reread;     /* the file to read the text from again when
                               `text` is a YAML tape's (load_tape.c writes
                               each string's NUL over the byte after it: a
                               line break, a `:`, a quote); NULL: as read */
} sd_check_text;

/** Internal (check_ends.c): set the end (tree/span.h) of each finding of
 *  the `nres` results `res` and of each diagnostic in diags[from..) (as a
 *  token) that is about one of `texts`; the others keep 0. Returns 0, or
 *  SD_ENOMEM when a text could not be indexed (its findings keep 0). */
int sd_check__ends(const sd_check_text *texts, size_t ntexts, sd_vresult *const *res, size_t nres,
                   sd_diags *diags, size_t from);

/** The rules document (docs/rules.md) of `src`: one entry per schema of the
 *  source, with what the interpreter needs beside the program (a
 *  subchart's alias and defaults, a ytt schema's defaults, a CRD version's
 *  group, version and kind, the CRD fallback), compiled with `opts`.
 *  Appended to `out`. Returns 0 or SD_E* (a schema that does not compile,
 *  a source without any schema) with errors in `diags`. */
int sd_check_rules(sd_buf *out, sd_source *src, const sd_check_opts *opts, sd_diags *diags);

/** The results as the JSON array of `validate --output json`
 *  (docs/validate.md) appended to `out`; `diags` is the list the run wrote. */
void sd_check_json(sd_buf *out, const sd_check *chk, const sd_diags *diags);
/** The same array when the run failed before any result: one object per
 *  file, each carrying every error of `diags` as its inputErrors. */
void sd_check_json_failed(sd_buf *out, const char *const *files, size_t nfiles,
                          const sd_diags *diags);

#endif
