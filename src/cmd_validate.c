/* cmd_validate.c - `schemadoc validate SCHEMA VALUES...`: compile the schema
 * once, validate each values file (YAML or JSON, `-` for stdin) on its own,
 * print a result per file (text: diagnostics on stderr and one status line
 * per file on stdout; json: one array on stdout). Exit 0 when every file is
 * valid, 1 when any violates the schema, 2 on input errors (unreadable
 * file, unresolvable $ref, bad schema, bad usage). See docs/validate.md. */
#include "buf.h"
#include "cli.h"
#include "emit.h"
#include "node.h"
#include "resolve.h"
#include "sd.h"
#include "validate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stdarg.h>
#include <unistd.h>

#define STDIN_MAX ((size_t)64 << 20)

static int read_stdin(sd_buf *b)
{
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, stdin)) > 0) {
        sd_buf_put(b, chunk, n);
        if (b->len > STDIN_MAX)
            return SD_ELIMIT;
    }
    if (ferror(stdin))
        return SD_EIO;
    return sd_buf_failed(b) ? sd_buf_error(b) : 0;
}

static int load_values(sd_doc **out, const char *path, sd_diags *diags)
{
    if (strcmp(path, "-") == 0) {
        sd_buf in = SD_BUF_INIT;
        sd_loc l = { "<stdin>", 0, 0 };
        int err = read_stdin(&in);
        if (err < 0) {
            sd_buf_release(&in);
            *out = NULL;
            return sd_diag_error(diags, err, l, err == SD_ELIMIT ? "standard input is larger than the limit of 64 MiB"
                                                                 : "cannot read standard input");
        }
        err = sd_doc_load_mem(out, "<stdin>", in.ptr, in.len, SD_FMT_AUTO, NULL, diags);
        sd_buf_release(&in);
        return err;
    }
    return sd_doc_load_file(out, path, SD_FMT_AUTO, NULL, diags);
}

static void json_error(sd_buf *o, const sd_verror *e, const char *file)
{
    sd_buf_puts(o, "{\"path\": ");
    sd_emit_json_string(o, e->path, strlen(e->path));
    sd_buf_puts(o, ", \"key\": ");
    sd_emit_json_string(o, e->key, strlen(e->key));
    sd_buf_puts(o, ", \"file\": ");
    sd_emit_json_string(o, e->loc.file ? e->loc.file : file, strlen(e->loc.file ? e->loc.file : file));
    sd_buf_printf(o, ", \"line\": %d, \"column\": %d, \"keyword\": ", e->loc.line, e->loc.column);
    sd_emit_json_string(o, e->keyword, strlen(e->keyword));
    sd_buf_puts(o, ", \"message\": ");
    sd_emit_json_string(o, e->message, strlen(e->message));
    sd_buf_puts(o, ", \"schemaLocation\": ");
    {
        sd_buf l = SD_BUF_INIT;
        if (e->schema_loc.file)
            sd_buf_printf(&l, "%s:%d:%d", e->schema_loc.file, e->schema_loc.line, e->schema_loc.column);
        sd_emit_json_string(o, l.ptr, l.len);
        sd_buf_release(&l);
    }
    sd_buf_puts(o, ", \"schemaPath\": ");
    sd_emit_json_string(o, e->schema_path, strlen(e->schema_path));
    sd_buf_putc(o, '}');
}

static void json_diags(sd_buf *o, const sd_diags *d, size_t from, int severity)
{
    int any = 0;
    sd_buf_putc(o, '[');
    for (size_t i = from; i < d->count; i++) {
        const sd_diag *g = &d->items[i];
        char *line;
        if (g->severity != severity)
            continue;
        line = sd_diag_format(g);
        sd_buf_puts(o, any++ ? ", " : "");
        sd_emit_json_string(o, line ? line : "", line ? strlen(line) : 0);
        free(line);
    }
    sd_buf_putc(o, ']');
}

