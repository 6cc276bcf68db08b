/* SPDX-License-Identifier: Apache-2.0 */
/* check.c - values files against a source (see check.h): what is validated
 * against what for each source kind, Helm's merge, CRD versions by
 * apiVersion, ytt overlays and their lifecycle rules. The results as JSON
 * are check_json.c; the rules document is check_rules.c. */
#include "check.h"
#include "alloc.h"
#include "annot.h"
#include "tmplrefs.h"
#include "buf.h"
#include "merge.h"
#include "synth.h"
#include "file.h"
#include "archive.h"
#include "load_tape.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STDIN_MAX ((size_t)64 << 20)

/* A result and the entry point it is validated against (< 0: the input
 * could not be read; the error is in the diagnostics already). */
typedef struct item {
    sd_check_result r;
    int             entry;
    long            sidx;          /* the source schema (for the lint), or -1 */
    const sd_node  *defaults;      /* a chart's values.yaml root */
    const char     *defaults_file;
    sd_tape        *tape;          /* a file parsed straight into a tape (r.values NULL) */
    int             noschema;      /* a chart without a schema: its keys are linted against
                                      values.yaml alone, nothing is validated */
    char           *text, *file;   /* its text and name, which the tape and results borrow */
    size_t          text_len;      /* (the tape ends its strings with NULs) */
} item;

struct sd_check {
    sd_source       *src;
    sd_diags        *diags;
    sd_check_opts    opts;
    sd_validator    *v;
    sd_doc         **keep;      /* documents the instances point into */
    size_t           nkeep;
    item            *items;
    size_t           nitems;
    const sd_node   *effective, *effective_schema;
    int              wanting;   /* found wanting outside the schema (ytt lifecycle) */
    int              said_noschema;  /* "the chart has no schema" was said (once a run) */
    int              said_shape;     /* "no templates/" was said (once a run) */
    struct chartinfo **info;    /* per chart linted: its templates and comments */
    size_t           ninfo;
    int              oom;
};

static void sort_errors(const sd_check *k, sd_verror *e, size_t n);

/* The keys at a chart's root that other charts own: `global`, and each
 * dependency's (its alias, else its name; unpacked under charts/ or only
 * listed in Chart.yaml). */
static size_t chart_extras(const sd_chart *chart, const char **extra, size_t max)
{
    size_t n = 0;
    const sd_node *deps = chart->chart_yaml ? sd_node_get(sd_doc_root(chart->chart_yaml), "dependencies") : NULL;
    extra[n++] = "global";
    for (size_t i = 0; i < chart->nsubcharts && n < max; i++)
        extra[n++] = chart->subcharts[i]->alias ? chart->subcharts[i]->alias : sd_chart_name(chart->subcharts[i]);
    for (size_t i = 0; deps && deps->kind == SD_SEQ && i < deps->n && n < max; i++) {
        const sd_node *d = deps->items[i].value;
        const sd_node *a = sd_node_get(d, "alias"), *nm = sd_node_get(d, "name");
        const sd_node *use = a && a->kind == SD_STR ? a : nm;
        if (use && use->kind == SD_STR)
            extra[n++] = use->str;
    }
    return n;
}
static void lint_without_schema(sd_check *k, const sd_chart *chart, const sd_node *merged,
                                sd_vresult *res);
static sd_lint_chart *chart_info(sd_check *k, const sd_chart *chart);
static void shape_note(sd_check *k, const sd_chart *chart);

/* Keep `d` until the check is freed. -1 when out of memory: `d` is freed
 * then, and must not be used. */
static int keep(sd_check *k, sd_doc *d)
{
    sd_doc **p = realloc(k->keep, (k->nkeep + 1) * sizeof *p);
    if (!p) {
        k->oom = 1;
        sd_alloc_note_failure();
        sd_doc_free(d);
        return -1;
    }
    k->keep = p;
    k->keep[k->nkeep++] = d;
    return 0;
}

/* A result to validate against entry point `entry` (< 0: an input error,
 * already reported in diags[first..]). */
static item *add_result(sd_check *k, const char *label, const sd_node *values, int entry,
                        size_t first)
{
    item *p = realloc(k->items, (k->nitems + 1) * sizeof *p);
    if (!p) {
        k->oom = 1;
        sd_alloc_note_failure();
        return NULL;
    }
    k->items = p;
    p = &k->items[k->nitems++];
    memset(p, 0, sizeof *p);
    p->entry = entry;
    p->sidx = -1;
    p->r.label = strdup(label);
    p->r.values = values;
    p->r.diag_first = first;
    p->r.diag_count = k->diags->count - first;
    if (!p->r.label) {
        k->oom = 1;
        sd_alloc_note_failure();
    }
    return p;
}

/* The lint (lint.c) runs on this result against source schema `sidx`. */
static void lint_with(item *it, long sidx, const sd_chart *chart)
{
    if (!it)
        return;
    it->sidx = sidx;
    if (chart && chart->values) {
        it->defaults = sd_doc_root(chart->values);
        it->defaults_file = chart->values->file;
    }
}

