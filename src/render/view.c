/* SPDX-License-Identifier: Apache-2.0 */
/* view.c - model -> view model. The view model is the model with
 * render-ready fields added in place (docs/themes.md): every documented node
 * gets an anchor, its default as YAML, its constraints in words, its
 * description as safe HTML and Markdown table cells; the top level gets
 * `groups` of `sections` of flattened `entries` (and `rows`) that Mustache
 * can iterate without recursion. render_page.c renders it with the
 * theme's templates; emit_yaml.c (tree/) writes defaults and examples. */
#include "render_int.h"
#include "alloc.h"
#include "dialect.h"
#include "emit.h"
#include "md_to_html.h"
#include "secret.h"
#include "sd.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* --- the walk ---------------------------------------------------------------- */

typedef struct walk {
    view   *v;
    sd_val *entries;     /* the section's flat list */
    const char *prefix;  /* anchor prefix inside a definition, or NULL */
    const char *strip;   /* display path prefix to drop ("" at the root) */
    const char *branch;  /* the label of the branch being walked, or NULL */
} walk;

static void walk_node(walk *w, sd_val *node, int depth, const char *label, const char *anchor_base);

static void anchor_for(walk *w, sd_val *node, const char *fallback)
{
    const char *id = fallback ? fallback : str(node, "id");
    if (!id)
        id = "node";
    if (w->prefix) {
        sd_buf b = SD_BUF_INIT;
        sd_buf_printf(&b, "%s.%s", w->prefix, id);
        sd_render__make_anchor(w->v, node, b.ptr);
        sd_buf_release(&b);
    } else {
        sd_render__make_anchor(w->v, node, id);
    }
}

/* A oneOf/anyOf branch's name: its title, else the property that tells
 * the branches apart (`type: helm`, from a `const` or a short `enum`),
 * else the definition it refers to, else its type. NULL: none of these. */
static void put_value(sd_buf *b, sd_val *x)
{
    if (sd_val_is_string(x)) {
        sd_buf_puts(b, sd_val_string_value(x));
    } else {
        char *t = sd_val_dumps(x, SD_VAL_COMPACT | SD_VAL_ENCODE_ANY);
        sd_buf_puts(b, t ? t : "?");
        free(t);
    }
}

static int branch_name(view *v, sd_buf *b, sd_val *x)
{
    sd_val *p, *c, *t;
    size_t i, j;
    const char *ref = str(x, "ref");
    sd_val *def = ref ? sd_val_object_get(v->defs, ref) : NULL;

    sd_buf_clear(b);
    if (flag(x, "title_explicit") && str(x, "title") && *str(x, "title")) {
        sd_buf_puts(b, str(x, "title"));
        return 1;
    }
    sd_val_array_foreach(sd_val_object_get(x, "properties"), i, p) {
        const char *k = str(p, "key");
        if (!k)
            continue;
        if ((c = sd_val_object_get(p, "const"))) {
            sd_buf_printf(b, "%s: ", k);
            put_value(b, c);
            return 1;
        }
    }
    sd_val_array_foreach(sd_val_object_get(x, "properties"), i, p) {
        const char *k = str(p, "key");
        sd_val *e = sd_val_object_get(p, "enum");
        if (!k || !sd_val_is_array(e) || !sd_val_array_size(e) || sd_val_array_size(e) > 4)
            continue;
        sd_buf_printf(b, "%s: ", k);
        sd_val_array_foreach(e, j, c) {
            if (j)
                sd_buf_puts(b, " | ");
            put_value(b, c);
        }
        return 1;
    }
    if (def && (str(def, "name") || str(def, "key"))) {
        sd_buf_puts(b, str(def, "name") ? str(def, "name") : str(def, "key"));
        return 1;
    }
    if ((c = sd_val_object_get(x, "const"))) {
        put_value(b, c);
        return 1;
    }
    sd_val_array_foreach(sd_val_object_get(x, "type"), i, t) {
        if (i)
            sd_buf_puts(b, " | ");
        sd_buf_puts(b, sd_val_string_value(t) ? sd_val_string_value(t) : "?");
    }
    return b->len > 0;
}

