/* SPDX-License-Identifier: Apache-2.0 */
/* check_k8s.c - the Kubernetes types as a layer of `validate` (issue 43,
 * docs/k8s.md): a chart's keys typed on evidence (k8s_evidence.c) are
 * checked against their type (k8s_check.c), like the typo lint, on top of
 * the chart's own schema where that schema leaves the key open. The
 * schema stays Helm's authority: where it says something of the key (its
 * properties, closed keys, an enum) the layer stays out, and a place the
 * validator or the lint has spoken of already gets no second finding.
 *
 * In: the source, a chart, the values validated (merged). Out: findings
 * appended to the result's sd_vresult. */
#include "check.h"
#include "k8s.h"
#include "alloc.h"
#include "ptr.h"

#include <stdlib.h>
#include <string.h>

struct sd_check_k8s {
    sd_k8s_types *types;
    sd_k8s_keys   keys;
    sd_k8s_places places;   /* the templates' places (sd_k8s_chart_places) */
    int           failed;
};

/* The node at JSON pointer `ptr` under `n` (maps only), or NULL. */
static const sd_node *at(const sd_node *n, const char *ptr)
{
    sd_buf tok = SD_BUF_INIT;
    while (n && *ptr == '/') {
        ptr = sd_ptr_next(&tok, ptr);
        n = sd_node_get(n, tok.ptr);
    }
    sd_buf_release(&tok);
    return n;
}

/* A local $ref of `root` followed ("#/$defs/x"), else `s`. */
static const sd_node *deref(const sd_node *root, const sd_node *s)
{
    const char *ref;
    for (int hops = 0; s && (ref = sd_node_str(sd_node_get(s, "$ref"))) && ref[0] == '#' && hops < 8; hops++)
        s = at(root, ref + 1);
    return s;
}

/* Does the chart's schema leave the key at `ptr` open: nothing said of it,
 * or an object whose keys it does not list (`type: object`, a $ref to a
 * Kubernetes definition, which the API document leaves open)? */
static int schema_open(const sd_k8s_types *t, const sd_node *root, const char *ptr)
{
    sd_buf tok = SD_BUF_INIT;
    const sd_node *s = root;
    int open = 1;

    while (s && *ptr == '/') {
        const char *ref = sd_node_str(sd_node_get(s, "$ref"));
        if (ref && sd_k8s_types_ref(t, ref))
            break;   /* a Kubernetes type: the layer's own */
        s = deref(root, s);
        ptr = sd_ptr_next(&tok, ptr);
        const sd_node *props = s ? sd_node_get(s, "properties") : NULL;
        const sd_node *next = props ? sd_node_get(props, tok.ptr) : NULL;
        if (!next && s) {
            const sd_node *addl = sd_node_get(s, "additionalProperties");
            next = addl && addl->kind == SD_MAP ? addl : NULL;
            if (!next && addl && addl->kind == SD_BOOL && !addl->num.b)
                open = 0;   /* closed: the schema refuses the key itself */
        }
        s = next;
    }
    sd_buf_release(&tok);
    if (!open || !s)
        return open;
    const char *ref = sd_node_str(sd_node_get(s, "$ref"));
    if (ref && sd_k8s_types_ref(t, ref))
        return 1;
    s = deref(root, s);
    if (!s || s->kind != SD_MAP)
        return 1;
    static const char *const closed[] = { "properties", "patternProperties", "enum", "const",
                                          "anyOf", "oneOf", "allOf", "$ref", "not" };
    for (size_t i = 0; i < sizeof closed / sizeof *closed; i++)
        if (sd_node_get(s, closed[i]))
            return 0;
    const sd_node *addl = sd_node_get(s, "additionalProperties");
    if (addl && !(addl->kind == SD_BOOL && addl->num.b))
        return 0;
    const sd_node *items = sd_node_get(s, "items");
    const char *iref = items ? sd_node_str(sd_node_get(items, "$ref")) : NULL;
    if (iref && sd_k8s_types_ref(t, iref))
        return 1;   /* a list of a Kubernetes type */
    items = deref(root, items);
    if (items && items->kind == SD_MAP && items->n)
        return 0;
    return 1;
}