static int read_stdin(sd_buf *b)
{
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, stdin)) > 0) {
        sd_buf_put(b, chunk, n);
        if (b->len > STDIN_MAX)
            return SD_ELIMIT;
    }
    if (ferror(stdin))
        return SD_EIO;
    return sd_buf_failed(b) ? sd_buf_error(b) : 0;
}

/* The base name of `path`. */
static const char *base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

/* A chart's Chart.yaml, or a schema, given where a values file goes: Helm
 * would merge its keys as values and the check would find it "valid". */
static int refuse_non_values(const sd_doc *d, const char *path, sd_diags *diags)
{
    const sd_node *root = d ? sd_doc_root(d) : NULL;
    const char *b = base_name(path);
    sd_buf dir = SD_BUF_INIT;
    int err = 0;

    if (!root || root->kind != SD_MAP)
        return 0;
    sd_buf_put(&dir, path, (size_t)(b - path));
    while (dir.len > 1 && dir.ptr[dir.len - 1] == '/')
        dir.ptr[--dir.len] = '\0';
    if (!dir.len)
        sd_buf_puts(&dir, ".");
    if ((!strcmp(b, "Chart.yaml") || !strcmp(b, "Chart.yml")) && sd_node_get(root, "apiVersion") &&
        sd_node_get(root, "name"))
        err = sd_diag_error(diags, SD_ESYNTAX, (sd_loc){ path, 0, 0 },
                            "this is a chart's Chart.yaml, not a values file: give the chart directory `%s` "
                            "as the chart, and only values files after it", dir.ptr);
    else if (!strcmp(b, "values.schema.json") || !strcmp(b, "values.schema.yaml") || sd_node_get(root, "$schema"))
        err = sd_diag_error(diags, SD_ESYNTAX, (sd_loc){ path, 0, 0 },
                            "this is a schema, not a values file: give the chart directory `%s` (or the "
                            "schema) first, and only values files after it", dir.ptr);
    sd_buf_release(&dir);
    return err;
}

/* A values file, or standard input ("-"), or the editor's text for it.
 * `comments` 0: a file Helm's merge reads, whose comments nothing reads
 * (ytt's overlays are comments): they are not kept (1.2 bytes per input
 * byte on kube-prometheus-stack's values.yaml). */
static int load_values(sd_doc **out, const char *path, const sd_check_opts *o, int comments,
                       sd_diags *diags)
{
    sd_load_limits bare = { 0, 0, 0, 1 };
    const sd_load_limits *lim = comments ? NULL : &bare;
    if (o->mem_name && o->mem_text && strcmp(path, o->mem_name) == 0) {
        int err = sd_doc_load_mem(out, o->mem_name, o->mem_text, o->mem_len, SD_FMT_AUTO, lim, diags);
        if (err == 0 && (err = refuse_non_values(*out, path, diags)) < 0) {
            sd_doc_free(*out);
            *out = NULL;
        }
        return err;
    }
    if (strcmp(path, "-") == 0) {
        sd_buf in = SD_BUF_INIT;
        sd_loc l = { "<stdin>", 0, 0 };
        int err = read_stdin(&in);
        if (err < 0) {
            sd_buf_release(&in);
            *out = NULL;
            return sd_diag_error(diags, err, l, err == SD_ELIMIT ? "standard input is larger than the limit of 64 MiB"
                                                                 : "cannot read standard input");
        }
        err = sd_doc_load_mem(out, "<stdin>", in.ptr, in.len, SD_FMT_AUTO, lim, diags);
        sd_buf_release(&in);
        return err;
    }
    if (sd_archive_is_tgz(path))
        return sd_diag_error(diags, SD_ESYNTAX, (sd_loc){ path, 0, 0 },
                             "this is a packaged chart (gzip-compressed tar), not a values file: give it "
                             "where the chart goes, unpacked (`tar xzf FILE`, then its directory), or "
                             "give its values.yaml as VALUES");
    int err = sd_doc_load_file(out, path, SD_FMT_AUTO, lim, diags);
    if (err < 0)
        return err;
    if ((err = refuse_non_values(*out, path, diags)) < 0) {
        sd_doc_free(*out);
        *out = NULL;
    }
    return err;
}

static const sd_node *empty_map(sd_check *k, const char *file)
{
    sd_doc *d = sd_synth_new(file);
    if (!d)
        return sd_alloc_note_failure(), k->oom = 1, NULL;
    sd_node *m = sd_synth_map(d, (sd_loc){ d->file, 1, 1 });
    sd_synth_set_root(d, m);
    return keep(k, d) < 0 ? NULL : m;
}

/* Load and merge the values files over `base` (Helm's `-f` order; `ytt`:
 * their lists as ytt overlays them, sd_merge_ytt_values()); the label
 * names them all. */
