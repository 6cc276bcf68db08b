/* SPDX-License-Identifier: Apache-2.0 */
/* cmd_recursive.c - `schemadoc --recursive DIR... [-j N] [--quiet]
 * (-o SITE/ | --readme NAME) [--check] [OPTIONS]`: every chart below DIR
 * (every directory holding a Chart.yaml; a FILE stands for the chart that
 * holds it), each documented by the one-chart command in a process of its
 * own, N at a time; then SITE/index.html linking every chart (rendered by
 * render/site_index.c with templates/index/). A failed
 * chart is listed at the end and the others are still done.
 *
 * In: argv. Out: one page per chart (SITE/<chart's path>/index.html or
 * README.md) or each chart's README rewritten, a progress line on a
 * terminal, the failures on stderr, the exit status (2 when a chart
 * failed, 1 when --check found a stale file, else 0). */
#include "cli.h"
#include "alloc.h"
#include "file.h"
#include "node.h"
#include "out.h"
#include "render.h"
#include "sd.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_WALK_DEPTH 32

typedef struct chart_job {
    char  *dir;       /* as handed to the one-chart command */
    char  *rel;       /* its path below the root ("." for the root) */
    char  *out;       /* the page to write, or NULL (--readme) */
    pid_t  pid;
    FILE  *log;       /* the child's stdout and stderr */
    int    status;    /* exit status, -1 while running */
} chart_job;

typedef struct rctx {
    chart_job   *jobs;
    size_t       n, cap;
    const char **skip;       /* --skip PATTERN (a name or a path below the root) */
    size_t       nskip;
    int          subcharts;  /* --include-subcharts */
    int          first_only; /* stop at the first chart found */
} rctx;

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static int has_chart_yaml(const char *dir)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/Chart.yaml", dir);
    return is_file(p);
}

/* A path on stderr: control bytes (a directory named with terminal escape
 * sequences) shown as '?'. */
static void put_path(FILE *f, const char *s)
{
    for (; *s; s++)
        fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, f);
}

static int add_chart(rctx *c, const char *dir, const char *rel)
{
    for (size_t i = 0; i < c->n; i++)
        if (!strcmp(c->jobs[i].dir, dir))
            return 0;
    if (sd_grow((void **)&c->jobs, &c->cap, c->n + 1, sizeof *c->jobs) < 0)
        return SD_ENOMEM;
    chart_job *j = &c->jobs[c->n];
    memset(j, 0, sizeof *j);
    j->dir = strdup(dir);
    j->rel = strdup(rel);
    j->status = -1;
    if (!j->dir || !j->rel)
        return SD_ENOMEM;
    c->n++;
    return 0;
}

/* A directory left out: hidden ones (.git), node_modules, a chart's own
 * charts/ (its vendored subcharts, unless --include-subcharts), and
 * anything --skip names (by its name or its path below the root). */
static int skipped(const rctx *c, const char *name, const char *rel, int parent_is_chart)
{
    if (name[0] == '.' || !strcmp(name, "node_modules"))
        return 1;
    if (parent_is_chart && !strcmp(name, "charts") && !c->subcharts)
        return 1;
    for (size_t i = 0; i < c->nskip; i++)
        if (fnmatch(c->skip[i], name, 0) == 0 || fnmatch(c->skip[i], rel, FNM_PATHNAME) == 0)
            return 1;
    return 0;
}

static int walk(rctx *c, const char *dir, const char *rel, int depth)
{
    DIR *d;
    struct dirent *e;
    char **names = NULL;
    size_t nn = 0, cap = 0;
    int err = 0, chart = has_chart_yaml(dir);

    if (chart && (err = add_chart(c, dir, rel)) < 0)
        return err;
    if (depth >= MAX_WALK_DEPTH || !(d = opendir(dir)))
        return 0;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (nn == cap) {
            cap = cap ? cap * 2 : 32;
            char **m = realloc(names, cap * sizeof *m);
            if (!m) {
                err = SD_ENOMEM;
                break;
            }
            names = m;
        }
        if (!(names[nn] = strdup(e->d_name))) {
            err = SD_ENOMEM;
            break;
        }
        nn++;
    }
    closedir(d);
    /* sorted: the same order (and index) on every machine */
    for (size_t i = 1; i < nn; i++)
        for (size_t k = i; k > 0 && strcmp(names[k - 1], names[k]) > 0; k--) {
            char *t = names[k];
            names[k] = names[k - 1];
            names[k - 1] = t;
        }
    for (size_t i = 0; i < nn && err == 0 && !(c->first_only && c->n); i++) {
        char path[4096], sub[4096];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        snprintf(sub, sizeof sub, "%s%s%s", strcmp(rel, ".") ? rel : "", strcmp(rel, ".") ? "/" : "", names[i]);
        /* symbolic links are not followed: no loops, nothing outside */
        if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode) || skipped(c, names[i], sub, chart))
            continue;
        err = walk(c, path, sub, depth + 1);
    }
    for (size_t i = 0; i < nn; i++)
        free(names[i]);
    free(names);
    return err;
}

