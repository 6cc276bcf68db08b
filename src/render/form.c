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
#include "check.h"
#include "sd.h"
#include "sha256.h"

#include <stdlib.h>
#include <string.h>

/* The bundled form script (build/gen/formjs.c, from src/form/form_main.js). */
extern const unsigned char sd_form_bundle[];
extern const size_t sd_form_bundle_len;

/* The node fields the page uses, copied as they are. */
static const char *const keep[] = {
    "key", "title", "type", "nullable", "enum", "const", "constraints", "required",
    "deprecated", "deprecation", "removed", "removal", "readOnly", "writeOnly", "ref",
    "recursive", "section", "form", "kubernetes", "examples", "has_default", "default_text", NULL
};

/* The descriptions as HTML, each once: the template writes them as
 * <template id="sd-doc-N"> elements and nodes carry `doc: N`; the script
 * clones them (it never parses HTML). */
typedef struct docs {
    json_t *list;   /* [{n, html}] */
    json_t *seen;   /* html -> n */
    sd_buf  tmp;
    json_t *anchors; /* node id -> the html page's anchor (--reference), or NULL */
} docs;

static json_t *slim(json_t *node, docs *tmp, int depth);

/* The anchors the html reference page gives the nodes: the view of a copy
 * of the model (sd_render_view hands them out), collected by node id. */
static void collect_anchors(json_t *x, json_t *out, int depth)
{
    json_t *v;
    const char *k;
    size_t i;

    if (depth > 400)
        return;
    if (json_is_object(x)) {
        const char *id = str(x, "id"), *a = str(x, "anchor");
        if (id && a && !json_object_get(out, id))
            json_object_set_new(out, id, json_string(a));
        json_object_foreach(x, k, v)
            if (json_is_object(v) || json_is_array(v))
                collect_anchors(v, out, depth + 1);
    } else if (json_is_array(x)) {
        json_array_foreach(x, i, v)
            collect_anchors(v, out, depth + 1);
    }
}

static json_t *slim_list(json_t *list, docs *d, int depth)
{
    json_t *out = json_array(), *n;
    size_t i;
    json_array_foreach(list, i, n)
        json_array_append_new(out, slim(n, d, depth));
    return out;
}

/* A scalar default, or a small list/map one: kept on the node for display.
 * Object defaults come from the page's defaults instead. */
static int small_default(json_t *v)
{
    return !json_is_object(v) && !json_is_array(v) ? 1 : json_is_array(v) ? json_array_size(v) <= 8 : 0;
}

