/* SPDX-License-Identifier: Apache-2.0 */
/* cmd_lsp.c - `schemadoc lsp [--stdio] [SOURCE OPTIONS]`: the language
 * server of values files on standard input and output (src/lsp/,
 * docs/lsp.md). Exit 0 after shutdown and exit, 1 when the client left
 * without them, 2 on a usage error. */
#include "cli.h"
#include "lsp.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int sd_cmd_lsp(int argc, char **argv)
{
    sd_lsp_opts o;
    int r;

    memset(&o, 0, sizeof o);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--stdio"))
            continue;   /* the only transport; editors pass it */
        if ((r = sd_cli_source_opt(argc, argv, &i, &o.source)) != 0) {
            if (r < 0) {
                free((void *)o.source.maps);
                return SD_EXIT_ERROR;
            }
            continue;
        }
        free((void *)o.source.maps);
        return sd_cli_unknown_option(argv[i], SD_CMD_LSP, "lsp");
    }
    r = sd_lsp_serve(STDIN_FILENO, STDOUT_FILENO, &o);
    free((void *)o.source.maps);
    return r;
}
