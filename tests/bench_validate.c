/* bench_validate.c - in-process validator figures for tests/bench-validate.sh:
 * load time, compile time, validate-only MB/s (best of REPS runs over the
 * already-loaded instance, verdict only and with full results), and small
 * files per second (load + validate, schema compiled once).
 *
 * usage: bench_validate SCHEMA BIG [REPS] [SMALL...] */
#include "node.h"
#include "validate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    sd_diags d = SD_DIAGS_INIT;
    sd_doc *sdoc, *big;
    sd_validator *v;
    sd_validate_opts o = { 0 };
    double t, best = 1e9, best_full = 1e9;
    int reps = argc > 3 ? atoi(argv[3]) : 20;

    if (argc < 3) {
        fprintf(stderr, "usage: bench_validate SCHEMA BIG [REPS] [SMALL...]\n");
        return 2;
    }
    if (sd_doc_load_file(&sdoc, argv[1], SD_FMT_AUTO, NULL, &d) < 0)
        goto fail;
    t = now();
    if (sd_doc_load_file(&big, argv[2], SD_FMT_AUTO, NULL, &d) < 0)
        goto fail;
    printf("load:     %.1f ms for %.2f MB (%.0f MB/s)\n", (now() - t) * 1e3, big->text_len / 1e6,
           big->text_len / 1e6 / (now() - t));
    t = now();
    if (sd_validator_new(&v, sdoc, sd_doc_root(sdoc), &o, &d) < 0)
        goto fail;
    printf("compile:  %.3f ms\n", (now() - t) * 1e3);
    for (int i = 0; i < reps; i++) {
        sd_vresult r = SD_VRESULT_INIT;
        t = now();
        sd_validate(v, sd_doc_root(big), NULL, &d);
        t = now() - t;
        if (t < best) best = t;
        t = now();
        sd_validate(v, sd_doc_root(big), &r, &d);
        t = now() - t;
        if (t < best_full) best_full = t;
        sd_vresult_release(&r);
    }
    printf("validate: %.2f ms, %.0f MB/s (verdict only); %.2f ms, %.0f MB/s (with error details)\n",
           best * 1e3, big->text_len / 1e6 / best, best_full * 1e3, big->text_len / 1e6 / best_full);
    if (argc > 4) {
        int n = 0;
        t = now();
        for (int rep = 0; rep < 5; rep++)
            for (int i = 4; i < argc; i++) {
                sd_doc *s;
                sd_vresult r = SD_VRESULT_INIT;
                if (sd_doc_load_file(&s, argv[i], SD_FMT_AUTO, NULL, &d) < 0)
                    goto fail;
                sd_validate(v, sd_doc_root(s), &r, &d);
                sd_vresult_release(&r);
                sd_doc_free(s);
                n++;
            }
        printf("small:    %.0f files/s (load + validate, %d files)\n", n / (now() - t), n);
    }
    sd_validator_free(v);
    sd_doc_free(big);
    sd_doc_free(sdoc);
    return 0;
fail:
    sd_diags_print(&d, stderr, 0);
    return 2;
}
