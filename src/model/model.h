/* SPDX-License-Identifier: Apache-2.0 */
/* model.h - the normalized model: every source becomes one JSON tree.
 *
 * A chart, a JSON Schema, a CRD or a ytt schema all become the same model
 * (documented field by field in docs/model.md): source metadata, a tree of
 * nodes (one per schema location, each with title, description, types,
 * default, examples, constraints, flags and source positions), shared
 * definitions listed once and referenced by id, and the flat parameter rows
 * that Markdown tables show. Templates and `--format json` see exactly this.
 *
 * In: an opened source (source.h); every $ref is followed through the
 * source's resolver. Out: an sd_val tree (val.h). */
#ifndef SD_MODEL_H
#define SD_MODEL_H

#include "buf.h"
#include "diag.h"
#include "source.h"

#include "val.h"

/* Where a chart's parameter rows take their descriptions. */
enum sd_model_descriptions {
    SD_MODEL_DESC_FALLBACK = 0, /* the comment, else the schema's description (and title) */
    SD_MODEL_DESC_COMMENTS      /* comments only: the rows helm-docs prints */
};

typedef struct sd_model_opts {
    int max_depth;     /* nesting of the model tree (0: 64) */
    int descriptions;  /* enum sd_model_descriptions */
    int skip_rows;     /* 1: a chart's model without "rows" unless its comments
                          name sections (the html view groups entries by them):
                          for a page whose templates never read rows
                          (sd_templates_reads()) */
} sd_model_opts;

/** Build the model of `src` (`opts` may be NULL). Returns a new reference
 *  the caller releases with sd_val_decref(), or NULL with an error in `diags`
 *  (an unresolved reference, unless the source is lenient; out of memory).
 *  Warnings may be added either way. Values inside the model are shared
 *  between nodes (a node's id, path and key when they are the same text,
 *  the one-type `type` lists, the defaults): a caller may add fields to a
 *  node's object, as the view does, but never changes a value in place. */
sd_val *sd_model_build(sd_source *src, const sd_model_opts *opts, sd_diags *diags);

/** Append `model` to `out` as `--format json` prints it (two-space
 *  indent, keys in order, a final newline). Returns 0 or SD_ENOMEM. */
int sd_model_write_json(sd_buf *out, const sd_val *model);

/** "static_ip" -> "Static ip", "replicaCount" -> "Replica count" (seed 004
 *  Part 6, rails humanize, with camelCase split). Caller frees. */
char *sd_humanize(const char *key);

#endif
