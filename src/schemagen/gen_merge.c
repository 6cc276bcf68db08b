/* SPDX-License-Identifier: Apache-2.0 */
/* gen_merge.c - merging schemas as helm-values-schema-json does (the items
 * of a list, several values files), and the root it finishes with: its
 * `.schema.yaml` settings, `$k8s/` references, closed objects, `global`,
 * `$schema` (buildJSONSchema, ensureCompliant). */
#include "gen_int.h"
#include "synth.h"

#include <stdlib.h>
#include <string.h>

static int is_one_of(const char *k, const char *const *list)
{
    for (; *list; list++)
        if (!strcmp(k, *list))
            return 1;
    return 0;
}

static const char *const merged_schemas[] = {
    "items", "additionalItems", "unevaluatedItems", "additionalProperties", "unevaluatedProperties", NULL
};
static const char *const merged_maps[] = {
    "properties", "patternProperties", "dependentSchemas", "$defs", "definitions", NULL
};
static const char *const ored[] = { "deprecated", "readOnly", "writeOnly", "uniqueItems", NULL };

sd_node *sd_gen__hvsj_merge(gen *g, sd_node *dest, sd_node *src)
{
    if (!dest)
        return src;
    if (!src)
        return dest;
    if (src->kind != SD_MAP || dest->kind != SD_MAP)
        return src;   /* a boolean schema takes the place (SetKind) */
    for (uint32_t i = 0; i < src->n && !g->oom; i++) {
        const char *k = src->items[i].key->str;
        sd_node *sv = src->items[i].value, *dv = sd_node_get(dest, k);
        if (!dv) {
            sd_gen__set(g, dest, k, sv);
        } else if ((!strcmp(k, "enum") || !strcmp(k, "required")) && dv->kind == SD_SEQ && sv->kind == SD_SEQ) {
            /* the union, the first list's order first */
            for (uint32_t j = 0; j < sv->n; j++) {
                uint32_t m = 0;
                while (m < dv->n && !sd_gen__equal(dv->items[m].value, sv->items[j].value))
                    m++;
                if (m == dv->n && sd_synth_push(g->out, dv, sv->items[j].value) < 0)
                    g->oom = 1;
            }
        } else if (is_one_of(k, merged_schemas)) {
            sd_gen__set(g, dest, k, sd_gen__hvsj_merge(g, dv, sv));
        } else if (is_one_of(k, merged_maps) && dv->kind == SD_MAP && sv->kind == SD_MAP) {
            for (uint32_t j = 0; j < sv->n; j++) {
                const char *pk = sv->items[j].key->str;
                sd_node *d2 = sd_node_get(dv, pk);
                sd_gen__set(g, dv, pk, d2 ? sd_gen__hvsj_merge(g, d2, sv->items[j].value) : sv->items[j].value);
            }
        } else if (is_one_of(k, ored) || k[0] == '\x01') {
            if (sv->kind == SD_BOOL && sv->num.b)
                sd_gen__set(g, dest, k, sv);
        } else if ((!strcmp(k, "dependentRequired") || !strcmp(k, "$vocabulary")) && dv->kind == SD_MAP &&
                   sv->kind == SD_MAP) {
            for (uint32_t j = 0; j < sv->n; j++)
                sd_gen__set(g, dv, sv->items[j].key->str, sv->items[j].value);
        } else {
            sd_gen__set(g, dest, k, sv);
        }
    }
    return dest;
}

/* ---- the union of two items' schemas ------------------------------------- */

/* Keywords that say what a value is without restricting it: the later
 * item's stand (as the tool's merge has it). */
static const char *const annotations[] = {
    "title", "description", "markdownDescription", "examples", "$comment", "deprecated", "readOnly",
    "writeOnly", "$id", "$anchor", NULL
};

/* The words of a `type` (a word or a list) appended to `types` unless there. */
static void add_types(gen *g, sd_node *types, const sd_node *t)
{
    for (uint32_t i = 0; t && i < (t->kind == SD_SEQ ? t->n : 1); i++) {
        const sd_node *w = t->kind == SD_SEQ ? t->items[i].value : t;
        if (w->kind == SD_STR && !sd_gen__has_type(types, w->str) && sd_synth_push(g->out, types, (sd_node *)w) < 0)
            g->oom = 1;
    }
}

