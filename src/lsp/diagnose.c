/* SPDX-License-Identifier: Apache-2.0 */
/* diagnose.c - which chart a document belongs to (a Chart.yaml in its
 * folder or above; else a `# schemadoc: chart=PATH` modeline), each chart
 * opened once, and the document's diagnostics: `schemadoc validate CHART
 * FILE` run on the unsaved text (source/check.h, merged over values.yaml as
 * Helm merges), its findings about this file with ranges, the schema's
 * place as related information. */
#include "lsp_int.h"
#include "alloc.h"
#include "check.h"
#include "file.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- charts ------------------------------------------------------------------ */

static void chart_close(sd_lsp_chart *c)
{
    sd_source_free(c->src);
    c->src = NULL;
    json_decref(c->model);
    c->model = NULL;
    c->model_failed = 0;
    free(c->why);
    c->why = NULL;
}

static void chart_open(sd_lsp *s, sd_lsp_chart *c)
{
    sd_diags dg = SD_DIAGS_INIT;
    sd_load_budget_reset(0);
    int err = sd_source_open(&c->src, c->dir, &s->opts.source, &dg);
    sd_lsp__note_oom(&dg, err);
    if (err < 0) {
        c->src = NULL;
        for (size_t i = 0; i < dg.count; i++)
            if (dg.items[i].severity == SD_SEV_ERROR) {
                c->why = sd_diag_format(&dg.items[i]);
                break;
            }
        if (!c->why && !(c->why = strdup("the chart cannot be opened")))
            sd_alloc_note_failure();
    }
    sd_diags_release(&dg);
}

/* The chart in `dir` (absolute, resolved), opened on first use. */
static sd_lsp_chart *chart_get(sd_lsp *s, const char *dir)
{
    for (size_t i = 0; i < s->ncharts; i++)
        if (!strcmp(s->charts[i]->dir, dir))
            return s->charts[i];
    sd_lsp_chart **l = realloc(s->charts, (s->ncharts + 1) * sizeof *l), *c = NULL;
    if (!l || !(c = calloc(1, sizeof *c)) || !(c->dir = strdup(dir))) {
        if (l)
            s->charts = l;
        free(c);
        return sd_alloc_note_failure(), NULL;
    }
    s->charts = l;
    s->charts[s->ncharts++] = c;
    chart_open(s, c);
    return c;
}

void sd_lsp__charts_free(sd_lsp *s)
{
    for (size_t i = 0; i < s->ncharts; i++) {
        chart_close(s->charts[i]);
        free(s->charts[i]->dir);
        free(s->charts[i]);
    }
    free(s->charts);
    s->charts = NULL;
    s->ncharts = 0;
    for (size_t i = 0; i < s->ndocs; i++)
        s->docs[i]->chart = NULL;
}

void sd_lsp__file_changed(sd_lsp *s, const char *path)
{
    char real[PATH_MAX];
    const char *p = realpath(path, real) ? real : path;
    for (size_t i = 0; i < s->ncharts; i++) {
        sd_lsp_chart *c = s->charts[i];
        size_t n = strlen(c->dir);
        if (strncmp(p, c->dir, n) || p[n] != '/')
            continue;
        chart_close(c);
        chart_open(s, c);
        for (size_t j = 0; j < s->ndocs; j++)
            if (s->docs[j]->chart == c)
                s->docs[j]->dirty = 1;
    }
}

/* The `# schemadoc: chart=PATH` of the comment lines heading the text, as
 * a new string, or NULL. */
