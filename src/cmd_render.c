/* cmd_render.c - `schemadoc SOURCE [--format FMT] [-o FILE]`: load a
 * source, build the model and write it in the chosen format. */
#include "cli.h"
#include "buf.h"
#include "emit.h"
#include "model.h"
#include "node.h"
#include "out.h"
#include "sd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The files of a chart directory that the document view shows, in order. */
static const char *const chart_files[] = {
    "Chart.yaml", "values.yaml", "values.schema.json", "values.schema.yaml",
    "schema-dependencies.json", NULL
};

static int dump_source(sd_buf *out, const char *source, sd_diags *diags)
{
    sd_doc *doc = NULL;
    int err;

    if (!is_dir(source)) {
        if ((err = sd_doc_load_file(&doc, source, SD_FMT_AUTO, NULL, diags)) < 0)
            return err;
        sd_emit_doc_json(out, doc);
        sd_doc_free(doc);
        return 0;
    }
    sd_buf path = SD_BUF_INIT;
    int any = 0;
    sd_buf_puts(out, "[\n");
    for (const char *const *f = chart_files; *f; f++) {
        sd_buf_clear(&path);
        sd_buf_printf(&path, "%s/%s", source, *f);
        if (access(path.ptr, F_OK) != 0)
            continue;
        if ((err = sd_doc_load_file(&doc, path.ptr, SD_FMT_AUTO, NULL, diags)) < 0) {
            sd_buf_release(&path);
            return err;
        }
        if (any++)
            sd_buf_puts(out, ",\n");
        sd_emit_doc_json(out, doc);
        sd_doc_free(doc);
    }
    sd_buf_puts(out, "]\n");
    if (!any) {
        sd_loc l = { source, 0, 0 };
        sd_buf_release(&path);
        return sd_diag_error(diags, SD_ENOTFOUND, l,
                             "not a chart directory: no Chart.yaml, values.yaml or values.schema.json");
    }
    sd_buf_release(&path);
    return 0;
}

int sd_cmd_render(int argc, char **argv)
{
    static const char *const formats[] = { "json", "doc", NULL };
    const char *source = NULL, *format = "json", *output = NULL, *v;
    sd_diags diags = SD_DIAGS_INIT;
    sd_buf out = SD_BUF_INIT;
    int i, r, status = SD_EXIT_OK;
    sd_model_opts mopts;

    memset(&mopts, 0, sizeof mopts);

    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if ((r = sd_cli_model_opt(argc, argv, &i, &mopts)) != 0) {
            if (r < 0) {
                free(mopts.maps);
                return SD_EXIT_ERROR;
            }
        } else if ((r = sd_cli_opt_value(argc, argv, &i, "--format", &v)) != 0) {
            if (r < 0)
                return sd_cli_usage_error("option '--format' needs a value: json, doc");
            format = v;
        } else if ((r = sd_cli_opt_value(argc, argv, &i, "--output", &v)) != 0 ||
                   (r = sd_cli_opt_value(argc, argv, &i, "-o", &v)) != 0) {
            if (r < 0)
                return sd_cli_usage_error("option '%s' needs a file name", a);
            output = v;
        } else if (a[0] == '-' && a[1] != '\0') {
            return sd_cli_usage_error("unknown option '%s'", a);
        } else if (!source) {
            source = a;
        } else {
            return sd_cli_usage_error("more than one SOURCE given ('%s' and '%s')", source, a);
        }
    }
    if (!source)
        return sd_cli_usage_error("no SOURCE given");
    for (r = 0; formats[r] && strcmp(formats[r], format) != 0; r++)
        ;
    if (!formats[r])
        return sd_cli_usage_error("unknown format '%s'; valid formats: json, doc", format);

    if (strcmp(format, "doc") == 0) {
        if (dump_source(&out, source, &diags) < 0 || sd_buf_failed(&out))
            status = SD_EXIT_ERROR;
    } else {
        json_t *m = sd_model_build(source, &mopts, &diags);
        if (!m) {
            status = SD_EXIT_ERROR;
        } else {
            char *s = json_dumps(m, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
            if (s) {
                sd_buf_puts(&out, s);
                sd_buf_putc(&out, '\n');
                free(s);
            } else {
                sd_diag_error(&diags, SD_ENOMEM, (sd_loc){ NULL, 0, 0 }, "out of memory");
                status = SD_EXIT_ERROR;
            }
            json_decref(m);
        }
    }
    if (status == SD_EXIT_OK && sd_out_write(output, out.ptr, out.len, &diags) < 0)
        status = SD_EXIT_ERROR;
    sd_cli_print_diags(&diags);
    sd_diags_release(&diags);
    sd_buf_release(&out);
    free(mopts.maps);
    return status;
}

