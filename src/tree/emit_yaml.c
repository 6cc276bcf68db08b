/* SPDX-License-Identifier: Apache-2.0 */
/* emit_yaml.c - sd_val values as block YAML: defaults and examples in
 * pages, --print-values, as a chart author would write them in values.yaml. Strings
 * stay plain unless YAML 1.1 or 1.2 would read them as something else
 * (true, yes, 012, 1e3, null, ~, ...) or they hold YAML syntax; multi-line
 * strings become literal blocks with the right chomping indicator. */
#include "emit.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int yaml_plain_ok(const char *s, size_t n)
{
#define W(s) { s, sizeof s - 1 }
    static const struct { const char *s; size_t n; } words[] = {
        W("null"), W("Null"), W("NULL"), W("~"), W("true"), W("True"), W("TRUE"), W("false"),
        W("False"), W("FALSE"), W("yes"), W("Yes"), W("YES"), W("no"), W("No"), W("NO"),
        W("on"), W("On"), W("ON"), W("off"), W("Off"), W("OFF"), W("y"), W("Y"), W("n"),
        W("N"), W(".inf"), W(".Inf"), W(".INF"), W("-.inf"), W(".nan"), W(".NaN"), W(".NAN")
    };
#undef W
    if (n == 0 || s[0] == ' ' || s[n - 1] == ' ' || s[n - 1] == ':')
        return 0;
    if (strchr("-?:,[]{}#&*!|>'\"%@`", s[0]))
        return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f)
            return 0;
        if (c == ':' && i + 1 < n && s[i + 1] == ' ')
            return 0;
        if (c == '#' && i > 0 && s[i - 1] == ' ')
            return 0;
    }
    for (size_t w = 0; n <= 5 && w < sizeof words / sizeof *words; w++)
        if (words[w].n == n && memcmp(words[w].s, s, n) == 0)
            return 0;
    /* Anything that starts like a number is quoted: 012, 1e3, +1, .5, 1_000. */
    if (isdigit((unsigned char)s[0]) ||
        ((s[0] == '+' || s[0] == '.') && n > 1 && isdigit((unsigned char)s[1])))
        return 0;
    return 1;
}

static void yaml_quoted(sd_buf *b, const char *s, size_t n)
{
    sd_buf_putc(b, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '"': sd_buf_puts(b, "\\\""); break;
        case '\\': sd_buf_puts(b, "\\\\"); break;
        case '\n': sd_buf_puts(b, "\\n"); break;
        case '\t': sd_buf_puts(b, "\\t"); break;
        case '\r': sd_buf_puts(b, "\\r"); break;
        default:
            if (c < 0x20 || c == 0x7f)
                sd_buf_printf(b, "\\x%02x", c);
            else
                sd_buf_putc(b, (char)c);
        }
    }
    sd_buf_putc(b, '"');
}

static void pad(sd_buf *b, int n)
{
    while (n-- > 0)
        sd_buf_putc(b, ' ');
}

/* A multi-line string as a literal block: printable, no '\r', no tab, and
 * the first line does not start with a space (which would need an
 * indentation indicator). */
static int yaml_block_ok(const char *s, size_t n)
{
    if (!memchr(s, '\n', n) || s[0] == ' ' || s[0] == '\n')
        return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c < 0x20 && c != '\n') || c == 0x7f)
            return 0;
    }
    return 1;
}

static void yaml_string(sd_buf *b, const char *s, size_t n, int indent)
{
    if (yaml_plain_ok(s, n)) {
        sd_buf_put(b, s, n);
    } else if (yaml_block_ok(s, n)) {
        size_t trail = 0, i = 0;
        while (trail < n && s[n - 1 - trail] == '\n')
            trail++;
        sd_buf_puts(b, trail == 0 ? "|-" : trail == 1 ? "|" : "|+");
        while (i < n - trail) {
            const char *nl = memchr(s + i, '\n', n - trail - i);
            size_t e = nl ? (size_t)(nl - s) : n - trail;
            sd_buf_putc(b, '\n');
            if (e > i)
                pad(b, indent);
            sd_buf_put(b, s + i, e - i);
            i = e + 1;
        }
        for (i = 1; i < trail; i++)
            sd_buf_putc(b, '\n');
    } else {
        yaml_quoted(b, s, n);
    }
}

static void yaml_real(sd_buf *b, double d)
{
    char tmp[40];
    if (isnan(d)) { sd_buf_puts(b, ".nan"); return; }
    if (isinf(d)) { sd_buf_puts(b, d < 0 ? "-.inf" : ".inf"); return; }
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, d);
        if (strtod(tmp, NULL) == d)
            break;
    }
    sd_buf_puts(b, tmp);
    if (!strpbrk(tmp, ".eEn"))
        sd_buf_puts(b, ".0");
}

/* A scalar or an empty container, then a newline. */
static void yaml_scalar(sd_buf *b, sd_val *v, int indent)
{
    switch (v ? sd_val_typeof(v) : SD_VAL_NULL) {
    case SD_VAL_STRING: yaml_string(b, sd_val_string_value(v), sd_val_string_length(v), indent); break;
    case SD_VAL_INTEGER: sd_buf_printf(b, "%" SD_VAL_INTEGER_FORMAT, sd_val_integer_value(v)); break;
    case SD_VAL_REAL: yaml_real(b, sd_val_real_value(v)); break;
    case SD_VAL_TRUE: sd_buf_puts(b, "true"); break;
    case SD_VAL_FALSE: sd_buf_puts(b, "false"); break;
    case SD_VAL_OBJECT: sd_buf_puts(b, "{}"); break;
    case SD_VAL_ARRAY: sd_buf_puts(b, "[]"); break;
    default: sd_buf_puts(b, "null"); break;
    }
    sd_buf_putc(b, '\n');
}

static int nonempty_container(sd_val *v)
{
    return (sd_val_is_object(v) && sd_val_object_size(v) > 0) ||
           (sd_val_is_array(v) && sd_val_array_size(v) > 0);
}

static void yaml_node(sd_buf *b, sd_val *v, int indent, int first_inline)
{
    const char *k;
    sd_val *x;
    size_t i, n = 0;

    if (sd_val_is_object(v) && sd_val_object_size(v)) {
        sd_val_object_foreach(v, k, x) {
            if (n++ || !first_inline)
                pad(b, indent);
            yaml_string(b, k, strlen(k), indent + 2);
            sd_buf_putc(b, ':');
            if (nonempty_container(x)) {
                sd_buf_putc(b, '\n');
                yaml_node(b, x, sd_val_is_array(x) ? indent : indent + 2, 0);
            } else {
                sd_buf_putc(b, ' ');
                yaml_scalar(b, x, indent + 2);
            }
        }
    } else if (sd_val_is_array(v) && sd_val_array_size(v)) {
        sd_val_array_foreach(v, i, x) {
            if (n++ || !first_inline)
                pad(b, indent);
            sd_buf_puts(b, "- ");
            if (nonempty_container(x))
                yaml_node(b, x, indent + 2, 1);
            else
                yaml_scalar(b, x, indent + 2);
        }
    } else {
        if (!first_inline)
            pad(b, indent);
        yaml_scalar(b, v, indent + 2);
    }
}

void sd_emit_yaml(sd_buf *out, sd_val *v, int indent)
{
    yaml_node(out, v, indent, 0);
}