static void walk_list(walk *w, sd_val *list, int depth, const char *label_fmt, const char *base)
{
    sd_val *x;
    size_t i;
    char label[64];

    sd_val_array_foreach(list, i, x) {
        sd_buf b = SD_BUF_INIT, name = SD_BUF_INIT;
        snprintf(label, sizeof label, label_fmt, (int)i + 1);
        sd_buf_printf(&b, "%s/%s", base, label);
        for (char *p = b.ptr; *p; p++)
            if (*p == ' ')
                *p = '-';
        /* the anchor keeps the number; the label names the branch */
        if (branch_name(w->v, &name, x)) {
            const char *kind = strchr(label, '(');
            sd_buf_printf(&name, " %s", kind ? kind : "");
            set_str(x, "branch_name", name.ptr);
        }
        walk_node(w, x, depth, str(x, "branch_name") ? str(x, "branch_name") : label, b.ptr);
        sd_buf_release(&b);
        sd_buf_release(&name);
    }
}

/* allOf branches that only add properties are merged into the parent: their
 * properties are listed as the parent's children. Anything else stays a
 * branch entry. A $ref branch becomes an "includes" link. */
static int merge_branch(sd_val *b)
{
    static const char *const keep[] = {
        "properties", "id", "key", "path", "pointer", "title", "title_explicit", "description",
        "description_from", "type", "helm_type", "nullable", "has_default", "examples",
        "constraints", "deprecated", "readOnly", "writeOnly", "required", "defined_at",
        "value_at", "default", NULL
    };
    const char *k;
    sd_val *x;
    sd_val_object_foreach(b, k, x) {
        const char *const *p;
        for (p = keep; *p && strcmp(*p, k) != 0; p++)
            ;
        if (!*p)
            return 0;
    }
    return sd_val_object_get(b, "properties") != NULL;
}

/* The view's one list of the keywords whose subschemas it shows as
 * entries (walk_node() walks each, in its own order); the model's
 * `elements` is the one member that is not a keyword. */
int sd_render__view_child(const char *k)
{
    switch (k[0]) {   /* told apart by the first byte: most names are neither */
    case 'p': return !strcmp(k, "properties") || !strcmp(k, "prefixItems") || !strcmp(k, "patternProperties");
    case 'e': return !strcmp(k, "elements") ? 1 : !strcmp(k, "else") ? 2 : 0;
    case 'a': return !strcmp(k, "allOf") || !strcmp(k, "anyOf") ? 1 : !strcmp(k, "additionalProperties") ? 2 : 0;
    case 'o': return !strcmp(k, "oneOf");
    case 'i': return !strcmp(k, "items") || !strcmp(k, "if") ? 2 : 0;
    case 'n': return !strcmp(k, "not") ? 2 : 0;
    case 't': return !strcmp(k, "then") ? 2 : 0;
    case 'c': return !strcmp(k, "contains") ? 2 : 0;
    default: return 0;
    }
}

/* 1 when the node has a child entry: a non-empty list of properties,
 * elements or branches, or a single subschema that is a node (has an id).
 * One pass over the node's members, not a lookup for each name. */
static int has_children(sd_val *node)
{
    size_t i, n = sd_val_object_size(node);
    for (i = 0; i < n; i++) {
        int kind = sd_render__view_child(sd_val__key_at(node, i));
        sd_val *x = kind ? sd_val__value_at(node, i) : NULL;
        if (kind == 1 ? sd_val_array_size(x) != 0
                      : kind == 2 && sd_val_is_object(x) && sd_val_object_get(x, "id") != NULL)
            return 1;
    }
    return 0;
}

