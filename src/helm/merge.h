/* SPDX-License-Identifier: Apache-2.0 */
/* merge.h - values files merged as Helm merges them (`helm -f a -f b`):
 * maps deep-merged, later files win, a null deletes the key. The result is
 * a synthetic tree whose leaves are the original nodes, so every value
 * still points at the file and line it came from. */
#ifndef SD_MERGE_H
#define SD_MERGE_H

#include "node.h"

/** Merge `over` onto `base` (either may be NULL) into nodes allocated in
 *  `out`'s arena; neither input is changed. Returns the merged node (NULL
 *  when both are NULL, or out of memory: check `*oom`). */
sd_node *sd_merge_values(sd_doc *out, const sd_node *base, const sd_node *over, int *oom);

/** sd_merge_values() as ytt (0.32 and later) overlays a data-values file
 *  `over` (read from `doc`, whose comments hold its `#@overlay/...`
 *  annotations): a list's items are appended to the list of `base` unless
 *  `#@overlay/replace` is on its key; an item's `#@overlay/match by=...`
 *  merges it into (or with `#@overlay/replace` / `#@overlay/remove`
 *  replaces, removes) the items it matches (docs/validate.md). Same
 *  ownership as sd_merge_values(). */
sd_node *sd_merge_ytt_values(sd_doc *out, const sd_node *base, const sd_node *over, const sd_doc *doc, int *oom);

/** Fill in defaults: every key the schema `schema` (a JSON Schema node
 *  tree, properties + default) gives a default for and `values` lacks is
 *  added, recursively, as ytt and Helm's schema defaults do. */
sd_node *sd_merge_defaults(sd_doc *out, const sd_node *values, const sd_node *schema, int *oom);

#endif
