/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_mustache.c - the Mustache compiler and renderer: part 0 is the
 * template, part 1 the data (JSON), part 2 a partial named "p" (the
 * template itself is also partial "self", so recursion is reachable). */
#include "fuzz.h"
#include "mustache.h"

#include "val.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_part parts[FUZZ_MAX_PARTS];
    sd_diags diags = SD_DIAGS_INIT;
    sd_mustache *t = NULL;
    sd_mustache_partials *reg = NULL;
    sd_val *d = NULL;
    size_t n;

    if (size > FUZZ_MAX_INPUT)
        return -1;
    n = fuzz_split(parts, data, size);
    if (n > 1)
        d = sd_val_loadb(parts[1].p, parts[1].n, SD_VAL_DECODE_ANY, NULL);
    if (!d)
        d = sd_val_loads("{\"name\": \"<x>\", \"list\": [1, 2], \"obj\": {\"flag\": true}}", 0, NULL);
    if (sd_mustache_partials_new(&reg, 0) == 0) {
        sd_mustache_partials_add(reg, "self", parts[0].p, parts[0].n, &diags);
        if (n > 2)
            sd_mustache_partials_add(reg, "p", parts[2].p, parts[2].n, &diags);
        if (sd_mustache_compile(&t, "t.mustache", parts[0].p, parts[0].n, &diags) == 0) {
            sd_buf out = SD_BUF_INIT;
            sd_buf_init(&out, 1 << 20);   /* a render bomb stops at the cap */
            sd_mustache_render(&out, t, d, reg, &diags);
            sd_buf_release(&out);
            sd_mustache_free(t);
        }
        sd_mustache_partials_free(reg);
    }
    sd_val_decref(d);
    sd_diags_release(&diags);
    return 0;
}
