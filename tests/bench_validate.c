/* SPDX-License-Identifier: Apache-2.0 */
/* bench_validate.c - in-process validator figures for tests/bench-validate.sh:
 * load time, compile time, validate-only MB/s (best of REPS runs over the
 * already-loaded instance, verdict only and with full results), and small
 * files per second (load + validate, schema compiled once). Instances are
 * loaded as `schemadoc validate` loads a JSON values file: into a tape.
 *
 * usage: bench_validate SCHEMA BIG [REPS] [SMALL...] */
#include "file.h"
#include "node.h"
#include "tape.h"
#include "validate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Read and parse a JSON file into a tape; its text is kept in *text. */
static int load_tape(sd_tape *t, char **text, const char *path, sd_diags *d)
{
    size_t len;
    if (sd_file_read(text, &len, path, SD_FILE_MAX, 0, d) < 0)
        return -1;
    if (sd_tape_parse(t, *text, len, path, 0) != 0) {
        fprintf(stderr, "%s: not for the tape\n", path);
        free(*text);
        return -1;
    }
    return 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    sd_diags d = SD_DIAGS_INIT;
    sd_doc *sdoc;
    sd_tape big;
    char *big_text;
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
    if (load_tape(&big, &big_text, argv[2], &d) < 0)
        goto fail;
    printf("load:     %.1f ms for %.2f MB (%.0f MB/s)\n", (now() - t) * 1e3, big.text_len / 1e6,
           big.text_len / 1e6 / (now() - t));
    t = now();
    if (sd_validator_new(&v, sdoc, sd_doc_root(sdoc), &o, &d) < 0)
        goto fail;
    printf("compile:  %.3f ms\n", (now() - t) * 1e3);
    for (int i = 0; i < reps; i++) {
        sd_vresult r = SD_VRESULT_INIT;
        t = now();
        sd_validate_tape(v, 0, &big, NULL, &d);
        t = now() - t;
        if (t < best) best = t;
        t = now();
        sd_validate_tape(v, 0, &big, &r, &d);
        t = now() - t;
        if (t < best_full) best_full = t;
        sd_vresult_release(&r);
    }
    printf("validate: %.2f ms, %.0f MB/s (verdict only); %.2f ms, %.0f MB/s (with error details)\n",
           best * 1e3, big.text_len / 1e6 / best, best_full * 1e3, big.text_len / 1e6 / best_full);
    if (argc > 4) {
        int n = 0;
        t = now();
        for (int rep = 0; rep < 5; rep++)
            for (int i = 4; i < argc; i++) {
                sd_tape s;
                char *text;
                sd_vresult r = SD_VRESULT_INIT;
                if (load_tape(&s, &text, argv[i], &d) < 0)
                    goto fail;
                sd_validate_tape(v, 0, &s, &r, &d);
                sd_vresult_release(&r);
                sd_tape_free(&s);
                free(text);
                n++;
            }
        printf("small:    %.0f files/s (load + validate, %d files)\n", n / (now() - t), n);
    }
    sd_validator_free(v);
    sd_tape_free(&big);
    free(big_text);
    sd_doc_free(sdoc);
    return 0;
fail:
    sd_diags_print(&d, stderr, 0);
    return 2;
}
