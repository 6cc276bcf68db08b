/* SPDX-License-Identifier: Apache-2.0 */
/* source.c - open a chart, schema, CRD or ytt file once for every command
 * (see source.h): detect the kind, set up the docset and its maps, load,
 * index every schema in one resolver, list the entry points. A chart that
 * ships no schema gets the one made from its values (gen.h), fitted so
 * that its own values.yaml and ci/ files are valid. */
#include "source.h"
#include "alloc.h"
#include "archive.h"
#include "buf.h"
#include "commented.h"
#include "emit.h"
#include "gen.h"
#include "k8s.h"
#include "keywords.h"
#include "merge.h"
#include "ptr.h"
#include "synth.h"
#include "ytt.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

struct sd_source {
    int               kind;
    char             *path;
    sd_source_opts    opts;
    sd_docset        *docs;
    sd_resolver      *r;
    sd_chart         *chart;
    sd_doc           *doc;      /* schema / CRD / ytt file */
    sd_doc           *ytt;      /* the ytt schema as JSON Schema */
    sd_crds           crds;
    sd_source_schema *schemas;
    size_t            nschemas, aschemas;
    int               generated;/* the chart's schema was made from its values.yaml */
    struct ckcache { const sd_doc *values; sd_ckeys ck; int failed; } *ckc;
    size_t            nckc;     /* commented-out keys, per values document read */
    struct dialectof { const sd_chart *chart; const sd_dialect *d; } *dialects;
    size_t            ndialects; /* the comment dialect of each chart, chosen at open */
    sd_validator     *v;
    int              *entries;  /* per schema: entry, -1 not compiled yet, or the error */
};

