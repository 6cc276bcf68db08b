/* SPDX-License-Identifier: Apache-2.0 */
/* docset.c - the documents of one run: prefix maps, confinement, loading.
 *
 * In: absolute URIs and $ref texts from the resolver, a chart directory,
 * schema-dependencies.json (Helm HIP "Schema Validation with External
 * Dependencies") and --map options. Out: sd_doc trees memoised by
 * normalised URI, or one diagnostic at the referring $ref.
 *
 * Local files go through one gate, load_local(): lexical check against the
 * chart, realpath check against the chart's realpath, stat() for a regular
 * file under the size cap, and only then open(). */
#include "docset.h"
#include "alloc.h"
#include "file.h"
#include "buf.h"
#include "uri.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct map_entry {
    char *prefix;
    char *target;   /* as written */
    char *abs;      /* the target as an absolute URI */
    int   user;     /* from --map: not confined */
} map_entry;

typedef struct doc_entry {
    char   *key;    /* normalised URI without fragment */
    sd_doc *doc;    /* NULL after a failure */
    int     err;    /* the failure's code */
    char   *why;    /* the failure, for asking again */
    int     remote;
} doc_entry;

struct sd_docset {
    sd_docset_opts opts;
    sd_load_limits limits;
    sd_fetch *fetch;
    char *chart_disp;   /* chart root as given, without trailing slashes */
    char *chart_uri;    /* file:///abs/chart/ */
    char *chart_abs;    /* /abs/chart/ (lexical) */
    char *chart_real;   /* realpath of the chart, with a final '/' */
    char *cwd;          /* with a final '/' */
    map_entry *maps;
    size_t nmaps, amaps;
    char **trusted;     /* directories of --map targets, final '/' */
    size_t ntrusted, atrusted;
    doc_entry *docs;
    size_t ndocs, adocs;
};

static const sd_loc no_loc = { NULL, 0, 0 };


/* 1 when path `p` is `dir` (which ends in '/') or lies under it. */
static int under(const char *p, const char *dir)
{
    size_t n = strlen(dir);
    return strncmp(p, dir, n) == 0 || (strncmp(p, dir, n - 1) == 0 && p[n - 1] == '\0');
}

static char *with_slash(const char *s)
{
    sd_buf b = SD_BUF_INIT;
    sd_buf_puts(&b, s);
    if (b.len == 0 || b.ptr[b.len - 1] != '/')
        sd_buf_putc(&b, '/');
    return sd_buf_detach(&b);
}

/* ---- the set ------------------------------------------------------------ */

int sd_docset_new(sd_docset **out, const sd_docset_opts *opts, sd_diags *diags)
{
    sd_docset *s;
    char cwd[PATH_MAX];
    int err;

    *out = NULL;
    if (!(s = calloc(1, sizeof *s)))
        return sd_diag_error(diags, SD_ENOMEM, no_loc, "out of memory");
    if (opts)
        s->opts = *opts;
    if (s->opts.limits)
        s->limits = *s->opts.limits;
    s->opts.limits = NULL;
    s->opts.chart_root = NULL;
    if (!s->opts.fetch.max_size)
        s->opts.fetch.max_size = SD_FETCH_MAX_SIZE;
    s->limits.max_file = s->opts.fetch.max_size;
    if ((err = sd_fetch_new(&s->fetch, &s->opts.fetch)) < 0)
        goto fail;
    if (!getcwd(cwd, sizeof cwd) || !(s->cwd = with_slash(cwd))) {
        err = SD_ENOMEM;
        goto fail;
    }
    if (opts && opts->chart_root) {
        const char *root = opts->chart_root;
        char real[PATH_MAX], *path = NULL;
        struct stat st;
        size_t n = strlen(root);

        if (stat(root, &st) < 0 || !S_ISDIR(st.st_mode) || !realpath(root, real)) {
            sd_loc loc = { root, 0, 0 };
            sd_docset_free(s);
            return sd_diag_error(diags, SD_ENOTFOUND, loc, "not a chart directory");
        }
        while (n > 1 && root[n - 1] == '/')
            n--;
        if (!(s->chart_disp = strndup(root, n)) || !(s->chart_real = with_slash(real))
            || !(path = with_slash(root)) || (err = sd_uri_from_path(&s->chart_uri, path)) < 0
            || (err = sd_uri_to_path(&s->chart_abs, s->chart_uri)) < 0) {
            free(path);
            err = SD_ENOMEM;
            goto fail;
        }
        free(path);
    }
    *out = s;
    return 0;
fail:
    sd_docset_free(s);
    return sd_diag_error(diags, err, no_loc, err == SD_ENOMEM ? "out of memory"
                                              : "cannot start libcurl");
}

