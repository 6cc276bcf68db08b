/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_tmplrefs.c - a chart's templates as the lint reads them
 * (src/helm/tmplrefs.c): any text, and the paths found asked about;
 * then the same text, split at FUZZ_SEP into up to 4 template files, as
 * the Kubernetes places reader reads them (src/k8s/places.c): every place
 * must be well formed and found again by its own pointer. */
#include "fuzz.h"
#include "places.h"
#include "tmplrefs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void places(const uint8_t *data, size_t size)
{
    fuzz_part parts[FUZZ_MAX_PARTS];
    const char *names[FUZZ_MAX_PARTS] = { "templates/a.yaml", "templates/_b.tpl", "templates/c.yaml", "templates/d.yaml" };
    const char *texts[FUZZ_MAX_PARTS];
    size_t lens[FUZZ_MAX_PARTS];
    sd_k8s_places p = SD_K8S_PLACES_INIT;
    size_t n = fuzz_split(parts, data, size);

    for (size_t i = 0; i < n; i++) {
        texts[i] = parts[i].p;
        lens[i] = parts[i].n;
    }
    if (sd_k8s_places_scan_texts(&p, names, texts, lens, n) == 0)
        for (size_t i = 0; i < p.n; i++) {
            const sd_k8s_place *x = &p.v[i];
            if (!x->ptr || x->ptr[0] != '/' || !x->type || !x->where || !x->file || x->line < 1 ||
                !sd_k8s_places_find(&p, x->ptr))
                abort();
        }
    sd_k8s_places_release(&p);
}

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
    places(data, size);
    return 0;
}
