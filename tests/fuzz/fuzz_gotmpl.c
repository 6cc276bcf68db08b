/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_gotmpl.c - the Go template engine as helm-docs runs it
 * (sd_helmdocs_render): part 0 is the template (README.md.gotmpl), part 1
 * the chart's values.yaml (its rows are .Values), part 2 a file the
 * template reads through .Files (files/data.yaml; also fromYaml fodder),
 * all in a scratch chart directory. The bounds are made small (200,000
 * steps, 1 MiB of output, 32 MiB of values, 50 nested calls) and must
 * hold: a run ends with text within the output bound, or with an error
 * that says why; libFuzzer's -timeout catches a bound that does not hold.
 * The model is rebuilt only when part 1 changes. */
#include "fuzz.h"
#include "cleanup.h"
#include "helmdocs.h"
#include "model.h"
#include "source.h"

#include "val.h"
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define OUT_MAX ((size_t)1 << 20)

static char dir[64];
static char *last_values;
static size_t last_len;
static sd_source *src;
static sd_val *model;

static void drop_model(void)
{
    sd_val_decref(model);
    sd_source_free(src);
    model = NULL;
    src = NULL;
}

/* The model for values.yaml `v`: the one kept when `v` is unchanged. */
static sd_val *model_for(const fuzz_part *v)
{
    char path[128], cache[96], cdir[96];
    if (model && last_values && v->n == last_len && !memcmp(v->p, last_values, v->n))
        return model;
    drop_model();
    free(last_values);
    last_values = malloc(v->n + 1);
    last_len = v->n;
    if (last_values)
        memcpy(last_values, v->p, v->n);
    snprintf(path, sizeof path, "%s/c/values.yaml", dir);
    fuzz_write(path, v->p, v->n);
    sd_diags diags = SD_DIAGS_INIT;
    sd_source_opts so;
    memset(&so, 0, sizeof so);
    snprintf(cache, sizeof cache, "%s/cache", dir);
    snprintf(cdir, sizeof cdir, "%s/c", dir);
    so.offline = 1;
    so.cache_dir = cache;
    if (sd_source_open(&src, cdir, &so, &diags) == 0)
        model = sd_model_build(src, NULL, &diags);
    sd_diags_release(&diags);
    return model;
}

static void remove_dir(void)
{
    drop_model();
    free(last_values);
    sd_rmtree(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const fuzz_part empty = { "", 0 };
    fuzz_part parts[FUZZ_MAX_PARTS];
    char path[128];
    size_t n;

    if (size > FUZZ_MAX_INPUT)
        return -1;
    if (!dir[0]) {
        /* a memory file system when there is one: each run writes a file */
        snprintf(dir, sizeof dir, "%s/sd-fuzz-gotmpl-%ld", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp",
                 (long)getpid());
        snprintf(path, sizeof path, "mkdir -p %s/c/files %s/cache", dir, dir);
        if (system(path) != 0)
            abort();
        atexit(remove_dir);
        static const char chart[] = "apiVersion: v2\nname: fuzz\nversion: 1.0.0\ndescription: a chart\n";
        snprintf(path, sizeof path, "%s/c/Chart.yaml", dir);
        fuzz_write(path, chart, sizeof chart - 1);
    }
    n = fuzz_split(parts, data, size);
    snprintf(path, sizeof path, "%s/c/files/data.yaml", dir);
    fuzz_write(path, n > 2 ? parts[2].p : "", n > 2 ? parts[2].n : 0);
    sd_val *m = model_for(n > 1 ? &parts[1] : &empty);
    if (!m)
        return 0;
    sd_gotmpl_limits lim = { OUT_MAX, 50, 200000 };
    sd_helmdocs_opts ho = { .version = "1.14.2", .limits = &lim, .heap_cap = (size_t)32 << 20 };
    sd_diags diags = SD_DIAGS_INIT;
    sd_buf out = SD_BUF_INIT;
    int r = sd_helmdocs_render(&out, m, "fuzz.gotmpl", parts[0].p, parts[0].n, &ho, &diags);
    if (r == 0 && out.len > OUT_MAX)
        abort();   /* the clean-up only removes bytes */
    if (r < 0 && (!diags.count || out.len))
        abort();   /* an error says why, and leaves no text */
    sd_buf_release(&out);
    sd_diags_release(&diags);
    return 0;
}