static const sd_node *merge_files(sd_check *k, const sd_node *base, const char *const *files,
                                  size_t n, sd_buf *label, int ytt)
{
    sd_doc *out = sd_synth_new("(merged values)");
    const sd_node *m = base;
    if (!out)
        return sd_alloc_note_failure(), k->oom = 1, NULL;
    keep(k, out);
    if (k->oom)   /* keep() freed it */
        return NULL;
    for (size_t i = 0; i < n; i++) {
        sd_doc *d = NULL;
        if (load_values(&d, files[i], &k->opts, ytt, k->diags) < 0)
            return NULL;
        keep(k, d);
        if (k->oom)
            return NULL;
        if (label->len)
            sd_buf_puts(label, " + ");
        sd_buf_puts(label, d->file);
        const sd_node *v = sd_doc_root(d);
        /* Helm reads a values file's first document only: say so at the
         * first later one that holds something (a trailing `---` is none) */
        for (size_t r = 1; r < d->nroots; r++) {
            const sd_node *x = d->roots[r].node;
            if (!x || (x->kind == SD_NULL && (!x->str || !*x->str)))
                continue;
            sd_diag_add(k->diags, SD_SEV_WARNING, SD_ESYNTAX, x->loc, NULL, NULL,
                        "this file holds %zu YAML documents; Helm reads only the first, so this one and "
                        "any after it are ignored (and not checked)", d->nroots);
            break;
        }
        if (v && v->kind != SD_MAP && v->kind != SD_NULL) {
            sd_diag_error(k->diags, SD_ESYNTAX, v->loc, "a values file must hold a map, not a %s",
                          sd_kind_name(v->kind));
            return NULL;
        }
        if (v && v->kind == SD_MAP) {
            int oom;
            /* ytt appends a data-values file's list items (form_ytt.js too) */
            m = ytt ? sd_merge_ytt_values(out, m, v, d, &oom) : sd_merge_values(out, m, v, &oom);
            if (oom)
                return sd_alloc_note_failure(), k->oom = 1, NULL;
        }
    }
    return m ? m : empty_map(k, "(values)");
}

/* ytt: a value given for a deprecated key warns with its notice; one for a
 * removed key is an error carrying the remedy (seed 004 Part 7). */
static int ytt_lifecycle(sd_check *k, const sd_node *schema, const sd_node *v, int depth)
{
    int bad = 0;
    const sd_node *props = sd_node_get(schema, "properties");
    if (!v || v->kind != SD_MAP || !props || depth > 200)
        return 0;
    for (size_t i = 0; i < v->n; i++) {
        const sd_pair *p = &v->items[i];
        const sd_node *s = sd_node_get(props, p->key->str), *t;
        if (!s)
            continue;
        if ((t = sd_node_get(s, "x-removed")))
            bad = sd_diag_error(k->diags, SD_EINVALID, p->key->loc, "%s: this key was removed%s%s",
                                p->key->str, t->kind == SD_STR && *t->str ? ": " : "",
                                t->kind == SD_STR ? t->str : "");
        else if ((t = sd_node_get(s, "deprecated")) && t->kind == SD_BOOL && t->num.b) {
            const sd_node *why = sd_node_get(s, "x-deprecation");
            sd_diag_warning(k->diags, p->key->loc, "%s: this key is deprecated%s%s", p->key->str,
                            why && why->kind == SD_STR ? ": " : "", why && why->kind == SD_STR ? why->str : "");
        }
        if (ytt_lifecycle(k, s, p->value, depth + 1) < 0)
            bad = SD_EINVALID;
    }
    return bad;
}

void sd_check__cel_note(sd_diags *diags, const sd_node *n, int *said, int depth, const char *where)
{
    if (*said || !n || depth > 200)
        return;
    if (n->kind == SD_MAP) {
        const sd_node *v = sd_node_get(n, "x-kubernetes-validations");
        if (v) {
            sd_diag_warning(diags, v->loc, "CEL rules (x-kubernetes-validations) are not %s; "
                            "the API server checks them", where);
            *said = 1;
            return;
        }
    }
    if (n->kind == SD_MAP || n->kind == SD_SEQ)
        for (size_t i = 0; i < n->n; i++)
            sd_check__cel_note(diags, n->items[i].value, said, depth + 1, where);
}

/* ---- per source kind ------------------------------------------------------ */

