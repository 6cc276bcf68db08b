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

/* Every key path the user sets (maps with keys are walked, anything else
 * is a value) -> "file:line:col"; later files win. Maps with keys are
 * recorded in `inner`. */
static void user_paths(sd_val *set, sd_val *inner, sd_val *types, const sd_node *n, sd_buf *path,
                       int depth)
{
    size_t len = path->len;
    if (!n || depth > 200)
        return;
    if (n->kind != SD_MAP || n->n == 0) {
        char loc[64];
        if (n->kind == SD_NULL || !path->len)
            return;   /* null deletes the key: nothing set */
        snprintf(loc, sizeof loc, ":%d:%d", n->loc.line, n->loc.column);
        sd_buf b = SD_BUF_INIT;
        sd_buf_printf(&b, "%s%s", n->loc.file ? n->loc.file : "", loc);
        sd_val_object_set_new(set, path->ptr, sd_val_string(b.ptr ? b.ptr : ""));
        sd_val_object_set_new(types, path->ptr, sd_val_string(sd_node_type_word(n)));
        sd_buf_release(&b);
        return;
    }
    if (path->len)
        sd_val_object_set_new(inner, path->ptr, sd_val_true());
    for (size_t i = 0; i < n->n; i++) {
        const sd_pair *p = &n->items[i];
        if (!p->key || !p->key->str)
            continue;
        sd_annot_path_push(path, p->key->str, p->key->len);
        user_paths(set, inner, types, p->value, path, depth + 1);
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
static int touched(const sd_val *set, const sd_val *inner, const char *p)
{
    char *s;
    size_t n;
    if (sd_val_object_get(set, p) || sd_val_object_get(inner, p))
        return 1;
    if (!(s = strdup(p)))
        return 0;
    while ((n = parent_len(s)) > 0) {
        s[n] = '\0';
        if (sd_val_object_get(set, s)) {
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

sd_val *sd_diff_upgrade(const sd_val *diff, const sd_val *old_model, const sd_val *new_model,
                        sd_source *new_src, const char *const *files, size_t nfiles,
                        sd_diags *diags)
{
    sd_val *set = sd_val_object(), *inner = sd_val_object(), *oldp = sd_val_object(), *newp = sd_val_object();
    sd_val *types = sd_val_object();
    sd_val *renamed = sd_val_object(), *renamed_back = sd_val_object(), *findings = sd_val_array();
    sd_val *report = NULL, *c, *v;
    sd_check *chk = NULL;
    sd_check_opts copts;
    const char *k;
    size_t i;

    memset(&copts, 0, sizeof copts);
    if (!set || !inner || !types || !oldp || !newp || !renamed || !renamed_back || !findings)
        goto oom;
    for (i = 0; i < nfiles; i++) {
        sd_doc *doc = NULL;
        sd_buf path = SD_BUF_INIT;
        if (strcmp(files[i], "-") == 0)
            continue;   /* standard input is read once, by the check below */
        if (sd_doc_load_file(&doc, files[i], SD_FMT_AUTO, NULL, diags) < 0)
            goto fail;
        for (size_t r = 0; r < doc->nroots; r++)
            user_paths(set, inner, types, doc->roots[r].node, &path, 0);
        sd_buf_release(&path);
        sd_doc_free(doc);
    }
    /* every version of a CRD; the root otherwise */
    const sd_val *models[2] = { old_model, new_model };
    sd_val *paths[2] = { oldp, newp };
    for (int m = 0; m < 2; m++) {
        sd_val *vs = sd_val_object_get((sd_val *)models[m], "versions"), *ver;
        size_t vi;
        model_paths(paths[m], sd_val_object_get((sd_val *)models[m], "root"), 0);
        sd_val_array_foreach(vs, vi, ver)
            model_paths(paths[m], sd_val_object_get(ver, "root"), 0);
    }
    int crd = sd_val_object_get((sd_val *)new_model, "crd") != NULL;
    sd_val_array_foreach(sd_val_object_get(diff, "changes"), i, c) {
        const char *ch = sd_val_string_value(sd_val_object_get(c, "change"));
        if (ch && strcmp(ch, "renamed") == 0) {
            sd_val_object_set(renamed, sd_val_string_value(sd_val_object_get(c, "from")), sd_val_object_get(c, "to"));
            sd_val_object_set(renamed_back, sd_val_string_value(sd_val_object_get(c, "to")), sd_val_object_get(c, "from"));
        }
    }

    /* 1. keys set that NEW does not have */
    sd_val_object_foreach(set, k, v) {
        const char *at = sd_val_string_value(v);
        if (sd_val_object_get(newp, k) || free_form(newp, k))
            continue;
        /* a custom resource's envelope: the API server's, not the schema's */
        if (crd && (strcmp(k, "apiVersion") == 0 || strcmp(k, "kind") == 0 ||
                    strncmp(k, "metadata.", 9) == 0 || strcmp(k, "metadata") == 0))
            continue;
        sd_val *to = sd_val_object_get(renamed, k);
        if (to) {
            sd_val *o = finding(findings, k, "renamed", at);
            sd_val_object_set_nocheck(o, "to", to);
            message(o, "renamed to %s in NEW: move the value there", sd_val_string_value(to));
        } else if (sd_val_object_get(oldp, k)) {
            message(finding(findings, k, "removed", at), "no longer exists in NEW: the value is ignored");
        } else {
            message(finding(findings, k, "unknown", at), "not a key of NEW (nor of OLD)");
        }
    }
    /* 2. newly required keys the user does not set */
    sd_val_array_foreach(sd_val_object_get(diff, "changes"), i, c) {
        const char *ch = sd_val_string_value(sd_val_object_get(c, "change"));
        const char *p = sd_val_string_value(sd_val_object_get(c, "path"));
        const char *kw = sd_val_string_value(sd_val_object_get(c, "keyword"));
        int req = (ch && strcmp(ch, "added") == 0 && sd_val_is_true(sd_val_object_get(c, "required"))) ||
                  (ch && strcmp(ch, "constraint") == 0 && kw && strcmp(kw, "required") == 0 &&
                   sd_val_is_true(sd_val_object_get(c, "to")));
        if (req && p && !touched(set, inner, p)) {
            sd_val *node = sd_val_object_get(newp, p), *def = sd_val_object_get(node, "default");
            sd_val *o = finding(findings, p, "required", NULL);
            if (def) {
                char *t = vtext(def);
                message(o, "newly required; not set (NEW's default %s applies)", t);
                free(t);
            } else {
                message(o, "newly required; not set");
            }
        }
    }
    /* 3. what NEW's schema refuses */
    if (sd_check_run(&chk, new_src, files, nfiles, &copts, diags) < 0)
        goto fail;
    for (i = 0; i < sd_check_count(chk); i++) {
        const sd_check_result *r = sd_check_result_at(chk, i);
        for (size_t j = 0; j < r->res.count; j++) {
            const sd_verror *e = &r->res.items[j];
            char at[512];
            snprintf(at, sizeof at, "%s:%d:%d", e->loc.file ? e->loc.file : "", e->loc.line, e->loc.column);
            sd_val *o = finding(findings, e->key ? e->key : "(root)", "invalid", e->loc.line ? at : NULL);
            message(o, "%s", e->message ? e->message : "refused");
            if (e->keyword)
                sd_val_object_set_new_nocheck(o, "keyword", sd_val_string(e->keyword));
        }
        if (r->status < 0 && r->status != SD_EINVALID)
            goto fail;
    }
    /* 3b. a value whose type NEW changed away from (charts without a schema
     * infer types from values.yaml: no validation would say it) */
    sd_val_array_foreach(sd_val_object_get(diff, "changes"), i, c) {
        const char *ch = sd_val_string_value(sd_val_object_get(c, "change"));
        const char *p = sd_val_string_value(sd_val_object_get(c, "path"));
        sd_val *to = sd_val_object_get(c, "to"), *t;
        sd_val *from_old = p ? sd_val_object_get(renamed_back, p) : NULL;
        const char *up = p;
        size_t k;
        int fits = 0;
        if (!ch || strcmp(ch, "type") != 0 || !p || !sd_val_is_array(to) || sd_val_object_get(c, "keyword"))
            continue;
        if (!sd_val_object_get(types, up) && from_old)
            up = sd_val_string_value(from_old);
        const char *ut = sd_val_string_value(sd_val_object_get(types, up));
        if (!ut)
            continue;
        sd_val_array_foreach(to, k, t) {
            const char *w = sd_val_string_value(t);
            if (w && (!strcmp(w, ut) || (!strcmp(w, "number") && !strcmp(ut, "integer"))))
                fits = 1;
        }
        if (fits || invalid_at(findings, up))
            continue;   /* NEW's schema said it already */
        sd_buf tl = SD_BUF_INIT;
        sd_val_array_foreach(to, k, t) {
            if (k)
                sd_buf_puts(&tl, " or ");
            sd_buf_puts(&tl, sd_val_string_value(t) ? sd_val_string_value(t) : "?");
        }
        sd_val *o = finding(findings, up, "type", sd_val_string_value(sd_val_object_get(set, up)));
        if (strcmp(up, p) != 0)
            message(o, "you set %s %s; NEW expects %s at %s", strchr("aeiou", ut[0]) ? "an" : "a", ut,
                    tl.ptr ? tl.ptr : "?", p);
        else
            message(o, "you set %s %s; NEW expects %s", strchr("aeiou", ut[0]) ? "an" : "a", ut,
                    tl.ptr ? tl.ptr : "?");
        sd_buf_release(&tl);
    }
    /* 4. defaults that change under keys the user leaves alone */
    sd_val_array_foreach(sd_val_object_get(diff, "changes"), i, c) {
        const char *ch = sd_val_string_value(sd_val_object_get(c, "change"));
        const char *p = sd_val_string_value(sd_val_object_get(c, "path"));
        sd_val *from_old = p ? sd_val_object_get(renamed_back, p) : NULL;
        if (!ch || strcmp(ch, "default") != 0 || !p || sd_val_object_get(c, "version"))
            continue;
        if (touched(set, inner, p) || (from_old && touched(set, inner, sd_val_string_value(from_old))))
            continue;
        sd_val *o = finding(findings, p, "default", NULL);
        char *a = vtext(sd_val_object_get(c, "from")), *b = vtext(sd_val_object_get(c, "to"));
        sd_val_object_set_nocheck(o, "from", sd_val_object_get(c, "from"));
        sd_val_object_set_nocheck(o, "to", sd_val_object_get(c, "to"));
        if (sd_val_is_true(sd_val_object_get(c, "to_absent")))
            message(o, "default %s is gone: NEW's values.yaml no longer sets it (not set in your values)", a);
        else if (sd_val_is_true(sd_val_object_get(c, "from_absent")))
            message(o, "now defaults to %s (not set in your values)", b);
        else
            message(o, "default changes from %s to %s (not set in your values)", a, b);
        free(a);
        free(b);
    }
    report = sd_val_object();
    if (!report)
        goto oom;
    sd_val_object_set_nocheck(report, "old", sd_val_object_get(diff, "old"));
    sd_val_object_set_nocheck(report, "new", sd_val_object_get(diff, "new"));
    sd_val *fl = sd_val_array();
    for (i = 0; i < nfiles; i++)
        sd_val_array_append_new(fl, sd_val_string(files[i]));
    sd_val_object_set_new_nocheck(report, "values", fl);
    sd_val_object_set_nocheck(report, "findings", findings);
    goto done;
oom:
    sd_diag_error(diags, SD_ENOMEM, (sd_loc){ NULL, 0, 0 }, "out of memory");
fail:
    sd_val_decref(report);
    report = NULL;
done:
    sd_check_free(chk);
    sd_val_decref(set);
    sd_val_decref(inner);
    sd_val_decref(types);
    sd_val_decref(oldp);
    sd_val_decref(newp);
    sd_val_decref(renamed);
    sd_val_decref(renamed_back);
    sd_val_decref(findings);
    return report;
}

void sd_diff_upgrade_text(sd_buf *out, const sd_val *report)
{
    size_t i, counts[7] = { 0 };
    sd_val *f;
    static const char *const kinds[] = { "renamed", "removed", "unknown", "required", "invalid", "default",
                                         "type" };

    sd_val_array_foreach(sd_val_object_get(report, "findings"), i, f) {
        const char *at = sd_val_string_value(sd_val_object_get(f, "at"));
        const char *kind = sd_val_string_value(sd_val_object_get(f, "finding"));
        for (size_t k = 0; k < 7; k++)
            if (kind && strcmp(kind, kinds[k]) == 0)
                counts[k]++;
        if (at)
            sd_buf_printf(out, "%s: ", at);
        sd_buf_printf(out, "%s: %s: %s\n", kind ? kind : "?",
                      sd_val_string_value(sd_val_object_get(f, "path")),
                      sd_val_string_value(sd_val_object_get(f, "message")));
    }
    sd_buf_printf(out, "%zu finding%s: %zu renamed, %zu removed, %zu unknown, %zu newly required, "
                       "%zu invalid, %zu of a changed type, %zu changed defaults\n",
                  sd_val_array_size(sd_val_object_get(report, "findings")),
                  sd_val_array_size(sd_val_object_get(report, "findings")) == 1 ? "" : "s",
                  counts[0], counts[1], counts[2], counts[3], counts[4], counts[6], counts[5]);
}
