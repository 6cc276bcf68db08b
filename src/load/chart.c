/* SPDX-License-Identifier: Apache-2.0 */
/* chart.c - load a Helm chart directory into its documents (see chart.h). */
#include "chart.h"
#include "buf.h"
#include "file.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Optional files are absent only when there is no such file: a FIFO, a
 * link loop or an unreadable file is loaded and fails loudly (file.h). */
static int exists(const char *path)
{
    return sd_file_present(path);
}

int sd_chart_is_dir(const char *path)
{
    sd_buf p = SD_BUF_INIT;
    struct stat st;
    int r = 0;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        sd_buf_printf(&p, "%s/Chart.yaml", path);
        r = exists(p.ptr);
    }
    sd_buf_release(&p);
    return r;
}

const char *sd_chart_name(const sd_chart *c)
{
    return sd_node_str(sd_node_get(sd_doc_root(c->chart_yaml), "name"));
}

/* An optional file of the chart in `root` (`dir` is the chart or one of
 * its subcharts): never read through a link that leads out of `root`. */
static int load_opt(sd_doc **out, const char *root, const char *dir, const char *name, sd_diags *diags)
{
    sd_buf p = SD_BUF_INIT;
    int err = 0;
    *out = NULL;
    sd_buf_printf(&p, "%s/%s", dir, name);
    if (sd_buf_failed(&p)) {
        sd_loc l = { dir, 0, 0 };
        err = sd_diag_error(diags, SD_ENOMEM, l, "out of memory");
    } else if (exists(p.ptr))
        err = sd_doc_load_in(out, root, p.ptr, !strcmp(name, "values.yaml") ? "values file"
                             : !strcmp(name, "Chart.yaml") ? "chart file" : "values schema",
                             SD_FMT_AUTO, NULL, diags);
    sd_buf_release(&p);
    return err;
}

/* A folder of the chart in `root` (templates/, ci/, a subchart under
 * charts/) that leads out of it through a symbolic link: refused before
 * anything in it is read (issue 41). */
