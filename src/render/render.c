/* render.c - model -> view model -> page. The view model is the model with
 * render-ready fields added in place (docs/themes.md): every documented node
 * gets an anchor, its default as YAML, its constraints in words, its
 * description as safe HTML and Markdown table cells; the top level gets
 * `groups` of `sections` of flattened `entries` (and `rows`) that Mustache
 * can iterate without recursion. render_page.c renders it with the
 * theme's templates; render_yaml.c writes defaults and examples. */
#include "render.h"
#include "emit.h"
#include "markdown.h"
#include "sd.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* --- small helpers ------------------------------------------------------- */

static const char *str(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);     /* borrowed */
    return json_is_string(v) ? json_string_value(v) : NULL;
}

static int flag(json_t *o, const char *k)
{
    return json_is_true(json_object_get(o, k));
}

static void set_str(json_t *o, const char *k, const char *s)
{
    json_object_set_new(o, k, json_string(s));
}

/* Set `k` to the buffer's text (taken) unless it is empty. */
static void set_buf(json_t *o, const char *k, sd_buf *b)
{
    if (b->len && !sd_buf_failed(b))
        json_object_set_new(o, k, json_stringn(b->ptr, b->len));
    sd_buf_clear(b);
}

/* Compact JSON as helm-docs prints defaults (Go's json.Marshal: sorted keys). */
static void put_json(sd_buf *b, json_t *v)
{
    char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_SORT_KEYS);
    if (s) {
        sd_buf_puts(b, s);
        free(s);
    } else {
        b->failed = SD_ENOMEM;
    }
}

/* --- Markdown cells ----------------------------------------------------------- */

/* Table cell text: pipes escaped, line breaks as <br>, so a cell never
 * breaks the table. */
static void md_cell(sd_buf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '|')
            sd_buf_puts(b, "\\|");
        else if (s[i] == '\r')
            ;
        else if (s[i] == '\n')
            sd_buf_puts(b, "<br>");
        else
            sd_buf_putc(b, s[i]);
    }
}

/* Plain text (not Markdown) in Markdown: punctuation that could start
 * markup or raw HTML is backslash-escaped (CommonMark §2.4), and the cell
 * rules apply. */
static void md_text(sd_buf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (strchr("\\`*_[]<>&!#", s[i]) && s[i])
            sd_buf_putc(b, '\\');
        md_cell(b, s + i, 1);
    }
}

/* A key path cell: as helm-docs writes it, but '<' and '>' escaped so a key
 * can never open raw HTML. */
static void md_key(sd_buf *b, const char *s)
{
    for (; *s; s++) {
        if (*s == '<' || *s == '>')
            sd_buf_putc(b, '\\');
        md_cell(b, s, 1);
    }
}

/* `text` as a Markdown code span, with a fence longer than any backtick run. */
static void md_code(sd_buf *b, const char *s, size_t n)
{
    size_t run = 0, best = 0;
    for (size_t i = 0; i < n; i++) {
        run = s[i] == '`' ? run + 1 : 0;
        if (run > best)
            best = run;
    }
    for (size_t i = 0; i <= best; i++)
        sd_buf_putc(b, '`');
    if (n && (s[0] == '`' || s[n - 1] == '`' || s[0] == ' '))
        sd_buf_putc(b, ' ');
    sd_buf_put(b, s, n);
    if (n && (s[0] == '`' || s[n - 1] == '`' || s[0] == ' '))
        sd_buf_putc(b, ' ');
    for (size_t i = 0; i <= best; i++)
        sd_buf_putc(b, '`');
}

/* --- constraints in words --------------------------------------------------- */

/* Each constraint is written twice, as escaped HTML with <code> and as
 * Markdown with code spans, by the same calls. */
typedef struct cons {
    sd_buf html, md;
    json_t *html_list, *md_list;
} cons;

static void c_text(cons *c, const char *s)
{
    sd_buf_put_escaped(&c->html, SD_ESC_HTML, s, strlen(s));
    sd_buf_puts(&c->md, s);
}

static void c_code(cons *c, const char *s, size_t n)
{
    sd_buf_puts(&c->html, "<code>");
    sd_buf_put_escaped(&c->html, SD_ESC_HTML, s, n);
    sd_buf_puts(&c->html, "</code>");
    md_code(&c->md, s, n);
}

/* A value as code: strings as written, anything else as JSON. */
static void c_value(cons *c, json_t *v)
{
    if (json_is_string(v)) {
        c_code(c, json_string_value(v), json_string_length(v));
    } else {
        sd_buf tmp = SD_BUF_INIT;
        put_json(&tmp, v);
        c_code(c, tmp.ptr, tmp.len);
        sd_buf_release(&tmp);
    }
}

static void c_num(cons *c, json_t *v)
{
    sd_buf tmp = SD_BUF_INIT;
    if (json_is_real(v))
        sd_emit_number(&tmp, json_real_value(v));   /* 2.0 reads as "2" here */
    else
        put_json(&tmp, v);
    c_text(c, tmp.ptr);
    sd_buf_release(&tmp);
}

static void c_end(cons *c)
{
    if (c->html.len) {
        json_array_append_new(c->html_list, json_pack("{s:s#}", "html", c->html.ptr, c->html.len));
        json_array_append_new(c->md_list, json_stringn(c->md.ptr, c->md.len));
    }
    sd_buf_clear(&c->html);
    sd_buf_clear(&c->md);
}

static void c_count(cons *c, json_t *k, const char *what)
{
    c_num(c, k);
    c_text(c, " ");
    c_text(c, what);
    if (!(json_is_integer(k) && json_integer_value(k) == 1))
        c_text(c, "s");
}

static void c_range(cons *c, json_t *cs, const char *lo_k, const char *hi_k,
                    const char *noun)
{
    json_t *lo = json_object_get(cs, lo_k), *hi = json_object_get(cs, hi_k);
    if (!json_is_number(lo) && !json_is_number(hi))
        return;
    if (json_is_number(lo) && json_is_number(hi) && json_number_value(lo) == json_number_value(hi)) {
        c_text(c, "exactly ");
        c_count(c, lo, noun);
    } else if (json_is_number(lo) && json_is_number(hi)) {
        c_num(c, lo);
        c_text(c, " to ");
        c_count(c, hi, noun);
    } else if (json_is_number(lo)) {
        c_text(c, "at least ");
        c_count(c, lo, noun);
    } else {
        c_text(c, "at most ");
        c_count(c, hi, noun);
    }
    c_end(c);
}

