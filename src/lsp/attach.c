/* SPDX-License-Identifier: Apache-2.0 */
/* attach.c - which chart (or plain schema) an open document is checked
 * against, first found first: the chart folder the file is in (a
 * Chart.yaml at its folder or above); else a modeline among the comment
 * lines heading the text, `# schemadoc: chart=DIR` or yaml-language-
 * server's `# yaml-language-server: $schema=PATH-OR-URL` (relative to the
 * file's folder); else the client's settings, a glob of the workspace
 * mapped to a chart folder (settings.c). docs/lsp.md */
#include "lsp_int.h"
#include "alloc.h"
#include "file.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { ML_NONE, ML_CHART, ML_SCHEMA };

/* The value of `# NAME KEY=VALUE` on comment line [p, le), or NULL. */
static const char *ml_value(const char *p, const char *le, const char *name, const char *key, size_t *n)
{
    size_t nl = strlen(name), kl = strlen(key);
    while (p < le && *p == ' ')
        p++;
    if ((size_t)(le - p) <= nl || strncmp(p, name, nl))
        return NULL;
    p += nl;
    while (p < le && *p == ' ')
        p++;
    if ((size_t)(le - p) <= kl || strncmp(p, key, kl))
        return NULL;
    const char *v = p + kl, *ve = le;
    while (ve > v && (ve[-1] == ' ' || ve[-1] == '\r' || ve[-1] == '\t'))
        ve--;
    *n = (size_t)(ve - v);
    return *n ? v : NULL;
}

/* The modeline of the comment lines heading the text: its kind, and its
 * value as a new string in *out. */
static int modeline(const sd_lsp_doc *d, char **out)
{
    const char *t = d->text.ptr, *end = t + d->text.len;
    *out = NULL;
    while (t < end && *t == '#') {
        const char *nl = memchr(t, '\n', (size_t)(end - t));
        const char *le = nl ? nl : end, *v;
        size_t n;
        int kind = ML_NONE;
        if ((v = ml_value(t + 1, le, "schemadoc:", "chart=", &n)))
            kind = ML_CHART;
        else if ((v = ml_value(t + 1, le, "yaml-language-server:", "$schema=", &n)))
            kind = ML_SCHEMA;
        if (kind) {
            if (!(*out = strndup(v, n)))
                return sd_alloc_note_failure(), ML_NONE;
            return kind;
        }
        t = nl ? nl + 1 : end;
    }
    return ML_NONE;
}

/* Is `path` a values file of the chart in `dir` (not its Chart.yaml,
 * schema, or a template)? */
static int values_file_of(const char *dir, const char *path)
{
    const char *rel = path + strlen(dir) + 1, *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    if (!strncmp(rel, "templates/", 10) || !strncmp(rel, "charts/", 7))
        return 0;
    return strcmp(b, "Chart.yaml") && strcmp(b, "Chart.lock") && strcmp(b, "values.schema.json") &&
           strcmp(b, "values.schema.yaml") && strcmp(b, "requirements.yaml") &&
           strcmp(b, ".schema.yaml") && strcmp(b, "schema-dependencies.json");
}

/* realpath() of a file that may not be on disk yet (a new, unsaved
 * buffer): its folder's, and its name. NULL when the folder is not there. */
static char *real_path(const char *path, char *out)
{
    const char *slash = strrchr(path, '/');
    char dir[PATH_MAX];
    if (realpath(path, out))
        return out;
    if (!slash || (size_t)(slash - path) >= sizeof dir)
        return NULL;
    memcpy(dir, path, (size_t)(slash - path));
    dir[slash - path] = '\0';
    if (!realpath(slash == path ? "/" : dir, out) || strlen(out) + strlen(slash) >= PATH_MAX)
        return NULL;
    strcat(out, slash);
    return out;
}

