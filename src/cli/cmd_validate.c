/* cmd_validate.c - `schemadoc validate SOURCE VALUES...`.
 *
 * SOURCE decides what is validated, and against what:
 *   - a chart directory: values.yaml, then each VALUES file merged over it as
 *     `helm -f a -f b` does, validated once against values.schema.json; each
 *     subchart's part (under its alias) against the subchart's own schema;
 *   - a CRD file: each VALUES document against the openAPIV3Schema of the
 *     version its apiVersion names (else the storage version);
 *   - a ytt schema: the schema's defaults, then each VALUES file as an
 *     overlay, validated once; deprecated keys warn, removed keys fail;
 *   - any other schema file: each VALUES file on its own.
 * The schema is compiled once. Output: text (diagnostics on stderr, one
 * status line per result on stdout) or json (one array on stdout). Exit 0
 * when all valid, 1 when any violation, 2 on input errors. docs/validate.md */
#include "buf.h"
#include "chart.h"
#include "docset.h"
#include "merge.h"
#include "render.h"
#include "synth.h"
#include "ytt.h"
#include "cli.h"
#include "emit.h"
#include "node.h"
#include "resolve.h"
#include "sd.h"
#include "validate.h"
#include "uri.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stdarg.h>
#include <unistd.h>

#define STDIN_MAX ((size_t)64 << 20)

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

static int load_values(sd_doc **out, const char *path, sd_diags *diags)
{
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
        err = sd_doc_load_mem(out, "<stdin>", in.ptr, in.len, SD_FMT_AUTO, NULL, diags);
        sd_buf_release(&in);
        return err;
    }
    return sd_doc_load_file(out, path, SD_FMT_AUTO, NULL, diags);
}

static void json_error(sd_buf *o, const sd_verror *e, const char *file)
{
    sd_buf_puts(o, "{\"path\": ");
    sd_emit_json_string(o, e->path, strlen(e->path));
    sd_buf_puts(o, ", \"key\": ");
    sd_emit_json_string(o, e->key, strlen(e->key));
    sd_buf_puts(o, ", \"file\": ");
    sd_emit_json_string(o, e->loc.file ? e->loc.file : file, strlen(e->loc.file ? e->loc.file : file));
    sd_buf_printf(o, ", \"line\": %d, \"column\": %d, \"keyword\": ", e->loc.line, e->loc.column);
    sd_emit_json_string(o, e->keyword, strlen(e->keyword));
    sd_buf_puts(o, ", \"message\": ");
    sd_emit_json_string(o, e->message, strlen(e->message));
    sd_buf_puts(o, ", \"schemaLocation\": ");
    {
        sd_buf l = SD_BUF_INIT;
        if (e->schema_loc.file)
            sd_buf_printf(&l, "%s:%d:%d", e->schema_loc.file, e->schema_loc.line, e->schema_loc.column);
        sd_emit_json_string(o, l.ptr, l.len);
        sd_buf_release(&l);
    }
    sd_buf_puts(o, ", \"schemaPath\": ");
    sd_emit_json_string(o, e->schema_path, strlen(e->schema_path));
    sd_buf_putc(o, '}');
}

static void json_diags(sd_buf *o, const sd_diags *d, size_t from, int severity)
{
    int any = 0;
    sd_buf_putc(o, '[');
    for (size_t i = from; i < d->count; i++) {
        const sd_diag *g = &d->items[i];
        char *line;
        if (g->severity != severity)
            continue;
        line = sd_diag_format(g);
        sd_buf_puts(o, any++ ? ", " : "");
        sd_emit_json_string(o, line ? line : "", line ? strlen(line) : 0);
        free(line);
    }
    sd_buf_putc(o, ']');
}

/* One thing to validate: a label for messages and JSON, the instance. */
typedef struct target {
    char          *label;
    const sd_node *node;
    sd_validator  *val;      /* borrowed */
    int            input_error;
} target;

typedef struct vrun {
    sd_diags      diags;
    sd_docset    *docs;
    sd_doc      **keep;      /* documents the instances point into */
    size_t        nkeep;
    sd_validator **vals;
    size_t        nvals;
    target       *targets;
    size_t        ntargets;
    sd_validate_opts opts;
    int           oom;
} vrun;

static void keep(vrun *r, sd_doc *d)
{
    sd_doc **k = realloc(r->keep, (r->nkeep + 1) * sizeof *k);
    if (!k) {
        r->oom = 1;
        sd_doc_free(d);
        return;
    }
    r->keep = k;
    r->keep[r->nkeep++] = d;
}

