/* SPDX-License-Identifier: Apache-2.0 */
/* upgrade.c - the upgrade check: what happens to a user's values files
 * when they move from OLD to NEW. In: the diff of OLD and NEW, both models,
 * NEW's source and the values files. Out: one list of findings
 * (docs/diff.md): keys the user sets that NEW no longer has (with the new
 * name when the key was renamed), keys NEW requires that the user does not
 * set, values NEW's schema refuses (the source stage's check, check.h),
 * values of a type NEW changed away from (when no schema said so), and
 * defaults that changed under keys the user leaves alone. */
#include "diff.h"
#include "annot.h"
#include "check.h"
#include "node.h"
#include "sd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the user's values files set, by dotted key path. */
typedef struct user {
    sd_val *set;     /* path of each value set (not a map with keys) -> "file:line:col" of its key */
    sd_val *inner;   /* path of each map with keys -> "file:line:col" of its key */
    sd_val *types;   /* path of each value set -> its type word */
} user;

/* Record `n` (the value at `path`, whose key is written at `kl`) and what
 * is below it; later files win. */
static void user_paths(user *u, const sd_node *n, sd_loc kl, sd_buf *path, int depth)
{
    size_t len = path->len;
    char at[512];

    if (!n || depth > 200)
        return;
    snprintf(at, sizeof at, "%s:%d:%d", kl.file ? kl.file : "", kl.line, kl.column);
    if (n->kind != SD_MAP || n->n == 0) {
        if (n->kind == SD_NULL || !path->len)
            return;   /* null deletes the key: nothing set */
        sd_val_object_set_new(u->set, path->ptr, sd_val_string(at));
        sd_val_object_set_new(u->types, path->ptr, sd_val_string(sd_node_type_word(n)));
        return;
    }
    if (path->len)
        sd_val_object_set_new(u->inner, path->ptr, sd_val_string(at));
    for (size_t i = 0; i < n->n; i++) {
        const sd_pair *p = &n->items[i];
        if (!p->key || !p->key->str)
            continue;
        sd_annot_path_push(path, p->key->str, p->key->len);
        user_paths(u, p->value, p->key->loc, path, depth + 1);
        sd_buf_truncate(path, len);
    }
}

/* path -> node of a model tree (properties only) */
static void model_paths(sd_val *out, sd_val *n, int depth)
{
    size_t i;
    sd_val *c;
    const char *p = sd_val_string_value(sd_val_object_get(n, "path"));
    if (!sd_val_is_object(n) || depth > 200)
        return;
    if (p && *p)
        sd_val_object_set(out, p, n);
    sd_val_array_foreach(sd_val_object_get(n, "properties"), i, c)
        model_paths(out, c, depth + 1);
}

/* The parent path of `p` ("a.b" -> "a", "a" -> ""); quoted keys respected. */
static size_t parent_len(const char *p)
{
    size_t n = strlen(p), last = 0;
    int q = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '"')
            q = !q;
        else if (p[i] == '.' && !q)
            last = i;
    }
    return last;
}

/* Is `p` or one of its ancestors or descendants set by the user? */
static int touched(const user *u, const char *p)
{
    char *s;
    size_t n;
    if (sd_val_object_get(u->set, p) || sd_val_object_get(u->inner, p))
        return 1;
    if (!(s = strdup(p)))
        return 0;
    while ((n = parent_len(s)) > 0) {
        s[n] = '\0';
        if (sd_val_object_get(u->set, s)) {
            free(s);
            return 1;
        }
    }
    free(s);
    return 0;
}

/* Does NEW accept any key under `p`: the nearest ancestor NEW has is a map
 * without listed keys, or with additionalProperties / patternProperties. */
