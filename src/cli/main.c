/* SPDX-License-Identifier: Apache-2.0 */
/* main.c - the command line's entry: --help and --version, and dispatch
 * to the subcommand (cmd_*.c) that argv names, with the exit status it
 * returns (0 ok, 1 found wanting, 2 error). What the subcommands share is
 * in cli.c. */
#include "alloc.h"
#include "cleanup.h"
#include "cli.h"
#include "sd.h"
#include "node.h"
#include "val_pool.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char help_text[] =
"schemadoc " SD_VERSION " - configuration schemas to reference docs, validators and forms\n"
"\n"
"Usage:\n"
"  schemadoc SOURCE [--format FMT] [-o FILE] [SOURCE OPTIONS]\n"
"  schemadoc SOURCE --format html|md|form|adoc [--theme NAME|DIR]\n"
"                   [--template FILE] [-o FILE]\n"
"  schemadoc SOURCE --readme README.md [--check]\n"
"  schemadoc --recursive DIR... (-o SITE/ | --readme README.md) [--check]\n"
"            [-j N] [--quiet] [--skip PATTERN]... [--include-subcharts]\n"
"  schemadoc schema CHART|VALUES... [-o FILE] [--draft D] [--check]\n"
"                  [--like helm-schema|helm-values-schema-json] [--dialect NAME]\n"
"                  [--config FILE] [--use-helm-docs] [--keep-existing-dep-schemas]\n"
"                  [--bundle | --bundle-without-id]\n"
"  schemadoc template FILE.mustache --data DATA.json|- [--partials DIR]... [-o FILE]\n"
"  schemadoc validate SOURCE [VALUES...] [--output text|json] [--print-values]\n"
"                     [--draft D] [--formats | --no-formats] [SOURCE OPTIONS]\n"
"  schemadoc rules SOURCE [-o FILE] [--draft D] [--formats | --no-formats]\n"
"                  [SOURCE OPTIONS]\n"
"  schemadoc rules --runtime [-o validator.mjs]\n"
"  schemadoc lsp [--stdio] [SOURCE OPTIONS]\n"
"  schemadoc completion bash|zsh|fish\n"
"  schemadoc diff OLD NEW [--format md|json|html] [-o FILE] [--descriptions]\n"
"                 [--exit-zero] [SOURCE OPTIONS]\n"
"  schemadoc upgrade-check OLD NEW VALUES... [--output text|json]\n"
"  schemadoc --help | --version\n"
"\n"
"SOURCE is a Helm chart directory (Chart.yaml, values.yaml, values.schema.json\n"
"or values.schema.yaml, schema-dependencies.json, charts/*), a JSON Schema file\n"
"(JSON or YAML, draft 4 to 2020-12), a Kubernetes CRD file, or a ytt schema\n"
"(#@data/values-schema).\n"
"\n"
"Options:\n"
"  --format FMT    output format; one of: json, doc, html, md, form, adoc\n"
"                  (default: json, or md with --readme)\n"
"                  html: one self-contained reference page (inline CSS/JS,\n"
"                  no network requests, readable without JavaScript)\n"
"                  md: GitHub Markdown with helm-docs style tables, then the keys\n"
"                  only the schema documents\n"
"                  form: one offline HTML form that reads and writes the\n"
"                  values (docs/form.md)\n"
"                  adoc: an AsciiDoc reference page for asciidoctor; the\n"
"                  schema's texts are shown as text, never as markup\n"
"                  json: the normalized model (docs/model.md): metadata, the\n"
"                  node tree, shared definitions, parameter rows\n"
"                  doc: every loaded document with the file:line:column of\n"
"                  each value and the comments attached to each key\n"
"  --descriptions comments|schema\n"
"                  a chart key without a comment takes the schema's description\n"
"                  (schema, the default); comments: only comments, the cells\n"
"                  helm-docs prints\n"
"  -o, --output FILE\n"
"                  write to FILE instead of stdout; FILE is replaced only when\n"
"                  the run succeeds (no partial file on error, none left by\n"
"                  ^C or kill), keeping its mode and hard links; a symbolic\n"
"                  link is refused (give the file it points to: a chart can\n"
"                  plant links), /dev/stdout and other devices are written to\n"
"  -h, --help      show this help; 'schemadoc COMMAND --help': one command's\n"
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
"  --k8s-types on|off\n"
"                  type a chart's keys with Kubernetes types where the chart\n"
"                  proves them (default on; docs/k8s.md)\n"
"  --draft D       JSON Schema draft when $schema is absent: 4, 6, 7, 2019-09,\n"
"                  2020-12 (default 2020-12)\n"
"\n"
"schema: the chart's values schema made from its values.yaml and what the\n"
"comments say (docs/annotations.md): `# @schema` annotations of\n"
"helm-values-schema-json and of helm-schema, helm-docs `# -- (type)` and\n"
"Bitnami `## @param` types and descriptions, keys commented out; in the\n"
"author's key order. A chart that ships no schema is checked and documented\n"
"with this one by every command. Several SOURCEs (the files a commit\n"
"touches): each chart's values.schema.json, written or checked.\n"
"  --check         write nothing; if the -o FILE (default: the chart's\n"
"                  values.schema.json) is missing or stale, print a unified\n"
"                  diff and exit 1\n"
"  --like TOOL     helm-schema or helm-values-schema-json: byte for byte what\n"
"                  that tool writes\n"
"  --dialect NAME  read the values as NAME does (schemadoc, helm-schema,\n"
"                  helm-values-schema-json; default: the dialect the file uses)\n"
"  --config FILE   helm-values-schema-json settings (default CHART/.schema.yaml)\n"
"  --use-helm-docs helm-docs `# --` comments are descriptions, as useHelmDocs in\n"
"                  the settings (default: when the file has them; with --like\n"
"                  helm-values-schema-json, as the tool: only when asked)\n"
"  --bundle        copy the schema files `$ref`s name into the root's `$defs`,\n"
"                  each with its path as `$id` (helm-values-schema-json's\n"
"                  bundle: true); read as every $ref is, inside the chart\n"
"  --bundle-without-id\n"
"                  the same, the `$ref`s pointing into `$defs` instead\n"
"                  (bundleWithoutID: true)\n"
"  --keep-existing-dep-schemas\n"
"                  helm-schema's reading of a chart merges its dependencies'\n"
"                  schemas (a file:// repository or charts/NAME; import-values\n"
"                  as Helm imports them): use the schema a dependency ships\n"
"                  instead of making it again\n"
"  --draft D       4, 6, 7, 2019-09 or 2020-12 (default 2020-12; helm-schema 7)\n"
"\n"
"template: render any Mustache template against any JSON (docs/templates.md);\n"
"see 'schemadoc template --help'.\n"