static void alternatives(sd_val *node, const char *kind, const char *words)
{
    sd_val *list = sd_val_object_get(node, kind), *x, *opts;
    size_t i;
    if (!sd_val_is_array(list) || !sd_val_array_size(list))
        return;
    opts = sd_val_array();
    sd_val_array_foreach(list, i, x) {
        sd_val *o = sd_val_object();
        sd_val *a = sd_val_object_get(x, "anchor");
        const char *t = str(x, "title"), *tt = str(x, "type_text"), *rn = str(x, "ref_name");
        const char *bn = str(x, "branch_name");
        sd_buf name = SD_BUF_INIT;
        if (bn) {
            /* the branch's name without its " (one of)" */
            const char *par = strrchr(bn, '(');
            sd_buf_put(&name, bn, par && par > bn ? (size_t)(par - bn - 1) : strlen(bn));
        }
        if (sd_val_is_string(a))
            sd_val_object_set_nocheck(o, "option_anchor", a);
        sd_val_object_set_new_nocheck(o, "option_title",
                            sd_val_string(name.len ? name.ptr : rn ? rn : t && *t ? t : tt && *tt ? tt : "option"));
        sd_buf_release(&name);
        sd_val_array_append_new(opts, o);
    }
    sd_val *alts = sd_val_object_get(node, "alternatives");
    if (!alts) {
        alts = sd_val_array();
        sd_val_object_set_new_nocheck(node, "alternatives", alts);
    }
    sd_val_array_append_new(alts, sd_val_objectv(2, "alt_kind", sd_val_string(words), "options", opts));
}

/* md: the branches by name among the constraints ("exactly one of:
 * `type: helm`, `type: git`"), so that the details name them. */
static void md_alternatives(view *v, sd_val *node)
{
    sd_val *alts = sd_val_object_get(node, "alternatives"), *a, *o;
    sd_val *list = sd_val_object_get(node, "md_constraints");
    size_t i, j;
    if (!sd_val_array_size(alts))
        return;
    if (!sd_val_is_array(list)) {
        list = sd_val_array();
        sd_val_object_set_new_nocheck(node, "md_constraints", list);
    }
    sd_val_array_foreach(alts, i, a) {
        const char *kind = str(a, "alt_kind");
        sd_buf_clear(&v->tmp);
        sd_buf_puts(&v->tmp, kind && !strcmp(kind, "Exactly one of") ? "exactly one of: " : "at least one of: ");
        sd_val_array_foreach(sd_val_object_get(a, "options"), j, o) {
            const char *t = str(o, "option_title");
            if (j)
                sd_buf_puts(&v->tmp, ", ");
            sd_render__md_code(&v->tmp, t ? t : "option", t ? strlen(t) : 6);
        }
        sd_val_array_append_new(list, sd_val_stringn(v->tmp.ptr, v->tmp.len));
    }
    sd_val_object_set_new_nocheck(node, "has_details", sd_val_true());
}

static const char *rel_path(walk *w, sd_val *node)
{
    const char *p = str(node, "path");
    size_t n = w->strip ? strlen(w->strip) : 0;
    if (!p)
        return "";
    if (n && strncmp(p, w->strip, n) == 0 && (p[n] == '.' || p[n] == '[' || p[n] == '\0'))
        return p[n] == '.' ? p + n + 1 : p + n;
    return p;
}

