/* SPDX-License-Identifier: Apache-2.0 */
/* mustache_partials.c - the partials registry: names -> compiled templates.
 *
 * In: partial names from templates (static, or from the data through
 * dynamic names), directories, templates registered from memory. Out:
 * compiled templates, each compiled once and owned by the registry until
 * sd_mustache_partials_free(). Names never leave the search path: they are
 * checked as text first, then the file found must resolve (realpath) inside
 * its directory. */
#include "mustache.h"
#include "alloc.h"
#include "file.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct pentry {
    char *name;
    sd_mustache *t;         /* NULL: looked for and not found */
    int preloaded;
} pentry;

struct sd_mustache_partials {
    unsigned flags;
    sd_mustache_escape_fn escape;   /* {{x}}'s escaping; NULL: HTML */
    char **dirs;
    size_t ndirs;
    pentry *tab;            /* open addressing, power-of-two size */
    size_t cap, count;
};

static uint32_t hash_name(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static pentry *find_entry(const sd_mustache_partials *p, const char *name)
{
    size_t i;
    if (!p->cap)
        return NULL;
    for (i = hash_name(name) & (p->cap - 1); p->tab[i].name; i = (i + 1) & (p->cap - 1))
        if (strcmp(p->tab[i].name, name) == 0)
            return &p->tab[i];
    return NULL;
}

static int insert_entry(sd_mustache_partials *p, const char *name, sd_mustache *t, pentry **out)
{
    pentry *e = find_entry(p, name);
    size_t i;

    if (e) {
        sd_mustache_free(e->t);
        e->t = t;
        e->preloaded = 0;
        *out = e;
        return 0;
    }
    if ((p->count + 1) * 2 > p->cap) {
        size_t ncap = p->cap ? p->cap * 2 : 16, k;
        pentry *nt = calloc(ncap, sizeof *nt);
        if (!nt)
            return SD_ENOMEM;
        for (k = 0; k < p->cap; k++) {
            if (!p->tab[k].name)
                continue;
            for (i = hash_name(p->tab[k].name) & (ncap - 1); nt[i].name; i = (i + 1) & (ncap - 1))
                ;
            nt[i] = p->tab[k];
        }
        free(p->tab);
        p->tab = nt;
        p->cap = ncap;
    }
    for (i = hash_name(name) & (p->cap - 1); p->tab[i].name; i = (i + 1) & (p->cap - 1))
        ;
    if (!(p->tab[i].name = strdup(name)))
        return SD_ENOMEM;
    p->tab[i].t = t;
    p->tab[i].preloaded = 0;
    p->count++;
    *out = &p->tab[i];
    return 0;
}

int sd_mustache_partials_new(sd_mustache_partials **out, unsigned flags)
{
    if (!(*out = calloc(1, sizeof **out))) {
        sd_alloc_note_failure();
        return SD_ENOMEM;
    }
    (*out)->flags = flags;
    return 0;
}

void sd_mustache_partials_set_escape(sd_mustache_partials *p, sd_mustache_escape_fn esc)
{
    p->escape = esc;
}

sd_mustache_escape_fn sd_mustache_partials_escape(const sd_mustache_partials *p)
{
    return p ? p->escape : NULL;
}

void sd_mustache_partials_free(sd_mustache_partials *p)
{
    size_t i;
    if (!p)
        return;
    for (i = 0; i < p->cap; i++) {
        free(p->tab[i].name);
        sd_mustache_free(p->tab[i].t);
    }
    for (i = 0; i < p->ndirs; i++)
        free(p->dirs[i]);
    free(p->tab);
    free(p->dirs);
    free(p);
}

int sd_mustache_partials_add_dir(sd_mustache_partials *p, const char *dir)
{
    char **d = realloc(p->dirs, (p->ndirs + 1) * sizeof *d);
    if (!d)
        return sd_alloc_note_failure(), SD_ENOMEM;
    p->dirs = d;
    if (!(d[p->ndirs] = strdup(dir)))
        return sd_alloc_note_failure(), SD_ENOMEM;
    p->ndirs++;
    return 0;
}

int sd_mustache_partials_add(sd_mustache_partials *p, const char *name,
                             const char *text, size_t len, sd_diags *diags)
{
    sd_mustache *t;
    pentry *e;
    int err;

    if ((err = sd_mustache_compile(&t, name, text, len, diags)) < 0)
        return err;
    if ((err = insert_entry(p, name, t, &e)) < 0)
        sd_mustache_free(t);
    return err;
}

/* Partial names stay inside the search path: relative, no "." or ".."
 * segments, no empty segments, no backslashes or control characters. */
static int name_allowed(const char *name)
{
    const char *s = name;
    if (!*s || *s == '/')
        return 0;
    for (; *s; s++)
        if (*s == '\\' || (unsigned char)*s < 0x20)
            return 0;
    for (s = name; *s; ) {
        size_t n = strcspn(s, "/");
        if (n == 0 || (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
            return 0;
        s += n;
        if (*s == '/')
            s++;
        if (!*s && s[-1] == '/')
            return 0;
    }
    return 1;
}

/* Is `path` inside `dir` once symbolic links are resolved? */
static int confined(const char *dir, const char *path)
{
    char *rd = realpath(dir, NULL), *rp = realpath(path, NULL);
    int ok = 0;
    if (rd && rp) {
        size_t n = strlen(rd);
        ok = strncmp(rp, rd, n) == 0 && (rp[n] == '/' || (n == 1 && rd[0] == '/'));
    }
    free(rd);
    free(rp);
    return ok;
}

static int load_from_dirs(sd_mustache_partials *p, const char *name, sd_loc loc,
                          sd_mustache **out, sd_diags *diags)
{
    sd_buf path = SD_BUF_INIT, text = SD_BUF_INIT;
    size_t i;
    int err = 0;

    *out = NULL;
    for (i = 0; i < p->ndirs; i++) {
        sd_buf_clear(&path);
        sd_buf_clear(&text);
        if (strcmp(p->dirs[i], ".") == 0)
            sd_buf_printf(&path, "%s.mustache", name);   /* nicer in messages */
        else
            sd_buf_printf(&path, "%s/%s.mustache", p->dirs[i], name);
        if (sd_buf_failed(&path)) {
            err = SD_ENOMEM;
            break;
        }
        if (!sd_file_present(path.ptr))
            continue;
        if (!confined(p->dirs[i], path.ptr)) {
            err = sd_diag_error(diags, SD_EDENIED, loc,
                                "partial '%s' resolves outside '%s'", name, p->dirs[i]);
            break;
        }
        {
            /* file.h: a FIFO or a link loop is an error, never "no partial" */
            sd_diags quiet = SD_DIAGS_INIT;
            if ((err = sd_file_read_buf(&text, path.ptr, SD_FILE_MAX, 0, &quiet)) < 0) {
                err = sd_diag_error(diags, err, loc, "cannot read partial '%s': %s", path.ptr,
                                    quiet.count ? quiet.items[0].message : "out of memory");
                sd_diags_release(&quiet);
                break;
            }
            sd_diags_release(&quiet);
        }
        err = sd_mustache_compile(out, path.ptr, text.ptr, text.len, diags);
        break;
    }
    sd_buf_release(&path);
    sd_buf_release(&text);
    return err;
}

int sd_mustache_partials_get(const sd_mustache **out, sd_mustache_partials *p,
                             const char *name, sd_loc loc, sd_diags *diags)
{
    pentry *e = find_entry(p, name);
    sd_mustache *t = NULL;
    int err, first = !e;

    *out = NULL;
    if (!e) {
        if (!name_allowed(name))
            return sd_diag_error(diags, SD_EDENIED, loc,
                                 "partial name '%s' is not allowed: it must be a relative "
                                 "path without '.' or '..' parts", name);
        if ((err = load_from_dirs(p, name, loc, &t, diags)) < 0)
            return err;
        if ((err = insert_entry(p, name, t, &e)) < 0) {
            sd_mustache_free(t);
            return sd_diag_error(diags, err, loc, "out of memory");
        }
    }
    if (!e->t && (p->flags & SD_MUSTACHE_STRICT)) {
        sd_buf where = SD_BUF_INIT;
        size_t i;
        for (i = 0; i < p->ndirs; i++)
            sd_buf_printf(&where, "%s'%s'", i ? ", " : "", p->dirs[i]);
        if (p->ndirs)
            err = sd_diag_error(diags, SD_ENOTFOUND, loc, "unknown partial '%s' (no %s.mustache in %s)",
                                name, name, where.ptr);
        else
            err = sd_diag_error(diags, SD_ENOTFOUND, loc, "unknown partial '%s'", name);
        sd_buf_release(&where);
        return err;
    }
    if (!e->t && first && (p->flags & SD_MUSTACHE_WARN))
        sd_diag_warning(diags, loc, "unknown partial '%s' renders as nothing (the spec's failed lookup; "
                        "--strict makes it an error)", name);
    *out = e->t;
    return 0;
}

/* Load each partial a template names, then theirs (once each). */
typedef struct preload {
    sd_mustache_partials *p;
    sd_diags *diags;
    int depth;
} preload;

static int preload_one(const char *name, sd_loc loc, void *payload)
{
    preload *pl = payload;
    const sd_mustache *pt;
    pentry *e;
    int err;

    if ((err = sd_mustache_partials_get(&pt, pl->p, name, loc, pl->diags)) < 0)
        return err;
    e = find_entry(pl->p, name);
    if (!pt || !e || e->preloaded)
        return 0;
    e->preloaded = 1;
    if (pl->depth >= SD_MUSTACHE_MAX_DEPTH)
        return sd_diag_error(pl->diags, SD_ELIMIT, loc, "partials nested deeper than %d",
                             SD_MUSTACHE_MAX_DEPTH);
    pl->depth++;
    err = sd_mustache__each_partial(pt, preload_one, pl);
    pl->depth--;
    return err;
}

int sd_mustache_partials_preload(sd_mustache_partials *p, const sd_mustache *t,
                                 sd_diags *diags)
{
    preload pl = { p, diags, 0 };
    return sd_mustache__each_partial(t, preload_one, &pl);
}
