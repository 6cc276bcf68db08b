/* SPDX-License-Identifier: Apache-2.0 */
/* features.c - the requests the server answers besides the lifecycle: the
 * table dispatch.c looks methods up in, each pointing at the file that
 * answers it. */
#include "lsp_int.h"

const sd_lsp_request sd_lsp__requests[] = {
    { "textDocument/documentSymbol", sd_lsp__symbols },
    { "textDocument/hover", sd_lsp__hover },
    { "textDocument/definition", sd_lsp__definition },
    { "textDocument/references", sd_lsp__references },
    { "textDocument/completion", sd_lsp__complete },
    { "textDocument/codeAction", sd_lsp__actions },
    { NULL, NULL }
};