static void walk_node(walk *w, sd_val *node, int depth, const char *label, const char *anchor_base)
{
    sd_val *x, *list;
    size_t i;

    if (!sd_val_is_object(node))
        return;
    /* the view adds 4-9 fields to a node for html, 6-12 for md (the corpus
     * charts): room for most of them at once, where growing a step at a time
     * moved the members twice and left two arrays behind */
    sd_val_object_reserve(node, w->v->html ? 8 : 10);
    /* the node's key on the path the secret rule reads (branches have none) */
    const char *mykey = str(node, "key");
    int pushed = w->v->secrets && mykey && sd_render__key_push(w->v, mykey) == 0;
    anchor_for(w, node, anchor_base);
    sd_val_array_append(w->entries, node);
    sd_render__decorate(w->v, node, label && !str(node, "key") ? "" : rel_path(w, node), depth, label);
    if (label && !str(node, "key")) {
        /* a branch: show the parent's path */
        set_str(node, "display", rel_path(w, node));
    }
    if (has_children(node))
        sd_val_object_set_new_nocheck(node, "has_children", sd_val_true());
    if (w->branch && str(node, "key"))
        set_str(node, "branch_label", w->branch);   /* md details say which branch */

    /* the node's anchor, held while its children are walked */
    sd_val *anchor = sd_val_incref(sd_val_object_get(node, "anchor"));
    const char *basecopy = sd_val_is_string(anchor) ? sd_val_string_value(anchor) : "node";
    const char *outer = w->branch;
    char *mylabel = label && !str(node, "key") ? strdup(label) : NULL;
    if (mylabel)
        w->branch = mylabel;

    sd_val_array_foreach(sd_val_object_get(node, "properties"), i, x)
        walk_node(w, x, depth + 1, NULL, NULL);
    if ((list = sd_val_object_get(node, "allOf")) && sd_val_is_array(list)) {
        sd_val *inc = sd_val_array();
        sd_val_array_foreach(list, i, x) {
            sd_val *y;
            size_t j;
            const char *ref = str(x, "ref");
            sd_val *def = ref ? sd_val_object_get(w->v->defs, ref) : NULL;
            if (def && !sd_val_object_get(x, "properties")) {
                sd_val *a = sd_val_object_get(def, "anchor");
                sd_val_array_append_new(inc, sd_val_objectv(2, "include_anchor", a ? sd_val_incref(a) : sd_val_string(ref),
                                                     "include_name", sd_val_string(str(def, "name") ? str(def, "name") : ref)));
            } else if (merge_branch(x)) {
                sd_val_array_foreach(sd_val_object_get(x, "properties"), j, y)
                    walk_node(w, y, depth + 1, NULL, NULL);
            } else {
                char lab[32], ab[600];
                snprintf(lab, sizeof lab, "all of, part %d", (int)i + 1);
                snprintf(ab, sizeof ab, "%.500s/allOf-%d", basecopy, (int)i + 1);
                walk_node(w, x, depth + 1, lab, ab);
            }
        }
        if (sd_val_array_size(inc))
            sd_val_object_set_new_nocheck(node, "includes", inc);
        else
            sd_val_decref(inc);
    }
    if ((list = sd_val_object_get(node, "oneOf"))) {
        walk_list(w, list, depth + 1, "option %d (one of)", basecopy);
        alternatives(node, "oneOf", "Exactly one of");
    }
    if ((list = sd_val_object_get(node, "anyOf"))) {
        walk_list(w, list, depth + 1, "option %d (any of)", basecopy);
        alternatives(node, "anyOf", "At least one of");
    }
    if (w->v->md)
        md_alternatives(w->v, node);
    sd_val_array_foreach(sd_val_object_get(node, "patternProperties"), i, x) {
        const char *p = str(x, "pattern");
        sd_buf lab = SD_BUF_INIT, ab = SD_BUF_INIT;
        sd_buf_printf(&lab, "keys matching %s", p ? p : "?");
        sd_buf_printf(&ab, "%s/pattern-%d", basecopy, (int)i + 1);
        walk_node(w, sd_val_object_get(x, "node"), depth + 1, lab.ptr, ab.ptr);
        sd_buf_release(&lab);
        sd_buf_release(&ab);
    }
    if ((x = sd_val_object_get(node, "additionalProperties")) && sd_val_is_object(x))
        walk_node(w, x, depth + 1, NULL, NULL);
    if ((x = sd_val_object_get(node, "items")) && sd_val_is_object(x))
        walk_node(w, x, depth + 1, NULL, NULL);
    sd_val_array_foreach(sd_val_object_get(node, "prefixItems"), i, x)
        walk_node(w, x, depth + 1, NULL, NULL);
    sd_val_array_foreach(sd_val_object_get(node, "elements"), i, x)
        walk_node(w, x, depth + 1, NULL, NULL);
    {
        static const char *const conds[][2] = {
            { "if", "if the value matches" }, { "then", "then it must match" },
            { "else", "otherwise it must match" }, { "not", "must not match" },
            { "contains", "some item matches" }
        };
        for (size_t k = 0; k < sizeof conds / sizeof conds[0]; k++) {
            if ((x = sd_val_object_get(node, conds[k][0])) && sd_val_is_object(x) && sd_val_object_get(x, "id")) {
                char ab[600];
                snprintf(ab, sizeof ab, "%.500s/%s", basecopy, conds[k][0]);
                walk_node(w, x, depth + 1, conds[k][1], ab);
                sd_val_object_set_new_nocheck(node, "has_conditions", sd_val_true());
            }
        }
    }
    w->branch = outer;
    free(mylabel);
    sd_val_decref(anchor);
    if (pushed)
        sd_render__key_pop(w->v);
}

