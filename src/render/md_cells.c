/* SPDX-License-Identifier: Apache-2.0 */
/* md_cells.c - Markdown: the helm-docs and Bitnami parameter tables, the
 * details list and the schema's keys (docs/themes.md), written with the
 * escapes of md_escape.c. */
#include "render_int.h"
#include "entity.h"
#include "alloc.h"
#include "dialect.h"
#include "emit.h"
#include "md_to_html.h"
#include "sd.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Compact JSON as helm-docs prints defaults (Go's json.Marshal: sorted keys). */
void sd_render__put_json(sd_buf *b, sd_val *v)
{
    char *s = sd_val_dumps(v, SD_VAL_COMPACT | SD_VAL_ENCODE_ANY | SD_VAL_SORT_KEYS);
    if (s) {
        sd_buf_puts(b, s);
        free(s);
    } else {
        b->failed = SD_ENOMEM;
    }
}

/* helm-docs' default cell for a node without a row: JSON in backticks. */
void sd_render__md_default(view *v, sd_val *node)
{
    sd_buf *b = &v->tmp2;
    const char *dt = str(node, "default_text");
    sd_buf_clear(b);
    if (dt) {
        sd_buf d = SD_BUF_INIT;
        sd_render__md_defang_cell(&d, dt, strlen(dt));
        sd_render__md_cell(b, d.ptr, d.len);
        sd_buf_release(&d);
    } else if (flag(node, "has_default")) {
        sd_buf j = SD_BUF_INIT;
        sd_render__put_json(&j, sd_val_object_get(node, "default"));
        sd_render__md_code(&v->tmp, j.ptr, j.len);
        sd_render__md_cell(b, v->tmp.ptr, v->tmp.len);
        sd_buf_clear(&v->tmp);
        sd_buf_release(&j);
    }
    set_buf(node, "md_default", b);
}

/* Description cell: optional marks, then the Markdown with pipes and line
 * breaks escaped. */
void sd_render__md_description(view *v, sd_buf *b, sd_val *node, const char *desc, sd_val **memo)
{
    const char *title = str(node, "title_heading");
    size_t start = b->len;
    if (title && *title) {
        /* a ytt title: on its own line, above the rest of the cell */
        sd_buf_puts(b, "**");
        sd_render__md_text(b, title, strlen(title));   /* a title is text, not Markdown */
        sd_buf_puts(b, "**<br>");
        start = b->len;
    }
    if (flag(node, "removed")) {
        const char *r = str(node, "removal");
        sd_buf_puts(b, "**Removed");
        if (r && *r) {
            sd_buf_puts(b, ":** ");
            sd_render__md_cell(b, r, strlen(r));
            sd_buf_puts(b, " ");
        } else {
            sd_buf_puts(b, ".** ");
        }
    }
    if (flag(node, "required"))
        sd_buf_puts(b, "**Required.** ");
    if (flag(node, "deprecated")) {
        const char *d = str(node, "deprecation");
        sd_buf_puts(b, "**Deprecated");
        if (d && *d) {
            sd_buf_puts(b, ":** ");
            sd_buf t = SD_BUF_INIT;
            sd_render__md_defang_cell(&t, d, strlen(d));
            sd_render__md_cell(b, t.ptr, t.len);
            sd_buf_release(&t);
            sd_buf_puts(b, " ");
        } else {
            sd_buf_puts(b, ".** ");
        }
    }
    const char *unres = str(node, "ref_unresolved");
    if (unres) {
        sd_buf_puts(b, "**Unresolved reference:** ");
        sd_render__md_code(b, unres, strlen(unres));
        sd_buf_puts(b, " ");
    }
    if (desc) {
        /* the same description is a cell more than once (its entry, its
         * row) and in many nodes: defanged once */
        sd_val *m = v->desc_md ? sd_val_object_get(v->desc_md, desc) : NULL;
        if (!m) {
            sd_buf t = SD_BUF_INIT, c = SD_BUF_INIT;
            sd_render__md_defang_cell(&t, desc, strlen(desc));
            sd_render__md_cell(&c, t.ptr, t.len);
            sd_buf_release(&t);
            if (!sd_buf_failed(&c) && v->desc_md && (m = sd_val_stringn(c.ptr, c.len)))
                sd_render__memo(v->desc_md, node, desc, m);   /* takes the reference */
            else
                sd_buf_put(b, c.ptr, c.len);
            sd_buf_release(&c);
        }
        if (m)
            sd_buf_put(b, sd_val_string_value(m), sd_val_string_length(m));
        if (memo)
            *memo = m;
    }
    while (b->len && b->ptr[b->len - 1] == ' ')
        sd_buf_truncate(b, b->len - 1);
    if (b->len == start && title && *title)
        sd_buf_truncate(b, start - 4);  /* the title alone: no line break */
}

