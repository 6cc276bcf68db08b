/* merge.c - Helm's coalescing of values (see merge.h).
 *
 * A merged map's keys are distinct by construction (the base's, then the
 * override's that the base lacks), so its pairs are gathered without a
 * search and given a key index at the end: linear in the keys, and lookups
 * in the result stay constant-time (a values file of 32,000 keys that the
 * chart does not have took 12 s in a search per key). */
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
    if (v->n == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 16;
        sd_pair *np = realloc(v->p, cap * sizeof *np);
        if (!np)
            return -1;
        v->p = np;
        v->cap = cap;
    }
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

static sd_node *merge(sd_doc *out, const sd_node *base, const sd_node *over, int *oom, int depth)
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
        sd_node *mv = merge(out, bp->value, ov, oom, depth + 1);
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
    return merge(out, base, over, oom, 0);
}

static sd_node *defaults(sd_doc *out, const sd_node *values, const sd_node *schema, int *oom, int depth);

/* Does the scalar `v` equal the scalar `c` (as written)? */
static int same_scalar(const sd_node *v, const sd_node *c)
{
    return v && c && v->kind == c->kind && v->str && c->str && strcmp(v->str, c->str) == 0;
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
