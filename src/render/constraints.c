/* SPDX-License-Identifier: Apache-2.0 */
/* constraints.c - constraints in words: "1 ≤ value ≤ 65535", "matches `^a`", once
 * as HTML and once as Markdown (and for adoc as AsciiDoc) by the same calls. */
#include "render_int.h"
#include "emit.h"
#include "keywords.h"
#include "md_to_html.h"
#include "sd.h"
#include "vnamed.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* --- constraints in words --------------------------------------------------- */

static void c_text(cons *c, const char *s)
{
    sd_buf_put_escaped(&c->html, SD_ESC_HTML, s, strlen(s));
    sd_buf_puts(&c->md, s);
    if (c->adoc_list)
        sd_render__adoc_escape(&c->adoc, s, strlen(s));
}

static void c_code(cons *c, const char *s, size_t n)
{
    sd_buf_puts(&c->html, "<code>");
    sd_buf_put_escaped(&c->html, SD_ESC_HTML, s, n);
    sd_buf_puts(&c->html, "</code>");
    sd_render__md_code(&c->md, s, n);
    if (c->adoc_list)
        sd_render__adoc_code(&c->adoc, s, n);
}

/* A value as code: strings as written, anything else as JSON. The empty
 * string is `""` (an empty code span shows nothing, or two backticks),
 * marked in html so a style can set it apart from a value "". */
static void c_value(cons *c, sd_val *v)
{
    if (sd_val_is_string(v) && !sd_val_string_length(v)) {
        sd_buf_puts(&c->html, "<code class=\"empty-string\" title=\"the empty string\">&quot;&quot;</code>");
        sd_render__md_code(&c->md, "\"\"", 2);
        if (c->adoc_list)
            sd_render__adoc_code(&c->adoc, "\"\"", 2);
    } else if (sd_val_is_string(v)) {
        c_code(c, sd_val_string_value(v), sd_val_string_length(v));
    } else {
        sd_buf tmp = SD_BUF_INIT;
        sd_render__put_json(&tmp, v);
        c_code(c, tmp.ptr, tmp.len);
        sd_buf_release(&tmp);
    }
}

static void c_num(cons *c, sd_val *v)
{
    sd_buf tmp = SD_BUF_INIT;
    if (sd_val_is_real(v))
        sd_emit_number(&tmp, sd_val_real_value(v));   /* 2.0 reads as "2" here */
    else
        sd_render__put_json(&tmp, v);
    c_text(c, tmp.ptr);
    sd_buf_release(&tmp);
}

static void c_end(cons *c)
{
    if (c->html.len) {
        sd_val_array_append_new(c->html_list, sd_val_objectv(1, "html", sd_val_stringn(c->html.ptr, c->html.len)));
        sd_val_array_append_new(c->md_list, sd_val_stringn(c->md.ptr, c->md.len));
        if (c->adoc_list)
            sd_val_array_append_new(c->adoc_list, sd_val_stringn(c->adoc.ptr, c->adoc.len));
    }
    sd_buf_clear(&c->html);
    sd_buf_clear(&c->md);
    sd_buf_clear(&c->adoc);
}

static void c_count(cons *c, sd_val *k, const char *what)
{
    c_num(c, k);
    c_text(c, " ");
    c_text(c, what);
    if (!(sd_val_is_integer(k) && sd_val_integer_value(k) == 1))
        c_text(c, "s");
}

static void c_range(cons *c, sd_val *cs, const char *lo_k, const char *hi_k,
                    const char *noun)
{
    sd_val *lo = sd_val_object_get(cs, lo_k), *hi = sd_val_object_get(cs, hi_k);
    if (!sd_val_is_number(lo) && !sd_val_is_number(hi))
        return;
    if (sd_val_is_number(lo) && sd_val_is_number(hi) && sd_val_number_value(lo) == sd_val_number_value(hi)) {
        c_text(c, "exactly ");
        c_count(c, lo, noun);
    } else if (sd_val_is_number(lo) && sd_val_is_number(hi)) {
        c_num(c, lo);
        c_text(c, " to ");
        c_count(c, hi, noun);
    } else if (sd_val_is_number(lo)) {
        c_text(c, "at least ");
        c_count(c, lo, noun);
    } else {
        c_text(c, "at most ");
        c_count(c, hi, noun);
    }
    c_end(c);
}