static void add_target(vrun *r, const char *label, const sd_node *node, sd_validator *val)
{
    target *t = realloc(r->targets, (r->ntargets + 1) * sizeof *t);
    if (!t) {
        r->oom = 1;
        return;
    }
    r->targets = t;
    t = &r->targets[r->ntargets++];
    memset(t, 0, sizeof *t);
    t->label = strdup(label);
    t->node = node;
    t->val = val;
}

static char *map_cb(void *payload, const char *ref)
{
    char *out = NULL;
    return sd_docset_map(&out, payload, ref) == 0 ? out : NULL;
}

/* Compile `schema` (a node of `doc`), through the run's docset. */
static sd_validator *compile(vrun *r, const sd_doc *doc, const sd_node *schema)
{
    sd_validator *v = NULL;
    sd_validate_opts o = r->opts;
    char *base = NULL;
    if (sd_uri_from_path(&base, doc->file) < 0)
        base = NULL;
    o.load = sd_docset_load_cb;
    o.map = map_cb;
    o.payload = r->docs;
    o.base_uri = base;
    if (base && sd_validator_new(&v, doc, schema, &o, &r->diags) == 0) {
        sd_validator **vs = realloc(r->vals, (r->nvals + 1) * sizeof *vs);
        if (vs) {
            r->vals = vs;
            r->vals[r->nvals++] = v;
        } else {
            sd_validator_free(v);
            v = NULL;
            r->oom = 1;
        }
    }
    free(base);
    return v;
}

static const sd_node *empty_map(vrun *r, const char *file)
{
    sd_doc *d = sd_synth_new(file);
    if (!d)
        return r->oom = 1, NULL;
    sd_node *m = sd_synth_map(d, (sd_loc){ d->file, 1, 1 });
    sd_synth_set_root(d, m);
    keep(r, d);
    return m;
}

/* Load and merge the VALUES files over `base` (Helm's `-f` order). */
static const sd_node *merge_files(vrun *r, const sd_node *base, const char **files, size_t n,
                                  sd_buf *label)
{
    sd_doc *out = sd_synth_new("(merged values)");
    const sd_node *m = base;
    if (!out)
        return r->oom = 1, NULL;
    keep(r, out);
    for (size_t i = 0; i < n; i++) {
        sd_doc *d = NULL;
        if (load_values(&d, files[i], &r->diags) < 0)
            return NULL;
        keep(r, d);
        if (label->len)
            sd_buf_puts(label, " + ");
        sd_buf_puts(label, d->file);
        const sd_node *v = sd_doc_root(d);
        if (v && v->kind != SD_MAP && v->kind != SD_NULL) {
            sd_diag_error(&r->diags, SD_ESYNTAX, v->loc, "a values file must hold a map, not a %s",
                          sd_kind_name(v->kind));
            return NULL;
        }
        if (v && v->kind == SD_MAP) {
            int oom;
            m = sd_merge_values(out, m, v, &oom);
            if (oom)
                return r->oom = 1, NULL;
        }
    }
    return m ? m : empty_map(r, "(values)");
}

/* ytt: a value given for a deprecated key warns with its notice; one for a
 * removed key is an error carrying the remedy (seed 004 Part 7). */
static int ytt_lifecycle(vrun *r, const sd_node *schema, const sd_node *v, int depth)
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
            bad = sd_diag_error(&r->diags, SD_EINVALID, p->key->loc, "%s: this key was removed%s%s",
                                p->key->str, t->kind == SD_STR && *t->str ? ": " : "",
                                t->kind == SD_STR ? t->str : "");
        else if ((t = sd_node_get(s, "deprecated")) && t->kind == SD_BOOL && t->num.b) {
            const sd_node *why = sd_node_get(s, "x-deprecation");
            sd_diag_warning(&r->diags, p->key->loc, "%s: this key is deprecated%s%s", p->key->str,
                            why && why->kind == SD_STR ? ": " : "", why && why->kind == SD_STR ? why->str : "");
        }
        if (ytt_lifecycle(r, s, p->value, depth + 1) < 0)
            bad = SD_EINVALID;
    }
    return bad;
}

