/* SPDX-License-Identifier: Apache-2.0 */
/* sd.h - what every stage shares: the public header's error codes and
 * version (schemadoc.h), source positions and the document handles.
 * Module headers (node.h, diag.h, ...) carry the details. */
#ifndef SD_H
#define SD_H

#include <stddef.h>

#include "schemadoc.h"

/** A position in a source text; 1-based, 0 = unknown. `file` is borrowed
 *  (it lives as long as the document that owns the position). */
typedef struct sd_loc {
    const char *file;
    int line, column;
} sd_loc;

typedef struct sd_doc   sd_doc;    /* a loaded file: one or more YAML/JSON documents */
typedef struct sd_node  sd_node;   /* one value in a document, with its position */
typedef struct sd_diags sd_diags;  /* a list of diagnostics */

#endif