static int check_chart_files(sd_check *k, const char *const *files, size_t n)
{
    const sd_chart *chart = sd_source_chart(k->src);
    sd_buf label = SD_BUF_INIT;
    const sd_node *base = chart->values ? sd_doc_root(chart->values) : NULL;
    int err = 0, entry;

    if ((base && base->kind != SD_MAP) || (k->opts.mem_defaults && k->opts.mem_name))
        base = NULL;   /* the text given is values.yaml as it is now */
    if (chart->values && !(k->opts.mem_defaults && k->opts.mem_name))
        sd_buf_puts(&label, chart->values->file);
    size_t mark = k->diags->count;
    const sd_node *merged = merge_files(k, base, files, n, &label, 0);
    if (!merged) {
        /* a file that cannot be read is a result of its own (an input
         * error, its reason with it), so the other results of --each
         * stand and the JSON has its object */
        sd_buf_clear(&label);
        if (chart->values)
            sd_buf_puts(&label, chart->values->file);
        for (size_t i = 0; i < n; i++)
            sd_buf_printf(&label, "%s%s", label.len ? " + " : "", strcmp(files[i], "-") ? files[i] : "<stdin>");
        if (!k->oom)
            add_result(k, label.ptr, NULL, SD_EIO, mark);
        sd_buf_release(&label);
        return k->oom ? SD_ENOMEM : 0;
    }
    k->effective = merged;
    if (chart->schema) {
        if ((entry = sd_source_entry(k->src, 0, k->diags)) < 0) {
            sd_buf_release(&label);
            return entry;
        }
        k->effective_schema = sd_doc_root(chart->schema);
        lint_with(add_result(k, label.len ? label.ptr : "(values)", merged, entry, k->diags->count),
                  0, chart);
    } else {
        /* a result like any other: its status and the lint's findings
         * (docs/validate.md) */
        item *it = add_result(k, label.len ? label.ptr : "(values)", merged, 0, k->diags->count);
        if (it) {
            it->noschema = 1;
            lint_with(it, 0, chart);
        }
    }
    /* each subchart's part against the subchart's own schema, as Helm does */
    for (size_t i = 1; i < sd_source_nschemas(k->src) && !k->oom; i++) {
        const sd_source_schema *e = sd_source_schema_at(k->src, i);
        const sd_chart *sub = e->chart;
        const sd_node *sb = sub->values ? sd_doc_root(sub->values) : NULL;
        const sd_node *mine = sd_node_get(merged, sub->alias);
        sd_doc *tmp = sd_synth_new("(subchart values)");
        int oom = 0;
        if (!tmp) {
            k->oom = 1;
            sd_alloc_note_failure();
            break;
        }
        if (keep(k, tmp) < 0)
            break;
        const sd_node *inst = sd_merge_values(tmp, sb && sb->kind == SD_MAP ? sb : NULL,
                                              mine && mine->kind == SD_MAP ? mine : NULL, &oom);
        if (oom) {
            k->oom = 1;
            sd_alloc_note_failure();
        }
        if ((entry = sd_source_entry(k->src, i, k->diags)) < 0) {
            err = entry;
            break;
        }
        sd_buf sl = SD_BUF_INIT;
        sd_buf_printf(&sl, "%s (subchart %s)", label.ptr, sub->alias);
        lint_with(add_result(k, sl.ptr, inst ? inst : empty_map(k, "(values)"), entry, k->diags->count),
                  (long)i, sub);
        sd_buf_release(&sl);
    }
    sd_buf_release(&label);
    return err;
}

/* A chart without a schema: the keys its values.yaml does not know are
 * still worth a warning (an error under --strict), typos above all; they
 * go to `res`. */
static void lint_without_schema(sd_check *k, const sd_chart *chart, const sd_node *merged,
                                sd_vresult *res)
{
    const char *extra[64];
    size_t nextra = 0;
    const sd_node *defs = chart->values ? sd_doc_root(chart->values) : NULL;

    if (!defs || defs->kind != SD_MAP || !defs->n || !merged)
        return;
    nextra = chart_extras(chart, extra, 64);
    sd_tape t;
    if (sd_tape_from_node(&t, merged) < 0) {
        k->oom = 1;
        return;
    }
    sd_lint_chart *lc = chart_info(k, chart);
    if (sd_check__lint(k->src, &t, defs, chart->values->file, NULL, NULL, extra, nextra,
                       k->opts.strict, lc, res) < 0 ||
        (lc && sd_check__k8s(&lc->k8s, k->src, chart, NULL, merged, res) < 0))
        k->oom = 1, sd_alloc_note_failure();   /* the findings are incomplete */
    shape_note(k, chart);
    sd_tape_free(&t);
}

/* Said once a run, and only when it is true: without a schema the keys
 * are still judged against values.yaml (a note says so), unless it has
 * none, and then nothing is checked at all. */
static void noschema_notice(sd_check *k, const sd_chart *chart)
{
    const sd_node *defs = chart->values ? sd_doc_root(chart->values) : NULL;
    if (chart->schema || k->said_noschema)
        return;
    k->said_noschema = 1;
    if (defs && defs->kind == SD_MAP && defs->n)
        sd_diag_add(k->diags, SD_SEV_NOTE, 0, (sd_loc){ chart->dir, 0, 0 }, NULL, NULL,
                    "the chart has no values.schema.json: Helm checks nothing; only the keys "
                    "are checked, against values.yaml");
    else
        sd_diag_warning(k->diags, (sd_loc){ chart->dir, 0, 0 },
                        "the chart has no values.schema.json%s: Helm checks nothing, and neither does this",
                        chart->values ? "" : " and no values.yaml");
}

/* Helm's `-f a -f b` merges (the default); chart-testing checks each CI
 * file on its own over values.yaml (--each). */
static int check_chart(sd_check *k, const char *const *files, size_t n)
{
    int err = 0;
    noschema_notice(k, sd_source_chart(k->src));
    if (!k->opts.each || n < 2)
        return check_chart_files(k, files, n);
    for (size_t i = 0; i < n && err >= 0; i++)
        err = check_chart_files(k, files + i, 1);
    return err;
}

