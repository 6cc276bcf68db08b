/* SPDX-License-Identifier: Apache-2.0 */
/* load_tape.h - a YAML values file straight into a tape (load_tape.c), for
 * validating it without an sd_node tree (issue 41: a third of the memory). */
#ifndef SD_LOAD_TAPE_H
#define SD_LOAD_TAPE_H

#include "node.h"
#include "tape.h"

#include <stddef.h>

/** Parse `len` bytes of YAML `text` (NUL-terminated at text[len],
 *  writable: plain and quoted scalars are left in it, a NUL written after
 *  each) named `file` into *t, with the positions, typing, aliases (under
 *  the run's alias budget, node.h), merge keys and errors of
 *  sd_doc_load_mem(). Returns 0 (the run's budget is charged for the
 *  aliases), SD_ENOMEM, or SD_ESYNTAX for anything the tape leaves to the
 *  loader: an error of any kind (the loader then reports it), or what the
 *  tape does not keep (not one document, tags, anchors on keys or on
 *  numbers, line breaks other than LF, a byte order mark, a text of
 *  SD_TAPE_MAX_TEXT bytes or more); `text` may then have been rewritten,
 *  so the caller reads the file again. `lim` as in sd_doc_load_file(),
 *  NULL for the defaults. The caller frees *t with sd_tape_free() (only
 *  after 0); `text` and `file` must outlive it. */
int sd_load_tape_yaml(sd_tape *t, char *text, size_t len, const char *file,
                      const sd_load_limits *lim);

#endif