static void constraints(cons *c, json_t *node)
{
    json_t *cs = json_object_get(node, "constraints"), *v, *x;
    json_t *min = json_object_get(cs, "minimum"), *max = json_object_get(cs, "maximum");
    json_t *xmin = json_object_get(cs, "exclusiveMinimum"), *xmax = json_object_get(cs, "exclusiveMaximum");
    size_t i;

    /* Draft 4 writes exclusiveMinimum as a boolean beside minimum. */
    if (json_is_true(xmin)) { xmin = min; min = NULL; }
    if (json_is_true(xmax)) { xmax = max; max = NULL; }
    if (!json_is_number(xmin)) xmin = NULL;
    if (!json_is_number(xmax)) xmax = NULL;
    if (!json_is_number(min)) min = NULL;
    if (!json_is_number(max)) max = NULL;
    if (min || xmin || max || xmax) {
        if (min || xmin) {
            c_num(c, min ? min : xmin);
            c_text(c, min ? " \xe2\x89\xa4 " : " < ");
        }
        c_text(c, "value");
        if (max || xmax) {
            c_text(c, max ? " \xe2\x89\xa4 " : " < ");
            c_num(c, max ? max : xmax);
        }
        c_end(c);
    }
    if (json_is_number(v = json_object_get(cs, "multipleOf"))) {
        c_text(c, "multiple of ");
        c_num(c, v);
        c_end(c);
    }
    c_range(c, cs, "minLength", "maxLength", "character");
    if ((v = json_object_get(cs, "pattern")) && json_is_string(v)) {
        c_text(c, "matches ");
        c_value(c, v);
        c_end(c);
    }
    if ((v = json_object_get(cs, "format")) && json_is_string(v)) {
        c_text(c, "format ");
        c_value(c, v);
        c_end(c);
    }
    if ((v = json_object_get(cs, "contentEncoding")) && json_is_string(v)) {
        c_text(c, "encoded as ");
        c_value(c, v);
        c_end(c);
    }
    if ((v = json_object_get(cs, "contentMediaType")) && json_is_string(v)) {
        c_text(c, "media type ");
        c_value(c, v);
        c_end(c);
    }
    c_range(c, cs, "minItems", "maxItems", "item");
    if (json_is_true(json_object_get(cs, "uniqueItems"))) {
        c_text(c, "items are unique");
        c_end(c);
    }
    c_range(c, cs, "minContains", "maxContains", "matching item");
    c_range(c, cs, "minProperties", "maxProperties", "key");
    if ((v = json_object_get(node, "enum")) && json_is_array(v) && json_array_size(v)) {
        c_text(c, "one of: ");
        json_array_foreach(v, i, x) {
            if (i)
                c_text(c, ", ");
            c_value(c, x);
        }
        c_end(c);
    }
    if ((v = json_object_get(node, "const"))) {
        c_text(c, "always ");
        c_value(c, v);
        c_end(c);
    }
    if ((v = json_object_get(node, "patternProperties")) && json_is_array(v)) {
        json_array_foreach(v, i, x) {
            json_t *p = json_object_get(x, "pattern");
            if (json_is_string(p)) {
                c_text(c, "keys match ");
                c_value(c, p);
                c_end(c);
            }
        }
    }
    if ((x = json_object_get(node, "propertyNames")) &&
        (v = json_object_get(json_object_get(x, "constraints"), "pattern")) && json_is_string(v)) {
        c_text(c, "keys match ");
        c_value(c, v);
        c_end(c);
    }
    if (json_is_false(json_object_get(cs, "additionalProperties"))) {
        c_text(c, "no other keys");
        c_end(c);
    }
    if ((v = json_object_get(cs, "dependentRequired")) && json_is_object(v)) {
        const char *k;
        json_object_foreach(v, k, x) {
            c_text(c, "if ");
            c_code(c, k, strlen(k));
            c_text(c, " is set, also ");
            json_t *y;
            size_t j;
            json_array_foreach(x, j, y) {
                if (j)
                    c_text(c, ", ");
                c_value(c, y);
            }
            c_end(c);
        }
    }
    x = json_object_get(node, "kubernetes");
    if ((v = json_object_get(x, "list_type")) && json_is_string(v)) {
        c_text(c, "list type ");
        c_value(c, v);
        if ((v = json_object_get(x, "list_map_keys")) && json_is_array(v) && json_array_size(v)) {
            json_t *y;
            c_text(c, ", keyed by ");
            json_array_foreach(v, i, y) {
                if (i)
                    c_text(c, ", ");
                c_value(c, y);
            }
        }
        c_end(c);
    }
    if (json_is_true(json_object_get(x, "preserve_unknown_fields"))) {
        c_text(c, "unknown fields are kept");
        c_end(c);
    }
    if (json_is_true(json_object_get(x, "embedded_resource"))) {
        c_text(c, "an embedded Kubernetes object");
        c_end(c);
    }
}

/* --- descriptions ------------------------------------------------------------ */

/* Plain one-line text renders as <p>escaped</p> without cmark: the common
 * case on large schemas (Kubernetes), and byte-identical to cmark's output. */
static int plain_text(const char *s, size_t n)
{
    if (!n || !isalpha((unsigned char)s[0]) || s[n - 1] == ' ')
        return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch < 0x20 || strchr("\\`*_[]<>&#|!~@:=", ch) || ch == 0x7f)
            return 0;
        if ((ch == 'w' || ch == 'W') && i + 3 < n && strncasecmp(s + i, "www.", 4) == 0)
            return 0;
    }
    return 1;
}

static void description_html(sd_buf *b, const char *s, size_t n)
{
    if (plain_text(s, n)) {
        sd_buf_puts(b, "<p>");
        for (size_t i = 0; i < n; i++) {
            if (s[i] == '"')
                sd_buf_puts(b, "&quot;");
            else
                sd_buf_putc(b, s[i]);
        }
        sd_buf_puts(b, "</p>\n");
        return;
    }
    if (sd_markdown_to_html(b, s, n) < 0)
        b->failed = SD_ENOMEM;
}

/* --- the walk ---------------------------------------------------------------- */

typedef struct view {
    int     html;
    json_t *anchors;   /* set of anchors handed out */
    json_t *defs;      /* def id -> definition node (borrowed) */
    json_t *sections;  /* node id -> section name, from the rows */
    sd_buf  tmp, tmp2;
    cons    c;
} view;

/* A unique, attribute-safe anchor: whitespace becomes '_', and a repeat gets
 * "-2", "-3", ... */
static void make_anchor(view *v, json_t *node, const char *base)
{
    sd_buf *b = &v->tmp;
    size_t len;
    int n = 1;

    sd_buf_clear(b);
    for (const char *s = base; *s; s++)
        sd_buf_putc(b, isspace((unsigned char)*s) ? '_' : *s);
    if (!b->len)
        sd_buf_puts(b, "_");
    len = b->len;
    while (json_object_getn(v->anchors, b->ptr, b->len)) {
        sd_buf_truncate(b, len);
        sd_buf_printf(b, "-%d", ++n);
    }
    json_object_setn_new(v->anchors, b->ptr, b->len, json_true());
    json_object_set_new(node, "anchor", json_stringn(b->ptr, b->len));
    sd_buf_clear(b);
}

