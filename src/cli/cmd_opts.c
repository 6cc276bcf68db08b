/* cmd_opts.c - the options every command that reads a source shares:
 * reference resolution (--map, --offline, --cache-dir, --refresh,
 * --timeout, --lenient) and --draft. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

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
