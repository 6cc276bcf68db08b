/* SPDX-License-Identifier: Apache-2.0 */
/* merge.c - Helm's coalescing of values, and ytt's of data values whose
 * lists append (see merge.h).
 *
 * A merged map's keys are distinct by construction (the base's, then the
 * override's that the base lacks), so its pairs are gathered without a
 * search and given a key index at the end: linear in the keys, and lookups
 * in the result stay constant-time (a values file of 32,000 keys that the
 * chart does not have took 12 s in a search per key). */
#include "alloc.h"
#include "merge.h"
#include "synth.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The pairs of one map being made. */
typedef struct pairs { sd_pair *p; size_t n, cap; } pairs;

static int put(pairs *v, const sd_node *key, sd_node *value)
{
    if (!key || !value)
        return -1;
    if (sd_grow((void **)&v->p, &v->cap, v->n + 1, sizeof *v->p) < 0)
        return -1;
    sd_pair *p = &v->p[v->n++];
    memset(p, 0, sizeof *p);
    p->key = (sd_node *)(uintptr_t)key;
    p->value = value;
    p->c_trail = -1;
    return 0;
}

/* Give `m` the pairs gathered (and free them). */
static int finish(sd_doc *out, sd_node *m, pairs *v)
{
    int rc = sd_node__set_items(&out->arena, m, v->p, v->n);
    free(v->p);
    return rc;
}

static sd_node *ytt_list(sd_doc *out, const sd_doc *doc, const sd_node *base, const sd_pair *op, int *oom,
                         int depth);

/* Helm's merge of `over` onto `base`; with `ytt` (the data-values file
 * `over` comes from), each list of `over` is overlaid as ytt does
 * (ytt_list) instead of replacing the base's. */
static sd_node *merge(sd_doc *out, const sd_node *base, const sd_node *over, int *oom, int depth,
                      const sd_doc *ytt)
{
    pairs v = { NULL, 0, 0 };

    if (!over)
        return (sd_node *)(uintptr_t)base;
    if (!base || base->kind != SD_MAP || over->kind != SD_MAP || depth > 500)
        return (sd_node *)(uintptr_t)over;
    sd_node *m = sd_synth_map(out, over->loc);
    if (!m)
        return *oom = 1, NULL;
    /* base keys in their order, overridden or deleted; then new keys */
    for (size_t i = 0; i < base->n; i++) {
        const sd_pair *bp = &base->items[i];
        const sd_pair *op = sd_node_get_pair(over, bp->key->str);
        const sd_node *ov = op ? op->value : NULL;
        if (ov && ov->kind == SD_NULL)
            continue; /* a null deletes the key */
        sd_node *mv = ytt && ov && ov->kind == SD_SEQ ? ytt_list(out, ytt, bp->value, op, oom, depth + 1)
                                                       : merge(out, bp->value, ov, oom, depth + 1, ytt);
        if (*oom || put(&v, op ? op->key : bp->key, mv) < 0)
            goto fail;
    }
    for (size_t i = 0; i < over->n; i++) {
        const sd_pair *op = &over->items[i];
        if (sd_node_get_pair(base, op->key->str))
            continue;
        if (op->value->kind == SD_NULL)
            continue;
        if (put(&v, op->key, op->value) < 0)
            goto fail;
    }
    if (finish(out, m, &v) < 0)
        return *oom = 1, NULL;
    return m;
fail:
    free(v.p);
    return *oom = 1, NULL;
}

sd_node *sd_merge_values(sd_doc *out, const sd_node *base, const sd_node *over, int *oom)
{
    *oom = 0;
    return merge(out, base, over, oom, 0, NULL);
}

static sd_node *defaults(sd_doc *out, const sd_node *values, const sd_node *schema, int *oom, int depth);

/* Two scalars alike (the same kind and text). */
static int same_scalar(const sd_node *a, const sd_node *b)
{
    return a && b && a->kind == b->kind && a->kind != SD_MAP && a->kind != SD_SEQ && a->str && b->str &&
           a->len == b->len && !memcmp(a->str, b->str, a->len);
}

/* Could the map `values` match the branch `b` of a oneOf/anyOf, as far as
 * its own words say: every key it requires is there, every `const` or
 * `enum` of a property it names agrees, and no key is left over when it
 * closes the map (additionalProperties: false). */