static int check_crds(sd_check *k, const char *const *files, size_t n)
{
    const sd_crds *crds = sd_source_crds(k->src);
    int said = 0;

    for (size_t f = 0; f < n; f++) {
        sd_doc *d = NULL;
        if (load_values(&d, files[f], &k->opts, 1, k->diags) < 0)
            return SD_ERROR;
        if (keep(k, d) < 0)
            return SD_ENOMEM;
        for (size_t r = 0; r < d->nroots || r == 0; r++) {
            const sd_node *inst = d->nroots ? d->roots[r].node : empty_map(k, d->file);
            const sd_crd_version *v = sd_crds_for(crds, inst, NULL);
            size_t i;
            int entry;
            for (i = 0; v && i < sd_source_nschemas(k->src); i++)
                if (sd_source_schema_at(k->src, i)->version == v)
                    break;
            if (!v || !v->schema || i == sd_source_nschemas(k->src))
                return sd_diag_error(k->diags, SD_ENOTFOUND, (sd_loc){ sd_source_path(k->src), 0, 0 },
                                     "the CRD has no openAPIV3Schema");
            sd_check__cel_note(k->diags, v->schema, &said, 0, "evaluated here");
            if ((entry = sd_source_entry(k->src, i, k->diags)) < 0)
                return entry;
            lint_with(add_result(k, d->file, inst, entry, k->diags->count), (long)i, NULL);
            if (!d->nroots)
                break;
        }
    }
    return 0;
}

static int check_ytt(sd_check *k, const char *const *files, size_t n)
{
    const sd_node *schema = sd_doc_root(sd_source_ytt_schema(k->src));
    sd_buf label = SD_BUF_INIT;
    int entry;

    if ((entry = sd_source_entry(k->src, 0, k->diags)) < 0)
        return entry;
    size_t first = k->nkeep + 1; /* after merge_files' own output doc */
    const sd_node *merged = merge_files(k, sd_node_get(schema, "default"), files, n, &label, 1);
    if (!merged) {
        sd_buf_release(&label);
        return SD_ERROR;
    }
    for (size_t i = first; i < k->nkeep; i++)
        for (size_t d = 0; d < k->keep[i]->nroots; d++)
            if (ytt_lifecycle(k, schema, k->keep[i]->roots[d].node, 0) < 0)
                k->wanting = 1;
    k->effective = merged;
    k->effective_schema = schema;
    add_result(k, label.len ? label.ptr : "(defaults)", merged, entry, k->diags->count);
    sd_buf_release(&label);
    return 0;
}

/* A values file against a plain schema goes straight into a tape, in a
 * third of a tree's memory: JSON (tape.c) or YAML (load_tape.c). Returns 1
 * when that worked (a result is added), 0 when the file is for the loader:
 * standard input, an editor's text, a name refuse_non_values() judges, or
 * anything the tape leaves to the loader (an error, a duplicate key, a
 * byte order mark, more than one YAML document...), which the loader then
 * reports as it always has. */
static int tape_result(sd_check *k, const char *path, int entry)
{
    size_t n = strlen(path), len;
    sd_diags quiet = SD_DIAGS_INIT;
    char *text = NULL, *file = NULL;
    const char *b = base_name(path);
    const int json = n >= 5 && strcmp(path + n - 5, ".json") == 0;
    sd_tape *t = NULL;
    item *it;

    if (!strcmp(path, "-") || (k->opts.mem_name && k->opts.mem_text && !strcmp(path, k->opts.mem_name)))
        return 0;
    if (!json && (!strcmp(b, "Chart.yaml") || !strcmp(b, "Chart.yml") || !strcmp(b, "values.schema.yaml")))
        return 0;
    /* (a larger file is the loader's to refuse, with its limit's message) */
    if (sd_file_read(&text, &len, path, SD_FILE_MAX, 0, &quiet) < 0 || !(t = malloc(sizeof *t)) ||
        !(file = strdup(path)) ||
        (json ? sd_tape_parse(t, text, len, file, 0) : sd_load_tape_yaml(t, text, len, file, NULL)) != 0) {
        sd_diags_release(&quiet);
        free(text);
        free(file);
        free(t);
        return 0;
    }
    /* a schema given where values go: the loader says so */
    if (!json && sd_tape_kind(t->v) == SD_MAP) {
        const sd_tval *key = t->v + 1;
        for (uint32_t i = 0; i < t->v->len; i++, key = sd_tval_next(key + 1))
            if (key->len == 7 && !memcmp(key->u.s, "$schema", 7)) {
                sd_tape_free(t);
                free(t);
                free(text);
                free(file);
                return 0;
            }
    }
    if (!(it = add_result(k, file, NULL, entry, k->diags->count))) {
        sd_tape_free(t);
        free(t);
        free(text);
        free(file);
        return 1;   /* out of memory, noted */
    }
    it->tape = t;
    it->text = text;
    it->text_len = len;
    it->file = file;
    lint_with(it, 0, NULL);
    return 1;
}