static int check_dir(const char *root, const char *dir, const char *name, const char *what,
                     sd_diags *diags)
{
    sd_buf p = SD_BUF_INIT;
    char *held = NULL;
    int err = 0;

    if (name)
        sd_buf_printf(&p, "%s/%s", dir, name);
    else
        sd_buf_puts(&p, dir);
    if (sd_buf_failed(&p))
        err = sd_diag_error(diags, SD_ENOMEM, (sd_loc){ dir, 0, 0 }, "out of memory");
    else if (exists(p.ptr))
        err = sd_file_confine(&held, root, p.ptr, what, diags);
    free(held);
    sd_buf_release(&p);
    return err;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The alias a dependency in Chart.yaml gives the subchart `name`, if any. */
static const char *dep_alias(const sd_chart *parent, const char *name)
{
    const sd_node *deps = sd_node_get(sd_doc_root(parent->chart_yaml), "dependencies");
    if (!deps || deps->kind != SD_SEQ)
        return NULL;
    for (size_t i = 0; i < deps->n; i++) {
        const sd_node *d = deps->items[i].value;
        const char *n = sd_node_str(sd_node_get(d, "name"));
        const char *a = sd_node_str(sd_node_get(d, "alias"));
        if (n && a && strcmp(n, name) == 0)
            return a;
    }
    return NULL;
}

/* The walk over charts/: the directories being loaded (a subchart that is
 * one of them again, through a symbolic link, would recurse for ever) and
 * how many charts were loaded (links to siblings multiply them). */
#define MAX_DEPTH  8
#define MAX_CHARTS 20000
typedef struct walk {
    dev_t  dev[MAX_DEPTH + 1];
    ino_t  ino[MAX_DEPTH + 1];
    const char *dir[MAX_DEPTH + 1];
    const char *root;   /* the chart given: no file of a subchart leads out of it */
    size_t total;
} walk;

static int load_dir(sd_chart **out, const char *dir, int depth, walk *w, sd_diags *diags)
{
    sd_chart *c = calloc(1, sizeof *c);
    sd_buf p = SD_BUF_INIT;
    struct stat st;
    int err;

    *out = NULL;
    if (!c || !(c->dir = strdup(dir))) {
        free(c);
        sd_loc l = { dir, 0, 0 };
        return sd_diag_error(diags, SD_ENOMEM, l, "out of memory");
    }
    size_t n = strlen(c->dir);
    while (n > 1 && c->dir[n - 1] == '/')
        c->dir[--n] = '\0';
    if (!sd_chart_is_dir(c->dir)) {
        sd_loc l = { dir, 0, 0 };
        err = sd_diag_error(diags, SD_ENOTFOUND, l, "not a chart directory: no Chart.yaml");
        goto fail;
    }
    if (stat(c->dir, &st) == 0) {
        sd_loc l = { c->dir, 0, 0 };
        for (int i = 0; i < depth; i++)
            if (w->dev[i] == st.st_dev && w->ino[i] == st.st_ino) {
                err = sd_diag_error(diags, SD_ELIMIT, l, "this subchart leads back to the chart "
                                    "'%s' (a symbolic link loop)", w->dir[i]);
                goto fail;
            }
        w->dev[depth] = st.st_dev;
        w->ino[depth] = st.st_ino;
        w->dir[depth] = c->dir;
        if (++w->total > MAX_CHARTS) {
            err = sd_diag_error(diags, SD_ELIMIT, l, "more than %d charts and subcharts", MAX_CHARTS);
            goto fail;
        }
    }
    if (depth && (err = check_dir(w->root, c->dir, NULL, "subchart", diags)) < 0)
        goto fail;
    if ((err = check_dir(w->root, c->dir, "templates", "templates folder", diags)) < 0 ||
        (err = check_dir(w->root, c->dir, "ci", "ci folder", diags)) < 0)
        goto fail;
    if ((err = load_opt(&c->chart_yaml, w->root, c->dir, "Chart.yaml", diags)) < 0)
        goto fail;
    if ((err = load_opt(&c->values, w->root, c->dir, "values.yaml", diags)) < 0)
        goto fail;
    if ((err = load_opt(&c->schema, w->root, c->dir, "values.schema.json", diags)) < 0)
        goto fail;
    if (!c->schema) {
        if ((err = load_opt(&c->schema, w->root, c->dir, "values.schema.yaml", diags)) < 0)
            goto fail;
        c->schema_is_yaml = c->schema != NULL;
    }
    /* subcharts: charts/NAME/Chart.yaml, in name order */
    sd_buf_printf(&p, "%s/charts", c->dir);
    DIR *d = depth < MAX_DEPTH ? opendir(p.ptr) : NULL;
    if (d) {
        char **names = NULL;
        size_t nn = 0, an = 0;
        struct dirent *e;
        while ((e = readdir(d))) {
            if (e->d_name[0] == '.')
                continue;
            if (nn == an) {
                an = an ? an * 2 : 8;
                char **t = realloc(names, an * sizeof *t);
                if (!t) break;
                names = t;
            }
            if (!(names[nn] = strdup(e->d_name)))
                break;
            nn++;
        }
        closedir(d);
        qsort(names, nn, sizeof *names, cmp_str);
        for (size_t i = 0; i < nn; i++) {
            sd_buf sub = SD_BUF_INIT;
            sd_buf_printf(&sub, "%s/%s", p.ptr, names[i]);
            if (!err && sd_chart_is_dir(sub.ptr)) {
                sd_chart *s;
                if ((err = load_dir(&s, sub.ptr, depth + 1, w, diags)) == 0) {
                    sd_chart **t = realloc(c->subcharts, (c->nsubcharts + 1) * sizeof *t);
                    if (t) {
                        const char *nm = sd_chart_name(s);
                        const char *al = nm ? dep_alias(c, nm) : NULL;
                        s->alias = strdup(al ? al : nm ? nm : names[i]);
                        c->subcharts = t;
                        c->subcharts[c->nsubcharts++] = s;
                    } else {
                        sd_chart_free(s);
                    }
                }
            }
            sd_buf_release(&sub);
            free(names[i]);
        }
        free(names);
        if (err < 0)
            goto fail;
    }
    sd_buf_release(&p);
    *out = c;
    return 0;
fail:
    sd_buf_release(&p);
    sd_chart_free(c);
    return err;
}

int sd_chart_check_links(const char *dir, sd_diags *diags)
{
    static const char *const files[][2] = {
        { "Chart.yaml", "chart file" }, { "values.yaml", "values file" },
        { "values.schema.json", "values schema" }, { "values.schema.yaml", "values schema" },
        { ".schema.yaml", "schema settings" }, { "templates", "templates folder" }, { "ci", "ci folder" },
    };
    sd_buf p = SD_BUF_INIT;
    struct dirent *e;
    DIR *d;
    int err = 0;

    for (size_t i = 0; i < sizeof files / sizeof *files && !err; i++)
        err = check_dir(dir, dir, files[i][0], files[i][1], diags);
    for (int k = 0; k < 2 && !err; k++) {
        /* each ci/ values file, each subchart */
        sd_buf_clear(&p);
        sd_buf_printf(&p, "%s/%s", dir, k ? "charts" : "ci");
        if (sd_buf_failed(&p) || !(d = opendir(p.ptr)))
            continue;
        while (!err && (e = readdir(d)))
            if (e->d_name[0] != '.')
                err = check_dir(dir, p.ptr, e->d_name, k ? "subchart" : "ci/ values file", diags);
        closedir(d);
    }
    sd_buf_release(&p);
    return err;
}

int sd_chart_load(sd_chart **out, const char *dir, sd_diags *diags)
{
    walk w;
    memset(&w, 0, sizeof w);
    w.root = dir;
    return load_dir(out, dir, 0, &w, diags);
}

void sd_chart_free(sd_chart *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->nsubcharts; i++)
        sd_chart_free(c->subcharts[i]);
    free(c->subcharts);
    sd_doc_free(c->chart_yaml);
    sd_doc_free(c->values);
    sd_doc_free(c->schema);
    free(c->dir);
    free(c->alias);
    free(c);
}