int sd_cmd_validate(int argc, char **argv)
{
    const char *schema_path = NULL, *output = "text", *v;
    const char **values = NULL;
    size_t nvalues = 0;
    sd_validate_opts opts = { 0 };
    sd_diags diags = SD_DIAGS_INIT;
    sd_doc *sdoc = NULL;
    sd_validator *val = NULL;
    sd_file_loader *fl = NULL;
    sd_buf out = SD_BUF_INIT;
    char *base = NULL;
    int i, r, status = SD_EXIT_OK, json;

    if (!(values = calloc((size_t)argc, sizeof *values)))
        return sd_cli_usage_error("out of memory");
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if ((r = sd_cli_opt_value(argc, argv, &i, "--draft", &v)) != 0) {
            if (r < 0 || !(opts.draft = sd_draft_from_name(v))) {
                free(values);
                return sd_cli_usage_error("option '--draft' needs one of: 4, 6, 7, 2019-09, 2020-12");
            }
        } else if ((r = sd_cli_opt_value(argc, argv, &i, "--output", &v)) != 0) {
            if (r < 0 || (strcmp(v, "text") != 0 && strcmp(v, "json") != 0)) {
                free(values);
                return sd_cli_usage_error("option '--output' needs one of: text, json");
            }
            output = v;
        } else if (strcmp(a, "--formats") == 0) {
            opts.formats = SD_FORMATS_ASSERT;
        } else if (strcmp(a, "--no-formats") == 0) {
            opts.formats = SD_FORMATS_IGNORE;
        } else if (strcmp(a, "--") == 0) {
            for (i++; i < argc; i++) {
                if (!schema_path)
                    schema_path = argv[i];
                else
                    values[nvalues++] = argv[i];
            }
        } else if (a[0] == '-' && a[1] != '\0') {
            free(values);
            return sd_cli_usage_error("unknown option '%s' for 'validate'", a);
        } else if (!schema_path) {
            schema_path = a;
        } else {
            values[nvalues++] = a;
        }
    }
    if (!schema_path || !nvalues) {
        free(values);
        return sd_cli_usage_error(!schema_path ? "validate: no SCHEMA given"
                                               : "validate: no VALUES file given (use '-' for standard input)");
    }
    json = strcmp(output, "json") == 0;

    /* the schema: load, compile; any failure is an input error */
    if (sd_doc_load_file(&sdoc, schema_path, SD_FMT_AUTO, NULL, &diags) < 0) {
        status = SD_EXIT_ERROR;
        goto done;
    }
    if (!sd_doc_root(sdoc)) {
        sd_loc l = { schema_path, 0, 0 };
        sd_diag_error(&diags, SD_ESYNTAX, l, "the schema file is empty");
        status = SD_EXIT_ERROR;
        goto done;
    }
    fl = sd_file_loader_new();
    base = sd_vuri_from_path(schema_path);
    opts.load = sd_file_loader_load;
    opts.payload = fl;
    opts.base_uri = base;
    if (!fl || !base || sd_validator_new(&val, sdoc, sd_doc_root(sdoc), &opts, &diags) < 0) {
        status = SD_EXIT_ERROR;
        goto done;
    }

    if (json)
        sd_buf_puts(&out, "[");
    for (size_t f = 0; f < nvalues; f++) {
        const char *name = strcmp(values[f], "-") == 0 ? "<stdin>" : values[f];
        sd_doc *doc = NULL;
        sd_vresult res = SD_VRESULT_INIT;
        size_t mark = diags.count;
        int input_error = 0, any_invalid = 0;

        if (load_values(&doc, values[f], &diags) < 0) {
            input_error = 1;
        } else if (doc->nroots == 0) {
            /* an empty values file is an empty map, as Helm reads it */
            sd_node empty;
            memset(&empty, 0, sizeof empty);
            empty.kind = SD_MAP;
            empty.loc.file = doc->file;
            empty.loc.line = 1;
            empty.loc.column = 1;
            r = sd_validate(val, &empty, &res, &diags);
            if (r == SD_EINVALID) any_invalid = 1;
            else if (r < 0) input_error = 1;
        } else {
            for (size_t d = 0; d < doc->nroots; d++) {
                r = sd_validate(val, doc->roots[d].node, &res, &diags);
                if (r == SD_EINVALID) any_invalid = 1;
                else if (r < 0) input_error = 1;
            }
        }
        if (input_error)
            status = SD_EXIT_ERROR;
        else if (any_invalid && status == SD_EXIT_OK)
            status = SD_EXIT_FOUND_WANTING;
        if (json) {
            sd_buf_puts(&out, f ? ",\n " : "\n ");
            sd_buf_puts(&out, "{\"file\": ");
            sd_emit_json_string(&out, name, strlen(name));
            sd_buf_printf(&out, ", \"valid\": %s, \"errors\": [", !input_error && !any_invalid ? "true" : "false");
            for (size_t k = 0; k < res.count; k++) {
                sd_buf_puts(&out, k ? ",\n   " : "\n   ");
                json_error(&out, &res.items[k], name);
            }
            sd_buf_puts(&out, res.count ? "\n  ]" : "]");
            if (res.total > res.count)
                sd_buf_printf(&out, ", \"errorsNotShown\": %zu", res.total - res.count);
            if (input_error) {
                sd_buf_puts(&out, ", \"inputErrors\": ");
                json_diags(&out, &diags, mark, SD_SEV_ERROR);
            }
            sd_buf_puts(&out, ", \"warnings\": [");
            for (size_t k = 0; k < res.nwarnings; k++) {
                sd_buf_puts(&out, k ? ",\n   " : "\n   ");
                json_error(&out, &res.warnings[k], name);
            }
            sd_buf_puts(&out, res.nwarnings ? "\n  ]}" : "]}");
        } else {
            sd_vresult_to_diags(&res, &diags);
            sd_cli_print_diags(&diags);
            sd_diags_release(&diags);
            if (input_error)
                printf("%s: error\n", name);
            else if (any_invalid)
                printf("%s: invalid (%zu error%s)\n", name, res.total, res.total == 1 ? "" : "s");
            else if (res.nwarnings)
                printf("%s: valid (%zu warning%s)\n", name, res.nwarnings, res.nwarnings == 1 ? "" : "s");
            else
                printf("%s: valid\n", name);
        }
        sd_vresult_release(&res);
        sd_doc_free(doc);
    }
    if (json) {
        sd_buf_puts(&out, "\n]\n");
        fwrite(out.ptr, 1, out.len, stdout);
    }
done:
    if (json && status == SD_EXIT_ERROR && !val) {
        /* the schema failed: still one result object per file, so that a
         * consumer of the JSON always gets the same shape */
        sd_buf_clear(&out);
        sd_buf_putc(&out, '[');
        for (size_t f = 0; f < nvalues; f++) {
            const char *name = strcmp(values[f], "-") == 0 ? "<stdin>" : values[f];
            sd_buf_puts(&out, f ? ",\n " : "\n ");
            sd_buf_puts(&out, "{\"file\": ");
            sd_emit_json_string(&out, name, strlen(name));
            sd_buf_puts(&out, ", \"valid\": false, \"errors\": [], \"inputErrors\": ");
            json_diags(&out, &diags, 0, SD_SEV_ERROR);
            sd_buf_puts(&out, ", \"warnings\": []}");
        }
        sd_buf_puts(&out, "\n]\n");
        fwrite(out.ptr, 1, out.len, stdout);
    }
    fflush(stdout);
    sd_cli_print_diags(&diags);
    sd_diags_release(&diags);
    sd_buf_release(&out);
    sd_validator_free(val);
    sd_file_loader_free(fl);
    sd_doc_free(sdoc);
    free(base);
    free(values);
    return status;
}
