/* main.c - the command line: dispatch subcommands, parse options, load,
 * print diagnostics, set the exit status (0 ok, 1 found wanting, 2 error). */
#include "alloc.h"
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
"  schemadoc SOURCE [--format FMT] [-o FILE] [SOURCE OPTIONS]\n"
"  schemadoc SOURCE --format html|md [--theme NAME|DIR] [--template FILE] [-o FILE]\n"
"  schemadoc SOURCE --readme README.md [--check]\n"
"  schemadoc schema CHART [--draft 7|2020-12] [-o FILE]\n"
"  schemadoc template FILE.mustache --data DATA.json|- [--partials DIR]... [-o FILE]\n"
"  schemadoc validate SOURCE [VALUES...] [--output text|json] [--print-values]\n"
"                     [--draft D] [--formats | --no-formats] [SOURCE OPTIONS]\n"
"  schemadoc rules SOURCE [-o FILE] [--draft D] [--formats | --no-formats]\n"
"                  [SOURCE OPTIONS]\n"
"  schemadoc rules --runtime [-o validator.mjs]\n"
"  schemadoc --help | --version\n"
"\n"
"SOURCE is a Helm chart directory (Chart.yaml, values.yaml, values.schema.json\n"
"or values.schema.yaml, schema-dependencies.json, charts/*), a JSON Schema file\n"
"(JSON or YAML, draft 4 to 2020-12), a Kubernetes CRD file, or a ytt schema\n"
"(#@data/values-schema).\n"
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
"                  the run succeeds (no partial file on error)\n"
"  -h, --help      show this help\n"
"  --version       print the version\n"
;

/* Split up: C11 guarantees string literals of 4095 bytes only. */
static const char help_more[] =
"\n"
"Source options (how $ref is followed; docs/resolving.md):\n"
"  --map PREFIX=TARGET\n"
"                  a $ref starting with PREFIX reads TARGET (a path or URL)\n"
"                  instead; repeatable; the longest prefix wins\n"
"  --offline       never use the network: remote documents from the cache only\n"
"  --refresh       fetch remote documents again and update the cache\n"
"  --cache-dir DIR cache of remote documents (default $XDG_CACHE_HOME/schemadoc\n"
"                  or ~/.cache/schemadoc)\n"
"  --timeout SECS  per remote request (default 30)\n"
"  --lenient       an unresolvable $ref is a warning, not an error\n"
"  --draft D       JSON Schema draft when $schema is absent: 4, 6, 7, 2019-09,\n"
"                  2020-12 (default 2020-12)\n"
"\n"
"schema: print the chart's values schema as JSON, or one derived from\n"
"values.yaml when the chart has none (types from the values, descriptions from\n"
"the comments), as JSON Schema 2020-12 or, with --draft 7, draft-07.\n"
"\n"
"template: render any Mustache template against any JSON (docs/templates.md);\n"
"see 'schemadoc template --help'.\n"

"\n"
"validate: check values against SOURCE. A chart: values.yaml with every VALUES\n"
"file merged over it as 'helm -f' does (later wins, null deletes), against\n"
"values.schema.json, and each subchart's part against its own schema. A CRD:\n"
"each VALUES document against its apiVersion's openAPIV3Schema. A ytt schema:\n"
"its defaults with the VALUES files as overlays. Any other schema (JSON\n"
"Schema draft 4 to 2020-12, JSON or YAML): each VALUES file on its own.\n"
"VALUES are YAML or JSON ('-' reads stdin).\n"
"  --draft D       4, 6, 7, 2019-09 or 2020-12; overrides $schema (default:\n"
"                  $schema, else 2020-12)\n"
"  --output text|json\n"
"                  text (default): diagnostics on stderr, one line per result\n"
"                  on stdout; json: an array with one result object each\n"
"  --formats       always assert 'format' (default: drafts 4-7 assert,\n"
"                  2019-09 and 2020-12 only annotate; ytt always asserts)\n"
"  --no-formats    never assert 'format'\n"
"  --print-values  print the effective values (merged, schema defaults filled\n"
"                  in) as YAML\n"
"  Exit status: 0 all valid, 1 a violation, 2 input error (see docs/validate.md).\n"
"\n"
"rules: write what validate would check as JSON data for src/form/rules.js,\n"
"the JavaScript interpreter with the same verdicts and messages (docs/rules.md);\n"
"--runtime writes that interpreter as one self-contained ES module.\n"
"\n"
"Exit status: 0 success, 1 input read but found wanting, 2 usage or input error.\n"
"Diagnostics go to stderr as FILE:LINE:COL: error: MESSAGE (colour only on a\n"
"terminal, and never when NO_COLOR is set).\n"
"\n"
"Examples:\n"
"  schemadoc samples/podinfo --format json\n"
"  schemadoc samples/podinfo --format html -o podinfo.html\n"
"  schemadoc ./chart --readme ./chart/README.md --check\n"
"  schemadoc samples/crd/widgets.example.com.yaml -o model.json\n"
"  schemadoc ./chart --map https://raw.githubusercontent.com/=mirror/ --offline\n"
"  schemadoc schema ./chart-without-schema > values.schema.json\n"
"  schemadoc template my.mustache --data model.json\n"
"  schemadoc validate ./chart ci/prod-values.yaml --output json\n";