int sd_cli_has_charts(const char *dir)
{
    rctx c;
    int found;
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || has_chart_yaml(dir))
        return 0;
    memset(&c, 0, sizeof c);
    c.first_only = 1;
    found = walk(&c, dir, ".", 0) == 0 && c.n > 0;
    for (size_t i = 0; i < c.n; i++) {
        free(c.jobs[i].dir);
        free(c.jobs[i].rel);
    }
    free(c.jobs);
    return found;
}

/* A FILE argument (pre-commit hands over the files of a commit): the
 * nearest directory above it holding a Chart.yaml, or nothing. */
static int chart_of_file(rctx *c, const char *file)
{
    char *p = strdup(file), *slash;
    int err = 0;
    if (!p)
        return SD_ENOMEM;
    while ((slash = strrchr(p, '/'))) {
        *slash = '\0';
        if (!*p)
            break;
        if (has_chart_yaml(p)) {
            err = add_chart(c, p, p);
            free(p);
            return err;
        }
    }
    if (has_chart_yaml("."))
        err = add_chart(c, ".", ".");
    free(p);
    return err;
}

/* ---- the index page ---------------------------------------------------------- */

typedef struct meta { const char *name, *version, *description; int deprecated; } meta;

static meta chart_meta(const sd_doc *doc)
{
    meta m = { NULL, NULL, NULL, 0 };
    const sd_node *r = doc ? sd_doc_root(doc) : NULL, *t;
    if (!r || r->kind != SD_MAP)
        return m;
    if ((t = sd_node_get(r, "name")) && t->kind != SD_MAP && t->kind != SD_SEQ) m.name = t->str;
    if ((t = sd_node_get(r, "version")) && t->kind != SD_MAP && t->kind != SD_SEQ) m.version = t->str;
    if ((t = sd_node_get(r, "description")) && t->kind != SD_MAP && t->kind != SD_SEQ) m.description = t->str;
    m.deprecated = (t = sd_node_get(r, "deprecated")) && t->kind == SD_BOOL && t->num.b;
    return m;
}

static void set_text(sd_val *o, const char *k, const char *s)
{
    if (s)
        sd_val_object_set_new(o, k, sd_val_stringn_nocheck(s, strlen(s)));
}

/* SITE/index.html (html) or SITE/README.md (md) listing every chart: what
 * each Chart.yaml says, rendered by render/ (templates/index/). */
static int write_index(sd_buf *out, const rctx *c, const char *format, const char *theme, size_t plen,
                       sd_diags *diags)
{
    sd_val *charts = sd_val_array();
    int err;

    for (size_t i = 0; i < c->n; i++) {
        const chart_job *j = &c->jobs[i];
        char path[4096];
        sd_doc *doc = NULL;
        sd_diags quiet = SD_DIAGS_INIT;
        sd_val *x = sd_val_object();
        struct stat st;
        snprintf(path, sizeof path, "%s/Chart.yaml", j->dir);
        /* not through a symbolic link out of the chart: it could lead anywhere */
        if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
            (void)sd_doc_load_in(&doc, j->dir, path, "chart file", SD_FMT_YAML, NULL, &quiet);
        meta m = chart_meta(doc);
        set_text(x, "path", j->rel);
        set_text(x, "name", m.name);
        set_text(x, "version", m.version);
        set_text(x, "description", m.description);
        set_text(x, "href", j->out ? j->out + plen : "");   /* below SITE/ */
        sd_val_object_set_new(x, "deprecated", sd_val_boolean(m.deprecated));
        sd_val_object_set_new(x, "linked", sd_val_boolean(j->status == 0 || j->status == 1));
        sd_val_object_set_new(x, "failed", sd_val_boolean(j->status > 1));
        sd_val_array_append_new(charts, x);
        sd_doc_free(doc);
        sd_diags_release(&quiet);
    }
    if (sd_alloc_failed())
        err = SD_ENOMEM;
    else
        err = sd_render_index(out, charts, format, theme, "schemadoc " SD_VERSION, diags);
    sd_val_decref(charts);
    return err < 0 ? err : sd_buf_failed(out) ? SD_ENOMEM : 0;
}