static char *map_cb(void *payload, const char *ref)
{
    char *out = NULL;
    return sd_docset_map(&out, payload, ref) == 0 ? out : NULL;
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int add_schema(sd_source *s, const char *name, const sd_doc *doc, const sd_node *root,
                      sd_diags *diags)
{
    sd_source_schema *e;
    char *nm;

    if (s->nschemas == s->aschemas) {
        size_t n = s->aschemas ? s->aschemas * 2 : 4;
        sd_source_schema *p = realloc(s->schemas, n * sizeof *p);
        if (!p)
            return sd_diag_error(diags, SD_ENOMEM, (sd_loc){ s->path, 0, 0 }, "out of memory");
        s->schemas = p;
        s->aschemas = n;
    }
    if (!(nm = strdup(name)))
        return sd_diag_error(diags, SD_ENOMEM, (sd_loc){ s->path, 0, 0 }, "out of memory");
    e = &s->schemas[s->nschemas++];
    memset(e, 0, sizeof *e);
    e->name = nm;
    e->doc = doc;
    e->root = root;
    /* index it now: every later stage finds its base URI and dialect */
    if (root && !sd_resolver_info(s->r, root))
        return sd_resolver_add(s->r, doc, root, NULL, 0, diags);
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ---- the made schema accepts the chart's own values ----------------------- */

static void del_key(sd_node *map, const char *key)
{
    for (uint32_t i = 0; map && map->kind == SD_MAP && i < map->n; i++)
        if (!strcmp(map->items[i].key->str, key)) {
            memmove(&map->items[i], &map->items[i + 1], (map->n - i - 1) * sizeof *map->items);
            map->n--;
            map->keyidx = 0;
            return;
        }
}

/* The keyword at `schema_path` ("#/properties/a/pattern") of the made
 * schema `root`, taken out: its name in *kw (borrowed from `tok`). 1 when
 * one was. */
static int drop_keyword(sd_node *root, const char *schema_path, sd_buf *tok, const char **kw)
{
    sd_node *n = root, *parent = NULL;
    const char *p = schema_path[0] == '#' ? schema_path + 1 : schema_path;

    if (*p != '/')
        return 0;
    while (*p == '/') {
        p = sd_ptr_next(tok, p);
        if (!n || (n->kind != SD_MAP && n->kind != SD_SEQ))
            return 0;
        if (*p != '/') {   /* the last token: the keyword */
            if (n->kind != SD_MAP || !sd_node_get(n, tok->ptr))
                return 0;
            del_key(n, tok->ptr);
            *kw = tok->ptr;
            return 1;
        }
        parent = n;
        if (n->kind == SD_MAP) {
            n = sd_node_get(n, tok->ptr);
        } else {
            char *e;
            unsigned long i = strtoul(tok->ptr, &e, 10);
            n = *e || i >= n->n ? NULL : n->items[i].value;
        }
    }
    (void)parent;
    return 0;
}

/* A `$ref` of `s` itself or of one of its allOf parts, taken out. */
static int drop_ref_at(sd_node *s)
{
    const sd_node *all = sd_node_get(s, "allOf");
    if (sd_node_get(s, "$ref")) {
        del_key(s, "$ref");
        return 1;
    }
    for (uint32_t i = 0; all && all->kind == SD_SEQ && i < all->n; i++)
        if (all->items[i].value->kind == SD_MAP && sd_node_get(all->items[i].value, "$ref")) {
            del_key(all->items[i].value, "$ref");
            return 1;
        }
    return 0;
}

/* A keyword in another document (a `$ref`'d file) refused the value at
 * instance path `ipath`: take out the deepest `$ref` of the made schema on
 * the way there (properties, items). 1 when one was. */
static int drop_ref_on_path(sd_node *root, const char *ipath, sd_buf *tok)
{
    sd_node *n = root, *deepest = NULL;
    const char *p = ipath;

    while (n && n->kind == SD_MAP) {
        if (sd_node_get(n, "$ref") || sd_node_get(n, "allOf"))
            deepest = n;
        if (*p != '/')
            break;
        p = sd_ptr_next(tok, p);
        sd_node *props = sd_node_get(n, "properties"), *c = props ? sd_node_get(props, tok->ptr) : NULL;
        n = c ? c : sd_node_get(n, "items") ? sd_node_get(n, "items") : sd_node_get(n, "additionalProperties");
    }
    return deepest && drop_ref_at(deepest);
}

/* The made schema must accept the chart's own values.yaml and the ci/ files
 * (over it, as Helm merges them): an `@schema` annotation that the chart's
 * own values break (a pattern its default does not match, a `$ref`'d
 * schema that refuses its keys) is taken out of the schema every command
 * uses, with a warning at the value that breaks it (`schemadoc schema`
 * still writes what the annotations say). A round per keyword at most;
 * any failure just leaves the schema as it is. */
static void fit_own_values(sd_source *s, sd_doc *schema, const sd_doc *values, sd_doc *const *ci, size_t nci,
                           sd_diags *diags)
{
    sd_node *root = sd_doc_root(schema);
    const sd_node *vroot = sd_doc_root(values);
    sd_doc *tmp = sd_synth_new(values->file);
    sd_buf tok = SD_BUF_INIT;
    sd_validator *v = NULL;
    int oom = 0;

    if (!tmp)
        sd_alloc_note_failure();
    if (!root || !tmp)
        goto done;
    for (size_t f = 0; f <= nci; f++) {
        const sd_node *inst = vroot;
        if (f && sd_doc_root(ci[f - 1]) && !(inst = sd_merge_values(tmp, vroot, sd_doc_root(ci[f - 1]), &oom))) {
            if (oom)
                sd_alloc_note_failure();
            break;
        }
        for (int round = 0; round < 64; round++) {
            sd_vresult res = SD_VRESULT_INIT;
            sd_diags quiet = SD_DIAGS_INIT;
            int fixed = 0, err = 0;
            if (!v) {   /* compiled again only when a round changed the schema */
                sd_validate_opts vo;
                memset(&vo, 0, sizeof vo);
                vo.load = sd_docset_load_cb;
                vo.map = map_cb;
                vo.payload = s->docs;
                vo.lenient = 1;
                vo.default_draft = s->opts.draft ? s->opts.draft : SD_DRAFT_2020;
                err = sd_validator_new(&v, schema, root, &vo, &quiet);
            }
            if (err == 0)
                err = sd_validate(v, inst, &res, &quiet);
            if (err == SD_ENOMEM)
                sd_alloc_note_failure();   /* the fitting is lost: the run fails */
            if (err == SD_EINVALID) {
                for (size_t i = 0; i < res.count && !fixed; i++) {
                    const sd_verror *e = &res.items[i];
                    const char *kw = e->keyword;
                    int mine = e->schema_loc.file && !strcmp(e->schema_loc.file, values->file);
                    if (mine ? drop_keyword(root, e->schema_path, &tok, &kw) : drop_ref_on_path(root, e->path, &tok)) {
                        fixed = 1;
                        sd_diag_warning(diags, e->loc, "%s: %s (%s:%d:%d): the chart's own %s breaks this "
                                        "`%s`; the schema made for the chart leaves it out", e->key, e->message,
                                        e->schema_loc.file ? e->schema_loc.file : "?", e->schema_loc.line,
                                        e->schema_loc.column, f ? "ci/ file" : "values.yaml",
                                        mine ? kw : "$ref");
                    }
                }
            }
            sd_vresult_release(&res);
            sd_diags_release(&quiet);
            if ((err < 0 && err != SD_EINVALID) || fixed) {
                sd_validator_free(v);
                v = NULL;
            }
            if (!fixed)
                break;
        }
    }
done:
    sd_validator_free(v);
    sd_buf_release(&tok);
    sd_doc_free(tmp);
}

/* The schema of a chart that ships none, made from its values.yaml and
 * what its comments say (gen.h): with the chart's `.schema.yaml` settings
 * and its ci/ values files (valid by definition) when it has them, and the
 * YAML examples of its README (which widen a placeholder `""` default). A
 * settings file or a ci/ file that does not load is left out (a warning);
 * one that leads out of the chart (a symbolic link) is an error, and so is
 * an annotation's `$ref` that does: the chart's own files are read with
 * sd_doc_load_in(), and `$ref`s through the run's docset. Returns 0 with
 * the schema in *out, or the error (reported). */
static int chart_schema(sd_doc **out, sd_source *s, sd_diags *diags)
{
    const sd_chart *ch = s->chart;
    sd_gen_opts o;
    sd_buf p = SD_BUF_INIT;
    sd_doc *cfg = NULL, *ci[16];
    char *names[16];
    size_t nci = 0, nn = 0, nrd = 0, nfiles = 0, errors = diags->errors;
    const char **files;
    struct stat st;
    DIR *d;
    struct dirent *e;
    int err = 0;

    *out = NULL;
    memset(&o, 0, sizeof o);
    sd_buf_printf(&p, "%s/.schema.yaml", ch->dir);
    if (!sd_buf_failed(&p) && lstat(p.ptr, &st) == 0) {
        sd_diags quiet = SD_DIAGS_INIT;
        if ((err = sd_doc_load_in(&cfg, s->path, p.ptr, "schema settings", SD_FMT_YAML, NULL, &quiet)) == SD_EDENIED) {
            sd_diag_error(diags, err, (sd_loc){ p.ptr, 0, 0 }, "%s",
                          quiet.count && quiet.items[0].message ? quiet.items[0].message : "refused");
            sd_diags_release(&quiet);
            goto done;
        }
        if (err < 0 || sd_gen_config(&o, &files, &nfiles, cfg, &quiet) < 0) {
            sd_diag_warning(diags, (sd_loc){ p.ptr, 0, 0 }, "the schema settings do not load (%s); left out",
                            quiet.count ? quiet.items[0].message : "unreadable");
            memset(&o, 0, sizeof o);
        } else {
            o.flavour = SD_GEN_HVSJ;
        }
        err = 0;
        sd_diags_release(&quiet);
    }
    sd_buf_clear(&p);
    sd_buf_printf(&p, "%s/ci", ch->dir);
    if (!sd_buf_failed(&p) && (d = opendir(p.ptr))) {
        while ((e = readdir(d)) && nn < 16) {
            size_t l = strlen(e->d_name);
            if (e->d_name[0] != '.' && ((l > 5 && !strcmp(e->d_name + l - 5, ".yaml")) ||
                                        (l > 4 && !strcmp(e->d_name + l - 4, ".yml"))) &&
                (names[nn] = malloc(p.len + l + 2)))
                sprintf(names[nn++], "%s/%s", p.ptr, e->d_name);
        }
        closedir(d);
    }
    qsort(names, nn, sizeof *names, by_name);
    for (size_t i = 0; i < nn; i++) {
        sd_diags quiet = SD_DIAGS_INIT;
        int r = err ? 0 : sd_doc_load_in(&ci[nci], s->path, names[i], "ci/ values file", SD_FMT_YAML, NULL, &quiet);
        if (r == 0 && !err)
            nci++;
        else if (r == SD_EDENIED)
            err = sd_diag_error(diags, r, (sd_loc){ names[i], 0, 0 }, "%s",
                                quiet.count && quiet.items[0].message ? quiet.items[0].message : "refused");
        sd_diags_release(&quiet);
        free(names[i]);
    }
    if (err < 0)
        goto done;
    /* the ci/ files widen types in schemadoc's own reading only: a file
     * annotated for a schema tool is read as that tool reads it */
    int native = !o.flavour && !sd_dialect_at_schema(ch->values);
    o.examples = (const sd_doc *const *)ci;
    o.nexamples = native ? nci : 0;
    nrd = sd_gen_chart_readme(ci + nci, 16 - nci, ch->dir);
    o.readme = (const sd_doc *const *)(ci + nci);
    o.nreadme = nrd;
    o.base_dir = ch->dir;
    o.dialect = sd_source_dialect(s, ch);
    o.docs = s->docs;
    if (!(*out = sd_gen_schema((const sd_doc *const *)&ch->values, 1, &o, NULL, diags)))
        err = sd_diag_error(diags, SD_ENOMEM, (sd_loc){ s->path, 0, 0 }, "out of memory");
    else if (diags->errors > errors) {
        /* an annotation's `$ref` was refused (reported) */
        sd_doc_free(*out);
        *out = NULL;
        err = SD_EDENIED;
    } else {
        fit_own_values(s, *out, ch->values, ci, nci, diags);
        /* keys the chart proves Kubernetes types: open, for validate's
         * layer, or (the form) their definitions as the fields' structure
         * (docs/k8s.md) */
        if (!s->opts.k8s_types_off && !(cfg && o.flavour != SD_GEN_NATIVE) &&
            sd_k8s_type_schema(*out, ch->values, ch->dir, !s->opts.k8s_bundle) < 0)
            err = sd_diag_error(diags, SD_ENOMEM, (sd_loc){ s->path, 0, 0 }, "out of memory");
    }
done:
    for (size_t i = 0; i < nci + nrd; i++)
        sd_doc_free(ci[i]);
    sd_doc_free(cfg);
    sd_buf_release(&p);
    return err;
}

/* The comment dialect of `ch` and of each of its subcharts, chosen here
 * once for the run (dialect.h). Returns 0 or SD_ENOMEM. */
static int choose_dialects(sd_source *s, const sd_chart *ch, int depth)
{
    struct dialectof *p;
    if (depth > 64)
        return 0;   /* deeper subcharts get theirs when asked (sd_source_dialect) */
    if (!(p = realloc(s->dialects, (s->ndialects + 1) * sizeof *p)))
        return SD_ENOMEM;
    s->dialects = p;
    s->dialects[s->ndialects].chart = ch;
    s->dialects[s->ndialects++].d = sd_dialect_detect(ch->values);
    for (size_t i = 0; i < ch->nsubcharts; i++) {
        int err = choose_dialects(s, ch->subcharts[i], depth + 1);
        if (err < 0)
            return err;
    }
    return 0;
}

static int open_chart(sd_source *s, sd_diags *diags)
{
    int err;
    sd_buf name = SD_BUF_INIT;

    s->kind = SD_SOURCE_CHART;
    if ((err = sd_chart_load(&s->chart, s->path, diags)) < 0)
        return err;
    if (choose_dialects(s, s->chart, 0) < 0)
        return sd_diag_error(diags, SD_ENOMEM, (sd_loc){ s->path, 0, 0 }, "out of memory");
    const sd_node *vroot = s->chart->values ? sd_doc_root(s->chart->values) : NULL;
    if (!s->chart->schema && vroot && vroot->kind == SD_MAP && vroot->n) {
        /* a chart without a schema: the one its values file and comments make */
        if ((err = chart_schema(&s->chart->schema, s, diags)) < 0)
            return err;
        s->generated = 1;
        sd_diag_add(diags, SD_SEV_NOTE, 0, (sd_loc){ s->chart->dir, 0, 0 }, NULL, NULL,
                    "the chart has no values.schema.json: the schema is made from values.yaml and its "
                    "comments (`schemadoc schema %s` writes it)", s->chart->dir);
    }
    if ((err = add_schema(s, "values", s->chart->schema,
                          s->chart->schema ? sd_doc_root(s->chart->schema) : NULL, diags)) < 0)
        return err;
    s->schemas[0].chart = s->chart;
    for (size_t i = 0; i < s->chart->nsubcharts; i++) {
        const sd_chart *sub = s->chart->subcharts[i];
        if (!sub->schema)
            continue;
        sd_buf_clear(&name);
        sd_buf_printf(&name, "charts/%s", sub->alias);
        if (sd_buf_failed(&name)) {
            sd_buf_release(&name);
            return sd_diag_error(diags, SD_ENOMEM, (sd_loc){ s->path, 0, 0 }, "out of memory");
        }
        if ((err = add_schema(s, name.ptr, sub->schema, sd_doc_root(sub->schema), diags)) < 0) {
            sd_buf_release(&name);
            return err;
        }
        s->schemas[s->nschemas - 1].chart = sub;
    }
    sd_buf_release(&name);
    return 0;
}

static int open_crds(sd_source *s, sd_diags *diags)
{
    sd_buf name = SD_BUF_INIT;
    int err = 0;

    s->kind = SD_SOURCE_CRD;
    if (sd_crds_read(&s->crds, s->doc) < 0)
        return sd_diag_error(diags, SD_ENOMEM, (sd_loc){ s->path, 0, 0 }, "out of memory");
    for (size_t i = 0; i < s->crds.n && err == 0; i++) {
        const sd_crd *crd = &s->crds.items[i];
        for (size_t k = 0; k < crd->nversions && err == 0; k++) {
            const sd_crd_version *v = &crd->versions[k];
            const char *vn = sd_node_str(v->name);
            if (!v->schema)
                continue;
            sd_buf_clear(&name);
            sd_buf_printf(&name, "%s/%s", crd->group ? crd->group : "", vn ? vn : "");
            for (int dup = 2; sd_source_schema_named(s, name.ptr); dup++) {
                /* two CRDs of one group and version in a file: "g/v#2" */
                sd_buf_clear(&name);
                sd_buf_printf(&name, "%s/%s#%d", crd->group ? crd->group : "", vn ? vn : "", dup);
            }
            if (sd_buf_failed(&name))
                err = sd_diag_error(diags, SD_ENOMEM, (sd_loc){ s->path, 0, 0 }, "out of memory");
            else if ((err = add_schema(s, name.ptr, s->doc, v->schema, diags)) == 0) {
                s->schemas[s->nschemas - 1].crd = crd;
                s->schemas[s->nschemas - 1].version = v;
            }
        }
    }
    sd_buf_release(&name);
    return err;
}

/* 1 when `name` (a file name without its directory) ends with `suffix`. */
static int ends_with(const char *name, const char *suffix)
{
    size_t n = strlen(name), k = strlen(suffix);
    return n >= k && strcasecmp(name + n - k, suffix) == 0;
}

/* A README (or helm-docs template) given where a schema was meant: said
 * before anything parses it as YAML. */
static int refuse_markdown(const sd_source *s, sd_diags *diags)
{
    const char *base = strrchr(s->path, '/') ? strrchr(s->path, '/') + 1 : s->path;
    static const char *const md[] = { ".md", ".markdown", ".mdx", ".md.gotmpl", ".gotmpl", NULL };

    for (const char *const *e = md; *e; e++)
        if (ends_with(base, *e))
            return sd_diag_error(diags, SD_ESYNTAX, (sd_loc){ s->path, 0, 0 },
                                 "this looks like Markdown, not a chart, schema or CRD "
                                 "(give the chart directory, or its values.schema.json)");
    return 0;
}

/* 1 when `k` is a JSON Schema keyword of some draft (core, applicator,
 * validation, meta-data, format, content) or an OpenAPI / Kubernetes one. */
static int schema_keyword(const char *k)
{
    /* the keywords the validator reads come from its table (keywords.def);
     * these are the others: identifiers, definitions and annotations,
     * which a schema may hold alone */
    static const char *const other[] = {
        "$schema", "$id", "id", "$anchor", "$dynamicAnchor", "$recursiveAnchor", "$vocabulary",
        "$comment", "$defs", "definitions", "title", "description", "default", "deprecated",
        "readOnly", "writeOnly", "examples", "contentSchema", "x-kubernetes-preserve-unknown-fields",
        NULL
    };
    if (sd_kw_find(k, strlen(k)))
        return 1;
    for (const char *const *p = other; *p; p++)
        if (!strcmp(*p, k))
            return 1;
    return 0;
}

/* A values file (or Chart.yaml) given as the schema would validate
 * anything: `{a: 1}` read as a schema has no keyword, so every values file
 * is "valid" and a CI job pointed at the wrong path stays green. Refused:
 * a chart's Chart.yaml and values*.yaml (next to its Chart.yaml; not
 * values.schema.*), and a map without a single schema keyword. `{}`,
 * `true` and `false` are schemas. */
static int refuse_values_file(const sd_source *s, sd_diags *diags)
{
    const sd_node *root = sd_doc_root(s->doc);
    const char *slash = strrchr(s->path, '/');
    const char *base = slash ? slash + 1 : s->path;
    sd_buf dir = SD_BUF_INIT, cy = SD_BUF_INIT;
    int next_to_chart, values, any = 0, err = 0;
    struct stat st;

    if (slash)
        sd_buf_put(&dir, s->path, (size_t)(slash - s->path));
    else
        sd_buf_putc(&dir, '.');
    sd_buf_printf(&cy, "%s/Chart.yaml", dir.ptr);
    next_to_chart = stat(cy.ptr, &st) == 0 && S_ISREG(st.st_mode);
    values = next_to_chart && !strncmp(base, "values", 6) && strncmp(base, "values.schema.", 14) &&
             (ends_with(base, ".yaml") || ends_with(base, ".yml"));
    for (size_t i = 0; root && root->kind == SD_MAP && i < root->n && !any; i++)
        any = schema_keyword(root->items[i].key->str);
    if (next_to_chart && !strcmp(base, "Chart.yaml"))
        err = sd_diag_error(diags, SD_ESYNTAX, (sd_loc){ s->path, 0, 0 },
                            "this is the chart's Chart.yaml, not a schema; did you mean the chart "
                            "directory `%s`?", dir.ptr);
    else if (values || (next_to_chart && root && root->kind == SD_MAP && root->n && !any))
        err = sd_diag_error(diags, SD_ESYNTAX, (sd_loc){ s->path, 0, 0 },
                            "this is the chart's values file, not a schema; did you mean the chart "
                            "directory `%s`?", dir.ptr);
    else if (root && root->kind == SD_MAP && root->n && !any)
        err = sd_diag_error(diags, SD_ESYNTAX, (sd_loc){ s->path, 0, 0 },
                            "this is not a schema: none of its keys is a JSON Schema keyword "
                            "(a values file? give the schema, or the chart directory)");
    sd_buf_release(&dir);
    sd_buf_release(&cy);
    return err;
}

/* A packaged chart (what `helm package` and `helm pull` write) where a
 * chart directory or a schema was meant: said before its gzip bytes are
 * read as YAML ("control characters are not allowed"). */
static int refuse_archive(const sd_source *s, sd_diags *diags)
{
    if (!sd_archive_is_tgz(s->path))
        return 0;
    return sd_diag_error(diags, SD_ESYNTAX, (sd_loc){ s->path, 0, 0 },
                         "this is a packaged chart (gzip-compressed tar), not a chart directory or "
                         "schema: unpack it (`tar xzf FILE`) and give its directory "
                         "(`diff` and `upgrade-check` read it as it is)");
}

static int open_file(sd_source *s, sd_diags *diags)
{
    int err;

    if ((err = refuse_markdown(s, diags)) < 0 || (err = refuse_archive(s, diags)) < 0)
        return err;
    if ((err = sd_doc_load_file(&s->doc, s->path, SD_FMT_AUTO, NULL, diags)) < 0)
        return err;
    if (sd_doc_has_crd(s->doc))
        return open_crds(s, diags);
    if (sd_ytt_is_schema(s->doc)) {
        s->kind = SD_SOURCE_YTT;
        if ((err = sd_ytt_schema(&s->ytt, s->doc, diags)) < 0)
            return err;
        return add_schema(s, "values", s->ytt, sd_doc_root(s->ytt), diags);
    }
    if ((err = refuse_values_file(s, diags)) < 0)
        return err;
    s->kind = SD_SOURCE_SCHEMA;
    return add_schema(s, "schema", s->doc, sd_doc_root(s->doc), diags);
}

int sd_source_open(sd_source **out, const char *path, const sd_source_opts *opts,
                   sd_diags *diags)
{
    sd_source *s = calloc(1, sizeof *s);
    sd_docset_opts dopts;
    sd_resolve_opts ro;
    int err, chart;
    sd_loc at = { path, 0, 0 };

    *out = NULL;
    if (!s || !(s->path = strdup(path))) {
        free(s);
        return sd_diag_error(diags, SD_ENOMEM, at, "out of memory");
    }
    if (opts)
        s->opts = *opts;
    chart = sd_chart_is_dir(path);
    if (!chart && is_dir(path)) {
        err = sd_diag_error(diags, SD_ENOTFOUND, at,
                            "no chart here: the directory has no Chart.yaml (give a chart directory "
                            "or a schema, CRD or ytt file)");
        goto fail;
    }

    /* the documents of this run: confinement, prefix maps, cache */
    memset(&dopts, 0, sizeof dopts);
    dopts.chart_root = chart ? path : NULL;
    dopts.fetch.cache_dir = s->opts.cache_dir;
    dopts.fetch.offline = s->opts.offline;
    dopts.fetch.refresh = s->opts.refresh;
    dopts.fetch.timeout_ms = s->opts.timeout_ms;
    if ((err = sd_docset_new(&s->docs, &dopts, diags)) < 0)
        goto fail;
    if (chart && (err = sd_docset_read_chart_map(s->docs, diags)) < 0)
        goto fail;
    for (size_t i = 0; i < s->opts.nmaps; i++)
        if ((err = sd_docset_add_map(s->docs, s->opts.maps[i], diags)) < 0)
            goto fail;

    memset(&ro, 0, sizeof ro);
    ro.load = sd_docset_load_cb;
    ro.map = map_cb;
    ro.payload = s->docs;
    ro.draft = s->opts.draft ? s->opts.draft : SD_DRAFT_2020;
    if (!(s->r = sd_resolver_new(&ro))) {
        err = sd_diag_error(diags, SD_ENOMEM, at, "out of memory");
        goto fail;
    }
    if ((err = chart ? open_chart(s, diags) : open_file(s, diags)) < 0)
        goto fail;
    if (!(s->entries = malloc((s->nschemas ? s->nschemas : 1) * sizeof *s->entries))) {
        err = sd_diag_error(diags, SD_ENOMEM, at, "out of memory");
        goto fail;
    }
    for (size_t i = 0; i < s->nschemas; i++)
        s->entries[i] = -1;
    *out = s;
    return 0;
fail:
    sd_source_free(s);
    return err < 0 ? err : SD_ERROR;
}

void sd_source_free(sd_source *s)
{
    if (!s)
        return;
    sd_validator_free(s->v);
    sd_resolver_free(s->r);
    sd_docset_free(s->docs);
    sd_chart_free(s->chart);
    sd_crds_release(&s->crds);
    sd_doc_free(s->ytt);
    sd_doc_free(s->doc);
    for (size_t i = 0; i < s->nckc; i++)
        sd_ckeys_release(&s->ckc[i].ck);
    free(s->ckc);
    free(s->dialects);
    for (size_t i = 0; i < s->nschemas; i++)
        free((char *)s->schemas[i].name);
    free(s->schemas);
    free(s->entries);
    free(s->path);
    free(s);
}

int sd_source_kind(const sd_source *s) { return s->kind; }
const char *sd_source_path(const sd_source *s) { return s->path; }
const sd_source_opts *sd_source_options(const sd_source *s) { return &s->opts; }
const sd_chart *sd_source_chart(const sd_source *s) { return s->chart; }

const sd_dialect *sd_source_dialect(const sd_source *s, const sd_chart *ch)
{
    for (size_t i = 0; s && i < s->ndialects; i++)
        if (s->dialects[i].chart == ch)
            return s->dialects[i].d;
    return sd_dialect_detect(ch ? ch->values : NULL);
}
const sd_doc *sd_source_doc(const sd_source *s) { return s->doc; }
const sd_crds *sd_source_crds(const sd_source *s) { return &s->crds; }
const sd_doc *sd_source_ytt_schema(const sd_source *s) { return s->ytt; }
sd_resolver *sd_source_resolver(sd_source *s) { return s->r; }
size_t sd_source_nschemas(const sd_source *s) { return s->nschemas; }

const sd_source_schema *sd_source_schema_at(const sd_source *s, size_t i)
{
    return i < s->nschemas ? &s->schemas[i] : NULL;
}

const sd_source_schema *sd_source_schema_named(const sd_source *s, const char *name)
{
    for (size_t i = 0; i < s->nschemas; i++)
        if (!strcmp(s->schemas[i].name, name))
            return &s->schemas[i];
    return NULL;
}

int sd_source_resolve(sd_source *s, const sd_schema_info **out, const sd_doc *doc,
                      const sd_node *from, const sd_node *ref, sd_diags *diags)
{
    sd_diags tmp = SD_DIAGS_INIT;
    int err;

    *out = NULL;
    /* a schema below a keyword the index does not walk: its base is its
     * document's URI */
    if (!sd_resolver_info(s->r, from) && (err = sd_resolver_add(s->r, doc, from, NULL, 0, diags)) < 0)
        return err;
    if (!s->opts.lenient)
        return sd_resolver_resolve(s->r, out, from, ref->str, ref->loc, diags);
    err = sd_resolver_resolve(s->r, out, from, ref->str, ref->loc, &tmp);
    for (size_t i = 0; i < tmp.count; i++) {
        const sd_diag *d = &tmp.items[i];
        sd_diag_add(diags, d->severity == SD_SEV_ERROR ? SD_SEV_WARNING : d->severity, 0, d->loc,
                    d->schema_ptr, d->instance_ptr, "%s", d->message ? d->message : "out of memory");
    }
    sd_diags_release(&tmp);
    return err;
}

int sd_source_validator(sd_validator **out, sd_source *s, const sd_validate_opts *vopts,
                        sd_diags *diags)
{
    sd_validate_opts o;
    int err;

    if (!s->v) {
        memset(&o, 0, sizeof o);
        if (vopts)
            o = *vopts;
        o.resolver = s->r;
        o.lenient = s->opts.lenient;
        o.load = NULL;
        o.map = NULL;
        o.payload = NULL;
        if ((err = sd_validator_new(&s->v, NULL, NULL, &o, diags)) < 0)
            return err;
    }
    *out = s->v;
    return 0;
}

int sd_source_entry(sd_source *s, size_t i, sd_diags *diags)
{
    const sd_source_schema *e = sd_source_schema_at(s, i);

    if (!e || !e->root || !s->v)
        return sd_diag_error(diags, SD_ENOTFOUND, (sd_loc){ s->path, 0, 0 }, "no schema to validate against");
    if (s->entries[i] == -1)
        s->entries[i] = sd_validator_add(s->v, e->doc, e->root, diags);
    return s->entries[i];
}

int sd_source_schema_generated(const sd_source *s)
{
    return s->generated;
}

/* ---- the `doc` view --------------------------------------------------- */

/* The files of a chart directory that the document view shows, in order. */
static const char *const chart_files[] = {
    "Chart.yaml", "values.yaml", "values.schema.json", "values.schema.yaml",
    "schema-dependencies.json", NULL
};

int sd_source_dump(sd_buf *out, const char *path, sd_diags *diags)
{
    sd_doc *doc = NULL;
    sd_buf p = SD_BUF_INIT;
    int err = 0, any = 0;

    if (!is_dir(path)) {
        if ((err = sd_doc_load_file(&doc, path, SD_FMT_AUTO, NULL, diags)) < 0)
            return err;
        sd_emit_doc_json(out, doc);
        sd_doc_free(doc);
        return 0;
    }
    /* a chart with a file or folder leading out of it is refused, as by
     * every command, even where this view reads no part of it */
    if (sd_chart_is_dir(path) && (err = sd_chart_check_links(path, diags)) < 0)
        return err;
    sd_buf_puts(out, "[\n");
    for (const char *const *f = chart_files; *f; f++) {
        sd_buf_clear(&p);
        sd_buf_printf(&p, "%s/%s", path, *f);
        if (access(p.ptr, F_OK) != 0 && errno == ENOENT)
            continue;
        if ((err = sd_doc_load_in(&doc, path, p.ptr, !strcmp(*f, "values.yaml") ? "values file"
                                  : !strncmp(*f, "values.schema", 13) ? "values schema" : "chart file",
                                  SD_FMT_AUTO, NULL, diags)) < 0)
            break;
        if (any++)
            sd_buf_puts(out, ",\n");
        sd_emit_doc_json(out, doc);
        sd_doc_free(doc);
    }
    sd_buf_puts(out, "]\n");
    if (!err && !any)
        err = sd_diag_error(diags, SD_ENOTFOUND, (sd_loc){ path, 0, 0 },
                            "not a chart directory: no Chart.yaml, values.yaml or values.schema.json");
    sd_buf_release(&p);
    return err;
}

/* The chart or subchart whose values.yaml has `root` as its root. */
static const sd_doc *values_doc_of(const sd_chart *c, const sd_node *root, int depth)
{
    if (!c || depth > 64)
        return NULL;
    if (c->values && sd_doc_root(c->values) == root)
        return c->values;
    for (size_t i = 0; i < c->nsubcharts; i++) {
        const sd_doc *d = values_doc_of(c->subcharts[i], root, depth + 1);
        if (d)
            return d;
    }
    return NULL;
}

const sd_ckeys *sd_source_commented(sd_source *src, const sd_node *values_root)
{
    const sd_doc *d = values_root ? values_doc_of(src->chart, values_root, 0) : NULL;
    struct ckcache *p;

    if (!d)
        return NULL;
    for (size_t i = 0; i < src->nckc; i++)
        if (src->ckc[i].values == d)
            return src->ckc[i].failed ? NULL : &src->ckc[i].ck;
    if (!(p = realloc(src->ckc, (src->nckc + 1) * sizeof *p)))
        return NULL;
    src->ckc = p;
    p = &src->ckc[src->nckc++];
    p->values = d;
    p->failed = sd_ckeys_scan(&p->ck, d) < 0;
    return p->failed ? NULL : &p->ck;
}