/* --- Markdown rows ----------------------------------------------------------- */

/* Charts: the model's rows, grouped by section in order of first use. */
void sd_render__chart_rows(view *v, sd_val *model)
{
    sd_val *rows = sd_val_object_get(model, "rows"), *r, *secs = sd_val_array(), *by = sd_val_object();
    /* the README conventions of the chart's comment dialect (dialect.h) */
    const sd_dialect *dialect = sd_dialect_find(str(sd_val_object_get(model, "source"), "dialect"));
    int code = dialect && (dialect->flags & SD_DIALECT_CODE_CELLS);
    size_t i;

    sd_val_array_foreach(rows, i, r) {
        const char *sec = str(r, "section"), *k = str(r, "key"), *t = str(r, "type");
        const char *d = str(r, "default_text"), *desc = str(r, "description");
        sd_val *s, *node = NULL, *memo = NULL;
        if (!sec || !*sec)
            sec = "";
        if (!(s = sd_val_object_get(by, sec))) {
            s = sd_val_objectv(2, "rows_title", sd_val_string(sec), "rows", sd_val_array());
            if (!*sec)
                sd_val_object_del(s, "rows_title");
            sd_val_object_set(by, sec, s);
            sd_val_array_append_new(secs, s);
        }
        if (str(r, "node"))
            node = NULL;   /* rows carry required/deprecated themselves */
        (void)node;
        sd_val *row = sd_val_object();
        if (code) {
            sd_render__md_code(&v->tmp2, k ? k : "", k ? strlen(k) : 0);
            sd_render__md_cell(&v->tmp, v->tmp2.ptr, v->tmp2.len);
            sd_buf_clear(&v->tmp2);
        } else {
            sd_render__md_key(&v->tmp, k ? k : "");
        }
        set_buf(row, "md_key", &v->tmp);
        if (t) {
            sd_render__md_defang_cell(&v->tmp2, t, strlen(t));
            sd_render__md_cell(&v->tmp, v->tmp2.ptr, v->tmp2.len);
            sd_buf_clear(&v->tmp2);
        }
        set_buf(row, "md_type", &v->tmp);
        if (d && code) {
            sd_render__md_code(&v->tmp2, d, strlen(d));
            sd_render__md_cell(&v->tmp, v->tmp2.ptr, v->tmp2.len);
            sd_buf_clear(&v->tmp2);
        } else if (d) {
            sd_render__md_defang_cell(&v->tmp2, d, strlen(d));
            sd_render__md_cell(&v->tmp, v->tmp2.ptr, v->tmp2.len);
            sd_buf_clear(&v->tmp2);
        }
        set_buf(row, "md_default", &v->tmp);
        if (str(r, "title") && !sd_val_object_get(r, "title_heading"))
            set_str(r, "title_heading", str(r, "title"));  /* a schema's title, with its description */
        sd_render__md_description(v, &v->tmp, r, desc, &memo);
        set_buf_or(row, "md_description", &v->tmp, memo);
        sd_val_array_append_new(sd_val_object_get(s, "rows"), row);
    }
    sd_val_decref(by);
    sd_val_object_set_new_nocheck(model, "row_sections", secs);
    set_str(model, "values_heading", "Values");
    if (dialect && dialect->view)   /* the templates' flag for the dialect's own table */
        sd_val_object_set_new(model, dialect->view, sd_val_true());
}

/* Schemas and CRDs: one table per section of entries (branches left out:
 * their path is their parent's). */
static void add_row(sd_val *rows, sd_val *e)
{
    /* branches share their parent's path; a root has none */
    if (sd_val_object_get(e, "label") || (!str(e, "key") && !flag(e, "is_definition")))
        return;
    sd_val *row = sd_val_object();
    sd_val *x;
    if ((x = sd_val_object_get(e, "md_key")))
        sd_val_object_set_nocheck(row, "md_key", x);
    if ((x = sd_val_object_get(e, "md_type")))
        sd_val_object_set_nocheck(row, "md_type", x);
    if ((x = sd_val_object_get(e, "md_default")))
        sd_val_object_set_nocheck(row, "md_default", x);
    if ((x = sd_val_object_get(e, "md_description")))
        sd_val_object_set_nocheck(row, "md_description", x);
    sd_val_array_append_new(rows, row);
}

