/* SPDX-License-Identifier: Apache-2.0 */
/* model.c - an opened source -> the normalized model (JSON), see model.h.
 *
 * One function per source kind: a chart (values.yaml with its comments,
 * the schema, subcharts under their alias, the parameter rows), a plain
 * schema, a ytt schema (translated by the source), a CRD file (one tree per
 * version). The nodes themselves are built by build.c, the shared
 * definitions by defs.c. */
#include "alloc.h"
#include "model_int.h"
#include "buf.h"
#include "emit.h"
#include "rows.h"

#include <stdlib.h>
#include <string.h>

#define set sd_model__set

/* The root node of a tree: a schema location with the values written there. */
static sd_val *root_node(mctx *c, const char *key, const char *path, const char *pointer,
                         const sd_node *schema, const sd_doc *sdoc, const sd_node *value, int depth)
{
    mplace at = { key, path, pointer, schema, sdoc, NULL, value, depth };
    return sd_model__build(c, &at);
}

/* ---- charts -------------------------------------------------------------- */

static sd_val *chart_meta(mctx *c, const sd_chart *ch)
{
    const sd_node *r = sd_doc_root(ch->chart_yaml);
    sd_val *m = r && r->kind == SD_MAP ? sd_node_to_val(r) : sd_val_object();
    sd_val_object_set_new_nocheck(m, "dir", sd_val_string(ch->dir));
    sd_val_object_set_new_nocheck(m, "defined_at", ch->chart_yaml ? sd_model__loc(c, (sd_loc){ ch->chart_yaml->file, 0, 0 }) : sd_val_null());
    return m;
}

static void index_nodes(sd_val *idx, sd_val *n, int depth)
{
    static const char *const kids[] = { "properties", "elements", NULL };
    const char *path = sd_val_string_value(sd_val_object_get(n, "path"));
    if (depth > 200)
        return;
    if (path && *path && !sd_val_object_get(idx, path))
        sd_val_object_set(idx, path, n);
    for (const char *const *k = kids; *k; k++) {
        size_t i;
        sd_val *ch;
        sd_val_array_foreach(sd_val_object_get(n, *k), i, ch)
            index_nodes(idx, ch, depth + 1);
    }
}

/* Each row points at its node (by id) and carries the schema's verdicts
 * that tables show: required, deprecated, the JSON Schema types. */
static void link_rows(sd_val *rows, sd_val *root, int descriptions)
{
    sd_val *idx = sd_val_object();
    size_t i;
    sd_val *r;
    index_nodes(idx, root, 0);
    sd_val_array_foreach(rows, i, r) {
        sd_val *n = sd_val_object_get(idx, sd_val_string_value(sd_val_object_get(r, "key")));
        if (!n) {
            sd_val_object_set_new_nocheck(r, "node", sd_val_null());
            continue;
        }
        /* the row's key and description are most often the node's id and
         * description: one string each then (model values never change) */
        if (sd_val_equal(sd_val_object_get(r, "key"), sd_val_object_get(n, "id")))
            sd_val_object_set_nocheck(r, "key", sd_val_object_get(n, "id"));
        if (sd_val_equal(sd_val_object_get(r, "description"), sd_val_object_get(n, "description")))
            sd_val_object_set_nocheck(r, "description", sd_val_object_get(n, "description"));
        sd_val_object_set_nocheck(r, "node", sd_val_object_get(n, "id"));
        sd_val_object_set_nocheck(r, "required", sd_val_object_get(n, "required"));
        sd_val_object_set_nocheck(r, "deprecated", sd_val_object_get(n, "deprecated"));
        sd_val_object_set_nocheck(r, "schema_type", sd_val_object_get(n, "type"));
        if (sd_val_object_get(n, "enum"))
            sd_val_object_set_nocheck(r, "enum", sd_val_object_get(n, "enum"));
        if (sd_val_object_get(n, "ref_unresolved"))
            sd_val_object_set_nocheck(r, "ref_unresolved", sd_val_object_get(n, "ref_unresolved"));
        /* no comment: the schema speaks for the key, unless only comments
         * are wanted (helm-docs identical) */
        const char *d = sd_val_string_value(sd_val_object_get(r, "description"));
        const char *from = sd_val_string_value(sd_val_object_get(n, "description_from"));
        if (descriptions != SD_MODEL_DESC_COMMENTS && (!d || !*d) && from &&
            (!strcmp(from, "schema") || !strcmp(from, "comment"))) {
            /* (a plain comment is no helm-docs description: not in comments mode) */
            sd_val_object_set_nocheck(r, "description", sd_val_object_get(n, "description"));
            sd_val_object_set_new_nocheck(r, "description_from", sd_val_string(from));
            if (sd_val_is_true(sd_val_object_get(n, "title_explicit")))
                sd_val_object_set_nocheck(r, "title", sd_val_object_get(n, "title"));
        }
    }
    sd_val_decref(idx);
}