"\n"
"";

/* Split from help_more (4095-byte literals): the other commands. */
static const char help_cmds[] =
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
"  --each          a chart or ytt schema: check each VALUES file over the\n"
"                  defaults on its own\n"
"                  (chart-testing's way) instead of merging them all\n"
"  --strict        keys that neither values.yaml nor the schema knows are\n"
"                  errors (default: warnings naming the closest known key)\n"
"  --lenient       an unresolvable $ref warns; the rest is validated\n"
"  Exit status: 0 all valid, 1 a violation, 2 input error (see docs/validate.md).\n"
"\n"
"rules: write what validate would check as JSON data for src/form/rules.js,\n"
"the JavaScript interpreter with the same verdicts and messages (docs/rules.md);\n"
"--runtime writes that interpreter as one self-contained ES module.\n"
"\n"
"diff: what changed for users between two versions (chart directories,\n"
"packaged .tgz charts, schemas, CRD files or ytt schemas): keys added,\n"
"removed, renamed or moved, defaults, types, constraints, deprecations, CRD\n"
"versions; a Markdown table (default), json or html. Exit 0 no change, 1\n"
"changes (0 with --exit-zero). upgrade-check: will VALUES still work on NEW:\n"
"keys gone or renamed, newly required keys, values NEW refuses, defaults that\n"
"change under keys not set, new keys' defaults. See 'schemadoc diff --help'\n"
"and docs/diff.md.\n"
"\n"
"completion: print a bash, zsh or fish completion script (make install puts\n"
"all three in place).\n"
"\n"
"Environment:\n"
"  SCHEMADOC_DATA  the directory holding templates/ and themes/ (default: found\n"
"                  relative to the executable, see Page options)\n"
"  XDG_CACHE_HOME  the cache of remote documents is $XDG_CACHE_HOME/schemadoc\n"
"  HOME            else the cache is ~/.cache/schemadoc\n"
"  NO_COLOR        when set and not empty, diagnostics are never coloured\n"
"  SCHEMADOC_MAX_ALIAS_NODES\n"
"                  the nodes YAML aliases may add in one run, over all its\n"
"                  documents (default 50000; docs/internals.md, Limits)\n"
"\n"
"Exit status: 0 success, 1 input read but found wanting, 2 usage or input error.\n"
"Diagnostics go to stderr as FILE:LINE:COL: error: MESSAGE (colour only on a\n"
"terminal, and never when NO_COLOR is set).\n"
"\n"
"Examples:\n"
"  schemadoc samples/podinfo --format json\n"
"  schemadoc samples/podinfo --format html -o podinfo.html\n"
"  schemadoc samples/podinfo --format form -o values-form.html\n"
"  schemadoc ./chart --readme ./chart/README.md --check\n"
"  schemadoc samples/crd/widgets.example.com.yaml -o model.json\n"
"  schemadoc ./chart --map https://raw.githubusercontent.com/=mirror/ --offline\n"
"  schemadoc schema ./chart-without-schema > values.schema.json\n"
"  schemadoc template my.mustache --data model.json\n"
"  schemadoc validate ./chart ci/prod-values.yaml --output json\n";

