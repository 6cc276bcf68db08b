/* cli.h - what subcommands share: option parsing helpers and diagnostics
 * printing. Each subcommand is `int sd_cmd_NAME(int argc, char **argv)`
 * (argv[0] is the subcommand's name) returning an exit status. */
#ifndef SD_CLI_H
#define SD_CLI_H

#include "diag.h"

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

int sd_cmd_render(int argc, char **argv);
int sd_cmd_validate(int argc, char **argv);

#endif
