/* SPDX-License-Identifier: Apache-2.0 */
/* bench_load.c - how long loading takes, next to the bare parsers.
 *
 *   bench_load MODE FILE [REPS]
 *   MODE: sd (our loader: positions + comments), yaml (libyaml events only),
 *         jansson (json_load_file)
 * Prints "MODE FILE: X ms per load (best of REPS), peak RSS Y MiB". */
#include "node.h"

#include <jansson.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <yaml.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int yaml_events(const char *path)
{
    FILE *f = fopen(path, "rb");
    yaml_parser_t p;
    yaml_event_t e;
    int n = 0, done = 0;
    if (!f || !yaml_parser_initialize(&p))
        return -1;
    yaml_parser_set_input_file(&p, f);
    while (!done) {
        if (!yaml_parser_parse(&p, &e)) { n = -1; break; }
        done = e.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&e);
        n++;
    }
    yaml_parser_delete(&p);
    fclose(f);
    return n;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_load sd|yaml|jansson FILE [REPS]\n");
        return 2;
    }
    const char *mode = argv[1], *path = argv[2];
    int reps = argc > 3 ? atoi(argv[3]) : 10;
    double best = 1e9;
    /* Measure the steady state: keep freed memory in the process so that
     * every repetition does not page-fault fresh memory in again (this VM's
     * page faults cost ~10 us each and would dominate). */
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    mallopt(M_MMAP_THRESHOLD, 256 << 20);
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        if (strcmp(mode, "sd") == 0) {
            sd_diags d = SD_DIAGS_INIT;
            sd_doc *doc;
            if (sd_doc_load_file(&doc, path, SD_FMT_AUTO, NULL, &d) < 0) {
                sd_diags_print(&d, stderr, 0);
                return 1;
            }
            sd_doc_free(doc);
            sd_diags_release(&d);
        } else if (strcmp(mode, "yaml") == 0) {
            if (yaml_events(path) < 0)
                return 1;
        } else if (strcmp(mode, "jansson") == 0) {
            json_error_t e;
            json_t *j = json_load_file(path, 0, &e);
            if (!j)
                return 1;
            json_decref(j);
        } else {
            return 2;
        }
        double t = now() - t0;
        if (t < best)
            best = t;
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("%-8s %-60s %8.2f ms  peak RSS %6.1f MiB\n", mode, path, best * 1e3, ru.ru_maxrss / 1024.0);
    return 0;
}
