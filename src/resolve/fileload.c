/* SPDX-License-Identifier: Apache-2.0 */
/* fileload.c - the built-in document loader for the resolver: file://
 * URIs and URI prefixes mapped to local directories (the test suite's
 * http://localhost:1234/ remotes). Each document is read once per loader and
 * freed with it; no network access. */
#include "resolve.h"
#include "buf.h"
#include "uri.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct fl_entry { char *uri; sd_doc *doc; } fl_entry;
typedef struct fl_map { char *prefix, *dir; } fl_map;

struct sd_file_loader {
    fl_entry *docs;
    size_t ndocs;
    fl_map *maps;
    size_t nmaps;
};

sd_file_loader *sd_file_loader_new(void)
{
    return calloc(1, sizeof(sd_file_loader));
}

int sd_file_loader_map(sd_file_loader *fl, const char *uri_prefix, const char *dir)
{
    fl_map *m = realloc(fl->maps, (fl->nmaps + 1) * sizeof *m);
    if (!m)
        return SD_ENOMEM;
    fl->maps = m;
    m[fl->nmaps].prefix = strdup(uri_prefix);
    m[fl->nmaps].dir = strdup(dir);
    if (!m[fl->nmaps].prefix || !m[fl->nmaps].dir) {
        free(m[fl->nmaps].prefix);
        free(m[fl->nmaps].dir);
        return SD_ENOMEM;
    }
    fl->nmaps++;
    return 0;
}

void sd_file_loader_free(sd_file_loader *fl)
{
    if (!fl)
        return;
    for (size_t i = 0; i < fl->ndocs; i++) {
        free(fl->docs[i].uri);
        sd_doc_free(fl->docs[i].doc);
    }
    for (size_t i = 0; i < fl->nmaps; i++) {
        free(fl->maps[i].prefix);
        free(fl->maps[i].dir);
    }
    free(fl->docs);
    free(fl->maps);
    free(fl);
}

int sd_file_loader_load(void *payload, const char *abs_uri, sd_loc from,
                        const char *ref_text, sd_doc **out, sd_diags *diags)
{
    sd_file_loader *fl = payload;
    sd_buf path = SD_BUF_INIT;
    sd_doc *doc = NULL;
    fl_entry *e;
    int err;

    (void)ref_text;
    *out = NULL;
    for (size_t i = 0; i < fl->ndocs; i++)
        if (strcmp(fl->docs[i].uri, abs_uri) == 0) {
            *out = fl->docs[i].doc;
            return 0;
        }
    for (size_t i = 0; i < fl->nmaps && !path.len; i++) {
        size_t n = strlen(fl->maps[i].prefix);
        if (strncmp(abs_uri, fl->maps[i].prefix, n) == 0) {
            sd_buf_printf(&path, "%s/", fl->maps[i].dir);
            sd_uri_pct_decode_append(&path, abs_uri + n, strcspn(abs_uri + n, "?"));
        }
    }
    if (!path.len && strncmp(abs_uri, "file://", 7) == 0) {
        const char *p = abs_uri + 7;
        if (strncmp(p, "localhost/", 10) == 0)
            p += 9;
        if (*p != '/') {
            sd_buf_release(&path);
            return sd_diag_error(diags, SD_ENOTFOUND, from, "file URI with a host is not supported");
        }
        sd_uri_pct_decode_append(&path, p, strcspn(p, "?"));
    }
    if (!path.len) {
        sd_buf_release(&path);
        return sd_diag_error(diags, SD_ENOTFOUND, from,
                             "remote documents are not fetched by this loader (only local files)");
    }
    if (sd_buf_failed(&path)) {
        sd_buf_release(&path);
        return sd_diag_error(diags, SD_ENOMEM, from, "out of memory");
    }
    {
        /* name files under the working directory relatively in messages */
        char cwd[PATH_MAX];
        const char *p = path.ptr;
        size_t cl;
        if (getcwd(cwd, sizeof cwd) && (cl = strlen(cwd)) && strncmp(p, cwd, cl) == 0 && p[cl] == '/')
            p += cl + 1;
        err = sd_doc_load_file(&doc, p, SD_FMT_AUTO, NULL, diags);
    }
    sd_buf_release(&path);
    if (err < 0)
        return err;
    e = realloc(fl->docs, (fl->ndocs + 1) * sizeof *e);
    if (!e || !(e[fl->ndocs].uri = strdup(abs_uri))) {
        if (e)
            fl->docs = e;
        sd_doc_free(doc);
        return sd_diag_error(diags, SD_ENOMEM, from, "out of memory");
    }
    fl->docs = e;
    e[fl->ndocs++].doc = doc;
    *out = doc;
    return 0;
}