static int free_form(const sd_val *paths, const char *p)
{
    char *s = strdup(p);
    size_t n;
    int r = 0;
    if (!s)
        return 0;
    while ((n = parent_len(s)) > 0) {
        s[n] = '\0';
        sd_val *node = sd_val_object_get(paths, s);
        if (node) {
            sd_val *ap = sd_val_object_get(sd_val_object_get(node, "constraints"), "additionalProperties");
            r = !sd_val_array_size(sd_val_object_get(node, "properties")) ||
                (sd_val_object_get(node, "additionalProperties") && !sd_val_is_false(ap)) ||
                sd_val_object_get(node, "patternProperties");
            free(s);
            return r;
        }
    }
    free(s);
    return 0;
}

/* Is there an "invalid" finding at `path` in `list`? */
static int invalid_at(const sd_val *list, const char *path)
{
    size_t i;
    sd_val *f;
    sd_val_array_foreach(list, i, f)
        if (!strcmp(sd_val_string_value(sd_val_object_get(f, "finding")), "invalid") &&
            !strcmp(sd_val_string_value(sd_val_object_get(f, "path")), path))
            return 1;
    return 0;
}

static sd_val *finding(sd_val *list, const char *path, const char *kind, const char *at)
{
    sd_val *o = sd_val_object();
    sd_val_object_set_new_nocheck(o, "path", sd_val_string(path));
    sd_val_object_set_new_nocheck(o, "finding", sd_val_string(kind));
    if (at)
        sd_val_object_set_new_nocheck(o, "at", sd_val_string(at));
    sd_val_array_append_new(list, o);
    return o;
}