void sd_docset_free(sd_docset *s)
{
    size_t i;

    if (!s)
        return;
    for (i = 0; i < s->ndocs; i++) {
        sd_doc_free(s->docs[i].doc);
        free(s->docs[i].key);
        free(s->docs[i].why);
    }
    for (i = 0; i < s->nmaps; i++) {
        free(s->maps[i].prefix);
        free(s->maps[i].target);
        free(s->maps[i].abs);
    }
    for (i = 0; i < s->ntrusted; i++)
        free(s->trusted[i]);
    free(s->docs);
    free(s->maps);
    free(s->trusted);
    sd_fetch_free(s->fetch);
    free(s->chart_disp);
    free(s->chart_uri);
    free(s->chart_abs);
    free(s->chart_real);
    free(s->cwd);
    free(s);
}

const char *sd_docset_chart_uri(const sd_docset *s) { return s->chart_uri; }
size_t sd_docset_count(const sd_docset *s)
{
    size_t i, n = 0;
    for (i = 0; i < s->ndocs; i++)
        n += s->docs[i].doc != NULL;
    return n;
}
sd_fetch *sd_docset_fetcher(sd_docset *s) { return s->fetch; }

const char *sd_docset_uri(const sd_docset *s, const sd_doc *doc)
{
    size_t i;
    for (i = 0; doc && i < s->ndocs; i++)
        if (s->docs[i].doc == doc)
            return s->docs[i].key;
    return NULL;
}

/* ---- prefix maps -------------------------------------------------------- */

static int add_entry(sd_docset *s, const char *prefix, const char *target,
                     const char *abs, int user)
{
    map_entry *m;

    if (sd_grow((void **)&s->maps, &s->amaps, s->nmaps + 1, sizeof *s->maps) < 0)
        return SD_ENOMEM;
    m = &s->maps[s->nmaps];
    m->prefix = strdup(prefix);
    m->target = strdup(target);
    m->abs = strdup(abs);
    m->user = user;
    if (!m->prefix || !m->target || !m->abs) {
        free(m->prefix);
        free(m->target);
        free(m->abs);
        return SD_ENOMEM;
    }
    s->nmaps++;
    return 0;
}

/* What a JSON reader calls a kind. */
static const char *json_kind(const sd_node *n)
{
    switch (n->kind) {
    case SD_MAP: return "an object";
    case SD_SEQ: return "an array";
    case SD_INT: case SD_FLOAT: return "a number";
    case SD_BOOL: return "a boolean";
    case SD_NULL: return "null";
    default: return "a string";
    }
}

/* Check one entry of schema-dependencies.json; `abs` gets the target URI. */
static int check_chart_target(char **abs, sd_docset *s, const sd_pair *p, sd_diags *diags)
{
    const char *prefix = p->key->str, *t = sd_node_str(p->value);
    char *norm;
    int err;

    *abs = NULL;
    if (p->key->len == 0)
        return sd_diag_error(diags, SD_ESYNTAX, p->key->loc, "the prefix must not be empty");
    if (!t)
        return sd_diag_error(diags, SD_ESYNTAX, p->value->loc,
                             "the target of prefix '%s' must be a string, not %s",
                             prefix, json_kind(p->value));
    if (strlen(t) != p->value->len)
        return sd_diag_error(diags, SD_ESYNTAX, p->value->loc,
                             "the target of prefix '%s' contains a NUL character", prefix);
    if (sd_uri_has_scheme(t)) {
        if (!sd_uri_scheme_is(t, "http") && !sd_uri_scheme_is(t, "https"))
            return sd_diag_error(diags, SD_EDENIED, p->value->loc,
                                 "the target of prefix '%s' must be a path inside the chart "
                                 "or an http(s) URL, not '%s'", prefix, t);
        return (*abs = strdup(t)) ? 0 : SD_ENOMEM;
    }
    if (t[0] == '/' || t[0] == '\\')
        return sd_diag_error(diags, SD_EDENIED, p->value->loc,
                             "the target of prefix '%s' is an absolute path: '%s' "
                             "(local targets are relative to the chart directory)", prefix, t);
    if ((err = sd_uri_resolve(&norm, s->chart_uri, t)) < 0)
        return err;
    /* normalising decodes %2E, so "%2e%2e/" counts as ".." here as well */
    free(*abs);
    err = sd_uri_normalize(abs, norm);
    free(norm);
    if (err < 0)
        return err;
    if (strncmp(*abs, s->chart_uri, strlen(s->chart_uri)) != 0) {
        free(*abs);
        *abs = NULL;
        return sd_diag_error(diags, SD_EDENIED, p->value->loc,
                             "the target of prefix '%s' leaves the chart directory: '%s'",
                             prefix, t);
    }
    return 0;
}