/* --- sections ------------------------------------------------------------------ */

static sd_val *new_section(sd_val *group, const char *title, const char *anchor_src, view *v)
{
    sd_val *s = sd_val_object(), *tmp = sd_val_object();
    set_str(s, "section_title", title);
    if (anchor_src) {
        sd_buf b = SD_BUF_INIT;
        sd_buf_printf(&b, "sec-%s", anchor_src);
        sd_render__make_anchor(v, tmp, b.ptr);
        sd_buf_release(&b);
        sd_val_object_set_nocheck(s, "section_anchor", sd_val_object_get(tmp, "anchor"));
    }
    sd_val_decref(tmp);
    sd_val_object_set_new_nocheck(s, "entries", sd_val_array());
    sd_val_array_append_new(sd_val_object_get(group, "sections"), s);
    return s;
}

static sd_val *new_group(sd_val *view_groups, const char *title, view *v)
{
    sd_val *g = sd_val_objectv(2, "group_title", sd_val_string(title), "sections", sd_val_array());
    sd_buf b = SD_BUF_INIT;
    sd_buf_printf(&b, "group-%s", title);
    sd_render__make_anchor(v, g, b.ptr);
    sd_val_object_set_nocheck(g, "group_anchor", sd_val_object_get(g, "anchor"));
    sd_val_object_del(g, "anchor");
    sd_buf_release(&b);
    sd_val_array_append_new(view_groups, g);
    return g;
}

/* The top-level keys of `root`, one section each, or grouped by their
 * helm-docs/Bitnami section when the chart uses sections. */
static void tree_sections(view *v, sd_val *groups, sd_val *root, const char *group_title,
                          const char *anchor_prefix, const char *strip)
{
    sd_val *props = sd_val_object_get(root, "properties"), *x, *g;
    walk w = { v, NULL, anchor_prefix, strip, NULL };
    size_t i;
    int any_section = 0;

    if (!sd_val_is_object(root))
        return;
    sd_val_array_foreach(props, i, x)
        if (str(x, "section") && *str(x, "section"))
            any_section = 1;
    if (sd_val_object_size(v->sections))
        any_section = 1;
    g = new_group(groups, group_title, v);
    if (sd_val_object_get(root, "description_html") == NULL && str(root, "description") && *str(root, "description")) {
        if (v->html) {
            sd_render__description_html(&v->tmp, str(root, "description"), strlen(str(root, "description")));
            set_buf(g, "group_description_html", &v->tmp);
        }
    }
    if (!sd_val_array_size(props)) {
        /* A root without properties is documented as one entry. */
        if (has_children(root) || sd_val_array_size(sd_val_object_get(root, "type")) || flag(root, "has_default")) {
            sd_val *s = new_section(g, "(root)", anchor_prefix ? anchor_prefix : "root", v);
            w.entries = sd_val_object_get(s, "entries");
            walk_node(&w, root, 0, NULL, anchor_prefix ? anchor_prefix : "root");
        }
        return;
    }
    if (any_section) {
        /* Each entry goes to the section of its row (rows name the leaf
         * keys); an entry without a row follows the next one that has one
         * within the same top-level key, else the previous. */
        sd_val *by = sd_val_object(), *tmp = sd_val_array(), *e;   /* section name -> section */
        size_t j;
        sd_val_array_foreach(props, i, x) {
            const char *cur = NULL;
            sd_val_array_clear(tmp);
            w.entries = tmp;
            walk_node(&w, x, 0, NULL, NULL);
            sd_val_array_foreach(tmp, j, e) {
                const char *name = str(v->sections, str(e, "id") ? str(e, "id") : "");
                sd_val *s;
                size_t k;
                if (!name || !*name) {
                    name = NULL;
                    for (k = j + 1; k < sd_val_array_size(tmp) && !name; k++)
                        name = str(v->sections, str(sd_val_array_get(tmp, k), "id") ? str(sd_val_array_get(tmp, k), "id") : "");
                    if (cur)
                        name = cur;
                    if (!name || !*name)
                        name = str(e, "section") && *str(e, "section") ? str(e, "section") : "Other values";
                }
                cur = name;
                if (!(s = sd_val_object_get(by, name))) {
                    s = new_section(g, name, name, v);
                    sd_val_object_set_new_nocheck(s, "section_named", sd_val_true());
                    sd_val_object_set(by, name, s);
                }
                sd_val_array_append(sd_val_object_get(s, "entries"), e);
            }
        }
        sd_val_decref(tmp);
        sd_val_decref(by);
    } else {
        sd_val_array_foreach(props, i, x) {
            const char *k = str(x, "key");
            sd_val *s = new_section(g, k ? k : "(value)", NULL, v);
            w.entries = sd_val_object_get(s, "entries");
            walk_node(&w, x, 0, NULL, NULL);
            /* the section links to its first entry */
            sd_val_object_set_nocheck(s, "section_anchor", sd_val_object_get(x, "anchor"));
        }
    }
    /* `rest` keeps the non-property children of the root (additionalProperties...) */
}

