/* cells.c - Markdown: escaped cells, code spans, the helm-docs and
 * Bitnami parameter tables and the details list (docs/themes.md). */
#include "render_int.h"
#include "emit.h"
#include "markdown.h"
#include "sd.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Compact JSON as helm-docs prints defaults (Go's json.Marshal: sorted keys). */
void sd_render__put_json(sd_buf *b, json_t *v)
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
void sd_render__md_cell(sd_buf *b, const char *s, size_t n)
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

/* --- Markdown from the chart, defanged ---------------------------------------- */

static int ieq_prefix(const char *s, size_t n, const char *word)
{
    size_t k = strlen(word);
    if (n < k)
        return 0;
    for (size_t i = 0; i < k; i++)
        if ((s[i] | 0x20) != word[i])
            return 0;
    return 1;
}

/* A URL (up to `n` bytes) that a browser would run or embed: its scheme,
 * read as the browser does (controls and white space dropped), is
 * javascript:, vbscript: or data:, or it hides the scheme in an entity. */
static int bad_url(const char *s, size_t n)
{
    char u[16];
    size_t k = 0;
    for (size_t i = 0; i < n && k < sizeof u - 1; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c <= ' ' || c == '<' || (!k && (c == '"' || c == '\'')))
            continue;
        if (c == '&' || c == '%' || c == '\\')
            return 1;   /* an entity, escape or percent code before the scheme ends */
        if (c == ':' || c == ')' || c == '>' || c == '"' || c == '\'')
            break;
        u[k++] = (char)(c | 0x20);
    }
    u[k] = '\0';
    return !strcmp(u, "javascript") || !strcmp(u, "vbscript") || !strcmp(u, "data");
}

/* Raw HTML tags that are live whatever their attributes (GitHub's tagfilter
 * and then some). */
static int bad_tag(const char *name, size_t n)
{
    static const char *const tags[] = { "script", "style", "iframe", "frame", "frameset", "object",
        "embed", "applet", "svg", "math", "base", "meta", "link", "form", "input", "button",
        "textarea", "select", "noscript", "noembed", "noframes", "template", "xmp", "plaintext",
        "title", "img", "video", "audio", "source", "picture", "portal", NULL };
    for (size_t i = 0; tags[i]; i++)
        if (strlen(tags[i]) == n && ieq_prefix(name, n, tags[i]))
            return 1;
    return 0;
}

void sd_render__md_defang(sd_buf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '`') {   /* a code span is inert: copied as it is */
            size_t run = 0, j;
            while (i + run < n && s[i + run] == '`')
                run++;
            for (j = i + run; j < n; j++) {
                size_t r = 0;
                while (j + r < n && s[j + r] == '`')
                    r++;
                if (r == run)
                    break;
                j += r;
            }
            size_t stop = j < n ? j + run : i + run;
            sd_buf_put(b, s + i, stop - i);
            i = stop - 1;
            continue;
        }
        if (s[i] == '<') {
            size_t j = i + 1, name, end;
            if (j < n && s[j] == '/')
                j++;
            name = j;
            while (j < n && (isalnum((unsigned char)s[j]) || s[j] == '-' || s[j] == '+' || s[j] == '.'))
                j++;
            end = j;
            while (end < n && s[end] != '>' && s[end] != '<')
                end++;
            int live = i + 1 < n && (s[i + 1] == '!' || s[i + 1] == '?');   /* <!-- <![CDATA[ <? */
            if (live)
                ;
            else if (j > name && j < n && s[j] == ':')          /* an autolink <scheme:...> */
                live = bad_url(s + name, end - name);
            else if (j > name && bad_tag(s + name, j - name))
                live = 1;
            else if (j > name)                              /* attributes: handlers, URLs */
                for (size_t k = j; k < end && !live; k++) {
                    if ((s[k] | 0x20) == 'o' && k + 1 < end && (s[k + 1] | 0x20) == 'n' &&
                        (s[k - 1] == ' ' || s[k - 1] == '\t' || s[k - 1] == '\n' || s[k - 1] == '/' ||
                         s[k - 1] == '"' || s[k - 1] == '\'')) {
                        size_t a = k + 2;
                        while (a < end && isalpha((unsigned char)s[a]))
                            a++;
                        while (a < end && (s[a] == ' ' || s[a] == '\t'))
                            a++;
                        live = a > k + 2 && a < end && s[a] == '=';
                    }
                    if (s[k] == '=' )
                        live = bad_url(s + k + 1, end - k - 1);
                }
            if (live) {
                sd_buf_puts(b, "\\<");
                continue;
            }
        } else if (s[i] == '!' && i + 1 < n && s[i + 1] == '[') {
            sd_buf_puts(b, "\\!");   /* an image loads from anywhere: a link instead */
            continue;
        } else if (s[i] == ']' && i + 1 < n && (s[i + 1] == '(' || s[i + 1] == ':')) {
            size_t j = i + 2;
            while (j < n && (s[j] == ' ' || s[j] == '\t'))
                j++;
            if (bad_url(s + j, n - j)) {   /* [x](javascript:...) and [x]: javascript:... */
                sd_buf_puts(b, "]\\");
                continue;
            }
        }
        sd_buf_putc(b, s[i]);
    }
}

