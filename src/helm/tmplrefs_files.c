/* SPDX-License-Identifier: Apache-2.0 */
/* tmplrefs_files.c - the files of a chart's templates/, one by one, for
 * the readers of templates (tmplrefs.c, k8s/places.c): regular files only,
 * never a symbolic link nor a file whose real path leaves the chart; at
 * most 2,000 files, 32 MiB of text and 8 directories deep. In: a chart
 * directory; out: each file's relative path and text, to a callback. */
#include "tmplrefs.h"
#include "buf.h"
#include "file.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_FILES  2000
#define MAX_BYTES  ((size_t)32 << 20)
#define MAX_WALK   8

typedef struct walker {
    const char *root;
    sd_buf      path;
    size_t      bytes, files;
    int         has_templates, rc;
    int (*fn)(const char *rel, const char *text, size_t len, void *payload);
    void       *payload;
} walker;

static void walk_dir(walker *w, int depth)
{
    DIR *d;
    struct dirent *e;
    size_t mark = w->path.len;

    if (depth > MAX_WALK || !(d = opendir(w->path.ptr)))
        return;
    while ((e = readdir(d)) && w->files < MAX_FILES && w->bytes < MAX_BYTES && !w->rc) {
        struct stat st;
        if (e->d_name[0] == '.')
            continue;
        sd_buf_truncate(&w->path, mark);
        sd_buf_printf(&w->path, "/%s", e->d_name);
        if (sd_buf_failed(&w->path)) {
            w->rc = SD_ENOMEM;
            break;
        }
        /* lstat: a symbolic link is not followed, in or out of the chart */
        if (lstat(w->path.ptr, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            walk_dir(w, depth + 1);
        } else if (S_ISREG(st.st_mode)) {
            char *text = NULL;
            size_t len = 0;
            sd_diags quiet = SD_DIAGS_INIT;
            w->has_templates = 1;
            int rc = sd_file_read_in(&text, &len, w->root, w->path.ptr, MAX_BYTES - w->bytes, "template", &quiet);
            if (rc == 0) {
                w->bytes += len;
                w->files++;
                w->rc = w->fn(w->path.ptr + strlen(w->root) + 1, text, len, w->payload);
            } else if (rc == SD_ENOMEM) {
                w->rc = SD_ENOMEM;   /* (a file that cannot be read is skipped; memory is not) */
            }
            free(text);
            sd_diags_release(&quiet);
        }
    }
    closedir(d);
    sd_buf_truncate(&w->path, mark);
}

int sd_tmplrefs__each_file(const char *chart_dir, int *has_templates,
                           int (*fn)(const char *rel, const char *text, size_t len, void *payload),
                           void *payload)
{
    walker w;

    memset(&w, 0, sizeof w);
    w.root = chart_dir;
    w.fn = fn;
    w.payload = payload;
    sd_buf_init(&w.path, 0);
    sd_buf_printf(&w.path, "%s/templates", chart_dir);
    if (sd_buf_failed(&w.path))
        w.rc = SD_ENOMEM;
    else
        walk_dir(&w, 0);
    sd_buf_release(&w.path);
    if (has_templates)
        *has_templates = w.has_templates;
    return w.rc;
}