/* 1 when a comment names a section (@section): the html view groups the
 * entries by their rows' sections, so those rows are kept. */
static int any_section(const sd_annots *an)
{
    for (size_t i = 0; i < an->n; i++)
        if (an->items[i].section && *an->items[i].section)
            return 1;
    return 0;
}

/* Subcharts under charts/NAME/ are documented under their alias key, as
 * `helm-docs -u` does; keys the parent sets for them stay the parent's. */
static void subcharts(mctx *c, const sd_chart *ch, const sd_node *values, sd_val *root)
{
    for (size_t i = 0; i < ch->nsubcharts; i++) {
        const sd_chart *sub = ch->subcharts[i];
        if (values && sd_node_get(values, sub->alias))
            continue;
        sd_annots san;
        if (sd_annots_scan(&san, sub->values, sd_source_dialect(c->src, sub), c->diags) < 0)
            continue;
        sd_annots *saved = c->annots;
        c->annots = &san;
        if (sub->schema)
            sd_model__register_defs(c, sub->schema);
        const sd_node *sv = sub->values ? sd_doc_root(sub->values) : NULL;
        sd_val *sn = root_node(c, sub->alias, sub->alias, "#", sub->schema ? sd_doc_root(sub->schema) : NULL,
                               sub->schema, sv && sv->kind == SD_MAP ? sv : NULL, 1);
        sd_val_object_set_new_nocheck(sn, "subchart", sd_val_string(sd_chart_name(sub) ? sd_chart_name(sub) : sub->alias));
        sd_val *props = sd_val_object_get(root, "properties");
        if (!props) {
            props = sd_val_array();
            sd_val_object_set_new_nocheck(root, "properties", props);
        }
        sd_val_array_append_new(props, sn);
        c->annots = saved;
        sd_annots_release(&san);
    }
}

static sd_val *model_chart(mctx *c, const sd_chart *ch)
{
    sd_val *m = sd_val_object();
    const sd_node *values = ch->values ? sd_doc_root(ch->values) : NULL;
    const sd_node *schema = ch->schema ? sd_doc_root(ch->schema) : NULL;
    sd_annots an;

    if (sd_annots_scan(&an, ch->values, sd_source_dialect(c->src, ch), c->diags) < 0) {
        sd_annots_release(&an);
        sd_val_decref(m);
        c->err = sd_diag_error(c->diags, SD_ENOMEM, (sd_loc){ NULL, 0, 0 }, "out of memory");
        return NULL;
    }
    c->annots = &an;
    if (ch->schema_is_yaml)
        sd_diag_warning(c->diags, (sd_loc){ ch->schema->file, 0, 0 },
                        "Helm itself only reads values.schema.json; values.schema.yaml is used for documentation and validation here");
    sd_val *src = sd_val_object();
    sd_val_object_set_new_nocheck(src, "kind", sd_val_string("chart"));
    sd_val_object_set_new_nocheck(src, "path", sd_val_string(ch->dir));
    sd_val_object_set_new_nocheck(src, "values", ch->values ? sd_model__loc(c, (sd_loc){ ch->values->file, 0, 0 }) : sd_val_null());
    sd_val_object_set_new_nocheck(src, "schema", ch->schema ? sd_model__loc(c, (sd_loc){ ch->schema->file, 0, 0 }) : sd_val_null());
    sd_val_object_set_new_nocheck(src, "dialect", sd_val_string(an.dialect->name));
    sd_val_object_set_new_nocheck(m, "source", src);
    sd_val_object_set_new_nocheck(m, "chart", chart_meta(c, ch));
    if (ch->values && ch->values->text) {
        /* the whole file as the chart ships it (the html's "Default values") */
        sd_val *t = sd_val_stringn(ch->values->text, ch->values->text_len);
        if (t)
            sd_val_object_set_new_nocheck(sd_val_object_get(m, "chart"), "values_yaml", t);
    }
    if (an.chart_description)
        sd_val_object_set_new_nocheck(sd_val_object_get(m, "chart"), "readme_description", sd_val_string(an.chart_description));
    if (values && values->kind != SD_MAP && values->kind != SD_NULL)
        sd_diag_warning(c->diags, values->loc, "values.yaml is not a map");
    if (ch->schema)
        sd_model__register_defs(c, ch->schema);
    sd_val *root = root_node(c, NULL, "", "#", schema, ch->schema,
                             values && values->kind == SD_MAP ? values : NULL, 0);
    sd_val_object_set_new_nocheck(root, "title", sd_val_string(sd_chart_name(ch) ? sd_chart_name(ch) : "values"));
    subcharts(c, ch, values, root);
    sd_val_object_set_new_nocheck(m, "root", root);
    sd_val_object_set_new_nocheck(m, "definitions", sd_model__definitions(c));
    if (c->err != SD_ELIMIT && !(c->skip_rows && !any_section(&an))) {   /* over the node budget, so would the rows be */
        sd_val *rows = sd_rows_build(ch->values, &an);
        link_rows(rows, root, c->descriptions);
        sd_val_object_set_new_nocheck(m, "rows", rows);
    }
    c->annots = NULL;
    sd_annots_release(&an);
    return m;
}