static int check_schema(sd_check *k, const char *const *files, size_t n)
{
    int entry = sd_source_entry(k->src, 0, k->diags);

    if (entry < 0)
        return entry;
    for (size_t f = 0; f < n; f++) {
        sd_doc *d = NULL;
        size_t mark = k->diags->count;
        if (tape_result(k, files[f], entry))
            continue;
        if (load_values(&d, files[f], &k->opts, 1, k->diags) < 0) {
            add_result(k, strcmp(files[f], "-") ? files[f] : "<stdin>", NULL, SD_EIO, mark);
            continue;
        }
        if (keep(k, d) < 0)
            return SD_ENOMEM;
        if (!d->nroots)
            add_result(k, d->file, empty_map(k, d->file), entry, k->diags->count); /* empty = {} as Helm reads it */
        for (size_t r = 0; r < d->nroots; r++)
            lint_with(add_result(k, d->file, d->roots[r].node, entry, k->diags->count), 0, NULL);
    }
    return 0;
}

/* ---- the run --------------------------------------------------------------- */

/* What the lint knows of `chart` beyond values.yaml and the schema: how
 * its templates use the values (read once a run), its doc comments. A
 * chart without templates/ (a packaged chart's values alone, the corpus)
 * is judged by the default's shape, and a note says so once. Out of
 * memory (here, in the templates reading or the doc comments), the check
 * ends with "out of memory"; NULL then. */
struct chartinfo {
    const sd_chart *chart;
    sd_tmplrefs     refs;
    sd_annots       annots;
    int             scanned;   /* annots holds something to release */
    sd_lint_chart   lc;
};

static sd_lint_chart *chart_info(sd_check *k, const sd_chart *chart)
{
    struct chartinfo *ci, **p;
    sd_diags quiet = SD_DIAGS_INIT;   /* odd comments were the pages' to report */

    if (!chart)
        return NULL;
    for (size_t i = 0; i < k->ninfo; i++)
        if (k->info[i]->chart == chart)
            return &k->info[i]->lc;
    if (!(ci = calloc(1, sizeof *ci)) || !(p = realloc(k->info, (k->ninfo + 1) * sizeof *p))) {
        free(ci);
        sd_alloc_note_failure();
        k->oom = 1;
        return NULL;
    }
    k->info = p;
    k->info[k->ninfo++] = ci;
    ci->chart = chart;
    ci->refs = (sd_tmplrefs)SD_TMPLREFS_INIT;
    /* a reading cut short would judge keys the templates free: out of memory */
    if (sd_tmplrefs_scan_dir(&ci->refs, chart->dir) == SD_ENOMEM) {
        sd_alloc_note_failure();
        k->oom = 1;
    }
    ci->lc.refs = ci->refs.oom ? NULL : &ci->refs;
    if (chart->values && (ci->scanned = 1)) {
        int rc = sd_annots_scan(&ci->annots, chart->values, sd_source_dialect(k->src, chart), &quiet);
        if (rc == 0)
            ci->lc.annots = &ci->annots;
        else if (rc == SD_ENOMEM) {
            sd_alloc_note_failure();
            k->oom = 1;
        }
    }
    sd_diags_release(&quiet);
    return &ci->lc;
}

/* Once a run, when a key of a values file was judged without templates to
 * read: say that the default's shape decided what is free-form. */
static void shape_note(sd_check *k, const sd_chart *chart)
{
    sd_lint_chart *lc = chart_info(k, chart);
    if (!lc || !lc->shape_used || k->said_shape)
        return;
    k->said_shape = 1;
    sd_diag_add(k->diags, SD_SEV_NOTE, 0, (sd_loc){ chart->dir, 0, 0 }, NULL, NULL,
                "the chart has no templates/: which maps are free-form is told from values.yaml "
                "alone (an empty map; a new entry shaped like its siblings; a key of another map shaped "
                "like its own)");
}

/* Unknown and deprecated keys (lint.c); --strict makes unknown keys errors. */
static void lint(sd_check *k, item *it, sd_tape *values)
{
    const sd_source_schema *sc = sd_source_schema_at(k->src, (size_t)it->sidx);
    const char *extra[64];
    size_t nextra = 0;
    const sd_chart *chart = sc ? sc->chart : NULL;

    if (!sc || !sc->root)
        return;
    if (sc->crd) {
        /* every Kubernetes object has these, whatever its schema says */
        extra[nextra++] = "apiVersion";
        extra[nextra++] = "kind";
        extra[nextra++] = "metadata";
    }
    if (chart)
        nextra = chart_extras(chart, extra, 64);
    sd_lint_chart *lc = chart_info(k, chart);
    if (sd_check__lint(k->src, values, it->defaults, it->defaults_file, sc->doc, sc->root,
                       extra, nextra, k->opts.strict, lc, &it->r.res) < 0 ||
        (lc && sd_check__k8s(&lc->k8s, k->src, chart, sc->root, it->r.values, &it->r.res) < 0))
        k->oom = 1, sd_alloc_note_failure();   /* the findings are incomplete */
    shape_note(k, chart);
    if (it->r.res.count && it->r.status == 0)
        it->r.status = SD_EINVALID;
}