static const sd_node *crd_schema_for(const sd_doc *crds, const sd_node *inst)
{
    const char *api = sd_node_str(sd_node_get(inst, "apiVersion"));
    const sd_node *fallback = NULL;
    for (size_t d = 0; d < crds->nroots; d++) {
        const sd_node *root = crds->roots[d].node;
        const char *kind = sd_node_str(sd_node_get(root, "kind"));
        if (!kind || strcmp(kind, "CustomResourceDefinition"))
            continue;
        const sd_node *spec = sd_node_get(root, "spec");
        const char *group = sd_node_str(sd_node_get(spec, "group"));
        const sd_node *vs = sd_node_get(spec, "versions");
        const sd_node *shared = sd_node_get(sd_node_get(spec, "validation"), "openAPIV3Schema");
        for (size_t i = 0; vs && vs->kind == SD_SEQ && i < vs->n; i++) {
            const sd_node *v = vs->items[i].value, *st;
            const char *name = sd_node_str(sd_node_get(v, "name"));
            const sd_node *s = sd_node_get(sd_node_get(v, "schema"), "openAPIV3Schema");
            if (!s)
                s = shared;
            if (api && group && name) {
                size_t gl = strlen(group);
                if (!strncmp(api, group, gl) && api[gl] == '/' && !strcmp(api + gl + 1, name))
                    return s;
            }
            if (!fallback || ((st = sd_node_get(v, "storage")) && st->kind == SD_BOOL && st->num.b))
                fallback = s;
        }
        if (!fallback)
            fallback = shared;
    }
    return fallback;
}

static void cel_note(vrun *r, const sd_node *n, int *said, int depth)
{
    if (*said || !n || depth > 200)
        return;
    if (n->kind == SD_MAP) {
        const sd_node *v = sd_node_get(n, "x-kubernetes-validations");
        if (v) {
            sd_diag_warning(&r->diags, v->loc, "CEL rules (x-kubernetes-validations) are not evaluated here; "
                            "the API server checks them");
            *said = 1;
            return;
        }
    }
    if (n->kind == SD_MAP || n->kind == SD_SEQ)
        for (size_t i = 0; i < n->n; i++)
            cel_note(r, n->items[i].value, said, depth + 1);
}

