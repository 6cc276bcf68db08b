/* SPDX-License-Identifier: Apache-2.0 */
/* bench_rules.c - what exporting the rules costs next to compiling the
 * validator they come from (tests/bench-rules.sh).
 *
 *   bench_rules FILE [REPS]
 * FILE is a schema, a CRD (every version is an entry) or, with
 * "definitions" and no validation keywords at its root (the Kubernetes
 * definitions), a schema whose anyOf refers to every definition. Prints,
 * best of REPS: the compile time of all entries, the export time, the size
 * of the rules and of FILE. Times are CPU time (the machines are shared). */
#include "buf.h"
#include "node.h"
#include "resolve.h"
#include "rules.h"
#include "validate.h"
#include "uri.h"
#include "ptr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The schema nodes to compile: CRD versions, definitions, or the root. */
static size_t targets(const sd_doc *d, const sd_node **out, const char **names, size_t max)
{
    size_t n = 0;
    for (size_t k = 0; k < d->nroots && n < max; k++) {
        const sd_node *root = d->roots[k].node;
        const char *kind = sd_node_str(sd_node_get(root, "kind"));
        if (kind && !strcmp(kind, "CustomResourceDefinition")) {
            const sd_node *vs = sd_node_get(sd_node_get(root, "spec"), "versions");
            for (size_t i = 0; vs && vs->kind == SD_SEQ && i < vs->n && n < max; i++) {
                const sd_node *s = sd_node_get(sd_node_get(vs->items[i].value, "schema"), "openAPIV3Schema");
                if (s) {
                    names[n] = sd_node_str(sd_node_get(vs->items[i].value, "name"));
                    out[n++] = s;
                }
            }
            continue;
        }
        const sd_node *defs = sd_node_get(root, "definitions");
        if (defs && defs->kind == SD_MAP && !sd_node_get(root, "type") && !sd_node_get(root, "properties"))
            return 0;   /* main() builds the anyOf */
        names[n] = "schema";
        out[n++] = root;
    }
    return n;
}

int main(int argc, char **argv)
{
    enum { MAX = 4096 };
    static const sd_node *nodes[MAX];
    static const char *names[MAX];
    static sd_validator *vals[MAX];
    static sd_rules_entry entries[MAX];
    sd_diags d = SD_DIAGS_INIT;
    sd_doc *doc;
    double best_c = 1e9, best_e = 1e9;
    size_t n, size = 0;
    int reps = argc > 2 ? atoi(argv[2]) : 5;
    struct stat st;

    if (argc < 2) {
        fprintf(stderr, "usage: bench_rules FILE [REPS]\n");
        return 2;
    }
    if (sd_doc_load_file(&doc, argv[1], SD_FMT_AUTO, NULL, &d) < 0) {
        sd_diags_print(&d, stderr, 0);
        return 2;
    }
    n = targets(doc, nodes, names, MAX);
    if (n == 0) {
        /* every definition through one schema: {"anyOf": [{"$ref": "FILE#/definitions/NAME"}...]} */
        const sd_node *defs = sd_node_get(sd_doc_root(doc), "definitions");
        char *uri = NULL;
        if (sd_uri_from_path(&uri, argv[1]) < 0)
            return 2;
        sd_buf w = SD_BUF_INIT;
        sd_buf_puts(&w, "{\"anyOf\": [");
        for (size_t i = 0; defs && i < defs->n; i++) {
            sd_buf_printf(&w, "%s{\"$ref\": \"%s#/definitions", i ? "," : "", uri);
            sd_ptr_push_uri(&w, defs->items[i].key->str, defs->items[i].key->len);
            sd_buf_puts(&w, "\"}");
        }
        sd_buf_puts(&w, "]}");
        sd_doc_free(doc);
        if (sd_doc_load_mem(&doc, "all-definitions.json", w.ptr, w.len, SD_FMT_JSON, NULL, &d) < 0) {
            sd_diags_print(&d, stderr, 0);
            return 2;
        }
        sd_buf_release(&w);
        free(uri);
        names[0] = "definitions";
        nodes[0] = sd_doc_root(doc);
        n = 1;
    }
    sd_file_loader *fl = sd_file_loader_new();
    sd_validate_opts vo = { 0 };
    vo.load = sd_file_loader_load;
    vo.payload = fl;
    for (int r = 0; r < reps; r++) {
        sd_buf out = SD_BUF_INIT;
        sd_rules_opts o = { argv[1], "schema", NULL, 0, 0, 0, NULL };
        double t = now();
        for (size_t i = 0; i < n; i++) {
            if (sd_validator_new(&vals[i], doc, nodes[i], &vo, &d) < 0) {
                sd_diags_print(&d, stderr, 0);
                return 2;
            }
            entries[i].name = names[i] ? names[i] : "?";
            entries[i].val = vals[i];
        }
        t = now() - t;
        if (t < best_c) best_c = t;
        t = now();
        if (sd_rules_export(&out, entries, n, &o, &d) < 0) {
            sd_diags_print(&d, stderr, 0);
            return 2;
        }
        t = now() - t;
        if (t < best_e) best_e = t;
        size = out.len;
        sd_buf_release(&out);
        for (size_t i = 0; i < n; i++)
            sd_validator_free(vals[i]);
        sd_diags_release(&d);
    }
    stat(argv[1], &st);
    printf("%-48s %4zu entries  compile %7.2f ms  export %7.2f ms (%.2fx)  rules %8zu bytes  source %8lld bytes (%.2f)\n",
           strrchr(argv[1], '/') ? strrchr(argv[1], '/') + 1 : argv[1], n, best_c * 1e3, best_e * 1e3,
           best_e / best_c, size, (long long)st.st_size, (double)size / (double)st.st_size);
    sd_file_loader_free(fl);
    sd_doc_free(doc);
    return 0;
}
