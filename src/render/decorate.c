/* SPDX-License-Identifier: Apache-2.0 */
/* decorate.c - the fields the view adds to one documented node
 * (docs/themes.md): its anchor, its type in words, badges, examples, rules,
 * its default as YAML and as a table cell, its constraints, its
 * description as safe HTML and as Markdown, where it is defined and where a
 * definition is used. view.c walks the model and calls
 * sd_render__decorate() for each node. */
#include "render_int.h"
#include "k8s.h"
#include "alloc.h"
#include "emit.h"
#include "md_to_html.h"
#include "sd.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A unique, attribute-safe anchor: whitespace becomes '_', and a repeat gets
 * "-2", "-3", ... */
void sd_render__make_anchor(view *v, sd_val *node, const char *base)
{
    sd_buf *b = &v->tmp;
    size_t len;
    int n = 1;

    sd_buf_clear(b);
    sd_buf_puts(b, base);
    for (char *s = b->ptr, *e = b->ptr + b->len; s < e; s++)
        if (isspace((unsigned char)*s))
            *s = '_';
    if (!b->len)
        sd_buf_puts(b, "_");
    if (v->markup == SD_MARKUP_ADOC)
        sd_render__adoc_id(b);
    len = b->len;
    while (sd_val_object_getn(v->anchors, b->ptr, b->len)) {
        sd_buf_truncate(b, len);
        sd_buf_printf(b, "-%d", ++n);
    }
    {
        /* the anchors' set is keyed by the anchor string's own bytes */
        sd_val *a = sd_val_stringn_unique(b->ptr, b->len);   /* unique by construction */
        if (a && sd_val_object_set_new_strkey(v->anchors, a, sd_val_true()) == 0)
            sd_val_object_set_new_nocheck(node, "anchor", a);
        else
            sd_val_decref(a);
    }
    sd_buf_clear(b);
}

/* A key of a Kubernetes type (docs/k8s.md): "ResourceRequirements
 * (core/v1)", linked to the API reference (`k8s_url`). */
static int kubernetes_type(view *v, sd_val *node)
{
    const char *ref = str(node, "ref");
    sd_buf url = SD_BUF_INIT;
    if (!ref || !sd_k8s_ref_label(&v->tmp, &url, ref)) {
        sd_buf_release(&url);
        return 0;
    }
    set_buf(node, "type_text", &v->tmp);
    set_buf(node, "k8s_url", &url);
    sd_buf_release(&url);
    return 1;
}

static void type_text(view *v, sd_val *node)
{
    sd_val *t = sd_val_object_get(node, "type"), *x;
    sd_val *k = sd_val_object_get(node, "kubernetes");
    sd_buf *b = &v->tmp;
    size_t i;

    sd_buf_clear(b);
    if (kubernetes_type(v, node))
        return;
    if (!k && sd_val_array_size(t) == 1 && sd_val_is_string(x = sd_val_array_get(t, 0)) &&
        sd_val_string_length(x) && strlen(sd_val_string_value(x)) == sd_val_string_length(x) &&
        !flag(node, "nullable")) {
        /* one type: its word, shared (the buffer below would stop at a NUL
         * inside it, hence the strlen) */
        sd_val_object_set_nocheck(node, "type_text", x);
        return;
    }
    if (sd_val_is_true(sd_val_object_get(k, "int_or_string"))) {
        sd_buf_puts(b, "integer | string");
    } else if (sd_val_is_array(t)) {
        sd_val_array_foreach(t, i, x) {
            if (!sd_val_is_string(x))
                continue;
            if (b->len)
                sd_buf_puts(b, " | ");
            sd_buf_puts(b, sd_val_string_value(x));
        }
    }
    if (!b->len && str(node, "helm_type") && *str(node, "helm_type"))
        sd_buf_puts(b, str(node, "helm_type"));
    if (flag(node, "nullable") && !strstr(b->ptr, "null"))
        sd_buf_puts(b, b->len ? " | null" : "null");
    set_buf(node, "type_text", b);
}

static void add_badge(sd_val **list, const char *word)
{
    if (!*list)
        *list = sd_val_array();
    sd_val_array_append_new(*list, sd_val_string(word));
}

static void badges(sd_val *node)
{
    static const char *const names[][2] = {
        { "required", "required" }, { "deprecated", "deprecated" }, { "removed", "removed" },
        { "nullable", "nullable" }, { "readOnly", "read-only" }, { "writeOnly", "write-only" },
        { "recursive", "recursive" }, { "truncated", "truncated" }
    };
    sd_val *list = NULL;   /* made for the few nodes that have one */
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (flag(node, names[i][0]))
            add_badge(&list, names[i][1]);
    if (str(node, "ref_unresolved"))
        add_badge(&list, "unresolved");
    if (list)
        sd_val_object_set_new_nocheck(node, "badges", list);
}