int sd_cmd_validate(int argc, char **argv)
{
    const char *source = NULL, *output = "text", *v;
    const char **values = NULL;
    size_t nvalues = 0;
    sd_model_opts mopts;
    vrun run;
    sd_doc *sdoc = NULL, *ytt = NULL;
    sd_chart *chart = NULL;
    sd_buf out = SD_BUF_INIT;
    int i, r, status = SD_EXIT_OK, json, print_values = 0;

    memset(&run, 0, sizeof run);
    memset(&mopts, 0, sizeof mopts);
    if (!(values = calloc((size_t)argc, sizeof *values)))
        return sd_cli_usage_error("out of memory");
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if ((r = sd_cli_opt_value(argc, argv, &i, "--draft", &v)) != 0) {
            if (r < 0 || !(run.opts.draft = sd_draft_from_name(v))) {
                free(values);
                return sd_cli_usage_error("option '--draft' needs one of: 4, 6, 7, 2019-09, 2020-12");
            }
        } else if ((r = sd_cli_opt_value(argc, argv, &i, "--output", &v)) != 0) {
            if (r < 0 || (strcmp(v, "text") != 0 && strcmp(v, "json") != 0)) {
                free(values);
                return sd_cli_usage_error("option '--output' needs one of: text, json");
            }
            output = v;
        } else if (strcmp(a, "--formats") == 0) {
            run.opts.formats = SD_FORMATS_ASSERT;
        } else if (strcmp(a, "--no-formats") == 0) {
            run.opts.formats = SD_FORMATS_IGNORE;
        } else if (strcmp(a, "--print-values") == 0) {
            print_values = 1;
        } else if ((r = sd_cli_model_opt(argc, argv, &i, &mopts)) != 0) {
            if (r < 0) {
                free(values);
                free(mopts.maps);
                return SD_EXIT_ERROR;
            }
        } else if (strcmp(a, "--") == 0) {
            for (i++; i < argc; i++) {
                if (!source)
                    source = argv[i];
                else
                    values[nvalues++] = argv[i];
            }
        } else if (a[0] == '-' && a[1] != '\0') {
            free(values);
            free(mopts.maps);
            return sd_cli_usage_error("unknown option '%s' for 'validate'", a);
        } else if (!source) {
            source = a;
        } else {
            values[nvalues++] = a;
        }
    }
    int is_chart = source && sd_chart_is_dir(source);
    if (!source || (!nvalues && !is_chart && !print_values)) {
        free(values);
        free(mopts.maps);
        return sd_cli_usage_error(!source ? "validate: no SOURCE given"
                                          : "validate: no VALUES file given (use '-' for standard input)");
    }
    json = strcmp(output, "json") == 0;

    /* the documents of this run: confinement, prefix maps, cache */
    {
        sd_docset_opts dopts;
        memset(&dopts, 0, sizeof dopts);
        dopts.chart_root = is_chart ? source : NULL;
        dopts.fetch.cache_dir = mopts.cache_dir;
        dopts.fetch.offline = mopts.offline;
        dopts.fetch.refresh = mopts.refresh;
        dopts.fetch.timeout_ms = mopts.timeout_ms;
        if (sd_docset_new(&run.docs, &dopts, &run.diags) < 0 ||
            (is_chart && sd_docset_read_chart_map(run.docs, &run.diags) < 0)) {
            status = SD_EXIT_ERROR;
            goto done;
        }
        for (size_t k = 0; k < mopts.nmaps; k++)
            if (sd_docset_add_map(run.docs, mopts.maps[k], &run.diags) < 0) {
                status = SD_EXIT_ERROR;
                goto done;
            }
        if (mopts.draft && !run.opts.draft)
            run.opts.default_draft = mopts.draft;
    }

    const sd_node *effective = NULL;   /* merged values, for --print-values */
    const sd_node *effective_schema = NULL;
    if (is_chart) {
        if (sd_chart_load(&chart, source, &run.diags) < 0) {
            status = SD_EXIT_ERROR;
            goto done;
        }
        sd_buf label = SD_BUF_INIT;
        const sd_node *base = chart->values ? sd_doc_root(chart->values) : NULL;
        if (base && base->kind != SD_MAP)
            base = NULL;
        if (chart->values)
            sd_buf_puts(&label, chart->values->file);
        const sd_node *merged = merge_files(&run, base, values, nvalues, &label);
        if (!merged) {
            sd_buf_release(&label);
            status = SD_EXIT_ERROR;
            goto done;
        }
        effective = merged;
        if (chart->schema) {
            sd_validator *val = compile(&run, chart->schema, sd_doc_root(chart->schema));
            if (!val) {
                sd_buf_release(&label);
                status = SD_EXIT_ERROR;
                goto done;
            }
            effective_schema = sd_doc_root(chart->schema);
            add_target(&run, label.len ? label.ptr : "(values)", merged, val);
        } else {
            sd_diag_warning(&run.diags, (sd_loc){ chart->dir, 0, 0 },
                            "the chart has no values.schema.json: Helm checks nothing, and neither does this");
        }
        /* each subchart's part against the subchart's own schema, as Helm does */
        for (size_t k = 0; k < chart->nsubcharts; k++) {
            const sd_chart *sub = chart->subcharts[k];
            if (!sub->schema)
                continue;
            const sd_node *sb = sub->values ? sd_doc_root(sub->values) : NULL;
            const sd_node *mine = sd_node_get(merged, sub->alias);
            sd_doc *tmp = sd_synth_new("(subchart values)");
            int oom = 0;
            if (!tmp) {
                run.oom = 1;
                break;
            }
            keep(&run, tmp);
            const sd_node *inst = sd_merge_values(tmp, sb && sb->kind == SD_MAP ? sb : NULL,
                                                  mine && mine->kind == SD_MAP ? mine : NULL, &oom);
            sd_validator *sval = compile(&run, sub->schema, sd_doc_root(sub->schema));
            if (!sval) {
                status = SD_EXIT_ERROR;
                break;
            }
            sd_buf sl = SD_BUF_INIT;
            sd_buf_printf(&sl, "%s (subchart %s)", label.ptr, sub->alias);
            add_target(&run, sl.ptr, inst ? inst : empty_map(&run, "(values)"), sval);
            sd_buf_release(&sl);
        }
        sd_buf_release(&label);
    } else {
        if (sd_doc_load_file(&sdoc, source, SD_FMT_AUTO, NULL, &run.diags) < 0) {
            status = SD_EXIT_ERROR;
            goto done;
        }
        if (!sd_doc_root(sdoc)) {
            sd_diag_error(&run.diags, SD_ESYNTAX, (sd_loc){ source, 0, 0 }, "the schema file is empty");
            status = SD_EXIT_ERROR;
            goto done;
        }
        int is_crd = 0;
        for (size_t d = 0; d < sdoc->nroots; d++) {
            const char *k = sd_node_str(sd_node_get(sdoc->roots[d].node, "kind"));
            is_crd |= k && !strcmp(k, "CustomResourceDefinition");
        }
        if (is_crd) {
            int said = 0;
            for (size_t f = 0; f < nvalues && status == SD_EXIT_OK; f++) {
                sd_doc *d = NULL;
                if (load_values(&d, values[f], &run.diags) < 0) {
                    status = SD_EXIT_ERROR;
                    break;
                }
                keep(&run, d);
                for (size_t k = 0; k < d->nroots || k == 0; k++) {
                    const sd_node *inst = d->nroots ? d->roots[k].node : empty_map(&run, d->file);
                    const sd_node *s = crd_schema_for(sdoc, inst);
                    if (!s) {
                        sd_diag_error(&run.diags, SD_ENOTFOUND, (sd_loc){ source, 0, 0 },
                                      "the CRD has no openAPIV3Schema");
                        status = SD_EXIT_ERROR;
                        break;
                    }
                    cel_note(&run, s, &said, 0);
                    sd_validator *val = compile(&run, sdoc, s);
                    if (!val) {
                        status = SD_EXIT_ERROR;
                        break;
                    }
                    add_target(&run, d->file, inst, val);
                    if (!d->nroots)
                        break;
                }
            }
        } else if (sd_ytt_is_schema(sdoc)) {
            if (sd_ytt_schema(&ytt, sdoc, &run.diags) < 0) {
                status = SD_EXIT_ERROR;
                goto done;
            }
            if (!run.opts.formats)
                run.opts.formats = SD_FORMATS_ASSERT; /* ytt's format= rules always assert */
            sd_validator *val = compile(&run, ytt, sd_doc_root(ytt));
            if (!val) {
                status = SD_EXIT_ERROR;
                goto done;
            }
            sd_buf label = SD_BUF_INIT;
            size_t first = run.nkeep + 1; /* after merge_files' own output doc */
            const sd_node *merged = merge_files(&run, sd_node_get(sd_doc_root(ytt), "default"), values, nvalues, &label);
            if (!merged) {
                sd_buf_release(&label);
                status = SD_EXIT_ERROR;
                goto done;
            }
            for (size_t k = first; k < run.nkeep; k++)
                for (size_t d = 0; d < run.keep[k]->nroots; d++)
                    if (ytt_lifecycle(&run, sd_doc_root(ytt), run.keep[k]->roots[d].node, 0) < 0)
                        status = SD_EXIT_FOUND_WANTING;
            effective = merged;
            effective_schema = sd_doc_root(ytt);
            add_target(&run, label.len ? label.ptr : "(defaults)", merged, val);
            sd_buf_release(&label);
        } else {
            sd_validator *val = compile(&run, sdoc, sd_doc_root(sdoc));
            if (!val) {
                status = SD_EXIT_ERROR;
                goto done;
            }
            for (size_t f = 0; f < nvalues; f++) {
                sd_doc *d = NULL;
                if (load_values(&d, values[f], &run.diags) < 0) {
                    add_target(&run, strcmp(values[f], "-") ? values[f] : "<stdin>", NULL, val);
                    run.targets[run.ntargets - 1].input_error = 1;
                    continue;
                }
                keep(&run, d);
                if (!d->nroots)
                    add_target(&run, d->file, empty_map(&run, d->file), val); /* empty = {} as Helm reads it */
                for (size_t k = 0; k < d->nroots; k++)
                    add_target(&run, d->file, d->roots[k].node, val);
            }
        }
    }
    if (run.oom) {
        sd_diag_error(&run.diags, SD_ENOMEM, (sd_loc){ NULL, 0, 0 }, "out of memory");
        status = SD_EXIT_ERROR;
        goto done;
    }

    if (print_values && effective) {
        sd_doc *filled = sd_synth_new("(effective values)");
        int oom = 0;
        const sd_node *ev = filled ? sd_merge_defaults(filled, effective, effective_schema, &oom) : NULL;
        sd_buf y = SD_BUF_INIT;
        json_t *j = sd_node_to_jansson(ev ? ev : effective);
        sd_render_yaml(&y, j, 0);
        json_decref(j);
        fwrite(y.ptr, 1, y.len, stdout);
        sd_buf_release(&y);
        sd_doc_free(filled);
    }

    if (json)
        sd_buf_puts(&out, "[");
    for (size_t f = 0; f < run.ntargets; f++) {
        target *t = &run.targets[f];
        const char *name = t->label ? t->label : "(values)";
        sd_vresult res = SD_VRESULT_INIT;
        size_t mark = run.diags.count;
        int input_error = t->input_error, any_invalid = 0;

        if (!input_error) {
            r = sd_validate(t->val, t->node, &res, &run.diags);
            if (r == SD_EINVALID) any_invalid = 1;
            else if (r < 0) input_error = 1;
        }
        if (input_error)
            status = SD_EXIT_ERROR;
        else if (any_invalid && status == SD_EXIT_OK)
            status = SD_EXIT_FOUND_WANTING;
        if (json) {
            sd_buf_puts(&out, f ? ",\n " : "\n ");
            sd_buf_puts(&out, "{\"file\": ");
            sd_emit_json_string(&out, name, strlen(name));
            sd_buf_printf(&out, ", \"valid\": %s, \"errors\": [", !input_error && !any_invalid ? "true" : "false");
            for (size_t k = 0; k < res.count; k++) {
                sd_buf_puts(&out, k ? ",\n   " : "\n   ");
                json_error(&out, &res.items[k], name);
            }
            sd_buf_puts(&out, res.count ? "\n  ]" : "]");
            if (res.total > res.count)
                sd_buf_printf(&out, ", \"errorsNotShown\": %zu", res.total - res.count);
            if (input_error) {
                sd_buf_puts(&out, ", \"inputErrors\": ");
                json_diags(&out, &run.diags, mark, SD_SEV_ERROR);
            }
            sd_buf_puts(&out, ", \"warnings\": [");
            for (size_t k = 0; k < res.nwarnings; k++) {
                sd_buf_puts(&out, k ? ",\n   " : "\n   ");
                json_error(&out, &res.warnings[k], name);
            }
            sd_buf_puts(&out, res.nwarnings ? "\n  ]}" : "]}");
        } else {
            sd_vresult_to_diags(&res, &run.diags);
            sd_cli_print_diags(&run.diags);
            sd_diags_release(&run.diags);
            if (input_error)
                printf("%s: error\n", name);
            else if (any_invalid)
                printf("%s: invalid (%zu error%s)\n", name, res.total, res.total == 1 ? "" : "s");
            else if (res.nwarnings)
                printf("%s: valid (%zu warning%s)\n", name, res.nwarnings, res.nwarnings == 1 ? "" : "s");
            else
                printf("%s: valid\n", name);
        }
        sd_vresult_release(&res);
    }
    if (json) {
        sd_buf_puts(&out, "\n]\n");
        fwrite(out.ptr, 1, out.len, stdout);
    }
