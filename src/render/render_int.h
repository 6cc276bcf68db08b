/* SPDX-License-Identifier: Apache-2.0 */
/* render_int.h - internal to the renderer (view.c, decorate.c, constraints.c,
 * md_cells.c, meta.c): the view under construction, the JSON helpers and the
 * pieces each file gives the others. */
#ifndef SD_RENDER_INT_H
#define SD_RENDER_INT_H

#include "buf.h"
#include "render.h"
#include "val.h"

#include <string.h>

/* ---- JSON helpers ---------------------------------------------------------- */

static inline const char *str(sd_val *o, const char *k)
{
    sd_val *v = sd_val_object_get(o, k);     /* borrowed */
    return sd_val_is_string(v) ? sd_val_string_value(v) : NULL;
}

static inline int flag(sd_val *o, const char *k)
{
    return sd_val_is_true(sd_val_object_get(o, k));
}

/* (keys are literals or static tables' entries: kept by pointer) */
static inline void set_str(sd_val *o, const char *k, const char *s)
{
    sd_val_object_set_static(o, k, sd_val_string(s));
}

/* Set `k` to the buffer's text (taken) unless it is empty. */
static inline void set_buf(sd_val *o, const char *k, sd_buf *b)
{
    if (b->len && !sd_buf_failed(b))
        sd_val_object_set_static(o, k, sd_val_stringn(b->ptr, b->len));
    sd_buf_clear(b);
}

/* Remember `h` (taken) under the text `desc`: keyed by `node`'s own
 * "description" value when `desc` is its text (no copy of the text), else by
 * a copy. */
static inline void sd_render__memo(sd_val *memo, sd_val *node, const char *desc, sd_val *h)
{
    sd_val *d = sd_val_object_get(node, "description");
    if (sd_val_string_value(d) == desc)
        sd_val_object_set_new_strkey(memo, d, h);
    else
        sd_val_object_setn_new_nocheck(memo, desc, strlen(desc), h);
}

/* As set_buf(), sharing the string `same` (a memo's) when the buffer holds
 * exactly its text. */
static inline void set_buf_or(sd_val *o, const char *k, sd_buf *b, sd_val *same)
{
    if (same && !sd_buf_failed(b) && b->len == sd_val_string_length(same) &&
        memcmp(b->ptr, sd_val_string_value(same), b->len) == 0) {
        if (b->len)
            sd_val_object_set_static(o, k, sd_val_incref(same));
        sd_buf_clear(b);
    } else {
        set_buf(o, k, b);
    }
}

/** Compact JSON as helm-docs prints defaults (Go's json.Marshal: sorted keys). */
void sd_render__put_json(sd_buf *b, sd_val *v);

/* ---- constraints in words (constraints.c) --------------------------------------- */

/* Each constraint is written twice, as escaped HTML with <code> and as
 * Markdown with code spans, by the same calls. */
typedef struct cons {
    sd_buf html, md;
    sd_val *html_list, *md_list;
    sd_buf adoc;       /* the AsciiDoc words, only when `adoc_list` is set */
    sd_val *adoc_list;
} cons;

/** Append the constraints of `node` in words to c->html_list (HTML) and
 *  c->md_list (Markdown), one item per constraint. */
void sd_render__constraints(cons *c, sd_val *node);

/* ---- AsciiDoc (adoc.c) ------------------------------------------------------ */

/** Append `s` escaped so that AsciiDoc shows it as text: {{x}} of the adoc
 *  templates (outfmt.def's escape column). Line breaks become hard breaks. */
void sd_render__adoc_escape(sd_buf *b, const char *s, size_t n);
/** Append `s` as an AsciiDoc code span (monospace, escaped). */
void sd_render__adoc_code(sd_buf *b, const char *s, size_t n);
/** Make the anchor in `b` a valid AsciiDoc ID, in place ("sd-" prefix,
 *  other bytes as '_'); the caller keeps it unique. */
void sd_render__adoc_id(sd_buf *b);

/* ---- Markdown (md_cells.c) --------------------------------------------------- */

/** Table cell text: pipes escaped, line breaks as <br>. */
void sd_render__md_cell(sd_buf *b, const char *s, size_t n);
/** Append the Markdown `s` with what would be live when a viewer renders
 *  raw HTML (script-like elements, tags with event handlers or script URLs,
 *  links and autolinks to javascript:, vbscript: or data:) escaped so it
 *  shows as text, and a '<' that opens any tag at the start of a line (after
 *  blanks, '>' and list marks) escaped, so no line starts an HTML block; the
 *  rest (`<br>`, `<b>`, ordinary links) is kept. Also for helmdocs.c and
 *  readme_params.c. */
void sd_render__md_defang(sd_buf *b, const char *s, size_t n);
/** The same for a table cell (sd_render__md_cell next): no line of it is
 *  taken for code inside a fence, since in a cell every line is inline. */
