/* SPDX-License-Identifier: Apache-2.0 */
/* cmd_validate.c - `schemadoc validate SOURCE VALUES...`: parse the
 * arguments, open the source, check the values files (source/check.h says
 * what is validated against what), print the results. Output: text
 * (diagnostics on stderr, one status line per result on stdout) or json
 * (one array on stdout). Exit 0 when all valid, 1 when any violation, 2 on
 * input errors. docs/validate.md */
#include "cli.h"
#include "buf.h"
#include "check.h"
#include "emit.h"
#include "file.h"
#include "merge.h"
#include "synth.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* --print-values: the merged values with the schema's defaults filled in. */
static void print_values(const sd_check *chk)
{
    sd_doc *filled = sd_synth_new("(effective values)");
    int oom = 0;
    const sd_node *ev = filled ? sd_merge_defaults(filled, sd_check_effective(chk),
                                                   sd_check_effective_schema(chk), &oom) : NULL;
    sd_buf y = SD_BUF_INIT;
    sd_val *j = sd_node_to_val(ev ? ev : sd_check_effective(chk));
    sd_emit_yaml(&y, j, 0);
    sd_val_decref(j);
    fwrite(y.ptr, 1, y.len, stdout);
    sd_buf_release(&y);
    sd_doc_free(filled);
}

/* The diagnostics before `upto` that no result owns and that were not
 * printed yet (the run's own: a schema warning, a note). */
static void print_unowned(const sd_check *chk, const sd_diags *diags, unsigned char *done, size_t upto)
{
    for (size_t d = 0; d < upto && d < diags->count; d++) {
        int owned = 0;
        for (size_t i = 0; i < sd_check_count(chk) && !owned; i++) {
            const sd_check_result *r = sd_check_result_at(chk, i);
            owned = d >= r->diag_first && d < r->diag_first + r->diag_count;
        }
        if (!owned && !done[d]) {
            sd_cli_print_diag_range(diags, d, d + 1);
            done[d] = 1;
        }
    }
}

/* Text: each result's diagnostics, its violations, then its status line;
 * a file's reasons stay with its own status line. */
static void print_text(const sd_check *chk, const sd_diags *diags)
{
    unsigned char *done = calloc(diags->count + 1, 1);

    if (!done) {   /* the order is lost, not a line */
        sd_cli_print_diags(diags);
        return;
    }
    for (size_t i = 0; i < sd_check_count(chk); i++) {
        const sd_check_result *r = sd_check_result_at(chk, i);
        sd_diags v = SD_DIAGS_INIT;
        const char *name = r->label ? r->label : "(values)";

        print_unowned(chk, diags, done, r->diag_first);
        sd_cli_print_diag_range(diags, r->diag_first, r->diag_first + r->diag_count);
        memset(done + r->diag_first, 1, r->diag_count);
        sd_vresult_to_diags(&r->res, &v);
        sd_cli_print_diags(&v);
        sd_diags_release(&v);
        if (r->status < 0 && r->status != SD_EINVALID)
            printf("%s: error\n", name);
        else if (r->status == SD_EINVALID)
            printf("%s: invalid (%zu error%s)\n", name, r->res.total, r->res.total == 1 ? "" : "s");
        else if (r->res.nwarnings)
            printf("%s: valid (%zu warning%s)\n", name, r->res.nwarnings, r->res.nwarnings == 1 ? "" : "s");
        else
            printf("%s: valid\n", name);
    }
    print_unowned(chk, diags, done, diags->count);
    free(done);
}