static void type_text(view *v, json_t *node)
{
    json_t *t = json_object_get(node, "type"), *x;
    json_t *k = json_object_get(node, "kubernetes");
    sd_buf *b = &v->tmp;
    size_t i;

    sd_buf_clear(b);
    if (json_is_true(json_object_get(k, "int_or_string"))) {
        sd_buf_puts(b, "integer | string");
    } else if (json_is_array(t)) {
        json_array_foreach(t, i, x) {
            if (!json_is_string(x))
                continue;
            if (b->len)
                sd_buf_puts(b, " | ");
            sd_buf_puts(b, json_string_value(x));
        }
    }
    if (!b->len && str(node, "helm_type") && *str(node, "helm_type"))
        sd_buf_puts(b, str(node, "helm_type"));
    if (flag(node, "nullable") && !strstr(b->ptr, "null"))
        sd_buf_puts(b, b->len ? " | null" : "null");
    set_buf(node, "type_text", b);
}

static void badges(json_t *node)
{
    static const char *const names[][2] = {
        { "required", "required" }, { "deprecated", "deprecated" }, { "removed", "removed" },
        { "nullable", "nullable" }, { "readOnly", "read-only" }, { "writeOnly", "write-only" },
        { "recursive", "recursive" }, { "truncated", "truncated" }
    };
    json_t *list = json_array();
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (flag(node, names[i][0]))
            json_array_append_new(list, json_string(names[i][1]));
    if (str(node, "ref_unresolved"))
        json_array_append_new(list, json_string("unresolved"));
    if (json_array_size(list))
        json_object_set_new(node, "badges", list);
    else
        json_decref(list);
}

/* helm-docs' default cell for a node without a row: JSON in backticks. */
static void md_default(view *v, json_t *node)
{
    sd_buf *b = &v->tmp2;
    const char *dt = str(node, "default_text");
    sd_buf_clear(b);
    if (dt) {
        md_cell(b, dt, strlen(dt));
    } else if (flag(node, "has_default")) {
        sd_buf j = SD_BUF_INIT;
        put_json(&j, json_object_get(node, "default"));
        md_code(&v->tmp, j.ptr, j.len);
        md_cell(b, v->tmp.ptr, v->tmp.len);
        sd_buf_clear(&v->tmp);
        sd_buf_release(&j);
    }
    set_buf(node, "md_default", b);
}

/* Description cell: optional marks, then the Markdown with pipes and line
 * breaks escaped. */
static void md_description(sd_buf *b, json_t *node, const char *desc)
{
    if (flag(node, "required"))
        sd_buf_puts(b, "**Required.** ");
    if (flag(node, "deprecated")) {
        const char *d = str(node, "deprecation");
        sd_buf_puts(b, "**Deprecated");
        if (d && *d) {
            sd_buf_puts(b, ":** ");
            md_cell(b, d, strlen(d));
            sd_buf_puts(b, " ");
        } else {
            sd_buf_puts(b, ".** ");
        }
    }
    const char *unres = str(node, "ref_unresolved");
    if (unres) {
        sd_buf_puts(b, "**Unresolved reference:** ");
        md_code(b, unres, strlen(unres));
        sd_buf_puts(b, " ");
    }
    if (desc)
        md_cell(b, desc, strlen(desc));
    while (b->len && b->ptr[b->len - 1] == ' ')
        sd_buf_truncate(b, b->len - 1);
}

static void examples(view *v, json_t *node)
{
    json_t *ex = json_object_get(node, "examples"), *x, *list;
    size_t i;

    if (!json_is_array(ex) || !json_array_size(ex))
        return;
    list = json_array();
    json_array_foreach(ex, i, x) {
        json_t *e = json_object();
        const char *t = str(x, "title"), *src = str(x, "source");
        json_t *val = json_object_get(x, "value");
        if (!val && src) {
            /* ytt examples written as an expression: shown, not evaluated */
            sd_buf_puts(&v->tmp, src);
            if (!v->tmp.len || v->tmp.ptr[v->tmp.len - 1] != '\n')
                sd_buf_putc(&v->tmp, '\n');
            set_buf(e, "yaml", &v->tmp);
            json_object_set_new(e, "example_source", json_true());
        } else {
            sd_render_yaml(&v->tmp, val ? val : json_null(), 0);
            set_buf(e, "yaml", &v->tmp);
        }
        if (t && *t)
            set_str(e, "example_title", t);
        json_array_append_new(list, e);
    }
    json_object_set_new(node, "example_list", list);
}

static void rules(json_t *node)
{
    json_t *val = json_object_get(json_object_get(node, "kubernetes"), "validations");
    json_t *yr = json_object_get(json_object_get(node, "ytt"), "rules"), *x;
    size_t i;

    if (json_is_array(val) && json_array_size(val))
        json_object_set(node, "cel_rules", val);
    if (json_is_array(yr) && json_array_size(yr)) {
        json_t *list = json_array();
        json_array_foreach(yr, i, x) {
            if (json_is_string(x))
                json_array_append_new(list, json_pack("{s:O}", "rule", x));
            else if (json_is_object(x))
                json_array_append(list, x);
        }
        json_object_set_new(node, "ytt_rule_list", list);
    }
}

/* Backlinks from a definition to the nodes that refer to it: the first
 * SD_USED_BY_MAX, then a count of the rest. */
#define SD_USED_BY_MAX 60
static void used_by(json_t *def, json_t *node)
{
    json_t *list = json_object_get(def, "used_by"), *a = json_object_get(node, "anchor");
    const char *s = json_string_value(a);
    if (!s)
        return;
    if (!list) {
        list = json_array();
        json_object_set_new(def, "used_by", list);
    }
    if (json_array_size(list) < SD_USED_BY_MAX) {
        json_array_append_new(list, json_pack("{s:O,s:s}", "use_anchor", a,
                                              "use_path", strncmp(s, "def-", 4) == 0 ? s + 4 : s));
    } else {
        json_int_t more = json_integer_value(json_object_get(def, "used_by_more"));
        json_object_set_new(def, "used_by_more", json_integer(more + 1));
    }
}