/* ---- JSON Schema files ---------------------------------------------------- */

static sd_val *model_schema(mctx *c, const sd_doc *doc)
{
    sd_val *m = sd_val_object();
    const sd_node *root = sd_doc_root(doc);
    sd_val *src = sd_val_object();
    const sd_node *t;

    sd_val_object_set_new_nocheck(src, "kind", sd_val_string("schema"));
    sd_val_object_set_new_nocheck(src, "path", sd_val_string(doc->file));
    if ((t = sd_node_get(root, "$schema")) && t->kind == SD_STR)
        sd_val_object_set_new_nocheck(src, "$schema", sd_val_string(t->str));
    sd_val_object_set_new_nocheck(m, "source", src);
    sd_model__register_defs(c, doc);
    sd_val_object_set_new_nocheck(m, "root", root_node(c, NULL, "", "#", root, doc, NULL, 0));
    sd_val_object_set_new_nocheck(m, "definitions", sd_model__definitions(c));
    return m;
}

/* ---- ytt schemas ---------------------------------------------------------- */

static sd_val *model_ytt(mctx *c, const sd_doc *doc, const sd_doc *schema)
{
    sd_val *m = sd_val_object(), *src = sd_val_object(), *y = sd_val_object();
    const sd_node *root = sd_doc_root(schema), *t;

    sd_val_object_set_new_nocheck(src, "kind", sd_val_string("ytt"));
    sd_val_object_set_new_nocheck(src, "path", sd_val_string(doc->file));
    sd_val_object_set_new_nocheck(m, "source", src);
    sd_val_object_set_new_nocheck(y, "file", sd_val_string(doc->file));
    if ((t = sd_node_get(root, "title")) && t->kind == SD_STR)
        sd_val_object_set_new_nocheck(y, "title", sd_val_string(t->str));
    if ((t = sd_node_get(root, "description")) && t->kind == SD_STR)
        sd_val_object_set_new_nocheck(y, "description", sd_val_string(t->str));
    sd_val_object_set_new_nocheck(m, "ytt", y);
    sd_val *r = root_node(c, NULL, "", "#", root, schema, NULL, 0);
    if (!sd_val_object_get(y, "title"))
        sd_val_object_set_new_nocheck(r, "title", sd_val_string("Data values"));
    sd_val_object_set_new_nocheck(m, "root", r);
    sd_val_object_set_new_nocheck(m, "definitions", sd_model__definitions(c));
    return m;
}

/* ---- Kubernetes CRDs ----------------------------------------------------- */

static sd_val *str_or_null(const sd_node *n)
{
    return n && n->kind != SD_MAP && n->kind != SD_SEQ ? sd_node_to_val(n) : sd_val_null();
}