static int gate_local(char **real_out, sd_buf *why, sd_docset *s, const char *path,
                      const char *disp);

int sd_docset_read_chart_map(sd_docset *s, sd_diags *diags)
{
    sd_buf path = SD_BUF_INIT, why = SD_BUF_INIT;
    sd_doc *doc = NULL;
    sd_node *root;
    char *real = NULL;
    struct stat st;
    size_t i;
    int err = 0;

    if (!s->chart_disp)
        return 0;
    sd_buf_printf(&path, "%s/%s", s->chart_disp, SD_CHART_DEPS_FILE);
    if (sd_buf_failed(&path))
        return sd_diag_error(diags, SD_ENOMEM, no_loc, "out of memory");
    if (lstat(path.ptr, &st) < 0 && errno == ENOENT)
        goto done;
    {
        /* the map file itself is a chart file: confined like any other */
        char *abs = NULL, *uri = NULL;
        if ((err = sd_uri_from_path(&uri, path.ptr)) == 0)
            err = sd_uri_to_path(&abs, uri);
        free(uri);
        if (err == 0)
            err = gate_local(&real, &why, s, abs, path.ptr);
        free(abs);
        if (err < 0) {
            sd_loc loc = { path.ptr, 0, 0 };
            err = sd_diag_error(diags, err, loc, "%s", why.len ? why.ptr : "out of memory");
            goto done;
        }
    }
    {
        sd_load_limits lim = s->limits;
        char *text;
        size_t len;
        if ((err = sd_file_read(&text, &len, real, lim.max_file, 0, diags)) < 0)
            goto done;
        err = sd_doc_load_mem(&doc, path.ptr, text, len, SD_FMT_JSON, &lim, diags);
        free(text);
        if (err < 0)
            goto done;
    }
    root = sd_doc_root(doc);
    if (!root || root->kind != SD_MAP) {
        sd_loc loc = root ? root->loc : (sd_loc){ doc->file, 0, 0 };
        err = sd_diag_error(diags, SD_ESYNTAX, loc, "%s must contain a JSON object, not %s",
                            SD_CHART_DEPS_FILE, root ? json_kind(root) : "nothing");
        goto done;
    }
    for (i = 0; i < root->n; i++) {
        const sd_pair *p = &root->items[i];
        char *abs;
        if ((err = check_chart_target(&abs, s, p, diags)) < 0)
            goto done;
        err = add_entry(s, p->key->str, sd_node_str(p->value), abs, 0);
        free(abs);
        if (err < 0) {
            err = sd_diag_error(diags, err, no_loc, "out of memory");
            goto done;
        }
    }
done:
    sd_doc_free(doc);
    free(real);
    sd_buf_release(&path);
    sd_buf_release(&why);
    return err;
}

