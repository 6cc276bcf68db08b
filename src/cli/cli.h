/* SPDX-License-Identifier: Apache-2.0 */
/* cli.h - what subcommands share (cli.c): option parsing helpers and
 * diagnostics printing. Each subcommand is `int sd_cmd_NAME(int argc, char **argv)`
 * (argv[0] is the subcommand's name) returning an exit status. */
#ifndef SD_CLI_H
#define SD_CLI_H

#include "buf.h"
#include "diag.h"
#include "source.h"

#include "val.h"

/* Built with AddressSanitizer: the skipped frees at exit are off. */
#if defined(__SANITIZE_ADDRESS__)
#define SD_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SD_SANITIZED 1
#endif
#endif

/* Exit statuses of the command-line tool. */
enum sd_exit { SD_EXIT_OK = 0, SD_EXIT_FOUND_WANTING = 1, SD_EXIT_ERROR = 2 };

/** Print `d` to stderr, in colour when stderr is a terminal and NO_COLOR is unset. */
void sd_cli_print_diags(const sd_diags *d);
/** Print diagnostics d->items[from..to) the same way (no "more not shown" note). */
void sd_cli_print_diag_range(const sd_diags *d, size_t from, size_t to);
/** Print "schemadoc: error: MSG (see 'schemadoc --help')" and return 2. */
int sd_cli_usage_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/** 1 when the command may leave its big structures (the model, the
 *  source's documents) to the end of the process instead of freeing them
 *  one by one: a release build, unless $SD_FREE_AT_EXIT is set (the
 *  valgrind pass sets it, so the freeing path stays checked). Builds with
 *  a sanitizer always free. */
int sd_cli_skip_free(void);

/** Match `--name VALUE` or `--name=VALUE` at argv[*i]; on a match sets *val,
 *  advances *i past the value and returns 1. A missing value returns -1. */
int sd_cli_opt_value(int argc, char **argv, int *i, const char *name, const char **val);

/** 1 when `u` is an http(s) URL without spaces, controls, quotes or angle
 *  brackets (safe to print into an href). */
int sd_cli_valid_url(const char *u);

/** Parse a shared source option at argv[*i] into `o` (--map, --offline,
 *  --refresh, --lenient, --cache-dir, --timeout, --draft). Returns 1 when
 *  consumed, 0 when argv[*i] is not one of them, -1 after printing a usage
 *  error. o->maps is realloc'd: free it when done. */
int sd_cli_source_opt(int argc, char **argv, int *i, sd_source_opts *o);

/* --- the option table (options.c) --- */
/** Commands, as bits of a mask. */
enum sd_cli_cmd {
    SD_CMD_RENDER = 1 << 0, SD_CMD_SCHEMA = 1 << 1, SD_CMD_TEMPLATE = 1 << 2,
    SD_CMD_VALIDATE = 1 << 3, SD_CMD_RULES = 1 << 4, SD_CMD_COMPLETION = 1 << 5,
    SD_CMD_DIFF = 1 << 6, SD_CMD_UPGRADE = 1 << 7, SD_CMD_LSP = 1 << 8,
    SD_CMD_ALL = (1 << 9) - 1
};
typedef struct sd_cli_command {
    const char *name;       /* "validate"; "" for the default (render) */
    unsigned    mask;       /* its SD_CMD_* bit */
    const char *summary;
} sd_cli_command;
typedef struct sd_cli_option {
    const char *name;       /* "--format" */
    const char *alias;      /* "-o", or NULL */
    const char *arg;        /* the value's name ("FMT"), NULL for a flag */
    const char *values;     /* what the value completes to: words, "@file",
                               "@dir" (space-separated), or NULL */
    unsigned    cmds;       /* the commands that take it (SD_CMD_* mask) */
    const char *summary;    /* one line, for completions */
} sd_cli_option;
/** Both end with a row whose name is NULL. */
extern const sd_cli_command sd_cli_commands[];
extern const sd_cli_option sd_cli_options[];
/** The option of command `cmd` (an SD_CMD_* bit) or the command name
 *  closest to `word` (a slip: edit distance 2 at most), or NULL. Borrowed
 *  from the table. */
const char *sd_cli_closest_option(const char *word, unsigned cmd);
const char *sd_cli_closest_command(const char *word);
/** Print "unknown option 'OPT' for 'CMDNAME'; did you mean '--X'?" (no
 *  "for" part when `cmdname` is NULL, no question when nothing is close)
 *  and return 2. */
int sd_cli_unknown_option(const char *opt, unsigned cmd, const char *cmdname);
/** `schemadoc completion bash|zsh|fish` (options.c). */
int sd_cmd_completion(int argc, char **argv);

/** `schemadoc diff OLD NEW` and `schemadoc upgrade-check OLD NEW VALUES...` (cmd_diff.c). */
int sd_cmd_diff(int argc, char **argv);
int sd_cmd_upgrade_check(int argc, char **argv);
int sd_cmd_render(int argc, char **argv);
/** `schemadoc --recursive DIR...`: every chart below DIR, one process
 *  each (cmd_recursive.c). */
int sd_cmd_recursive(int argc, char **argv);
/** 1 when a directory with a Chart.yaml lies below `dir` (the walk and
 *  skips of --recursive), without being one itself. */
int sd_cli_has_charts(const char *dir);
/** `schemadoc rules SOURCE [-o FILE]` (cmd_rules.c). */
int sd_cmd_rules(int argc, char **argv);
int sd_cmd_schema(int argc, char **argv);
/** `schemadoc template FILE.mustache --data DATA.json ...` (cmd_template.c). */
int sd_cmd_template(int argc, char **argv);
/** `schemadoc debug-k8s-places CHART_DIR|TEMPLATE [POINTER]` (cmd_places.c, not in --help). */
int sd_cmd_debug_places(int argc, char **argv);
int sd_cmd_validate(int argc, char **argv);
/** `schemadoc lsp [--stdio]`: the language server (cmd_lsp.c, src/lsp/). */
int sd_cmd_lsp(int argc, char **argv);

#endif
