/* SPDX-License-Identifier: Apache-2.0 */
/* cmd_schema.c - `schemadoc schema CHART|VALUES [-o FILE] [--draft D]
 * [--check] [--like TOOL | --dialect NAME] [--config FILE] [--use-helm-docs]
 * [--keep-existing-dep-schemas] [--bundle | --bundle-without-id]`:
 * the chart's values schema made from its values files and what their
 * comments say (schemagen/gen.h), in the author's key order, or byte for byte
 * as helm-schema or helm-values-schema-json would write it. --check writes
 * nothing and exits 1 with a diff when the committed file is stale. */
#include "cli.h"
#include "k8s.h"
#include "file.h"
#include "gen.h"
#include "out.h"
#include "readme.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Something at `p`, even a dangling symbolic link (read, it is refused). */
static int is_file(const char *p)
{
    return sd_file_present(p);
}

/* `dir`/`name`, or `name` when it is absolute. Caller frees. */
static char *join(const char *dir, const char *name)
{
    sd_buf b = SD_BUF_INIT;
    if (name[0] == '/' || !dir || !*dir)
        sd_buf_puts(&b, name);
    else
        sd_buf_printf(&b, "%s/%s", dir, name);
    return sd_buf_detach(&b);
}

static char *dir_of(const char *path)
{
    const char *s = strrchr(path, '/');
    sd_buf b = SD_BUF_INIT;
    if (!s)
        sd_buf_puts(&b, ".");
    else
        sd_buf_put(&b, path, s == path ? 1 : (size_t)(s - path));
    return sd_buf_detach(&b);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The chart's ci/ files (*.yaml, *.yml: chart-testing's values files), loaded into *docs
 * (sorted by name; at most 16). A file that does not load is an error, and
 * so is one that leads out of the chart (sd_doc_load_in). */
static int load_ci(sd_doc ***docs, size_t *n, const char *chart, sd_diags *diags)
{
    char *dir = join(chart, "ci"), *names[16];
    size_t nn = 0;
    DIR *d = dir && is_dir(dir) ? opendir(dir) : NULL;
    struct dirent *e;
    int err = 0;

    *docs = NULL;
    *n = 0;
    if (!dir)
        return sd_diag_error(diags, SD_ENOMEM, (sd_loc){ chart, 0, 0 }, "out of memory");
    while (d && (e = readdir(d)) && nn < 16) {
        size_t l = strlen(e->d_name);
        if (e->d_name[0] != '.' && ((l > 5 && !strcmp(e->d_name + l - 5, ".yaml")) ||
                                    (l > 4 && !strcmp(e->d_name + l - 4, ".yml"))))
            names[nn++] = join(dir, e->d_name);
    }
    if (d)
        closedir(d);
    qsort(names, nn, sizeof *names, by_name);
    if (nn && !(*docs = calloc(nn, sizeof **docs)))
        err = SD_ENOMEM;
    for (size_t i = 0; i < nn; i++) {
        if (!err && (err = sd_doc_load_in(&(*docs)[*n], chart, names[i], "ci/ values file", SD_FMT_YAML, NULL,
                                          diags)) == 0)
            (*n)++;
        free(names[i]);
    }
    free(dir);
    return err;
}

/* A chart's file as a document, or NULL (not there, or not YAML). */
static sd_doc *load_quiet(const char *dir, const char *name)
{
    char *p = join(dir, name);
    sd_doc *d = NULL;
    sd_diags quiet = SD_DIAGS_INIT;
    if (!p || !is_file(p) || sd_doc_load_file(&d, p, SD_FMT_AUTO, NULL, &quiet) < 0)
        d = NULL;
    sd_diags_release(&quiet);
    free(p);
    return d;
}

/* helm-schema's dependency charts: each dependency of Chart.yaml found
 * beside the chart (a `file://` repository) or under charts/NAME, its
 * schema made as the chart's was (or, with `keep`, the one it ships)
 * and merged into `schema` as the tool merges it (gen.h). A dependency
 * that is not there is left out. Returns 0, or SD_ENOMEM (reported). */
