/* SPDX-License-Identifier: Apache-2.0 */
/* synth.h - build documents in code (derived schemas) whose nodes carry the
 * positions of the text they were derived from, so that a schema inferred
 * from values.yaml or translated from a ytt schema still points at
 * values.yaml:12:5 in every message. All nodes live in the doc's arena. */
#ifndef SD_SYNTH_H
#define SD_SYNTH_H

#include "node.h"

/** A new empty document named `file` (one root, set with sd_synth_set_root).
 *  Freed with sd_doc_free(). NULL when out of memory. */
sd_doc *sd_synth_new(const char *file);
void sd_synth_set_root(sd_doc *doc, sd_node *root);

/* Constructors: NULL when out of memory. `loc.file` is borrowed. */
sd_node *sd_synth_map(sd_doc *doc, sd_loc loc);
sd_node *sd_synth_seq(sd_doc *doc, sd_loc loc);
sd_node *sd_synth_str(sd_doc *doc, sd_loc loc, const char *s);
sd_node *sd_synth_int(sd_doc *doc, sd_loc loc, long long v);
sd_node *sd_synth_num(sd_doc *doc, sd_loc loc, double v);
sd_node *sd_synth_bool(sd_doc *doc, sd_loc loc, int v);
sd_node *sd_synth_null(sd_doc *doc, sd_loc loc);
/** Deep copy of `src` (from any document) into `doc`, positions kept. */
sd_node *sd_synth_copy(sd_doc *doc, const sd_node *src);

/** Set `key` in `map` (replacing an existing value) / append to `seq`.
 *  Return 0 or SD_ENOMEM. */
int sd_synth_set(sd_doc *doc, sd_node *map, const char *key, sd_node *value);
int sd_synth_push(sd_doc *doc, sd_node *seq, sd_node *value);

#endif