/* Where an error is written: the files in the order they were read (a
 * chart's values.yaml first), then line and column. */
static size_t file_rank(const sd_check *k, const char *f)
{
    const sd_chart *ch = sd_source_kind(k->src) == SD_SOURCE_CHART ? sd_source_chart(k->src) : NULL;
    if (!f)
        return 0;
    if (ch && ch->values && (ch->values->file == f || !strcmp(ch->values->file, f)))
        return 1;
    for (size_t i = 0; i < k->nkeep; i++)
        if (k->keep[i]->file == f || !strcmp(k->keep[i]->file, f))
            return i + 2;
    return 0;
}

static int before(const sd_check *k, const sd_verror *a, const sd_verror *b)
{
    size_t ra = file_rank(k, a->loc.file), rb = file_rank(k, b->loc.file);
    if (ra != rb)
        return ra < rb;
    if (ra == 0 && a->loc.file && b->loc.file && strcmp(a->loc.file, b->loc.file))
        return strcmp(a->loc.file, b->loc.file) < 0;
    if (a->loc.line != b->loc.line)
        return a->loc.line < b->loc.line;
    return a->loc.column < b->loc.column;
}

/* A stable insertion sort: the lists are short (at most max_errors). */
static void sort_errors(const sd_check *k, sd_verror *e, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        sd_verror t = e[i];
        size_t j = i;
        while (j > 0 && before(k, &t, &e[j - 1])) {
            e[j] = e[j - 1];
            j--;
        }
        e[j] = t;
    }
}

/* The texts of a chart's values.yaml files, subcharts' too. */
static size_t chart_texts(const sd_chart *c, sd_check_text *t, size_t n, size_t max, int depth)
{
    if (!c || depth > 8)
        return n;
    if (c->values && c->values->text && n < max)
        t[n++] = (sd_check_text){ c->values->file, c->values->text, c->values->text_len, NULL };
    for (size_t i = 0; i < c->nsubcharts; i++)
        n = chart_texts(c->subcharts[i], t, n, max, depth + 1);
    return n;
}

/* Report time: the end of every finding about a text the run read
 * (check_ends.c), the diagnostics from diags[from..) too. */
static void ends(sd_check *k, size_t from)
{
    size_t max = k->nkeep + k->nitems + 1 + 64, n = 0;
    sd_check_text *t = malloc(max * sizeof *t);
    sd_vresult **res = malloc((k->nitems ? k->nitems : 1) * sizeof *res);
    if (t && res) {
        for (size_t i = 0; i < k->nkeep; i++)
            if (k->keep[i]->text)
                t[n++] = (sd_check_text){ k->keep[i]->file, k->keep[i]->text, k->keep[i]->text_len, NULL };
        for (size_t i = 0; i < k->nitems; i++) {
            if (k->items[i].text && k->items[i].file) {
                size_t fl = strlen(k->items[i].file);
                int yaml_tape = k->items[i].tape && !(fl >= 5 && !strcmp(k->items[i].file + fl - 5, ".json"));
                t[n++] = (sd_check_text){ k->items[i].file, k->items[i].text, k->items[i].text_len,
                                          yaml_tape ? k->items[i].file : NULL };
            }
            res[i] = &k->items[i].r.res;
        }
        if (sd_source_kind(k->src) == SD_SOURCE_CHART)
            n = chart_texts(sd_source_chart(k->src), t, n, max - 1, 0);
        if (k->opts.mem_name && k->opts.mem_text)
            t[n++] = (sd_check_text){ k->opts.mem_name, k->opts.mem_text, k->opts.mem_len, NULL };
    }
    if (!t || !res || sd_check__ends(t, n, res, k->nitems, k->diags, from) < 0)
        sd_alloc_note_failure();
    free(t);
    free(res);
}

void sd_check_validate_opts(sd_validate_opts *vo, const sd_source *src, const sd_check_opts *opts)
{
    memset(vo, 0, sizeof *vo);
    if (opts) {
        vo->draft = opts->draft;
        vo->formats = opts->formats;
        vo->max_errors = opts->max_errors;
    }
    if (sd_source_kind(src) == SD_SOURCE_YTT && !vo->formats)
        vo->formats = SD_FORMATS_ASSERT; /* ytt's format= rules always assert */
}

