/* SPDX-License-Identifier: Apache-2.0 */
/* cmd_diff.c - `schemadoc diff OLD NEW` (what changed between two versions
 * of a chart, schema, CRD or ytt schema) and `schemadoc upgrade-check OLD
 * NEW VALUES...` (what happens to a user's values on the upgrade). Opens
 * both sources (a packaged chart is unpacked to a temporary directory
 * first), builds both models, compares them (src/diff), writes md, json or
 * html. Exit 0 nothing changed / nothing found, 1 changes / findings
 * (diff --exit-zero: 0), 2 usage or input errors. docs/diff.md */
#include "cli.h"
#include "alloc.h"
#include "archive.h"
#include "buf.h"
#include "diff.h"
#include "model.h"
#include "out.h"
#include "render.h"
#include "sd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One side: the source, its model, and the unpacked archive, if any. */
typedef struct side {
    const char *arg;
    char       *dir, *tmp;
    sd_source  *src;
    sd_val     *model;
} side;

static int open_side(side *s, const sd_source_opts *so, sd_diags *diags)
{
    const char *path = s->arg;

    if (sd_archive_is_tgz(path)) {
        if (sd_archive_unpack(&s->dir, &s->tmp, path, diags) < 0)
            return -1;
        path = s->dir;
    }
    if (sd_source_open(&s->src, path, so, diags) < 0)
        return -1;
    /* a diff compares the model's nodes: the md table's rows are not read */
    sd_model_opts mo = { 0, SD_MODEL_DESC_FALLBACK, 1 };
    if (!(s->model = sd_model_build(s->src, &mo, diags)))
        return -1;
    return 0;
}

/* The unpacked .tgz goes; the model and the documents are left to the end
 * of the process when it is near (sd_cli_skip_free): freeing two models
 * node by node was a twentieth of a diff. */
static void close_side(side *s)
{
    if (!sd_cli_skip_free()) {
        sd_val_decref(s->model);
        sd_source_free(s->src);
    }
    if (s->tmp)
        sd_archive_cleanup(s->tmp);
    free(s->dir);
    free(s->tmp);
}

static const char diff_help[] =
"Usage: schemadoc diff OLD NEW [--format md|json|html] [-o FILE] [--descriptions]\n"
"                      [--exit-zero] [--theme NAME|DIR] [SOURCE OPTIONS]\n"
"       schemadoc upgrade-check OLD NEW VALUES... [--output text|json]\n"
"\n"
"diff: list what changed for users between two versions: keys added, removed\n"
"(saying when they were deprecated), renamed or moved, defaults, types,\n"
"constraints (enum, min/max, pattern, required, additionalProperties),\n"
"deprecations, CRD versions (added, removed, served, storage, deprecation).\n"
"A rename is claimed only on evidence: the chart's upgrade notes, an\n"
"x-renamed-from or '# @schema renamedFrom' annotation, or the same key,\n"
"shape and default; a key with a similar name is only a suggestion.\n"
"OLD and NEW: two chart directories, two packaged charts (.tgz), two JSON\n"
"Schemas, two CRD files or two ytt schemas (docs/diff.md).\n"
"  --format md     a Markdown table for a chart's Upgrading section (default)\n"
"  --format json   {\"changes\": [{\"path\", \"change\", \"from\", \"to\"}, ...]}\n"
"  --format html   one page in the reference page's theme\n"
"  --descriptions  also list changed descriptions\n"
"  --exit-zero     exit 0 even when something changed\n"
"  Exit status: 0 no change, 1 changes, 2 usage or input error.\n"
"\n"
"upgrade-check: the user's VALUES files (merged as 'helm -f' does) against\n"
"NEW: keys set that no longer exist (with the new name when renamed, or a\n"
"key with a similar name to check in the chart's notes), newly\n"
"required keys not set, values NEW's schema refuses, changed defaults under\n"
"keys the user does not set (they silently get the new default), and the\n"
"keys NEW adds whose default does something ('new defaults you will get').\n"
"  Exit status: 0 nothing found, 1 findings, 2 usage or input error.\n";

