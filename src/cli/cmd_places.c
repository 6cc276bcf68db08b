/* SPDX-License-Identifier: Apache-2.0 */
/* cmd_places.c - `schemadoc debug-k8s-places CHART_DIR|TEMPLATE [POINTER]`,
 * a debugging command left out of --help (docs/internals.md): the values
 * paths a chart's templates (or one template file) hand whole to a
 * manifest place of a known Kubernetes type (k8s/places.c). In: a chart
 * directory or a template file, and a JSON pointer to look up. Out: one
 * line a place on stdout, "POINTER<TAB>TYPE[<TAB>list]<TAB>FILE:LINE:COL
 * <TAB>WHERE", then "conflicts: N" (with POINTER: that place's line only,
 * exit 1 when it has none); exit 2 when the input cannot be read. */
#include "cli.h"
#include "diag.h"
#include "file.h"
#include "places.h"
#include "sd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define TEMPLATE_MAX ((size_t)32 << 20)

static void print_place(const sd_k8s_place *x)
{
    printf("%s\t%s%s\t%s:%d:%d\t%s\n", x->ptr, x->type, x->list ? "\tlist" : "", x->file, x->line,
           x->col, x->where);
}

int sd_cmd_debug_places(int argc, char **argv)
{
    sd_k8s_places p = SD_K8S_PLACES_INIT;
    struct stat st;
    int rc, status = SD_EXIT_OK;

    if (argc < 2 || argc > 3 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        int help = argc >= 2 && argc <= 3;
        fprintf(help ? stdout : stderr, "Usage: schemadoc debug-k8s-places CHART_DIR|TEMPLATE [POINTER]\n");
        return help ? SD_EXIT_OK : SD_EXIT_ERROR;
    }
    if (stat(argv[1], &st) == 0 && S_ISDIR(st.st_mode)) {
        rc = sd_k8s_places_scan_dir(&p, argv[1]);
    } else {
        sd_diags diags = SD_DIAGS_INIT;
        char *text = NULL;
        size_t len = 0;
        if ((rc = sd_file_read(&text, &len, argv[1], TEMPLATE_MAX, 0, &diags)) != 0) {
            sd_cli_print_diags(&diags);
            sd_diags_release(&diags);
            return SD_EXIT_ERROR;
        }
        const char *name = argv[1], *t = text;
        rc = sd_k8s_places_scan_texts(&p, &name, &t, &len, 1);
        free(text);
        sd_diags_release(&diags);
    }
    if (rc != 0) {
        fprintf(stderr, "schemadoc: error: out of memory\n");
        sd_k8s_places_release(&p);
        return SD_EXIT_ERROR;
    }
    if (argc == 3) {
        const sd_k8s_place *x = sd_k8s_places_find(&p, argv[2]);
        if (x)
            print_place(x);
        else
            status = SD_EXIT_FOUND_WANTING;
    } else {
        for (size_t i = 0; i < p.n; i++)
            print_place(&p.v[i]);
        printf("conflicts: %zu\neither list or map: %zu\n", p.conflicts, p.either);
    }
    sd_k8s_places_release(&p);
    return status;
}
