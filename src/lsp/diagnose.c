/* SPDX-License-Identifier: Apache-2.0 */
/* diagnose.c - each chart (or plain schema) opened once (attach.c says
 * which a document belongs to), and the document's diagnostics: `schemadoc validate CHART
 * FILE` run on the unsaved text (source/check.h, merged over values.yaml as
 * Helm merges), its findings about this file with ranges, the schema's
 * place as related information. */
#include "lsp_int.h"
#include "alloc.h"
#include "check.h"
#include "docset.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---- charts ------------------------------------------------------------------ */

static void chart_close(sd_lsp_chart *c)
{
    sd_source_free(c->src);
    c->src = NULL;
    json_decref(c->model);
    c->model = NULL;
    c->model_failed = 0;
    sd_lsp__refs_free(c->refs);
    c->refs = NULL;
    free(c->why);
    c->why = NULL;
}

static void chart_open(sd_lsp *s, sd_lsp_chart *c)
{
    sd_diags dg = SD_DIAGS_INIT;
    char *local = NULL;
    if (c->is_schema && strstr(c->dir, "://") && !(local = sd_lsp__remote_schema(s, c->dir, &c->why)))
        return;   /* not fetched: c->why says why */
    sd_load_budget_reset(0);
    int err = sd_source_open(&c->src, local ? local : c->dir, &s->opts.source, &dg);
    free(local);
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

sd_lsp_chart *sd_lsp__chart_get(sd_lsp *s, const char *dir, int is_schema)
{
    char token[64];
    for (size_t i = 0; i < s->ncharts; i++)
        if (!strcmp(s->charts[i]->dir, dir) && s->charts[i]->is_schema == is_schema)
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
    c->is_schema = is_schema;
    /* the first load: a big chart's schema takes a while to compile */
    sd_lsp__progress_begin(s, is_schema ? "schemadoc: reading the schema" : "schemadoc: opening the chart", dir,
                           token, sizeof token);
    chart_open(s, c);
    sd_lsp__progress_end(s, token);
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
        if (c->is_schema ? strcmp(p, c->dir) : strncmp(p, c->dir, n) || p[n] != '/')
            continue;
        chart_close(c);
        chart_open(s, c);
        for (size_t j = 0; j < s->ndocs; j++)
            if (s->docs[j]->chart == c)
                s->docs[j]->dirty = 1;
    }
}

/* A remote $schema is read as the resolver reads a remote $ref: through
 * the source options' --map prefixes, else the fetcher's cache (and
 * --offline). */
char *sd_lsp__remote_schema(sd_lsp *s, const char *url, char **why)
{
    sd_docset *set = NULL;
    sd_docset_opts o;
    sd_diags dg = SD_DIAGS_INIT;
    sd_buf body = SD_BUF_INIT, w = SD_BUF_INIT, cache = SD_BUF_INIT;
    char *mapped = NULL, *out = NULL;
    const sd_source_opts *so = &s->opts.source;

    memset(&o, 0, sizeof o);
    o.fetch.cache_dir = so->cache_dir;
    o.fetch.offline = so->offline;
    o.fetch.refresh = so->refresh;
    o.fetch.timeout_ms = so->timeout_ms;
    if (sd_docset_new(&set, &o, &dg) < 0)
        goto done;
    for (size_t i = 0; i < so->nmaps; i++)
        if (sd_docset_add_map(set, so->maps[i], &dg) < 0)
            goto done;
    /* --map: a local copy, as the resolver would read it */
    if (sd_docset_map(&mapped, set, url) < 0)
        goto done;
    if (mapped && !strncmp(mapped, "file:", 5)) {
        out = sd_lsp__uri_path(mapped);
        goto done;
    }
    /* else the fetcher: its cache, --offline, --refresh */
    if (sd_fetch_get(&body, sd_docset_fetcher(set), mapped ? mapped : url, &w, NULL) < 0)
        goto done;
    if (sd_fetch_cache_path(&cache, sd_docset_fetcher(set), mapped ? mapped : url) == 0 && !sd_buf_failed(&cache))
        out = sd_buf_detach(&cache);
    else
        sd_buf_puts(&w, "the schema was fetched but there is no cache to read it from");
done:
    if (!out) {
        if (!w.len && dg.count)
            sd_buf_puts(&w, dg.items[0].message);
        if (!w.len)
            sd_buf_printf(&w, "cannot read the schema %s", url);
        *why = sd_buf_detach(&w);
    }
    free(mapped);
    sd_buf_release(&body);
    sd_buf_release(&w);
    sd_buf_release(&cache);
    sd_diags_release(&dg);
    sd_docset_free(set);
    return out;
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
        json_t *g = diagnostic(s, d, e[i].loc, e[i].end_line, e[i].end_column, sev, e[i].keyword, m.ptr,
                               e[i].schema_loc);
        /* for the code actions (actions.c): the instance's pointer, and
         * the key the chart names as a deprecated one's replacement */
        if (g && e[i].path)
            json_object_set_new(g, "data", sd_lsp__action_data(d->chart, e[i].path, e[i].keyword, e[i].message));
        json_array_append_new(out, g);
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
