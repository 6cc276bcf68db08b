/* bncheck.c - readme-generator's metadata check (see bncheck.h): values
 * without a `@param`, `@param`s without a value. In: a values document and
 * its Bitnami annotations. Out: errors (or warnings) at the value's key or
 * the comment's line. */
#include "bncheck.h"
#include "buf.h"
#include "val.h"

#include <stdlib.h>
#include <string.h>

typedef struct leaf { char *path; sd_loc loc; } leaf;
typedef struct leaves { leaf *v; size_t n, cap; int oom; sd_buf path; } leaves;

static void add_leaf(leaves *l, const sd_loc *loc)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        leaf *v = realloc(l->v, cap * sizeof *v);
        if (!v) {
            l->oom = 1;
            return;
        }
        l->v = v;
        l->cap = cap;
    }
    if (!(l->v[l->n].path = strdup(l->path.ptr))) {
        l->oom = 1;
        return;
    }
    l->v[l->n++].loc = *loc;
}

static int strings_only(const sd_node *n)
{
    for (size_t i = 0; i < n->n; i++)
        if (n->items[i].value->kind != SD_STR)
            return 0;
    return 1;
}

/* dot-object's paths: `a.b` (a key's dots kept as they are), `a[0]`; an
 * empty map or list and a list of strings only are one value. `at` is
 * where the value's key is written. */
static void flatten(leaves *l, const sd_node *n, sd_loc at, int depth)
{
    size_t mark = l->path.len;

    if (depth > 200 || l->oom)
        return;
    if ((n->kind != SD_MAP && n->kind != SD_SEQ) || !n->n ||
        (n->kind == SD_SEQ && strings_only(n) && l->path.len)) {
        if (l->path.len)
            add_leaf(l, &at);
        return;
    }
    for (size_t i = 0; i < n->n; i++) {
        const sd_pair *p = &n->items[i];
        if (n->kind == SD_MAP)
            sd_buf_printf(&l->path, "%s%s", l->path.len ? "." : "", p->key->str);
        else
            sd_buf_printf(&l->path, "[%zu]", i);
        flatten(l, p->value, p->key ? p->key->loc : p->value->loc, depth + 1);
        sd_buf_truncate(&l->path, mark);
    }
}

/* The paths checked neither way: @skip paths, and @params with modifiers
 * (their children are theirs). */
static int skipped(const sd_annots *a, const char *path, int prefix)
{
    for (size_t i = 0; i < a->nskips; i++)
        if (prefix ? !strncmp(path, a->skips[i], strlen(a->skips[i])) : !strcmp(path, a->skips[i]))
            return 1;
    for (size_t i = 0; i < a->n; i++) {
        const sd_annot *r = &a->items[i];
        if (r->path && r->modifiers && !r->extra &&
            (prefix ? !strncmp(path, r->path, strlen(r->path)) : !strcmp(path, r->path)))
            return 1;
    }
    return 0;
}

int sd_bncheck(const sd_doc *values, const sd_annots *a, int lenient, sd_diags *diags)
{
    leaves l = { NULL, 0, 0, 0, SD_BUF_INIT };
    sd_val *known = sd_val_object(), *params = sd_val_object();
    const sd_node *root = values ? sd_doc_root(values) : NULL;
    int sev = lenient ? SD_SEV_WARNING : SD_SEV_ERROR, errors = 0;

    if (!known || !params) {
        sd_val_decref(known);
        sd_val_decref(params);
        return SD_ENOMEM;
    }
    if (root && root->kind == SD_MAP)
        flatten(&l, root, root->loc, 0);
    for (size_t i = 0; i < l.n; i++)
        sd_val_object_set_new(known, l.v[i].path, sd_val_true());
    for (size_t i = 0; i < a->n; i++) {
        const sd_annot *r = &a->items[i];
        if (!r->path || r->extra || r->skip)
            continue;
        sd_val_object_set_new(params, r->path, sd_val_true());
        if (!r->modifiers && !skipped(a, r->path, 0) && !sd_val_object_get(known, r->path)) {
            sd_diag_add(diags, sev, SD_EINVALID, r->loc, NULL, NULL,
                        "metadata provided for non-existing key: %s (readme-generator refuses it; "
                        "--lenient writes the README all the same)", r->path);
            errors++;
        }
    }
    for (size_t i = 0; i < l.n; i++) {
        if (skipped(a, l.v[i].path, 1) || sd_val_object_get(params, l.v[i].path))
            continue;
        sd_diag_add(diags, sev, SD_EINVALID, l.v[i].loc, NULL, NULL,
                    "missing metadata for key: %s (add '## @param %s ...' or '## @skip %s'; "
                    "--lenient writes the README all the same)", l.v[i].path, l.v[i].path, l.v[i].path);
        errors++;
    }
    for (size_t i = 0; i < l.n; i++)
        free(l.v[i].path);
    free(l.v);
    sd_buf_release(&l.path);
    sd_val_decref(known);
    sd_val_decref(params);
    if (l.oom)
        return SD_ENOMEM;
    return lenient ? 0 : errors;
}