/* Schemas, CRDs, ytt: one table for the tree (per CRD version when there
 * are several, per named section when there are sections) and one per
 * definition. */
void sd_render__entry_rows(sd_val *model)
{
    sd_val *groups = sd_val_object_get(model, "groups"), *g, *s, *e, *secs = sd_val_array();
    size_t i, j, k, tree_groups = 0;
    int props = 0, defs = 0;

    sd_val_array_foreach(groups, i, g)
        if (!flag(g, "group_definitions"))
            tree_groups++;
    sd_val_array_foreach(groups, i, g) {
        int is_defs = flag(g, "group_definitions");
        sd_val *rs = NULL, *rows = NULL;
        if (is_defs)
            defs = 1;
        else
            props = 1;
        sd_val_array_foreach(sd_val_object_get(g, "sections"), j, s) {
            if (!rs || is_defs || flag(s, "section_named")) {
                const char *t = is_defs || flag(s, "section_named") ? str(s, "section_title")
                              : tree_groups > 1 ? str(g, "group_title") : NULL;
                if (rs && sd_val_array_size(rows))
                    sd_val_array_append(secs, rs);
                sd_val_decref(rs);
                rs = sd_val_object();
                rows = sd_val_array();
                sd_val_object_set_new_nocheck(rs, "rows", rows);
                if (t)
                    set_str(rs, "rows_title", t);
                if (is_defs)
                    sd_val_object_set_new_nocheck(rs, "rows_definition", sd_val_true());
            }
            sd_val_array_foreach(sd_val_object_get(s, "entries"), k, e)
                add_row(rows, e);
        }
        if (rs && sd_val_array_size(rows))
            sd_val_array_append(secs, rs);
        sd_val_decref(rs);
    }
    sd_val_object_set_new_nocheck(model, "row_sections", secs);
    set_str(model, "values_heading", props && defs ? "Properties and definitions" :
                                     defs ? "Definitions" : "Properties");
}

/* An element of a list written in values.yaml (`features[0]`): its
 * schema location is the items schema's, documented once as `features[]`. */
static int is_element_path(const char *p)
{
    for (; p && *p; p++)
        if (p[0] == '[' && p[1] >= '0' && p[1] <= '9')
            return 1;
    return 0;
}

/* A fence for a fenced code block around `s`: three backticks, or one more
 * than its longest run of backticks, so no line of it can close the block. */
static void md_fence(sd_buf *b, const char *s)
{
    size_t run = 0, best = 0;
    for (; s && *s; s++) {
        run = *s == '`' ? run + 1 : 0;
        if (run > best)
            best = run;
    }
    for (size_t i = 0; i < (best < 3 ? 3 : best + 1); i++)
        sd_buf_putc(b, '`');
}

/* The Markdown forms of a details entry's chart strings (md_* fields; the
 * md template prints nothing raw): its key as a code span, example titles
 * as text and a fence no example can close, CEL and ytt rules as code
 * spans and their messages as text. */
static void md_detail_fields(sd_val *e)
{
    sd_buf n = SD_BUF_INIT;
    sd_val *x, *list;
    size_t i;
    const char *k = str(e, "details_key");

    sd_render__md_code(&n, k ? k : "", k ? strlen(k) : 0);
    set_buf(e, "md_details_key", &n);
    sd_val_array_foreach(sd_val_object_get(e, "example_list"), i, x) {
        const char *t = str(x, "example_title");
        sd_buf_clear(&n);
        if (t) {
            sd_render__md_text(&n, t, strlen(t));
            set_buf(x, "md_example_title", &n);
            sd_buf_clear(&n);
        }
        md_fence(&n, str(x, "yaml"));
        set_buf(x, "md_fence", &n);
    }
    static const char *const kinds[][2] = { { "cel_rules", "md_cel_rules" }, { "ytt_rule_list", "md_ytt_rules" } };
    for (size_t r = 0; r < 2; r++) {
        sd_val *rules = sd_val_object_get(e, kinds[r][0]);
        if (!sd_val_array_size(rules))
            continue;
        list = sd_val_array();
        sd_val_array_foreach(rules, i, x) {
            const char *rule = str(x, "rule"), *msg = str(x, "message");
            sd_val *o = sd_val_object();
            sd_buf_clear(&n);
            sd_render__md_code(&n, rule ? rule : "", rule ? strlen(rule) : 0);
            set_buf(o, "md_rule", &n);
            if (msg && *msg) {
                sd_buf_clear(&n);
                sd_render__md_text(&n, msg, strlen(msg));
                set_buf(o, "md_message", &n);
            }
            sd_val_array_append_new(list, o);
        }
        sd_val_object_set_new(e, kinds[r][1], list);
    }
    sd_buf_release(&n);
}

