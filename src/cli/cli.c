/* SPDX-License-Identifier: Apache-2.0 */
/* cli.c - what every subcommand (cmd_*.c) calls: diagnostics printed to
 * stderr, usage errors, whether to skip the frees at exit, `--name VALUE`
 * matching, URL checks, and the options every command that reads a source
 * shares: reference resolution (--map, --offline, --cache-dir, --refresh,
 * --timeout, --lenient) and --draft. main.c keeps dispatch and help. */
#include "cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

int sd_cli_valid_url(const char *u)
{
    if (strncmp(u, "https://", 8) != 0 && strncmp(u, "http://", 7) != 0)
        return 0;
    for (; *u; u++)
        if ((unsigned char)*u <= ' ' || *u == 0x7f || *u == '"' || *u == '<' || *u == '>' || *u == '\\')
            return 0;
    return 1;
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


int sd_cli_source_opt(int argc, char **argv, int *i, sd_source_opts *o)
{
    const char *a = argv[*i], *v;
    int r;

    if (!strcmp(a, "--offline")) return o->offline = 1;
    if (!strcmp(a, "--refresh")) return o->refresh = 1;
    if (!strcmp(a, "--lenient")) return o->lenient = 1;
    if ((r = sd_cli_opt_value(argc, argv, i, "--map", &v)) != 0) {
        if (r < 0 || !strchr(v, '=')) {
            sd_cli_usage_error("option '--map' takes PREFIX=TARGET");
            return -1;
        }
        const char **m = realloc((void *)o->maps, (o->nmaps + 1) * sizeof *m);
        if (!m)
            return -1;
        m[o->nmaps++] = v;
        o->maps = m;
        return 1;
    }
    if ((r = sd_cli_opt_value(argc, argv, i, "--cache-dir", &v)) != 0) {
        if (r < 0) {
            sd_cli_usage_error("option '--cache-dir' needs a directory");
            return -1;
        }
        o->cache_dir = v;
        return 1;
    }
    if ((r = sd_cli_opt_value(argc, argv, i, "--timeout", &v)) != 0) {
        char *e;
        double s = r > 0 ? strtod(v, &e) : 0;
        if (r < 0 || *e || s <= 0 || s > 3600) {
            sd_cli_usage_error("option '--timeout' takes seconds (0 < N <= 3600)");
            return -1;
        }
        o->timeout_ms = (long)(s * 1000);
        return 1;
    }
    if ((r = sd_cli_opt_value(argc, argv, i, "--k8s-types", &v)) != 0) {
        if (r < 0 || (strcmp(v, "on") && strcmp(v, "off"))) {
            sd_cli_usage_error("option '--k8s-types' takes on or off");
            return -1;
        }
        o->k8s_types_off = !strcmp(v, "off");
        return 1;
    }
    if ((r = sd_cli_opt_value(argc, argv, i, "--draft", &v)) != 0) {
        static const struct { const char *name; int draft; } drafts[] = {
            { "4", 4 }, { "6", 6 }, { "7", 7 }, { "2019-09", 2019 }, { "2020-12", 2020 }, { NULL, 0 }
        };
        for (int k = 0; r > 0 && drafts[k].name; k++)
            if (!strcmp(v, drafts[k].name))
                return o->draft = drafts[k].draft, 1;
        sd_cli_usage_error("option '--draft' takes 4, 6, 7, 2019-09 or 2020-12");
        return -1;
    }
    return 0;
}
