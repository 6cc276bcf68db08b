/* SPDX-License-Identifier: Apache-2.0 */
/* options.c - the table of every command and option of the command line,
 * and the shell completions made from it (`schemadoc completion bash|zsh|
 * fish`). --help stays hand-written prose; tests/suite-install.sh checks
 * that it, the man page (made from --help by src/cli/gen-man.sh) and this
 * table name the same options, so none of the three can drift.
 *
 * To add an option: one row in `sd_cli_options` (its commands as a mask of
 * SD_CMD_*), one line in the --help text of main.c. To add a command: one
 * SD_CMD_* bit, one row in `sd_cli_commands`. */
#include "cli.h"
#include "validate.h"

#include <stdio.h>
#include <string.h>

const sd_cli_command sd_cli_commands[] = {
    { "",         SD_CMD_RENDER,     "document a SOURCE (the default command)" },
    { "schema",   SD_CMD_SCHEMA,     "the chart's values schema, from its values and comments" },
    { "template", SD_CMD_TEMPLATE,   "render a Mustache template over JSON" },
    { "validate", SD_CMD_VALIDATE,   "check values files against SOURCE" },
    { "rules",    SD_CMD_RULES,      "export the validation program as JSON" },
    { "diff",     SD_CMD_DIFF,       "what changed between two versions" },
    { "upgrade-check", SD_CMD_UPGRADE, "will these values still work on NEW" },
    { "completion", SD_CMD_COMPLETION, "print a shell completion script" },
    { "lsp",      SD_CMD_LSP,        "the language server of values files (stdio)" },
    { NULL, 0, NULL }
};

#define SRC (SD_CMD_RENDER | SD_CMD_VALIDATE | SD_CMD_RULES | SD_CMD_DIFF | SD_CMD_UPGRADE | SD_CMD_LSP)
#define OUT (SD_CMD_RENDER | SD_CMD_SCHEMA | SD_CMD_TEMPLATE | SD_CMD_RULES | SD_CMD_DIFF)

/* --format's completions: outfmt.def's names ("json doc html md form ..."). */
static const char format_names[] =
#define SD_OUTFMT(id, name, ext, make, top, markup, escape, flags) " " name
#include "outfmt.def"
#undef SD_OUTFMT
    ;

