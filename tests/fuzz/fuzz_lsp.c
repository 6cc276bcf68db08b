/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_lsp.c - the language server's framing and dispatch (src/lsp/): the
 * input is the byte stream a client sends (headers, JSON bodies, edits,
 * requests), served from a memory file to /dev/null; every reply must be
 * written without a crash, a leak or a hang. */
#define _GNU_SOURCE
#include "fuzz.h"
#include "lsp.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int in = -1, out = -1;
    sd_lsp_opts o;

    if (size > FUZZ_MAX_INPUT)
        return -1;
    if (in < 0 && (in = memfd_create("fuzz_lsp", 0)) < 0)
        abort();
    if (out < 0 && (out = open("/dev/null", O_WRONLY)) < 0)
        abort();
    if (ftruncate(in, 0) < 0 || pwrite(in, data, size, 0) != (ssize_t)size || lseek(in, 0, SEEK_SET) != 0)
        abort();
    memset(&o, 0, sizeof o);
    o.max_message = 1 << 16;   /* the limit reached by small inputs too */
    o.source.offline = 1;
    int st = sd_lsp_serve(in, out, &o);
    if (st != 0 && st != 1)
        abort();
    return 0;
}