/* ---- running the charts ------------------------------------------------------- */

static int mkdirs(const char *path)
{
    char p[4096];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(p, 0777) != 0 && errno != EEXIST)
            return -1;
        *s = '/';
    }
    return mkdir(p, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

static int start(chart_job *j, int argc, char **argv)
{
    fflush(stdout);
    fflush(stderr);
    if (!(j->log = tmpfile()))
        return -1;
    j->pid = fork();
    if (j->pid < 0) {
        fclose(j->log);
        j->log = NULL;
        return -1;
    }
    if (j->pid == 0) {
        int fd = fileno(j->log);
        if (dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
            _exit(SD_EXIT_ERROR);
        exit(sd_cmd_render(argc, argv));
    }
    return 0;
}

static void copy_log(FILE *log, FILE *to)
{
    char chunk[8192];
    size_t n;
    rewind(log);
    while ((n = fread(chunk, 1, sizeof chunk, log)) > 0)
        fwrite(chunk, 1, n, to);
}

/* 1 when the file at `path` holds exactly `len` bytes of `data`. */
static int same_file(const char *path, const char *data, size_t len)
{
    /* the checked opener: a FIFO or a device at `path` is "not the same",
     * never a hang */
    sd_diags quiet = SD_DIAGS_INIT;
    char *text = NULL;
    size_t n = 0;
    int same = sd_file_read(&text, &n, path, len + 1, 0, &quiet) == 0 && n == len &&
               memcmp(text, data, len) == 0;
    free(text);
    sd_diags_release(&quiet);
    return same;
}

static const char recursive_help[] =
"Usage: schemadoc --recursive DIR|FILE... (-o SITE/ | --readme NAME) [--check]\n"
"                 [--format html|md|json] [-j N] [--quiet] [--skip PATTERN]...\n"
"                 [--include-subcharts] [PAGE AND SOURCE OPTIONS]\n";

/* What the command line asked for. */
typedef struct ropts {
    const char  *site, *readme, *format, *theme;
    const char **roots;        /* DIR and FILE arguments */
    size_t       nroots;
    const char **fwd;          /* options handed to every chart's command */
    size_t       nfwd;
    int          jobs, quiet, check;
} ropts;

/* The tally of a run. */
typedef struct tally { size_t done, running, failed, stale; } tally;

#define NO_EXIT (-1)   /* parse_args(), find_charts(): go on */

/* Read argv into `o` (and the walk's options into `c`). NO_EXIT, or the
 * exit status (after --help, or a usage error printed). */
static int parse_args(ropts *o, rctx *c, int argc, char **argv)
{
    const char *v;
    int r;
#define USAGE(...) return sd_cli_usage_error(__VA_ARGS__)
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--recursive")) {
            continue;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(recursive_help, stdout);
            fputs("See 'schemadoc --help' (Charts repository options).\n", stdout);
            return SD_EXIT_OK;
        } else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
            o->quiet = 1;
        } else if (!strcmp(a, "--check")) {
            o->check = 1;
        } else if (!strcmp(a, "--include-subcharts")) {
            c->subcharts = 1;
        } else if ((r = sd_cli_opt_value(argc, argv, &i, "--jobs", &v)) != 0 ||
                   (r = sd_cli_opt_value(argc, argv, &i, "-j", &v)) != 0 ||
                   (a[0] == '-' && a[1] == 'j' && a[2] >= '0' && a[2] <= '9' && (v = a + 2, r = 1))) {
            char *e;
            long n = r > 0 ? strtol(v, &e, 10) : 0;
            if (r < 0 || *e || n < 1 || n > 1024)
                USAGE("option '-j' takes a number of charts at once (1 to 1024)");
            o->jobs = (int)n;
        } else if ((r = sd_cli_opt_value(argc, argv, &i, "--skip", &v)) != 0) {
            if (r < 0)
                USAGE("option '--skip' needs a directory name or pattern");
            c->skip[c->nskip++] = v;
        } else if ((r = sd_cli_opt_value(argc, argv, &i, "--output", &v)) != 0 ||
                   (r = sd_cli_opt_value(argc, argv, &i, "-o", &v)) != 0) {
            if (r < 0)
                USAGE("option '-o' needs a directory (SITE/)");
            o->site = v;
        } else if ((r = sd_cli_opt_value(argc, argv, &i, "--readme", &v)) != 0) {
            if (r < 0)
                USAGE("option '--readme' needs a file name (e.g. README.md)");
            o->readme = v;
        } else if ((r = sd_cli_opt_value(argc, argv, &i, "--format", &v)) != 0) {
            if (r < 0)
                USAGE("option '--format' needs a value: html, md, json");
            o->format = v;
        } else if ((r = sd_cli_opt_value(argc, argv, &i, "--source-url", &v)) != 0) {
            if (r < 0 || !sd_cli_valid_url(v))
                USAGE("option '--source-url' takes an http(s) URL");
            o->fwd[o->nfwd++] = "--source-url";    /* completed per chart below */
            o->fwd[o->nfwd++] = v;
        } else if (a[0] == '-' && a[1]) {
            /* any other option of the one-chart command goes to each chart
             * as it is; the option table says whether it takes a value */
            const sd_cli_option *t;
            size_t n = strcspn(a, "=");
            for (t = sd_cli_options; t->name; t++)
                if ((t->cmds & SD_CMD_RENDER) && strlen(t->name) == n && !strncmp(t->name, a, n))
                    break;
            if (!t->name || !strcmp(t->name, "--version") || !strcmp(t->name, "--gotmpl"))
                USAGE("unknown option '%s' with --recursive", a);
            o->fwd[o->nfwd++] = a;
            if (t->arg && !a[n]) {
                if (i + 1 >= argc)
                    USAGE("option '%s' needs a value", a);
                o->fwd[o->nfwd++] = argv[++i];
            }
            if (!strcmp(t->name, "--theme"))
                o->theme = a[n] ? a + n + 1 : argv[i];   /* the index's look too */
        } else {
            o->roots[o->nroots++] = a;
        }
    }
    if (!o->nroots)
        USAGE("'--recursive' needs a directory (or files of charts)");
    if (!o->site == !o->readme)
        USAGE("'--recursive' writes either pages under '-o SITE/' or each chart's '--readme NAME'");
    if (!o->format)
        o->format = o->readme ? "md" : "html";
    if (strcmp(o->format, "html") && strcmp(o->format, "md") && strcmp(o->format, "json"))
        USAGE("'--recursive' writes html, md or json pages, not '%s'", o->format);
    if (o->readme && (strchr(o->readme, '/') || !strcmp(o->readme, "..") || !strcmp(o->readme, ".")))
        USAGE("'--readme' with --recursive names a file in each chart (e.g. README.md), not a path");
    if (o->readme && strcmp(o->format, "md"))
        USAGE("'--readme' takes Markdown: use '--format md' (or no --format)");
