/* SPDX-License-Identifier: Apache-2.0 */
/* load_int.h - internal to the loader (load.c, json.c, comments.c,
 * load_tape.c): the JSON parser and the comment scanner that
 * sd_doc_load_mem() calls, and the run's alias budget. */
#ifndef SD_LOAD_INT_H
#define SD_LOAD_INT_H

#include "node.h"

/** Parse doc->text as JSON into doc->roots (json.c). Returns 0 or SD_E*
 *  with one error in `diags`. */
int sd_json__parse(sd_doc *doc, const sd_load_limits *lim, sd_diags *diags);

/** Scan doc->text for comments and attach them to the pairs of doc's
 *  trees (comments.c). `spans` holds `nspans` byte offsets, start and end
 *  of every quoted or block scalar, in order (comments are not looked for
 *  inside them); they arrive as character offsets and are converted in
 *  place. */
void sd_load__attach_comments(sd_doc *doc, size_t *spans, size_t nspans);
/** What sd_load__attach_comments() leaves when no comment is kept
 *  (sd_load_limits.no_comments): every pair and root undocumented. */
void sd_load__no_comments(sd_doc *doc);

/** The nodes aliases may still add to a document loaded under `lim`
 *  (NULL: the defaults): what the run's budget has left (node.h), or
 *  lim->max_nodes when that is less. */
uint64_t sd_load__alias_left(const sd_load_limits *lim);
/** Charge the run's budget with `n` nodes a document's aliases added. */
void sd_load__alias_spend(uint64_t n);

#endif