/* Fill the per-node view fields. `display` is the key path shown. */
static void decorate(view *v, json_t *node, const char *display, int depth, const char *label)
{
    const char *desc = str(node, "description"), *ref = str(node, "ref");
    json_t *def;

    json_object_set_new(node, "depth", json_integer(depth));
    set_str(node, "display", display && *display ? display : "(root)");
    if (label)
        set_str(node, "label", label);
    type_text(v, node);
    badges(node);
    if (flag(node, "has_default")) {
        json_t *d = json_object_get(node, "default");
        sd_render_yaml(&v->tmp, d, 0);
        if (v->tmp.len && v->tmp.ptr[v->tmp.len - 1] == '\n')
            sd_buf_truncate(&v->tmp, v->tmp.len - 1);
        if (memchr(v->tmp.ptr, '\n', v->tmp.len))
            json_object_set_new(node, "default_block", json_true());
        set_buf(node, "default_yaml", &v->tmp);
    }
    constraints(&v->c, node);
    if (json_array_size(v->c.html_list))
        json_object_set(node, v->html ? "constraint_list" : "md_constraints",
                        v->html ? v->c.html_list : v->c.md_list);
    json_decref(v->c.html_list);
    json_decref(v->c.md_list);
    v->c.html_list = json_array();
    v->c.md_list = json_array();
    examples(v, node);
    rules(node);
    if (str(node, "defined_at") || str(node, "value_at"))
        json_object_set_new(node, "where", json_true());
    if (desc && *desc) {
        if (v->html) {
            description_html(&v->tmp, desc, strlen(desc));
            set_buf(node, "description_html", &v->tmp);
        }
        if (strchr(desc, '\n'))
            json_object_set_new(node, "description_long", json_true());
    }
    if (!v->html) {
    md_description(&v->tmp, node, desc);
    set_buf(node, "md_description", &v->tmp);
    md_key(&v->tmp, display ? display : "");
    set_buf(node, "md_key", &v->tmp);
    {
        const char *ht = str(node, "helm_type");
        json_t *tt = json_object_get(node, "type_text");
        if (ht && *ht)
            md_cell(&v->tmp, ht, strlen(ht));
        else if (json_is_string(tt))
            md_cell(&v->tmp, json_string_value(tt), json_string_length(tt));
        set_buf(node, "md_type", &v->tmp);
    }
    md_default(v, node);
    }
    if (json_object_get(node, "example_list") || json_object_get(node, "md_constraints") ||
        json_object_get(node, "description_long") || json_object_get(node, "cel_rules") ||
        json_object_get(node, "ytt_rule_list"))
        json_object_set_new(node, "has_details", json_true());
    if (ref && (def = json_object_get(v->defs, ref))) {
        json_t *a = json_object_get(def, "anchor");
        json_object_set_new(node, "ref_anchor", json_is_string(a) ? json_incref(a) : json_string(ref));
        set_str(node, "ref_name", str(def, "name") ? str(def, "name") : ref);
        used_by(def, node);
    }
}

typedef struct walk {
    view   *v;
    json_t *entries;     /* the section's flat list */
    const char *prefix;  /* anchor prefix inside a definition, or NULL */
    const char *strip;   /* display path prefix to drop ("" at the root) */
} walk;

static void walk_node(walk *w, json_t *node, int depth, const char *label, const char *anchor_base);

static void anchor_for(walk *w, json_t *node, const char *fallback)
{
    const char *id = fallback ? fallback : str(node, "id");
    if (!id)
        id = "node";
    if (w->prefix) {
        sd_buf b = SD_BUF_INIT;
        sd_buf_printf(&b, "%s.%s", w->prefix, id);
        make_anchor(w->v, node, b.ptr);
        sd_buf_release(&b);
    } else {
        make_anchor(w->v, node, id);
    }
}

static void walk_list(walk *w, json_t *list, int depth, const char *label_fmt, const char *base)
{
    json_t *x;
    size_t i;
    char label[64];

    json_array_foreach(list, i, x) {
        sd_buf b = SD_BUF_INIT;
        snprintf(label, sizeof label, label_fmt, (int)i + 1);
        sd_buf_printf(&b, "%s/%s", base, label);
        for (char *p = b.ptr; *p; p++)
            if (*p == ' ')
                *p = '-';
        walk_node(w, x, depth, label, b.ptr);
        sd_buf_release(&b);
    }
}

/* allOf branches that only add properties are merged into the parent: their
 * properties are listed as the parent's children. Anything else stays a
 * branch entry. A $ref branch becomes an "includes" link. */
static int merge_branch(json_t *b)
{
    static const char *const keep[] = {
        "properties", "id", "key", "path", "pointer", "title", "title_explicit", "description",
        "description_from", "type", "helm_type", "nullable", "has_default", "examples",
        "constraints", "deprecated", "readOnly", "writeOnly", "required", "defined_at",
        "value_at", "default", NULL
    };
    const char *k;
    json_t *x;
    json_object_foreach(b, k, x) {
        const char *const *p;
        for (p = keep; *p && strcmp(*p, k) != 0; p++)
            ;
        if (!*p)
            return 0;
    }
    return json_object_get(b, "properties") != NULL;
}

static int count_children(json_t *node)
{
    static const char *const lists[] = { "properties", "elements", "prefixItems", "allOf", "anyOf", "oneOf", NULL };
    static const char *const single[] = { "items", "additionalProperties", "not", "if", "then", "else", "contains", NULL };
    int n = 0;
    for (const char *const *k = lists; *k; k++)
        n += (int)json_array_size(json_object_get(node, *k));
    for (const char *const *k = single; *k; k++) {
        json_t *x = json_object_get(node, *k);
        n += json_is_object(x) && json_object_get(x, "id");
    }
    n += (int)json_array_size(json_object_get(node, "patternProperties"));
    return n;
}

static void alternatives(json_t *node, const char *kind, const char *words)
{
    json_t *list = json_object_get(node, kind), *x, *opts;
    size_t i;
    if (!json_is_array(list) || !json_array_size(list))
        return;
    opts = json_array();
    json_array_foreach(list, i, x) {
        json_t *o = json_object();
        json_t *a = json_object_get(x, "anchor");
        const char *t = str(x, "title"), *tt = str(x, "type_text"), *rn = str(x, "ref_name");
        if (json_is_string(a))
            json_object_set(o, "option_anchor", a);
        json_object_set_new(o, "option_title",
                            json_string(rn ? rn : t && *t ? t : tt && *tt ? tt : "option"));
        json_array_append_new(opts, o);
    }
    json_t *alts = json_object_get(node, "alternatives");
    if (!alts) {
        alts = json_array();
        json_object_set_new(node, "alternatives", alts);
    }
    json_array_append_new(alts, json_pack("{s:s,s:o}", "alt_kind", words, "options", opts));
}

static const char *rel_path(walk *w, json_t *node)
{
    const char *p = str(node, "path");
    size_t n = w->strip ? strlen(w->strip) : 0;
    if (!p)
        return "";
    if (n && strncmp(p, w->strip, n) == 0 && (p[n] == '.' || p[n] == '[' || p[n] == '\0'))
        return p[n] == '.' ? p + n + 1 : p + n;
    return p;
}

