/* SPDX-License-Identifier: Apache-2.0 */
/* lsp.h - `schemadoc lsp`: the language server of values files (issue 44,
 * docs/lsp.md). In: JSON-RPC 2.0 messages with Content-Length framing on a
 * file descriptor. Out: responses and notifications on another. The
 * command line calls sd_lsp_serve(); the rest of src/lsp/ is lsp_int.h. */
#ifndef SD_LSP_H
#define SD_LSP_H

#include "source.h"

#include <stddef.h>

/* The largest message body accepted (Content-Length): a larger one is
 * refused with an error response and skipped without being kept. */
#define SD_LSP_MAX_MESSAGE ((size_t)64 << 20)

typedef struct sd_lsp_opts {
    size_t          max_message;  /* 0: SD_LSP_MAX_MESSAGE */
    sd_source_opts  source;       /* how each chart is opened (--offline, --map...) */
} sd_lsp_opts;

/** Serve one client: read messages from `in_fd` and write to `out_fd`
 *  until `exit` or the end of the input. Returns the exit status: 0 after
 *  shutdown then exit, 1 when the input ended or `exit` came without
 *  shutdown (as the protocol says). */
int sd_lsp_serve(int in_fd, int out_fd, const sd_lsp_opts *opts);

#endif
