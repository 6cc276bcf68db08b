/* SPDX-License-Identifier: Apache-2.0 */
/* bench_resolve.c - what resolving every $ref adds to loading.
 *
 *   bench_resolve FILE [REPS]
 * Prints the load time, the index + resolve time and the number of $refs
 * resolved (best of REPS). Refs into other documents are not followed. */
#include "node.h"
#include "resolve.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static size_t resolve_all(sd_resolver *r, const sd_node *n, size_t *failed, sd_diags *d, int depth)
{
    size_t count = 0;
    const sd_node *ref;
    if (depth > 500)
        return 0;
    if (n->kind == SD_MAP && (ref = sd_node_get(n, "$ref")) && ref->kind == SD_STR) {
        const sd_schema_info *info;
        if (sd_resolver_resolve(r, &info, n, ref->str, ref->loc, d) < 0)
            (*failed)++;
        count++;
    }
    if (n->kind == SD_MAP || n->kind == SD_SEQ)
        for (size_t i = 0; i < n->n; i++)
            count += resolve_all(r, n->items[i].value, failed, d, depth + 1);
    return count;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_resolve FILE [REPS]\n");
        return 2;
    }
    int reps = argc > 2 ? atoi(argv[2]) : 10;
    double best_load = 1e9, best_res = 1e9;
    size_t refs = 0, failed = 0;
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    for (int k = 0; k < reps; k++) {
        sd_diags d = SD_DIAGS_INIT;
        sd_doc *doc;
        double t0 = now();
        if (sd_doc_load_file(&doc, argv[1], SD_FMT_AUTO, NULL, &d) < 0) {
            sd_diags_print(&d, stderr, 0);
            return 1;
        }
        double t1 = now();
        sd_resolve_opts o;
        memset(&o, 0, sizeof o);
        sd_resolver *r = sd_resolver_new(&o);
        sd_resolver_add(r, doc, sd_doc_root(doc), NULL, 0, &d);
        failed = 0;
        refs = resolve_all(r, sd_doc_root(doc), &failed, &d, 0);
        double t2 = now();
        if (t1 - t0 < best_load) best_load = t1 - t0;
        if (t2 - t1 < best_res) best_res = t2 - t1;
        sd_resolver_free(r);
        sd_doc_free(doc);
        sd_diags_release(&d);
    }
    printf("%-55s load %7.2f ms, index+resolve %7.2f ms (+%.0f%%), %zu refs (%zu unresolved)\n",
           argv[1], best_load * 1e3, best_res * 1e3, 100 * best_res / best_load, refs, failed);
    return 0;
}
