/* SPDX-License-Identifier: Apache-2.0 */
/* form.c - the interactive form page (`--format form`, docs/form.md).
 *
 * In: the model (docs/model.md) and the opened source. Out: one HTML page
 * from the "form" template (templates/form.mustache and its partials,
 * overridable by a theme) with three things inlined: the page data (a slim
 * copy of the model's nodes with their descriptions rendered to HTML as the
 * reference page renders them, the defaults, and the rules document of
 * `schemadoc rules`), the bundled script (the modules of src/form/ and the yaml
 * library, built by esbuild into build/gen/formjs.c), and a Content
 * Security Policy that allows exactly that script by its SHA-256. */
#include "render.h"
#include "alloc.h"
#include "render_int.h"
#include "chart.h"
#include "check.h"
#include "commented.h"
#include "emit.h"
#include "node.h"
#include "sd.h"
#include "tmplrefs.h"

#include <stdlib.h>
#include <string.h>

/* The bundled form script (build/gen/formjs.c, from src/form/form_main.js),
 * and the base64 of its SHA-256 for the CSP, computed with it at build time
 * (src/form/embed-form.sh). */
extern const unsigned char sd_form_bundle[];
extern const size_t sd_form_bundle_len;
extern const char sd_form_bundle_sha256[];

/* The node fields the page uses, copied as they are. */
static const char *const keep[] = {
    "key", "title", "title_explicit", "type", "nullable", "enum", "const", "constraints", "required",
    "deprecated", "deprecation", "removed", "removal", "readOnly", "writeOnly", "ref",
    "recursive", "section", "form", "kubernetes", "examples", "has_default", "default_text", NULL
};

/* The descriptions as HTML, each once: the template writes them as
 * <template id="sd-doc-N"> elements and nodes carry `doc: N`; the script
 * clones them (it never parses HTML). */
typedef struct docs {
    sd_val *list;   /* [{n, html}] */
    sd_val *seen;   /* html -> n */
    sd_buf  tmp;
    sd_val *anchors; /* node id -> the html page's anchor (--reference), or NULL */
} docs;

static sd_val *slim(sd_val *node, docs *tmp, int depth);

/* The anchors the html reference page gives the nodes: the view of a copy
 * of the model (sd_render_view hands them out), collected by node id. */
static void collect_anchors(sd_val *x, sd_val *out, int depth)
{
    sd_val *v;
    const char *k;
    size_t i;

    if (depth > 400)
        return;
    if (sd_val_is_object(x)) {
        const char *id = str(x, "id"), *a = str(x, "anchor");
        if (id && a && !sd_val_object_get(out, id))
            sd_val_object_set_new(out, id, sd_val_string(a));
        sd_val_object_foreach(x, k, v)
            if (sd_val_is_object(v) || sd_val_is_array(v))
                collect_anchors(v, out, depth + 1);
    } else if (sd_val_is_array(x)) {
        sd_val_array_foreach(x, i, v)
            collect_anchors(v, out, depth + 1);
    }
}

static sd_val *slim_list(sd_val *list, docs *d, int depth)
{
    sd_val *out = sd_val_array(), *n;
    size_t i;
    sd_val_array_foreach(list, i, n)
        sd_val_array_append_new(out, slim(n, d, depth));
    return out;
}

/* A scalar default, or a small list/map one: kept on the node for display.
 * Object defaults come from the page's defaults instead. */
static int small_default(sd_val *v)
{
    return !sd_val_is_object(v) && !sd_val_is_array(v) ? 1 : sd_val_is_array(v) ? sd_val_array_size(v) <= 8 : 0;
}

