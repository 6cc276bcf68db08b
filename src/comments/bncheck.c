/* SPDX-License-Identifier: Apache-2.0 */
/* bncheck.c - readme-generator's metadata check (see bncheck.h): values
 * without a `@param`, `@param`s without a value. In: a values document and
 * its Bitnami annotations. Out: errors (or warnings) at the value's key or
 * the comment's line, at most MAX_MESSAGES of each kind and one line that
 * counts the rest.
 *
 * No path is stored: the walk keeps the one path it is at in one buffer,
 * with its hash extended byte by byte, and looks the `@param` and `@skip`
 * paths up by hash (a values file of one long key above many short ones
 * made a string per leaf, each as long as the key: gigabytes). */
#include "bncheck.h"
#include "buf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_MESSAGES 20   /* of each kind; the rest are counted in one message */
#define SHOW_PATH 200     /* a longer path is shown as its two ends */

#define FNV_START 14695981039346656037ull
#define FNV_STEP(h, c) (((h) ^ (unsigned char)(c)) * 1099511628211ull)

static uint64_t fnv(const char *s, size_t n)
{
    uint64_t h = FNV_START;
    for (size_t i = 0; i < n; i++)
        h = FNV_STEP(h, s[i]);
    return h;
}

/* A set of strings (borrowed) found by hash; `i` is the caller's index. */
typedef struct pslot { uint64_t h; const char *s; size_t len, i; } pslot;
typedef struct pset { pslot *v; size_t cap, n; } pset;

static int pset_add(pset *p, const char *s, size_t i)
{
    if (2 * (p->n + 1) > p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 64;
        pslot *v = calloc(cap, sizeof *v);
        if (!v)
            return -1;
        for (size_t k = 0; k < p->cap; k++)
            if (p->v[k].s) {
                size_t j = (size_t)p->v[k].h & (cap - 1);
                while (v[j].s)
                    j = (j + 1) & (cap - 1);
                v[j] = p->v[k];
            }
        free(p->v);
        p->v = v;
        p->cap = cap;
    }
    size_t len = strlen(s), j = (size_t)fnv(s, len) & (p->cap - 1);
    while (p->v[j].s)
        j = (j + 1) & (p->cap - 1);
    p->v[j] = (pslot){ fnv(s, len), s, len, i };
    p->n++;
    return 0;
}

/* The slots holding the text s[0, n) (hash h): call with *k = (size_t)-1
 * first; returns the next one, or NULL. */
static const pslot *pset_next(const pset *p, uint64_t h, const char *s, size_t n, size_t *k)
{
    if (!p->cap)
        return NULL;
    size_t j = *k == (size_t)-1 ? (size_t)h & (p->cap - 1) : (*k + 1) & (p->cap - 1);
    for (; p->v[j].s; j = (j + 1) & (p->cap - 1))
        if (p->v[j].h == h && p->v[j].len == n && !memcmp(p->v[j].s, s, n)) {
            *k = j;
            return &p->v[j];
        }
    return NULL;
}

typedef struct walk {
    const sd_annots *a;
    sd_buf   path;       /* where the walk is: the only copy of any path */
    pset     params;     /* @param paths (not @extra, not @skip): i = annotation index */
    pset     prefixes;   /* @skip paths and @params with modifiers: a leaf under one is theirs */
    unsigned char *lens; /* lens[n]: a prefix is n bytes long */
    size_t   maxlen;
    unsigned char *found;/* found[i]: annotation i names a value */
    int      report;     /* second walk: report the values without metadata */
    int      sev, oom;
    size_t   errors, shown;
    sd_loc   first_hidden;
    sd_diags *diags;
} walk;

static int strings_only(const sd_node *n)
{
    for (size_t i = 0; i < n->n; i++)
        if (n->items[i].value->kind != SD_STR)
            return 0;
    return 1;
}

/* `path` as a message shows it: whole, or its two ends past SHOW_PATH
 * bytes (cut between UTF-8 characters). */