static int branch_fits(const sd_node *values, const sd_node *b)
{
    const sd_node *req = sd_node_get(b, "required"), *props = sd_node_get(b, "properties");
    const sd_node *ap = sd_node_get(b, "additionalProperties");
    if (!b || b->kind != SD_MAP)
        return 0;
    if (req && req->kind == SD_SEQ)
        for (size_t i = 0; i < req->n; i++) {
            const sd_node *k = req->items[i].value;
            if (!k || k->kind != SD_STR || !sd_node_get_pair(values, k->str))
                return 0;
        }
    if (props && props->kind == SD_MAP)
        for (size_t i = 0; i < props->n; i++) {
            const sd_node *ps = props->items[i].value, *v = sd_node_get(values, props->items[i].key->str), *c, *e;
            if (!v || !ps || ps->kind != SD_MAP)
                continue;
            if ((c = sd_node_get(ps, "const")) && c->kind != SD_MAP && c->kind != SD_SEQ && !same_scalar(v, c))
                return 0;
            if ((e = sd_node_get(ps, "enum")) && e->kind == SD_SEQ && v->kind != SD_MAP && v->kind != SD_SEQ) {
                int any = 0;
                for (size_t j = 0; j < e->n && !any; j++)
                    any = same_scalar(v, e->items[j].value);
                if (!any)
                    return 0;
            }
        }
    if (ap && ap->kind == SD_BOOL && !ap->num.b)
        for (size_t i = 0; i < values->n; i++)
            if (!props || !sd_node_get_pair(props, values->items[i].key->str))
                return 0;
    return 1;
}

/* The defaults of the one branch of `schema`'s oneOf / anyOf that `m` (a
 * map of values) fits, filled into `m`; none when no branch or more than
 * one fits: a default of a branch the value does not take would make
 * values the schema refuses (`postStart: {exec: {}, httpGet: {}}`). */
static sd_node *branch_defaults(sd_doc *out, sd_node *m, const sd_node *schema, int *oom, int depth)
{
    static const char *const kws[] = { "oneOf", "anyOf", NULL };
    for (const char *const *kw = kws; *kw && m; kw++) {
        const sd_node *l = sd_node_get(schema, *kw), *fit = NULL;
        int n = 0;
        if (!l || l->kind != SD_SEQ)
            continue;
        for (size_t i = 0; i < l->n; i++)
            if (branch_fits(m, l->items[i].value)) {
                fit = l->items[i].value;
                n++;
            }
        if (n == 1 && (sd_node_get(fit, "properties") || sd_node_get(fit, "oneOf") || sd_node_get(fit, "anyOf")))
            m = defaults(out, m, fit, oom, depth + 1);
    }
    return m;
}

static sd_node *defaults(sd_doc *out, const sd_node *values, const sd_node *schema, int *oom, int depth)
{
    const sd_node *props = sd_node_get(schema, "properties");
    int given = values != NULL, has_default = 0;
    if (depth > 200 || !schema || schema->kind != SD_MAP)
        return (sd_node *)(uintptr_t)values;
    if (values && values->kind != SD_MAP)
        return (sd_node *)(uintptr_t)values;
    if (!values) {
        const sd_node *d = sd_node_get(schema, "default");
        if (d && d->kind != SD_MAP)
            return (sd_node *)(uintptr_t)d;
        if (!props && d)
            return (sd_node *)(uintptr_t)d;
        if (!props)
            return NULL;
        values = d;
        has_default = d != NULL;
    }
    sd_node *m = sd_synth_map(out, values ? values->loc : schema->loc);
    pairs pv = { NULL, 0, 0 };
    if (!m)
        return *oom = 1, NULL;
    if (values)
        for (size_t i = 0; i < values->n; i++) {
            const sd_pair *vp = &values->items[i];
            const sd_node *ps = props ? sd_node_get(props, vp->key->str) : NULL;
            sd_node *v = ps ? defaults(out, vp->value, ps, oom, depth + 1) : vp->value;
            if (*oom || put(&pv, vp->key, v) < 0)
                goto fail;
        }
    if (props && props->kind == SD_MAP)
        for (size_t i = 0; i < props->n; i++) {
            const char *k = props->items[i].key->str;
            if (values && sd_node_get_pair(values, k))
                continue;
            sd_node *v = defaults(out, NULL, props->items[i].value, oom, depth + 1);
            if (*oom)
                goto fail;
            if (v && put(&pv, sd_synth_str(out, v->loc, k), v) < 0)
                goto fail;
        }
    if (finish(out, m, &pv) < 0)
        return *oom = 1, NULL;
    /* a map nobody set and no default fills in: not there (an empty map
     * would have to pass the schema's `required` and branches) */
    if (!given && !has_default && m->n == 0)
        return NULL;
    if (given)
        m = branch_defaults(out, m, schema, oom, depth);
    return m;
fail:
    free(pv.p);
    return *oom = 1, NULL;
}

sd_node *sd_merge_defaults(sd_doc *out, const sd_node *values, const sd_node *schema, int *oom)
{
    *oom = 0;
    return defaults(out, values, schema, oom, 0);
}

/* ---- ytt data values: lists as ytt (0.32 and later) overlays them ---------
 * The items of a list in a data-values file are appended to the list they
 * overlay; `#@overlay/replace` above the key (or at the end of its line)
 * replaces the list; on an item, `#@overlay/append` appends it and
 * `#@overlay/match by="KEY"` / `by=overlay.index(N)` / `by=overlay.all`
 * merges it into the items it matches (`#@overlay/replace`,
 * `#@overlay/remove` beside it: replaces or removes them). An item that
 * matches nothing is appended (ytt refuses it unless missing_ok=True). */
