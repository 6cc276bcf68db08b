/* SPDX-License-Identifier: Apache-2.0 */
/* diff_out.c - write a diff (diff.c) as JSON or as a Markdown table. In:
 * the change list. Out: text appended to a buffer; every string from the
 * inputs stays text (code spans with their backticks and pipes escaped,
 * other cells with Markdown's punctuation escaped). */
#include "diff.h"
#include "alloc.h"
#include "emit.h"
#include "k8s.h"
#include "model.h"
#include "sd.h"

#include <stdlib.h>
#include <string.h>

int sd_diff_write_json(sd_buf *out, const sd_val *diff)
{
    /* the same JSON writing as the model's (indent 2, keys in order) */
    return sd_model_write_json(out, diff);
}

void sd_diff_value_text(sd_buf *out, const sd_val *v)
{
    if (!v) {
        return;
    }
    if (sd_val_is_object(v) || sd_val_is_array(v)) {
        char *s = sd_val_dumps(v, SD_VAL_COMPACT | SD_VAL_PRESERVE_ORDER | SD_VAL_ENCODE_ANY);
        if (s) {
            sd_buf_puts(out, s);
            free(s);
        }
        return;
    }
    /* a scalar as block YAML writes it, without the final newline */
    sd_buf y = SD_BUF_INIT;
    sd_emit_yaml(&y, (sd_val *)v, 0);
    while (y.len && (y.ptr[y.len - 1] == '\n' || y.ptr[y.len - 1] == ' '))
        y.len--;
    if (y.len > 3 && y.ptr[0] == '|') {
        /* a multi-line string: quote it on one line instead */
        char *s = sd_val_dumps(v, SD_VAL_ENCODE_ANY);
        if (s) {
            sd_buf_puts(out, s);
            free(s);
        }
    } else {
        sd_buf_put(out, y.ptr, y.len);
    }
    sd_buf_release(&y);
}

/* A code span holding `s` (up to `max` bytes, then "..."), safe in a GFM
 * table cell: util's one code-span writer. */
static void code_cell(sd_buf *out, const char *s, size_t n, size_t max)
{
    sd_buf cut = SD_BUF_INIT;
    if (n > max) {
        sd_buf_put(&cut, s, max);
        sd_buf_puts(&cut, "...");
        s = cut.ptr, n = cut.len;
    }
    sd_buf_put_md_code(out, s, n, SD_MD_CODE_CELL);
    sd_buf_release(&cut);
}

/* Plain text in a table cell: Markdown punctuation escaped, one line. */
static void text_cell(sd_buf *out, const char *s)
{
    for (; s && *s; s++) {
        char c = *s;
        if (c == '\n' || c == '\r' || c == '\t')
            sd_buf_putc(out, ' ');
        else if (strchr("\\`*_{}[]()<>#+!|&~", c)) {
            sd_buf_putc(out, '\\');
            sd_buf_putc(out, c);
        } else
            sd_buf_putc(out, c);
    }
}

static void value_cell(sd_buf *out, const sd_val *v)
{
    sd_buf t = SD_BUF_INIT;
    if (!v)
        return;
    sd_diff_value_text(&t, v);
    code_cell(out, t.ptr ? t.ptr : "", t.len, 120);
    sd_buf_release(&t);
}

static void types_cell(sd_buf *out, const sd_val *v)
{
    size_t i;
    sd_val *t;
    sd_buf s = SD_BUF_INIT;
    /* a Kubernetes definition by its name: ResourceRequirements (core/v1) */
    if (sd_val_is_string(v) && sd_k8s_ref_label(&s, NULL, sd_val_string_value(v))) {
        code_cell(out, s.ptr ? s.ptr : "", s.len, 120);
        sd_buf_release(&s);
        return;
    }
    if (!sd_val_is_array(v)) {
        value_cell(out, v);
        return;
    }
    sd_val_array_foreach(v, i, t) {
        if (i)
            sd_buf_puts(&s, " | ");
        sd_buf_puts(&s, sd_val_string_value(t) ? sd_val_string_value(t) : "?");
    }
    code_cell(out, s.ptr ? s.ptr : "", s.len, 120);
    sd_buf_release(&s);
}

static const char *member_str(const sd_val *o, const char *k)
{
    return sd_val_string_value(sd_val_object_get(o, k));
}