static void show(sd_buf *out, const char *s, size_t n)
{
    if (n <= SHOW_PATH) {
        sd_buf_put(out, s, n);
        return;
    }
    size_t head = SHOW_PATH / 2, tail = n - SHOW_PATH / 2;
    while (head > 0 && ((unsigned char)s[head] & 0xC0) == 0x80)
        head--;
    while (tail < n && ((unsigned char)s[tail] & 0xC0) == 0x80)
        tail++;
    sd_buf_put(out, s, head);
    sd_buf_printf(out, "...(%zu bytes)...", tail - head);
    sd_buf_put(out, s + tail, n - tail);
}

static void leaf(walk *w, sd_loc at, uint64_t h, int under)
{
    size_t k = (size_t)-1;
    const pslot *p;
    int has = 0;

    while ((p = pset_next(&w->params, h, w->path.ptr, w->path.len, &k))) {
        w->found[p->i] = 1;
        has = 1;
    }
    if (!w->report || has || under)
        return;
    if (w->errors++ == MAX_MESSAGES) {
        w->first_hidden = at;
        return;
    }
    if (w->errors > MAX_MESSAGES)
        return;
    sd_buf p1 = SD_BUF_INIT;
    show(&p1, w->path.ptr, w->path.len);
    if (sd_buf_failed(&p1))
        w->oom = 1;
    else
        sd_diag_add(w->diags, w->sev, SD_EINVALID, at, NULL, NULL,
                    "missing metadata for key: %s (add '## @param %s ...' or '## @skip %s'; "
                    "--lenient writes the README all the same)", p1.ptr, p1.ptr, p1.ptr);
    sd_buf_release(&p1);
}

/* Append `s` to the path, extending the hash `*h`; whether a prefix path
 * ends inside it (the value is under a @skip or a @param with modifiers). */
static int append(walk *w, const char *s, size_t n, uint64_t *h)
{
    int under = 0;
    for (size_t i = 0; i < n; i++) {
        *h = FNV_STEP(*h, s[i]);
        sd_buf_putc(&w->path, s[i]);
        size_t L = w->path.len;
        if (!under && L <= w->maxlen && w->lens[L]) {
            size_t k = (size_t)-1;
            under = pset_next(&w->prefixes, *h, w->path.ptr, L, &k) != NULL;
        }
    }
    return under;
}

/* dot-object's paths: `a.b` (a key's dots kept as they are), `a[0]`; an
 * empty map or list and a list of strings only are one value. `at` is
 * where the value's key is written; `h` the hash of the path so far;
 * `under` whether a prefix path holds it. */
static void flatten(walk *w, const sd_node *n, sd_loc at, uint64_t h, int under, int depth)
{
    size_t mark = w->path.len;

    if (depth > 200 || w->oom)
        return;
    if ((n->kind != SD_MAP && n->kind != SD_SEQ) || !n->n ||
        (n->kind == SD_SEQ && strings_only(n) && w->path.len)) {
        if (w->path.len)
            leaf(w, at, h, under);
        return;
    }
    for (size_t i = 0; i < n->n && !w->oom; i++) {
        const sd_pair *p = &n->items[i];
        uint64_t hc = h;
        int u = under;
        char idx[32];
        if (n->kind == SD_MAP) {
            if (w->path.len)
                u |= append(w, ".", 1, &hc);
            u |= append(w, p->key->str, strlen(p->key->str), &hc);
        } else {
            int k = snprintf(idx, sizeof idx, "[%zu]", i);
            u |= append(w, idx, (size_t)k, &hc);
        }
        if (sd_buf_failed(&w->path))
            w->oom = 1;
        else
            flatten(w, p->value, p->key ? p->key->loc : p->value->loc, hc, u, depth + 1);
        sd_buf_truncate(&w->path, mark);
    }
}

static int add_prefix(walk *w, const char *s)
{
    w->lens[strlen(s)] = 1;
    return pset_add(&w->prefixes, s, 0);
}