sd_node *sd_gen__union(gen *g, sd_node *a, sd_node *b, int depth)
{
    if (!a || !b)
        return NULL;
    if (a->kind != SD_MAP || b->kind != SD_MAP || depth > 1000)
        return sd_gen__map(g);   /* a boolean schema: any value */
    sd_node *u = sd_gen__map(g);
    if (!u)
        return NULL;
    /* a's keys in a's order, then b's own */
    for (int side = 0; side < 2 && !g->oom; side++) {
        const sd_node *x = side ? b : a, *y = side ? a : b;
        for (uint32_t i = 0; i < x->n && !g->oom; i++) {
            const char *k = x->items[i].key->str;
            sd_node *xv = x->items[i].value, *yv = sd_node_get(y, k);
            if (side && yv)
                continue;   /* done from a's side */
            if (!strcmp(k, "type")) {
                sd_node *types;
                if (!yv || !(types = sd_gen__seq(g)))
                    continue;   /* the other item is of any type */
                add_types(g, types, side ? yv : xv);
                add_types(g, types, side ? xv : yv);
                sd_gen__set(g, u, k, types->n == 1 ? types->items[0].value : types);
            } else if (!strcmp(k, "properties") || !strcmp(k, "patternProperties")) {
                /* every key of either item; a key both have, the union of its two */
                sd_node *m = sd_gen__map(g);
                for (uint32_t j = 0; m && j < xv->n && xv->kind == SD_MAP; j++) {
                    sd_node *o = yv && yv->kind == SD_MAP ? sd_node_get(yv, xv->items[j].key->str) : NULL;
                    sd_gen__set(g, m, xv->items[j].key->str,
                                o ? (side ? sd_gen__union(g, o, xv->items[j].value, depth + 1)
                                          : sd_gen__union(g, xv->items[j].value, o, depth + 1))
                                  : xv->items[j].value);
                }
                for (uint32_t j = 0; m && yv && yv->kind == SD_MAP && j < yv->n; j++)
                    if (!sd_node_get(m, yv->items[j].key->str))
                        sd_gen__set(g, m, yv->items[j].key->str, yv->items[j].value);
                sd_gen__set(g, u, k, m);
            } else if (!strcmp(k, "items")) {
                /* an item without `items` is an empty list (or no list): any items fit it */
                sd_gen__set(g, u, k, !yv ? xv : side ? sd_gen__union(g, yv, xv, depth + 1)
                                               : sd_gen__union(g, xv, yv, depth + 1));
            } else if (!strcmp(k, "enum")) {
                if (!yv || xv->kind != SD_SEQ || yv->kind != SD_SEQ)
                    continue;
                sd_node *l = sd_gen__copy(g, xv);
                for (uint32_t j = 0; l && j < yv->n; j++) {
                    uint32_t m = 0;
                    while (m < l->n && !sd_gen__equal(l->items[m].value, yv->items[j].value))
                        m++;
                    if (m == l->n && sd_synth_push(g->out, l, yv->items[j].value) < 0)
                        g->oom = 1;
                }
                sd_gen__set(g, u, k, l);
            } else if (!strcmp(k, "required")) {
                /* required only where both items have it */
                sd_node *l = sd_gen__seq(g);
                for (uint32_t j = 0; l && yv && xv->kind == SD_SEQ && yv->kind == SD_SEQ && j < xv->n; j++) {
                    uint32_t m = 0;
                    while (m < yv->n && !sd_gen__equal(yv->items[m].value, xv->items[j].value))
                        m++;
                    if (m < yv->n && sd_synth_push(g->out, l, xv->items[j].value) < 0)
                        g->oom = 1;
                }
                if (l && l->n)
                    sd_gen__set(g, u, k, l);
            } else if (is_one_of(k, annotations) || k[0] == '\x01') {
                sd_gen__set(g, u, k, side || !yv ? xv : yv);   /* the later item's */
            } else if (yv && sd_gen__equal(xv, yv)) {
                sd_gen__set(g, u, k, xv);   /* a constraint (or default) both items share */
            }
            /* else: a constraint only one item has, or two that differ: the
             * union is not bound by it */
        }
    }
    return u;
}

/* ---- finishing the root ----------------------------------------------------- */

static const char *const one_schema[] = {
    "not", "if", "then", "else", "contentSchema", "contains", "items", "additionalItems", "unevaluatedItems",
    "propertyNames", "additionalProperties", "unevaluatedProperties", NULL
};
static const char *const schema_lists[] = { "allOf", "anyOf", "oneOf", "prefixItems", NULL };

