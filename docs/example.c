/* SPDX-License-Identifier: Apache-2.0 */
/* example.c - using libschemadoc through schemadoc.h alone (docs/library.md).
 *
 *   cc -Isrc docs/example.c build/rel/libschemadoc.a $(pkg-config --libs ...)
 *   ./example samples/podinfo [values.yaml...]
 *
 * Opens a source, prints its reference page as Markdown, then validates
 * the values files given after it and prints every diagnostic with its
 * position and JSON pointers. Exit status: 0 valid, 1 invalid, 2 error.
 * `make check` builds this file and runs it on the sample chart. */
#include "schemadoc.h"

#include <stdio.h>

static void print_diags(const schemadoc_diags *d)
{
    for (size_t i = 0; i < schemadoc_diags_count(d); i++) {
        char *line = schemadoc_diags_text(d, i);
        fprintf(stderr, "%s\n", line ? line : "(out of memory)");
        schemadoc_free(line);
        if (schemadoc_diags_instance_ptr(d, i))
            fprintf(stderr, "  at %s in the values, %s in the schema\n",
                    schemadoc_diags_instance_ptr(d, i),
                    schemadoc_diags_schema_ptr(d, i) ? schemadoc_diags_schema_ptr(d, i) : "?");
    }
}

int main(int argc, char **argv)
{
    schemadoc_diags *d = schemadoc_diags_new();
    schemadoc_options o;
    schemadoc_source *src = NULL;
    char *page = NULL;
    int status = 2;

    if (argc < 2 || !d) {
        fprintf(stderr, "usage: example SOURCE [VALUES...]\n");
        schemadoc_diags_free(d);
        return 2;
    }
    schemadoc_options_init(&o);
    if (schemadoc_open(&src, argv[1], &o, d) == 0 && schemadoc_render_page(&page, NULL, src, "md", &o, d) == 0) {
        fputs(page, stdout);
        schemadoc_free(page);
        status = 0;
        if (argc > 2) {
            int r = schemadoc_validate_files(NULL, NULL, src, (const char *const *)argv + 2,
                                      (size_t)(argc - 2), &o, d);
            status = r < 0 ? 2 : r;
            printf("\n%s\n", status == 0 ? "valid" : status == 1 ? "invalid" : "error");
        }
    }
    print_diags(d);
    schemadoc_close(src);
    schemadoc_diags_free(d);
    printf("schemadoc %s\n", SD_VERSION);
    return status;
}