/* The four number bounds as one range: "1 ≤ value < 10". */
static void c_bounds(cons *c, sd_val *cs)
{
    sd_val *min = sd_val_object_get(cs, "minimum"), *max = sd_val_object_get(cs, "maximum");
    sd_val *xmin = sd_val_object_get(cs, "exclusiveMinimum"), *xmax = sd_val_object_get(cs, "exclusiveMaximum");

    /* Draft 4 writes exclusiveMinimum as a boolean beside minimum. */
    if (sd_val_is_true(xmin)) { xmin = min; min = NULL; }
    if (sd_val_is_true(xmax)) { xmax = max; max = NULL; }
    if (!sd_val_is_number(xmin)) xmin = NULL;
    if (!sd_val_is_number(xmax)) xmax = NULL;
    if (!sd_val_is_number(min)) min = NULL;
    if (!sd_val_is_number(max)) max = NULL;
    if (!min && !xmin && !max && !xmax)
        return;
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

/* One keyword of the node's constraints, as its row's `words` column says. */
static void c_keyword(cons *c, sd_val *cs, const sd_kw *kw)
{
    sd_val *v = sd_val_object_get(cs, kw->name);
    switch (kw->words) {
    case SD_KS_BOUNDS:
        c_bounds(c, cs);
        return;
    case SD_KS_RANGE:
        c_range(c, cs, kw->name, kw->words_upper, kw->words_text);
        return;
    case SD_KS_NUMBER:
        if (!sd_val_is_number(v))
            return;
        c_text(c, kw->words_text);
        c_num(c, v);
        break;
    case SD_KS_CODE:
        if (!v || !sd_val_is_string(v))
            return;
        /* a named format's pattern in its words (vnamed.h), not the regex */
        if (!strcmp(kw->name, "pattern") && sd_vnamed_words(NULL, sd_val_string_value(v))) {
            c_text(c, sd_vnamed_words(NULL, sd_val_string_value(v)));
            break;
        }
        c_text(c, kw->words_text);
        c_value(c, v);
        break;
    case SD_KS_TRUE:
        if (!sd_val_is_true(v))
            return;
        c_text(c, kw->words_text);
        break;
    default:
        return;   /* not worded, or worded below (OWN) */
    }
    c_end(c);
}

void sd_render__constraints(cons *c, sd_val *node)
{
    sd_val *cs = sd_val_object_get(node, "constraints"), *v, *x;
    size_t i;

    /* the constraints in the model's order (keywords.def) */
    if (cs) {
        size_t n;
        const sd_kw *const *rows = sd_kw_model_rows(&n);
        for (i = 0; i < n; i++)
            c_keyword(c, cs, rows[i]);
    }
    if ((v = sd_val_object_get(node, "enum")) && sd_val_is_array(v) && sd_val_array_size(v)) {
        c_text(c, "one of: ");
        sd_val_array_foreach(v, i, x) {
            if (i)
                c_text(c, ", ");
            c_value(c, x);
        }
        c_end(c);
    }
    if ((v = sd_val_object_get(node, "const"))) {
        c_text(c, "always ");
        c_value(c, v);
        c_end(c);
    }
    if ((v = sd_val_object_get(node, "patternProperties")) && sd_val_is_array(v)) {
        sd_val_array_foreach(v, i, x) {
            sd_val *p = sd_val_object_get(x, "pattern");
            if (sd_val_is_string(p)) {
                c_text(c, "keys match ");
                c_value(c, p);
                c_end(c);
            }
        }
    }
    if ((x = sd_val_object_get(node, "propertyNames")) &&
        (v = sd_val_object_get(sd_val_object_get(x, "constraints"), "pattern")) && sd_val_is_string(v)) {
        c_text(c, "keys match ");
        c_value(c, v);
        c_end(c);
    }
    if (sd_val_is_false(sd_val_object_get(cs, "additionalProperties"))) {
        c_text(c, "no other keys");
        c_end(c);
    }
    if ((v = sd_val_object_get(cs, "dependentRequired")) && sd_val_is_object(v)) {
        const char *k;
        sd_val_object_foreach(v, k, x) {
            c_text(c, "if ");
            c_code(c, k, strlen(k));
            c_text(c, " is set, also ");
            sd_val *y;
            size_t j;
            sd_val_array_foreach(x, j, y) {
                if (j)
                    c_text(c, ", ");
                c_value(c, y);
            }
            c_end(c);
        }
    }
    x = sd_val_object_get(node, "kubernetes");
    if ((v = sd_val_object_get(x, "list_type")) && sd_val_is_string(v)) {
        c_text(c, "list type ");
        c_value(c, v);
        if ((v = sd_val_object_get(x, "list_map_keys")) && sd_val_is_array(v) && sd_val_array_size(v)) {
            sd_val *y;
            c_text(c, ", keyed by ");
            sd_val_array_foreach(v, i, y) {
                if (i)
                    c_text(c, ", ");
                c_value(c, y);
            }
        }
        c_end(c);
    }
    if (sd_val_is_true(sd_val_object_get(x, "preserve_unknown_fields"))) {
        c_text(c, "unknown fields are kept");
        c_end(c);
    }
    if (sd_val_is_true(sd_val_object_get(x, "embedded_resource"))) {
        c_text(c, "an embedded Kubernetes object");
        c_end(c);
    }
}
