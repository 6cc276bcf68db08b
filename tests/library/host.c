/* SPDX-License-Identifier: Apache-2.0 */
/* host.c - a host program with names of its own that the library uses
 * inside (sd_open, sd_val_new, sd_file_read: systemd-style sd_* names):
 * linked with libschemadoc (static or shared), it must build without
 * "multiple definition" and both its own functions and the library's must
 * run (tests/suite-install.sh). It also has a jansson allocator of its
 * own, which the library must leave in place. */
#include "schemadoc.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sd_open(const char *name);
int sd_open(const char *name) { return (int)strlen(name); }
void *sd_val_new(void);
void *sd_val_new(void) { return (void *)0; }
int sd_file_read(void);
int sd_file_read(void) { return 42; }

static size_t host_allocs;
static void *host_malloc(size_t n) { host_allocs++; return malloc(n); }
static void host_free(void *p) { free(p); }

int main(int argc, char **argv)
{
    schemadoc_diags *d = schemadoc_diags_new();
    schemadoc_source *src = NULL;
    char *json = NULL;
    int st = 1;

    if (argc < 2 || !d)
        return 2;
    json_set_alloc_funcs(host_malloc, host_free);
    if (sd_open("abc") != 3 || sd_val_new() != NULL || sd_file_read() != 42) {
        fprintf(stderr, "host: the host's own sd_* functions were replaced\n");
        return 3;
    }
    if (schemadoc_open(&src, argv[1], NULL, d) == 0 && schemadoc_model_json(&json, NULL, src, d) == 0
        && strstr(json, "\"helm_type\"") != NULL)
        st = 0;
    for (size_t i = 0; i < schemadoc_diags_count(d); i++) {
        char *line = schemadoc_diags_text(d, i);
        fprintf(stderr, "%s\n", line ? line : "?");
        schemadoc_free(line);
    }
    {
        json_malloc_t m;
        json_free_t f;
        json_get_alloc_funcs(&m, &f);
        if (m != host_malloc || f != host_free) {
            fprintf(stderr, "host: the library replaced the host's jansson allocator\n");
            st = 4;
        }
    }
    schemadoc_free(json);
    schemadoc_close(src);
    schemadoc_diags_free(d);
    puts(st == 0 ? "host: ok" : "host: failed");
    return st;
}