static void examples(view *v, sd_val *node)
{
    sd_val *ex = sd_val_object_get(node, "examples"), *x, *list;
    size_t i;

    if (!sd_val_is_array(ex) || !sd_val_array_size(ex))
        return;
    list = sd_val_array();
    sd_val_array_foreach(ex, i, x) {
        sd_val *e = sd_val_object();
        const char *t = str(x, "title"), *src = str(x, "source");
        sd_val *val = sd_val_object_get(x, "value");
        if (!val && src) {
            /* ytt examples written as an expression: shown, not evaluated */
            sd_buf_puts(&v->tmp, src);
            if (!v->tmp.len || v->tmp.ptr[v->tmp.len - 1] != '\n')
                sd_buf_putc(&v->tmp, '\n');
            set_buf(e, "yaml", &v->tmp);
            sd_val_object_set_new_nocheck(e, "example_source", sd_val_true());
        } else {
            sd_emit_yaml(&v->tmp, val ? val : sd_val_null(), 0);
            set_buf(e, "yaml", &v->tmp);
        }
        if (t && *t)
            set_str(e, "example_title", t);
        sd_val_array_append_new(list, e);
    }
    sd_val_object_set_new_nocheck(node, "example_list", list);
}

static void rules(sd_val *node)
{
    sd_val *val = sd_val_object_get(sd_val_object_get(node, "kubernetes"), "validations");
    sd_val *yr = sd_val_object_get(sd_val_object_get(node, "ytt"), "rules"), *x;
    size_t i;

    if (sd_val_is_array(val) && sd_val_array_size(val))
        sd_val_object_set_nocheck(node, "cel_rules", val);
    if (sd_val_is_array(yr) && sd_val_array_size(yr)) {
        sd_val *list = sd_val_array();
        sd_val_array_foreach(yr, i, x) {
            if (sd_val_is_string(x))
                sd_val_array_append_new(list, sd_val_objectv(1, "rule", sd_val_incref(x)));
            else if (sd_val_is_object(x))
                sd_val_array_append(list, x);
        }
        sd_val_object_set_new_nocheck(node, "ytt_rule_list", list);
    }
}

/* Backlinks from a definition to the nodes that refer to it: the first
 * SD_USED_BY_MAX, then a count of the rest. */
#define SD_USED_BY_MAX 60
static void used_by(sd_val *def, sd_val *node)
{
    sd_val *list = sd_val_object_get(def, "used_by"), *a = sd_val_object_get(node, "anchor");
    const char *s = sd_val_string_value(a);
    if (!s)
        return;
    if (!list) {
        list = sd_val_array();
        sd_val_object_set_new_nocheck(def, "used_by", list);
    }
    if (sd_val_array_size(list) < SD_USED_BY_MAX) {
        sd_val_array_append_new(list, sd_val_objectv(2, "use_anchor", sd_val_incref(a),
                                              "use_path", sd_val_string(strncmp(s, "def-", 4) == 0 ? s + 4 : s)));
    } else {
        sd_val_int more = sd_val_integer_value(sd_val_object_get(def, "used_by_more"));
        sd_val_object_set_new_nocheck(def, "used_by_more", sd_val_integer(more + 1));
    }
}

/* A description that starts with "Deprecated:" (many CRDs, cert-manager's
 * among them, say so in words instead of `deprecated: true`). */
static int deprecated_text(const char *d)
{
    while (*d == ' ' || *d == '*' || *d == '_' || *d == '\n')
        d++;
    if (strncasecmp(d, "deprecated", 10) != 0)
        return 0;
    d += 10;
    while (*d == '*' || *d == '_')
        d++;
    return *d == ':' || *d == '.' || *d == ',' || *d == '\0';
}

/* ytt (seed 004): every key has a title, its own or the key humanized,
 * shown as the entry's heading and in the md description cell; a key that
 * allows several types lists them all in the md type column. */
