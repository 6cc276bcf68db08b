/* SPDX-License-Identifier: Apache-2.0 */
/* gen_config.c - helm-values-schema-json's `.schema.yaml` (the settings of
 * the `helm schema` plugin, beside the chart): values files, draft,
 * indent, useHelmDocs, noAdditionalProperties, schemaRoot, k8s aliases,
 * bundle and bundleWithoutID (gen_bundle.c).
 * Keys of the plugin that change nothing here (output, bundleRoot...) are
 * accepted; any other key is a warning. And the YAML examples of a
 * chart's README, which say what a placeholder default (`""`) holds. */
#include "gen.h"
#include "alloc.h"
#include "file.h"

#include <stdlib.h>
#include <string.h>

static int bool_of(const sd_node *v, int *out)
{
    if (v && v->kind == SD_BOOL) {
        *out = v->num.b;
        return 1;
    }
    return 0;
}

static const char *str_of(const sd_node *v)
{
    return v && v->kind == SD_STR ? v->str : NULL;
}

/* 1 when the relative path `p`, its "." and ".." taken as text, climbs
 * above the folder it is relative to ("../x", "a/../../x"). */
static int climbs(const char *p)
{
    long depth = 0;
    while (*p) {
        size_t n = strcspn(p, "/\\");
        if (n == 2 && p[0] == '.' && p[1] == '.') {
            if (--depth < 0)
                return 1;
        } else if (n && !(n == 1 && p[0] == '.')) {
            depth++;
        }
        p += n;
        while (*p == '/' || *p == '\\')
            p++;
    }
    return 0;
}

/* A values file the settings list: relative to the chart, and inside it
 * (issue 41: `../x` and `/x` would read any file of the machine into the
 * made schema). Where it leads through symbolic links is checked when it
 * is read (sd_doc_load_in). */
static int check_values_path(sd_diags *diags, const sd_node *k, const sd_node *v)
{
    if (v->str[0] == '/' || v->str[0] == '\\')
        return sd_diag_error(diags, SD_EDENIED, v->loc, "`%s` in the schema settings: '%s' is an absolute "
                             "path (values files are relative to the chart directory)", k->str, v->str);
    if (climbs(v->str))
        return sd_diag_error(diags, SD_EDENIED, v->loc, "`%s` in the schema settings: '%s' leaves the chart "
                             "directory", k->str, v->str);
    return 0;
}

static int bad(sd_diags *diags, const sd_node *k, const char *what)
{
    return sd_diag_error(diags, SD_ESYNTAX, k->loc, "`%s` in the schema settings: %s", k->str, what);
}

int sd_gen_config(sd_gen_opts *o, const char ***values, size_t *n, const sd_doc *cfg, sd_diags *diags)
{
    const sd_node *root = cfg ? sd_doc_root(cfg) : NULL;
    int b;

    *values = NULL;
    *n = 0;
    if (!root)
        return 0;
    if (root->kind != SD_MAP)
        return sd_diag_error(diags, SD_ESYNTAX, root->loc, "the schema settings must be a map of settings");
    for (uint32_t i = 0; i < root->n; i++) {
        const sd_node *k = root->items[i].key, *v = root->items[i].value;
        const char *key = k->str;
        if (!strcmp(key, "values") || !strcmp(key, "input")) {   /* (input: before v2) */
            if (v->kind == SD_STR) {
                if (check_values_path(diags, k, v) < 0)
                    return SD_EDENIED;
                const char **l = sd_arena_alloc(&((sd_doc *)cfg)->arena, sizeof *l);
                if (!l)
                    return SD_ENOMEM;
                l[0] = v->str;
                *values = l;
                *n = 1;
            } else if (v->kind == SD_SEQ) {
                const char **l = sd_arena_alloc(&((sd_doc *)cfg)->arena, (v->n + 1) * sizeof *l);
                if (!l)
                    return SD_ENOMEM;
                for (uint32_t j = 0; j < v->n; j++) {
                    if (v->items[j].value->kind != SD_STR)
                        return bad(diags, k, "expected a list of file names");
                    if (check_values_path(diags, k, v->items[j].value) < 0)
                        return SD_EDENIED;
                    l[j] = v->items[j].value->str;
                }
                *values = l;
                *n = v->n;
            } else {
                return bad(diags, k, "expected a file name or a list of them");
            }
        } else if (!strcmp(key, "draft")) {
            long long d = v->kind == SD_INT ? v->num.i : 0;
            if (d != 4 && d != 6 && d != 7 && d != 2019 && d != 2020)
                return bad(diags, k, "expected 4, 6, 7, 2019 or 2020");
            o->draft = (int)d;
        } else if (!strcmp(key, "indent")) {
            if (v->kind != SD_INT || v->num.i <= 0 || v->num.i > 16 || v->num.i % 2)
                return bad(diags, k, "expected an even number from 2 to 16");
            o->indent = (int)v->num.i;
        } else if (!strcmp(key, "useHelmDocs")) {
            if (!bool_of(v, &b))
                return bad(diags, k, "expected true or false");
            o->helm_docs = b ? 1 : -1;
        } else if (!strcmp(key, "noAdditionalProperties")) {
            if (!bool_of(v, &o->no_additional))
                return bad(diags, k, "expected true or false");
        } else if (!strcmp(key, "noDefaultGlobal")) {
            if (!bool_of(v, &o->no_global))
                return bad(diags, k, "expected true or false");
        } else if (!strcmp(key, "k8sSchemaVersion")) {
            o->k8s_version = str_of(v);
        } else if (!strcmp(key, "k8sSchemaURL")) {
            o->k8s_url = str_of(v);
        } else if (!strcmp(key, "schemaRoot")) {
            if (v->kind != SD_MAP)
                return bad(diags, k, "expected a map (id, ref, title, description, additionalProperties)");
            for (uint32_t j = 0; j < v->n; j++) {
                const sd_node *rk = v->items[j].key, *rv = v->items[j].value;
                if (!strcmp(rk->str, "id"))
                    o->root_id = str_of(rv);
                else if (!strcmp(rk->str, "ref"))
                    o->root_ref = str_of(rv);
                else if (!strcmp(rk->str, "title"))
                    o->root_title = str_of(rv);
                else if (!strcmp(rk->str, "description"))
                    o->root_description = str_of(rv);
                else if (!strcmp(rk->str, "additionalProperties")) {
                    if (!bool_of(rv, &b))
                        return bad(diags, rk, "expected true or false");
                    o->root_additional = b ? 2 : 1;
                } else {
                    sd_diag_warning(diags, rk->loc, "`schemaRoot.%s` is not a setting of helm-values-schema-json; "
                                    "ignored", rk->str);
                }
            }
        } else if (!strcmp(key, "output") || !strcmp(key, "bundleRoot") || !strcmp(key, "bundleCacheMin")) {
            /* where the plugin writes (`schemadoc schema -o` says where), the
             * directory it may read bundled files from (here: the chart's
             * confinement and --map), how long it caches URLs (the run's
             * fetcher caches them) */
        } else if (!strcmp(key, "bundle")) {
            if (!bool_of(v, &o->bundle))
                return bad(diags, k, "expected true or false");
        } else if (!strcmp(key, "bundleWithoutID")) {
            if (!bool_of(v, &o->bundle_without_id))
                return bad(diags, k, "expected true or false");
        } else {
            sd_diag_warning(diags, k->loc, "`%s` is not a setting of helm-values-schema-json; ignored", key);
        }
    }
    return 0;
}