/* One CRD: its names and, per version, the openAPIV3Schema tree. */
static sd_val *crd_model(mctx *c, const sd_doc *doc, const sd_crd *crd)
{
    const sd_node *r = crd->root, *spec = sd_node_get(r, "spec"), *names = sd_node_get(spec, "names");
    sd_val *out = sd_val_object(), *versions = sd_val_array();

    sd_val_object_set_new_nocheck(out, "name", str_or_null(sd_node_get(sd_node_get(r, "metadata"), "name")));
    sd_val_object_set_new_nocheck(out, "apiVersion", str_or_null(sd_node_get(r, "apiVersion")));
    sd_val_object_set_new_nocheck(out, "group", str_or_null(sd_node_get(spec, "group")));
    sd_val_object_set_new_nocheck(out, "scope", str_or_null(sd_node_get(spec, "scope")));
    sd_val_object_set_new_nocheck(out, "names", names && names->kind == SD_MAP ? sd_node_to_val(names) : sd_val_object());
    sd_val_object_set_new_nocheck(out, "kind", str_or_null(sd_node_get(names, "kind")));
    sd_val_object_set_new_nocheck(out, "defined_at", sd_model__loc(c, r->loc));
    for (size_t i = 0; i < crd->nversions; i++) {
        const sd_crd_version *v = &crd->versions[i];
        sd_val *o = sd_val_object();
        const sd_node *t;
        sd_val_object_set_new_nocheck(o, "name", str_or_null(v->name));
        sd_val_object_set_new_nocheck(o, "served", sd_val_boolean(v->served));
        sd_val_object_set_new_nocheck(o, "storage", sd_val_boolean(v->storage));
        sd_val_object_set_new_nocheck(o, "deprecated", sd_val_boolean(v->deprecated));
        if (v->node && (t = sd_node_get(v->node, "deprecationWarning")) && t->kind == SD_STR)
            sd_val_object_set_new_nocheck(o, "deprecationWarning", sd_val_string(t->str));
        if (v->node && (t = sd_node_get(v->node, "additionalPrinterColumns")))
            sd_val_object_set_new_nocheck(o, "printerColumns", sd_node_to_val(t));
        if (v->schema) {
            const char *kind = sd_val_string_value(sd_val_object_get(out, "kind"));
            sd_val *root = root_node(c, NULL, "", v->schema_ptr, v->schema, doc, NULL, 0);
            sd_val_object_set_new_nocheck(root, "title", sd_val_string(kind ? kind : "resource"));
            sd_val_object_set_new_nocheck(o, "root", root);
        } else {
            sd_val_object_set_new_nocheck(o, "root", sd_val_null());
        }
        sd_val_array_append_new(versions, o);
    }
    sd_val_object_set_new_nocheck(out, "versions", versions);
    return out;
}

static sd_val *model_crds(mctx *c, const sd_doc *doc, const sd_crds *crds)
{
    sd_val *m = sd_val_object(), *list = sd_val_array(), *src = sd_val_object();

    sd_val_object_set_new_nocheck(src, "kind", sd_val_string("crd"));
    sd_val_object_set_new_nocheck(src, "path", sd_val_string(doc->file));
    sd_val_object_set_new_nocheck(m, "source", src);
    for (size_t i = 0; i < crds->n; i++)
        sd_val_array_append_new(list, crd_model(c, doc, &crds->items[i]));
    /* the first CRD's fields at the top; its storage version as the root */
    sd_val *first = sd_val_array_get(list, 0);
    sd_val_object_set_nocheck(m, "crd", first);
    sd_val_object_set_nocheck(m, "versions", sd_val_object_get(first, "versions"));
    sd_val *root = sd_val_null();
    size_t i;
    sd_val *v;
    sd_val_array_foreach(sd_val_object_get(first, "versions"), i, v)
        if (sd_val_is_true(sd_val_object_get(v, "storage")) || sd_val_is_null(root))
            root = sd_val_object_get(v, "root");
    sd_val_object_set_nocheck(m, "root", root);
    sd_val_object_set_new_nocheck(m, "crds", list);
    sd_val_object_set_new_nocheck(m, "definitions", sd_model__definitions(c));
    return m;
}

/* ---- the entry point ------------------------------------------------------- */