const sd_cli_option sd_cli_options[] = {
    /* long name, short, ARG, completion values, commands, summary */
    { "--help", "-h", NULL, NULL, SD_CMD_ALL, "show the help" },
    { "--version", NULL, NULL, NULL, SD_CMD_RENDER, "print the version" },
    { "--format", NULL, "FMT", format_names + 1, SD_CMD_RENDER | SD_CMD_DIFF, "output format" },
    { "--descriptions", NULL, "comments|schema", "comments schema", SD_CMD_RENDER | SD_CMD_DIFF, "md cells: comments only, or schema descriptions as fallback; diff: list description changes" },
    { "--output", "-o", "FILE", "@file", OUT, "write to FILE instead of stdout" },
    { "--theme", NULL, "NAME|DIR", "default compact @dir", SD_CMD_RENDER, "html/md theme" },
    { "--template", NULL, "FILE", "@file", SD_CMD_RENDER, "a custom top-level Mustache template" },
    { "--readme", NULL, "FILE", "@file", SD_CMD_RENDER, "rewrite the schemadoc region of a README" },
    { "--gotmpl", NULL, "FILE", "@file", SD_CMD_RENDER, "run this helm-docs template" },
    { "--helm-docs-version", NULL, "V", NULL, SD_CMD_RENDER, "the version helm-docs.versionFooter names" },
    { "--check", NULL, NULL, NULL, SD_CMD_RENDER | SD_CMD_SCHEMA, "write nothing; exit 1 when the output would change" },
    { "--source-url", NULL, "URL", NULL, SD_CMD_RENDER, "link each location to URL/FILE#LLINE" },
    { "--reference", NULL, "URL", NULL, SD_CMD_RENDER, "form: link each field to its entry in the html page at URL" },
    { "--recursive", NULL, NULL, NULL, SD_CMD_RENDER, "every chart below DIR, one page or README each" },
    { "--jobs", "-j", "N", NULL, SD_CMD_RENDER, "with --recursive: charts at once" },
    { "--quiet", "-q", NULL, NULL, SD_CMD_RENDER, "with --recursive: no progress, only failures" },
    { "--skip", NULL, "PATTERN", "@dir", SD_CMD_RENDER, "with --recursive: leave out matching directories" },
    { "--include-subcharts", NULL, NULL, NULL, SD_CMD_RENDER, "with --recursive: also charts under charts/" },
    { "--map", NULL, "PREFIX=TARGET", NULL, SRC, "read refs starting with PREFIX from TARGET" },
    { "--offline", NULL, NULL, NULL, SRC, "never use the network" },
    { "--refresh", NULL, NULL, NULL, SRC, "fetch remote documents again" },
    { "--cache-dir", NULL, "DIR", "@dir", SRC, "cache of remote documents" },
    { "--timeout", NULL, "SECS", NULL, SRC, "per remote request" },
    { "--lenient", NULL, NULL, NULL, SRC, "an unresolvable ref is a warning" },
    { "--k8s-types", NULL, "on|off", "on off", SRC | SD_CMD_SCHEMA, "type keys with Kubernetes types on evidence" },
    { "--draft", NULL, "D", "4 6 7 2019-09 2020-12", SRC | SD_CMD_SCHEMA, "JSON Schema draft" },
    { "--like", NULL, "TOOL", "helm-schema helm-values-schema-json", SD_CMD_SCHEMA, "schema: write exactly what TOOL would" },
    { "--dialect", NULL, "NAME", "schemadoc helm-schema helm-values-schema-json", SD_CMD_SCHEMA, "schema: read the values as NAME does" },
    { "--config", NULL, "FILE", "@file", SD_CMD_SCHEMA, "schema: helm-values-schema-json settings (.schema.yaml)" },
    { "--use-helm-docs", NULL, NULL, NULL, SD_CMD_SCHEMA, "schema: helm-docs descriptions (useHelmDocs)" },
    { "--bundle", NULL, NULL, NULL, SD_CMD_SCHEMA, "schema: referenced files copied into $defs (bundle)" },
    { "--bundle-without-id", NULL, NULL, NULL, SD_CMD_SCHEMA, "schema: bundle, $refs into $defs (bundleWithoutID)" },
    { "--keep-existing-dep-schemas", NULL, NULL, NULL, SD_CMD_SCHEMA, "schema: a dependency's shipped schema, not made again" },
    { "--output", NULL, "text|json", "text json", SD_CMD_VALIDATE | SD_CMD_UPGRADE, "result format" },
    { "--formats", NULL, NULL, NULL, SD_CMD_VALIDATE | SD_CMD_RULES, "always assert format" },
    { "--no-formats", NULL, NULL, NULL, SD_CMD_VALIDATE | SD_CMD_RULES, "never assert format" },
    { "--print-values", NULL, NULL, NULL, SD_CMD_VALIDATE, "print the effective values as YAML" },
    { "--each", NULL, NULL, NULL, SD_CMD_VALIDATE, "check each values file on its own" },
    { "--strict", NULL, NULL, NULL, SD_CMD_VALIDATE, "unknown keys are errors, not warnings" },
    { "--exit-zero", NULL, NULL, NULL, SD_CMD_DIFF, "exit 0 even when something changed" },
    { "--runtime", NULL, NULL, NULL, SD_CMD_RULES, "write the JavaScript interpreter" },
    { "--data", NULL, "FILE", "@file", SD_CMD_TEMPLATE, "the JSON view to render" },
    { "--partials", NULL, "DIR", "@dir", SD_CMD_TEMPLATE, "where {{>name}} partials are" },
    { "--stdio", NULL, NULL, NULL, SD_CMD_LSP, "lsp: talk on standard input and output (the default)" },
    { NULL, NULL, NULL, NULL, 0, NULL }
};

/* ---- did you mean ------------------------------------------------------------ */

