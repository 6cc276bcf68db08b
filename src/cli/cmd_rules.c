/* cmd_rules.c - `schemadoc rules SOURCE [-o FILE]`: the compiled validation
 * program of SOURCE as one JSON document (docs/rules.md), for the
 * JavaScript interpreter src/form/rules.js; `schemadoc rules --runtime`
 * writes that interpreter itself as one self-contained ES module.
 *
 * SOURCE is opened as `validate` opens it (rules_open_source below), with
 * one entry per thing `validate` would check: a chart's "values" and each
 * subchart's "charts/<alias>", a CRD's "<group>/<version>" per version, a
 * ytt schema's "values", a plain schema's "schema". Exit 0, or 2 when the
 * source cannot be read or compiled (nothing is written then). */
#include "buf.h"
#include "chart.h"
#include "cli.h"
#include "docset.h"
#include "out.h"
#include "resolve.h"
#include "rules.h"
#include "synth.h"
#include "validate.h"
#include "ytt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The interpreter as one ES module: build/gen/runtime.c, made from
 * the modules of src/form/ at build time by src/form/embed-runtime.sh. */
extern const char sd_rules_runtime[];
extern const size_t sd_rules_runtime_len;

/* What a run keeps alive until the document is written. */
typedef struct rrun {
    sd_diags         diags;
    sd_docset       *docs;
    sd_validate_opts opts;
    sd_chart        *chart;
    sd_doc          *sdoc, *ytt;
    sd_validator   **vals;
    size_t           nvals;
    sd_rules_entry  *entries;
    size_t           nentries;
    char           **names;     /* entry names we built (freed at the end) */
    size_t           nnames;
    const char      *kind;
    const char      *fallback;
} rrun;

static char *map_cb(void *payload, const char *ref)
{
    char *out = NULL;
    return sd_docset_map(&out, payload, ref) == 0 ? out : NULL;
}

static sd_validator *compile(rrun *r, const sd_doc *doc, const sd_node *schema)
{
    sd_validator *v = NULL, **vs;
    sd_validate_opts o = r->opts;
    char *base = sd_vuri_from_path(doc->file);
    o.load = sd_docset_load_cb;
    o.map = map_cb;
    o.payload = r->docs;
    o.base_uri = base;
    if (!base)
        sd_diag_error(&r->diags, SD_ENOMEM, (sd_loc){ doc->file, 0, 0 }, "out of memory");
    else if (sd_validator_new(&v, doc, schema, &o, &r->diags) == 0) {
        if (!(vs = realloc(r->vals, (r->nvals + 1) * sizeof *vs))) {
            sd_validator_free(v);
            v = NULL;
            sd_diag_error(&r->diags, SD_ENOMEM, schema->loc, "out of memory");
        } else {
            r->vals = vs;
            r->vals[r->nvals++] = v;
        }
    }
    free(base);
    return v;
}

/* Add an entry; `name` is copied. Returns the entry or NULL (out of memory). */
static sd_rules_entry *add_entry(rrun *r, const char *name, sd_validator *v)
{
    sd_rules_entry *e = realloc(r->entries, (r->nentries + 1) * sizeof *e);
    char **n = realloc(r->names, (r->nnames + 1) * sizeof *n);
    if (e) r->entries = e;
    if (n) r->names = n;
    if (!e || !n || !(r->names[r->nnames] = strdup(name))) {
        sd_diag_error(&r->diags, SD_ENOMEM, (sd_loc){ NULL, 0, 0 }, "out of memory");
        return NULL;
    }
    e = &r->entries[r->nentries++];
    memset(e, 0, sizeof *e);
    e->name = r->names[r->nnames++];
    e->val = v;
    return e;
}

static int has_entry(const rrun *r, const char *name)
{
    for (size_t i = 0; i < r->nentries; i++)
        if (!strcmp(r->entries[i].name, name))
            return 1;
    return 0;
}

static void cel_note(rrun *r, const sd_node *n, int *said, int depth)
{
    if (*said || !n || depth > 200)
        return;
    if (n->kind == SD_MAP) {
        const sd_node *v = sd_node_get(n, "x-kubernetes-validations");
        if (v) {
            sd_diag_warning(&r->diags, v->loc, "CEL rules (x-kubernetes-validations) are not in the rules; "
                            "the API server checks them");
            *said = 1;
            return;
        }
    }
    if (n->kind == SD_MAP || n->kind == SD_SEQ)
        for (size_t i = 0; i < n->n; i++)
            cel_note(r, n->items[i].value, said, depth + 1);
}

/* A CRD file: one entry per version of each CustomResourceDefinition, named
 * "<group>/<version>" (a repeated name gets "#2", "#3"...), and the entry
 * `validate` falls back to when a document's apiVersion names none: the
 * first version, else the last one marked as the storage version. */