#undef USAGE
    if (!o->jobs) {
        long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
        o->jobs = ncpu > 0 ? (int)ncpu : 1;
    }
    return NO_EXIT;
}

/* Every chart below the roots into c->jobs. NO_EXIT, or the exit status. */
static int find_charts(rctx *c, const ropts *o)
{
    for (size_t i = 0; i < o->nroots; i++) {
        struct stat st;
        char root[4096];
        snprintf(root, sizeof root, "%s", o->roots[i]);
        for (size_t n = strlen(root); n > 1 && root[n - 1] == '/'; n--)
            root[n - 1] = '\0';
        if (stat(root, &st) != 0) {
            fprintf(stderr, "schemadoc: error: %s: %s\n", o->roots[i], strerror(errno));
            return SD_EXIT_ERROR;
        }
        if ((S_ISDIR(st.st_mode) ? walk(c, root, ".", 0) : chart_of_file(c, root)) < 0)
            return SD_EXIT_ERROR;
    }
    if (c->n == 0) {
        if (!o->site)   /* pre-commit: the commit touched no chart */
            return SD_EXIT_OK;
        fprintf(stderr, "schemadoc: error: no Chart.yaml below %s\n", o->roots[0]);
        return SD_EXIT_ERROR;
    }
    return NO_EXIT;
}

/* Where each page goes: SITE/<chart's path>/index.html (the root chart:
 * SITE/<its name>/), its directory made unless --check. 0 or -1 (said). */