static void walk_node(walk *w, json_t *node, int depth, const char *label, const char *anchor_base)
{
    json_t *x, *list;
    size_t i;

    if (!json_is_object(node))
        return;
    anchor_for(w, node, anchor_base);
    json_array_append(w->entries, node);
    decorate(w->v, node, label && !str(node, "key") ? "" : rel_path(w, node), depth, label);
    if (label && !str(node, "key")) {
        /* a branch: show the parent's path */
        set_str(node, "display", rel_path(w, node));
    }
    if (count_children(node))
        json_object_set_new(node, "has_children", json_true());

    const char *base = json_string_value(json_object_get(node, "anchor"));
    char *basecopy = strdup(base ? base : "node");

    json_array_foreach(json_object_get(node, "properties"), i, x)
        walk_node(w, x, depth + 1, NULL, NULL);
    if ((list = json_object_get(node, "allOf")) && json_is_array(list)) {
        json_t *inc = json_array();
        json_array_foreach(list, i, x) {
            json_t *y;
            size_t j;
            const char *ref = str(x, "ref");
            json_t *def = ref ? json_object_get(w->v->defs, ref) : NULL;
            if (def && !json_object_get(x, "properties")) {
                json_t *a = json_object_get(def, "anchor");
                json_array_append_new(inc, json_pack("{s:O,s:s}", "include_anchor", a ? a : json_string(ref),
                                                     "include_name", str(def, "name") ? str(def, "name") : ref));
            } else if (merge_branch(x)) {
                json_array_foreach(json_object_get(x, "properties"), j, y)
                    walk_node(w, y, depth + 1, NULL, NULL);
            } else {
                char lab[32], ab[600];
                snprintf(lab, sizeof lab, "all of, part %d", (int)i + 1);
                snprintf(ab, sizeof ab, "%.500s/allOf-%d", basecopy, (int)i + 1);
                walk_node(w, x, depth + 1, lab, ab);
            }
        }
        if (json_array_size(inc))
            json_object_set_new(node, "includes", inc);
        else
            json_decref(inc);
    }
    if ((list = json_object_get(node, "oneOf"))) {
        walk_list(w, list, depth + 1, "option %d (one of)", basecopy);
        alternatives(node, "oneOf", "Exactly one of");
    }
    if ((list = json_object_get(node, "anyOf"))) {
        walk_list(w, list, depth + 1, "option %d (any of)", basecopy);
        alternatives(node, "anyOf", "At least one of");
    }
    json_array_foreach(json_object_get(node, "patternProperties"), i, x) {
        const char *p = str(x, "pattern");
        sd_buf lab = SD_BUF_INIT, ab = SD_BUF_INIT;
        sd_buf_printf(&lab, "keys matching %s", p ? p : "?");
        sd_buf_printf(&ab, "%s/pattern-%d", basecopy, (int)i + 1);
        walk_node(w, json_object_get(x, "node"), depth + 1, lab.ptr, ab.ptr);
        sd_buf_release(&lab);
        sd_buf_release(&ab);
    }
    if ((x = json_object_get(node, "additionalProperties")) && json_is_object(x))
        walk_node(w, x, depth + 1, NULL, NULL);
    if ((x = json_object_get(node, "items")) && json_is_object(x))
        walk_node(w, x, depth + 1, NULL, NULL);
    json_array_foreach(json_object_get(node, "prefixItems"), i, x)
        walk_node(w, x, depth + 1, NULL, NULL);
    json_array_foreach(json_object_get(node, "elements"), i, x)
        walk_node(w, x, depth + 1, NULL, NULL);
    {
        static const char *const conds[][2] = {
            { "if", "if the value matches" }, { "then", "then it must match" },
            { "else", "otherwise it must match" }, { "not", "must not match" },
            { "contains", "some item matches" }
        };
        for (size_t k = 0; k < sizeof conds / sizeof conds[0]; k++) {
            if ((x = json_object_get(node, conds[k][0])) && json_is_object(x) && json_object_get(x, "id")) {
                char ab[600];
                snprintf(ab, sizeof ab, "%.500s/%s", basecopy, conds[k][0]);
                walk_node(w, x, depth + 1, conds[k][1], ab);
                json_object_set_new(node, "has_conditions", json_true());
            }
        }
    }
    free(basecopy);
}

/* --- sections ------------------------------------------------------------------ */

static json_t *new_section(json_t *group, const char *title, const char *anchor_src, view *v)
{
    json_t *s = json_object(), *tmp = json_object();
    set_str(s, "section_title", title);
    if (anchor_src) {
        sd_buf b = SD_BUF_INIT;
        sd_buf_printf(&b, "sec-%s", anchor_src);
        make_anchor(v, tmp, b.ptr);
        sd_buf_release(&b);
        json_object_set(s, "section_anchor", json_object_get(tmp, "anchor"));
    }
    json_decref(tmp);
    json_object_set_new(s, "entries", json_array());
    json_array_append_new(json_object_get(group, "sections"), s);
    return s;
}

static json_t *new_group(json_t *view_groups, const char *title, view *v)
{
    json_t *g = json_pack("{s:s,s:[]}", "group_title", title, "sections");
    sd_buf b = SD_BUF_INIT;
    sd_buf_printf(&b, "group-%s", title);
    make_anchor(v, g, b.ptr);
    json_object_set(g, "group_anchor", json_object_get(g, "anchor"));
    json_object_del(g, "anchor");
    sd_buf_release(&b);
    json_array_append_new(view_groups, g);
    return g;
}

/* The top-level keys of `root`, one section each, or grouped by their
 * helm-docs/Bitnami section when the chart uses sections. */
static void tree_sections(view *v, json_t *groups, json_t *root, const char *group_title,
                          const char *anchor_prefix, const char *strip)
{
    json_t *props = json_object_get(root, "properties"), *x, *g;
    walk w = { v, NULL, anchor_prefix, strip };
    size_t i;
    int any_section = 0;

    if (!json_is_object(root))
        return;
    json_array_foreach(props, i, x)
        if (str(x, "section") && *str(x, "section"))
            any_section = 1;
    if (json_object_size(v->sections))
        any_section = 1;
    g = new_group(groups, group_title, v);
    if (json_object_get(root, "description_html") == NULL && str(root, "description") && *str(root, "description")) {
        if (v->html) {
            description_html(&v->tmp, str(root, "description"), strlen(str(root, "description")));
            set_buf(g, "group_description_html", &v->tmp);
        }
    }
    if (!json_array_size(props)) {
        /* A root without properties is documented as one entry. */
        if (count_children(root) || json_array_size(json_object_get(root, "type")) || flag(root, "has_default")) {
            json_t *s = new_section(g, "(root)", anchor_prefix ? anchor_prefix : "root", v);
            w.entries = json_object_get(s, "entries");
            walk_node(&w, root, 0, NULL, anchor_prefix ? anchor_prefix : "root");
        }
        return;
    }
    if (any_section) {
        /* Each entry goes to the section of its row (rows name the leaf
         * keys); an entry without a row follows the next one that has one
         * within the same top-level key, else the previous. */
        json_t *by = json_object(), *tmp = json_array(), *e;   /* section name -> section */
        size_t j;
        json_array_foreach(props, i, x) {
            const char *cur = NULL;
            json_array_clear(tmp);
            w.entries = tmp;
            walk_node(&w, x, 0, NULL, NULL);
            json_array_foreach(tmp, j, e) {
                const char *name = str(v->sections, str(e, "id") ? str(e, "id") : "");
                json_t *s;
                size_t k;
                if (!name || !*name) {
                    name = NULL;
                    for (k = j + 1; k < json_array_size(tmp) && !name; k++)
                        name = str(v->sections, str(json_array_get(tmp, k), "id") ? str(json_array_get(tmp, k), "id") : "");
                    if (cur)
                        name = cur;
                    if (!name || !*name)
                        name = str(e, "section") && *str(e, "section") ? str(e, "section") : "Other values";
                }
                cur = name;
                if (!(s = json_object_get(by, name))) {
                    s = new_section(g, name, name, v);
                    json_object_set_new(s, "section_named", json_true());
                    json_object_set(by, name, s);
                }
                json_array_append(json_object_get(s, "entries"), e);
            }
        }
        json_decref(tmp);
        json_decref(by);
    } else {
        json_array_foreach(props, i, x) {
            const char *k = str(x, "key");
            json_t *s = new_section(g, k ? k : "(value)", NULL, v);
            w.entries = json_object_get(s, "entries");
            walk_node(&w, x, 0, NULL, NULL);
            /* the section links to its first entry */
            json_object_set(s, "section_anchor", json_object_get(x, "anchor"));
        }
    }
    /* `rest` keeps the non-property children of the root (additionalProperties...) */
}