/* `word` against `name`: close enough to be a slip of the fingers (an
 * edit distance of 2 at most, and less than half the name). */
static unsigned slip(const char *word, const char *name)
{
    size_t n = strlen(name);
    unsigned d = sd_edit_distance(word, strlen(word), name, n);
    return d <= 2 && d * 2 < n ? d : 999;
}

const char *sd_cli_closest_option(const char *word, unsigned cmd)
{
    const char *best = NULL;
    unsigned bd = 999;
    size_t n = strcspn(word, "=");
    char w[64];

    if (n >= sizeof w)
        return NULL;
    memcpy(w, word, n);
    w[n] = '\0';
    for (const sd_cli_option *o = sd_cli_options; o->name; o++) {
        unsigned d;
        if (!(o->cmds & cmd))
            continue;
        if ((d = slip(w, o->name)) < bd)
            bd = d, best = o->name;
    }
    return best;
}

const char *sd_cli_closest_command(const char *word)
{
    const char *best = NULL;
    unsigned bd = 999;
    for (const sd_cli_command *c = sd_cli_commands; c->name; c++) {
        unsigned d;
        if (*c->name && (d = slip(word, c->name)) < bd)
            bd = d, best = c->name;
    }
    return best;
}

int sd_cli_unknown_option(const char *opt, unsigned cmd, const char *cmdname)
{
    const char *near = sd_cli_closest_option(opt, cmd);
    if (near)
        return sd_cli_usage_error("unknown option '%s'%s%s%s; did you mean '%s'?", opt,
                                  cmdname ? " for '" : "", cmdname ? cmdname : "", cmdname ? "'" : "", near);
    /* a slip on an option of another command (`validate --fromat`) */
    if ((near = sd_cli_closest_option(opt, SD_CMD_ALL)))
        return sd_cli_usage_error("unknown option '%s'%s%s%s; '%s' is an option of other commands",
                                  opt, cmdname ? " for '" : "", cmdname ? cmdname : "",
                                  cmdname ? "'" : "", near);
    return sd_cli_usage_error("unknown option '%s'%s%s%s", opt, cmdname ? " for '" : "",
                              cmdname ? cmdname : "", cmdname ? "'" : "");
}

/* ---- bash ------------------------------------------------------------------ */

/* The words an option's value completes to, without the @file/@dir hints. */
static void plain_values(FILE *f, const char *values)
{
    const char *p = values;
    int first = 1;
    while (*p) {
        size_t n = strcspn(p, " ");
        if (p[0] != '@') {
            fprintf(f, "%s%.*s", first ? "" : " ", (int)n, p);
            first = 0;
        }
        p += n;
        while (*p == ' ')
            p++;
    }
}

static int has_hint(const char *values, const char *hint)
{
    return values && strstr(values, hint) != NULL;
}

static void bash_words(FILE *f, unsigned cmd)
{
    int first = 1;
    for (const sd_cli_option *o = sd_cli_options; o->name; o++) {
        if (!(o->cmds & cmd))
            continue;
        fprintf(f, "%s%s", first ? "" : " ", o->name);
        if (o->alias)
            fprintf(f, " %s", o->alias);
        first = 0;
    }
}