int sd_docset_add_map(sd_docset *s, const char *spec, sd_diags *diags)
{
    const char *eq = strchr(spec, '=');
    char *prefix = NULL, *abs = NULL, *dir = NULL;
    const char *target;
    int err = 0;

    if (!eq || eq == spec)
        return sd_diag_error(diags, SD_EUSAGE, no_loc,
                             "--map '%s': expected PREFIX=TARGET with a non-empty prefix", spec);
    target = eq + 1;
    if (!*target)
        return sd_diag_error(diags, SD_EUSAGE, no_loc, "--map '%s': the target is empty", spec);
    if (!(prefix = strndup(spec, (size_t)(eq - spec))))
        goto oom;
    if (sd_uri_has_scheme(target)) {
        if (!sd_uri_scheme_is(target, "http") && !sd_uri_scheme_is(target, "https")
            && !sd_uri_scheme_is(target, "file")) {
            free(prefix);
            return sd_diag_error(diags, SD_EUSAGE, no_loc,
                                 "--map '%s': the target must be a path or an http, https "
                                 "or file URL", spec);
        }
        if ((err = sd_uri_normalize(&abs, target)) < 0)
            goto oom;
    } else if ((err = sd_uri_from_path(&abs, target)) < 0) {
        goto oom;
    }
    if (sd_uri_scheme_is(abs, "file")) {
        /* files under the target's directory are trusted */
        char *p = NULL, *slash;
        if ((err = sd_uri_to_path(&p, abs)) < 0) {
            free(prefix);
            free(abs);
            return sd_diag_error(diags, SD_EUSAGE, no_loc,
                                 "--map '%s': not a local file URL", spec);
        }
        slash = strrchr(p, '/');
        slash[1] = '\0';
        dir = p;
        if (sd_grow((void **)&s->trusted, &s->atrusted, s->ntrusted + 1,
                 sizeof *s->trusted) < 0)
            goto oom;
    }
    if (add_entry(s, prefix, target, abs, 1) < 0)
        goto oom;
    if (dir)
        s->trusted[s->ntrusted++] = dir;
    free(prefix);
    free(abs);
    return 0;
oom:
    free(prefix);
    free(abs);
    free(dir);
    return sd_diag_error(diags, SD_ENOMEM, no_loc, "out of memory");
}

static const map_entry *match(const sd_docset *s, const char *ref)
{
    const map_entry *best = NULL;
    size_t i, best_len = 0;

    for (i = 0; i < s->nmaps; i++) {
        const map_entry *m = &s->maps[i];
        size_t n = strlen(m->prefix);
        if (strncmp(ref, m->prefix, n) != 0)
            continue;
        if (!best || n > best_len || (n == best_len && m->user && !best->user)) {
            best = m;
            best_len = n;
        }
    }
    return best;
}

int sd_docset_map(char **out, const sd_docset *s, const char *ref)
{
    const map_entry *m = match(s, ref);
    sd_buf b = SD_BUF_INIT;
    const char *rest;
    int err;

    *out = NULL;
    if (!m)
        return 0;
    rest = ref + strlen(m->prefix);
    sd_buf_puts(&b, m->abs);
    if (b.len && b.ptr[b.len - 1] == '/' && rest[0] == '/')
        rest++;
    sd_buf_puts(&b, rest);
    if (sd_buf_failed(&b))
        return SD_ENOMEM;
    /* resolving an absolute URI against itself removes its dot segments */
    err = sd_uri_resolve(out, b.ptr, b.ptr);
    sd_buf_release(&b);
    return err;
}

/* ---- loading ------------------------------------------------------------ */

/* The name a document read from local `path` goes by in messages and
 * pages: the remote URL when the file mirrors one through a map
 * (--map https://host/=mirror/), else its display path. */
static char *doc_name(const sd_docset *s, const char *path)
{
    for (size_t i = 0; i < s->nmaps; i++) {
        const map_entry *m = &s->maps[i];
        char *dir = NULL;
        size_t n;
        if (!(sd_uri_scheme_is(m->prefix, "http") || sd_uri_scheme_is(m->prefix, "https")) ||
            !sd_uri_scheme_is(m->abs, "file") || sd_uri_to_path(&dir, m->abs) < 0)
            continue;
        n = strlen(dir);
        if (n && strncmp(path, dir, n) == 0 && (dir[n - 1] == '/' || path[n] == '/' || !path[n])) {
            sd_buf b = SD_BUF_INIT;
            const char *rest = path + n;
            sd_buf_puts(&b, m->prefix);
            if (b.len && b.ptr[b.len - 1] == '/' && rest[0] == '/')
                rest++;
            sd_buf_puts(&b, rest);
            free(dir);
            return sd_buf_detach(&b);
        }
        free(dir);
    }
    return NULL;
}