static void definition_sections(view *v, json_t *groups, json_t *defs)
{
    json_t *d, *g;
    size_t i;

    if (!json_is_array(defs) || !json_array_size(defs))
        return;
    /* Anchors first, so that refs anywhere can link to them. */
    json_array_foreach(defs, i, d) {
        const char *id = str(d, "id");
        make_anchor(v, d, id ? id : "def");
        if (id)
            json_object_set(v->defs, id, d);
    }
    g = new_group(groups, "Definitions", v);
    json_object_set_new(g, "group_definitions", json_true());
    json_array_foreach(defs, i, d) {
        json_t *s = json_object(), *a = json_object_get(d, "anchor");
        const char *name = str(d, "name") ? str(d, "name") : str(d, "id");
        walk w = { v, NULL, NULL, NULL };
        set_str(s, "section_title", name ? name : "definition");
        /* TOC label: "io.k8s.api.core.v1.Pod" reads as "Pod" with "core.v1" beside it. */
        if (name && strchr(name, '.')) {
            const char *last = strrchr(name, '.'), *p = last;
            int dots = 0;
            while (p > name && dots < 2)
                if (*--p == '.')
                    dots++;
            if (*p == '.')
                p++;
            set_str(s, "section_short", last + 1);
            if (p < last) {
                json_object_set_new(s, "section_prefix", json_stringn(p, (size_t)(last - p)));
            }
        }
        json_object_set(s, "section_anchor", a);
        json_object_set_new(s, "section_definition", json_true());
        json_object_set_new(s, "entries", json_array());
        json_array_append_new(json_object_get(g, "sections"), s);
        w.entries = json_object_get(s, "entries");
        w.prefix = json_string_value(a);
        w.strip = str(d, "path");
        /* The definition itself is the first entry, keeping its anchor. */
        json_array_append(w.entries, d);
        decorate(v, d, name, 0, NULL);
        json_object_set_new(d, "is_definition", json_true());
        if (count_children(d))
            json_object_set_new(d, "has_children", json_true());
        json_t *x;
        size_t j;
        json_array_foreach(json_object_get(d, "properties"), j, x)
            walk_node(&w, x, 1, NULL, NULL);
        static const char *const more[] = { "items", "additionalProperties", NULL };
        for (const char *const *m = more; *m; m++)
            if ((x = json_object_get(d, *m)) && json_is_object(x))
                walk_node(&w, x, 1, NULL, NULL);
        static const char *const alts[][2] = { { "oneOf", "option %d (one of)" }, { "anyOf", "option %d (any of)" }, { "allOf", "all of, part %d" } };
        for (size_t k = 0; k < 3; k++)
            if ((x = json_object_get(d, alts[k][0]))) {
                walk_list(&w, x, 1, alts[k][1], json_string_value(a));
                if (k < 2)
                    alternatives(d, alts[k][0], k ? "At least one of" : "Exactly one of");
            }
    }
}

/* --- Markdown rows ----------------------------------------------------------- */

/* Charts: the model's rows, grouped by section in order of first use. */
static void chart_rows(view *v, json_t *model)
{
    json_t *rows = json_object_get(model, "rows"), *r, *secs = json_array(), *by = json_object();
    int bitnami = 0;
    const char *dialect = str(json_object_get(model, "source"), "dialect");
    size_t i;

    if (dialect && strcmp(dialect, "bitnami") == 0)
        bitnami = 1;
    json_array_foreach(rows, i, r) {
        const char *sec = str(r, "section"), *k = str(r, "key"), *t = str(r, "type");
        const char *d = str(r, "default_text"), *desc = str(r, "description");
        json_t *s, *node = NULL;
        if (!sec || !*sec)
            sec = "";
        if (!(s = json_object_get(by, sec))) {
            s = json_pack("{s:s,s:[]}", "rows_title", sec, "rows");
            if (!*sec)
                json_object_del(s, "rows_title");
            json_object_set(by, sec, s);
            json_array_append_new(secs, s);
        }
        if (str(r, "node"))
            node = NULL;   /* rows carry required/deprecated themselves */
        (void)node;
        json_t *row = json_object();
        if (bitnami) {
            md_code(&v->tmp2, k ? k : "", k ? strlen(k) : 0);
            md_cell(&v->tmp, v->tmp2.ptr, v->tmp2.len);
            sd_buf_clear(&v->tmp2);
        } else {
            md_key(&v->tmp, k ? k : "");
        }
        set_buf(row, "md_key", &v->tmp);
        if (t)
            md_cell(&v->tmp, t, strlen(t));
        set_buf(row, "md_type", &v->tmp);
        if (d && bitnami) {
            md_code(&v->tmp2, d, strlen(d));
            md_cell(&v->tmp, v->tmp2.ptr, v->tmp2.len);
            sd_buf_clear(&v->tmp2);
        } else if (d) {
            md_cell(&v->tmp, d, strlen(d));
        }
        set_buf(row, "md_default", &v->tmp);
        md_description(&v->tmp, r, desc);
        set_buf(row, "md_description", &v->tmp);
        json_array_append_new(json_object_get(s, "rows"), row);
    }
    json_decref(by);
    json_object_set_new(model, "row_sections", secs);
    set_str(model, "values_heading", "Values");
    if (bitnami)
        json_object_set_new(model, "dialect_bitnami", json_true());
}

