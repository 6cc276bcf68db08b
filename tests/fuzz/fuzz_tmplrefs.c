/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_tmplrefs.c - a chart's templates as the lint reads them
 * (src/dialect/tmplrefs.c): any text, and the paths found asked about. */
#include "fuzz.h"
#include "tmplrefs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sd_tmplrefs r = SD_TMPLREFS_INIT;
    if (size > FUZZ_MAX_INPUT)
        return -1;
    if (sd_tmplrefs_scan(&r, (const char *)data, size) == 0)
        for (size_t i = 0; i < r.nnodes; i++) {
            const char *seg[32];
            size_t d = sd_tmplrefs_path(&r, i, seg, 32);
            if (d > 32 || !r.nodes[i].seg)
                abort();
            (void)sd_tmplrefs_use(&r, seg, d);
        }
    sd_tmplrefs_release(&r);
    return 0;
}