static void definition_sections(view *v, sd_val *groups, sd_val *defs)
{
    sd_val *d, *g;
    size_t i;

    if (!sd_val_is_array(defs) || !sd_val_array_size(defs))
        return;
    /* Anchors first, so that refs anywhere can link to them. */
    sd_val_array_foreach(defs, i, d) {
        const char *id = str(d, "id");
        sd_render__make_anchor(v, d, id ? id : "def");
        if (id)
            sd_val_object_set(v->defs, id, d);
    }
    g = new_group(groups, "Definitions", v);
    sd_val_object_set_new_nocheck(g, "group_definitions", sd_val_true());
    sd_val_array_foreach(defs, i, d) {
        sd_val *s = sd_val_object(), *a = sd_val_object_get(d, "anchor");
        const char *name = str(d, "name") ? str(d, "name") : str(d, "id");
        walk w = { v, NULL, NULL, NULL, NULL };
        set_str(s, "section_title", name ? name : "definition");
        /* TOC label: "io.k8s.api.core.v1.Pod" reads as "Pod" with "core.v1" beside it. */
        size_t nl = name ? strlen(name) : 0;
        int file = (nl > 5 && !strcmp(name + nl - 5, ".json")) || (nl > 5 && !strcmp(name + nl - 5, ".yaml")) ||
                   (nl > 4 && !strcmp(name + nl - 4, ".yml")) || (name && (strchr(name, ' ') || strchr(name, '/')));
        if (name && strchr(name, '.') && !file) {
            const char *last = strrchr(name, '.'), *p = last;
            int dots = 0;
            while (p > name && dots < 2)
                if (*--p == '.')
                    dots++;
            if (*p == '.')
                p++;
            set_str(s, "section_short", last + 1);
            if (p < last) {
                sd_val_object_set_new_nocheck(s, "section_prefix", sd_val_stringn(p, (size_t)(last - p)));
            }
        }
        sd_val_object_set_nocheck(s, "section_anchor", a);
        sd_val_object_set_new_nocheck(s, "section_definition", sd_val_true());
        sd_val_object_set_new_nocheck(s, "entries", sd_val_array());
        sd_val_array_append_new(sd_val_object_get(g, "sections"), s);
        w.entries = sd_val_object_get(s, "entries");
        w.prefix = sd_val_string_value(a);
        w.strip = str(d, "path");
        /* The definition itself is the first entry, keeping its anchor. */
        sd_val_array_append(w.entries, d);
        sd_render__decorate(v, d, name, 0, NULL);
        sd_val_object_set_new_nocheck(d, "is_definition", sd_val_true());
        if (has_children(d))
            sd_val_object_set_new_nocheck(d, "has_children", sd_val_true());
        sd_val *x;
        size_t j;
        sd_val_array_foreach(sd_val_object_get(d, "properties"), j, x)
            walk_node(&w, x, 1, NULL, NULL);
        static const char *const more[] = { "items", "additionalProperties", NULL };
        for (const char *const *m = more; *m; m++)
            if ((x = sd_val_object_get(d, *m)) && sd_val_is_object(x))
                walk_node(&w, x, 1, NULL, NULL);
        static const char *const alts[][2] = { { "oneOf", "option %d (one of)" }, { "anyOf", "option %d (any of)" }, { "allOf", "all of, part %d" } };
        for (size_t k = 0; k < 3; k++)
            if ((x = sd_val_object_get(d, alts[k][0]))) {
                walk_list(&w, x, 1, alts[k][1], sd_val_string_value(a));
                if (k < 2)
                    alternatives(d, alts[k][0], k ? "At least one of" : "Exactly one of");
            }
    }
}

