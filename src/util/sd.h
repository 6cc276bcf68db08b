/* sd.h - schemadoc's public API: error codes, positions, opaque handles.
 *
 * Only standard headers here. Module headers (node.h, diag.h, ...) carry the
 * details; this one is what an embedding program needs to know. */
#ifndef SD_H
#define SD_H

#include <stddef.h>

#define SD_VERSION "0.1.0"

/* Error codes: 0 is success, failures are negative. */
enum sd_error {
    SD_OK       = 0,
    SD_ERROR    = -1,  /* generic */
    SD_ENOMEM   = -2,
    SD_ENOTFOUND= -3,  /* missing file, key, pointer segment */
    SD_ESYNTAX  = -4,  /* malformed YAML / JSON / template */
    SD_EREF     = -5,  /* unresolvable $ref */
    SD_ELIMIT   = -6,  /* a size, depth or time bound was reached */
    SD_EIO      = -7,  /* read/write failure */
    SD_EUSAGE   = -8,  /* bad command line */
    SD_EINVALID = -9,  /* input read but found wanting (validation, stale docs) */
    SD_EDUP     = -10, /* duplicate mapping key */
    SD_EDENIED  = -11  /* confinement: path or URL not allowed */
};

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