/* Call fn on every subschema of `s` (maps only), as Schema.Subschemas(). */
static void each_sub(gen *g, sd_node *s, void (*fn)(gen *, sd_node *, int), int depth)
{
    if (!s || s->kind != SD_MAP || depth > 1000)
        return;
    for (uint32_t i = 0; i < s->n; i++) {
        const char *k = s->items[i].key->str;
        sd_node *v = s->items[i].value;
        if (is_one_of(k, one_schema)) {
            fn(g, v, depth + 1);
        } else if (is_one_of(k, schema_lists) && v->kind == SD_SEQ) {
            for (uint32_t j = 0; j < v->n; j++)
                fn(g, v->items[j].value, depth + 1);
        } else if (is_one_of(k, merged_maps) && v->kind == SD_MAP) {
            for (uint32_t j = 0; j < v->n; j++)
                fn(g, v->items[j].value, depth + 1);
        }
    }
}

static int is_type(const sd_node *s, const char *t)
{
    const sd_node *ty = sd_node_get(s, "type");
    if (ty && ty->kind == SD_STR)
        return !strcmp(ty->str, t);
    for (uint32_t i = 0; ty && ty->kind == SD_SEQ && i < ty->n; i++)
        if (ty->items[i].value->kind == SD_STR && !strcmp(ty->items[i].value->str, t))
            return 1;
    return 0;
}

void sd_gen__k8s_refs(gen *g, sd_node *s, int depth)
{
    sd_node *r;
    if (!s || s->kind != SD_MAP)
        return;
    each_sub(g, s, sd_gen__k8s_refs, depth);
    if (!(r = sd_node_get(s, "$ref")) || r->kind != SD_STR || strncmp(r->str, "$k8s", 4) != 0)
        return;
    const char *rest = r->str + 4;
    if ((*rest != '/' && *rest != '#' && *rest) || (*rest == '/' && (!rest[1] || rest[1] == '#')) ||
        *rest == '#' || !*rest) {
        sd_diag_warning(g->diags, r->loc, "`$ref: %s`: a `$k8s` alias needs a path ($k8s/FILE#POINTER)", r->str);
        return;
    }
    if (!g->o->k8s_version || !*g->o->k8s_version) {
        sd_diag_warning(g->diags, r->loc, "`$ref: %s` needs the Kubernetes schema version (`k8sSchemaVersion` "
                        "in .schema.yaml); left as written", r->str);
        return;
    }
    const char *tpl = g->o->k8s_url ? g->o->k8s_url
                    : "https://raw.githubusercontent.com/yannh/kubernetes-json-schema/master/{{ .K8sSchemaVersion }}/";
    sd_buf u = SD_BUF_INIT;
    for (const char *p = tpl; *p;) {
        const char *e;
        if (p[0] == '{' && p[1] == '{' && (e = strstr(p, "}}"))) {
            sd_buf_puts(&u, g->o->k8s_version);   /* the one field the template has */
            p = e + 2;
        } else {
            sd_buf_putc(&u, *p++);
        }
    }
    while (u.len && u.ptr[u.len - 1] == '/')
        u.len--;
    sd_buf_putc(&u, '/');
    sd_buf_puts(&u, rest + 1);
    sd_gen__set(g, s, "$ref", sd_gen__strn(g, u.ptr, u.len));
    sd_buf_release(&u);
}

/* A closed object: additionalProperties false, or unevaluatedProperties
 * false beside a $ref (from 2019-09 on, where $ref has siblings). */
static void close_object(gen *g, sd_node *s)
{
    if (sd_node_get(s, "$ref") && g->draft >= 2019) {
        if (!sd_node_get(s, "unevaluatedProperties"))
            sd_gen__set(g, s, "unevaluatedProperties", sd_gen__bool(g, 0));
    } else {
        sd_gen__set(g, s, "additionalProperties", sd_gen__bool(g, 0));
    }
}

