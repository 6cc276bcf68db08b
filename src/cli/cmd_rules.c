/* SPDX-License-Identifier: Apache-2.0 */
/* cmd_rules.c - `schemadoc rules SOURCE [-o FILE]`: the compiled validation
 * program of SOURCE as JSON (docs/rules.md), with one entry per thing
 * `validate` checks (source/check.h: sd_check_rules); and `schemadoc rules
 * --runtime [-o FILE]`, the JavaScript interpreter of that program as one ES
 * module. Exit 0, or 2 when the source cannot be read or compiled (nothing
 * is written then). */
#include "cli.h"
#include "buf.h"
#include "check.h"
#include "out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The interpreter as one ES module: build/gen/runtime.c, made from
 * the modules of src/form/ at build time by src/form/embed-runtime.sh. */
extern const char sd_rules_runtime[];
extern const size_t sd_rules_runtime_len;

int sd_cmd_rules(int argc, char **argv)
{
    const char *source = NULL, *output = NULL, *v;
    sd_source_opts sopts;
    sd_check_opts copts;
    sd_source *src = NULL;
    sd_diags diags = SD_DIAGS_INIT;
    sd_buf out = SD_BUF_INIT;
    int r, status = SD_EXIT_OK, runtime = 0;

    memset(&sopts, 0, sizeof sopts);
    memset(&copts, 0, sizeof copts);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if ((r = sd_cli_opt_value(argc, argv, &i, "--draft", &v)) != 0) {
            if (r < 0 || !(copts.draft = sd_draft_from_name(v))) {
                free((void *)sopts.maps);
                return sd_cli_usage_error("option '--draft' needs one of: 4, 6, 7, 2019-09, 2020-12");
            }
        } else if ((r = sd_cli_opt_value(argc, argv, &i, "--output", &v)) != 0 ||
                   (r = sd_cli_opt_value(argc, argv, &i, "-o", &v)) != 0) {
            if (r < 0) {
                free((void *)sopts.maps);
                return sd_cli_usage_error("option '%s' needs a file name", a);
            }
            output = v;
        } else if (!strcmp(a, "--runtime")) {
            runtime = 1;
        } else if (!strcmp(a, "--formats")) {
            copts.formats = SD_FORMATS_ASSERT;
        } else if (!strcmp(a, "--no-formats")) {
            copts.formats = SD_FORMATS_IGNORE;
        } else if ((r = sd_cli_source_opt(argc, argv, &i, &sopts)) != 0) {
            if (r < 0) {
                free((void *)sopts.maps);
                return SD_EXIT_ERROR;
            }
        } else if (a[0] == '-' && a[1]) {
            free((void *)sopts.maps);
            return sd_cli_unknown_option(a, SD_CMD_RULES, "rules");
        } else if (!source) {
            source = a;
        } else {
            free((void *)sopts.maps);
            return sd_cli_usage_error("more than one SOURCE given ('%s' and '%s')", source, a);
        }
    }
    if (runtime) {
        free((void *)sopts.maps);
        if (source)
            return sd_cli_usage_error("'rules --runtime' takes no SOURCE");
        if (sd_out_write(output, sd_rules_runtime, sd_rules_runtime_len, &diags) < 0)
            status = SD_EXIT_ERROR;
        sd_cli_print_diags(&diags);
        sd_diags_release(&diags);
        return status;
    }
    if (!source) {
        free((void *)sopts.maps);
        return sd_cli_usage_error("rules: no SOURCE given");
    }
    /* a forced dialect is also the default of documents reached by $ref */
    if (copts.draft)
        sopts.draft = copts.draft;
    if (sd_source_open(&src, source, &sopts, &diags) < 0 ||
        sd_check_rules(&out, src, &copts, &diags) < 0 ||
        sd_out_write(output, out.ptr, out.len, &diags) < 0)
        status = SD_EXIT_ERROR;
    sd_cli_print_diags(&diags);
    sd_diags_release(&diags);
    sd_buf_release(&out);
    if (!sd_cli_skip_free())
        sd_source_free(src);
    free((void *)sopts.maps);
    return status;
}
