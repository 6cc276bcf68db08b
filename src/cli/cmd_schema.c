/* cmd_schema.c - `schemadoc schema SOURCE [--draft 7|2020-12] [-o FILE]`:
 * print the chart's schema (values.schema.json, or values.schema.yaml as
 * JSON), or one derived from values.yaml when the chart has none, so that a
 * chart without a schema can start one. */
#include "cli.h"
#include "emit.h"
#include "out.h"

#include <stdlib.h>
#include <string.h>

int sd_cmd_schema(int argc, char **argv)
{
    const char *source = NULL, *output = NULL, *v;
    int draft = 2020, r, status = SD_EXIT_OK;
    sd_diags diags = SD_DIAGS_INIT;
    sd_buf out = SD_BUF_INIT;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if ((r = sd_cli_opt_value(argc, argv, &i, "--draft", &v)) != 0) {
            if (r < 0 || (strcmp(v, "7") && strcmp(v, "2020-12")))
                return sd_cli_usage_error("option '--draft' takes 7 or 2020-12");
            draft = strcmp(v, "7") ? 2020 : 7;
        } else if ((r = sd_cli_opt_value(argc, argv, &i, "--output", &v)) != 0 ||
                   (r = sd_cli_opt_value(argc, argv, &i, "-o", &v)) != 0) {
            if (r < 0)
                return sd_cli_usage_error("option '%s' needs a file name", a);
            output = v;
        } else if (a[0] == '-' && a[1]) {
            return sd_cli_unknown_option(a, SD_CMD_SCHEMA, "schema");
        } else if (!source) {
            source = a;
        } else {
            return sd_cli_usage_error("more than one SOURCE given ('%s' and '%s')", source, a);
        }
    }
    if (!source)
        return sd_cli_usage_error("'schema' needs a chart directory");
    sd_source *src = NULL;
    const sd_chart *ch;
    if (!sd_chart_is_dir(source)) {
        sd_diag_error(&diags, SD_ENOTFOUND, (sd_loc){ source, 0, 0 },
                      "'schema' needs a chart directory (one with a Chart.yaml)");
        status = SD_EXIT_ERROR;
    } else if (sd_source_open(&src, source, NULL, &diags) < 0) {
        status = SD_EXIT_ERROR;
    } else if ((ch = sd_source_chart(src))->schema) {
        sd_emit_json(&out, ch->schema, sd_doc_root(ch->schema), SD_EMIT_PRETTY, 0);
        sd_buf_putc(&out, '\n');
    } else {
        const sd_doc *s = sd_source_derived_schema(src, draft, &diags);
        if (!s) {
            status = SD_EXIT_ERROR;
        } else {
            sd_emit_json(&out, s, sd_doc_root(s), SD_EMIT_PRETTY, 0);
            sd_buf_putc(&out, '\n');
        }
    }
    if (status == SD_EXIT_OK && (sd_buf_failed(&out) || sd_out_write(output, out.ptr, out.len, &diags) < 0))
        status = SD_EXIT_ERROR;
    sd_source_free(src);
    sd_cli_print_diags(&diags);
    sd_diags_release(&diags);
    sd_buf_release(&out);
    return status;
}