int sd_check_run(sd_check **out, sd_source *src, const char *const *files, size_t nfiles,
                 const sd_check_opts *opts, sd_diags *diags)
{
    sd_check *k = calloc(1, sizeof *k);
    sd_validate_opts vo;
    size_t from = diags->count;
    int err;

    *out = NULL;
    if (!k)
        return sd_diag_error(diags, SD_ENOMEM, (sd_loc){ NULL, 0, 0 }, "out of memory");
    k->src = src;
    k->diags = diags;
    if (opts)
        k->opts = *opts;
    sd_check_validate_opts(&vo, src, &k->opts);
    if ((err = sd_source_validator(&k->v, src, &vo, diags)) < 0)
        goto fail;
    switch (sd_source_kind(src)) {
    case SD_SOURCE_CHART: err = check_chart(k, files, nfiles); break;
    case SD_SOURCE_CRD:   err = check_crds(k, files, nfiles); break;
    case SD_SOURCE_YTT:
        /* --each: each overlay over the defaults on its own */
        if (k->opts.each && nfiles > 1)
            for (size_t f = 0; f < nfiles && err >= 0; f++)
                err = check_ytt(k, files + f, 1);
        else
            err = check_ytt(k, files, nfiles);
        break;
    default:              err = check_schema(k, files, nfiles); break;
    }
    if (err < 0)
        goto fail;
    if (k->oom) {
        err = sd_diag_error(diags, SD_ENOMEM, (sd_loc){ NULL, 0, 0 }, "out of memory");
        goto fail;
    }
    /* validate each result; the diagnostics it causes are its own */
    for (size_t i = 0; i < k->nitems; i++) {
        sd_check_result *r = &k->items[i].r;
        if (k->items[i].entry < 0) {
            r->status = k->items[i].entry;   /* could not be read */
            continue;
        }
        if (r->diag_count == 0)
            r->diag_first = diags->count;
        if (k->items[i].noschema) {
            lint_without_schema(k, sd_source_chart(src), r->values, &r->res);
            r->status = r->res.count ? SD_EINVALID : 0;
            goto done;
        }
        /* the instance as a tape: parsed so, or copied from its tree */
        sd_tape own, *t = k->items[i].tape;
        if (!t) {
            if (!r->values) {
                r->status = sd_validate_entry(k->v, (size_t)k->items[i].entry, NULL, &r->res, diags);
                goto done;
            }
            if ((r->status = sd_tape_from_node(&own, r->values)) < 0) {
                sd_diag_error(diags, r->status, r->values->loc, r->status == SD_ENOMEM ? "out of memory"
                                                                                       : "the values are too large to validate");
                goto done;
            }
            t = &own;
        }
        r->status = sd_validate_tape(k->v, (size_t)k->items[i].entry, t, &r->res, diags);
        if ((r->status == 0 || r->status == SD_EINVALID) && k->items[i].sidx >= 0)
            lint(k, &k->items[i], t);
        if (t == &own)
            sd_tape_free(&own);
done:
        if (k->opts.by_position) {
            sort_errors(k, r->res.items, r->res.count);
            sort_errors(k, r->res.warnings, r->res.nwarnings);
        }
        r->diag_count = diags->count - r->diag_first;
    }
    ends(k, from);
    /* the lint and the Kubernetes layer run above: a finding they could
     * not make is not a pass */
    if (k->oom) {
        err = sd_diag_error(diags, SD_ENOMEM, (sd_loc){ NULL, 0, 0 }, "out of memory");
        goto fail;
    }
    *out = k;
    return 0;
fail:
    sd_check_free(k);
    return err < 0 ? err : SD_ERROR;
}

void sd_check_free(sd_check *k)
{
    if (!k)
        return;
    for (size_t i = 0; i < k->nitems; i++) {
        free(k->items[i].r.label);
        sd_vresult_release(&k->items[i].r.res);
        if (k->items[i].tape) {
            sd_tape_free(k->items[i].tape);
            free(k->items[i].tape);
        }
        free(k->items[i].text);
        free(k->items[i].file);
    }
    free(k->items);
    for (size_t i = 0; i < k->ninfo; i++) {
        sd_tmplrefs_release(&k->info[i]->refs);
        sd_check__k8s_free(k->info[i]->lc.k8s);
        if (k->info[i]->scanned)
            sd_annots_release(&k->info[i]->annots);
        free(k->info[i]);
    }
    free(k->info);
    for (size_t i = 0; i < k->nkeep; i++)
        sd_doc_free(k->keep[i]);
    free(k->keep);
    free(k);
}

sd_doc *sd_check_take_doc(sd_check *k, const char *file)
{
    for (size_t i = 0; file && i < k->nkeep; i++)
        if (k->keep[i]->file && !strcmp(k->keep[i]->file, file)) {
            sd_doc *d = k->keep[i];
            memmove(k->keep + i, k->keep + i + 1, (k->nkeep - i - 1) * sizeof *k->keep);
            k->nkeep--;
            return d;
        }
    return NULL;
}

size_t sd_check_count(const sd_check *k) { return k->nitems; }
const sd_check_result *sd_check_result_at(const sd_check *k, size_t i)
{
    return i < k->nitems ? &k->items[i].r : NULL;
}
const sd_node *sd_check_effective(const sd_check *k) { return k->effective; }
const sd_node *sd_check_effective_schema(const sd_check *k) { return k->effective_schema; }

int sd_check_status(const sd_check *k)
{
    int status = k->wanting;
    for (size_t i = 0; i < k->nitems; i++) {
        int s = k->items[i].r.status;
        if (s < 0 && s != SD_EINVALID)
            return 2;
        if (s == SD_EINVALID)
            status = 1;
    }
    return status;
}