static void bash(FILE *f)
{
    fputs("# bash completion for schemadoc (generated by 'schemadoc completion bash')\n"
          "_schemadoc() {\n"
          "    local cur prev cmd\n"
          "    cur=${COMP_WORDS[COMP_CWORD]}\n"
          "    prev=${COMP_WORDS[COMP_CWORD-1]}\n"
          "    cmd=${COMP_WORDS[1]}\n"
          "    COMPREPLY=()\n"
          "    case $cmd in\n", f);
    for (const sd_cli_command *c = sd_cli_commands; c->name; c++)
        if (*c->name)
            fprintf(f, "    %s) ;;\n", c->name);
    fputs("    *) cmd= ;;\n    esac\n", f);
    /* option values: by command, then by option */
    fputs("    case $cmd:$prev in\n", f);
    for (const sd_cli_command *c = sd_cli_commands; c->name; c++) {
        for (const sd_cli_option *o = sd_cli_options; o->name; o++) {
            if (!(o->cmds & c->mask) || !o->arg)
                continue;
            fprintf(f, "    %s:%s", c->name, o->name);
            if (o->alias)
                fprintf(f, "|%s:%s", c->name, o->alias);
            fputs(")\n", f);
            if (o->values && strcspn(o->values, "@") > 0)
                fputs("        COMPREPLY+=($(compgen -W \"", f), plain_values(f, o->values), fputs("\" -- \"$cur\"))\n", f);
            if (has_hint(o->values, "@dir"))
                fputs("        COMPREPLY+=($(compgen -d -- \"$cur\"))\n", f);
            else if (has_hint(o->values, "@file"))
                fputs("        COMPREPLY+=($(compgen -f -- \"$cur\"))\n", f);
            fputs("        return ;;\n", f);
        }
    }
    fputs("    esac\n"
          "    if [[ $cur == -* ]]; then\n"
          "        case $cmd in\n", f);
    for (const sd_cli_command *c = sd_cli_commands; c->name; c++) {
        fprintf(f, "        %s) COMPREPLY=($(compgen -W \"", *c->name ? c->name : "''");
        bash_words(f, c->mask);
        fputs("\" -- \"$cur\")) ;;\n", f);
    }
    fputs("        esac\n"
          "        return\n"
          "    fi\n"
          "    if [[ $COMP_CWORD -eq 1 ]]; then\n"
          "        COMPREPLY=($(compgen -W \"", f);
    int first = 1;
    for (const sd_cli_command *c = sd_cli_commands; c->name; c++)
        if (*c->name)
            fprintf(f, "%s%s", first ? "" : " ", c->name), first = 0;
    fputs("\" -- \"$cur\"))\n"
          "    fi\n"
          "    if [[ $cmd == completion ]]; then\n"
          "        COMPREPLY+=($(compgen -W \"bash zsh fish\" -- \"$cur\"))\n"
          "        return\n"
          "    fi\n"
          "    COMPREPLY+=($(compgen -f -- \"$cur\"))\n"
          "}\n"
          "complete -o filenames -F _schemadoc schemadoc\n", f);
}

/* ---- zsh ------------------------------------------------------------------- */

/* A summary inside a zsh _arguments spec: no brackets, colons or quotes. */
static void zsh_text(FILE *f, const char *s)
{
    for (; *s; s++)
        if (!strchr("[]:'\\", *s))
            fputc(*s, f);
}

static void zsh(FILE *f)
{
    fputs("#compdef schemadoc\n"
          "# zsh completion for schemadoc (generated by 'schemadoc completion zsh')\n"
          "_schemadoc() {\n"
          "    local cmd=${words[2]}\n"
          "    if (( CURRENT == 2 )) && [[ $words[CURRENT] != -* ]]; then\n"
          "        local -a cmds\n"
          "        cmds=(\n", f);
    for (const sd_cli_command *c = sd_cli_commands; c->name; c++)
        if (*c->name) {
            fprintf(f, "            '%s:", c->name);
            zsh_text(f, c->summary);
            fputs("'\n", f);
        }
    fputs("        )\n"
          "        _describe -t commands command cmds\n"
          "        _files\n"
          "        return\n"
          "    fi\n"
          "    case $cmd in\n", f);
    for (const sd_cli_command *c = sd_cli_commands; c->name; c++) {
        fprintf(f, "    %s)\n        _arguments -s \\\n", *c->name ? c->name : "*");
        for (const sd_cli_option *o = sd_cli_options; o->name; o++) {
            if (!(o->cmds & c->mask))
                continue;
            for (int k = 0; k < 2; k++) {
                const char *n = k ? o->alias : o->name;
                if (!n)
                    continue;
                fprintf(f, "            '%s%s[", n, o->arg && n[1] == '-' ? "=-" : "");
                zsh_text(f, o->summary);
                fputs("]", f);
                if (o->arg) {
                    fputs(":", f);
                    zsh_text(f, o->arg);
                    fputs(":", f);
                    if (has_hint(o->values, "@dir"))
                        fputs("_files -/", f);
                    else if (has_hint(o->values, "@file"))
                        fputs("_files", f);
                    else if (o->values)
                        fputs("(", f), plain_values(f, o->values), fputs(")", f);
                    else
                        fputs(" ", f);
                }
                fputs("' \\\n", f);
            }
        }
        if (c->mask == SD_CMD_COMPLETION)
            fputs("            '1:shell:(bash zsh fish)'\n        ;;\n", f);
        else
            fputs("            '*:file:_files'\n        ;;\n", f);
    }
    fputs("    esac\n"
          "}\n"
          "_schemadoc \"$@\"\n", f);
}