static int merge_deps(sd_doc *schema, const char *chart, const sd_gen_opts *o, int keep, sd_diags *diags)
{
    sd_doc *cy = load_quiet(chart, "Chart.yaml");
    const sd_node *deps = cy ? sd_node_get(sd_doc_root(cy), "dependencies") : NULL;
    int err = 0;

    for (uint32_t i = 0; deps && deps->kind == SD_SEQ && i < deps->n && !err; i++) {
        const sd_node *d = deps->items[i].value, *name = sd_node_get(d, "name"), *alias = sd_node_get(d, "alias"),
                      *repo = sd_node_get(d, "repository");
        if (!name || name->kind != SD_STR)
            continue;
        sd_buf sub = SD_BUF_INIT;
        if (repo && repo->kind == SD_STR && !strncmp(repo->str, "file://", 7))
            sd_buf_printf(&sub, "%s/%s", chart, repo->str + 7);
        else
            sd_buf_printf(&sub, "%s/charts/%s", chart, name->str);
        sd_doc *ccy = NULL, *vals = NULL, *cs = NULL;
        if (!sd_buf_failed(&sub) && sd_chart_is_dir(sub.ptr)) {
            ccy = load_quiet(sub.ptr, "Chart.yaml");
            if (keep)
                cs = load_quiet(sub.ptr, "values.schema.json");
            sd_gen_opts co = *o;   /* read as the tool reads it, with nothing of the parent's */
            co.flavour = SD_GEN_HELMSCHEMA;
            co.examples = co.readme = NULL;
            co.nexamples = co.nreadme = 0;
            co.base_dir = sub.ptr;
            if (!cs && (vals = load_quiet(sub.ptr, "values.yaml")))
                cs = sd_gen_schema((const sd_doc *const *)&vals, 1, &co, NULL, diags);
            const sd_node *desc = ccy ? sd_node_get(sd_doc_root(ccy), "description") : NULL;
            if (cs)
                err = sd_gen_helmschema_dep(schema, cs, alias && alias->kind == SD_STR ? alias->str : name->str,
                                            desc && desc->kind == SD_STR ? desc->str : NULL,
                                            sd_node_get(d, "import-values"));
        }
        if (err)
            sd_diag_error(diags, SD_ENOMEM, (sd_loc){ chart, 0, 0 }, "out of memory");
        sd_doc_free(cs);
        sd_doc_free(vals);
        sd_doc_free(ccy);
        sd_buf_release(&sub);
    }
    sd_doc_free(cy);
    return err;
}

typedef struct run {
    const char *source, *output, *config, *like, *dialect;
    int         draft, check, helm_docs, keep_deps, bundle, bundle_without_id, k8s_off;
    const char *sources[64];   /* as given */
    size_t      nsources;
} run;

static int parse(run *r, int argc, char **argv)
{
    const char *v;
    int n;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if ((n = sd_cli_opt_value(argc, argv, &i, "--draft", &v)) != 0) {
            if (n < 0)
                return sd_cli_usage_error("option '--draft' needs 4, 6, 7, 2019-09 or 2020-12");
            r->draft = !strcmp(v, "4") ? 4 : !strcmp(v, "6") ? 6 : !strcmp(v, "7") ? 7
                     : !strcmp(v, "2019-09") ? 2019 : !strcmp(v, "2020-12") ? 2020 : -1;
            if (r->draft < 0)
                return sd_cli_usage_error("option '--draft' takes 4, 6, 7, 2019-09 or 2020-12, not '%s'", v);
        } else if ((n = sd_cli_opt_value(argc, argv, &i, "--output", &v)) != 0 ||
                   (n = sd_cli_opt_value(argc, argv, &i, "-o", &v)) != 0) {
            if (n < 0)
                return sd_cli_usage_error("option '%s' needs a file name", a);
            r->output = v;
        } else if ((n = sd_cli_opt_value(argc, argv, &i, "--like", &v)) != 0) {
            if (n < 0 || (strcmp(v, "helm-schema") && strcmp(v, "helm-values-schema-json")))
                return sd_cli_usage_error("option '--like' takes helm-schema or helm-values-schema-json");
            r->like = v;
        } else if ((n = sd_cli_opt_value(argc, argv, &i, "--dialect", &v)) != 0) {
            if (n < 0 || (strcmp(v, "helm-schema") && strcmp(v, "helm-values-schema-json") && strcmp(v, "schemadoc")))
                return sd_cli_usage_error("option '--dialect' takes schemadoc, helm-schema or helm-values-schema-json");
            r->dialect = v;
        } else if ((n = sd_cli_opt_value(argc, argv, &i, "--config", &v)) != 0) {
            if (n < 0)
                return sd_cli_usage_error("option '--config' needs a file name");
            r->config = v;
        } else if ((n = sd_cli_opt_value(argc, argv, &i, "--k8s-types", &v)) != 0) {
            if (n < 0 || (strcmp(v, "on") && strcmp(v, "off")))
                return sd_cli_usage_error("option '--k8s-types' takes on or off");
            r->k8s_off = !strcmp(v, "off");
        } else if (!strcmp(a, "--check")) {
            r->check = 1;
        } else if (!strcmp(a, "--use-helm-docs")) {
            r->helm_docs = 1;
        } else if (!strcmp(a, "--bundle")) {
            r->bundle = 1;
        } else if (!strcmp(a, "--bundle-without-id")) {
            r->bundle = r->bundle_without_id = 1;
        } else if (!strcmp(a, "--keep-existing-dep-schemas")) {
            r->keep_deps = 1;
        } else if (a[0] == '-' && a[1]) {
            return sd_cli_unknown_option(a, SD_CMD_SCHEMA, "schema");
        } else if (r->nsources < sizeof r->sources / sizeof *r->sources) {
            r->sources[r->nsources++] = a;
        } else {
            return sd_cli_usage_error("more than %zu SOURCEs given", sizeof r->sources / sizeof *r->sources);
        }
    }
    if (!r->nsources && !r->config)
        return sd_cli_usage_error("'schema' needs a chart directory or a values file");
    if (r->nsources > 1 && r->output)
        return sd_cli_usage_error("-o names one file: give one SOURCE with it");
    return 0;
}