/* One message for the `n` past MAX_MESSAGES of a kind. */
static void more(walk *w, size_t n, sd_loc at, const char *what)
{
    if (n > MAX_MESSAGES)
        sd_diag_add(w->diags, w->sev, SD_EINVALID, at, NULL, NULL,
                    "%zu more %s left out (the first %d are listed)", n - MAX_MESSAGES, what,
                    MAX_MESSAGES);
}

int sd_bncheck(const sd_doc *values, const sd_annots *a, int lenient, sd_diags *diags)
{
    walk w;
    const sd_node *root = values ? sd_doc_root(values) : NULL;
    size_t errors = 0;

    memset(&w, 0, sizeof w);
    w.a = a;
    w.path = (sd_buf)SD_BUF_INIT;
    w.sev = lenient ? SD_SEV_WARNING : SD_SEV_ERROR;
    w.diags = diags;
    if (!(w.found = calloc(a->n ? a->n : 1, 1)))
        return SD_ENOMEM;
    for (size_t i = 0; i < a->nskips; i++)
        if (strlen(a->skips[i]) > w.maxlen)
            w.maxlen = strlen(a->skips[i]);
    for (size_t i = 0; i < a->n; i++)
        if (a->items[i].path && a->items[i].modifiers && !a->items[i].extra &&
            strlen(a->items[i].path) > w.maxlen)
            w.maxlen = strlen(a->items[i].path);
    if (!(w.lens = calloc(w.maxlen + 1, 1))) {
        free(w.found);
        return SD_ENOMEM;
    }
    for (size_t i = 0; i < a->nskips && !w.oom; i++)
        w.oom = add_prefix(&w, a->skips[i]) < 0;
    for (size_t i = 0; i < a->n && !w.oom; i++) {
        const sd_annot *r = &a->items[i];
        if (r->path && r->modifiers && !r->extra)
            w.oom = add_prefix(&w, r->path) < 0;
        if (!w.oom && r->path && !r->extra && !r->skip)
            w.oom = pset_add(&w.params, r->path, i) < 0;
    }
    /* a prefix of no bytes holds everything */
    int all = !w.oom && w.lens[0];
    /* first walk: which @params name a value */
    if (!w.oom && root && root->kind == SD_MAP)
        flatten(&w, root, root->loc, FNV_START, all, 0);
    sd_loc hidden = { NULL, 0, 0 };
    for (size_t i = 0; i < a->n && !w.oom; i++) {
        const sd_annot *r = &a->items[i];
        size_t k = (size_t)-1, n;
        if (!r->path || r->extra || r->skip || r->modifiers || w.found[i])
            continue;
        n = strlen(r->path);
        if (pset_next(&w.prefixes, fnv(r->path, n), r->path, n, &k))
            continue;   /* skipped by name */
        if (errors++ == MAX_MESSAGES)
            hidden = r->loc;
        if (errors > MAX_MESSAGES)
            continue;
        sd_buf p1 = SD_BUF_INIT;
        show(&p1, r->path, n);
        if (sd_buf_failed(&p1))
            w.oom = 1;
        else
            sd_diag_add(diags, w.sev, SD_EINVALID, r->loc, NULL, NULL,
                        "metadata provided for non-existing key: %s (readme-generator refuses it; "
                        "--lenient writes the README all the same)", p1.ptr);
        sd_buf_release(&p1);
    }
    if (!w.oom)
        more(&w, errors, hidden, "@params naming no key");
    /* second walk: the values without metadata */
    w.report = 1;
    if (!w.oom && root && root->kind == SD_MAP)
        flatten(&w, root, root->loc, FNV_START, all, 0);
    if (!w.oom)
        more(&w, w.errors, w.first_hidden, "keys without metadata");
    errors += w.errors;
    free(w.found);
    free(w.lens);
    free(w.params.v);
    free(w.prefixes.v);
    sd_buf_release(&w.path);
    if (w.oom)
        return SD_ENOMEM;
    return lenient ? 0 : errors > 0x7fffffff ? 0x7fffffff : (int)errors;
}