/* Entries with examples, constraints, rules or long descriptions: one per
 * schema location (the first path that reaches it; list elements give way
 * to the items schema), each with its full path, the definition it sits
 * in and the branch it belongs to. */
void sd_render__details(sd_val *model)
{
    sd_val *groups = sd_val_object_get(model, "groups"), *g, *s, *e, *list = sd_val_array();
    sd_val *seen = sd_val_object();
    size_t i, j, k;
    for (int pass = 0; pass < 2; pass++)
        sd_val_array_foreach(groups, i, g)
            sd_val_array_foreach(sd_val_object_get(g, "sections"), j, s)
                sd_val_array_foreach(sd_val_object_get(s, "entries"), k, e) {
                    const char *at = str(e, "defined_at"), *path = str(e, "path");
                    const char *disp = str(e, "display");
                    int def_group = flag(g, "group_definitions");
                    if (!flag(e, "has_details") || is_element_path(disp) != pass)
                        continue;
                    sd_val *first = at ? sd_val_object_get(seen, at) : NULL;
                    if (first) {
                        /* the same schema location reached by another path
                         * (a YAML alias, a shared $ref): named, not repeated */
                        if (!pass && disp && strcmp(disp, str(first, "details_key") ? str(first, "details_key") : "")) {
                            sd_buf n = SD_BUF_INIT;
                            const char *old = str(first, "md_details_also");
                            sd_buf_puts(&n, old ? old : "");
                            if (old)
                                sd_buf_puts(&n, ", ");
                            sd_render__md_code(&n, disp, strlen(disp));
                            set_str(first, "md_details_also", n.ptr);
                            sd_buf_release(&n);
                        }
                        continue;
                    }
                    if (at)
                        sd_val_object_set(seen, at, e);
                    /* inside a definition: the definition's own path, and its name */
                    if (def_group && !flag(e, "is_definition") && path && *path) {
                        set_str(e, "details_key", path);
                        sd_buf n = SD_BUF_INIT;
                        const char *def = str(s, "section_title") ? str(s, "section_title") : "?";
                        sd_buf_puts(&n, "in definition ");
                        sd_render__md_code(&n, def, strlen(def));   /* a $defs name: the chart's */
                        set_str(e, "details_note", n.ptr);
                        sd_buf_release(&n);
                    } else {
                        set_str(e, "details_key", disp ? disp : "");
                    }
                    if (str(e, "branch_name") && !str(e, "key")) {
                        /* the branch itself */
                        const char *bl = str(e, "branch_name"), *par = strrchr(bl, '(');
                        sd_buf n = SD_BUF_INIT;
                        sd_buf_puts(&n, "branch ");
                        sd_render__md_code(&n, bl, par && par > bl ? (size_t)(par - bl - 1) : strlen(bl));
                        if (par && par > bl) {
                            sd_buf_putc(&n, ' ');
                            sd_render__md_text(&n, par, strlen(par));
                        }
                        set_str(e, "details_note", n.ptr);
                        sd_buf_release(&n);
                    } else if (str(e, "branch_label")) {
                        sd_buf n = SD_BUF_INIT;
                        const char *old = str(e, "details_note"), *bl = str(e, "branch_label");
                        const char *par = strrchr(bl, '(');
                        int alt = par && (!strcmp(par, "(one of)") || !strcmp(par, "(any of)"));
                        size_t bn = alt && par > bl ? (size_t)(par - bl - 1) : strlen(bl);
                        if (!alt)
                            par = NULL;   /* if/then/else, allOf parts: "under `then it must match`" */
                        sd_buf_printf(&n, "%s%s%s ", old ? old : "", old ? ", " : "", alt ? "in branch" : "under");
                        sd_render__md_code(&n, bl, bn);
                        if (par && par > bl)
                            sd_buf_printf(&n, " %s", par);
                        set_str(e, "details_note", n.ptr);
                        sd_buf_release(&n);
                    }
                    md_detail_fields(e);
                    sd_val_array_append(list, e);
                }
    sd_val_decref(seen);
    if (sd_val_array_size(list))
        sd_val_object_set_new_nocheck(model, "details", list);
    else
        sd_val_decref(list);
    /* the row sections' titles, headings: a $defs name is text; a section
     * name is Markdown (Bitnami's `## @section` names write code spans),
     * defanged as descriptions are and kept on one line */
    sd_val_array_foreach(sd_val_object_get(model, "row_sections"), i, s) {
        const char *t = str(s, "rows_title");
        sd_buf n = SD_BUF_INIT, line = SD_BUF_INIT;
        if (!t)
            continue;
        if (flag(s, "rows_definition")) {
            sd_render__md_text(&n, t, strlen(t));
        } else {
            for (const char *c = t; *c; c++)
                sd_buf_putc(&line, *c == '\n' || *c == '\r' ? ' ' : *c);
            sd_render__md_defang(&n, line.ptr, line.len);
        }
        set_buf(s, "md_rows_title", &n);
        sd_buf_release(&n);
        sd_buf_release(&line);
    }
}