static int place_pages(rctx *c, const ropts *o)
{
    const char *site = o->site;
    for (size_t i = 0; i < c->n; i++) {
        chart_job *j = &c->jobs[i];
        sd_buf p = SD_BUF_INIT;
        const char *rel = j->rel, *base;
        if (!strcmp(rel, ".") || rel[0] == '/' || strstr(rel, "..")) {
            /* the root chart, or a FILE's chart outside DIR: by its name,
             * never a path leaving SITE */
            base = strrchr(j->dir, '/');
            rel = base ? base + 1 : j->dir;
            if (!strcmp(rel, ".") || !strcmp(rel, "..") || !*rel)
                rel = "chart";
        }
        sd_buf_printf(&p, "%s%s%s/", site, site[strlen(site) - 1] == '/' ? "" : "/", rel);
        if (!o->check && mkdirs(p.ptr) != 0) {
            fprintf(stderr, "schemadoc: error: cannot create %s: %s\n", p.ptr, strerror(errno));
            sd_buf_release(&p);
            return -1;
        }
        sd_buf_puts(&p, !strcmp(o->format, "html") ? "index.html" : !strcmp(o->format, "md") ? "README.md" : "model.json");
        j->out = sd_buf_detach(&p);
    }
    return 0;
}

/* The one-chart command for `j` into cargv (NULL-terminated; room for 4 +
 * nfwd + 5 entries); `url` and `rm` hold the strings made for it. Returns
 * its argc. */
static int chart_argv(char **cargv, sd_buf *url, sd_buf *rm, const chart_job *j, const ropts *o)
{
    int k = 0;
    cargv[k++] = "schemadoc";
    cargv[k++] = j->dir;
    cargv[k++] = "--format";
    cargv[k++] = (char *)o->format;
    for (size_t f = 0; f < o->nfwd; f++) {
        cargv[k++] = (char *)o->fwd[f];
        if (!strcmp(o->fwd[f], "--source-url") && f + 1 < o->nfwd) {
            /* DIR's URL, plus the chart's path below DIR */
            const char *u = o->fwd[++f];
            size_t ul = strlen(u);
            sd_buf_printf(url, "%.*s", (int)(ul && u[ul - 1] == '/' ? ul - 1 : ul), u);
            for (const char *q = j->rel; strcmp(j->rel, ".") && *q; q++) {
                unsigned char ch = (unsigned char)*q;
                if (q == j->rel)
                    sd_buf_putc(url, '/');
                if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || strchr("-._~/", ch))
                    sd_buf_putc(url, (char)ch);
                else
                    sd_buf_printf(url, "%%%02X", ch);
            }
            cargv[k++] = url->ptr;
        }
    }
    if (o->readme) {
        sd_buf_printf(rm, "%s/%s", j->dir, o->readme);
        cargv[k++] = "--readme";
        cargv[k++] = rm->ptr;
    } else {
        cargv[k++] = "-o";
        cargv[k++] = j->out;
    }
    if (o->check)
        cargv[k++] = "--check";
    cargv[k] = NULL;
    return k;
}

/* Chart `j` ended with wait status `ws`: its status, its log passed on
 * (stderr; stdout for --check's diff), the progress line. */
static void finished(chart_job *j, int ws, const rctx *c, const ropts *o, tally *t, int tty)
{
    j->status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + (WIFSIGNALED(ws) ? WTERMSIG(ws) : 0);
    t->running--;
    t->done++;
    if (tty)
        fputs("\r\033[K", stderr);
    if (j->status > 1) {
        t->failed++;
        fflush(stdout);
        copy_log(j->log, stderr);
        if (WIFSIGNALED(ws)) {
            fputs("schemadoc: error: ", stderr);
            put_path(stderr, j->dir);
            fprintf(stderr, ": killed by signal %d\n", WTERMSIG(ws));
        }
    } else {
        if (j->status == 1)
            t->stale++;
        if (!o->quiet || j->status == 1)
            copy_log(j->log, j->status == 1 ? stdout : stderr);
    }
    fclose(j->log);
    j->log = NULL;
    if (tty) {
        fprintf(stderr, "[%zu/%zu] ", t->done, c->n);
        put_path(stderr, j->rel);
        fflush(stderr);
    }
}

/* Run every chart's command, o->jobs at a time. 0, or -1 (said) when the
 * options cannot be handed on. */