int sd_render_view(sd_val *model, int markup)
{
    return sd_render__view(model, markup, 1);
}

int sd_render__view(sd_val *model, int markup, int yaml)
{
    int html = markup == SD_MARKUP_HTML, md = markup == SD_MARKUP_MD;
    view v = { markup, html, md, sd_val_object(), sd_val_object(), sd_val_object(), sd_val_object(), sd_val_object(), sd_val_object(),
               SD_BUF_INIT, SD_BUF_INIT,
               { SD_BUF_INIT, SD_BUF_INIT, sd_val_array(), sd_val_array(), SD_BUF_INIT,
                 markup == SD_MARKUP_ADOC ? sd_val_array() : NULL },
               0, yaml, 0, NULL, NULL, 0, 0, NULL };
    sd_val *groups = sd_val_array(), *versions, *x;
    size_t i;
    int err = 0;

    {
        const char *kind = str(sd_val_object_get(model, "source"), "kind");
        const sd_dialect *d = sd_dialect_find(str(sd_val_object_get(model, "source"), "dialect"));
        v.ytt = kind && !strcmp(kind, "ytt");
        v.placeholder_defaults = d && (d->flags & SD_DIALECT_PLACEHOLDER_DEFAULTS);
    }
    sd_render__page_meta(&v, model);
    if (html) {
        /* the page marks secrets and prints none in clear (secret_view.c);
         * without memory for the rule the page is not made */
        if (!(v.secrets = sd_secret_rule_new()))
            err = SD_ENOMEM;
        sd_render__secret_values_yaml(&v, model);
    }
    sd_val_array_foreach(sd_val_object_get(model, "rows"), i, x) {
        const char *id = str(x, "node"), *sec = str(x, "section");
        if (id && sec && *sec && !sd_val_object_get(v.sections, id)) {
            /* html prints the name as text: its &reg; must be decoded once */
            if (html)
                sd_render__decode_entities(&v.tmp, sec);
            sd_val_object_set_new(v.sections, id, sd_val_string(html ? v.tmp.ptr : sec));
        }
    }
    /* Definitions get their anchors first so that every ref can link. */
    {
        sd_val *tmpgroups = sd_val_array();
        definition_sections(&v, tmpgroups, sd_val_object_get(model, "definitions"));
        versions = sd_val_object_get(model, "versions");
        if (sd_val_is_array(versions) && sd_val_array_size(versions)) {
            sd_val_array_foreach(versions, i, x) {
                sd_buf t = SD_BUF_INIT;
                const char *name = str(x, "name");
                sd_buf_printf(&t, "Version %s", name ? name : "?");
                sd_val *b = sd_val_array();
                if (flag(x, "served")) sd_val_array_append_new(b, sd_val_string("served"));
                if (flag(x, "storage")) sd_val_array_append_new(b, sd_val_string("storage"));
                if (flag(x, "deprecated")) sd_val_array_append_new(b, sd_val_string("deprecated"));
                sd_val_object_set_new_nocheck(x, "version_badges", b);
                /* Markdown-safe text of the version's strings */
                static const char *const vcells[][2] = { { "name", "md_name" },
                                                         { "deprecationWarning", "md_deprecationWarning" } };
                for (size_t c = 0; c < 2; c++) {
                    const char *vs = str(x, vcells[c][0]);
                    if (vs && *vs) {
                        sd_buf mb = SD_BUF_INIT;
                        sd_render__md_text(&mb, vs, strlen(vs));
                        set_buf(x, vcells[c][1], &mb);
                        sd_buf_release(&mb);
                    }
                }
                tree_sections(&v, groups, sd_val_object_get(x, "root"), t.ptr,
                              sd_val_array_size(versions) > 1 ? name : NULL, NULL);
                sd_val *g = sd_val_array_get(groups, sd_val_array_size(groups) - 1);
                if (g) {
                    sd_val_object_set_nocheck(g, "group_version", x);
                    sd_val_object_set_nocheck(x, "version_anchor", sd_val_object_get(g, "group_anchor"));
                }
                sd_buf_release(&t);
            }
        } else {
            const char *kind = str(sd_val_object_get(model, "source"), "kind");
            tree_sections(&v, groups, sd_val_object_get(model, "root"),
                          kind && strcmp(kind, "chart") == 0 ? "Values" : "Properties", NULL, NULL);
        }
        sd_val_array_extend(groups, tmpgroups);
        sd_val_decref(tmpgroups);
    }
    /* TOC: the children of each top-level key, outside definitions. */
    sd_val_array_foreach(groups, i, x) {
        sd_val *sec, *e;
        size_t j, k;
        if (flag(x, "group_definitions"))
            continue;
        sd_val_array_foreach(sd_val_object_get(x, "sections"), j, sec) {
            sd_val *kids;
            if (flag(sec, "section_named"))
                continue;
            kids = sd_val_array();
            sd_val_array_foreach(sd_val_object_get(sec, "entries"), k, e) {
                const char *key = str(e, "key");
                if (sd_val_integer_value(sd_val_object_get(e, "depth")) == 1 && key && !sd_val_object_get(e, "label"))
                    sd_val_array_append_new(kids, sd_val_objectv(2, "toc_anchor", sd_val_incref(sd_val_object_get(e, "anchor")),
                                                          "toc_key", sd_val_string(key)));
            }
            if (sd_val_array_size(kids))
                sd_val_object_set_new_nocheck(sec, "section_children", kids);
            else
                sd_val_decref(kids);
        }
    }
    /* Drop empty groups (a schema that is only definitions). */
    for (i = sd_val_array_size(groups); i-- > 0; )
        if (!sd_val_array_size(sd_val_object_get(sd_val_array_get(groups, i), "sections")))
            sd_val_array_remove(groups, i);
    sd_val_object_set_new_nocheck(model, "groups", groups);
    if (md) {
        if (sd_val_array_size(sd_val_object_get(model, "rows"))) {
            sd_render__chart_rows(&v, model);
            sd_render__schema_keys(&v, model);
        }
        else
            sd_render__entry_rows(model);
        sd_render__details(model);
    }
    if (sd_buf_failed(&v.tmp) || sd_buf_failed(&v.tmp2) || sd_buf_failed(&v.c.html) || sd_buf_failed(&v.c.md) ||
        sd_buf_failed(&v.c.adoc))
        err = SD_ENOMEM;
    sd_secret_rule_free(v.secrets);
    sd_render__secret_memo_free(&v);
    free(v.keys);
    sd_val_decref(v.anchors);
    sd_val_decref(v.desc_html);
    sd_val_decref(v.default_html);
    sd_val_decref(v.desc_md);
    sd_val_decref(v.defs);
    sd_val_decref(v.sections);
    sd_val_decref(v.c.html_list);
    sd_val_decref(v.c.md_list);
    sd_val_decref(v.c.adoc_list);
    sd_buf_release(&v.c.adoc);
    sd_buf_release(&v.tmp);
    sd_buf_release(&v.tmp2);
    sd_buf_release(&v.c.html);
    sd_buf_release(&v.c.md);
    return err;
}