static char *modeline(const sd_lsp_doc *d)
{
    const char *t = d->text.ptr, *end = t + d->text.len;
    while (t < end && *t == '#') {
        const char *nl = memchr(t, '\n', (size_t)(end - t));
        const char *le = nl ? nl : end, *p = t + 1;
        while (p < le && *p == ' ')
            p++;
        if ((size_t)(le - p) > 16 && !strncmp(p, "schemadoc:", 10)) {
            p += 10;
            while (p < le && *p == ' ')
                p++;
            if ((size_t)(le - p) > 6 && !strncmp(p, "chart=", 6)) {
                const char *v = p + 6, *ve = le;
                while (ve > v && (ve[-1] == ' ' || ve[-1] == '\r' || ve[-1] == '\t'))
                    ve--;
                char *r = strndup(v, (size_t)(ve - v));
                if (!r)
                    sd_alloc_note_failure();
                return r;
            }
        }
        t = nl ? nl + 1 : end;
    }
    return NULL;
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

void sd_lsp__attach(sd_lsp *s, sd_lsp_doc *d)
{
    char real[PATH_MAX], dir[PATH_MAX];
    char *ml = modeline(d);

    d->chart = NULL;
    d->is_defaults = 0;
    free(d->chart_why);
    d->chart_why = NULL;
    if (ml) {
        sd_buf p = SD_BUF_INIT;
        const char *slash = d->path ? strrchr(d->path, '/') : NULL;
        if (ml[0] != '/' && slash && slash >= d->path)
            sd_buf_put(&p, d->path, (size_t)(slash - d->path + 1));
        sd_buf_puts(&p, ml);
        if (realpath(p.ptr, dir) && sd_chart_is_dir(dir))
            d->chart = chart_get(s, dir);
        else {
            sd_buf w = SD_BUF_INIT;
            sd_buf_printf(&w, "the modeline's chart=%s is no chart directory (no Chart.yaml at %s)", ml, p.ptr);
            d->chart_why = sd_buf_detach(&w);
        }
        sd_buf_release(&p);
        free(ml);
        return;
    }
    if (!d->path || !real_path(d->path, real))
        return;
    /* the folder holding a Chart.yaml, from the file's own upwards */
    strcpy(dir, real);
    for (char *slash; (slash = strrchr(dir, '/'));) {
        *slash = '\0';
        if (!dir[0])
            break;
        if (sd_chart_is_dir(dir)) {
            if (!values_file_of(dir, real))
                return;   /* a template, Chart.yaml, a schema: not values */
            d->chart = chart_get(s, dir);
            d->is_defaults = !strcmp(real + strlen(dir), "/values.yaml");
            return;
        }
    }
}

/* ---- diagnostics ------------------------------------------------------------ */

static int lsp_severity(int sev)
{
    return sev == SD_SEV_ERROR ? 1 : sev == SD_SEV_WARNING ? 2 : 3;
}

/* A diagnostic from `loc` to `end_line`:`end_column` (the library's end of
 * the key or value, tree/span.h; 0: the start). */
static json_t *diagnostic(sd_lsp *s, sd_lsp_doc *d, sd_loc loc, int end_line, int end_column, int sev,
                          const char *code, const char *msg, sd_loc related)
{
    size_t a = loc.line ? sd_lsp__loc_offset(d, loc.line, loc.column) : 0;
    size_t b = loc.line && end_line ? sd_lsp__loc_offset(d, end_line, end_column) : a;
    json_t *g = json_pack("{s:o,s:i,s:s,s:s}", "range", sd_lsp__range(d, a, b, s->enc),
                          "severity", lsp_severity(sev), "source", "schemadoc", "message", msg);
    if (!g)
        return NULL;
    if (code)
        json_object_set_new(g, "code", json_string(code));
    if (related.file && related.line) {
        char real[PATH_MAX];
        char *uri = sd_lsp__path_uri(realpath(related.file, real) ? real : related.file);
        long l = related.line - 1, c = related.column > 0 ? related.column - 1 : 0;
        if (uri)
            json_object_set_new(g, "relatedInformation",
                                json_pack("[{s:{s:s,s:{s:{s:i,s:i},s:{s:i,s:i}}},s:s}]", "location", "uri", uri,
                                          "range", "start", "line", (json_int_t)l, "character", (json_int_t)c,
                                          "end", "line", (json_int_t)l, "character", (json_int_t)c,
                                          "message", "the schema says so here"));
        free(uri);
    }
    return g;
}

static void add_verrors(sd_lsp *s, sd_lsp_doc *d, json_t *out, const sd_verror *e, size_t n, int sev,
                        const char *name)
{
    for (size_t i = 0; i < n; i++) {
        if (!e[i].loc.file || strcmp(e[i].loc.file, name))
            continue;   /* a finding about values.yaml, not this file */
        sd_buf m = SD_BUF_INIT;
        sd_buf_printf(&m, "%s: %s", e[i].key ? e[i].key : "", e[i].message ? e[i].message : "");
        json_array_append_new(out, diagnostic(s, d, e[i].loc, e[i].end_line, e[i].end_column, sev, e[i].keyword,
                                                m.ptr, e[i].schema_loc));
        sd_buf_release(&m);
    }
}

/* The diagnostics of `d` as a JSON array (new reference). */
static json_t *diagnose(sd_lsp *s, sd_lsp_doc *d)
{
    json_t *out = json_array();
    sd_diags dg = SD_DIAGS_INIT;
    sd_check *chk = NULL;
    sd_check_opts co;
    const char *name;
    const sd_chart *chart;

    if (!out)
        return NULL;
    if (!d->chart) {
        if (d->chart_why)
            json_array_append_new(out, diagnostic(s, d, (sd_loc){ NULL, 0, 0 }, 0, 0, SD_SEV_WARNING, NULL,
                                                  d->chart_why, (sd_loc){ NULL, 0, 0 }));
        return out;
    }
    if (!d->chart->src) {
        json_array_append_new(out, diagnostic(s, d, (sd_loc){ NULL, 0, 0 }, 0, 0, SD_SEV_ERROR, NULL,
                                              d->chart->why, (sd_loc){ NULL, 0, 0 }));
        return out;
    }
    chart = sd_source_chart(d->chart->src);
    name = d->is_defaults && chart && chart->values ? chart->values->file : d->path ? d->path : d->uri;
    memset(&co, 0, sizeof co);
    co.by_position = 1;
    co.mem_name = name;
    co.mem_text = d->text.ptr;
    co.mem_len = d->text.len;
    co.mem_defaults = d->is_defaults;
    sd_load_budget_reset(0);
    int err = sd_check_run(&chk, d->chart->src, &name, 1, &co, &dg);
    sd_lsp__note_oom(&dg, err);
    if (err == 0) {
        for (size_t i = 0; i < sd_check_count(chk); i++) {
            const sd_check_result *r = sd_check_result_at(chk, i);
            add_verrors(s, d, out, r->res.items, r->res.count, SD_SEV_ERROR, name);
            add_verrors(s, d, out, r->res.warnings, r->res.nwarnings, SD_SEV_WARNING, name);
        }
    }
    /* the run's own: YAML errors, duplicate keys, a second document; an
     * error elsewhere (the chart's schema) at the top */
    for (size_t i = 0; i < dg.count; i++) {
        const sd_diag *g = &dg.items[i];
        if (g->loc.file && !strcmp(g->loc.file, name)) {
            json_array_append_new(out, diagnostic(s, d, g->loc, g->end_line, g->end_column, g->severity, NULL, g->message,
                                                  (sd_loc){ NULL, 0, 0 }));
        } else if (g->severity == SD_SEV_ERROR) {
            char *line = sd_diag_format(g);
            if (line)
                json_array_append_new(out, diagnostic(s, d, (sd_loc){ NULL, 0, 0 }, 0, 0, SD_SEV_ERROR, NULL, line,
                                                      (sd_loc){ NULL, 0, 0 }));
            free(line);
        }
    }
    /* the text as the run read it: the features need not read it again
     * (a 50 MB text is parsed once per change, not twice) */
    if (chk && !d->parsed && !d->parsed_ok && (d->parsed = sd_check_take_doc(chk, name)))
        d->parsed_ok = 1;
    sd_check_free(chk);
    sd_diags_release(&dg);
    return out;
}

void sd_lsp__publish(sd_lsp *s, sd_lsp_doc *d)
{
    json_t *g = diagnose(s, d);
    d->dirty = 0;
    if (!g) {
        sd_alloc_note_failure();
        return;
    }
    json_decref(d->published);
    d->published = json_incref(g);
    sd_lsp__notify(s, "textDocument/publishDiagnostics",
                   json_pack("{s:s,s:i,s:o}", "uri", d->uri, "version", (json_int_t)d->version, "diagnostics", g));
}

void sd_lsp__publish_dirty(sd_lsp *s)
{
    for (size_t i = 0; i < s->ndocs && !s->write_failed; i++)
        if (s->docs[i]->dirty)
            sd_lsp__publish(s, s->docs[i]);
}
