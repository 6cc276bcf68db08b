/* SPDX-License-Identifier: Apache-2.0 */
/* check_json.c - the results of a check (check.h) as the JSON array of
 * `validate --output json` (docs/validate.md): one object per result with
 * its verdict, errors, warnings and input errors. */
#include "check.h"
#include "alloc.h"
#include "buf.h"
#include "emit.h"

#include <stdlib.h>
#include <string.h>

static void json_str(sd_buf *o, const char *s)
{
    if (!s) {   /* a string the validator could not allocate */
        sd_alloc_note_failure();
        s = "";
    }
    sd_emit_json_string(o, s, strlen(s));
}

static void json_error(sd_buf *o, const sd_verror *e, const char *file)
{
    sd_buf_puts(o, "{\"path\": ");
    json_str(o, e->path);
    sd_buf_puts(o, ", \"key\": ");
    json_str(o, e->key);
    sd_buf_puts(o, ", \"file\": ");
    json_str(o, e->loc.file ? e->loc.file : file);
    sd_buf_printf(o, ", \"line\": %d, \"column\": %d, ", e->loc.line, e->loc.column);
    if (e->end_line)
        sd_buf_printf(o, "\"endLine\": %d, \"endColumn\": %d, ", e->end_line, e->end_column);
    sd_buf_puts(o, "\"keyword\": ");
    json_str(o, e->keyword);
    sd_buf_puts(o, ", \"message\": ");
    json_str(o, e->message);
    sd_buf_puts(o, ", \"schemaLocation\": ");
    {
        sd_buf l = SD_BUF_INIT;
        if (e->schema_loc.file)
            sd_buf_printf(&l, "%s:%d:%d", e->schema_loc.file, e->schema_loc.line, e->schema_loc.column);
        sd_emit_json_string(o, l.ptr, l.len);
        sd_buf_release(&l);
    }
    sd_buf_puts(o, ", \"schemaPath\": ");
    json_str(o, e->schema_path);
    sd_buf_putc(o, '}');
}

/* The error lines of diags[from..to) as a JSON array of strings. */
static void json_diags(sd_buf *o, const sd_diags *d, size_t from, size_t to)
{
    int any = 0;
    sd_buf_putc(o, '[');
    for (size_t i = from; i < to && i < d->count; i++) {
        const sd_diag *g = &d->items[i];
        char *line;
        if (g->severity != SD_SEV_ERROR)
            continue;
        line = sd_diag_format(g);
        sd_buf_puts(o, any++ ? ", " : "");
        sd_emit_json_string(o, line ? line : "", line ? strlen(line) : 0);
        free(line);
    }
    sd_buf_putc(o, ']');
}

void sd_check_json(sd_buf *out, const sd_check *k, const sd_diags *diags)
{
    sd_buf_puts(out, "[");
    for (size_t f = 0; f < sd_check_count(k); f++) {
        const sd_check_result *r = sd_check_result_at(k, f);
        const char *name = r->label ? r->label : "(values)";
        int input_error = r->status < 0 && r->status != SD_EINVALID;
        sd_buf_puts(out, f ? ",\n " : "\n ");
        sd_buf_puts(out, "{\"file\": ");
        json_str(out, name);
        sd_buf_printf(out, ", \"valid\": %s, \"errors\": [", r->status == 0 ? "true" : "false");
        for (size_t i = 0; i < r->res.count; i++) {
            sd_buf_puts(out, i ? ",\n   " : "\n   ");
            json_error(out, &r->res.items[i], name);
        }
        sd_buf_puts(out, r->res.count ? "\n  ]" : "]");
        if (r->res.total > r->res.count)
            sd_buf_printf(out, ", \"errorsNotShown\": %zu", r->res.total - r->res.count);
        if (input_error) {
            sd_buf_puts(out, ", \"inputErrors\": ");
            json_diags(out, diags, r->diag_first, r->diag_first + r->diag_count);
        }
        sd_buf_puts(out, ", \"warnings\": [");
        for (size_t i = 0; i < r->res.nwarnings; i++) {
            sd_buf_puts(out, i ? ",\n   " : "\n   ");
            json_error(out, &r->res.warnings[i], name);
        }
        sd_buf_puts(out, r->res.nwarnings ? "\n  ]}" : "]}");
    }
    sd_buf_puts(out, "\n]\n");
}

void sd_check_json_failed(sd_buf *out, const char *const *files, size_t nfiles, const sd_diags *diags)
{
    sd_buf_putc(out, '[');
    for (size_t f = 0; f < nfiles; f++) {
        const char *name = strcmp(files[f], "-") == 0 ? "<stdin>" : files[f];
        sd_buf_puts(out, f ? ",\n " : "\n ");
        sd_buf_puts(out, "{\"file\": ");
        json_str(out, name);
        sd_buf_puts(out, ", \"valid\": false, \"errors\": [], \"inputErrors\": ");
        json_diags(out, diags, 0, diags->count);
        sd_buf_puts(out, ", \"warnings\": []}");
    }
    sd_buf_puts(out, "\n]\n");
}
