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

static void print_diags(const sd_diags *d)
{
    for (size_t i = 0; i < sd_diags_count(d); i++) {
        char *line = sd_diags_text(d, i);
        fprintf(stderr, "%s\n", line ? line : "(out of memory)");
        sd_free(line);
        if (sd_diags_instance_ptr(d, i))
            fprintf(stderr, "  at %s in the values, %s in the schema\n",
                    sd_diags_instance_ptr(d, i),
                    sd_diags_schema_ptr(d, i) ? sd_diags_schema_ptr(d, i) : "?");
    }
}

int main(int argc, char **argv)
{
    sd_diags *d = sd_diags_new();
    sd_options o;
    sd_source *src = NULL;
    char *page = NULL;
    int status = 2;

    if (argc < 2 || !d) {
        fprintf(stderr, "usage: example SOURCE [VALUES...]\n");
        sd_diags_free(d);
        return 2;
    }
    sd_options_init(&o);
    if (sd_open(&src, argv[1], &o, d) == 0 && sd_render_page(&page, NULL, src, "md", &o, d) == 0) {
        fputs(page, stdout);
        sd_free(page);
        status = 0;
        if (argc > 2) {
            int r = sd_validate_files(NULL, NULL, src, (const char *const *)argv + 2,
                                      (size_t)(argc - 2), &o, d);
            status = r < 0 ? 2 : r;
            printf("\n%s\n", status == 0 ? "valid" : status == 1 ? "invalid" : "error");
        }
    }
    print_diags(d);
    sd_close(src);
    sd_diags_free(d);
    printf("schemadoc %s\n", SD_VERSION);
    return status;
}