static sd_val *slim(sd_val *node, docs *d, int depth)
{
    sd_val *out = sd_val_object(), *v;
    const char *desc;

    if (!sd_val_is_object(node) || depth > 200)
        return out;
    for (size_t i = 0; keep[i]; i++)
        if ((v = sd_val_object_get(node, keep[i])))
            sd_val_object_set(out, keep[i], v);
    if (str(node, "section") && strchr(str(node, "section"), '&')) {
        /* a Bitnami section name is written for Markdown ("Redis&reg;
         * parameters"): the page shows it as text, decoded as the html
         * reference page does */
        sd_render__decode_entities(&d->tmp, str(node, "section"));
        if (!sd_buf_failed(&d->tmp))
            sd_val_object_set_new_nocheck(out, "section", sd_val_stringn(d->tmp.ptr, d->tmp.len));
        sd_buf_clear(&d->tmp);
    }
    if ((v = sd_val_object_get(node, "default")) && small_default(v))
        sd_val_object_set_nocheck(out, "default", v);
    if (d->anchors && str(node, "id") && (v = sd_val_object_get(d->anchors, str(node, "id"))))
        sd_val_object_set_nocheck(out, "anchor", v);
    if ((desc = str(node, "description")) && *desc) {
        sd_val *n;
        sd_buf_clear(&d->tmp);
        sd_render__description_html(&d->tmp, desc, strlen(desc));
        if (d->tmp.len && !sd_buf_failed(&d->tmp)) {
            sd_buf_putc(&d->tmp, '\0');
            if (!(n = sd_val_object_get(d->seen, d->tmp.ptr))) {
                sd_val *o = sd_val_object();
                n = sd_val_integer((sd_val_int)sd_val_array_size(d->list));
                sd_val_object_set_nocheck(o, "n", n);
                sd_val_object_set_new_nocheck(o, "html", sd_val_string(d->tmp.ptr));
                sd_val_array_append_new(d->list, o);
                sd_val_object_set_new(d->seen, d->tmp.ptr, n);
            }
            sd_val_object_set_nocheck(out, "doc", n);
        }
    }
    if ((v = sd_val_object_get(node, "properties")))
        sd_val_object_set_new_nocheck(out, "properties", slim_list(v, d, depth + 1));
    if ((v = sd_val_object_get(node, "items")))
        sd_val_object_set_new_nocheck(out, "items", slim(v, d, depth + 1));
    else if ((v = sd_val_object_get(node, "elements")) && sd_val_array_size(v) > 0)
        sd_val_object_set_new_nocheck(out, "items", slim(sd_val_array_get(v, 0), d, depth + 1));
    if ((v = sd_val_object_get(node, "additionalProperties")))
        sd_val_object_set_new_nocheck(out, "additionalProperties", slim(v, d, depth + 1));
    if ((v = sd_val_object_get(node, "patternProperties")) && sd_val_is_array(v)) {
        sd_val *pp = sd_val_array(), *p;
        size_t i;
        sd_val_array_foreach(v, i, p) {
            sd_val *o = sd_val_object();
            sd_val_object_set_nocheck(o, "pattern", sd_val_object_get(p, "pattern"));
            sd_val_object_set_new_nocheck(o, "node", slim(sd_val_object_get(p, "node"), d, depth + 1));
            sd_val_array_append_new(pp, o);
        }
        sd_val_object_set_new_nocheck(out, "patternProperties", pp);
    }
    if ((v = sd_val_object_get(node, "oneOf")))
        sd_val_object_set_new_nocheck(out, "oneOf", slim_list(v, d, depth + 1));
    if ((v = sd_val_object_get(node, "anyOf")))
        sd_val_object_set_new_nocheck(out, "anyOf", slim_list(v, d, depth + 1));
    if ((v = sd_val_object_get(node, "allOf")))
        sd_val_object_set_new_nocheck(out, "allOf", slim_list(v, d, depth + 1));
    for (size_t i = 0; i < 3; i++) {
        static const char *const cond[] = { "if", "then", "else" };
        if ((v = sd_val_object_get(node, cond[i])))
            sd_val_object_set_new(out, cond[i], slim(v, d, depth + 1));
    }
    /* a key only values.yaml has (no schema says it): a map entry when its
     * object takes additionalProperties */
    if (sd_val_is_string(sd_val_object_get(node, "key"))) {
        const char *ptr = str(node, "pointer"), *pp = ptr ? strstr(ptr, "/properties/") : NULL, *last = NULL;
        for (; pp; pp = strstr(pp + 1, "/properties/"))
            last = pp;
        if (!sd_val_object_get(node, "defined_at") ||
            (ptr && (!last || strstr(last + 1, "/additionalProperties") || strstr(last + 1, "/patternProperties"))) ||
            (ptr && strlen(ptr) >= 21 && !strcmp(ptr + strlen(ptr) - 21, "/additionalProperties")))
            sd_val_object_set_new_nocheck(out, "fromValues", sd_val_true());
    }
    /* objects: where the rules' record is (dependentSchemas live there) */
    if (sd_val_object_get(node, "properties") && (v = sd_val_object_get(node, "pointer")))
        sd_val_object_set_nocheck(out, "pointer", v);
    return out;
}