/* ---- a README's YAML examples ------------------------------------------------ */

size_t sd_gen_readme_examples(sd_doc **docs, size_t max, const char *text, size_t len, const char *name)
{
    size_t n = 0;
    const char *p = text, *end = text + len;

    while (p < end && n < max) {
        const char *eol = memchr(p, '\n', (size_t)(end - p)), *l = p, *body, *q;
        eol = eol ? eol : end;
        p = eol < end ? eol + 1 : end;
        while (l < eol && *l == ' ')
            l++;
        /* an opening fence whose info string is yaml or yml (``` or ~~~) */
        if (eol - l < 6 || (strncmp(l, "```", 3) && strncmp(l, "~~~", 3)))
            continue;
        char fence = *l;
        const char *info = l + 3;
        while (info < eol && *info == fence)
            info++;
        while (info < eol && *info == ' ')
            info++;
        if (!((eol - info >= 4 && !strncmp(info, "yaml", 4) && (eol - info == 4 || info[4] == ' ' || info[4] == '\r')) ||
              (eol - info >= 3 && !strncmp(info, "yml", 3) && (eol - info == 3 || info[3] == ' ' || info[3] == '\r'))))
            continue;
        /* its body: up to the closing fence */
        body = q = p;
        while (q < end) {
            const char *e2 = memchr(q, '\n', (size_t)(end - q)), *s = q;
            e2 = e2 ? e2 : end;
            while (s < e2 && *s == ' ')
                s++;
            if (e2 - s >= 3 && s[0] == fence && s[1] == fence && s[2] == fence)
                break;
            q = e2 < end ? e2 + 1 : end;
        }
        sd_diags quiet = SD_DIAGS_INIT;
        sd_doc *d = NULL;
        int err = sd_doc_load_mem(&d, name, body, (size_t)(q - body), SD_FMT_YAML, NULL, &quiet);
        if (err == 0 && sd_doc_root(d) && sd_doc_root(d)->kind == SD_MAP && sd_doc_root(d)->n)
            docs[n++] = d;
        else
            sd_doc_free(d);
        if (err == SD_ENOMEM)
            sd_alloc_note_failure();   /* an example lost: the run fails, not the schema */
        sd_diags_release(&quiet);
        p = q;
        if (p < end) {   /* past the closing fence */
            const char *e3 = memchr(p, '\n', (size_t)(end - p));
            p = e3 ? e3 + 1 : end;
        }
    }
    return n;
}

size_t sd_gen_chart_readme(sd_doc **docs, size_t max, const char *chart_dir)
{
    sd_buf p = SD_BUF_INIT;
    sd_diags quiet = SD_DIAGS_INIT;
    char *text = NULL;
    size_t len = 0, n = 0;

    sd_buf_printf(&p, "%s/README.md", chart_dir);
    if (sd_buf_failed(&p))
        sd_alloc_note_failure();
    else if (sd_file_present(p.ptr)) {
        int err = sd_file_read_in(&text, &len, chart_dir, p.ptr, SD_FILE_MAX, "README", &quiet);
        if (err == 0)
            n = sd_gen_readme_examples(docs, max, text, len, p.ptr);
        else if (err == SD_ENOMEM)
            sd_alloc_note_failure();
    }
    free(text);
    sd_diags_release(&quiet);
    sd_buf_release(&p);
    return n;
}