static void ytt_view(view *v, sd_val *node, const char *display)
{
    sd_val *t = sd_val_object_get(node, "type"), *x;
    const char *title = str(node, "title");
    size_t i, n = 0;

    const char *key = str(node, "key"), *desc = str(node, "description");
    /* items and map values have no name to humanize; a title that only
     * repeats the description adds nothing */
    if (title && *title && display && *display && key && key[0] != '[' && strcmp(key, "*") &&
        !(desc && strncasecmp(desc, title, strlen(title)) == 0 &&
          (!desc[strlen(title)] || !strcmp(desc + strlen(title), "."))))
        set_str(node, "title_heading", title);
    sd_buf_clear(&v->tmp);
    sd_val_array_foreach(t, i, x) {
        const char *w = sd_val_string_value(x);
        if (!w || !strcmp(w, "null"))
            continue;
        if (n++)
            sd_buf_puts(&v->tmp, ", ");
        sd_buf_puts(&v->tmp, !strcmp(w, "integer") ? "int" : !strcmp(w, "number") ? "float" :
                             !strcmp(w, "boolean") ? "bool" : !strcmp(w, "array") ? "list" :
                             !strcmp(w, "object") ? "map" : w);
    }
    if (n > 1)
        set_buf(node, "helm_type", &v->tmp);
    sd_buf_clear(&v->tmp);   /* one type: the words are not used (the buffer is shared) */
}

