/* SPDX-License-Identifier: Apache-2.0 */
/* ytt.h - ytt schemas (seeds 003 and 004, and current ytt) -> JSON Schema.
 *
 * A document marked `#@data/values-schema` (or the seeds'
 * `#@schema/match data_values=True` / `#@schema/definition`) is an example
 * of the data values: types and defaults are inferred from it (seed 004
 * Part 4) and refined by `#@schema/...` annotations, whose arguments are
 * Starlark literals. The result is a synthetic JSON Schema (2020-12) whose
 * nodes point at the ytt file's lines, with extensions for what JSON Schema
 * cannot say: x-deprecation, x-removed, x-examples (with titles),
 * x-ytt-rules (custom rules as source text), x-ytt-key. */
#ifndef SD_YTT_H
#define SD_YTT_H

#include "node.h"

/** 1 if `doc` holds a ytt schema document. */
int sd_ytt_is_schema(const sd_doc *doc);

/** Translate the schema document of `doc` into a new synthetic JSON Schema
 *  document (freed with sd_doc_free). Warnings (custom rules that are not
 *  enforced, unknown annotations) go to `diags`; errors (a malformed
 *  annotation) fail with SD_ESYNTAX and *out NULL. */
int sd_ytt_schema(sd_doc **out, const sd_doc *doc, sd_diags *diags);

#endif