void sd_render__md_defang_cell(sd_buf *b, const char *s, size_t n);
/** Plain text in Markdown: markup characters backslash-escaped, cell rules. */
void sd_render__md_text(sd_buf *b, const char *s, size_t n);
/** A key path cell, '<' and '>' escaped. */
void sd_render__md_key(sd_buf *b, const char *s);
/** A code span with a fence longer than any backtick run in the text
 *  (sd_buf_put_md_code, util/buf.c: the one writer, also diff_out.c's). */
static inline void sd_render__md_code(sd_buf *b, const char *s, size_t n)
{
    sd_buf_put_md_code(b, s, n, 0);
}
/** The description cell of `node` (marks, then `desc`) appended to `b`. */
struct view;
void sd_render__md_description(struct view *v, sd_buf *b, sd_val *node, const char *desc, sd_val **memo);

/* ---- the view (view.c, decorate.c) --------------------------------------- */

typedef struct view {
    int     markup;    /* enum sd_markup */
    int     html;      /* markup is HTML: description_html and the like */
    int     md;        /* markup is MD: md_* cells, the tables, the details */
    sd_val *anchors;   /* set of anchors handed out */
    sd_val *defs;      /* def id -> definition node (borrowed) */
    sd_val *sections;  /* node id -> section name, from the rows */
    sd_val *desc_html; /* description -> its HTML: one rendering each (the
                          Kubernetes definitions repeat a third of theirs) */
    sd_val *default_html; /* `@default` text -> its inline HTML */
    sd_val *desc_md;   /* description -> its defanged Markdown table cell */
    sd_buf  tmp, tmp2;
    cons    c;
    int     ytt;       /* a ytt schema: titles shown, several types listed */
    int     yaml;      /* make default_yaml and default_block (the templates
                          may read them): each is the node's whole default,
                          so a nested values file's would cost its size times
                          its depth */
    int     placeholder_defaults;   /* the chart's comment dialect writes
                          defaults that stand in for the value (Bitnami's
                          `[default: X]`; dialect.h): shown beside the real one */
    struct sd_secret_rule *secrets;   /* html: the secret rule (secret.h), or NULL */
    const char **keys; /* the keys of the nodes being walked, NULL for a list's
                          item (borrowed from the model): the path the rule reads */
    size_t  nkeys, keys_cap;
    struct secret_memo *memo; /* classifications made (secret_view.c), or NULL */
} view;

/** sd_render_view(), making default_yaml and default_block only when `yaml`. */
int sd_render__view(sd_val *model, int markup, int yaml);
/** Whether the view shows the subschemas under model member `k` (a
 *  keyword, or the model's `elements`) as entries of their own: 1 a list of
 *  them, 2 one, 0 neither. Static answer. tests/unit/test_keywords.c fails
 *  when a row of keywords.def that holds subschemas is neither shown here
 *  nor named there as left out (the model does not carry it). */
int sd_render__view_child(const char *k);

/** The secrets (secret_view.c): push the key of a node walked into (NULL
 *  or "[..]": a list's item; 0, or -1 when memory ran out), pop it; mark the
 *  node on top (the badge "secret", its default masked); mask the chart's
 *  values.yaml text (the page's "Default values"). */
int sd_render__key_push(view *v, const char *key);
void sd_render__key_pop(view *v);
void sd_render__secret_mark(view *v, sd_val *node);
/** Free the view's memo of secret classifications (secret_view.c). */
void sd_render__secret_memo_free(view *v);
void sd_render__secret_values_yaml(view *v, sd_val *model);
/** A unique, attribute-safe anchor for `node` from `base` (decorate.c). */
void sd_render__make_anchor(view *v, sd_val *node, const char *base);
/** Add the view's fields to one documented node (decorate.c): `display` is
 *  the key path shown, `depth` its level, `label` a branch's name or NULL. */
void sd_render__decorate(view *v, sd_val *node, const char *display, int depth, const char *label);
/** A description as sanitized HTML (md_to_html.c). */
void sd_render__description_html(sd_buf *b, const char *s, size_t n);
/* 1 when one line of text renders by cmark as <p>itself, escaped</p>:
 * sd_render__description_html() writes that without cmark. */
int sd_render__plain_text(const char *s, size_t n);
/** helm-docs' default cell of a node without a row (md_cells.c). */
void sd_render__md_default(view *v, sd_val *node);
/** The Markdown tables: the chart's rows, or the entries' (md_cells.c). */
void sd_render__chart_rows(view *v, sd_val *model);
void sd_render__entry_rows(sd_val *model);
/** Charts, md: the keys the table has no row for that the schema
 *  documents, grouped under the key that refers to them (md_cells.c). */
void sd_render__schema_keys(view *v, sd_val *model);
/** `s` with its HTML character references decoded, into `b` (cleared
 *  first) (md_cells.c). */
void sd_render__decode_entities(sd_buf *b, const char *s);
/** The entries that have a details section (md_cells.c). */
void sd_render__details(sd_val *model);
/** Page title, chart/CRD metadata, links checked (meta.c). */
void sd_render__page_meta(view *v, sd_val *model);

#endif
