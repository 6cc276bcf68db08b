/* SPDX-License-Identifier: Apache-2.0 */
/* cmd_template.c - `schemadoc template`: render any Mustache template over
 * any JSON, for theme authors. In: a template file, a JSON data file (or
 * stdin), partial directories. Out: the text on stdout or in -o FILE
 * (replaced atomically, never left half-written); exit 0 or 2. */
#include "buf.h"
#include "file.h"
#include "cli.h"
#include "mustache.h"
#include "out.h"
#include "sd.h"

#include "val.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEMPLATE_OUT_MAX ((size_t)512 * 1024 * 1024)  /* stops runaway partials */

static const char template_help[] =
"Usage: schemadoc template FILE.mustache [--data DATA.json] [--partials DIR]... [-o FILE]\n"
"                          [--strict]\n"
"\n"
"Render a Mustache template over JSON data (see docs/templates.md).\n"
"\n"
"Options:\n"
"  --data FILE       the JSON view to render ('-' reads stdin; default: {})\n"
"  --partials DIR    look for {{>name}} as DIR/name.mustache; repeatable, searched\n"
"                    in order, then the template's own directory\n"
"  -o, --output FILE write to FILE (replaced only if rendering succeeds; a\n"
"                    symbolic link is refused, as for every -o)\n"
"  --strict          an unknown partial is an error (default: it renders as\n"
"                    nothing, as the Mustache spec says, with a warning)\n"
"  -h, --help        show this help\n"
"\n"
"Template syntax errors, unreadable data and (with --strict) unknown partials\n"
"exit with status 2,\n"
"reported as FILE:LINE:COL: error: MESSAGE.\n";

static int read_all(FILE *f, sd_buf *out)
{
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        sd_buf_put(out, chunk, n);
    return ferror(f) ? SD_EIO : sd_buf_error(out);
}

static int load_text(sd_buf *out, const char *path, sd_diags *diags)
{
    return sd_file_read_buf(out, path, SD_FILE_MAX, 0, diags);
}

static int load_data(sd_val **out, const char *path, sd_diags *diags)
{
    const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
    sd_buf text = SD_BUF_INIT;
    sd_val_error jerr;
    int err = 0;

    *out = NULL;
    if (strcmp(path, "-") == 0) {
        sd_loc loc = { name, 0, 0 };
        if (read_all(stdin, &text) < 0)
            err = sd_diag_error(diags, SD_EIO, loc, "cannot read data: %s", strerror(errno));
    } else {
        err = load_text(&text, path, diags);
    }
    if (err < 0)
        goto done;
    if (!(*out = sd_val_loadb(text.ptr, text.len, SD_VAL_DECODE_ANY | SD_VAL_ALLOW_NUL, &jerr))) {
        sd_loc loc = { name, jerr.line > 0 ? jerr.line : 0, jerr.line > 0 && jerr.column > 0 ? jerr.column : 0 };
        err = sd_diag_error(diags, strcmp(jerr.text, "out of memory") ? SD_ESYNTAX : SD_ENOMEM, loc,
                            "invalid JSON: %s", jerr.text);
    }
done:
    sd_buf_release(&text);
    return err;
}

/* The directory part of `path`, or "." */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) : 1;
    char *d = malloc(n + 1);
    if (!d)
        return NULL;
    if (!slash)
        memcpy(d, ".", 1);
    else if (n == 0)
        memcpy(d, "/", 1), n = 1;
    else
        memcpy(d, path, n);
    d[n] = '\0';
    return d;
}

int sd_cmd_template(int argc, char **argv)
{
    const char *file = NULL, *data_path = NULL, *output = NULL, *v;
    const char **dirs = NULL;
    size_t ndirs = 0, k;
    sd_diags diags = SD_DIAGS_INIT;
    sd_buf text = SD_BUF_INIT, out;
    sd_mustache_partials *reg = NULL;
    sd_mustache *t = NULL;
    sd_val *data = NULL;
    char *own_dir = NULL;
    int i, r, status = SD_EXIT_ERROR, strict = 0;

    if (!(dirs = calloc((size_t)argc + 1, sizeof *dirs)))
        return sd_cli_usage_error("out of memory");
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(template_help, stdout);
            free(dirs);
            return SD_EXIT_OK;
        } else if (strcmp(a, "--strict") == 0) {
            strict = 1;
        } else if ((r = sd_cli_opt_value(argc, argv, &i, "--data", &v)) != 0) {
            if (r < 0) {
                free(dirs);
                return sd_cli_usage_error("option '--data' needs a file name (or '-' for stdin)");
            }
            data_path = v;
        } else if ((r = sd_cli_opt_value(argc, argv, &i, "--partials", &v)) != 0) {
            if (r < 0) {
                free(dirs);
                return sd_cli_usage_error("option '--partials' needs a directory");
            }
            dirs[ndirs++] = v;
        } else if ((r = sd_cli_opt_value(argc, argv, &i, "--output", &v)) != 0 ||
                   (r = sd_cli_opt_value(argc, argv, &i, "-o", &v)) != 0) {
            if (r < 0) {
                free(dirs);
                return sd_cli_usage_error("option '%s' needs a file name", a);
            }
            output = v;
        } else if (a[0] == '-' && a[1] != '\0') {
            free(dirs);
            return sd_cli_unknown_option(a, SD_CMD_TEMPLATE, "template");
        } else if (!file) {
            file = a;
        } else {
            free(dirs);
            return sd_cli_usage_error("template: more than one template given ('%s' and '%s')", file, a);
        }
    }
    if (!file) {
        free(dirs);
        return sd_cli_usage_error("template: no template file given");
    }

    sd_buf_init(&out, TEMPLATE_OUT_MAX);
    if (load_text(&text, file, &diags) < 0)
        goto done;
    if (sd_mustache_compile(&t, file, text.ptr, text.len, &diags) < 0)
        goto done;
    if (data_path) {
        if (load_data(&data, data_path, &diags) < 0)
            goto done;
    } else if (!(data = sd_val_object())) {
        goto done;
    }
    /* the spec is the contract here: an unknown partial is empty (and
     * warned about) unless --strict asks for the themes' rule */
    if (sd_mustache_partials_new(&reg, strict ? SD_MUSTACHE_STRICT : SD_MUSTACHE_WARN) < 0 ||
        !(own_dir = dir_of(file)))
        goto done;
    for (k = 0; k < ndirs; k++)
        if (sd_mustache_partials_add_dir(reg, dirs[k]) < 0)
            goto done;
    if (sd_mustache_partials_add_dir(reg, own_dir) < 0)
        goto done;
    /* report unknown or broken partials whatever the data selects */
    if (sd_mustache_partials_preload(reg, t, &diags) < 0)
        goto done;
    if (sd_mustache_render(&out, t, data, reg, &diags) < 0)
        goto done;
    if (sd_out_write(output, out.ptr, out.len, &diags) < 0)
        goto done;
    status = SD_EXIT_OK;
done:
    if (status != SD_EXIT_OK && diags.errors == 0) {
        sd_loc loc = { file, 0, 0 };
        sd_diag_error(&diags, SD_ENOMEM, loc, "out of memory");
    }
    sd_cli_print_diags(&diags);
    sd_diags_release(&diags);
    sd_buf_release(&text);
    sd_buf_release(&out);
    sd_mustache_free(t);
    sd_mustache_partials_free(reg);
    sd_val_decref(data);
    free(own_dir);
    free(dirs);
    return status;
}
