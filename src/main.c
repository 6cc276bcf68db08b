/* main.c - the command line: dispatch subcommands, parse options, load,
 * print diagnostics, set the exit status (0 ok, 1 found wanting, 2 error). */
#include "cli.h"
#include "sd.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char help_text[] =
"schemadoc " SD_VERSION " - configuration schemas to reference docs, validators and forms\n"
"\n"
"Usage:\n"
"  schemadoc SOURCE [--format FMT] [-o FILE]\n"
"  schemadoc SOURCE --format html|md [--theme NAME|DIR] [--template FILE] [-o FILE]\n"
"  schemadoc SOURCE --readme README.md [--check]\n"
"  schemadoc --help | --version\n"
"\n"
"SOURCE is a Helm chart directory (Chart.yaml, values.yaml, values.schema.json)\n"
"or a schema file (JSON or YAML).\n"
"\n"
"Options:\n"
"  --format FMT    output format; one of: json, doc, html, md (default: json,\n"
"                  or md with --readme)\n"
"                  html: one self-contained reference page (inline CSS/JS,\n"
"                  no network requests, readable without JavaScript)\n"
"                  md: GitHub Markdown with helm-docs style tables\n"
"                  json: the normalized model (docs/model.md): metadata, the\n"
"                  node tree, shared definitions, parameter rows\n"
"                  doc: every loaded document with the file:line:column of\n"
"                  each value and the comments attached to each key\n"
"  -o, --output FILE\n"
"                  write to FILE instead of stdout; FILE is replaced only when\n"
"                  the run succeeds (no partial file on error)\n""  --theme NAME|DIR\n"
"                  html/md look: a built-in theme (default, compact) or a\n"
"                  directory of templates overriding the default theme's\n"
"                  (docs/themes.md)\n"
"  --template FILE a custom top-level Mustache template; it receives the same\n"
"                  view as the built-in ones\n"
"  --readme FILE   rewrite only the part of FILE between the lines\n"
"                  <!-- schemadoc:start --> and <!-- schemadoc:end -->\n"
"                  (appended at the end when absent) with the md output\n"
"  --check         write nothing; if the --readme or -o FILE would change,\n"
"                  print a unified diff and exit 1 (0 when up to date)\n"
"  -h, --help      show this help\n"
"  --version       print the version\n"
"\n"
"Exit status: 0 success, 1 input read but found wanting, 2 usage or input error.\n"
"Diagnostics go to stderr as FILE:LINE:COL: error: MESSAGE (colour only on a\n"
"terminal, and never when NO_COLOR is set).\n"
"\n"
"Examples:\n"
"  schemadoc samples/podinfo --format json\n""  schemadoc samples/podinfo --format html -o podinfo.html\n"
"  schemadoc ./chart --readme ./chart/README.md --check\n"
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

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
} command;

static const command commands[] = {
    { "template", sd_cmd_template },
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