/* Fill the per-node view fields. `display` is the key path shown. */
void sd_render__decorate(view *v, sd_val *node, const char *display, int depth, const char *label)
{
    const char *desc = str(node, "description"), *ref = str(node, "ref");
    sd_val *def;

    sd_val_object_set_new_nocheck(node, "depth", sd_val_integer(depth));
    set_str(node, "display", display && *display ? display : "(root)");
    if (label)
        set_str(node, "label", label);
    type_text(v, node);
    if (v->html && !flag(node, "deprecated") && desc && deprecated_text(desc))
        sd_val_object_set_new_nocheck(node, "deprecated", sd_val_true());   /* "Deprecated: ..." says it in words */
    badges(node);
    if (v->html)
        sd_render__secret_mark(v, node);   /* before its default is written */
    if (v->ytt)
        ytt_view(v, node, display);
    if (v->yaml && flag(node, "has_default")) {
        sd_val *d = sd_val_object_get(node, "default");
        sd_buf_clear(&v->tmp);
        sd_emit_yaml(&v->tmp, d, 0);
        if (v->tmp.len && v->tmp.ptr[v->tmp.len - 1] == '\n')
            sd_buf_truncate(&v->tmp, v->tmp.len - 1);
        if (memchr(v->tmp.ptr, '\n', v->tmp.len))
            sd_val_object_set_new_nocheck(node, "default_block", sd_val_true());
        set_buf(node, "default_yaml", &v->tmp);
        /* readme-generator's `[default: REGISTRY_NAME]` is what its README
         * prints; the page shows the value the chart really has beside it */
        const char *dt = str(node, "default_text");
        if (v->placeholder_defaults && dt && (v->tmp.len != strlen(dt) || memcmp(v->tmp.ptr, dt, v->tmp.len)))
            sd_val_object_set_new_nocheck(node, "default_placeholder", sd_val_true());
    }
    sd_render__constraints(&v->c, node);
    if (sd_val_array_size(v->c.html_list)) {
        if (v->html)
            sd_val_object_set(node, "constraint_list", v->c.html_list);
        else if (v->md)
            sd_val_object_set(node, "md_constraints", v->c.md_list);
        else if (v->c.adoc_list)
            sd_val_object_set(node, "adoc_constraints", v->c.adoc_list);
    }
    sd_val_decref(v->c.html_list);
    sd_val_decref(v->c.md_list);
    v->c.html_list = sd_val_array();
    v->c.md_list = sd_val_array();
    if (v->c.adoc_list) {
        sd_val_decref(v->c.adoc_list);
        v->c.adoc_list = sd_val_array();
    }
    examples(v, node);
    rules(node);
    /* a schema made from values.yaml is defined where the value is: the
     * page names that place once (the view keeps both: md_cells.c reads
     * defined_at) */
    if (str(node, "defined_at") && str(node, "value_at") && !strcmp(str(node, "defined_at"), str(node, "value_at")))
        sd_val_object_set_new_nocheck(node, "defined_at_value", sd_val_true());
    if (str(node, "defined_at") || str(node, "value_at"))
        sd_val_object_set_new_nocheck(node, "where", sd_val_true());
    if (v->html && str(node, "default_text")) {
        /* `# @default --` text is Markdown (helm-docs puts it in a code
         * span): inline HTML, without the paragraph around it. Charts
         * repeat theirs ("See values.yaml"): one rendering each. */
        sd_val *dtv = sd_val_object_get(node, "default_text");
        const char *dt = sd_val_string_value(dtv);
        sd_val *h = sd_val_object_getn(v->default_html, dt, sd_val_string_length(dtv));
        if (h) {
            sd_val_object_set_nocheck(node, "default_html", h);
        } else {
            sd_render__description_html(&v->tmp, dt, strlen(dt));
            while (v->tmp.len && v->tmp.ptr[v->tmp.len - 1] == '\n')
                sd_buf_truncate(&v->tmp, v->tmp.len - 1);
            if (v->tmp.len >= 7 && !strncmp(v->tmp.ptr, "<p>", 3) && !strcmp(v->tmp.ptr + v->tmp.len - 4, "</p>") &&
                !strstr(v->tmp.ptr + 3, "<p>")) {
                memmove(v->tmp.ptr, v->tmp.ptr + 3, v->tmp.len - 3);
                sd_buf_truncate(&v->tmp, v->tmp.len - 7);
            }
            if (v->tmp.len && !sd_buf_failed(&v->tmp) && (h = sd_val_stringn(v->tmp.ptr, v->tmp.len))) {
                sd_val_object_set_nocheck(node, "default_html", h);
                sd_val_object_set_new_strkey(v->default_html, dtv, h);   /* takes h; keyed by the text's value */
            }
            sd_buf_clear(&v->tmp);
        }
    }
    if (desc && *desc) {
        if (v->html) {
            sd_val *h = v->desc_html ? sd_val_object_get(v->desc_html, desc) : NULL;
            if (h) {
                sd_val_object_set_nocheck(node, "description_html", h);
            } else {
                sd_render__description_html(&v->tmp, desc, strlen(desc));
                if (v->tmp.len && !sd_buf_failed(&v->tmp) &&
                    (h = sd_val_stringn(v->tmp.ptr, v->tmp.len))) {
                    sd_val_object_set_nocheck(node, "description_html", h);
                    if (v->desc_html)   /* takes the reference; the key is the model's text */
                        sd_render__memo(v->desc_html, node, desc, h);
                    else
                        sd_val_decref(h);
                }
                sd_buf_clear(&v->tmp);
            }
        }
        if (strchr(desc, '\n')) {
            sd_val_object_set_new_nocheck(node, "description_long", sd_val_true());
            if (v->md) {
                sd_render__md_defang(&v->tmp, desc, strlen(desc));
                set_buf(node, "md_description_long", &v->tmp);
            }
        }
    }
    if (v->md) {
    {
        sd_val *memo = NULL;
        sd_buf_clear(&v->tmp);   /* the cells append: start from nothing whatever ran before */
        sd_render__md_description(v, &v->tmp, node, desc, &memo);
        set_buf_or(node, "md_description", &v->tmp, memo);
    }
    sd_render__md_key(&v->tmp, display ? display : "");
    set_buf(node, "md_key", &v->tmp);
    {
        const char *ht = str(node, "helm_type");
        sd_val *tt = sd_val_object_get(node, "type_text");
        if (ht && *ht)
            sd_render__md_cell(&v->tmp, ht, strlen(ht));
        else if (sd_val_is_string(tt) && str(node, "k8s_url")) {
            /* a Kubernetes type links to the API reference */
            sd_buf_putc(&v->tmp, '[');
            sd_render__md_cell(&v->tmp, sd_val_string_value(tt), sd_val_string_length(tt));
            sd_buf_printf(&v->tmp, "](%s)", str(node, "k8s_url"));
        } else if (sd_val_is_string(tt))
            sd_render__md_cell(&v->tmp, sd_val_string_value(tt), sd_val_string_length(tt));
        set_buf(node, "md_type", &v->tmp);
    }
    sd_render__md_default(v, node);
    }
    if (v->md && str(node, "schema_description")) {
        const char *sdsc = str(node, "schema_description");
        sd_render__md_defang(&v->tmp, sdsc, strlen(sdsc));
        set_buf(node, "md_schema_description", &v->tmp);
    }
    if (sd_val_object_get(node, "example_list") || sd_val_object_get(node, "md_constraints") ||
        sd_val_object_get(node, "md_schema_description") ||
        sd_val_object_get(node, "description_long") || sd_val_object_get(node, "cel_rules") ||
        sd_val_object_get(node, "ytt_rule_list"))
        sd_val_object_set_new_nocheck(node, "has_details", sd_val_true());
    if (ref && (def = sd_val_object_get(v->defs, ref))) {
        sd_val *a = sd_val_object_get(def, "anchor");
        sd_val_object_set_new_nocheck(node, "ref_anchor", sd_val_is_string(a) ? sd_val_incref(a) : sd_val_string(ref));
        set_str(node, "ref_name", str(def, "name") ? str(def, "name") : ref);
        used_by(def, node);
    }
}
