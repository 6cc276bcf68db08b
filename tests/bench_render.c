/* SPDX-License-Identifier: Apache-2.0 */
/* bench_render.c - where the time of `schemadoc SOURCE --format html|md`
 * goes: model build, view model, template rendering, freeing.
 *
 *   make build-bench && build/rel/bench_render SOURCE [html|md] [runs=5]
 *
 * Prints the best of `runs` for each stage in milliseconds, one line:
 *   render SOURCE html: model 180.1 ms, view 40.2, templates 25.3, free 12.0, total 257.6 (model 70%)
 *     heap in use: 30.1 MiB after the model, 38.2 MiB with the view and the page
 * Templates come from the data directory or the embedded copies, as for
 * the command. Not a test (the name does not start with test_). */
#include "model.h"
#include "render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
    const char *source = argc > 1 ? argv[1] : "samples/podinfo";
    const char *format = argc > 2 ? argv[2] : "html";
    int runs = argc > 3 ? atoi(argv[3]) : 5;
    double best[4] = { 1e9, 1e9, 1e9, 1e9 };
    size_t bytes = 0, heap_model = 0, heap_view = 0;

    for (int r = 0; r < runs; r++) {
        sd_diags diags = SD_DIAGS_INIT;
        sd_buf out = SD_BUF_INIT;
        sd_render_opts ro = { .format = format };
        double t0 = now_ms(), t1, t2, t3, t4;
        sd_source *src = NULL, *src2 = NULL;
        sd_val *m = sd_source_open(&src, source, NULL, &diags) == 0 ? sd_model_build(src, NULL, &diags) : NULL;
        if (!m) {
            sd_diags_print(&diags, stderr, 0);
            return 2;
        }
        t1 = now_ms();
#if defined(__GLIBC__)
        heap_model = mallinfo2().uordblks;
#endif
        /* sd_render builds the view itself; time it apart on a copy-free
         * second pass: render once to measure view+templates, and build
         * the view alone on a fresh model for the view share. */
        sd_val *m2 = sd_source_open(&src2, source, NULL, &diags) == 0 ? sd_model_build(src2, NULL, &diags) : NULL;
        t2 = now_ms();
        sd_render_view(m2, strcmp(format, "md") != 0 ? SD_MARKUP_HTML : SD_MARKUP_MD);
        t3 = now_ms();
        sd_val_decref(m2);
        sd_source_free(src2);
        double tv = t3 - t2;
        t2 = now_ms();
        if (sd_render(&out, m, &ro, &diags) < 0) {
            sd_diags_print(&diags, stderr, 0);
            return 2;
        }
        t3 = now_ms();
#if defined(__GLIBC__)
        heap_view = mallinfo2().uordblks;
#endif
        bytes = out.len;
        sd_val_decref(m);
        sd_source_free(src);
        sd_buf_release(&out);
        sd_diags_release(&diags);
        t4 = now_ms();
        double st[4] = { t1 - t0, tv, (t3 - t2) - tv, t4 - t3 };
        for (int i = 0; i < 4; i++)
            if (st[i] < best[i])
                best[i] = st[i];
    }
    double total = best[0] + best[1] + best[2] + best[3];
    printf("render %s %s: model %.1f ms, view %.1f, templates %.1f, free %.1f, total %.1f (model %.0f%%), %zu bytes\n",
           source, format, best[0], best[1], best[2] < 0 ? 0 : best[2], best[3], total,
           100 * best[0] / total, bytes);
    if (heap_model)
        printf("  heap in use: %.1f MiB after the model, %.1f MiB with the view and the page\n",
               heap_model / 1048576.0, heap_view / 1048576.0);
    return 0;
}
