/* cli.h - what subcommands share: option parsing helpers and diagnostics
 * printing. Each subcommand is `int sd_cmd_NAME(int argc, char **argv)`
 * (argv[0] is the subcommand's name) returning an exit status. */
#ifndef SD_CLI_H
#define SD_CLI_H

#include "diag.h"
#include "model.h"

/** Print `d` to stderr, in colour when stderr is a terminal and NO_COLOR is unset. */
void sd_cli_print_diags(const sd_diags *d);
/** Print "schemadoc: error: MSG (see 'schemadoc --help')" and return 2. */
int sd_cli_usage_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/** Match `--name VALUE` or `--name=VALUE` at argv[*i]; on a match sets *val,
 *  advances *i past the value and returns 1. A missing value returns -1. */
int sd_cli_opt_value(int argc, char **argv, int *i, const char *name, const char **val);

/** Parse a shared source option at argv[*i] into `o` (--map, --offline,
 *  --refresh, --lenient, --cache-dir, --timeout, --draft). Returns 1 when
 *  consumed, 0 when argv[*i] is not one of them, -1 after printing a usage
 *  error. o->maps is realloc'd: free it when done. */
int sd_cli_model_opt(int argc, char **argv, int *i, sd_model_opts *o);

int sd_cmd_render(int argc, char **argv);
/** `schemadoc rules SOURCE [-o FILE]` (cmd_rules.c). */
int sd_cmd_rules(int argc, char **argv);
int sd_cmd_schema(int argc, char **argv);
/** `schemadoc template FILE.mustache --data DATA.json ...` (cmd_template.c). */
int sd_cmd_template(int argc, char **argv);
int sd_cmd_validate(int argc, char **argv);

#endif
