/* merge.c - Helm's coalescing of values (see merge.h). */
#include "merge.h"
#include "synth.h"

#include <stdint.h>
#include <string.h>

static sd_node *merge(sd_doc *out, const sd_node *base, const sd_node *over, int *oom, int depth)
{
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
        const sd_node *ov = sd_node_get(over, bp->key->str);
        if (ov && ov->kind == SD_NULL)
            continue; /* a null deletes the key */
        sd_node *v = merge(out, bp->value, ov, oom, depth + 1);
        if (*oom || sd_synth_set(out, m, bp->key->str, v))
            return *oom = 1, NULL;
        m->items[m->n - 1].key = bp->key;
        if (ov)
            m->items[m->n - 1].key = (sd_node *)(uintptr_t)sd_node_get_pair(over, bp->key->str)->key;
    }
    for (size_t i = 0; i < over->n; i++) {
        const sd_pair *op = &over->items[i];
        if (sd_node_get_pair(base, op->key->str))
            continue;
        if (op->value->kind == SD_NULL)
            continue;
        if (sd_synth_set(out, m, op->key->str, op->value))
            return *oom = 1, NULL;
        m->items[m->n - 1].key = op->key;
    }
    return m;
}

sd_node *sd_merge_values(sd_doc *out, const sd_node *base, const sd_node *over, int *oom)
{
    *oom = 0;
    return merge(out, base, over, oom, 0);
}

static sd_node *defaults(sd_doc *out, const sd_node *values, const sd_node *schema, int *oom, int depth)
{
    const sd_node *props = sd_node_get(schema, "properties");
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
    }
    sd_node *m = sd_synth_map(out, values ? values->loc : schema->loc);
    if (!m)
        return *oom = 1, NULL;
    if (values)
        for (size_t i = 0; i < values->n; i++) {
            const sd_pair *vp = &values->items[i];
            const sd_node *ps = props ? sd_node_get(props, vp->key->str) : NULL;
            sd_node *v = ps ? defaults(out, vp->value, ps, oom, depth + 1) : vp->value;
            if (*oom || sd_synth_set(out, m, vp->key->str, v))
                return *oom = 1, NULL;
            m->items[m->n - 1].key = vp->key;
        }
    if (props && props->kind == SD_MAP)
        for (size_t i = 0; i < props->n; i++) {
            const char *k = props->items[i].key->str;
            if (values && sd_node_get_pair(values, k))
                continue;
            sd_node *v = defaults(out, NULL, props->items[i].value, oom, depth + 1);
            if (*oom)
                return NULL;
            if (v && sd_synth_set(out, m, k, v))
                return *oom = 1, NULL;
        }
    return m;
}

sd_node *sd_merge_defaults(sd_doc *out, const sd_node *values, const sd_node *schema, int *oom)
{
    *oom = 0;
    return defaults(out, values, schema, oom, 0);
}