static int open_crds(rrun *r)
{
    const sd_doc *d = r->sdoc;
    int said = 0;
    for (size_t k = 0; k < d->nroots; k++) {
        const sd_node *root = d->roots[k].node;
        const char *kind = sd_node_str(sd_node_get(root, "kind"));
        if (!kind || strcmp(kind, "CustomResourceDefinition"))
            continue;
        const sd_node *spec = sd_node_get(root, "spec");
        const char *group = sd_node_str(sd_node_get(spec, "group"));
        const char *rkind = sd_node_str(sd_node_get(sd_node_get(spec, "names"), "kind"));
        const sd_node *vers = sd_node_get(spec, "versions");
        const sd_node *shared = sd_node_get(sd_node_get(spec, "validation"), "openAPIV3Schema");
        for (size_t i = 0; vers && vers->kind == SD_SEQ && i < vers->n; i++) {
            const sd_node *v = vers->items[i].value, *st;
            const char *vname = sd_node_str(sd_node_get(v, "name"));
            const sd_node *s = sd_node_get(sd_node_get(v, "schema"), "openAPIV3Schema");
            sd_buf name = SD_BUF_INIT;
            sd_validator *val;
            sd_rules_entry *e;
            if (!s)
                s = shared;
            if (!s)
                continue;
            cel_note(r, s, &said, 0);
            if (!(val = compile(r, d, s)))
                return SD_ERROR;
            sd_buf_printf(&name, "%s/%s", group ? group : "", vname ? vname : "");
            for (int dup = 2; has_entry(r, name.ptr); dup++) {
                sd_buf_clear(&name);
                sd_buf_printf(&name, "%s/%s#%d", group ? group : "", vname ? vname : "", dup);
            }
            e = add_entry(r, name.ptr, val);
            sd_buf_release(&name);
            if (!e)
                return SD_ENOMEM;
            e->group = group;
            e->version = vname;
            e->kind = rkind;
            if (!r->fallback || ((st = sd_node_get(v, "storage")) && st->kind == SD_BOOL && st->num.b))
                r->fallback = e->name;
        }
    }
    if (!r->nentries)
        return sd_diag_error(&r->diags, SD_ENOTFOUND, (sd_loc){ d->file, 0, 0 }, "the CRD has no openAPIV3Schema");
    return 0;
}

/* Open SOURCE as `validate` does and compile one validator per entry.
 * TODO(issue 10): re-point at the source stage (sd_source_open) once it
 * lands; this is the one place that knows how sources are opened. */
static int rules_open_source(rrun *r, const char *source, const sd_model_opts *mo)
{
    sd_docset_opts dopts;
    int is_chart = sd_chart_is_dir(source);

    memset(&dopts, 0, sizeof dopts);
    dopts.chart_root = is_chart ? source : NULL;
    dopts.fetch.cache_dir = mo->cache_dir;
    dopts.fetch.offline = mo->offline;
    dopts.fetch.refresh = mo->refresh;
    dopts.fetch.timeout_ms = mo->timeout_ms;
    if (sd_docset_new(&r->docs, &dopts, &r->diags) < 0 ||
        (is_chart && sd_docset_read_chart_map(r->docs, &r->diags) < 0))
        return SD_ERROR;
    for (size_t k = 0; k < mo->nmaps; k++)
        if (sd_docset_add_map(r->docs, mo->maps[k], &r->diags) < 0)
            return SD_ERROR;
    if (mo->draft && !r->opts.draft)
        r->opts.default_draft = mo->draft;

    if (is_chart) {
        r->kind = "chart";
        if (sd_chart_load(&r->chart, source, &r->diags) < 0)
            return SD_ERROR;
        if (r->chart->schema) {
            sd_validator *v = compile(r, r->chart->schema, sd_doc_root(r->chart->schema));
            if (!v || !add_entry(r, "values", v))
                return SD_ERROR;
        } else {
            sd_diag_warning(&r->diags, (sd_loc){ r->chart->dir, 0, 0 },
                            "the chart has no values.schema.json: Helm checks nothing, and neither do these rules");
        }
        for (size_t k = 0; k < r->chart->nsubcharts; k++) {
            const sd_chart *sub = r->chart->subcharts[k];
            sd_buf name = SD_BUF_INIT;
            sd_validator *v;
            sd_rules_entry *e;
            if (!sub->schema)
                continue;
            if (!(v = compile(r, sub->schema, sd_doc_root(sub->schema))))
                return SD_ERROR;
            sd_buf_printf(&name, "charts/%s", sub->alias);
            e = add_entry(r, name.ptr, v);
            sd_buf_release(&name);
            if (!e)
                return SD_ENOMEM;
            e->alias = sub->alias;
            e->defaults = sub->values ? sd_doc_root(sub->values) : NULL;
        }
        return 0;
    }
    if (sd_doc_load_file(&r->sdoc, source, SD_FMT_AUTO, NULL, &r->diags) < 0)
        return SD_ERROR;
    if (!sd_doc_root(r->sdoc))
        return sd_diag_error(&r->diags, SD_ESYNTAX, (sd_loc){ source, 0, 0 }, "the schema file is empty");
    for (size_t d = 0; d < r->sdoc->nroots; d++) {
        const char *k = sd_node_str(sd_node_get(r->sdoc->roots[d].node, "kind"));
        if (k && !strcmp(k, "CustomResourceDefinition")) {
            r->kind = "crd";
            return open_crds(r);
        }
    }
    if (sd_ytt_is_schema(r->sdoc)) {
        sd_validator *v;
        r->kind = "ytt";
        if (sd_ytt_schema(&r->ytt, r->sdoc, &r->diags) < 0)
            return SD_ERROR;
        if (!r->opts.formats)
            r->opts.formats = SD_FORMATS_ASSERT; /* ytt's format= rules always assert */
        sd_rules_entry *e;
        if (!(v = compile(r, r->ytt, sd_doc_root(r->ytt))) || !(e = add_entry(r, "values", v)))
            return SD_ERROR;
        e->defaults = sd_node_get(sd_doc_root(r->ytt), "default");   /* the data values' defaults */
        return 0;
    }
    r->kind = "schema";
    sd_validator *v = compile(r, r->sdoc, sd_doc_root(r->sdoc));
    if (!v || !add_entry(r, "schema", v))
        return SD_ERROR;
    return 0;
}