/* How to show a local path: inside the chart as "<chart as given>/rel",
 * under the current directory relative to it, elsewhere absolute. */
static char *display(const sd_docset *s, const char *path)
{
    sd_buf b = SD_BUF_INIT;

    if (s->chart_abs && under(path, s->chart_abs)) {
        size_t n = strlen(s->chart_abs);
        sd_buf_puts(&b, s->chart_disp);
        if (strlen(path) > n) {
            sd_buf_putc(&b, '/');
            sd_buf_puts(&b, path + n);
        }
    } else if (under(path, s->cwd) && strlen(path) > strlen(s->cwd)) {
        sd_buf_puts(&b, path + strlen(s->cwd));
    } else {
        sd_buf_puts(&b, path);
    }
    return sd_buf_detach(&b);
}

/* The gate every local file passes before it is opened. `path` is
 * absolute and lexically normalised. On success *real_out is the
 * symlink-free path to open (caller frees). */
static int gate_local(char **real_out, sd_buf *why, sd_docset *s, const char *path,
                      const char *disp)
{
    struct stat st;
    char *real;
    int exists, trusted = 0;
    size_t i;

    *real_out = NULL;
    for (i = 0; i < s->ntrusted; i++)
        trusted |= under(path, s->trusted[i]);
    if (s->chart_abs && !trusted && !under(path, s->chart_abs)) {
        sd_buf_printf(why, "'%s' is outside the chart directory '%s'", disp, s->chart_disp);
        return SD_EDENIED;
    }
    if (!(real = sd_file_real_of(path, &exists)))
        return SD_ENOMEM;
    if (s->chart_real && !trusted && !under(real, s->chart_real)) {
        sd_buf_printf(why, "'%s' leads outside the chart directory '%s' through a symbolic link",
                      disp, s->chart_disp);
        free(real);
        return SD_EDENIED;
    }
    /* stat() before open(): a FIFO would block open(), /dev/zero never ends */
    if (!exists || stat(real, &st) < 0) {
        sd_buf_printf(why, "cannot read '%s': %s", disp, exists ? strerror(errno) : "no such file");
        free(real);
        return SD_ENOTFOUND;
    }
    if (!S_ISREG(st.st_mode)) {
        sd_buf_printf(why, "cannot read '%s': not a regular file", disp);
        free(real);
        return SD_EIO;
    }
    if ((unsigned long long)st.st_size > (unsigned long long)s->limits.max_file) {
        sd_buf_printf(why, "cannot read '%s': the file is larger than the limit of %zu bytes",
                      disp, s->limits.max_file);
        free(real);
        return SD_ELIMIT;
    }
    *real_out = real;
    return 0;
}

/* JSON when the name says .json, or when a name without a YAML extension
 * holds text that starts like JSON; YAML otherwise. */
static enum sd_format guess_format(const char *name, const char *text, size_t len)
{
    char *base = NULL;
    size_t n, i;
    enum sd_format f = SD_FMT_YAML;

