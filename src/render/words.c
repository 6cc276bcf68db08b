/* words.c - constraints in words: "1 ≤ value ≤ 65535", "matches `^a`", once
 * as HTML and once as Markdown by the same calls. */
#include "render_int.h"
#include "emit.h"
#include "markdown.h"
#include "sd.h"

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
}

static void c_code(cons *c, const char *s, size_t n)
{
    sd_buf_puts(&c->html, "<code>");
    sd_buf_put_escaped(&c->html, SD_ESC_HTML, s, n);
    sd_buf_puts(&c->html, "</code>");
    sd_render__md_code(&c->md, s, n);
}

/* A value as code: strings as written, anything else as JSON. */
static void c_value(cons *c, json_t *v)
{
    if (json_is_string(v)) {
        c_code(c, json_string_value(v), json_string_length(v));
    } else {
        sd_buf tmp = SD_BUF_INIT;
        sd_render__put_json(&tmp, v);
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
        sd_render__put_json(&tmp, v);
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

void sd_render__constraints(cons *c, json_t *node)
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