/* The file name without directories and extension. */
static void stem(sd_buf *b, const char *path)
{
    const char *s = strrchr(path, '/'), *dot;
    size_t n;
    s = s ? s + 1 : path;
    if (!*s)
        s = path;
    dot = strchr(s, '.');
    n = dot && dot > s ? (size_t)(dot - s) : strlen(s);
    sd_buf_put(b, s, n);
}

/* JSON text safe inside <script>: '<', '>', '&', U+2028 and U+2029 as
 * \u escapes (JSON has them only inside strings, where these mean the same). */
static void put_script_json(sd_buf *b, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '<')
            sd_buf_puts(b, "\\u003c");
        else if (c == '>')
            sd_buf_puts(b, "\\u003e");
        else if (c == '&')
            sd_buf_puts(b, "\\u0026");
        else if (c == 0xE2 && (unsigned char)s[1] == 0x80 && ((unsigned char)s[2] == 0xA8 || (unsigned char)s[2] == 0xA9)) {
            sd_buf_puts(b, (unsigned char)s[2] == 0xA8 ? "\\u2028" : "\\u2029");
            s += 2;
        } else
            sd_buf_putc(b, (char)c);
    }
}

/* The rules of `src` (docs/rules.md) as values for the page's data, into
 * *out: null for a chart without a schema. The document is made as text
 * (validate/rules.c) and read back by our JSON parser (json.c), where
 * jansson took a quarter of a chart's form page to parse and free it.
 * Returns 0 or a negative code with a diagnostic. */
static int rules_value(sd_val **out, sd_source *src, sd_diags *diags)
{
    sd_check_opts copts;
    sd_buf rules = SD_BUF_INIT;
    sd_doc *rd = NULL;
    int err;

    if (sd_source_nschemas(src) == 0 || (!sd_source_schema_at(src, 0)->root && sd_source_nschemas(src) == 1)) {
        *out = sd_val_null();
        return 0;
    }
    *out = NULL;
    memset(&copts, 0, sizeof copts);
    if ((err = sd_check_rules(&rules, src, &copts, diags)) == 0 &&
        (err = sd_doc_load_mem(&rd, "rules", rules.ptr, rules.len, SD_FMT_JSON, NULL, diags)) == 0 &&
        !(*out = sd_node_to_val(sd_doc_root(rd))))
        err = sd_diag_error(diags, SD_ENOMEM, (sd_loc){ NULL, 0, 0 }, "out of memory");
    sd_doc_free(rd);
    sd_buf_release(&rules);
    return err;
}