int sd_cmd_diff(int argc, char **argv)
{
    const char *format = "md", *output = NULL, *theme = NULL, *v;
    side sides[2];
    size_t nsides = 0;
    sd_diff_opts dopts = { 0 };
    sd_source_opts sopts;
    sd_diags diags = SD_DIAGS_INIT;
    sd_buf out = SD_BUF_INIT;
    int i, r, status = SD_EXIT_OK, exit_zero = 0;
    sd_val *diff = NULL;

    memset(&sopts, 0, sizeof sopts);
    memset(sides, 0, sizeof sides);
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(diff_help, stdout);
            free((void *)sopts.maps);
            return SD_EXIT_OK;
        } else if ((r = sd_cli_source_opt(argc, argv, &i, &sopts)) != 0) {
            if (r < 0) {
                free((void *)sopts.maps);
                return SD_EXIT_ERROR;
            }
        } else if ((r = sd_cli_opt_value(argc, argv, &i, "--format", &v)) != 0) {
            if (r < 0 || (strcmp(v, "md") != 0 && strcmp(v, "json") != 0 && strcmp(v, "html") != 0)) {
                free((void *)sopts.maps);
                return sd_cli_usage_error("diff: option '--format' needs one of: md, json, html");
            }
            format = v;
        } else if ((r = sd_cli_opt_value(argc, argv, &i, "--output", &v)) != 0 ||
                   (r = sd_cli_opt_value(argc, argv, &i, "-o", &v)) != 0) {
            if (r < 0) {
                free((void *)sopts.maps);
                return sd_cli_usage_error("option '%s' needs a file name", a);
            }
            output = v;
        } else if ((r = sd_cli_opt_value(argc, argv, &i, "--theme", &v)) != 0) {
            if (r < 0) {
                free((void *)sopts.maps);
                return sd_cli_usage_error("option '--theme' needs a theme name or directory");
            }
            theme = v;
        } else if (strcmp(a, "--descriptions") == 0) {
            dopts.descriptions = 1;
        } else if (strcmp(a, "--exit-zero") == 0) {
            exit_zero = 1;
        } else if (a[0] == '-' && a[1] != '\0') {
            free((void *)sopts.maps);
            return sd_cli_unknown_option(a, SD_CMD_DIFF, "diff");
        } else if (nsides < 2) {
            sides[nsides++].arg = a;
        } else {
            free((void *)sopts.maps);
            return sd_cli_usage_error("diff: more than two sources given ('%s')", a);
        }
    }
    if (nsides < 2) {
        free((void *)sopts.maps);
        return sd_cli_usage_error("diff: give two sources, OLD and NEW");
    }
    if (theme && strcmp(format, "html") != 0) {
        free((void *)sopts.maps);
        return sd_cli_usage_error("diff: '--theme' applies to '--format html'");
    }
    if (open_side(&sides[0], &sopts, &diags) < 0 || open_side(&sides[1], &sopts, &diags) < 0) {
        status = SD_EXIT_ERROR;
        goto done;
    }
    if (sd_source_kind(sides[0].src) != sd_source_kind(sides[1].src)) {
        sd_diag_error(&diags, SD_EUSAGE, (sd_loc){ sides[1].arg, 0, 0 },
                      "diff: OLD and NEW are different kinds of source (a chart, a schema, a CRD file, a ytt schema)");
        status = SD_EXIT_ERROR;
        goto done;
    }
    if (!(diff = sd_diff_models(sides[0].model, sides[1].model, sides[0].src, sides[1].src, &dopts, &diags))) {
        status = SD_EXIT_ERROR;
        goto done;
    }
    r = sd_render_diff(&out, diff, format, theme, "schemadoc " SD_VERSION, &diags);
    if (r < 0 || sd_buf_failed(&out)) {
        if (r == SD_ENOMEM || sd_buf_failed(&out))
            sd_diag_error(&diags, SD_ENOMEM, (sd_loc){ NULL, 0, 0 }, "out of memory");
        status = SD_EXIT_ERROR;
        goto done;
    }
    if (sd_out_write(output, out.ptr, out.len, &diags) < 0) {
        status = SD_EXIT_ERROR;
        goto done;
    }
    status = sd_diff_count(diff) && !exit_zero ? SD_EXIT_FOUND_WANTING : SD_EXIT_OK;