done:
    if (json && status == SD_EXIT_ERROR && !run.ntargets) {
        /* the schema failed: still one result object per file, so that a
         * consumer of the JSON always gets the same shape */
        sd_buf_clear(&out);
        sd_buf_putc(&out, '[');
        for (size_t f = 0; f < nvalues; f++) {
            const char *name = strcmp(values[f], "-") == 0 ? "<stdin>" : values[f];
            sd_buf_puts(&out, f ? ",\n " : "\n ");
            sd_buf_puts(&out, "{\"file\": ");
            sd_emit_json_string(&out, name, strlen(name));
            sd_buf_puts(&out, ", \"valid\": false, \"errors\": [], \"inputErrors\": ");
            json_diags(&out, &run.diags, 0, SD_SEV_ERROR);
            sd_buf_puts(&out, ", \"warnings\": []}");
        }
        sd_buf_puts(&out, "\n]\n");
        fwrite(out.ptr, 1, out.len, stdout);
    }
    fflush(stdout);
    sd_cli_print_diags(&run.diags);
    sd_diags_release(&run.diags);
    sd_buf_release(&out);
    for (size_t k = 0; k < run.ntargets; k++)
        free(run.targets[k].label);
    free(run.targets);
    for (size_t k = 0; k < run.nvals; k++)
        sd_validator_free(run.vals[k]);
    free(run.vals);
    for (size_t k = 0; k < run.nkeep; k++)
        sd_doc_free(run.keep[k]);
    free(run.keep);
    sd_docset_free(run.docs);
    sd_chart_free(chart);
    sd_doc_free(ytt);
    sd_doc_free(sdoc);
    free(values);
    free(mopts.maps);
    return status;
}