static void compliant(gen *g, sd_node *s, int depth)
{
    if (!s || s->kind != SD_MAP)
        return;
    each_sub(g, s, compliant, depth);
    sd_node *t = sd_node_get(s, "type");
    if (t) {
        static const char *const types[] = { "array", "boolean", "integer", "null", "number", "object", "string",
                                             NULL };
        int bad = t->kind != SD_STR && t->kind != SD_SEQ;
        for (uint32_t i = 0; !bad && t->kind == SD_SEQ && i < t->n; i++)
            bad = t->items[i].value->kind != SD_STR || !is_one_of(t->items[i].value->str, types);
        if (!bad && t->kind == SD_STR)
            bad = !is_one_of(t->str, types);
        if (bad)
            sd_diag_warning(g->diags, t->loc, "`type` must be one of array, boolean, integer, null, number, "
                            "object, string (helm-values-schema-json refuses the schema)");
    }
    if (g->o->no_additional && !sd_node_get(s, "additionalProperties") && is_type(s, "object"))
        close_object(g, s);
    if (sd_node_get(s, "allOf") || sd_node_get(s, "anyOf") || sd_node_get(s, "oneOf") || sd_node_get(s, "not") ||
        sd_node_get(s, "const"))
        sd_gen__del(s, "type");
    sd_node *ref = sd_node_get(s, "$ref");
    if (g->draft <= 7 && ref) {
        uint32_t others = 0;
        for (uint32_t i = 0; i < s->n; i++)
            others += strcmp(s->items[i].key->str, "$ref") != 0 && s->items[i].key->str[0] != '\x01';
        if (others) {
            /* in draft 7 $ref overrides its siblings: both go under allOf */
            sd_node *clone = sd_gen__map(g), *only = sd_gen__map(g), *all = sd_gen__seq(g);
            for (uint32_t i = 0; clone && i < s->n; i++)
                if (strcmp(s->items[i].key->str, "$ref") != 0)
                    sd_gen__set(g, clone, s->items[i].key->str, s->items[i].value);
            sd_gen__set(g, only, "$ref", ref);
            if (all && (sd_synth_push(g->out, all, clone) < 0 || sd_synth_push(g->out, all, only) < 0))
                g->oom = 1;
            s->n = 0;
            s->keyidx = 0;
            sd_gen__set(g, s, "allOf", all);
        }
    }
}

static const char *schema_url(int draft)
{
    switch (draft) {
    case 4:    return "http://json-schema.org/draft-04/schema#";
    case 6:    return "http://json-schema.org/draft-06/schema#";
    case 7:    return "http://json-schema.org/draft-07/schema#";
    case 2019: return "https://json-schema.org/draft/2019-09/schema";
    default:   return "https://json-schema.org/draft/2020-12/schema";
    }
}

/* The root keys that must come first in the tree (the native writer keeps
 * the tree's order for the root's own keys after these). */
static void set_front(gen *g, sd_node *s, const char *k, sd_node *v)
{
    sd_gen__set(g, s, k, v);
}

sd_node *sd_gen__hvsj_finish(gen *g, sd_node *root)
{
    const sd_gen_opts *o = g->o;
    sd_node *r = sd_gen__map(g);

    if (!r)
        return NULL;
    /* the root as the tool assembles it, then the merged files' keys */
    if (o->root_id && *o->root_id)
        set_front(g, r, "$id", sd_gen__str(g, o->root_id));
    if (o->root_title && *o->root_title)
        set_front(g, r, "title", sd_gen__str(g, o->root_title));
    if (o->root_description && *o->root_description)
        set_front(g, r, "description", sd_gen__str(g, o->root_description));
    if (o->root_ref && *o->root_ref)
        set_front(g, r, "$ref", sd_gen__str(g, o->root_ref));
    r = sd_gen__hvsj_merge(g, r, root);
    sd_gen__k8s_refs(g, r, 0);
    if (o->root_additional)
        sd_gen__set(g, r, "additionalProperties", sd_gen__bool(g, o->root_additional == 2));
    else if (o->no_additional)
        close_object(g, r);
    compliant(g, r, 0);
    if (!o->no_global && !sd_node_get(sd_node_get(r, "properties"), "global")) {
        const sd_node *ap = sd_node_get(r, "additionalProperties"), *up = sd_node_get(r, "unevaluatedProperties");
        int closed = (ap && ap->kind == SD_BOOL && !ap->num.b) || (up && up->kind == SD_BOOL && !up->num.b) ||
                     (ap && ap->kind == SD_MAP && sd_node_get(ap, "type") && !is_type(ap, "object"));
        if (closed) {
            sd_node *gl = sd_gen__map(g), *t = sd_gen__seq(g), *props = sd_node_get(r, "properties");
            sd_gen__set(g, gl, "description", sd_gen__str(g, "Global values shared between all subcharts"));
            sd_gen__set(g, gl, "$comment", sd_gen__str(g, "Added automatically by 'helm schema' to allow this "
                        "chart to be used as a Helm dependency, as this schema would otherwise not allow "
                        "Helm's special 'global' values key."));
            if (t && (sd_synth_push(g->out, t, sd_gen__str(g, "object")) < 0 ||
                      sd_synth_push(g->out, t, sd_gen__str(g, "null")) < 0))
                g->oom = 1;
            sd_gen__set(g, gl, "type", t);
            if (!props) {
                props = sd_gen__map(g);
                sd_gen__set(g, r, "properties", props);
            }
            sd_gen__set(g, props, "global", gl);
        }
    }
    sd_gen__set(g, r, "$schema", sd_gen__str(g, schema_url(g->draft)));
    sd_gen__set(g, r, "type", sd_gen__str(g, "object"));
    return r;
}