static const char help_repo[] =
"\n"
"Charts repository options (--recursive; docs/ci.md, docs/scale.md):\n"
"  --recursive     document every chart below each DIR (every directory with\n"
"                  a Chart.yaml; a FILE stands for the chart holding it, as\n"
"                  pre-commit passes them), each in a process of its own;\n"
"                  with -o SITE/: SITE/<chart's path>/index.html (README.md\n"
"                  for md, model.json for json) and SITE/index.html listing\n"
"                  every chart with its version, description and\n"
"                  deprecation; with --readme NAME: each chart's NAME\n"
"                  rewritten; --check: write nothing, exit 1 when a file is\n"
"                  not up to date; a chart that fails is listed at the end\n"
"                  after all others are done (exit 2); --source-url is the\n"
"                  URL of DIR, each chart's path is appended to it.\n"
"                  'schemadoc DIR ...' is the same when DIR has no Chart.yaml\n"
"                  of its own but charts below it\n"
"  -j, --jobs N    charts at once (default: the number of processors)\n"
"  -q, --quiet     no progress line (shown only on a terminal), no\n"
"                  warnings; only failures and --check differences\n"
"  --skip PATTERN  leave out directories whose name or path below DIR\n"
"                  matches PATTERN (fnmatch); repeatable. Always left out:\n"
"                  hidden directories, node_modules, and a chart's charts/\n"
"                  (vendored subcharts, documented with their parent)\n"
"  --include-subcharts\n"
"                  also document the charts under a chart's charts/\n";

/* Split from help_cmds (4095-byte literals): the language server. */
static const char help_lsp[] =
"lsp: the language server of values files (docs/lsp.md), JSON-RPC 2.0 with\n"
"Content-Length framing on stdin and stdout, for an editor to start. A values\n"
"file inside a chart (or one whose first lines say '# schemadoc: chart=PATH')\n"
"is checked as you type, as 'validate CHART FILE' would check it, merged over\n"
"values.yaml; hover, completion, quick fixes and symbols come from the chart's\n"
"schema and comments. A message over 64 MiB is refused. SOURCE OPTIONS apply\n"
"to every chart it opens.\n"
"  --stdio         talk on standard input and output (the default, the only\n"
"                  transport; editors pass it)\n"
"\n";

