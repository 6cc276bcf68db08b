/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_render.c - the html and md renderers over a loaded chart: part 0 is
 * values.yaml, part 1 values.schema.json (optional), written into a
 * scratch chart directory; the source is opened offline, the model built
 * and both pages rendered. (The form page is left out: it is being built.) */
#include "fuzz.h"
#include "model.h"
#include "render.h"
#include "source.h"

#include "val.h"
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const formats[] = { "html", "md" };
    fuzz_part parts[FUZZ_MAX_PARTS];
    char path[128];
    size_t n;

    if (size > FUZZ_MAX_INPUT)
        return -1;
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/sd-fuzz-render-%ld", (long)getpid());
        snprintf(path, sizeof path, "mkdir -p %s/c %s/cache", dir, dir);
        if (system(path) != 0)
            abort();
        snprintf(path, sizeof path, "%s/c/Chart.yaml", dir);
        fuzz_write(path, "apiVersion: v2\nname: fuzz\nversion: 1.0.0\ndescription: a <b>chart</b>\n", 67);
    }
    n = fuzz_split(parts, data, size);
    snprintf(path, sizeof path, "%s/c/values.yaml", dir);
    fuzz_write(path, parts[0].p, parts[0].n);
    snprintf(path, sizeof path, "%s/c/values.schema.json", dir);
    if (n > 1)
        fuzz_write(path, parts[1].p, parts[1].n);
    else
        unlink(path);
    for (size_t f = 0; f < 2; f++) {
        sd_diags diags = SD_DIAGS_INIT;
        sd_source_opts so;
        sd_source *src = NULL;
        char cache[96], cdir[96];
        memset(&so, 0, sizeof so);
        snprintf(cache, sizeof cache, "%s/cache", dir);
        snprintf(cdir, sizeof cdir, "%s/c", dir);
        so.offline = 1;
        so.cache_dir = cache;
        if (sd_source_open(&src, cdir, &so, &diags) == 0) {
            sd_val *m = sd_model_build(src, NULL, &diags);
            if (m) {
                sd_render_opts ro = { .format = formats[f] };
                sd_buf out = SD_BUF_INIT;
                sd_render(&out, m, &ro, &diags);
                sd_buf_release(&out);
                sd_val_decref(m);
            }
            sd_source_free(src);
        }
        sd_diags_release(&diags);
    }
    return 0;
}