/* "/a/b/0" -> "a.b[0]" (for a typed key: map keys only) */
static void dotted(sd_buf *out, const char *ptr)
{
    sd_buf tok = SD_BUF_INIT;
    while (*ptr == '/') {
        ptr = sd_ptr_next(&tok, ptr);
        sd_buf_printf(out, "%s%s", out->len ? "." : "", tok.ptr);
    }
    sd_buf_release(&tok);
}

static int spoken_of(const sd_vresult *r, const char *path)
{
    for (size_t i = 0; i < r->count; i++)
        if (!strcmp(r->items[i].path, path))
            return 1;
    for (size_t i = 0; i < r->nwarnings; i++)
        if (!strcmp(r->warnings[i].path, path))
            return 1;
    return 0;
}

/* Move `from`'s findings to `to`, but for places `to` has spoken of. */
static int move(sd_vresult *to, sd_vresult *from)
{
    for (int w = 0; w < 2; w++) {
        sd_verror *src = w ? from->warnings : from->items;
        size_t n = w ? from->nwarnings : from->count;
        for (size_t i = 0; i < n; i++) {
            sd_verror **arr = w ? &to->warnings : &to->items;
            size_t *cnt = w ? &to->nwarnings : &to->count, *alloc = w ? &to->awarnings : &to->alloc;
            if (spoken_of(to, src[i].path))
                continue;
            if (sd_grow((void **)arr, alloc, *cnt + 1, sizeof **arr) < 0)
                return SD_ENOMEM;
            (*arr)[(*cnt)++] = src[i];
            memset(&src[i], 0, sizeof src[i]);   /* the strings are `to`'s now */
            if (!w)
                to->total++;
        }
    }
    return 0;
}

int sd_check__k8s(sd_check_k8s **state, sd_source *src, const sd_chart *chart, const sd_node *schema,
                  const sd_node *values, sd_vresult *res)
{
    sd_check_k8s *st = *state;
    /* a schema made from values.yaml is no evidence: its $refs are the
     * annotations', read as such */
    const sd_node *own = chart && chart->schema && !(chart == sd_source_chart(src) && sd_source_schema_generated(src))
                       ? sd_doc_root(chart->schema) : NULL;
    int err = 0;

    if (!chart || !values || sd_source_options(src)->k8s_types_off)
        return 0;
    if (!st) {
        if (!(st = *state = calloc(1, sizeof *st))) {
            sd_alloc_note_failure();
            return SD_ENOMEM;
        }
        st->keys = (sd_k8s_keys)SD_K8S_KEYS_INIT;
        sd_k8s_chart in = { chart->values, own, &st->places };
        if ((err = sd_k8s_chart_places(&st->places, chart->dir)) < 0 || (err = sd_k8s_types_open(&st->types)) < 0 ||
            (err = sd_k8s_keys_scan(&st->keys, st->types, &in)) < 0)
            st->failed = 1;
    }
    if (st->failed)
        return err;
    for (size_t i = 0; i < st->keys.n && err >= 0; i++) {
        const sd_k8s_key *k = &st->keys.v[i];
        const sd_node *v = at(values, k->ptr);
        sd_vresult mine = SD_VRESULT_INIT;
        sd_buf dk = SD_BUF_INIT;
        if (!v || v->kind == SD_NULL || (schema && !schema_open(st->types, schema, k->ptr)))
            continue;
        dotted(&dk, k->ptr);
        if ((err = sd_k8s_check(st->types, k, v, dk.ptr, &mine)) >= 0)
            err = move(res, &mine);
        sd_vresult_release(&mine);
        sd_buf_release(&dk);
    }
    return err < 0 ? err : 0;
}

void sd_check__k8s_free(sd_check_k8s *st)
{
    if (!st)
        return;
    sd_k8s_keys_release(&st->keys);
    sd_k8s_chart_places_release(&st->places);
    sd_k8s_types_free(st->types);
    free(st);
}