int sd_render_form(sd_buf *out, sd_val *model, sd_source *src, const sd_render_opts *opts, sd_diags *diags)
{
    sd_val *data = sd_val_object(), *forms = sd_val_array(), *defs = sd_val_object(), *page = sd_val_object();
    sd_val *src_info = sd_val_object_get(model, "source"), *root = sd_val_object_get(model, "root"), *v;
    const char *kind = str(src_info, "kind"), *path = str(src_info, "path");
    sd_buf tmp = SD_BUF_INIT, title = SD_BUF_INIT, name = SD_BUF_INIT;
    sd_val *rv = NULL;
    sd_render_opts ro = *opts;
    docs dd = { sd_val_array(), sd_val_object(), SD_BUF_INIT, NULL };
    char *text = NULL;
    int err = 0;
    size_t i;

    if (!kind)
        kind = "schema";
    if (!path)
        path = "schema";
    sd_val_object_set_new_nocheck(data, "form", sd_val_integer(1));
    if (opts->reference_url) {
        /* the model is only read: the view works on a copy */
        sd_val *copy = sd_val_deep_copy(model);
        dd.anchors = sd_val_object();
        if (!copy || sd_render__view(copy, SD_MARKUP_HTML, 0) < 0) {   /* anchors only: no YAML */
            sd_val_decref(copy);
            sd_val_decref(forms);
            sd_val_decref(defs);
            err = sd_diag_error(diags, SD_ENOMEM, (sd_loc){ NULL, 0, 0 }, "out of memory");
            goto done;
        }
        collect_anchors(copy, dd.anchors, 0);
        sd_val_decref(copy);
        sd_val_object_set_new_nocheck(data, "reference", sd_val_string(opts->reference_url));
    }
    sd_val_object_set_new_nocheck(data, "kind", sd_val_string(kind));
    if (!strcmp(kind, "chart")) {
        const char *cn = str(sd_val_object_get(model, "chart"), "name");
        sd_buf_puts(&name, cn ? cn : "chart");
        sd_buf_printf(&title, "%s values", name.ptr);
        sd_val_object_set_new_nocheck(data, "download", sd_val_string("values.yaml"));
        /* the key the page's autosave is kept under: name and version */
        if ((cn = str(sd_val_object_get(model, "chart"), "version")))
            sd_val_object_set_new_nocheck(data, "version", sd_val_string(cn));
    } else if (!strcmp(kind, "crd")) {
        sd_val *crd = sd_val_object_get(model, "crd");
        const char *k = str(crd, "kind");
        sd_buf_puts(&name, k ? k : "Resource");
        sd_buf_printf(&title, "%s manifest", name.ptr);
        sd_buf_clear(&tmp);
        for (const char *p = name.ptr; *p; p++)
            sd_buf_putc(&tmp, (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p));
        sd_buf_puts(&tmp, ".yaml");
        sd_val_object_set_new_nocheck(data, "download", sd_val_stringn(tmp.ptr, tmp.len));
        sd_val_object_set_new_nocheck(data, "crdKind", sd_val_string(name.ptr));
        sd_val_object_set_nocheck(data, "group", sd_val_object_get(crd, "group") ? sd_val_object_get(crd, "group") : sd_val_null());
    } else if (!strcmp(kind, "ytt")) {
        stem(&name, path);
        sd_buf_printf(&title, "%s data values", name.ptr);
        sd_val_object_set_new_nocheck(data, "download", sd_val_string("values.yaml"));
    } else {
        if (flag(root, "title_explicit") && str(root, "title"))
            sd_buf_puts(&name, str(root, "title"));
        else
            stem(&name, path);
        sd_buf_printf(&title, "%s document", name.ptr);
        sd_val_object_set_new_nocheck(data, "download", sd_val_string("document.yaml"));
    }
    sd_val_object_set_new_nocheck(data, "name", sd_val_string(name.ptr ? name.ptr : ""));
    sd_val_object_set_new_nocheck(data, "title", sd_val_string(title.ptr ? title.ptr : ""));

    /* the forms: one per CRD version, else one */
    if (!strcmp(kind, "crd")) {
        sd_val *ver;
        sd_val_array_foreach(sd_val_object_get(model, "versions"), i, ver) {
            sd_val *f = sd_val_object();
            sd_val_object_set_nocheck(f, "name", sd_val_object_get(ver, "name"));
            if ((v = sd_val_object_get(ver, "deprecated")) && sd_val_is_true(v))
                sd_val_object_set_new_nocheck(f, "deprecated", sd_val_true());
            if ((v = sd_val_object_get(ver, "deprecationWarning")))
                sd_val_object_set_nocheck(f, "deprecationWarning", v);
            if ((v = sd_val_object_get(ver, "storage")) && sd_val_is_true(v))
                sd_val_object_set_new_nocheck(f, "storage", sd_val_true());
            sd_val_object_set_new_nocheck(f, "root", slim(sd_val_object_get(ver, "root"), &dd, 0));
            sd_val_array_append_new(forms, f);
        }
    } else {
        sd_val *f = sd_val_object();
        sd_val_object_set_new_nocheck(f, "name", sd_val_string("values"));
        sd_val_object_set_new_nocheck(f, "root", slim(root, &dd, 0));
        sd_val_array_append_new(forms, f);
        if (strcmp(kind, "schema") != 0 && (v = sd_val_object_get(root, "default")) && sd_val_is_object(v))
            sd_val_object_set_nocheck(data, "defaults", v);
    }
    {
        /* the keys commented out in the chart's values.yaml: known keys, as
         * `validate` knows them (the page's "Unknown keys" leaves them out),
         * each as its parent's dotted path and its key ("a.b.key") */
        const sd_chart *ch = src && !strcmp(kind, "chart") ? sd_source_chart(src) : NULL;
        const sd_ckeys *ck = ch && ch->values ? sd_source_commented(src, sd_doc_root(ch->values)) : NULL;
        if (ck && ck->n) {
            sd_val *list = sd_val_array();
            for (size_t j = 0; j < ck->n && j < 100000; j++) {
                sd_buf_clear(&tmp);
                sd_cpath_text(&tmp, ck->items[j].path);
                if (tmp.len)
                    sd_buf_putc(&tmp, '.');
                sd_buf_puts(&tmp, ck->items[j].key);
                if (!sd_buf_failed(&tmp))
                    sd_val_array_append_new(list, sd_val_stringn(tmp.ptr, tmp.len));
            }
            sd_val_object_set_new_nocheck(data, "commented", list);
        }
        /* the maps the templates hand on whole (`toYaml .Values.config`):
         * free-form maps in the page, as `validate` takes them, each as
         * its keys joined by "." ("*": any key or index) */
        if (ch && ch->dir) {
            sd_tmplrefs refs = SD_TMPLREFS_INIT;
            if (sd_tmplrefs_scan_dir(&refs, ch->dir) == 0 && refs.has_templates) {
                sd_val *list = sd_val_array();
                const char *seg[64];
                for (size_t j = 1; j < refs.nnodes; j++) {
                    size_t nseg;
                    if (!refs.nodes[j].use || (nseg = sd_tmplrefs_path(&refs, j, seg, 64)) == 0 || nseg > 64 ||
                        !(sd_tmplrefs_use(&refs, seg, nseg) & SD_TREF_WHOLE))
                        continue;
                    sd_buf_clear(&tmp);
                    for (size_t q = 0; q < nseg; q++) {
                        if (q)
                            sd_buf_putc(&tmp, '.');
                        sd_buf_puts(&tmp, seg[q] ? seg[q] : "*");
                    }
                    if (!sd_buf_failed(&tmp))
                        sd_val_array_append_new(list, sd_val_stringn(tmp.ptr, tmp.len));
                }
                sd_val_object_set_new_nocheck(data, "whole", list);
            }
            sd_tmplrefs_release(&refs);
        }
    }
    sd_val_object_set_new_nocheck(data, "forms", forms);
    {
        sd_val *d;
        sd_val_array_foreach(sd_val_object_get(model, "definitions"), i, d)
            if (str(d, "id"))
                sd_val_object_set_new(defs, str(d, "id"), slim(d, &dd, 0));
    }
    sd_val_object_set_new_nocheck(data, "defs", defs);

    /* the rules: none for a chart without a schema */
    if ((err = rules_value(&rv, src, diags)) < 0)
        goto done;
    sd_val_object_set_new_nocheck(data, "rules", rv);

    /* the page */
    if (!(text = sd_val_dumps(data, SD_VAL_COMPACT))) {
        err = sd_diag_error(diags, SD_ENOMEM, (sd_loc){ NULL, 0, 0 }, "out of memory");
        goto done;
    }
    sd_buf_clear(&tmp);
    put_script_json(&tmp, text);
    sd_val_object_set_new_nocheck(page, "data", sd_val_stringn(tmp.ptr ? tmp.ptr : "", tmp.len));
    sd_val_object_set_new_nocheck(page, "script", sd_val_stringn((const char *)sd_form_bundle, sd_form_bundle_len));
    sd_val_object_set_new_nocheck(page, "script_hash", sd_val_string(sd_form_bundle_sha256));
    sd_val_object_set_new_nocheck(page, "title", sd_val_string(title.ptr ? title.ptr : ""));
    sd_val_object_set_new_nocheck(page, "kind", sd_val_string(kind));
    sd_val_object_set_new_nocheck(page, "download", sd_val_deep_copy(sd_val_object_get(data, "download")));
    sd_val_object_set_new_nocheck(page, "preview_name", sd_val_string(!strcmp(kind, "crd") ? "manifest preview" : "values.yaml preview"));
    sd_val_object_set_nocheck(page, "docs", dd.list);
    sd_val_object_set_new_nocheck(page, "is_crd", sd_val_boolean(!strcmp(kind, "crd")));
    sd_val_object_set_new_nocheck(page, "is_chart", sd_val_boolean(!strcmp(kind, "chart")));
    if (sd_buf_failed(&tmp) || sd_buf_failed(&title) || sd_buf_failed(&name)) {
        err = sd_diag_error(diags, SD_ENOMEM, (sd_loc){ NULL, 0, 0 }, "out of memory");
        goto done;
    }
    ro.format = "form";
    err = sd_render(out, page, &ro, diags);
done:
    free(text);
    sd_val_decref(data);
    sd_val_decref(page);
    sd_val_decref(dd.list);
    sd_val_decref(dd.seen);
    sd_val_decref(dd.anchors);
    sd_buf_release(&dd.tmp);
    sd_buf_release(&tmp);
    sd_buf_release(&title);
    sd_buf_release(&name);
    return err;
}