static json_t *slim(json_t *node, docs *d, int depth)
{
    json_t *out = json_object(), *v;
    const char *desc;

    if (!json_is_object(node) || depth > 200)
        return out;
    for (size_t i = 0; keep[i]; i++)
        if ((v = json_object_get(node, keep[i])))
            json_object_set(out, keep[i], v);
    if (str(node, "section") && strchr(str(node, "section"), '&')) {
        /* a Bitnami section name is written for Markdown ("Redis&reg;
         * parameters"): the page shows it as text, decoded as the html
         * reference page does */
        sd_render__decode_entities(&d->tmp, str(node, "section"));
        if (!sd_buf_failed(&d->tmp))
            json_object_set_new_nocheck(out, "section", json_stringn(d->tmp.ptr, d->tmp.len));
        sd_buf_clear(&d->tmp);
    }
    if ((v = json_object_get(node, "default")) && small_default(v))
        json_object_set_nocheck(out, "default", v);
    if (d->anchors && str(node, "id") && (v = json_object_get(d->anchors, str(node, "id"))))
        json_object_set_nocheck(out, "anchor", v);
    if ((desc = str(node, "description")) && *desc) {
        json_t *n;
        sd_buf_clear(&d->tmp);
        sd_render__description_html(&d->tmp, desc, strlen(desc));
        if (d->tmp.len && !sd_buf_failed(&d->tmp)) {
            sd_buf_putc(&d->tmp, '\0');
            if (!(n = json_object_get(d->seen, d->tmp.ptr))) {
                json_t *o = json_object();
                n = json_integer((json_int_t)json_array_size(d->list));
                json_object_set_nocheck(o, "n", n);
                json_object_set_new_nocheck(o, "html", json_string(d->tmp.ptr));
                json_array_append_new(d->list, o);
                json_object_set_new(d->seen, d->tmp.ptr, n);
            }
            json_object_set_nocheck(out, "doc", n);
        }
    }
    if ((v = json_object_get(node, "properties")))
        json_object_set_new_nocheck(out, "properties", slim_list(v, d, depth + 1));
    if ((v = json_object_get(node, "items")))
        json_object_set_new_nocheck(out, "items", slim(v, d, depth + 1));
    else if ((v = json_object_get(node, "elements")) && json_array_size(v) > 0)
        json_object_set_new_nocheck(out, "items", slim(json_array_get(v, 0), d, depth + 1));
    if ((v = json_object_get(node, "additionalProperties")))
        json_object_set_new_nocheck(out, "additionalProperties", slim(v, d, depth + 1));
    if ((v = json_object_get(node, "patternProperties")) && json_is_array(v)) {
        json_t *pp = json_array(), *p;
        size_t i;
        json_array_foreach(v, i, p) {
            json_t *o = json_object();
            json_object_set_nocheck(o, "pattern", json_object_get(p, "pattern"));
            json_object_set_new_nocheck(o, "node", slim(json_object_get(p, "node"), d, depth + 1));
            json_array_append_new(pp, o);
        }
        json_object_set_new_nocheck(out, "patternProperties", pp);
    }
    if ((v = json_object_get(node, "oneOf")))
        json_object_set_new_nocheck(out, "oneOf", slim_list(v, d, depth + 1));
    if ((v = json_object_get(node, "anyOf")))
        json_object_set_new_nocheck(out, "anyOf", slim_list(v, d, depth + 1));
    if ((v = json_object_get(node, "allOf")))
        json_object_set_new_nocheck(out, "allOf", slim_list(v, d, depth + 1));
    for (size_t i = 0; i < 3; i++) {
        static const char *const cond[] = { "if", "then", "else" };
        if ((v = json_object_get(node, cond[i])))
            json_object_set_new(out, cond[i], slim(v, d, depth + 1));
    }
    /* a key only values.yaml has (no schema says it): a map entry when its
     * object takes additionalProperties */
    if (json_is_string(json_object_get(node, "key"))) {
        const char *ptr = str(node, "pointer"), *pp = ptr ? strstr(ptr, "/properties/") : NULL, *last = NULL;
        for (; pp; pp = strstr(pp + 1, "/properties/"))
            last = pp;
        if (!json_object_get(node, "defined_at") ||
            (ptr && (!last || strstr(last + 1, "/additionalProperties") || strstr(last + 1, "/patternProperties"))) ||
            (ptr && strlen(ptr) >= 21 && !strcmp(ptr + strlen(ptr) - 21, "/additionalProperties")))
            json_object_set_new_nocheck(out, "fromValues", json_true());
    }
    /* objects: where the rules' record is (dependentSchemas live there) */
    if (json_object_get(node, "properties") && (v = json_object_get(node, "pointer")))
        json_object_set_nocheck(out, "pointer", v);
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

int sd_render_form(sd_buf *out, json_t *model, sd_source *src, const sd_render_opts *opts, sd_diags *diags)
{
    json_t *data = json_object(), *forms = json_array(), *defs = json_object(), *page = json_object();
    json_t *src_info = json_object_get(model, "source"), *root = json_object_get(model, "root"), *v;
    const char *kind = str(src_info, "kind"), *path = str(src_info, "path");
    sd_buf tmp = SD_BUF_INIT, title = SD_BUF_INIT, name = SD_BUF_INIT, rules = SD_BUF_INIT;
    sd_render_opts ro = *opts;
    docs dd = { json_array(), json_object(), SD_BUF_INIT, NULL };
    char hash[45], *text = NULL;
    int err = 0;
    size_t i;

    if (!kind)
        kind = "schema";
    if (!path)
        path = "schema";
    json_object_set_new_nocheck(data, "form", json_integer(1));
    if (opts->reference_url) {
        /* the model is only read: the view works on a copy */
        json_t *copy = json_deep_copy(model);
        dd.anchors = json_object();
        if (!copy || sd_render_view(copy, 1) < 0) {
            json_decref(copy);
            json_decref(forms);
            json_decref(defs);
            err = sd_diag_error(diags, SD_ENOMEM, (sd_loc){ NULL, 0, 0 }, "out of memory");
            goto done;
        }
        collect_anchors(copy, dd.anchors, 0);
        json_decref(copy);
        json_object_set_new_nocheck(data, "reference", json_string(opts->reference_url));
    }
    json_object_set_new_nocheck(data, "kind", json_string(kind));
    if (!strcmp(kind, "chart")) {
        const char *cn = str(json_object_get(model, "chart"), "name");
        sd_buf_puts(&name, cn ? cn : "chart");
        sd_buf_printf(&title, "%s values", name.ptr);
        json_object_set_new_nocheck(data, "download", json_string("values.yaml"));
    } else if (!strcmp(kind, "crd")) {
        json_t *crd = json_object_get(model, "crd");
        const char *k = str(crd, "kind");
        sd_buf_puts(&name, k ? k : "Resource");
        sd_buf_printf(&title, "%s manifest", name.ptr);
        sd_buf_clear(&tmp);
        for (const char *p = name.ptr; *p; p++)
            sd_buf_putc(&tmp, (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p));
        sd_buf_puts(&tmp, ".yaml");
        json_object_set_new_nocheck(data, "download", json_stringn(tmp.ptr, tmp.len));
        json_object_set_new_nocheck(data, "crdKind", json_string(name.ptr));
        json_object_set_nocheck(data, "group", json_object_get(crd, "group") ? json_object_get(crd, "group") : json_null());
    } else if (!strcmp(kind, "ytt")) {
        stem(&name, path);
        sd_buf_printf(&title, "%s data values", name.ptr);
        json_object_set_new_nocheck(data, "download", json_string("values.yaml"));
    } else {
        if (flag(root, "title_explicit") && str(root, "title"))
            sd_buf_puts(&name, str(root, "title"));
        else
            stem(&name, path);
        sd_buf_printf(&title, "%s document", name.ptr);
        json_object_set_new_nocheck(data, "download", json_string("document.yaml"));
    }
    json_object_set_new_nocheck(data, "name", json_string(name.ptr ? name.ptr : ""));
    json_object_set_new_nocheck(data, "title", json_string(title.ptr ? title.ptr : ""));

    /* the forms: one per CRD version, else one */
    if (!strcmp(kind, "crd")) {
        json_t *ver;
        json_array_foreach(json_object_get(model, "versions"), i, ver) {
            json_t *f = json_object();
            json_object_set_nocheck(f, "name", json_object_get(ver, "name"));
            if ((v = json_object_get(ver, "deprecated")) && json_is_true(v))
                json_object_set_new_nocheck(f, "deprecated", json_true());
            if ((v = json_object_get(ver, "deprecationWarning")))
                json_object_set_nocheck(f, "deprecationWarning", v);
            if ((v = json_object_get(ver, "storage")) && json_is_true(v))
                json_object_set_new_nocheck(f, "storage", json_true());
            json_object_set_new_nocheck(f, "root", slim(json_object_get(ver, "root"), &dd, 0));
            json_array_append_new(forms, f);
        }
    } else {
        json_t *f = json_object();
        json_object_set_new_nocheck(f, "name", json_string("values"));
        json_object_set_new_nocheck(f, "root", slim(root, &dd, 0));
        json_array_append_new(forms, f);
        if (strcmp(kind, "schema") != 0 && (v = json_object_get(root, "default")) && json_is_object(v))
            json_object_set_nocheck(data, "defaults", v);
    }
    json_object_set_new_nocheck(data, "forms", forms);
    {
        json_t *d;
        json_array_foreach(json_object_get(model, "definitions"), i, d)
            if (str(d, "id"))
                json_object_set_new(defs, str(d, "id"), slim(d, &dd, 0));
    }
    json_object_set_new_nocheck(data, "defs", defs);

    /* the rules: none for a chart without a schema */
    if (sd_source_nschemas(src) > 0 && (sd_source_schema_at(src, 0)->root || sd_source_nschemas(src) > 1)) {
        sd_check_opts copts;
        json_error_t jerr;
        json_t *r;
        memset(&copts, 0, sizeof copts);
        if ((err = sd_check_rules(&rules, src, &copts, diags)) < 0)
            goto done;
        if (!(r = json_loadb(rules.ptr, rules.len, JSON_ALLOW_NUL, &jerr))) {
            err = sd_diag_error(diags, SD_ENOMEM, (sd_loc){ NULL, 0, 0 }, "rules: %s", jerr.text);
            goto done;
        }
        json_object_set_new_nocheck(data, "rules", r);
    } else {
        json_object_set_new_nocheck(data, "rules", json_null());
    }

    /* the page */
    if (!(text = json_dumps(data, JSON_COMPACT))) {
        err = sd_diag_error(diags, SD_ENOMEM, (sd_loc){ NULL, 0, 0 }, "out of memory");
        goto done;
    }
    sd_buf_clear(&tmp);
    put_script_json(&tmp, text);
    json_object_set_new_nocheck(page, "data", json_stringn(tmp.ptr ? tmp.ptr : "", tmp.len));
    sd_sha256_base64(hash, sd_form_bundle, sd_form_bundle_len);
    json_object_set_new_nocheck(page, "script", json_stringn((const char *)sd_form_bundle, sd_form_bundle_len));
    json_object_set_new_nocheck(page, "script_hash", json_string(hash));
    json_object_set_new_nocheck(page, "title", json_string(title.ptr ? title.ptr : ""));
    json_object_set_new_nocheck(page, "kind", json_string(kind));
    json_object_set_new_nocheck(page, "download", json_deep_copy(json_object_get(data, "download")));
    json_object_set_new_nocheck(page, "preview_name", json_string(!strcmp(kind, "crd") ? "manifest preview" : "values.yaml preview"));
    json_object_set_nocheck(page, "docs", dd.list);
    json_object_set_new_nocheck(page, "is_crd", json_boolean(!strcmp(kind, "crd")));
    json_object_set_new_nocheck(page, "is_chart", json_boolean(!strcmp(kind, "chart")));
    if (sd_buf_failed(&tmp) || sd_buf_failed(&title) || sd_buf_failed(&name)) {
        err = sd_diag_error(diags, SD_ENOMEM, (sd_loc){ NULL, 0, 0 }, "out of memory");
        goto done;
    }
    ro.format = "form";
    err = sd_render(out, page, &ro, diags);
done:
    sd_json_free(text);
    json_decref(data);
    json_decref(page);
    json_decref(dd.list);
    json_decref(dd.seen);
    json_decref(dd.anchors);
    sd_buf_release(&dd.tmp);
    sd_buf_release(&tmp);
    sd_buf_release(&title);
    sd_buf_release(&name);
    sd_buf_release(&rules);
    return err;
}