/* --- keys only the schema documents (charts, md) ------------------------------ */

/* "a.b[0].c" -> "a.b[].c": a row of a list element stands for the items. */
static void normalize_path(sd_buf *b, const char *p)
{
    sd_buf_clear(b);
    for (; *p; p++) {
        if (p[0] == '[' && p[1] >= '0' && p[1] <= '9') {
            const char *q = p + 1;
            while (*q >= '0' && *q <= '9')
                q++;
            if (*q == ']') {
                sd_buf_puts(b, "[]");
                p = q;
                continue;
            }
        }
        sd_buf_putc(b, *p);
    }
}

typedef struct skeys {
    view   *v;
    sd_val *covered;   /* normalized row keys -> true */
    sd_val *inner;     /* their proper prefixes -> true */
    sd_val *expanded;  /* definition id -> the path that listed it */
    sd_val *groups;    /* [{md_group_key, md_group_note?, rows}] */
    sd_val *group;     /* the group rows are added to */
    const char *branch;/* the oneOf/anyOf branch walked, or NULL */
    const char *pattern;/* the patternProperties pattern of the row, or NULL */
    sd_buf  tmp;
} skeys;

static void sk_walk(skeys *k, sd_val *node, const char *path, int depth);

static sd_val *sk_group(skeys *k, const char *path, sd_val *def, const char *same_as)
{
    sd_val *g = sd_val_object();
    sd_buf_clear(&k->tmp);
    sd_render__md_code(&k->tmp, path, strlen(path));
    set_buf(g, "md_group_key", &k->tmp);
    if (def) {
        const char *name = str(def, "name") ? str(def, "name") : str(def, "key");
        const char *d = str(def, "description");
        sd_buf_clear(&k->tmp);
        if (same_as) {
            sd_buf_puts(&k->tmp, "The same keys as ");
            sd_render__md_code(&k->tmp, same_as, strlen(same_as));
            sd_buf_puts(&k->tmp, " (definition ");
            sd_render__md_code(&k->tmp, name ? name : "?", name ? strlen(name) : 1);
            sd_buf_puts(&k->tmp, ").");
            set_str(g, "same_as", same_as);
        } else {
            sd_buf_puts(&k->tmp, "Definition ");
            sd_render__md_code(&k->tmp, name ? name : "?", name ? strlen(name) : 1);
            if (d && *d) {
                sd_buf_puts(&k->tmp, ": ");
                sd_render__md_defang(&k->tmp, d, strlen(d));   /* Markdown, defanged as descriptions are */
            }
        }
        set_buf(g, "md_group_note", &k->tmp);
    }
    set_str(g, "group_path", path);
    sd_val_object_set_new_nocheck(g, "rows", sd_val_array());
    sd_val_array_append_new(k->groups, g);
    return g;
}