/* Plain text (not Markdown) in Markdown: punctuation that could start
 * markup or raw HTML is backslash-escaped (CommonMark §2.4), and the cell
 * rules apply. */
void sd_render__md_text(sd_buf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (strchr("\\`*_[]<>&!#", s[i]) && s[i])
            sd_buf_putc(b, '\\');
        sd_render__md_cell(b, s + i, 1);
    }
}

/* A key path cell: as helm-docs writes it, but '<' and '>' escaped so a key
 * can never open raw HTML. */
void sd_render__md_key(sd_buf *b, const char *s)
{
    for (; *s; s++) {
        if (*s == '<' || *s == '>')
            sd_buf_putc(b, '\\');
        sd_render__md_cell(b, s, 1);
    }
}

/* `text` as a Markdown code span, with a fence longer than any backtick run. */
void sd_render__md_code(sd_buf *b, const char *s, size_t n)
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

/* helm-docs' default cell for a node without a row: JSON in backticks. */
void sd_render__md_default(view *v, json_t *node)
{
    sd_buf *b = &v->tmp2;
    const char *dt = str(node, "default_text");
    sd_buf_clear(b);
    if (dt) {
        sd_buf d = SD_BUF_INIT;
        sd_render__md_defang(&d, dt, strlen(dt));
        sd_render__md_cell(b, d.ptr, d.len);
        sd_buf_release(&d);
    } else if (flag(node, "has_default")) {
        sd_buf j = SD_BUF_INIT;
        sd_render__put_json(&j, json_object_get(node, "default"));
        sd_render__md_code(&v->tmp, j.ptr, j.len);
        sd_render__md_cell(b, v->tmp.ptr, v->tmp.len);
        sd_buf_clear(&v->tmp);
        sd_buf_release(&j);
    }
    set_buf(node, "md_default", b);
}

/* Description cell: optional marks, then the Markdown with pipes and line
 * breaks escaped. */
void sd_render__md_description(sd_buf *b, json_t *node, const char *desc)
{
    if (flag(node, "required"))
        sd_buf_puts(b, "**Required.** ");
    if (flag(node, "deprecated")) {
        const char *d = str(node, "deprecation");
        sd_buf_puts(b, "**Deprecated");
        if (d && *d) {
            sd_buf_puts(b, ":** ");
            sd_buf t = SD_BUF_INIT;
            sd_render__md_defang(&t, d, strlen(d));
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
        sd_buf t = SD_BUF_INIT;
        sd_render__md_defang(&t, desc, strlen(desc));
        sd_render__md_cell(b, t.ptr, t.len);
        sd_buf_release(&t);
    }
    while (b->len && b->ptr[b->len - 1] == ' ')
        sd_buf_truncate(b, b->len - 1);
}

/* --- Markdown rows ----------------------------------------------------------- */

/* Charts: the model's rows, grouped by section in order of first use. */
void sd_render__chart_rows(view *v, json_t *model)
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
            sd_render__md_code(&v->tmp2, k ? k : "", k ? strlen(k) : 0);
            sd_render__md_cell(&v->tmp, v->tmp2.ptr, v->tmp2.len);
            sd_buf_clear(&v->tmp2);
        } else {
            sd_render__md_key(&v->tmp, k ? k : "");
        }
        set_buf(row, "md_key", &v->tmp);
        if (t) {
            sd_render__md_defang(&v->tmp2, t, strlen(t));
            sd_render__md_cell(&v->tmp, v->tmp2.ptr, v->tmp2.len);
            sd_buf_clear(&v->tmp2);
        }
        set_buf(row, "md_type", &v->tmp);
        if (d && bitnami) {
            sd_render__md_code(&v->tmp2, d, strlen(d));
            sd_render__md_cell(&v->tmp, v->tmp2.ptr, v->tmp2.len);
            sd_buf_clear(&v->tmp2);
        } else if (d) {
            sd_render__md_defang(&v->tmp2, d, strlen(d));
            sd_render__md_cell(&v->tmp, v->tmp2.ptr, v->tmp2.len);
            sd_buf_clear(&v->tmp2);
        }
        set_buf(row, "md_default", &v->tmp);
        sd_render__md_description(&v->tmp, r, desc);
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
void sd_render__entry_rows(json_t *model)
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
void sd_render__details(json_t *model)
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