static void rrun_release(rrun *r)
{
    for (size_t k = 0; k < r->nvals; k++)
        sd_validator_free(r->vals[k]);
    free(r->vals);
    for (size_t k = 0; k < r->nnames; k++)
        free(r->names[k]);
    free(r->names);
    free(r->entries);
    sd_chart_free(r->chart);
    sd_doc_free(r->ytt);
    sd_doc_free(r->sdoc);
    sd_docset_free(r->docs);
    sd_diags_release(&r->diags);
}

int sd_cmd_rules(int argc, char **argv)
{
    const char *source = NULL, *output = NULL, *v;
    sd_model_opts mopts;
    sd_rules_opts ropts;
    rrun run;
    sd_buf out = SD_BUF_INIT;
    int r, status = SD_EXIT_OK, runtime = 0;

    memset(&run, 0, sizeof run);
    memset(&mopts, 0, sizeof mopts);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if ((r = sd_cli_opt_value(argc, argv, &i, "--draft", &v)) != 0) {
            if (r < 0 || !(run.opts.draft = sd_draft_from_name(v))) {
                free(mopts.maps);
                return sd_cli_usage_error("option '--draft' needs one of: 4, 6, 7, 2019-09, 2020-12");
            }
        } else if ((r = sd_cli_opt_value(argc, argv, &i, "--output", &v)) != 0 ||
                   (r = sd_cli_opt_value(argc, argv, &i, "-o", &v)) != 0) {
            if (r < 0) {
                free(mopts.maps);
                return sd_cli_usage_error("option '%s' needs a file name", a);
            }
            output = v;
        } else if (!strcmp(a, "--runtime")) {
            runtime = 1;
        } else if (!strcmp(a, "--formats")) {
            run.opts.formats = SD_FORMATS_ASSERT;
        } else if (!strcmp(a, "--no-formats")) {
            run.opts.formats = SD_FORMATS_IGNORE;
        } else if ((r = sd_cli_model_opt(argc, argv, &i, &mopts)) != 0) {
            if (r < 0) {
                free(mopts.maps);
                return SD_EXIT_ERROR;
            }
        } else if (a[0] == '-' && a[1]) {
            free(mopts.maps);
            return sd_cli_usage_error("unknown option '%s' for 'rules'", a);
        } else if (!source) {
            source = a;
        } else {
            free(mopts.maps);
            return sd_cli_usage_error("more than one SOURCE given ('%s' and '%s')", source, a);
        }
    }
    if (runtime) {
        free(mopts.maps);
        if (source)
            return sd_cli_usage_error("'rules --runtime' takes no SOURCE");
        if (sd_out_write(output, sd_rules_runtime, sd_rules_runtime_len, &run.diags) < 0)
            status = SD_EXIT_ERROR;
        sd_cli_print_diags(&run.diags);
        sd_diags_release(&run.diags);
        return status;
    }
    if (!source) {
        free(mopts.maps);
        return sd_cli_usage_error("rules: no SOURCE given");
    }
    if (rules_open_source(&run, source, &mopts) < 0) {
        status = SD_EXIT_ERROR;
    } else {
        memset(&ropts, 0, sizeof ropts);
        ropts.source = source;
        ropts.kind = run.kind;
        ropts.fallback = run.fallback;
        ropts.formats = run.opts.formats;
        ropts.draft = run.opts.draft;
        ropts.default_draft = run.opts.default_draft;
        if (sd_rules_export(&out, run.entries, run.nentries, &ropts, &run.diags) < 0 ||
            sd_out_write(output, out.ptr, out.len, &run.diags) < 0)
            status = SD_EXIT_ERROR;
    }
    sd_cli_print_diags(&run.diags);
    rrun_release(&run);
    sd_buf_release(&out);
    free(mopts.maps);
    return status;
}