sd_val *sd_model_build(sd_source *src, const sd_model_opts *opts, sd_diags *diags)
{
    mctx c;
    sd_val *m = NULL;

    memset(&c, 0, sizeof c);
    c.diags = diags;
    c.src = src;
    c.max_depth = opts && opts->max_depth ? opts->max_depth : 64;
    {
        /* the node budget grows with the bytes of the source's own files */
        size_t bytes = 0;
        const sd_chart *ch = sd_source_kind(src) == SD_SOURCE_CHART ? sd_source_chart(src) : NULL;
        const sd_doc *d = ch ? NULL : sd_source_doc(src);
        if (ch) {
            bytes += ch->values ? ch->values->text_len : 0;
            bytes += ch->schema ? ch->schema->text_len : 0;
        } else if (d) {
            bytes = d->text_len;
        }
        c.max_nodes = bytes / SD_MODEL_BYTES_PER_NODE > SD_MODEL_MAX_NODES
                          ? bytes / SD_MODEL_BYTES_PER_NODE : SD_MODEL_MAX_NODES;
    }
    c.descriptions = opts ? opts->descriptions : SD_MODEL_DESC_FALLBACK;
    c.skip_rows = opts && opts->skip_rows;
    c.ids = sd_val_object();
    c.type_lists = sd_val_object();
    {
        /* locations are named relative to the chart, or the file's folder */
        const sd_chart *ch = sd_source_kind(src) == SD_SOURCE_CHART ? sd_source_chart(src) : NULL;
        const sd_doc *d = ch ? NULL : sd_source_doc(src);
        char *base = NULL, *slash;
        if (!ch && d && d->file && !strstr(d->file, "://") && (base = strdup(d->file))) {
            if ((slash = strrchr(base, '/')))
                *(slash == base ? slash + 1 : slash) = '\0';
            else
                strcpy(base, ".");
        }
        int err = sd_model__where_init(&c, ch ? ch->dir : base ? base : ".");
        free(base);
        if (err < 0) {
            sd_model__where_release(&c);
            sd_val_decref(c.ids);
            sd_val_decref(c.type_lists);
            return NULL;
        }
    }
    switch (sd_source_kind(src)) {
    case SD_SOURCE_CHART:
        m = model_chart(&c, sd_source_chart(src));
        break;
    case SD_SOURCE_CRD:
        m = model_crds(&c, sd_source_doc(src), sd_source_crds(src));
        break;
    case SD_SOURCE_YTT:
        m = model_ytt(&c, sd_source_doc(src), sd_source_ytt_schema(src));
        break;
    default:
        m = model_schema(&c, sd_source_doc(src));
        break;
    }
    if (sd_alloc_failed() && !c.err)   /* a value that could not be made was dropped */
        c.err = sd_diag_error(diags, SD_ENOMEM, (sd_loc){ NULL, 0, 0 }, "out of memory");
    if (m && c.err) {
        sd_val_decref(m);
        m = NULL;
    }
    if (m) {
        /* what a page may call the source: its last path segment (the
         * chart's folder, the file's name), never the path to it */
        sd_val *s = sd_val_object_get(m, "source");
        const char *p = sd_val_string_value(sd_val_object_get(s, "path"));
        const char *name = NULL;
        if (p && strstr(p, "://"))
            name = p;
        else if (sd_source_kind(src) == SD_SOURCE_CHART)
            name = strrchr(c.where_base, '/') ? strrchr(c.where_base, '/') + 1 : c.where_base;
        else if (p)
            name = strrchr(p, '/') ? strrchr(p, '/') + 1 : p;
        if (s && name)
            sd_val_object_set_new_nocheck(s, "name", sd_val_string(*name ? name : "/"));
        sd_val_object_set_new_nocheck(m, "schemadoc", sd_val_string(SD_VERSION));
    }
    sd_model__defs_release(&c);
    sd_model__where_release(&c);
    sd_node_val_memo_release(&c.vals);
    sd_val_decref(c.ids);
    sd_val_decref(c.type_lists);
    return m;
}

int sd_model_write_json(sd_buf *out, const sd_val *model)
{
    if (sd_val_dumpb(out, model, SD_VAL_INDENT(2) | SD_VAL_PRESERVE_ORDER) < 0)
        return sd_buf_failed(out) ? sd_buf_error(out) : SD_ENOMEM;
    sd_buf_putc(out, '\n');
    return sd_buf_failed(out) ? sd_buf_error(out) : 0;
}