static void side_line(sd_buf *out, const sd_val *side)
{
    const char *name = member_str(side, "name"), *ver = member_str(side, "version"), *path = member_str(side, "path");
    if (name && ver) {
        text_cell(out, name);
        sd_buf_putc(out, ' ');
        text_cell(out, ver);
    } else {
        text_cell(out, path ? path : "?");
    }
}

int sd_diff_write_md(sd_buf *out, const sd_val *diff)
{
    sd_val *changes = sd_val_object_get(diff, "changes"), *c;
    size_t i;
    int crd = member_str(diff, "kind") && strcmp(member_str(diff, "kind"), "crd") == 0;

    sd_buf_puts(out, "Changes from ");
    side_line(out, sd_val_object_get(diff, "old"));
    sd_buf_puts(out, " to ");
    side_line(out, sd_val_object_get(diff, "new"));
    sd_buf_printf(out, ": %zu.\n\n", sd_val_array_size(changes));
    if (!sd_val_array_size(changes))
        return sd_buf_failed(out) ? SD_ENOMEM : 0;
    sd_buf_puts(out, crd ? "| Version | Key | Change | Old | New | Notes |\n| --- | --- | --- | --- | --- | --- |\n"
                         : "| Key | Change | Old | New | Notes |\n| --- | --- | --- | --- | --- |\n");
    sd_val_array_foreach(changes, i, c) {
        const char *kind = member_str(c, "change"), *path = member_str(c, "path"), *kw = member_str(c, "keyword");
        const char *effect = member_str(c, "effect"), *note = member_str(c, "notice");
        sd_val *from = sd_val_object_get(c, "from"), *to = sd_val_object_get(c, "to");
        sd_buf_puts(out, "| ");
        if (crd) {
            if (member_str(c, "version"))
                code_cell(out, member_str(c, "version"), strlen(member_str(c, "version")), 200);
            sd_buf_puts(out, " | ");
        }
        if (path && *path)
            code_cell(out, path, strlen(path), 400);
        sd_buf_puts(out, " | ");
        text_cell(out, kind);
        if (kw) {
            sd_buf_puts(out, " (");
            text_cell(out, kw);
            if (effect && strcmp(effect, "changed") != 0) {
                sd_buf_puts(out, ", ");
                text_cell(out, effect);
            }
            sd_buf_putc(out, ')');
        }
        sd_buf_puts(out, " | ");
        if (strcmp(kind, "type") == 0) {
            types_cell(out, from);
            sd_buf_puts(out, " | ");
            types_cell(out, to);
        } else if (strcmp(kind, "renamed") == 0) {
            value_cell(out, from);
            sd_buf_puts(out, " | ");
            value_cell(out, to);
        } else if (strcmp(kind, "description") == 0 || strcmp(kind, "deprecated") == 0) {
            if (sd_val_is_string(from))
                text_cell(out, sd_val_string_value(from));
            else
                value_cell(out, from);
            sd_buf_puts(out, " | ");
            if (sd_val_is_string(to))
                text_cell(out, sd_val_string_value(to));
            else
                value_cell(out, to);
            if (strcmp(kind, "deprecated") == 0)
                note = NULL;
        } else {
            int add = strcmp(kind, "added") == 0, rem = strcmp(kind, "removed") == 0;
            int ver = strcmp(kind, "version") == 0;
            /* added/removed: the default, when there is one */
            if (sd_val_is_true(sd_val_object_get(c, "from_absent")))
                sd_buf_puts(out, "(none)");
            else if (!add && !((rem || ver) && sd_val_is_null(from)))
                value_cell(out, from);
            sd_buf_puts(out, " | ");
            if (sd_val_is_true(sd_val_object_get(c, "to_absent")))
                sd_buf_puts(out, "(none)");
            else if (!rem && !((add || ver) && sd_val_is_null(to)))
                value_cell(out, to);
        }
        sd_buf_puts(out, " | ");
        if (strcmp(kind, "renamed") == 0 && member_str(c, "rule")) {
            sd_buf_puts(out, "rule: ");
            text_cell(out, member_str(c, "rule"));
            if (note)
                sd_buf_puts(out, "; ");
        }
        if (sd_val_is_true(sd_val_object_get(c, "required")))
            sd_buf_puts(out, "required");
        if (sd_val_is_true(sd_val_object_get(c, "was_deprecated")))
            sd_buf_puts(out, "was deprecated: ");
        if (note)
            text_cell(out, note);
        if (member_str(c, "similar")) {
            sd_buf_puts(out, note || sd_val_is_true(sd_val_object_get(c, "was_deprecated")) ? "; " : "");
            sd_buf_puts(out, "a new key with a similar name is ");
            code_cell(out, member_str(c, "similar"), strlen(member_str(c, "similar")), 400);
            sd_buf_puts(out, " (no evidence of a rename: check the chart's notes)");
        }
        sd_buf_puts(out, " |\n");
    }
    return sd_buf_failed(out) ? SD_ENOMEM : 0;
}