    if (sd_uri_split_fragment(&base, NULL, name) < 0)
        return SD_FMT_AUTO;
    if (strchr(base, '?'))
        *strchr(base, '?') = '\0';
    n = strlen(base);
    if (n >= 5 && strcmp(base + n - 5, ".json") == 0)
        f = SD_FMT_JSON;
    else if ((n >= 5 && strcmp(base + n - 5, ".yaml") == 0) || (n >= 4 && strcmp(base + n - 4, ".yml") == 0))
        f = SD_FMT_YAML;
    else {
        for (i = 0; i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'); i++)
            ;
        if (i < len && (text[i] == '{' || text[i] == '['))
            f = SD_FMT_JSON;
    }
    free(base);
    return f;
}

static int from_remote(const sd_docset *s, sd_loc from, const char **url)
{
    size_t i;
    for (i = 0; from.file && i < s->ndocs; i++)
        if (s->docs[i].remote && s->docs[i].doc && strcmp(s->docs[i].doc->file, from.file) == 0) {
            *url = s->docs[i].key;
            return 1;
        }
    return 0;
}

/* Read and parse one local file. On failure `why` says why, except when
 * the parser reported inside the document: then *parsed is 1 and `why`
 * names the document, for asking again. */
static int load_local(sd_doc **out, sd_buf *why, int *parsed, sd_docset *s, const char *key,
                      sd_loc from, sd_diags *diags)
{
    char *path = NULL, *disp = NULL, *real = NULL, *text = NULL;
    const char *url;
    sd_diags quiet = SD_DIAGS_INIT;
    size_t len;
    int err;

    if ((err = sd_uri_to_path(&path, key)) < 0) {
        if (err == SD_ENOMEM)
            return err;
        sd_buf_printf(why, "cannot read '%s': %s", key, err == SD_ESYNTAX
                      ? "the path contains a NUL byte" : "file URLs with a host are not supported");
        return SD_EDENIED;
    }
    /* "%2F..%2F" only becomes ".." once decoded: remove dot segments again */
    {
        char *uri = NULL, *again = NULL;
        if ((err = sd_uri_from_path(&uri, path)) == 0)
            err = sd_uri_to_path(&again, uri);
        free(uri);
        free(path);
        if (err < 0)
            return SD_ENOMEM;
        path = again;
    }
    if (!(disp = display(s, path))) {
        err = SD_ENOMEM;
        goto done;
    }
    if (from_remote(s, from, &url)) {
        sd_buf_printf(why, "cannot read '%s': a document fetched from '%s' may not refer to local files",
                      disp, url);
        err = SD_EDENIED;
        goto done;
    }
    if ((err = gate_local(&real, why, s, path, disp)) < 0)
        goto done;
    if ((err = sd_file_read(&text, &len, real, s->limits.max_file, 0, &quiet)) < 0) {
        sd_buf_printf(why, "cannot read '%s': %s", disp,
                      quiet.count ? quiet.items[0].message : "read failed");
        goto done;
    }
    {
        char *name = doc_name(s, path);
        err = sd_doc_load_mem(out, name ? name : disp, text, len, guess_format(disp, text, len),
                              &s->limits, diags);
        free(name);
    }
    if (err < 0) {
        *parsed = 1;
        sd_buf_printf(why, "'%s' could not be loaded", disp);
    }
done:
    sd_diags_release(&quiet);
    free(text);
    free(real);
    free(disp);
    free(path);
    return err;
}

static int load_remote(sd_doc **out, sd_buf *why, int *parsed, sd_docset *s, const char *key,
                       sd_loc from, sd_diags *diags)
{
    sd_buf body = SD_BUF_INIT, warn = SD_BUF_INIT;
    int err;

    err = sd_fetch_get(&body, s->fetch, key, why, &warn);
    if (warn.len)
        sd_diag_warning(diags, from, "%s", warn.ptr);
    if (err == 0 && (err = sd_doc_load_mem(out, key, body.ptr, body.len,
                                           guess_format(key, body.ptr, body.len),
                                           &s->limits, diags)) < 0) {
        *parsed = 1;
        sd_buf_printf(why, "'%s' could not be loaded", key);
    }
    sd_buf_release(&body);
    sd_buf_release(&warn);
    return err;
}

/* Report a failure at the referring $ref. */
static int report(sd_docset *s, int err, sd_loc from, const char *ref, const char *why,
                  sd_diags *diags)
{
    const map_entry *m = ref ? match(s, ref) : NULL;

    if (ref && m)
        return sd_diag_error(diags, err, from, "$ref '%s': %s (prefix '%s' maps to '%s')",
                             ref, why, m->prefix, m->target);
    if (ref)
        return sd_diag_error(diags, err, from, "$ref '%s': %s", ref, why);
    return sd_diag_error(diags, err, from, "%s", why);
}

static doc_entry *find(const sd_docset *s, const char *key)
{
    size_t i;
    for (i = 0; i < s->ndocs; i++)
        if (strcmp(s->docs[i].key, key) == 0)
            return &s->docs[i];
    return NULL;
}

static int key_of(char **out, const char *uri)
{
    char *base;
    int err;

    *out = NULL;
    if ((err = sd_uri_split_fragment(&base, NULL, uri)) < 0)
        return err;
    err = sd_uri_normalize(out, base);
    free(base);
    return err;
}

int sd_docset_get(sd_doc **out, sd_docset *s, const char *abs_uri, sd_loc from,
                  const char *ref_text, sd_diags *diags)
{
    sd_buf why = SD_BUF_INIT;
    doc_entry *e;
    char *key = NULL;
    sd_doc *doc = NULL;
    int err, remote = 0, parsed = 0;

    *out = NULL;
    /* a remote URI under a mapped prefix (e.g. a relative $ref resolved
     * against a remote $id) is read from the map's target, as a loader
     * that knows the prefixes does (schema-dependencies HIP) */
    if (sd_uri_scheme_is(abs_uri, "http") || sd_uri_scheme_is(abs_uri, "https")) {
        char *mapped = NULL;
        if ((err = sd_docset_map(&mapped, s, abs_uri)) < 0)
            return sd_diag_error(diags, err, from, "out of memory");
        if (mapped && strcmp(mapped, abs_uri) != 0 &&
            !sd_uri_scheme_is(mapped, "http") && !sd_uri_scheme_is(mapped, "https")) {
            err = sd_docset_get(out, s, mapped, from, ref_text, diags);
            free(mapped);
            return err;
        }
        free(mapped);
    }
    if ((err = key_of(&key, abs_uri)) < 0)
        return sd_diag_error(diags, err, from, "out of memory");
    if ((e = find(s, key))) {
        free(key);
        if (e->doc) {
            *out = e->doc;
            return 0;
        }
        return report(s, e->err, from, ref_text, e->why, diags);
    }
    if (sd_uri_scheme_is(key, "file")) {
        err = load_local(&doc, &why, &parsed, s, key, from, diags);
    } else if (sd_uri_scheme_is(key, "http") || sd_uri_scheme_is(key, "https")) {
        remote = 1;
        err = load_remote(&doc, &why, &parsed, s, key, from, diags);
    } else {
        sd_buf_printf(&why, "cannot load '%s': no document has this URI, and only file, "
                      "http and https URIs are loaded", key);
        err = SD_EREF;
    }
    if (err < 0 && parsed) {
        /* the parser reported inside the document; point back at the $ref */
        if (ref_text)
            sd_diag_add(diags, SD_SEV_NOTE, 0, from, NULL, NULL,
                        "in the document loaded for $ref '%s'", ref_text);
        else
            sd_diag_add(diags, SD_SEV_NOTE, 0, from, NULL, NULL, "in the document loaded here");
    } else if (err < 0) {
        if (why.len == 0)
            sd_buf_puts(&why, "out of memory");
        report(s, err, from, ref_text, why.ptr, diags);
    }
    if (sd_grow((void **)&s->docs, &s->adocs, s->ndocs + 1, sizeof *s->docs) < 0) {
        sd_doc_free(doc);
        free(key);
        sd_buf_release(&why);
        return sd_diag_error(diags, SD_ENOMEM, from, "out of memory");
    }
    e = &s->docs[s->ndocs++];
    e->key = key;
    e->doc = err < 0 ? NULL : doc;
    e->err = err;
    e->why = err < 0 ? sd_buf_detach(&why) : NULL;
    e->remote = remote;
    sd_buf_release(&why);
    *out = e->doc;
    return err;
}

int sd_docset_load_cb(void *set, const char *abs_uri, sd_loc from, const char *ref_text,
                      sd_doc **out, sd_diags *diags)
{
    return sd_docset_get(out, set, abs_uri, from, ref_text, diags);
}

int sd_docset_adopt(sd_docset *s, const char *abs_uri, sd_doc *doc)
{
    char *key;
    doc_entry *e;
    int err;

    if ((err = key_of(&key, abs_uri)) < 0)
        return err;
    if (find(s, key)) {
        free(key);
        return SD_EDUP;
    }
    if (sd_grow((void **)&s->docs, &s->adocs, s->ndocs + 1, sizeof *s->docs) < 0) {
        free(key);
        return SD_ENOMEM;
    }
    e = &s->docs[s->ndocs++];
    memset(e, 0, sizeof *e);
    e->key = key;
    e->doc = doc;
    e->remote = sd_uri_scheme_is(key, "http") || sd_uri_scheme_is(key, "https");
    return 0;
}