/* Schemas and CRDs: one table per section of entries (branches left out:
 * their path is their parent's). */
static void add_row(json_t *rows, json_t *e)
{
    /* branches share their parent's path; a root has none */
    if (json_object_get(e, "label") || (!str(e, "key") && !flag(e, "is_definition")))
        return;
    json_array_append_new(rows, json_pack("{s:O*,s:O*,s:O*,s:O*}",
        "md_key", json_object_get(e, "md_key"), "md_type", json_object_get(e, "md_type"),
        "md_default", json_object_get(e, "md_default"),
        "md_description", json_object_get(e, "md_description")));
}

/* Schemas, CRDs, ytt: one table for the tree (per CRD version when there
 * are several, per named section when there are sections) and one per
 * definition. */
static void entry_rows(json_t *model)
{
    json_t *groups = json_object_get(model, "groups"), *g, *s, *e, *secs = json_array();
    size_t i, j, k, tree_groups = 0;
    int props = 0, defs = 0;

    json_array_foreach(groups, i, g)
        if (!flag(g, "group_definitions"))
            tree_groups++;
    json_array_foreach(groups, i, g) {
        int is_defs = flag(g, "group_definitions");
        json_t *rs = NULL, *rows = NULL;
        if (is_defs)
            defs = 1;
        else
            props = 1;
        json_array_foreach(json_object_get(g, "sections"), j, s) {
            if (!rs || is_defs || flag(s, "section_named")) {
                const char *t = is_defs || flag(s, "section_named") ? str(s, "section_title")
                              : tree_groups > 1 ? str(g, "group_title") : NULL;
                if (rs && json_array_size(rows))
                    json_array_append(secs, rs);
                json_decref(rs);
                rs = json_object();
                rows = json_array();
                json_object_set_new(rs, "rows", rows);
                if (t)
                    set_str(rs, "rows_title", t);
                if (is_defs)
                    json_object_set_new(rs, "rows_definition", json_true());
            }
            json_array_foreach(json_object_get(s, "entries"), k, e)
                add_row(rows, e);
        }
        if (rs && json_array_size(rows))
            json_array_append(secs, rs);
        json_decref(rs);
    }
    json_object_set_new(model, "row_sections", secs);
    set_str(model, "values_heading", props && defs ? "Properties and definitions" :
                                     defs ? "Definitions" : "Properties");
}

/* Entries with examples, constraints, rules or long descriptions. */
static void details(json_t *model)
{
    json_t *groups = json_object_get(model, "groups"), *g, *s, *e, *list = json_array();
    size_t i, j, k;
    json_array_foreach(groups, i, g)
        json_array_foreach(json_object_get(g, "sections"), j, s)
            json_array_foreach(json_object_get(s, "entries"), k, e)
                if (flag(e, "has_details"))
                    json_array_append(list, e);
    if (json_array_size(list))
        json_object_set_new(model, "details", list);
    else
        json_decref(list);
}

/* --- page metadata -------------------------------------------------------------- */

static void safe_url(json_t *o, const char *k, const char *out_k)
{
    const char *u = str(o, k);
    if (u && *u && sd_markdown_url_ok(u) && !strpbrk(u, " <>\"'`\n"))
        set_str(o, out_k, u);
}

static void page_meta(view *v, json_t *model)
{
    json_t *chart = json_object_get(model, "chart"), *crd = json_object_get(model, "crd");
    if (json_is_object(crd)) {
        static const char *const ccells[][2] = { { "group", "md_group" }, { "scope", "md_scope" },
                                                 { "kind", "md_kind" } };
        for (size_t c = 0; c < 3; c++) {
            const char *cs = str(crd, ccells[c][0]);
            if (cs && *cs) {
                sd_buf mb = SD_BUF_INIT;
                if (c == 0)
                    md_code(&mb, cs, strlen(cs));
                else
                    md_text(&mb, cs, strlen(cs));
                set_buf(crd, ccells[c][1], &mb);
                sd_buf_release(&mb);
            }
        }
    }
    json_t *ytt = json_object_get(model, "ytt"), *src = json_object_get(model, "source");
    json_t *x;
    size_t i;
    const char *title = NULL;

    if (json_is_object(chart)) {
        title = str(chart, "name");
        safe_url(chart, "home", "home_href");
        json_t *srcs = json_object_get(chart, "sources"), *list = json_array();
        json_array_foreach(srcs, i, x) {
            json_t *o = json_pack("{s:O}", "url", x);
            sd_buf b = SD_BUF_INIT;
            if (json_is_string(x))
                safe_url(o, "url", "href");
            if (str(o, "href"))
                sd_buf_printf(&b, "<%s>", str(o, "href"));
            else if (json_is_string(x))
                md_text(&b, json_string_value(x), json_string_length(x));
            set_buf(o, "md_url", &b);
            sd_buf_release(&b);
            json_array_append_new(list, o);
        }
        json_object_set_new(chart, "source_list", list);
        json_array_foreach(json_object_get(chart, "maintainers"), i, x) {
            safe_url(x, "url", "href");
            const char *e = str(x, "email");
            if (e && *e && !strpbrk(e, " <>\"'`\n:") && strchr(e, '@')) {
                sd_buf b = SD_BUF_INIT;
                sd_buf_printf(&b, "mailto:%s", e);
                set_str(x, "mailto", b.ptr);
                sd_buf_release(&b);
            }
            static const char *const cells[][3] = { { "name", "md_name", NULL },
                                                    { "email", "md_email", "mailto" },
                                                    { "url", "md_url", "href" } };
            for (size_t c = 0; c < 3; c++) {
                const char *s = str(x, cells[c][0]);
                if (s && *s) {
                    sd_buf b = SD_BUF_INIT;
                    if (cells[c][2] && str(x, cells[c][2]))
                        sd_buf_printf(&b, "<%s>", s);   /* checked: no space, <, > or quote */
                    else
                        md_text(&b, s, strlen(s));
                    set_buf(x, cells[c][1], &b);
                    sd_buf_release(&b);
                }
            }
        }
        json_array_foreach(json_object_get(chart, "dependencies"), i, x) {
            static const char *const cells[][2] = { { "repository", "md_repository" }, { "name", "md_name" },
                                                    { "version", "md_version" }, { "alias", "md_alias" },
                                                    { "condition", "md_condition" } };
            for (size_t c = 0; c < sizeof cells / sizeof cells[0]; c++) {
                const char *s = str(x, cells[c][0]);
                if (s && *s) {
                    sd_buf b = SD_BUF_INIT;
                    md_text(&b, s, strlen(s));
                    set_buf(x, cells[c][1], &b);
                    sd_buf_release(&b);
                }
            }
            safe_url(x, "repository", "repository_href");
        }
        if (json_array_size(json_object_get(chart, "maintainers")))
            json_object_set_new(chart, "has_maintainers", json_true());
        if (json_array_size(json_object_get(chart, "dependencies")))
            json_object_set_new(chart, "has_dependencies", json_true());
        if (json_array_size(list))
            json_object_set_new(chart, "has_sources", json_true());
        if (str(chart, "description") && *str(chart, "description") && v->html) {
            description_html(&v->tmp, str(chart, "description"), strlen(str(chart, "description")));
            set_buf(chart, "description_html", &v->tmp);
        }
    }
    if (json_is_object(crd)) {
        json_t *names = json_object_get(crd, "names");
        title = str(names, "kind");
        if (!title)
            title = str(crd, "name");
    }
    if (!title && json_is_object(ytt))
        title = str(ytt, "title") ? str(ytt, "title") : str(ytt, "name");
    if (!title) {
        const char *t = str(json_object_get(model, "root"), "title");
        if (t && *t && flag(json_object_get(model, "root"), "title_explicit"))
            title = t;
    }
    if (!title) {
        const char *p = str(src, "path");
        const char *slash = p ? strrchr(p, '/') : NULL;
        title = slash && slash[1] ? slash + 1 : p ? p : "schema";
    }
    set_str(model, "page_title", title);
    md_text(&v->tmp, title, strlen(title));
    set_buf(model, "md_title", &v->tmp);
    if (json_is_object(chart)) {
        static const char *const f[][2] = { { "version", "md_chart_version" }, { "appVersion", "md_chart_app_version" },
                                            { "type", "md_chart_type" }, { "kubeVersion", "md_chart_kube_version" } };
        for (size_t k = 0; k < 4; k++) {
            const char *t = str(chart, f[k][0]);
            if (t && *t) {
                if (k == 3)
                    md_code(&v->tmp, t, strlen(t));   /* helm-docs: Kubernetes: `>=1.19.0-0` */
                else
                    md_text(&v->tmp, t, strlen(t));
                set_buf(chart, f[k][1], &v->tmp);
            }
        }
    }
    set_str(model, "generator", "schemadoc " SD_VERSION);
    {
        const char *kind = str(src, "kind");
        if (kind) {
            char k[32];
            snprintf(k, sizeof k, "kind_%s", kind);
            json_object_set_new(model, k, json_true());
        }
    }
}

