/* SPDX-License-Identifier: Apache-2.0 */
/* readme.h - keep generated docs inside a hand-written file: rewrite only
 * the region between the schemadoc markers, and show what would change. */
#ifndef SD_README_H
#define SD_README_H

#include "buf.h"
#include "diag.h"

#include "val.h"
#include <stddef.h>

#define SD_README_START "<!-- schemadoc:start -->"
#define SD_README_END   "<!-- schemadoc:end -->"

/** Append to `out` the text `old` (`old_len` bytes, may be empty) with the
 *  lines between the start and end marker lines replaced by `gen`; when the
 *  markers are absent they are added, with `gen`, at the end. Everything
 *  outside the region is kept byte for byte. Returns 0, or SD_ESYNTAX with a
 *  diagnostic at `name` when only one marker is present or they are in the
 *  wrong order. */
int sd_readme_splice(sd_buf *out, const char *old, size_t old_len,
                     const char *gen, size_t gen_len, const char *name,
                     sd_diags *diags);

/** Whether `s` has a line holding only the start or the end marker. */
int sd_readme_has_markers(const char *s, size_t len);

/** Rewrite the README `old` (`old_len` bytes) as Bitnami's readme-generator
 *  does (docs/gotmpl.md): its first "## Parameters" heading (any level of
 *  two or more '#') keeps its place and the tables below it, down to the
 *  last table-like line before the next heading of that level, are replaced
 *  by the chart's parameter tables: readme-generator's padded
 *  "| Name | Description | Value |" tables for a Bitnami chart, helm-docs'
 *  chart.valuesTable otherwise. The whole new README goes to `out`; line
 *  ends become "\n" as readme-generator writes them. Returns 0, SD_ENOTFOUND
 *  (no diagnostic, `out` untouched) when there is no Parameters heading, or
 *  another negative code with a diagnostic at `name`. */
int sd_readme_params(sd_buf *out, const char *old, size_t old_len, sd_val *model,
                     const char *name, sd_diags *diags);

/** Append a unified diff (3 lines of context, `--- a/NAME` / `+++ b/NAME`
 *  headers) turning `a` into `b` to `out`; nothing when they are equal.
 *  Returns the number of changed lines (0: identical). */
size_t sd_readme_diff(sd_buf *out, const char *a, size_t a_len,
                      const char *b, size_t b_len, const char *name);

#endif
