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

static void format_into(sd_buf *b, const sd_diag *dg, int color)
{
    static const char *colors[] = { "\033[1;31m", "\033[1;35m", "\033[1;36m" };

    if (dg->loc.file) {
        if (color)
            sd_buf_puts(b, "\033[1m");
        sd_buf_puts(b, dg->loc.file);
        if (dg->loc.line > 0) {
            sd_buf_printf(b, ":%d", dg->loc.line);
            if (dg->loc.column > 0)
                sd_buf_printf(b, ":%d", dg->loc.column);
        }
        sd_buf_puts(b, color ? ":\033[0m " : ": ");
    } else {
        sd_buf_puts(b, "schemadoc: ");
    }
    if (color)
        sd_buf_puts(b, colors[dg->severity]);
    sd_buf_puts(b, sev_word(dg->severity));
    sd_buf_puts(b, color ? ":\033[0m " : ": ");
    sd_buf_puts(b, dg->message ? dg->message : "(out of memory)");
    if (dg->schema_ptr || dg->instance_ptr) {
        sd_buf_puts(b, " [");
        if (dg->schema_ptr)
            sd_buf_printf(b, "schema %s", dg->schema_ptr);
        if (dg->schema_ptr && dg->instance_ptr)
            sd_buf_puts(b, ", ");
        if (dg->instance_ptr)
            sd_buf_printf(b, "instance %s", dg->instance_ptr);
        sd_buf_putc(b, ']');
    }
}

char *sd_diag_format(const sd_diag *dg)
{
    sd_buf b = SD_BUF_INIT;
    format_into(&b, dg, 0);
    return sd_buf_detach(&b);
}

void sd_diags_print_range(const sd_diags *d, size_t from, size_t to, FILE *f, int color)
{
    sd_buf b = SD_BUF_INIT;

    for (size_t i = from; i < to && i < d->count; i++) {
        sd_buf_clear(&b);
        format_into(&b, &d->items[i], color);
        sd_buf_putc(&b, '\n');
        fwrite(b.ptr, 1, b.len, f);
    }
    sd_buf_release(&b);
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
