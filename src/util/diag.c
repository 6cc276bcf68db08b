/* SPDX-License-Identifier: Apache-2.0 */
/* diag.c - record and print diagnostics (see diag.h). */
#include "diag.h"
#include "alloc.h"
#include "buf.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static char *dupstr(const char *s)
{
    size_t n;
    char *p;

    if (!s)
        return NULL;
    n = strlen(s);
    if ((p = malloc(n + 1)))
        memcpy(p, s, n + 1);
    return p;
}

static int vadd(sd_diags *d, int sev, int code, sd_loc loc, const char *sptr,
                const char *iptr, const char *fmt, va_list ap)
{
    sd_buf msg = SD_BUF_INIT;
    sd_diag *dg;
    size_t max = d->max ? d->max : 10000;

    if (sev == SD_SEV_ERROR)
        d->errors++;
    else if (sev == SD_SEV_WARNING)
        d->warnings++;
    if (d->count >= max)
        return code;
    if (sd_grow((void **)&d->items, &d->alloc, d->count + 1, sizeof *d->items) < 0)
        return code;
    sd_buf_vprintf(&msg, fmt, ap);
    dg = &d->items[d->count++];
    dg->code = code;
    dg->severity = sev;
    dg->loc = loc;
    dg->loc.file = dupstr(loc.file);
    dg->schema_ptr = dupstr(sptr);
    dg->instance_ptr = dupstr(iptr);
    dg->message = sd_buf_detach(&msg);
    dg->end_line = dg->end_column = 0;
    return code;
}

int sd_diag_error(sd_diags *d, int code, sd_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vadd(d, SD_SEV_ERROR, code, loc, NULL, NULL, fmt, ap);
    va_end(ap);
    return code;
}

void sd_diag_warning(sd_diags *d, sd_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vadd(d, SD_SEV_WARNING, 0, loc, NULL, NULL, fmt, ap);
    va_end(ap);
}

int sd_diag_add(sd_diags *d, int severity, int code, sd_loc loc,
                const char *schema_ptr, const char *instance_ptr,
                const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vadd(d, severity, code, loc, schema_ptr, instance_ptr, fmt, ap);
    va_end(ap);
    return code;
}

static const char *sev_word(int sev)
{
    return sev == SD_SEV_ERROR ? "error" : sev == SD_SEV_WARNING ? "warning" : "note";
}

/* Where a diagnostic's text goes: a buffer (sd_diag_format) or a stream
 * through a fixed line buffer (sd_diags_print_range), which allocates
 * nothing: diagnostics are printed after the output was delivered, and an
 * allocation failing there would turn a finished run into "out of memory"
 * with its output file already in place (issue 41). */
typedef struct {
    sd_buf *b;      /* or */
    FILE   *f;
    size_t  n;
    char    line[4096];
} sink;

static void put(sink *k, const char *s)
{
    size_t len = strlen(s);
    if (k->b) {
        sd_buf_put(k->b, s, len);
        return;
    }
    while (len) {
        size_t room = sizeof k->line - k->n, c = len < room ? len : room;
        memcpy(k->line + k->n, s, c);
        k->n += c;
        s += c;
        len -= c;
        if (k->n == sizeof k->line) {
            fwrite(k->line, 1, k->n, k->f);
            k->n = 0;
        }
    }
}

static void put_int(sink *k, const char *fmt, int v)
{
    char t[32];
    snprintf(t, sizeof t, fmt, v);
    put(k, t);
}

static void format_into(sink *k, const sd_diag *dg, int color)
{
    static const char *colors[] = { "\033[1;31m", "\033[1;35m", "\033[1;36m" };

    if (dg->loc.file) {
        if (color)
            put(k, "\033[1m");
        put(k, dg->loc.file);
        if (dg->loc.line > 0) {
            put_int(k, ":%d", dg->loc.line);
            if (dg->loc.column > 0)
                put_int(k, ":%d", dg->loc.column);
        }
        put(k, color ? ":\033[0m " : ": ");
    } else {
        put(k, "schemadoc: ");
    }
    if (color)
        put(k, colors[dg->severity]);
    put(k, sev_word(dg->severity));
    put(k, color ? ":\033[0m " : ": ");
    put(k, dg->message ? dg->message : "(out of memory)");
    if (dg->schema_ptr || dg->instance_ptr) {
        put(k, " [");
        if (dg->schema_ptr) {
            put(k, "schema ");
            put(k, dg->schema_ptr);
        }
        if (dg->schema_ptr && dg->instance_ptr)
            put(k, ", ");
        if (dg->instance_ptr) {
            put(k, "instance ");
            put(k, dg->instance_ptr);
        }
        put(k, "]");
    }
}

char *sd_diag_format(const sd_diag *dg)
{
    sd_buf b = SD_BUF_INIT;
    sink k = { .b = &b };
    format_into(&k, dg, 0);
    return sd_buf_detach(&b);
}

void sd_diags_print_range(const sd_diags *d, size_t from, size_t to, FILE *f, int color)
{
    sink k = { .f = f };

    for (size_t i = from; i < to && i < d->count; i++) {
        format_into(&k, &d->items[i], color);
        put(&k, "\n");
        fwrite(k.line, 1, k.n, f);   /* a line in one write, as far as it fits */
        k.n = 0;
    }
}

void sd_diags_print(const sd_diags *d, FILE *f, int color)
{
    sd_diags_print_range(d, 0, d->count, f, color);
    if (d->errors + d->warnings > d->count)
        fprintf(f, "schemadoc: note: %zu more diagnostics not shown\n",
                d->errors + d->warnings - d->count);
}

void sd_diags_release(sd_diags *d)
{
    size_t i;
    for (i = 0; i < d->count; i++) {
        free((char *)d->items[i].loc.file);
        free(d->items[i].schema_ptr);
        free(d->items[i].instance_ptr);
        free(d->items[i].message);
    }
    free(d->items);
    d->items = NULL;
    d->count = d->alloc = d->errors = d->warnings = 0;
}