/* Split from help_text: C11 guarantees string literals of 4095 bytes only. */
static const char help_pages[] =
"\n"
"Page options (--format html, md, form or adoc; docs/themes.md):\n"
"  --theme NAME|DIR\n"
"                  the page's look: a built-in theme (default, compact) or a\n"
"                  directory of templates overriding the default theme's\n"
"                  (docs/themes.md)\n"
"  --template FILE a custom top-level Mustache template; it receives the same\n"
"                  view as the built-in ones\n"
"  --readme FILE   rewrite only the part of FILE between the lines\n"
"                  <!-- schemadoc:start --> and <!-- schemadoc:end -->, or\n"
"                  else its '## Parameters' section (as Bitnami's\n"
"                  readme-generator does); refused when it has neither, or\n"
"                  when it lies in the chart but links out of it (so do\n"
"                  --gotmpl and -o files)\n"
"  --gotmpl FILE   run this helm-docs template (default: the chart's\n"
"                  README.md.gotmpl, when present) instead of the md page\n"
"                  (docs/gotmpl.md); e.g. --gotmpl VALUES.md.gotmpl -o VALUES.md\n"
"  --helm-docs-version V\n"
"                  the version helm-docs.versionFooter names (default: the\n"
"                  one in the file being rewritten, else no footer)\n"
"  --check         write nothing; if the --readme or -o FILE would change,\n"
"                  print a unified diff and exit 1 (0 when up to date)\n"
"  --source-url URL\n"
"                  html: link each location (values.yaml:3:3) to URL/FILE#LLINE,\n"
"                  e.g. the repository's blob URL of the chart's folder;\n"
"                  locations are always relative to the chart (or the schema\n"
"                  file's folder), a remote document is named by its URL\n"
"  --reference URL form: each field links to its entry (URL#ANCHOR, the\n"
"                  anchors of --format html) in the reference page at URL,\n"
"                  an http(s) URL or a relative path such as values.html\n"
"\n"
"  Templates come from $SCHEMADOC_DATA, the executable's directory or its\n"
"  parent, ../share/schemadoc, or the current directory (the first holding\n"
"  templates/html.mustache), else from copies built into the binary.\n";

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
} command;

static const command commands[] = {
    { "completion", sd_cmd_completion },
    { "debug-k8s-places", sd_cmd_debug_places },   /* hidden: docs/internals.md */
    { "diff", sd_cmd_diff },
    { "lsp", sd_cmd_lsp },
    { "rules", sd_cmd_rules },
    { "schema", sd_cmd_schema },
    { "template", sd_cmd_template },
    { "upgrade-check", sd_cmd_upgrade_check },
    { "validate", sd_cmd_validate },
    { NULL, NULL }
};

/* An allocation failed on the way, perhaps where nobody could report it
 * (alloc.h): whatever the command concluded, say so and exit 2. Output
 * files were refused already (sd_out_write). */
static int oom_checked(int status)
{
    sd_val_release_orphans();   /* the command is over: nothing points at them */
    if (!sd_alloc_failed())
        return status;
    fflush(stdout);
    fprintf(stderr, "schemadoc: error: out of memory\n");
    return SD_EXIT_ERROR;
}

/* `schemadoc CMD --help` for the commands whose help is a part of the main
 * one: CMD's usage lines, its paragraph, and the source options when it
 * takes a SOURCE (the text is the main help's, so the two cannot differ). */
static void command_help(const char *cmd)
{
    const char *const texts[] = { help_more, help_cmds, help_lsp };
    size_t n = strlen(cmd);
    int in = 0, lines = 0;

    /* as diff and template print theirs: "Usage: schemadoc CMD ...", then
     * the next forms and continuation lines aligned under the first */
    for (const char *l = help_text; *l;) {
        const char *e = strchr(l, '\n');
        size_t len = e ? (size_t)(e - l) + 1 : strlen(l);
        if (!strncmp(l, "  schemadoc ", 12))
            in = !strncmp(l + 12, cmd, n) && l[12 + n] == ' ';
        else if (strncmp(l, "            ", 12))
            in = 0;   /* a usage line goes on only on lines indented further */
        if (in) {
            fputs(lines++ ? "     " : "Usage:", stdout);
            fwrite(l + (lines == 1), 1, len - (lines == 1), stdout);
        }
        l += len;
    }
    for (size_t t = 0; t < sizeof texts / sizeof *texts; t++) {
        const char *p = texts[t];
        while ((p = strstr(p, cmd)) && !((p == texts[t] || p[-1] == '\n') && p[n] == ':'))
            p++;
        if (!p)
            continue;
        const char *end = strstr(p, "\n\n");
        fputc('\n', stdout);
        fwrite(p, 1, end ? (size_t)(end - p) + 1 : strlen(p), stdout);
    }
    if (strcmp(cmd, "schema") != 0) {
        const char *so = strstr(help_more, "Source options");
        fputc('\n', stdout);
        fwrite(so, 1, (size_t)(strstr(so, "\n\n") - so) + 1, stdout);
    }
    fputs("\nSee 'schemadoc --help' for every command and option.\n", stdout);
}