enum { YA_NONE, YA_APPEND, YA_REPLACE, YA_REMOVE, YA_MERGE };
enum { YB_NONE, YB_KEY, YB_INDEX, YB_ALL, YB_OTHER };

typedef struct yann {
    int    action, by;
    char   key[128];
    size_t index;
} yann;

static void by_arg(yann *a, const char *t)
{
    const char *b = strstr(t, "by=");
    size_t n;
    if (!b) {
        a->by = YB_OTHER;
        return;
    }
    b += 3;
    if ((*b == '"' || *b == '\'') && strchr(b + 1, *b) && (n = (size_t)(strchr(b + 1, *b) - b - 1)) < sizeof a->key) {
        memcpy(a->key, b + 1, n);
        a->key[n] = '\0';
        a->by = YB_KEY;
    } else if (!strncmp(b, "overlay.index(", 14)) {
        a->index = (size_t)strtoul(b + 14, NULL, 10);
        a->by = YB_INDEX;
    } else if (!strncmp(b, "overlay.all", 11))
        a->by = YB_ALL;
    else
        a->by = YB_OTHER;
}

/* The `#@overlay/...` annotations of pair `p` of `doc` (the comment lines
 * above it and the one at the end of its line). */
static void ytt_annots(const sd_doc *doc, const sd_pair *p, yann *a)
{
    memset(a, 0, sizeof *a);
    if (!doc)
        return;
    for (uint32_t i = 0; i <= p->c_count; i++) {
        const sd_comment *c;
        if (i < p->c_count && p->c_first + i < doc->ncomments)
            c = &doc->comments[p->c_first + i];
        else if (i == p->c_count && p->c_trail >= 0 && (size_t)p->c_trail < doc->ncomments)
            c = &doc->comments[p->c_trail];
        else
            continue;
        const char *t = c->text;
        if (strncmp(t, "@overlay/", 9) != 0)
            continue;
        t += 9;
        if (!strncmp(t, "replace", 7))
            a->action = YA_REPLACE;
        else if (!strncmp(t, "append", 6))
            a->action = YA_APPEND;
        else if (!strncmp(t, "remove", 6))
            a->action = YA_REMOVE;
        else if (!strncmp(t, "merge", 5))
            a->action = YA_MERGE;
        else if (!strncmp(t, "match", 5))
            by_arg(a, t + 5);
    }
}


static int matches(const yann *a, const sd_node *left, size_t i, const sd_node *right)
{
    switch (a->by) {
    case YB_KEY:
        return left && left->kind == SD_MAP && right && right->kind == SD_MAP &&
               same_scalar(sd_node_get(left, a->key), sd_node_get(right, a->key));
    case YB_INDEX: return i == a->index;
    case YB_ALL: return 1;
    default: return 0;
    }
}

/* The list ytt makes of `base` and the file's pair `op` (a list). */
static sd_node *ytt_list(sd_doc *out, const sd_doc *doc, const sd_node *base, const sd_pair *op, int *oom,
                         int depth)
{
    const sd_node *ov = op->value;
    yann ka;
    ytt_annots(doc, op, &ka);
    if (ka.action == YA_REPLACE || !base || base->kind != SD_SEQ || depth > 500)
        return (sd_node *)(uintptr_t)ov;
    size_t cap = base->n + ov->n, n = 0;
    const sd_node **list = malloc((cap ? cap : 1) * sizeof *list);
    sd_node *seq = sd_synth_seq(out, ov->loc);
    if (!list || !seq) {
        free(list);
        return *oom = 1, NULL;
    }
    for (size_t i = 0; i < base->n; i++)
        list[n++] = base->items[i].value;
    for (size_t j = 0; j < ov->n; j++) {
        const sd_pair *ip = &ov->items[j];
        yann a;
        int hit = 0;
        ytt_annots(doc, ip, &a);
        if (a.by != YB_NONE && a.by != YB_OTHER) {
            for (size_t i = 0; i < n; i++) {
                if (!matches(&a, list[i], i, ip->value))
                    continue;
                hit = 1;
                if (a.action == YA_REMOVE) {
                    memmove(list + i, list + i + 1, (n - i - 1) * sizeof *list);
                    n--, i--;
                    if (a.by == YB_INDEX)
                        break;
                } else if (a.action == YA_REPLACE)
                    list[i] = ip->value;
                else if (!(list[i] = merge(out, list[i], ip->value, oom, depth + 1, doc)))
                    break;
            }
            if (*oom) {
                free(list);
                return NULL;
            }
        }
        if (!hit && a.action != YA_REMOVE)
            list[n++] = ip->value;
    }
    for (size_t i = 0; i < n; i++)
        if (sd_synth_push(out, seq, (sd_node *)(uintptr_t)list[i])) {
            free(list);
            return *oom = 1, NULL;
        }
    free(list);
    return seq;
}

sd_node *sd_merge_ytt_values(sd_doc *out, const sd_node *base, const sd_node *over, const sd_doc *doc, int *oom)
{
    *oom = 0;
    return merge(out, base, over, oom, 0, doc);
}
