/* SPDX-License-Identifier: Apache-2.0 */
/* val_dump.c - sd_val as JSON text, byte for byte what jansson's
 * json_dumps() writes (val.h: sd_val_dumps, sd_val_dumpb). */
#include "val_int.h"
#include "alloc.h"
#include "buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- writing: json_dumps()'s bytes --------------------------------------- */
static int dump_string(sd_buf *b, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s, *e = p + n, *run;
    size_t k;

    sd_buf_putc(b, '"');
    while (p < e) {
        run = p;
        while (p < e && *p >= 0x20 && *p != '"' && *p != '\\' && *p < 0x80)
            p++;
        if (p > run)
            sd_buf_put(b, (const char *)run, (size_t)(p - run));
        if (p == e)
            break;
        if (*p >= 0x80) {
            if (!(k = utf8_seq(p, e)))
                return -1;
            sd_buf_put(b, (const char *)p, k);
            p += k;
            continue;
        }
        switch (*p) {
        case '"': sd_buf_put(b, "\\\"", 2); break;
        case '\\': sd_buf_put(b, "\\\\", 2); break;
        case '\b': sd_buf_put(b, "\\b", 2); break;
        case '\f': sd_buf_put(b, "\\f", 2); break;
        case '\n': sd_buf_put(b, "\\n", 2); break;
        case '\r': sd_buf_put(b, "\\r", 2); break;
        case '\t': sd_buf_put(b, "\\t", 2); break;
        default: sd_buf_printf(b, "\\u%04X", *p); break;
        }
        p++;
    }
    sd_buf_putc(b, '"');
    return 0;
}

static void dump_real(sd_buf *b, double d)
{
    char s[64], *e, *from;
    int n = snprintf(s, sizeof s - 4, "%.17g", d);
    size_t len;
    if (n < 0)
        return;
    len = (size_t)n;
    for (e = s; *e; e++)
        if (*e == ',')
            *e = '.';   /* a locale's decimal comma */
    if (!strchr(s, '.') && !strchr(s, 'e')) {
        memcpy(s + len, ".0", 3);
        len += 2;
    }
    if ((e = strchr(s, 'e'))) {   /* e+05 -> e5, e-05 -> e-5, as jansson */
        e++;
        from = e + 1;
        if (*e == '-')
            e++;
        while (*from == '0')
            from++;
        if (from != e) {
            memmove(e, from, len - (size_t)(from - s) + 1);
            len -= (size_t)(from - e);
        }
    }
    sd_buf_put(b, s, len);
}

static void indent(sd_buf *b, size_t flags, int depth, int space)
{
    size_t n = SD_VAL_INDENT(flags);
    if (n) {
        sd_buf_putc(b, '\n');
        for (size_t i = 0; i < n * (size_t)depth; i++)
            sd_buf_putc(b, ' ');
    } else if (space && !(flags & SD_VAL_COMPACT)) {
        sd_buf_putc(b, ' ');
    }
}

static _Thread_local const vobj *sort_obj;
static int by_key(const void *x, const void *y)
{
    const member *a = &sort_obj->m[*(const uint32_t *)x], *b = &sort_obj->m[*(const uint32_t *)y];
    size_t la = key_len(a), lb = key_len(b);
    int c = memcmp(a->k, b->k, la < lb ? la : lb);
    return c ? c : (la > lb) - (la < lb);
}

static int dump(sd_buf *b, const sd_val *v, size_t flags, int depth)
{
    uint32_t i;
    switch (v->type) {
    case SD_VAL_NULL: sd_buf_put(b, "null", 4); return 0;
    case SD_VAL_TRUE: sd_buf_put(b, "true", 4); return 0;
    case SD_VAL_FALSE: sd_buf_put(b, "false", 5); return 0;
    case SD_VAL_INTEGER:
        sd_buf_printf(b, "%" SD_VAL_INTEGER_FORMAT, sd_val_integer_value(v));
        return 0;
    case SD_VAL_REAL: dump_real(b, sd_val_real_value(v)); return 0;
    case SD_VAL_STRING: return dump_string(b, sd_val_string_value(v), sd_val_string_length(v));
    case SD_VAL_ARRAY:
        if (!CARR(v)->n) {
            sd_buf_put(b, "[]", 2);
            return 0;
        }
        sd_buf_putc(b, '[');
        for (i = 0; i < CARR(v)->n; i++) {
            if (i)
                sd_buf_putc(b, ',');
            indent(b, flags, depth + 1, i > 0);
            if (dump(b, CARR(v)->it[i], flags, depth + 1) < 0)
                return -1;
        }
        indent(b, flags, depth, 0);
        sd_buf_putc(b, ']');
        return 0;
    case SD_VAL_OBJECT: {
        const vobj *o = COBJ(v);
        uint32_t *order = NULL;
        if (!o->n) {
            sd_buf_put(b, "{}", 2);
            return 0;
        }
        if (flags & SD_VAL_SORT_KEYS) {
            if (!(order = malloc((size_t)o->n * sizeof *order))) {
                sd_alloc_note_failure();
                return -1;
            }
            for (i = 0; i < o->n; i++)
                order[i] = i;
            sort_obj = o;
            qsort(order, o->n, sizeof *order, by_key);
        }
        sd_buf_putc(b, '{');
        for (i = 0; i < o->n; i++) {
            const member *m = &o->m[order ? order[i] : i];
            if (i)
                sd_buf_putc(b, ',');
            indent(b, flags, depth + 1, i > 0);
            if (dump_string(b, m->k, key_len(m)) < 0 ||
                (sd_buf_put(b, flags & SD_VAL_COMPACT ? ":" : ": ", flags & SD_VAL_COMPACT ? 1 : 2),
                 dump(b, MVAL(m), flags, depth + 1) < 0)) {
                free(order);
                return -1;
            }
        }
        free(order);
        indent(b, flags, depth, 0);
        sd_buf_putc(b, '}');
        return 0;
    }
    default:
        return -1;
    }
}

int sd_val_dumpb(sd_buf *b, const sd_val *v, size_t flags)
{
    if (!v || (!(flags & SD_VAL_ENCODE_ANY) && !sd_val_is_object(v) && !sd_val_is_array(v)))
        return -1;
    return dump(b, v, flags, 0) < 0 || sd_buf_failed(b) ? -1 : 0;
}

char *sd_val_dumps(const sd_val *v, size_t flags)
{
    sd_buf b = SD_BUF_INIT;
    if (!v || (!(flags & SD_VAL_ENCODE_ANY) && !sd_val_is_object(v) && !sd_val_is_array(v)))
        return NULL;
    if (dump(&b, v, flags, 0) < 0 || sd_buf_grow(&b, 0)) {
        sd_buf_release(&b);
        return NULL;
    }
    if (!b.alloc) {   /* nothing was written: cannot happen for a value */
        sd_buf_release(&b);
        return NULL;
    }
    return sd_buf_detach(&b);
}