int sd_render_view(json_t *model, int html)
{
    view v = { html, json_object(), json_object(), json_object(), SD_BUF_INIT, SD_BUF_INIT,
               { SD_BUF_INIT, SD_BUF_INIT, json_array(), json_array() } };
    json_t *groups = json_array(), *versions, *x;
    size_t i;
    int err = 0;

    page_meta(&v, model);
    json_array_foreach(json_object_get(model, "rows"), i, x) {
        const char *id = str(x, "node"), *sec = str(x, "section");
        if (id && sec && *sec && !json_object_get(v.sections, id))
            json_object_set_new(v.sections, id, json_string(sec));
    }
    /* Definitions get their anchors first so that every ref can link. */
    {
        json_t *tmpgroups = json_array();
        definition_sections(&v, tmpgroups, json_object_get(model, "definitions"));
        versions = json_object_get(model, "versions");
        if (json_is_array(versions) && json_array_size(versions)) {
            json_array_foreach(versions, i, x) {
                sd_buf t = SD_BUF_INIT;
                const char *name = str(x, "name");
                sd_buf_printf(&t, "Version %s", name ? name : "?");
                json_t *b = json_array();
                if (flag(x, "served")) json_array_append_new(b, json_string("served"));
                if (flag(x, "storage")) json_array_append_new(b, json_string("storage"));
                if (flag(x, "deprecated")) json_array_append_new(b, json_string("deprecated"));
                json_object_set_new(x, "version_badges", b);
                /* Markdown-safe text of the version's strings */
                static const char *const vcells[][2] = { { "name", "md_name" },
                                                         { "deprecationWarning", "md_deprecationWarning" } };
                for (size_t c = 0; c < 2; c++) {
                    const char *vs = str(x, vcells[c][0]);
                    if (vs && *vs) {
                        sd_buf mb = SD_BUF_INIT;
                        md_text(&mb, vs, strlen(vs));
                        set_buf(x, vcells[c][1], &mb);
                        sd_buf_release(&mb);
                    }
                }
                tree_sections(&v, groups, json_object_get(x, "root"), t.ptr,
                              json_array_size(versions) > 1 ? name : NULL, NULL);
                json_t *g = json_array_get(groups, json_array_size(groups) - 1);
                if (g) {
                    json_object_set(g, "group_version", x);
                    json_object_set(x, "version_anchor", json_object_get(g, "group_anchor"));
                }
                sd_buf_release(&t);
            }
        } else {
            const char *kind = str(json_object_get(model, "source"), "kind");
            tree_sections(&v, groups, json_object_get(model, "root"),
                          kind && strcmp(kind, "chart") == 0 ? "Values" : "Properties", NULL, NULL);
        }
        json_array_extend(groups, tmpgroups);
        json_decref(tmpgroups);
    }
    /* TOC: the children of each top-level key, outside definitions. */
    json_array_foreach(groups, i, x) {
        json_t *sec, *e;
        size_t j, k;
        if (flag(x, "group_definitions"))
            continue;
        json_array_foreach(json_object_get(x, "sections"), j, sec) {
            json_t *kids;
            if (flag(sec, "section_named"))
                continue;
            kids = json_array();
            json_array_foreach(json_object_get(sec, "entries"), k, e) {
                const char *key = str(e, "key");
                if (json_integer_value(json_object_get(e, "depth")) == 1 && key && !json_object_get(e, "label"))
                    json_array_append_new(kids, json_pack("{s:O,s:s}", "toc_anchor", json_object_get(e, "anchor"),
                                                          "toc_key", key));
            }
            if (json_array_size(kids))
                json_object_set_new(sec, "section_children", kids);
            else
                json_decref(kids);
        }
    }
    /* Drop empty groups (a schema that is only definitions). */
    for (i = json_array_size(groups); i-- > 0; )
        if (!json_array_size(json_object_get(json_array_get(groups, i), "sections")))
            json_array_remove(groups, i);
    json_object_set_new(model, "groups", groups);
    if (!html) {
        if (json_array_size(json_object_get(model, "rows")))
            chart_rows(&v, model);
        else
            entry_rows(model);
        details(model);
    }
    if (sd_buf_failed(&v.tmp) || sd_buf_failed(&v.tmp2) || sd_buf_failed(&v.c.html) || sd_buf_failed(&v.c.md))
        err = SD_ENOMEM;
    json_decref(v.anchors);
    json_decref(v.defs);
    json_decref(v.sections);
    json_decref(v.c.html_list);
    json_decref(v.c.md_list);
    sd_buf_release(&v.tmp);
    sd_buf_release(&v.tmp2);
    sd_buf_release(&v.c.html);
    sd_buf_release(&v.c.md);
    return err;
}