/* ---- fish ------------------------------------------------------------------ */

static void fish_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '\'' || *s == '\\')
            fputc('\\', f);
        fputc(*s, f);
    }
}

static void fish(FILE *f)
{
    fputs("# fish completion for schemadoc (generated by 'schemadoc completion fish')\n"
          "set -l schemadoc_commands", f);
    for (const sd_cli_command *c = sd_cli_commands; c->name; c++)
        if (*c->name)
            fprintf(f, " %s", c->name);
    fputs("\n", f);
    for (const sd_cli_command *c = sd_cli_commands; c->name; c++) {
        if (*c->name) {
            fprintf(f, "complete -c schemadoc -n \"not __fish_seen_subcommand_from $schemadoc_commands\" -a %s -d '",
                    c->name);
            fish_text(f, c->summary);
            fputs("'\n", f);
        }
    }
    fputs("complete -c schemadoc -n \"__fish_seen_subcommand_from completion\" -f -a 'bash zsh fish'\n", f);
    for (const sd_cli_command *c = sd_cli_commands; c->name; c++) {
        for (const sd_cli_option *o = sd_cli_options; o->name; o++) {
            if (!(o->cmds & c->mask))
                continue;
            if (*c->name)
                fprintf(f, "complete -c schemadoc -n \"__fish_seen_subcommand_from %s\"", c->name);
            else
                fputs("complete -c schemadoc -n \"not __fish_seen_subcommand_from $schemadoc_commands\"", f);
            fprintf(f, " -l %s", o->name + 2);
            if (o->alias)
                fprintf(f, " -s %s", o->alias + 1);
            if (o->arg) {
                fputs(" -r", f);
                if (has_hint(o->values, "@dir"))
                    fputs(" -a '(__fish_complete_directories)'", f);
                else if (has_hint(o->values, "@file"))
                    fputs(" -F", f);
                else if (o->values)
                    fputs(" -f -a '", f), plain_values(f, o->values), fputs("'", f);
            }
            fputs(" -d '", f);
            fish_text(f, o->summary);
            fputs("'\n", f);
        }
    }
}

static const char completion_help[] =
"Usage: schemadoc completion bash|zsh|fish\n"
"\n"
"Print a completion script for the shell, made from the same option table as\n"
"--help. 'make install' installs all three; by hand:\n"
"  schemadoc completion bash > /etc/bash_completion.d/schemadoc\n"
"  schemadoc completion zsh > \"${fpath[1]}/_schemadoc\"\n"
"  schemadoc completion fish > ~/.config/fish/completions/schemadoc.fish\n";

int sd_cmd_completion(int argc, char **argv)
{
    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        fputs(completion_help, stdout);
        return SD_EXIT_OK;
    }
    if (argc != 2)
        return sd_cli_usage_error("'completion' takes one shell: bash, zsh or fish");
    if (!strcmp(argv[1], "bash"))
        bash(stdout);
    else if (!strcmp(argv[1], "zsh"))
        zsh(stdout);
    else if (!strcmp(argv[1], "fish"))
        fish(stdout);
    else
        return sd_cli_usage_error("unknown shell '%s'; 'completion' takes bash, zsh or fish", argv[1]);
    return fflush(stdout) == 0 ? SD_EXIT_OK : SD_EXIT_ERROR;
}
