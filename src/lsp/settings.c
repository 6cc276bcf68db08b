/* SPDX-License-Identifier: Apache-2.0 */
/* settings.c - what the client tells the server besides documents: the
 * workspace root, the settings that map files to charts by glob
 * (`{"schemadoc": {"charts": {"<glob>": "<chart dir>"}}}`, from
 * initializationOptions or workspace/didChangeConfiguration; globs and
 * chart folders relative to the root), and $/progress reports for a long
 * job (window/workDoneProgress/create, then begin and end), sent only to a
 * client that says it takes them. docs/lsp.md */
#include "lsp_int.h"
#include "alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sd_lsp__root(sd_lsp *s, json_t *params)
{
    const char *uri = json_string_value(json_object_get(params, "rootUri"));
    json_t *wf = json_array_get(json_object_get(params, "workspaceFolders"), 0);
    char *p = NULL;

    if (uri)
        p = sd_lsp__uri_path(uri);
    if (!p && wf)
        p = sd_lsp__uri_path(json_string_value(json_object_get(wf, "uri")));
    if (!p && json_string_value(json_object_get(params, "rootPath")) &&
        !(p = strdup(json_string_value(json_object_get(params, "rootPath")))))
        sd_alloc_note_failure();
    while (p && strlen(p) > 1 && p[strlen(p) - 1] == '/')
        p[strlen(p) - 1] = '\0';
    free(s->root);
    s->root = p;
}

int sd_lsp__settings(sd_lsp *s, json_t *opts)
{
    json_t *o = json_object_get(opts, "schemadoc");
    json_t *charts, *v;
    const char *k;

    if (!o && json_object_get(opts, "charts"))
        o = opts;   /* the inner object alone */
    if (!o)
        return 0;   /* nothing for us (null, another server's section): kept as it was */
    if (!json_is_object(o))
        return -1;
    charts = json_object_get(o, "charts");
    if (!charts) {
        json_decref(s->globs);   /* settings without charts: none */
        s->globs = NULL;
        return 0;
    }
    if (!json_is_object(charts))
        return -1;
    json_object_foreach(charts, k, v) {
        if (!json_is_string(v) || !*k)
            return -1;
    }
    json_decref(s->globs);
    s->globs = json_incref(charts);
    return 0;
}

/* `g` against `p`: `**` (as a whole folder name) any number of folders, `*`
 * and `?` within one; `*budget` bounds the steps a hostile glob takes. */
static int match(const char *g, const char *p, long *budget)
{
    while (--*budget > 0) {
        if (g[0] == '*' && g[1] == '*') {
            const char *rest = g + 2;
            if (*rest == '/') {   /* "**" then "/": zero or more folders */
                for (const char *q = p;; q++) {
                    if (match(rest + 1, q, budget))
                        return 1;
                    if (!(q = strchr(q, '/')))
                        return 0;
                }
            }
            for (const char *q = p;; q++) {   /* `**` at the end: anything */
                if (match(rest, q, budget))
                    return 1;
                if (!*q)
                    return 0;
            }
        }
        if (*g == '*') {
            for (const char *q = p;; q++) {
                if (match(g + 1, q, budget))
                    return 1;
                if (!*q || *q == '/' || *budget <= 0)
                    return 0;
            }
        }
        if (!*g)
            return !*p;
        if (!*p || (*g == '?' ? *p == '/' : *g != *p))
            return 0;
        g++;
        p++;
    }
    return 0;
}

int sd_lsp__glob(const char *glob, const char *path)
{
    long budget = 100000;
    return match(glob, path, &budget);
}

char *sd_lsp__settings_chart(sd_lsp *s, const char *path)
{
    const char *k, *rel = NULL;
    json_t *v;
    size_t n = s->root ? strlen(s->root) : 0;

    if (s->root && !strncmp(path, s->root, n) && (path[n] == '/' || !strcmp(s->root, "/")))
        rel = path + n + (path[n] == '/');
    json_object_foreach(s->globs, k, v) {
        int hit = k[0] == '/' ? sd_lsp__glob(k, path) : rel && sd_lsp__glob(k[0] == '.' && k[1] == '/' ? k + 2 : k, rel);
        if (!hit)
            continue;
        const char *dir = json_string_value(v);
        sd_buf b = SD_BUF_INIT;
        if (dir[0] != '/' && s->root)
            sd_buf_printf(&b, "%s/", s->root);
        sd_buf_puts(&b, dir);
        if (sd_buf_failed(&b)) {
            sd_buf_release(&b);
            return sd_alloc_note_failure(), NULL;
        }
        return sd_buf_detach(&b);
    }
    return NULL;
}

/* ---- $/progress -------------------------------------------------------------- */

void sd_lsp__progress_begin(sd_lsp *s, const char *title, const char *msg, char *token, size_t n)
{
    if (!s->progress) {
        *token = '\0';
        return;
    }
    snprintf(token, n, "schemadoc-%ld", s->next_id + 1);
    sd_lsp__request(s, "window/workDoneProgress/create", json_pack("{s:s}", "token", token));
    sd_lsp__notify(s, "$/progress", json_pack("{s:s,s:{s:s,s:s,s:s,s:b}}", "token", token, "value", "kind", "begin",
                                              "title", title, "message", msg, "cancellable", 0));
}

void sd_lsp__progress_end(sd_lsp *s, const char *token)
{
    if (*token)
        sd_lsp__notify(s, "$/progress", json_pack("{s:s,s:{s:s}}", "token", token, "value", "kind", "end"));
}