int sd_cmd_validate(int argc, char **argv)
{
    const char *source = NULL, *output = "text", *v;
    const char **values = NULL;
    size_t nvalues = 0;
    sd_source_opts sopts;
    sd_check_opts copts;
    sd_source *src = NULL;
    sd_check *chk = NULL;
    sd_diags diags = SD_DIAGS_INIT;
    sd_buf out = SD_BUF_INIT;
    int i, r, status, json, want_values = 0;

    memset(&sopts, 0, sizeof sopts);
    memset(&copts, 0, sizeof copts);
    if (!(values = calloc((size_t)argc, sizeof *values)))
        return sd_cli_usage_error("out of memory");
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if ((r = sd_cli_opt_value(argc, argv, &i, "--draft", &v)) != 0) {
            if (r < 0 || !(copts.draft = sd_draft_from_name(v))) {
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
            copts.formats = SD_FORMATS_ASSERT;
        } else if (strcmp(a, "--no-formats") == 0) {
            copts.formats = SD_FORMATS_IGNORE;
        } else if (strcmp(a, "--print-values") == 0) {
            want_values = 1;
        } else if (strcmp(a, "--strict") == 0) {
            copts.strict = 1;
        } else if (strcmp(a, "--each") == 0) {
            copts.each = 1;
        } else if ((r = sd_cli_source_opt(argc, argv, &i, &sopts)) != 0) {
            if (r < 0) {
                free(values);
                free((void *)sopts.maps);
                return SD_EXIT_ERROR;
            }
        } else if (strcmp(a, "--") == 0) {
            for (i++; i < argc; i++) {
                if (!source)
                    source = argv[i];
                else
                    values[nvalues++] = argv[i];
            }
        } else if (a[0] == '-' && a[1] != '\0') {
            free(values);
            free((void *)sopts.maps);
            return sd_cli_unknown_option(a, SD_CMD_VALIDATE, "validate");
        } else if (!source) {
            source = a;
        } else {
            values[nvalues++] = a;
        }
    }
    int is_chart = source && sd_chart_is_dir(source);
    /* (a SOURCE that is not there is reported as such when it is opened) */
    if (!source || (!nvalues && !is_chart && !want_values && access(source, F_OK) == 0)) {
        free(values);
        free((void *)sopts.maps);
        return sd_cli_usage_error(!source ? "validate: no SOURCE given"
                                          : "validate: no VALUES file given (use '-' for standard input)");
    }
    json = strcmp(output, "json") == 0;
    copts.by_position = !json;   /* text is read by a person; json keeps rule order */
    /* a forced dialect is also the default of documents reached by $ref */
    if (copts.draft)
        sopts.draft = copts.draft;

    /* a values file written inside the chart (the ci/ files a shell glob
     * gives) is the chart's: never read through a link out of it */
    status = SD_EXIT_OK;
    for (size_t i = 0; is_chart && i < nvalues && status == SD_EXIT_OK; i++) {
        char *held = NULL;
        if (strcmp(values[i], "-") && sd_file_confine(&held, source, values[i], "values file", &diags) < 0)
            status = SD_EXIT_ERROR;
        free(held);
    }
    if (status == SD_EXIT_ERROR) {
        sd_cli_print_diags(&diags);
        goto done;
    }
    if (sd_source_open(&src, source, &sopts, &diags) < 0 ||
        sd_check_run(&chk, src, values, nvalues, &copts, &diags) < 0) {
        status = SD_EXIT_ERROR;
        if (json) {
            /* still one result object per file: a consumer of the JSON
             * always gets the same shape */
            sd_check_json_failed(&out, values, nvalues, &diags);
            fwrite(out.ptr, 1, out.len, stdout);
        }
        sd_cli_print_diags(&diags);
        goto done;
    }
    status = sd_check_status(chk);
    if (want_values && sd_check_effective(chk))
        print_values(chk);
    if (json) {
        sd_check_json(&out, chk, &diags);
        fwrite(out.ptr, 1, out.len, stdout);
        sd_cli_print_diags(&diags);
    } else {
        print_text(chk, &diags);
    }
done:
    fflush(stdout);
    sd_diags_release(&diags);
    sd_buf_release(&out);
    if (!sd_cli_skip_free()) {
        sd_check_free(chk);
        sd_source_free(src);
    }
    free(values);
    free((void *)sopts.maps);
    return status;
}