/* --check: compare `text` with the committed file; print a diff. The
 * chart's own values.schema.json (`root`: the chart, NULL for none) is a
 * chart file, never read through a link out of it (sd_file_read_in); a
 * file named with -o (`named`) is the user's own when it lies outside the
 * chart as written, and kept to it when inside (sd_file_confine). */
static int check(const char *root, int named, const char *target, const sd_buf *text, sd_diags *diags)
{
    char *old = NULL, *held = NULL;
    size_t len = 0;
    sd_buf diff = SD_BUF_INIT;
    int st, err;

    if (!is_file(target)) {
        printf("%s: missing; 'schemadoc schema' would write it\n", target);
        return SD_EXIT_FOUND_WANTING;
    }
    if (root && !named)
        err = sd_file_read_in(&old, &len, root, target, SD_FILE_MAX, "schema file", diags);
    else if (!root || (err = sd_file_confine(&held, root, target, "schema file", diags)) == 0)
        err = sd_file_read(&old, &len, held ? held : target, SD_FILE_MAX, 0, diags);
    free(held);
    if (err < 0)
        return SD_EXIT_ERROR;
    if (len == text->len && !memcmp(old, text->ptr, len)) {
        free(old);
        return SD_EXIT_OK;
    }
    sd_readme_diff(&diff, old, len, text->ptr, text->len, target);
    fwrite(diff.ptr, 1, diff.len, stdout);
    printf("%s: stale; 'schemadoc schema' would change it as above\n", target);
    st = SD_EXIT_FOUND_WANTING;
    sd_buf_release(&diff);
    free(old);
    return st;
}