/* SCHEMADOC_MAX_ALIAS_NODES: the run's budget of nodes aliases add
 * (node.h); -1 after a usage error. */
static int max_alias_nodes(void)
{
    const char *e = getenv("SCHEMADOC_MAX_ALIAS_NODES");
    char *end;
    unsigned long long v;

    if (!e || !*e)
        return 0;
    errno = 0;
    v = strtoull(e, &end, 10);
    if (errno || *end || *e == '-' || v == 0) {
        sd_cli_usage_error("SCHEMADOC_MAX_ALIAS_NODES must be a positive number of nodes, not '%s'", e);
        return -1;
    }
    sd_load_budget_reset((uint64_t)v);
    return 0;
}

int main(int argc, char **argv)
{
    sd_alloc_install();
    /* a temporary file or unpacked chart goes on ^C, kill and hang-up too */
    sd_cleanup_on_signals();
    if (sd_cli_skip_free())
        sd_val_pool_install();   /* values live to the end: the faster route */
    if (max_alias_nodes() < 0)
        return SD_EXIT_ERROR;
    if (argc < 2)
        return sd_cli_usage_error("no SOURCE given");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        fputs(help_text, stdout);
        fputs(help_pages, stdout);
        fputs(help_repo, stdout);
        fputs(help_more, stdout);
        fputs(help_lsp, stdout);
        fputs(help_cmds, stdout);
        return SD_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("schemadoc %s\n"
               "License: Apache-2.0 <https://www.apache.org/licenses/LICENSE-2.0>\n"
               "Embedded third-party material and its licences: see NOTICE.\n", SD_VERSION);
        return SD_EXIT_OK;
    }
    for (const command *c = commands; c->name; c++)
        if (strcmp(argv[1], c->name) == 0) {
            /* diff, upgrade-check, template and completion answer --help
             * themselves; the others with their part of this help */
            if (c->run == sd_cmd_validate || c->run == sd_cmd_rules || c->run == sd_cmd_schema ||
                c->run == sd_cmd_lsp)
                for (int i = 2; i < argc && strcmp(argv[i], "--"); i++)
                    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
                        command_help(c->name);
                        return SD_EXIT_OK;
                    }
            return oom_checked(c->run(argc - 1, argv + 1));
        }
    /* `schemadoc vaildate ...`: a slip on a command, not a SOURCE */
    if (argv[1][0] != '-' && access(argv[1], F_OK) != 0 && sd_cli_closest_command(argv[1]))
        return sd_cli_usage_error("unknown command '%s'; did you mean '%s'?", argv[1],
                                  sd_cli_closest_command(argv[1]));
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--recursive") == 0)
            return oom_checked(sd_cmd_recursive(argc, argv));
    /* `schemadoc charts/`: SOURCE is a directory without a Chart.yaml that
     * holds charts, a charts repository; the option table says which
     * options take a value, so the value is not taken for SOURCE */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] == '-' && a[1]) {
            size_t n = strcspn(a, "=");
            for (const sd_cli_option *o = sd_cli_options; o->name; o++)
                if ((o->cmds & SD_CMD_RENDER) && o->arg && !a[n] &&
                    ((strlen(o->name) == n && !strncmp(o->name, a, n)) || (o->alias && !strcmp(o->alias, a)))) {
                    i++;
                    break;
                }
            continue;
        }
        if (sd_cli_has_charts(a))
            return oom_checked(sd_cmd_recursive(argc, argv));
        break;
    }
    return oom_checked(sd_cmd_render(argc, argv));
}