done:
    sd_cli_print_diags(&diags);
    sd_diags_release(&diags);
    sd_buf_release(&out);
    if (!sd_cli_skip_free())
        sd_val_decref(diff);
    close_side(&sides[0]);
    close_side(&sides[1]);
    free((void *)sopts.maps);
    return status;
}

int sd_cmd_upgrade_check(int argc, char **argv)
{
    const char *output = "text", *v;
    side sides[2];
    size_t nsides = 0, nvalues = 0;
    const char **values = NULL;
    sd_source_opts sopts;
    sd_diags diags = SD_DIAGS_INIT;
    sd_buf out = SD_BUF_INIT;
    int i, r, status = SD_EXIT_OK;
    sd_val *diff = NULL, *report = NULL;

    memset(&sopts, 0, sizeof sopts);
    memset(sides, 0, sizeof sides);
    if (!(values = calloc((size_t)argc, sizeof *values)))
        return sd_cli_usage_error("out of memory");
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(diff_help, stdout);
            free(values);
            return SD_EXIT_OK;
        } else if ((r = sd_cli_source_opt(argc, argv, &i, &sopts)) != 0) {
            if (r < 0) {
                status = SD_EXIT_ERROR;
                goto usage;
            }
        } else if ((r = sd_cli_opt_value(argc, argv, &i, "--output", &v)) != 0) {
            if (r < 0 || (strcmp(v, "text") != 0 && strcmp(v, "json") != 0)) {
                status = sd_cli_usage_error("upgrade-check: option '--output' needs one of: text, json");
                goto usage;
            }
            output = v;
        } else if (a[0] == '-' && a[1] != '\0') {
            status = sd_cli_unknown_option(a, SD_CMD_UPGRADE, "upgrade-check");
            goto usage;
        } else if (nsides < 2) {
            sides[nsides++].arg = a;
        } else {
            values[nvalues++] = a;
        }
    }
    if (nsides < 2 || !nvalues) {
        status = sd_cli_usage_error("upgrade-check: give OLD, NEW and at least one values file");
        goto usage;
    }
    if (open_side(&sides[0], &sopts, &diags) < 0 || open_side(&sides[1], &sopts, &diags) < 0) {
        status = SD_EXIT_ERROR;
        goto done;
    }
    if (sd_source_kind(sides[0].src) != sd_source_kind(sides[1].src)) {
        sd_diag_error(&diags, SD_EUSAGE, (sd_loc){ sides[1].arg, 0, 0 },
                      "upgrade-check: OLD and NEW are different kinds of source");
        status = SD_EXIT_ERROR;
        goto done;
    }
    if (!(diff = sd_diff_models(sides[0].model, sides[1].model, sides[0].src, sides[1].src, NULL, &diags)) ||
        !(report = sd_diff_upgrade(diff, sides[0].model, sides[1].model, sides[1].src, values, nvalues, &diags))) {
        status = SD_EXIT_ERROR;
        goto done;
    }
    if (strcmp(output, "json") == 0) {
        char *s = sd_val_dumps(report, SD_VAL_INDENT(2) | SD_VAL_PRESERVE_ORDER);
        if (s) {
            sd_buf_puts(&out, s);
            sd_buf_putc(&out, '\n');
            free(s);
        }
    } else {
        sd_diff_upgrade_text(&out, report);
    }
    fwrite(out.ptr ? out.ptr : "", 1, out.len, stdout);
    status = sd_val_array_size(sd_val_object_get(report, "findings")) ? SD_EXIT_FOUND_WANTING : SD_EXIT_OK;
done:
    sd_cli_print_diags(&diags);
    sd_diags_release(&diags);
    sd_buf_release(&out);
    if (!sd_cli_skip_free()) {
        sd_val_decref(diff);
        sd_val_decref(report);
    }
    close_side(&sides[0]);
    close_side(&sides[1]);
usage:
    free((void *)sopts.maps);
    free(values);
    return status;
}