/* One chart or values file: make its schema, write it or check it. */
static int one(run r)
{
    sd_gen_opts o;
    sd_diags diags = SD_DIAGS_INIT;
    sd_buf out = SD_BUF_INIT;
    sd_doc *cfg = NULL, **vals = NULL, *schema = NULL, **ci = NULL, *readme[16];
    const char **files = NULL;
    char *cfg_path = NULL, *base = NULL, *target = NULL;
    size_t nfiles = 0, nvals = 0, nci = 0, nreadme = 0;
    int status = SD_EXIT_OK, flavour = 0, like = 0;

    memset(&o, 0, sizeof o);
    like = !r.like ? SD_GEN_AUTO : !strcmp(r.like, "helm-schema") ? SD_GEN_HELMSCHEMA : SD_GEN_HVSJ;
    int chart = r.source && is_dir(r.source);
    if (!r.source) {
        /* only --config: its values files, beside it */
        base = dir_of(r.config);
        r.source = base;
    } else if (chart && !sd_chart_is_dir(r.source)) {
        sd_diag_error(&diags, SD_ENOTFOUND, (sd_loc){ r.source, 0, 0 },
                      "not a chart directory (no Chart.yaml), nor a values file");
        status = SD_EXIT_ERROR;
        goto done;
    }
    if (chart && sd_chart_check_links(r.source, &diags) < 0) {
        /* refused as every command refuses it, though not all is read here */
        status = SD_EXIT_ERROR;
        goto done;
    }
    if (!base)
        base = chart ? strdup(r.source) : dir_of(r.source);
    /* the chart's `.schema.yaml` (helm-values-schema-json's settings) */
    cfg_path = r.config ? strdup(r.config) : chart ? join(r.source, ".schema.yaml") : NULL;
    if (cfg_path && (r.config || is_file(cfg_path))) {
        /* the chart's own is a chart file; one named with --config is the
         * user's, kept to the chart when it is written inside it */
        char *held = NULL;
        int err = !r.config ? sd_doc_load_in(&cfg, r.source, cfg_path, "schema settings", SD_FMT_YAML, NULL, &diags)
                : chart && sd_file_confine(&held, r.source, cfg_path, "schema settings", &diags) < 0 ? SD_EDENIED
                : sd_doc_load_file(&cfg, held ? held : cfg_path, SD_FMT_YAML, NULL, &diags);
        free(held);
        if (err < 0 || sd_gen_config(&o, &files, &nfiles, cfg, &diags) < 0) {
            status = SD_EXIT_ERROR;
            goto done;
        }
        if (!o.flavour)
            o.flavour = SD_GEN_HVSJ;   /* the plugin's settings: its reading */
    }
    if (like) {
        o.flavour = like;
        o.exact = 1;
    }
    else if (r.dialect)
        o.flavour = !strcmp(r.dialect, "helm-schema") ? SD_GEN_HELMSCHEMA
                  : !strcmp(r.dialect, "schemadoc") ? SD_GEN_NATIVE : SD_GEN_HVSJ;
    if (r.draft)
        o.draft = r.draft;
    if (r.helm_docs)
        o.helm_docs = 1;   /* the plugin's --use-helm-docs */
    if (r.bundle)
        o.bundle = 1;      /* the plugin's --bundle, --bundle-without-id */
    if (r.bundle_without_id)
        o.bundle_without_id = 1;
    o.base_dir = base;
    {
        char *cdir = cfg_path && cfg ? dir_of(cfg_path) : NULL;
        size_t n = nfiles ? nfiles : 1;
        vals = calloc(n, sizeof *vals);
        for (size_t i = 0; vals && i < n; i++) {
            /* the files the settings list, and the chart's values.yaml, are
             * the chart's (sd_doc_load_in: nothing through a link out of
             * it); a values file given on its own is the user's */
            const char *root = nfiles ? (chart ? r.source : cdir) : chart ? r.source : NULL;
            char *p = nfiles ? join(root, files[i]) : chart ? join(r.source, "values.yaml") : strdup(r.source);
            int err = !p ? SD_ENOMEM
                    : root ? sd_doc_load_in(&vals[nvals], root, p, "values file", SD_FMT_YAML, NULL, &diags)
                    : sd_doc_load_file(&vals[nvals], p, SD_FMT_YAML, NULL, &diags);
            free(p);
            if (err < 0) {
                status = SD_EXIT_ERROR;
                break;
            }
            nvals++;
        }
        free(cdir);
        if (!vals) {
            sd_diag_error(&diags, SD_ENOMEM, (sd_loc){ r.source, 0, 0 }, "out of memory");
            status = SD_EXIT_ERROR;
        }
    }
    if (!status && chart && load_ci(&ci, &nci, r.source, &diags) < 0)
        status = SD_EXIT_ERROR;
    o.examples = (const sd_doc *const *)ci;
    o.nexamples = nci;
    if (!status && chart)
        nreadme = sd_gen_chart_readme(readme, 16, r.source);
    o.readme = (const sd_doc *const *)readme;
    o.nreadme = nreadme;
    if (status)
        goto done;
    if (!(schema = sd_gen_schema((const sd_doc *const *)vals, nvals, &o, &flavour, &diags)) || diags.errors) {
        /* (an annotation's `$ref` that leads out of the chart: reported) */
        status = SD_EXIT_ERROR;
        goto done;
    }
    if (chart && flavour == SD_GEN_HELMSCHEMA && merge_deps(schema, r.source, &o, r.keep_deps, &diags) < 0) {
        status = SD_EXIT_ERROR;
        goto done;
    }
    /* schemadoc's own mode: the keys the chart proves Kubernetes types
     * (docs/k8s.md); never in --like output, nor where the chart keeps a
     * tool's settings (.schema.yaml): the tool's own */
    if (!like && chart && !r.k8s_off && !(cfg && o.flavour != SD_GEN_NATIVE) &&
        sd_k8s_type_schema(schema, vals[0], r.source, 0) < 0) {
        sd_diag_error(&diags, SD_ENOMEM, (sd_loc){ r.source, 0, 0 }, "out of memory");
        status = SD_EXIT_ERROR;
        goto done;
    }
    sd_gen_write(&out, schema, like ? flavour : SD_GEN_NATIVE, &o);
    if (sd_buf_failed(&out)) {
        sd_diag_error(&diags, SD_ENOMEM, (sd_loc){ r.source, 0, 0 }, "out of memory");
        status = SD_EXIT_ERROR;
    } else if (r.check) {
        target = r.output ? strdup(r.output) : join(base, "values.schema.json");
        status = check(chart ? r.source : NULL, r.output != NULL, target, &out, &diags);
    } else if (sd_out_write(r.output, out.ptr, out.len, &diags) < 0) {
        status = SD_EXIT_ERROR;
    } else if (r.output && r.nsources > 1) {
        printf("%s: written\n", r.output);
    }
done:
    for (size_t i = 0; i < nvals; i++)
        sd_doc_free(vals[i]);
    free(vals);
    for (size_t i = 0; i < nci; i++)
        sd_doc_free(ci[i]);
    for (size_t i = 0; i < nreadme; i++)
        sd_doc_free(readme[i]);
    free(ci);
    sd_doc_free(schema);
    sd_doc_free(cfg);
    free(cfg_path);
    free(base);
    free(target);
    sd_cli_print_diags(&diags);
    sd_diags_release(&diags);
    sd_buf_release(&out);
    return status;
}

