/* SPDX-License-Identifier: Apache-2.0 */
/* diff.h - what changed for users between two versions of a source, and
 * whether a user's values still fit the new one.
 *
 * In: the two models (src/model: sd_model_build) of OLD and NEW, and the
 * two sources they were built from (for hints the model does not carry,
 * such as `x-renamed-from`). Out: the change list documented in
 * docs/diff.md, an sd_val tree
 *   {"old": {...}, "new": {...}, "kind": "chart", "counts": {...},
 *    "changes": [{"path", "change", "from", "to", ...}]}
 * written as JSON or Markdown here, as HTML by the render stage. The
 * upgrade check (sd_diff_upgrade) adds a user's values files to that. */
#ifndef SD_DIFF_H
#define SD_DIFF_H

#include "buf.h"
#include "diag.h"
#include "source.h"

#include "val.h"

typedef struct sd_diff_opts {
    int descriptions;  /* also list description changes (noise otherwise) */
} sd_diff_opts;

/** Compare `old_model` with `new_model` (both borrowed; `old_src` and
 *  `new_src` may be NULL: no schema hints then). Returns a new reference
 *  (docs/diff.md) the caller releases with sd_val_decref(), or NULL when out
 *  of memory (reported in `diags`). */
sd_val *sd_diff_models(const sd_val *old_model, const sd_val *new_model,
                       const sd_source *old_src, const sd_source *new_src,
                       const sd_diff_opts *opts, sd_diags *diags);

/** The number of changes in a diff. */
size_t sd_diff_count(const sd_val *diff);

/** Append the diff as JSON (two-space indent, final newline). Returns 0 or SD_ENOMEM. */
int sd_diff_write_json(sd_buf *out, const sd_val *diff);

/** Append the diff as a Markdown table (docs/diff.md), ready to paste into
 *  a chart's "Upgrading" section. Every string from the inputs is escaped
 *  so that it stays text. Returns 0 or SD_ENOMEM. */
int sd_diff_write_md(sd_buf *out, const sd_val *diff);

/** Add what the html template (templates/diff/html.mustache) shows to
 *  `diff` in place: each change's from_text/to_text, count_list,
 *  has_changes, crd, page_title and `generator`. Returns 0 or SD_ENOMEM. */
int sd_diff_view(sd_val *diff, const char *generator);

/** `value` as the one-line text a table cell shows: a scalar as YAML
 *  (`postgres`, `""`, `5432`, `true`, `null`), a list or map as compact
 *  flow YAML (JSON). Appended to `out`. */
void sd_diff_value_text(sd_buf *out, const sd_val *value);

/** The upgrade check: what happens to the user's `files` (values files,
 *  merged in order as `helm -f` does) when they move from OLD to NEW.
 *  `diff` is sd_diff_models(OLD, NEW). The values are validated against
 *  NEW with the source stage's check (check.h). Returns a new reference
 *  {"findings": [{"path", "finding", "message", ...}], "validation": [...]}
 *  (docs/diff.md), or NULL with an error in `diags` (a values file that
 *  cannot be read, a schema that does not compile). */
sd_val *sd_diff_upgrade(const sd_val *diff, const sd_val *old_model, const sd_val *new_model,
                        sd_source *new_src, const char *const *files, size_t nfiles,
                        sd_diags *diags);

/** The upgrade findings as text, one line each ("PATH: MESSAGE"). */
void sd_diff_upgrade_text(sd_buf *out, const sd_val *report);

#endif