static void say(sd_lsp_doc *d, const char *fmt, const char *a, const char *b)
{
    sd_buf w = SD_BUF_INIT;
    sd_buf_printf(&w, fmt, a, b);
    free(d->chart_why);
    d->chart_why = sd_buf_detach(&w);
}

static int is_remote(const char *v)
{
    return !strncmp(v, "http://", 7) || !strncmp(v, "https://", 8);
}

/* `v` (a modeline's or a setting's) as a path: a file: URL decoded,
 * relative to `base` (a folder, or NULL). New string. */
static char *local_path(const char *v, const char *base)
{
    char *p = !strncmp(v, "file:", 5) ? sd_lsp__uri_path(v) : NULL;
    sd_buf b = SD_BUF_INIT;
    if (p)
        return p;
    if (v[0] != '/' && base)
        sd_buf_printf(&b, "%s/", base);
    sd_buf_puts(&b, v);
    if (sd_buf_failed(&b)) {
        sd_buf_release(&b);
        return sd_alloc_note_failure(), NULL;
    }
    return sd_buf_detach(&b);
}

/* Attach `d` to what `v` names (a chart folder, or with `schema` a schema
 * file or URL); `from` says where it was named, for the warning. */
static void attach_to(sd_lsp *s, sd_lsp_doc *d, const char *v, const char *base, int schema, const char *from)
{
    char real[PATH_MAX];
    struct stat st;
    if (schema && is_remote(v)) {
        d->chart = sd_lsp__chart_get(s, v, 1);
        return;
    }
    char *p = local_path(v, base);
    if (!p)
        return;
    if (realpath(p, real) && sd_chart_is_dir(real))
        d->chart = sd_lsp__chart_get(s, real, 0);
    else if (schema && realpath(p, real) && !stat(real, &st) && S_ISREG(st.st_mode))
        d->chart = sd_lsp__chart_get(s, real, 1);
    else
        say(d, schema ? "%s is no schema file: %s" : "%s is no chart directory (no Chart.yaml at %s)", from, p);
    free(p);
}

void sd_lsp__attach(sd_lsp *s, sd_lsp_doc *d)
{
    char real[PATH_MAX], dir[PATH_MAX], folder[PATH_MAX];
    char *ml = NULL, *set;
    int kind;
    int have = d->path && real_path(d->path, real);

    d->chart = NULL;
    d->is_defaults = 0;
    free(d->chart_why);
    d->chart_why = NULL;
    /* 1. the folder holding a Chart.yaml, from the file's own upwards */
    if (have) {
        strcpy(dir, real);
        for (char *slash; (slash = strrchr(dir, '/'));) {
            *slash = '\0';
            if (!dir[0])
                break;
            if (sd_chart_is_dir(dir)) {
                if (!values_file_of(dir, real))
                    return;   /* a template, Chart.yaml, a schema: not values */
                d->chart = sd_lsp__chart_get(s, dir, 0);
                d->is_defaults = !strcmp(real + strlen(dir), "/values.yaml");
                return;
            }
        }
    }
    /* 2. a modeline, relative to the file's folder */
    if (have) {
        strcpy(folder, real);
        *strrchr(folder, '/') = '\0';
    }
    if ((kind = modeline(d, &ml)) != ML_NONE) {
        sd_buf from = SD_BUF_INIT;
        sd_buf_printf(&from, kind == ML_CHART ? "the modeline's chart=%s" : "the modeline's $schema=%s", ml);
        attach_to(s, d, ml, have ? folder : NULL, kind == ML_SCHEMA, from.ptr);
        sd_buf_release(&from);
        free(ml);
        return;
    }
    /* 3. the settings' globs */
    if (have && (set = sd_lsp__settings_chart(s, real))) {
        sd_buf from = SD_BUF_INIT;
        sd_buf_printf(&from, "the setting schemadoc.charts (%s)", set);
        attach_to(s, d, set, NULL, 1, from.ptr);
        sd_buf_release(&from);
        free(set);
    }
}
