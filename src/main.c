/* main.c - the command line: dispatch subcommands, parse options, load,
 * print diagnostics, set the exit status (0 ok, 1 found wanting, 2 error). */
#include "cli.h"
#include "buf.h"
#include "emit.h"
#include "node.h"
#include "out.h"
#include "sd.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char help_text[] =
"schemadoc " SD_VERSION " - configuration schemas to reference docs, validators and forms\n"
"\n"
"Usage:\n"
"  schemadoc SOURCE [--format FMT] [-o FILE]\n"
"  schemadoc validate SCHEMA VALUES... [--draft D] [--output text|json]\n"
"                     [--formats | --no-formats]\n"
"  schemadoc --help | --version\n"
"\n"
"SOURCE is a Helm chart directory (Chart.yaml, values.yaml, values.schema.json)\n"
"or a schema file (JSON or YAML).\n"
"\n"
"Options:\n"
"  --format FMT    output format; one of: json (default: json)\n"
"                  json: every loaded document with the file:line:column of\n"
"                  each value and the comments attached to each key\n"
"  -o, --output FILE\n"
"                  write to FILE instead of stdout; FILE is replaced only when\n"
"                  the run succeeds (no partial file on error)\n"
"  -h, --help      show this help\n"
"  --version       print the version\n"
"\n"
"validate: check each VALUES file (YAML or JSON, '-' for stdin) against SCHEMA\n"
"(JSON Schema draft 4, 6, 7, 2019-09 or 2020-12, JSON or YAML):\n"
"  --draft D       4, 6, 7, 2019-09 or 2020-12; overrides $schema (default:\n"
"                  $schema, else 2020-12)\n"
"  --output text|json\n"
"                  text (default): diagnostics on stderr, one line per file on\n"
"                  stdout; json: an array with one result object per file\n"
"  --formats       always assert 'format' (default: drafts 4-7 assert,\n"
"                  2019-09 and 2020-12 only annotate)\n"
"  --no-formats    never assert 'format'\n"
"  Exit status: 0 all valid, 1 a violation, 2 input error (see docs/validate.md).\n"
"\n"
"Exit status: 0 success, 1 input read but found wanting, 2 usage or input error.\n"
"Diagnostics go to stderr as FILE:LINE:COL: error: MESSAGE (colour only on a\n"
"terminal, and never when NO_COLOR is set).\n"
"\n"
"Examples:\n"
"  schemadoc samples/podinfo --format json\n"
"  schemadoc values.schema.json -o model.json\n";

void sd_cli_print_diags(const sd_diags *d)
{
    const char *nc = getenv("NO_COLOR");
    int color = isatty(2) && !(nc && *nc);
    fflush(stdout);
    sd_diags_print(d, stderr, color);
}

int sd_cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fputs("schemadoc: error: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs(" (see 'schemadoc --help')\n", stderr);
    return SD_EXIT_ERROR;
}

int sd_cli_opt_value(int argc, char **argv, int *i, const char *name, const char **val)
{
    const char *a = argv[*i];
    size_t n = strlen(name);

    if (strncmp(a, name, n) != 0)
        return 0;
    if (a[n] == '=') {
        *val = a + n + 1;
        return 1;
    }
    if (a[n] != '\0')
        return 0;
    if (*i + 1 >= argc)
        return -1;
    *val = argv[++*i];
    return 1;
}

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
    static const char *const formats[] = { "json", NULL };
    const char *source = NULL, *format = "json", *output = NULL, *v;
    sd_diags diags = SD_DIAGS_INIT;
    sd_buf out = SD_BUF_INIT;
    int i, r, status = SD_EXIT_OK;

    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if ((r = sd_cli_opt_value(argc, argv, &i, "--format", &v)) != 0) {
            if (r < 0)
                return sd_cli_usage_error("option '--format' needs a value: json");
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
        return sd_cli_usage_error("unknown format '%s'; valid formats: json", format);

    if (dump_source(&out, source, &diags) < 0 || sd_buf_failed(&out))
        status = SD_EXIT_ERROR;
    else if (sd_out_write(output, out.ptr, out.len, &diags) < 0)
        status = SD_EXIT_ERROR;
    sd_cli_print_diags(&diags);
    sd_diags_release(&diags);
    sd_buf_release(&out);
    return status;
}

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
} command;

static const command commands[] = {
    { "validate", sd_cmd_validate },
    { NULL, NULL }
};

int main(int argc, char **argv)
{
    if (argc < 2)
        return sd_cli_usage_error("no SOURCE given");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        fputs(help_text, stdout);
        return SD_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("schemadoc %s\n", SD_VERSION);
        return SD_EXIT_OK;
    }
    for (const command *c = commands; c->name; c++)
        if (strcmp(argv[1], c->name) == 0)
            return c->run(argc - 1, argv + 1);
    return sd_cmd_render(argc, argv);
}