static sd_val *text_of(const sd_val *v, int types)
{
    sd_buf t = SD_BUF_INIT;
    sd_val *r;
    size_t i;
    sd_val *x;
    if (!v || (sd_val_is_null(v) && !types))
        return NULL;
    if (types && sd_val_is_array(v)) {
        sd_val_array_foreach(v, i, x) {
            if (i)
                sd_buf_puts(&t, " | ");
            sd_buf_puts(&t, sd_val_string_value(x) ? sd_val_string_value(x) : "?");
        }
    } else {
        sd_diff_value_text(&t, v);
    }
    r = sd_val_stringn(t.ptr ? t.ptr : "", t.len);
    sd_buf_release(&t);
    return r;
}

int sd_diff_view(sd_val *diff, const char *generator)
{
    sd_val *c, *counts = sd_val_object_get(diff, "counts"), *list = sd_val_array(), *v;
    const char *k;
    size_t i;
    sd_buf title = SD_BUF_INIT;

    if (!list)
        return SD_ENOMEM;
    sd_val_array_foreach(sd_val_object_get(diff, "changes"), i, c) {
        const char *kind = member_str(c, "change");
        int types = kind && strcmp(kind, "type") == 0;
        sd_val *f = text_of(sd_val_object_get(c, "from"), types), *t = text_of(sd_val_object_get(c, "to"), types);
        if (kind && strcmp(kind, "added") == 0) {
            sd_val_decref(f);
            f = NULL;
        }
        if (kind && strcmp(kind, "removed") == 0) {
            sd_val_decref(t);
            t = NULL;
        }
        if (sd_val_is_true(sd_val_object_get(c, "from_absent"))) {
            sd_val_decref(f);
            f = sd_val_string("(none)");
        }
        if (sd_val_is_true(sd_val_object_get(c, "to_absent"))) {
            sd_val_decref(t);
            t = sd_val_string("(none)");
        }
        if (f)
            sd_val_object_set_new_nocheck(c, "from_text", f);
        if (t)
            sd_val_object_set_new_nocheck(c, "to_text", t);
    }
    sd_val_object_foreach(counts, k, v) {
        if (sd_val_integer_value(v) > 0) {
            sd_val *o = sd_val_object();
            sd_val_object_set_new_nocheck(o, "name", sd_val_string(k));
            sd_val_object_set_nocheck(o, "count", v);
            sd_val_array_append_new(list, o);
        }
    }
    sd_val_object_set_new_nocheck(diff, "count_list", list);
    sd_val_object_set_new_nocheck(diff, "has_changes", sd_val_boolean(sd_diff_count(diff) > 0));
    sd_val_object_set_new_nocheck(diff, "crd", sd_val_boolean(member_str(diff, "kind") && strcmp(member_str(diff, "kind"), "crd") == 0));
    sd_val_object_set_new_nocheck(diff, "generator", sd_val_string(generator));
    sd_buf_puts(&title, "Changes from ");
    side_line(&title, sd_val_object_get(diff, "old"));
    sd_buf_puts(&title, " to ");
    side_line(&title, sd_val_object_get(diff, "new"));
    /* the title is HTML-escaped by the template: undo the Markdown escapes */
    {
        sd_buf plain = SD_BUF_INIT;
        for (size_t j = 0; j < title.len; j++) {
            if (title.ptr[j] == '\\' && j + 1 < title.len)
                j++;
            sd_buf_putc(&plain, title.ptr[j]);
        }
        sd_val_object_set_new_nocheck(diff, "page_title", sd_val_stringn(plain.ptr ? plain.ptr : "", plain.len));
        sd_buf_release(&plain);
    }
    sd_buf_release(&title);
    return 0;
}