static void message(sd_val *o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void message(sd_val *o, const char *fmt, ...)
{
    sd_buf b = SD_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    sd_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    sd_val_object_set_new_nocheck(o, "message", sd_val_string(b.ptr ? b.ptr : ""));
    sd_buf_release(&b);
}

static char *vtext(const sd_val *v)
{
    sd_buf b = SD_BUF_INIT;
    sd_diff_value_text(&b, v);
    if (!b.ptr)
        sd_buf_puts(&b, "");
    return sd_buf_detach(&b);
}

/* A default that sets nothing: null, "", {}, [], or a map of such
 * (`{limits: {}, requests: {}}`): trading one for another changes nothing. */
static int vacuous(const sd_val *v, int depth)
{
    const char *k;
    sd_val *x;
    if (!v || sd_val_is_null(v) || depth > 50)
        return 1;
    if (sd_val_is_string(v))
        return !*sd_val_string_value(v);
    if (sd_val_is_array(v))
        return sd_val_array_size(v) == 0;
    if (!sd_val_is_object(v))
        return 0;
    sd_val_object_foreach((sd_val *)v, k, x)
        if (!vacuous(x, depth + 1))
            return 0;
    (void)k;
    return 1;
}

/* The run: what is known, and the findings so far. */
typedef struct up {
    const sd_val *diff;
    user          u;
    sd_val       *oldp, *newp;              /* path -> model node */
    sd_val       *renamed, *renamed_back;   /* old path -> new path, and back */
    sd_val       *similar;                  /* removed old path -> a NEW key with a similar name */
    sd_val       *deps;                     /* NEW's dependencies (name or alias) -> true */
    sd_val       *findings;
    int           crd;
    sd_diags     *diags;
} up;

/* The change list, one change at a time: `ch` and `p` its kind and path. */
#define EACH_CHANGE(u, i, c, ch, p)                                                        \
    sd_val_array_foreach(sd_val_object_get((sd_val *)(u)->diff, "changes"), i, c)          \
        if (((ch) = sd_val_string_value(sd_val_object_get(c, "change"))) &&                 \
            ((p) = sd_val_string_value(sd_val_object_get(c, "path"))))

/* Every key path the user's files set. Returns 0 or the loader's error. */
static int read_user(up *x, const char *const *files, size_t nfiles)
{
    for (size_t i = 0; i < nfiles; i++) {
        sd_doc *doc = NULL;
        sd_buf path = SD_BUF_INIT;
        int err;
        if (strcmp(files[i], "-") == 0)
            continue;   /* standard input is read once, by the check below */
        if ((err = sd_doc_load_file(&doc, files[i], SD_FMT_AUTO, NULL, x->diags)) < 0)
            return err;
        for (size_t r = 0; r < doc->nroots; r++)
            user_paths(&x->u, doc->roots[r].node, (sd_loc){ doc->file, 1, 1 }, &path, 0);
        sd_buf_release(&path);
        sd_doc_free(doc);
    }
    return 0;
}

/* The two models' keys (every version of a CRD; the root otherwise), and
 * the renames of the diff both ways. */
static void index_models(up *x, const sd_val *old_model, const sd_val *new_model)
{
    const sd_val *models[2] = { old_model, new_model };
    sd_val *paths[2] = { x->oldp, x->newp }, *c;
    const char *ch, *p;
    size_t i;

    for (int m = 0; m < 2; m++) {
        sd_val *vs = sd_val_object_get((sd_val *)models[m], "versions"), *ver;
        size_t vi;
        model_paths(paths[m], sd_val_object_get((sd_val *)models[m], "root"), 0);
        sd_val_array_foreach(vs, vi, ver)
            model_paths(paths[m], sd_val_object_get(ver, "root"), 0);
    }
    x->crd = sd_val_object_get((sd_val *)new_model, "crd") != NULL;
    EACH_CHANGE(x, i, c, ch, p) {
        if (strcmp(ch, "renamed") == 0) {
            sd_val_object_set(x->renamed, sd_val_string_value(sd_val_object_get(c, "from")), sd_val_object_get(c, "to"));
            sd_val_object_set(x->renamed_back, sd_val_string_value(sd_val_object_get(c, "to")), sd_val_object_get(c, "from"));
        } else if (strcmp(ch, "removed") == 0 && sd_val_object_get(c, "similar")) {
            sd_val_object_set(x->similar, p, sd_val_object_get(c, "similar"));
        }
    }
}

/* The key of NEW under the same map as `p` closest to p's last key (an
 * edit distance of 2, or a third of a long key), or NULL. Borrowed from
 * NEW's paths. */
static const char *did_you_mean(const up *x, const char *p)
{
    size_t pl = parent_len(p), kl;
    const char *key = p + (pl ? pl + 1 : 0), *best = NULL, *k;
    unsigned bd = 999;
    sd_val *v;

    kl = strlen(key);
    sd_val_object_foreach(x->newp, k, v) {
        size_t l = parent_len(k);
        const char *nk = k + (l ? l + 1 : 0);
        unsigned d;
        if (l != pl || strncmp(k, p, pl))
            continue;
        if ((d = sd_edit_distance(key, kl, nk, strlen(nk))) < bd)
            bd = d, best = k;
    }
    (void)v;
    return best && bd <= (kl > 6 ? kl / 3 : 2) && bd < kl ? best : NULL;
}

/* The shortest path above or at `k` that neither version has (where an
 * unknown key starts), written into `out`. */
static void unknown_root(const up *x, const char *k, sd_buf *out)
{
    sd_buf_clear(out);
    for (size_t i = 0, q = 0;; i++) {
        if (k[i] == '"')
            q = !q;
        if (k[i] == '\0' || (k[i] == '.' && !q)) {
            sd_buf_clear(out);
            sd_buf_put(out, k, i);
            if (!sd_val_object_get(x->newp, out->ptr) && !sd_val_object_get(x->oldp, out->ptr))
                return;
        }
        if (!k[i])
            return;
    }
}

/* NEW's dependencies from its Chart.yaml (each one's alias, or name): the
 * values under them are the subchart's, whatever NEW's own schema says. */
static void read_deps(up *x, const sd_val *new_model)
{
    const char *dir = sd_val_string_value(sd_val_object_get(sd_val_object_get((sd_val *)new_model, "chart"), "dir"));
    sd_buf path = SD_BUF_INIT;
    sd_diags quiet = SD_DIAGS_INIT;
    sd_doc *doc = NULL;
    const sd_node *deps;

    if (!dir)
        return;
    sd_buf_printf(&path, "%s/Chart.yaml", dir);
    if (!sd_buf_failed(&path) && sd_doc_load_file(&doc, path.ptr, SD_FMT_AUTO, NULL, &quiet) == 0 && doc->nroots &&
        (deps = sd_node_get(doc->roots[0].node, "dependencies")) && deps->kind == SD_SEQ) {
        for (size_t i = 0; i < deps->n; i++) {
            const sd_node *d = deps->items[i].value, *nm;
            if (!d || d->kind != SD_MAP)
                continue;
            if (!((nm = sd_node_get(d, "alias")) && nm->kind == SD_STR && nm->str && *nm->str))
                nm = sd_node_get(d, "name");
            if (nm && nm->kind == SD_STR && nm->str && *nm->str)
                sd_val_object_set_new(x->deps, nm->str, sd_val_true());
        }
    }
    sd_doc_free(doc);
    sd_buf_release(&path);
    sd_diags_release(&quiet);
}

/* Is `p` under one of NEW's dependencies? */
static int under_dep(const up *x, const char *p)
{
    size_t n = 0;
    int q = 0;
    char *first;
    int r;
    while (p[n] && (q || p[n] != '.')) {
        if (p[n] == '"')
            q = !q;
        n++;
    }
    if (!(first = strndup(p, n)))
        return 0;
    if (n >= 2 && first[0] == '"' && first[n - 1] == '"') {
        memmove(first, first + 1, n - 2);
        first[n - 2] = '\0';
    }
    r = sd_val_object_get(x->deps, first) != NULL;
    free(first);
    return r;
}

/* The NEW key with a similar name to the removed `k` (or to the nearest
 * map above it, followed by the rest of `k`, when NEW has that), written
 * into `out`; 0 when there is none. */
static int similar_to(const up *x, const char *k, sd_buf *out)
{
    char *s = strdup(k);
    size_t n;
    int found = 0;
    if (!s)
        return 0;
    for (;;) {
        const char *to = sd_val_string_value(sd_val_object_get(x->similar, s));
        if (to) {
            sd_buf_clear(out);
            sd_buf_printf(out, "%s%s", to, k + strlen(s));
            found = !sd_buf_failed(out) && (!strcmp(s, k) || sd_val_object_get(x->newp, out->ptr));
            break;
        }
        if (!(n = parent_len(s)))
            break;
        s[n] = '\0';
    }
    free(s);
    return found;
}

/* Does the user's value (a `have` type word) fit NEW's types at `node`? */
static const char *new_shape(const up *x, const char *k, const char *to)
{
    const char *have = sd_val_string_value(sd_val_object_get(x->u.types, k));
    sd_val *types = sd_val_object_get(sd_val_object_get(x->newp, to), "type"), *t;
    size_t i;
    int fits = 0;
    if (!have || !sd_val_array_size(types))
        return NULL;
    sd_val_array_foreach(types, i, t) {
        const char *w = sd_val_string_value(t);
        if (w && (!strcmp(w, have) || (!strcmp(w, "number") && !strcmp(have, "integer"))))
            fits = 1;
    }
    return fits ? NULL : sd_val_string_value(sd_val_array_get(types, 0));
}

/* 1. keys set that NEW does not have: renamed (move it), removed (it is
 * ignored), or unknown to both versions (reported once, at the key where
 * the unknown part starts, with the closest key NEW has there). */
static void gone_keys(up *x)
{
    sd_val *reported = sd_val_object(), *v;
    sd_buf root = SD_BUF_INIT;
    const char *k;

    sd_val_object_foreach(x->u.set, k, v) {
        const char *at = sd_val_string_value(v);
        if (sd_val_object_get(x->newp, k) || free_form(x->newp, k))
            continue;
        /* a custom resource's envelope: the API server's, not the schema's */
        if (x->crd && (strcmp(k, "apiVersion") == 0 || strcmp(k, "kind") == 0 ||
                       strncmp(k, "metadata.", 9) == 0 || strcmp(k, "metadata") == 0))
            continue;
        /* a dependency's keys are the subchart's: the value still reaches it */
        if (under_dep(x, k))
            continue;
        sd_val *to = sd_val_object_get(x->renamed, k);
        if (to) {
            sd_val *o = finding(x->findings, k, "renamed", at);
            const char *shape = new_shape(x, k, sd_val_string_value(to));
            sd_val_object_set_nocheck(o, "to", to);
            if (shape) {
                /* a list that became a map, say: one move, in the new shape */
                sd_val_object_set_new_nocheck(o, "shape", sd_val_string(shape));
                message(o, "renamed to %s in NEW, which takes %s %s: move the value there and rewrite it as %s %s",
                        sd_val_string_value(to), strchr("aeiou", shape[0]) ? "an" : "a", shape,
                        strchr("aeiou", shape[0]) ? "an" : "a", shape);
            } else {
                message(o, "renamed to %s in NEW: move the value there", sd_val_string_value(to));
            }
        } else if (sd_val_object_get(x->oldp, k)) {
            sd_buf sim = SD_BUF_INIT;
            sd_val *o = finding(x->findings, k, "removed", at);
            if (similar_to(x, k, &sim)) {
                sd_val_object_set_new_nocheck(o, "similar", sd_val_string(sim.ptr));
                message(o, "removed; a new key with a similar name is `%s` (check the chart's notes)", sim.ptr);
            } else {
                message(o, "no longer exists in NEW: the value is ignored");
            }
            sd_buf_release(&sim);
        } else {
            unknown_root(x, k, &root);
            if (sd_buf_failed(&root) || sd_val_object_get(reported, root.ptr))
                continue;
            sd_val_object_set_new(reported, root.ptr, sd_val_true());
            const char *kat = sd_val_string_value(sd_val_object_get(x->u.inner, root.ptr));
            const char *near = did_you_mean(x, root.ptr);
            sd_val *o = finding(x->findings, root.ptr, "unknown", kat ? kat : at);
            if (near)
                message(o, "not a key of NEW (nor of OLD); did you mean `%s`?", near);
            else
                message(o, "not a key of NEW (nor of OLD)");
        }
    }
    sd_buf_release(&root);
    sd_val_decref(reported);
}

/* 1b. keys set that NEW's values.yaml dropped while its schema still names
 * them (a stale schema: bitnami/postgresql 11 keeps replication.enabled
 * there, deprecated in favour of architecture): the chart may ignore them. */
static void dropped_keys(up *x)
{
    const char *ch, *p;
    sd_val *c;
    size_t i;

    EACH_CHANGE(x, i, c, ch, p) {
        const char *at = sd_val_string_value(sd_val_object_get(x->u.set, p));
        if (strcmp(ch, "default") || !at || !sd_val_is_true(sd_val_object_get(c, "to_absent")))
            continue;
        message(finding(x->findings, p, "removed", at),
                "NEW's values.yaml no longer has it (only NEW's schema names it): the chart may ignore "
                "the value");
    }
}

/* 2. newly required keys the user does not set */
static void required_keys(up *x)
{
    const char *ch, *p;
    sd_val *c;
    size_t i;

    EACH_CHANGE(x, i, c, ch, p) {
        const char *kw = sd_val_string_value(sd_val_object_get(c, "keyword"));
        int req = (strcmp(ch, "added") == 0 && sd_val_is_true(sd_val_object_get(c, "required"))) ||
                  (strcmp(ch, "constraint") == 0 && kw && strcmp(kw, "required") == 0 &&
                   sd_val_is_true(sd_val_object_get(c, "to")));
        if (!req || touched(&x->u, p))
            continue;
        sd_val *node = sd_val_object_get(x->newp, p), *def = sd_val_object_get(node, "default");
        sd_val *o = finding(x->findings, p, "required", NULL);
        if (def) {
            char *t = vtext(def);
            message(o, "newly required; not set (NEW's default %s applies)", t);
            free(t);
        } else {
            message(o, "newly required; not set");
        }
    }
}

/* 3. what NEW's schema refuses: `schemadoc validate NEW VALUES...`. Returns
 * 0, or < 0 when the check could not run (reported). */
static int refused(up *x, sd_source *new_src, const char *const *files, size_t nfiles)
{
    sd_check *chk = NULL;
    sd_check_opts copts;
    sd_diags d = SD_DIAGS_INIT;
    int err = 0;

    memset(&copts, 0, sizeof copts);
    err = sd_check_run(&chk, new_src, files, nfiles, &copts, &d);
    /* the check's own notes (what the lint went by) are validate's to say */
    for (size_t i = 0; i < d.count; i++) {
        const sd_diag *g = &d.items[i];
        if (g->severity != SD_SEV_NOTE)
            sd_diag_add(x->diags, g->severity, g->code, g->loc, g->schema_ptr, g->instance_ptr, "%s",
                        g->message ? g->message : "out of memory");
    }
    sd_diags_release(&d);
    if (err < 0)
        return err;
    for (size_t i = 0; i < sd_check_count(chk) && !err; i++) {
        const sd_check_result *r = sd_check_result_at(chk, i);
        for (size_t j = 0; j < r->res.count; j++) {
            const sd_verror *e = &r->res.items[j];
            char at[512];
            snprintf(at, sizeof at, "%s:%d:%d", e->loc.file ? e->loc.file : "", e->loc.line, e->loc.column);
            sd_val *o = finding(x->findings, e->key ? e->key : "(root)", "invalid", e->loc.line ? at : NULL);
            message(o, "%s", e->message ? e->message : "refused");
            if (e->keyword)
                sd_val_object_set_new_nocheck(o, "keyword", sd_val_string(e->keyword));
        }
        if (r->status < 0 && r->status != SD_EINVALID)
            err = r->status;
    }
    sd_check_free(chk);
    return err;
}

/* 3b. a value whose type NEW changed away from (charts without a schema
 * infer types from values.yaml: no validation would say it) */
static void type_changes(up *x)
{
    const char *ch, *p;
    sd_val *c, *t;
    size_t i, k;

    EACH_CHANGE(x, i, c, ch, p) {
        sd_val *to = sd_val_object_get(c, "to");
        sd_val *from_old = sd_val_object_get(x->renamed_back, p);
        const char *up_ = p;
        int fits = 0;
        if (strcmp(ch, "type") != 0 || !sd_val_is_array(to) || sd_val_object_get(c, "keyword"))
            continue;
        if (!sd_val_object_get(x->u.types, up_) && from_old) {
            up_ = sd_val_string_value(from_old);
            if (!sd_val_object_get(x->newp, up_))
                continue;   /* the renamed finding says the new shape */
        }
        const char *ut = sd_val_string_value(sd_val_object_get(x->u.types, up_));
        if (!ut)
            continue;
        sd_val_array_foreach(to, k, t) {
            const char *w = sd_val_string_value(t);
            if (w && (!strcmp(w, ut) || (!strcmp(w, "number") && !strcmp(ut, "integer"))))
                fits = 1;
        }
        if (fits || invalid_at(x->findings, up_))
            continue;   /* NEW's schema said it already */
        sd_buf tl = SD_BUF_INIT;
        sd_val_array_foreach(to, k, t) {
            if (k)
                sd_buf_puts(&tl, " or ");
            sd_buf_puts(&tl, sd_val_string_value(t) ? sd_val_string_value(t) : "?");
        }
        sd_val *o = finding(x->findings, up_, "type", sd_val_string_value(sd_val_object_get(x->u.set, up_)));
        if (strcmp(up_, p) != 0)
            message(o, "you set %s %s; NEW expects %s at %s", strchr("aeiou", ut[0]) ? "an" : "a", ut,
                    tl.ptr ? tl.ptr : "?", p);
        else
            message(o, "you set %s %s; NEW expects %s", strchr("aeiou", ut[0]) ? "an" : "a", ut,
                    tl.ptr ? tl.ptr : "?");
        sd_buf_release(&tl);
    }
}

/* 4. defaults that change under keys the user leaves alone; one empty
 * default for another (`{limits: {}, requests: {}}` -> `{}`) is no change */
static void changed_defaults(up *x)
{
    const char *ch, *p;
    sd_val *c;
    size_t i;

    EACH_CHANGE(x, i, c, ch, p) {
        sd_val *from_old = sd_val_object_get(x->renamed_back, p);
        sd_val *f = sd_val_object_get(c, "from"), *t = sd_val_object_get(c, "to");
        if (strcmp(ch, "default") != 0 || sd_val_object_get(c, "version"))
            continue;
        if (touched(&x->u, p) || (from_old && touched(&x->u, sd_val_string_value(from_old))))
            continue;
        if (vacuous(f, 0) && vacuous(t, 0) && sd_val_is_object(f) == sd_val_is_object(t))
            continue;
        sd_val *o = finding(x->findings, p, "default", NULL);
        char *a = vtext(f), *b = vtext(t);
        sd_val_object_set_nocheck(o, "from", f);
        sd_val_object_set_nocheck(o, "to", t);
        if (sd_val_is_true(sd_val_object_get(c, "to_absent")))
            message(o, "default %s is gone: NEW's values.yaml no longer sets it (not set in your values)", a);
        else if (sd_val_is_true(sd_val_object_get(c, "from_absent")))
            message(o, "now defaults to %s (not set in your values)", b);
        else
            message(o, "default changes from %s to %s (not set in your values)", a, b);
        free(a);
        free(b);
    }
}

/* Whether the map above `p` is new in NEW and switched off by default
 * (`metrics.podMonitor: {enabled: false, interval: 30s}`): its other keys'
 * defaults change nothing until someone turns it on. */
static int under_disabled(const up *x, const char *p, const sd_val *added)
{
    size_t pl = parent_len(p);
    sd_buf en = SD_BUF_INIT;
    int off;

    if (!pl)
        return 0;
    sd_buf_put(&en, p, pl);
    if (!sd_val_object_get((sd_val *)added, en.ptr)) {
        sd_buf_release(&en);
        return 0;
    }
    sd_buf_puts(&en, ".enabled");
    off = sd_val_is_false(sd_val_object_get(sd_val_object_get(x->newp, en.ptr), "default"));
    sd_buf_release(&en);
    return off;
}

/* 5. "new defaults you will get": keys NEW adds whose default does
 * something for whoever does not set them (`networkPolicy.enabled: true`,
 * `readOnlyRootFilesystem: true`, a non-empty list or text): not null,
 * false, "", {} or []; a map is told by its keys, listed one by one. */
static void new_defaults(up *x)
{
    sd_val *added = sd_val_object(), *c;
    const char *ch, *p;
    size_t i;

    EACH_CHANGE(x, i, c, ch, p)
        if (!strcmp(ch, "added"))
            sd_val_object_set_new(added, p, sd_val_true());
    EACH_CHANGE(x, i, c, ch, p) {
        sd_val *to = sd_val_object_get(c, "to");
        if (strcmp(ch, "added") || sd_val_object_get(c, "version") || !to || sd_val_is_object(to))
            continue;
        if (vacuous(to, 0) || sd_val_is_false(to) || touched(&x->u, p) || under_disabled(x, p, added))
            continue;
        sd_val *o = finding(x->findings, p, "new_default", NULL);
        char *b = vtext(to);
        sd_val_object_set_nocheck(o, "to", to);
        message(o, "new in NEW, defaults to %s (not set in your values)", b);
        free(b);
    }
    sd_val_decref(added);
}

sd_val *sd_diff_upgrade(const sd_val *diff, const sd_val *old_model, const sd_val *new_model,
                        sd_source *new_src, const char *const *files, size_t nfiles,
                        sd_diags *diags)
{
    up x;
    sd_val *report = NULL;

    memset(&x, 0, sizeof x);
    x.diff = diff;
    x.diags = diags;
    x.u.set = sd_val_object();
    x.u.inner = sd_val_object();
    x.u.types = sd_val_object();
    x.oldp = sd_val_object();
    x.newp = sd_val_object();
    x.renamed = sd_val_object();
    x.renamed_back = sd_val_object();
    x.similar = sd_val_object();
    x.deps = sd_val_object();
    x.findings = sd_val_array();
    if (!x.u.set || !x.u.inner || !x.u.types || !x.oldp || !x.newp || !x.renamed ||
        !x.renamed_back || !x.similar || !x.deps || !x.findings) {
        sd_diag_error(diags, SD_ENOMEM, (sd_loc){ NULL, 0, 0 }, "out of memory");
        goto done;
    }
    if (read_user(&x, files, nfiles) < 0)
        goto done;
    index_models(&x, old_model, new_model);
    read_deps(&x, new_model);
    gone_keys(&x);
    dropped_keys(&x);
    required_keys(&x);
    if (refused(&x, new_src, files, nfiles) < 0)
        goto done;
    type_changes(&x);
    changed_defaults(&x);
    new_defaults(&x);
    if (!(report = sd_val_object())) {
        sd_diag_error(diags, SD_ENOMEM, (sd_loc){ NULL, 0, 0 }, "out of memory");
        goto done;
    }
    sd_val_object_set_nocheck(report, "old", sd_val_object_get(diff, "old"));
    sd_val_object_set_nocheck(report, "new", sd_val_object_get(diff, "new"));
    sd_val *fl = sd_val_array();
    for (size_t i = 0; i < nfiles; i++)
        sd_val_array_append_new(fl, sd_val_string(files[i]));
    sd_val_object_set_new_nocheck(report, "values", fl);
    sd_val_object_set_nocheck(report, "findings", x.findings);
done:
    sd_val_decref(x.u.set);
    sd_val_decref(x.u.inner);
    sd_val_decref(x.u.types);
    sd_val_decref(x.oldp);
    sd_val_decref(x.newp);
    sd_val_decref(x.renamed);
    sd_val_decref(x.renamed_back);
    sd_val_decref(x.similar);
    sd_val_decref(x.deps);
    sd_val_decref(x.findings);
    return report;
}

/* One finding as a text line: "AT: KIND: PATH: MESSAGE". */
static void text_line(sd_buf *out, const sd_val *f)
{
    const char *at = sd_val_string_value(sd_val_object_get(f, "at"));
    const char *kind = sd_val_string_value(sd_val_object_get(f, "finding"));
    if (at)
        sd_buf_printf(out, "%s: ", at);
    sd_buf_printf(out, "%s: %s: %s\n", kind ? kind : "?", sd_val_string_value(sd_val_object_get(f, "path")),
                  sd_val_string_value(sd_val_object_get(f, "message")));
}

void sd_diff_upgrade_text(sd_buf *out, const sd_val *report)
{
    size_t i, counts[8] = { 0 };
    sd_val *f, *list = sd_val_object_get(report, "findings");
    static const char *const kinds[] = { "renamed", "removed", "unknown", "required", "invalid", "default",
                                         "type", "new_default" };

    sd_val_array_foreach(list, i, f) {
        const char *kind = sd_val_string_value(sd_val_object_get(f, "finding"));
        for (size_t k = 0; k < 8; k++)
            if (kind && strcmp(kind, kinds[k]) == 0)
                counts[k]++;
        if (!kind || strcmp(kind, "new_default"))
            text_line(out, f);
    }
    /* what someone who sets nothing gets from NEW's new keys, in a group */
    if (counts[7])
        sd_buf_puts(out, "new defaults you will get (keys NEW adds; not set in your values):\n");
    sd_val_array_foreach(list, i, f) {
        const char *kind = sd_val_string_value(sd_val_object_get(f, "finding"));
        if (kind && !strcmp(kind, "new_default"))
            text_line(out, f);
    }
    sd_buf_printf(out, "%zu finding%s: %zu renamed, %zu removed, %zu unknown, %zu newly required, "
                       "%zu invalid, %zu of a changed type, %zu changed defaults, %zu new defaults\n",
                  sd_val_array_size(list), sd_val_array_size(list) == 1 ? "" : "s",
                  counts[0], counts[1], counts[2], counts[3], counts[4], counts[6], counts[5], counts[7]);
}