static void sk_row(skeys *k, sd_val *node, const char *path)
{
    sd_val *row = sd_val_object(), *c, *x;
    size_t i;
    const char *tt = str(node, "type_text"), *ht = str(node, "helm_type");
    if (!k->group) {
        /* grouped under the top-level key */
        sd_buf top = SD_BUF_INIT;
        size_t n = strcspn(path, ".[");
        sd_buf_put(&top, path, n);
        k->group = sk_group(k, top.ptr, NULL, NULL);
        sd_buf_release(&top);
    }
    sd_buf_clear(&k->tmp);
    sd_render__md_key(&k->tmp, path);
    set_buf(row, "md_key", &k->tmp);
    tt = tt && *tt ? tt : ht ? ht : "";
    if (str(node, "k8s_url"))
        sd_buf_putc(&k->tmp, '[');   /* a Kubernetes type links to the API reference */
    sd_render__md_cell(&k->tmp, tt, strlen(tt));
    if (str(node, "k8s_url"))
        sd_buf_printf(&k->tmp, "](%s)", str(node, "k8s_url"));
    set_buf(row, "md_type", &k->tmp);
    c = sd_val_object_get(node, "md_constraints");
    if (k->branch) {
        const char *par = strrchr(k->branch, '(');
        sd_buf_puts(&k->tmp, "only in branch ");
        sd_render__md_code(&k->tmp, k->branch, par && par > k->branch ? (size_t)(par - k->branch - 1)
                                                                     : strlen(k->branch));
        if (par && par > k->branch)
            sd_render__md_cell(&k->tmp, par - 1, strlen(par - 1));
    }
    if (k->pattern) {
        if (k->branch)
            sd_buf_puts(&k->tmp, "; ");
        sd_buf_puts(&k->tmp, "keys matching ");
        sd_render__md_code(&k->tmp, k->pattern, strlen(k->pattern));
    }
    sd_val_array_foreach(c, i, x) {
        if (i || k->branch || k->pattern)
            sd_buf_puts(&k->tmp, "; ");
        sd_render__md_cell(&k->tmp, sd_val_string_value(x), sd_val_string_length(x));
    }
    set_buf(row, "md_constraints", &k->tmp);
    if (str(node, "md_description"))
        set_str(row, "md_description", str(node, "md_description"));
    else
        set_str(row, "md_description", "");
    sd_val_array_append_new(sd_val_object_get(k->group, "rows"), row);
}

/* The child `c` (key `key`) of the node at `path`. */
static void sk_child(skeys *k, sd_val *c, const char *path, const char *key, int depth)
{
    sd_buf cp = SD_BUF_INIT, norm = SD_BUF_INIT;
    if (!strcmp(key, "[]"))
        sd_buf_printf(&cp, "%s[]", path);
    else if (strchr(key, '.') || strchr(key, ' '))
        sd_buf_printf(&cp, "%s%s\"%s\"", path, *path ? "." : "", key);
    else
        sd_buf_printf(&cp, "%s%s%s", path, *path ? "." : "", key);
    normalize_path(&norm, cp.ptr);
    if (!sd_val_object_get(k->covered, norm.ptr) && !sd_val_object_get(k->inner, norm.ptr) &&
        str(c, "defined_at"))
        sk_row(k, c, cp.ptr);
    sk_walk(k, c, cp.ptr, depth + 1);
    sd_buf_release(&cp);
    sd_buf_release(&norm);
}