/* Split from help_text: C11 guarantees string literals of 4095 bytes only. */
static const char help_pages[] =
"\n"
"Page options (--format html or md; docs/themes.md):\n"
"  --theme NAME|DIR\n"
"                  html/md look: a built-in theme (default, compact) or a\n"
"                  directory of templates overriding the default theme's\n"
"                  (docs/themes.md)\n"
"  --template FILE a custom top-level Mustache template; it receives the same\n"
"                  view as the built-in ones\n"
"  --readme FILE   rewrite only the part of FILE between the lines\n"
"                  <!-- schemadoc:start --> and <!-- schemadoc:end -->, or\n"
"                  else its '## Parameters' section (as Bitnami's\n"
"                  readme-generator does); refused when it has neither\n"
"  --gotmpl FILE   run this helm-docs template (default: the chart's\n"
"                  README.md.gotmpl, when present) instead of the md page\n"
"                  (docs/gotmpl.md); e.g. --gotmpl VALUES.md.gotmpl -o VALUES.md\n"
"  --helm-docs-version V\n"
"                  the version helm-docs.versionFooter names (default: the\n"
"                  one in the file being rewritten, else no footer)\n"
"  --check         write nothing; if the --readme or -o FILE would change,\n"
"                  print a unified diff and exit 1 (0 when up to date)\n"
"\n"
"  Templates come from $SCHEMADOC_DATA, the executable's directory or its\n"
"  parent, ../share/schemadoc, or the current directory (the first holding\n"
"  templates/html.mustache), else from copies built into the binary.\n";

void sd_cli_print_diags(const sd_diags *d)
{
    const char *nc = getenv("NO_COLOR");
    int color = isatty(2) && !(nc && *nc);
    fflush(stdout);
    sd_diags_print(d, stderr, color);
}

int sd_cli_skip_free(void)
{
#ifdef SD_SANITIZED
    return 0;
#else
    const char *e = getenv("SD_FREE_AT_EXIT");
    return !(e && *e);
#endif
}

void sd_cli_print_diag_range(const sd_diags *d, size_t from, size_t to)
{
    const char *nc = getenv("NO_COLOR");
    int color = isatty(2) && !(nc && *nc);
    fflush(stdout);
    sd_diags_print_range(d, from, to, stderr, color);
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
    { "rules", sd_cmd_rules },
    { "schema", sd_cmd_schema },
    { "template", sd_cmd_template },
    { "validate", sd_cmd_validate },
    { NULL, NULL }
};

/* An allocation failed on the way, perhaps where nobody could report it
 * (alloc.h): whatever the command concluded, say so and exit 2. Output
 * files were refused already (sd_out_write). */
static int oom_checked(int status)
{
    if (!sd_alloc_failed())
        return status;
    fflush(stdout);
    fprintf(stderr, "schemadoc: error: out of memory\n");
    return SD_EXIT_ERROR;
}

int main(int argc, char **argv)
{
    sd_alloc_install();
    if (argc < 2)
        return sd_cli_usage_error("no SOURCE given");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        fputs(help_text, stdout);
        fputs(help_pages, stdout);
        fputs(help_more, stdout);
        return SD_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("schemadoc %s\n", SD_VERSION);
        return SD_EXIT_OK;
    }
    for (const command *c = commands; c->name; c++)
        if (strcmp(argv[1], c->name) == 0)
            return oom_checked(c->run(argc - 1, argv + 1));
    return oom_checked(sd_cmd_render(argc, argv));
}
