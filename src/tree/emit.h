/* SPDX-License-Identifier: Apache-2.0 */
/* emit.h - write documents back out: JSON text (with or without positions)
 * and numbers formatted the shortest way that reads back the same. */
#ifndef SD_EMIT_H
#define SD_EMIT_H

#include "buf.h"
#include "node.h"
#include "pmap.h"

#include "val.h"

enum sd_emit_flags {
    SD_EMIT_PRETTY    = 1 << 0,  /* newlines and two-space indentation */
    SD_EMIT_POSITIONS = 1 << 1   /* the document view: kind, line, column, comments */
};

/** Append `n` as JSON to `b` (plain values, or the positioned document view
 *  with SD_EMIT_POSITIONS). Errors are sticky in `b`. */
void sd_emit_json(sd_buf *b, const sd_doc *doc, const sd_node *n, int flags, int indent);
/** Append a whole file (every document, every comment) in the positioned view. */
void sd_emit_doc_json(sd_buf *b, const sd_doc *doc);
/** Append `s` as a quoted JSON string (also safe inside HTML <script>). */
void sd_emit_json_string(sd_buf *b, const char *s, size_t len);
/** Append a double the shortest way that strtod reads back exactly;
 *  integral values print without ".0", non-finite values as null. */
void sd_emit_number(sd_buf *b, double d);

/** A new sd_val (new ref) holding the same data as `n` (no
 *  positions); NULL when out of memory. Big integers become reals. */
sd_val *sd_node_to_val(const sd_node *n);
/** sd_node_to_val() through `memo` (node -> its value, a reference held),
 *  which it fills: a node converted before (a map's member, an alias) is
 *  given out again, so converting a map and then each of its members copies
 *  nothing twice. The values must not be changed while they are shared.
 *  Release with sd_node_val_memo_release(). */
sd_val *sd_node_to_val_memo(const sd_node *n, sd_pmap *memo);
void sd_node_val_memo_release(sd_pmap *memo);

/** Append `v` as block YAML (a document body, ending in a newline), each
 *  line indented by `indent` spaces (emit_yaml.c). Strings are quoted when
 *  a YAML 1.1 or 1.2 reader would take them for another type. */
void sd_emit_yaml(sd_buf *out, sd_val *v, int indent);

#endif