static void sk_walk(skeys *k, sd_val *node, const char *path, int depth)
{
    static const char *const branches[] = { "allOf", "anyOf", "oneOf", NULL };
    const char *ref = str(node, "ref");
    sd_val *def = ref ? sd_val_object_get(k->v->defs, ref) : NULL, *x, *y, *saved = k->group;
    size_t i;

    if (!sd_val_is_object(node) || depth > 32 || flag(node, "recursive"))
        return;
    if (def && *path) {
        const char *prev = str(k->expanded, ref);
        if (prev) {
            /* a shared definition is listed once; later uses point there */
            if (strcmp(prev, path))
                sk_group(k, path, def, prev);
            return;
        }
        sd_val_object_set_new(k->expanded, ref, sd_val_string(path));
        k->group = sk_group(k, path, def, NULL);
    }
    sd_val_array_foreach(sd_val_object_get(node, "properties"), i, x)
        if (str(x, "key"))
            sk_child(k, x, path, str(x, "key"), depth);
    if (def) {
        /* the definition's keys that the node itself does not list */
        sd_val_array_foreach(sd_val_object_get(def, "properties"), i, x) {
            const char *key = str(x, "key");
            sd_val *y;
            size_t j;
            int have = 0;
            sd_val_array_foreach(sd_val_object_get(node, "properties"), j, y)
                if (key && str(y, "key") && !strcmp(str(y, "key"), key))
                    have = 1;
            if (key && !have)
                sk_child(k, x, path, key, depth);
        }
    }
    x = sd_val_object_get(node, "items");
    if (!sd_val_is_object(x) && def)
        x = sd_val_object_get(def, "items");
    if (sd_val_is_object(x))
        sk_child(k, x, path, "[]", depth);
    /* the schema of any other key (`resources.limits.*`), as html lists it */
    x = sd_val_object_get(node, "additionalProperties");
    if (!sd_val_is_object(x) && def)
        x = sd_val_object_get(def, "additionalProperties");
    if (sd_val_is_object(x))
        sk_child(k, x, path, "*", depth);
    x = sd_val_object_get(node, "patternProperties");
    if (!sd_val_is_array(x) && def)
        x = sd_val_object_get(def, "patternProperties");
    sd_val_array_foreach(x, i, y) {
        const char *outer = k->pattern;
        k->pattern = str(y, "pattern");
        if (sd_val_is_object(sd_val_object_get(y, "node")))
            sk_child(k, sd_val_object_get(y, "node"), path, "*", depth);
        k->pattern = outer;
    }
    for (const char *const *b = branches; *b; b++)
        sd_val_array_foreach(sd_val_object_get(node, *b), i, x) {
            const char *outer = k->branch;
            if (str(x, "branch_name"))
                k->branch = str(x, "branch_name");
            sk_walk(k, x, path, depth + 1);
            k->branch = outer;
        }
    if (def && *path)
        k->group = saved;
}

void sd_render__schema_keys(view *v, sd_val *model)
{
    skeys k;
    sd_val *r, *x;
    size_t i;

    memset(&k, 0, sizeof k);
    k.v = v;
    k.covered = sd_val_object();
    k.inner = sd_val_object();
    k.expanded = sd_val_object();
    k.groups = sd_val_array();
    k.tmp = (sd_buf)SD_BUF_INIT;
    sd_val_array_foreach(sd_val_object_get(model, "rows"), i, r) {
        const char *key = str(r, "key");
        if (!key)
            continue;
        normalize_path(&k.tmp, key);
        sd_val_object_set_new(k.covered, k.tmp.ptr, sd_val_true());
        for (size_t n = k.tmp.len; n > 0; n--)
            if (k.tmp.ptr[n - 1] == '.' || k.tmp.ptr[n - 1] == '[') {
                char *p = strndup(k.tmp.ptr, n - 1);
                if (p && *p)
                    sd_val_object_set_new(k.inner, p, sd_val_true());
                free(p);
            }
    }
    sd_val_array_foreach(sd_val_object_get(sd_val_object_get(model, "root"), "properties"), i, x) {
        const char *key = str(x, "key");
        k.group = NULL;
        if (key)
            sk_child(&k, x, "", key, 0);
    }
    /* a group without rows says nothing (the definition's description of
     * a key with a row is in its details); nor does a pointer to one */
    {
        sd_val *kept = sd_val_object();
        for (i = 0; i < sd_val_array_size(k.groups); ) {
            sd_val *g = sd_val_array_get(k.groups, i);
            const char *same = str(g, "same_as");
            if (same ? !sd_val_object_get(kept, same) : !sd_val_array_size(sd_val_object_get(g, "rows"))) {
                sd_val_array_remove(k.groups, i);
                continue;
            }
            if (!same)
                sd_val_object_set_new(kept, str(g, "group_path"), sd_val_true());
            sd_val_object_del(g, "group_path");
            sd_val_object_del(g, "same_as");
            i++;
        }
        sd_val_decref(kept);
    }
    if (sd_val_array_size(k.groups))
        sd_val_object_set_nocheck(model, "schema_keys", k.groups);
    sd_val_decref(k.groups);
    sd_val_decref(k.covered);
    sd_val_decref(k.inner);
    sd_val_decref(k.expanded);
    sd_buf_release(&k.tmp);
}

/* HTML character references in plain text (Bitnami section names such as
 * "MongoDB(&reg;) parameters" are written for Markdown, where they are
 * decoded), as util/entity.c decodes schema titles. */
void sd_render__decode_entities(sd_buf *b, const char *s)
{
    sd_buf_clear(b);
    sd_entity_decode_buf(b, s);
}