/* The chart a file belongs to (the nearest directory above it with a
 * Chart.yaml) when it is one of a chart's own files (values.yaml, its
 * schema, .schema.yaml, Chart.yaml, ci/...); else NULL. Caller frees. */
static char *chart_of(const char *path)
{
    static const char *const own[] = { "values.yaml", "values.schema.json", "values.schema.yaml",
                                       ".schema.yaml", "Chart.yaml", NULL };
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    int mine = 0;
    for (const char *const *o = own; *o; o++)
        mine |= !strcmp(base, *o);
    if (!mine && !strstr(path, "/ci/") && strncmp(path, "ci/", 3))
        return NULL;
    for (char *d = dir_of(path); d;) {
        if (sd_chart_is_dir(d))
            return d;
        char *up = strcmp(d, ".") && strcmp(d, "/") ? dir_of(d) : NULL;
        if (up && !strcmp(up, d)) {
            free(up);
            up = NULL;
        }
        free(d);
        d = up;
    }
    return NULL;
}

int sd_cmd_schema(int argc, char **argv)
{
    run r;
    int status;
    char *charts[64];
    size_t ncharts = 0;

    memset(&r, 0, sizeof r);
    if ((status = parse(&r, argc, argv)) != 0)
        return status;
    if (!r.nsources)
        return one(r);
    /* several SOURCEs (a pre-commit hook passes the files a commit
     * touches): each chart once, its values.schema.json written or checked */
    for (size_t i = 0; i < r.nsources; i++) {
        char *c = r.nsources > 1 || !is_dir(r.sources[i]) ? chart_of(r.sources[i]) : NULL;
        if (!c && r.nsources > 1 && !is_dir(r.sources[i]))
            continue;   /* not a chart's file: nothing to do for it */
        if (!c && !(c = strdup(r.sources[i])))
            return sd_cli_usage_error("out of memory");
        size_t j = 0;
        while (j < ncharts && strcmp(charts[j], c))
            j++;
        if (j < ncharts)
            free(c);
        else
            charts[ncharts++] = c;
    }
    status = SD_EXIT_OK;
    for (size_t i = 0; i < ncharts; i++) {
        run one_r = r;
        char *tgt = NULL;
        one_r.source = charts[i];
        if (r.nsources > 1 && !r.check && is_dir(charts[i]))
            one_r.output = tgt = join(charts[i], "values.schema.json");
        int st = one(one_r);
        if (st > status)
            status = st;
        free(tgt);
        free(charts[i]);
    }
    return status;
}