static int run_charts(rctx *c, const ropts *o, tally *t)
{
    size_t next = 0;
    int tty = !o->quiet && isatty(2);
    char *cargv[64 + 2 * 256];

    if (o->nfwd > 2 * 256) {
        fprintf(stderr, "schemadoc: error: too many options\n");
        return -1;
    }
    while (t->done < c->n) {
        while (t->running < (size_t)o->jobs && next < c->n) {
            chart_job *j = &c->jobs[next++];
            sd_buf url = SD_BUF_INIT, rm = SD_BUF_INIT;
            if (start(j, chart_argv(cargv, &url, &rm, j, o), cargv) != 0) {
                j->status = SD_EXIT_ERROR;
                t->done++;
                t->failed++;
                fprintf(stderr, "schemadoc: error: %s: cannot start: %s\n", j->dir, strerror(errno));
            } else {
                t->running++;
            }
            sd_buf_release(&url);
            sd_buf_release(&rm);
        }
        if (!t->running)
            continue;
        int ws;
        pid_t pid = wait(&ws);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (size_t i = 0; i < c->n; i++)
            if (c->jobs[i].pid == pid && c->jobs[i].status == -1) {
                finished(&c->jobs[i], ws, c, o, t, tty);
                break;
            }
    }
    if (tty)
        fputs("\r\033[K", stderr);
    return 0;
}

/* SITE/index.html (SITE/README.md) written, or with --check compared. */
static void site_index(const rctx *c, const ropts *o, tally *t, sd_diags *diags)
{
    const char *site = o->site;
    sd_buf idx = SD_BUF_INIT, ip = SD_BUF_INIT;
    size_t plen = strlen(site) + (site[strlen(site) - 1] == '/' ? 0 : 1);

    sd_buf_printf(&ip, "%s%s%s", site, site[strlen(site) - 1] == '/' ? "" : "/",
                  !strcmp(o->format, "html") ? "index.html" : "README.md");
    if (write_index(&idx, c, o->format, o->theme, plen, diags) < 0) {
        t->failed++;
    } else if (o->check) {
        if (!same_file(ip.ptr, idx.ptr, idx.len)) {
            printf("%s is not up to date\n", ip.ptr);
            t->stale++;
        }
    } else if (sd_out_write(ip.ptr, idx.ptr, idx.len, diags) < 0) {
        t->failed++;
    }
    sd_buf_release(&idx);
    sd_buf_release(&ip);
}

/* The closing lines and the exit status. */
static int report(const rctx *c, const ropts *o, const tally *t)
{
    if (t->failed) {
        fprintf(stderr, "schemadoc: %zu of %zu charts failed:\n", t->failed, c->n);
        for (size_t i = 0; i < c->n; i++)
            if (c->jobs[i].status > 1) {
                fputs("  ", stderr);
                put_path(stderr, c->jobs[i].dir);
                fputc('\n', stderr);
            }
        return SD_EXIT_ERROR;
    }
    if (t->stale) {
        if (!o->quiet)
            fprintf(stderr, "schemadoc: %zu of %zu charts are not up to date\n", t->stale, c->n);
        return SD_EXIT_FOUND_WANTING;
    }
    if (!o->quiet && isatty(2))
        fprintf(stderr, "schemadoc: %zu charts documented\n", c->n);
    return SD_EXIT_OK;
}

int sd_cmd_recursive(int argc, char **argv)
{
    rctx c;
    ropts o;
    tally t;
    int status;
    sd_diags diags = SD_DIAGS_INIT;

    memset(&c, 0, sizeof c);
    memset(&o, 0, sizeof o);
    memset(&t, 0, sizeof t);
    o.roots = calloc((size_t)argc, sizeof *o.roots);
    o.fwd = calloc((size_t)argc * 2 + 16, sizeof *o.fwd);
    c.skip = calloc((size_t)argc, sizeof *c.skip);
    if (!o.roots || !o.fwd || !c.skip)
        status = SD_EXIT_ERROR;
    else if ((status = parse_args(&o, &c, argc, argv)) == NO_EXIT &&
             (status = find_charts(&c, &o)) == NO_EXIT) {
        if ((o.site && place_pages(&c, &o) < 0) || run_charts(&c, &o, &t) < 0) {
            status = SD_EXIT_ERROR;
        } else {
            if (o.site && t.failed < c.n && strcmp(o.format, "json"))
                site_index(&c, &o, &t, &diags);
            status = report(&c, &o, &t);
        }
    }
    sd_cli_print_diags(&diags);
    sd_diags_release(&diags);
    for (size_t i = 0; i < c.n; i++) {
        free(c.jobs[i].dir);
        free(c.jobs[i].rel);
        free(c.jobs[i].out);
        if (c.jobs[i].log)
            fclose(c.jobs[i].log);
    }
    free(c.jobs);
    free((void *)c.skip);
    free((void *)o.roots);
    free((void *)o.fwd);
    return status;
}
