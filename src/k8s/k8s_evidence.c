/* SPDX-License-Identifier: Apache-2.0 */
/* k8s_evidence.c - which values paths of a chart are of a Kubernetes type,
 * and on what evidence (docs/annotations.md, "Kubernetes types"):
 *   1. explicit: a `$ref` of the chart's schema into the Kubernetes schema
 *      (`.../_definitions.json#/definitions/io.k8s.api.core.v1.Affinity`,
 *      helm-values-schema-json's `$k8s/...`), or a `@schema` annotation of
 *      values.yaml naming the type (`$ref: ...`, or `k8s: Affinity`);
 *   2. the templates: the chart hands the value whole to a place of a
 *      manifest whose type is known (places.h, read by places.c);
 *   3. name and default: the key is named as the Kubernetes field
 *      (`resources`, `tolerations`...), and its default is not empty and
 *      passes the strict type. An empty default proves nothing.
 * The strongest evidence wins; `k8s: off` in a key's `@schema` annotation
 * leaves it untyped whatever the rest says.
 *
 * In: the types, the chart's values.yaml, schema and places. Out: the
 * typed keys, strings in their arena. */
#include "k8s.h"
#include "alloc.h"
#include "atschema.h"
#include "dialect.h"
#include "ptr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 40

typedef struct ev {
    const sd_k8s_types *t;
    const sd_k8s_chart *in;
    sd_k8s_keys        *out;
    sd_atschema         ats;
    const char        **off;     /* paths switched off (arena strings) */
    size_t              noff, aoff;
    int                 oom;
    sd_buf              ptr;
} ev;

/* Kubernetes field names and their types (PodSpec and Container fields
 * a chart hands on whole); two types: the default decides, in this order. */
static const struct byname { const char *key, *type, *type2; int list; } names[] = {
    { "resources", "io.k8s.api.core.v1.ResourceRequirements", NULL, 0 },
    { "affinity", "io.k8s.api.core.v1.Affinity", NULL, 0 },
    { "tolerations", "io.k8s.api.core.v1.Toleration", NULL, 1 },
    { "securityContext", "io.k8s.api.core.v1.SecurityContext", "io.k8s.api.core.v1.PodSecurityContext", 0 },
    { "livenessProbe", "io.k8s.api.core.v1.Probe", NULL, 0 },
    { "readinessProbe", "io.k8s.api.core.v1.Probe", NULL, 0 },
    { "startupProbe", "io.k8s.api.core.v1.Probe", NULL, 0 },
    { "lifecycle", "io.k8s.api.core.v1.Lifecycle", NULL, 0 },
    { "env", "io.k8s.api.core.v1.EnvVar", NULL, 1 },
    { "envFrom", "io.k8s.api.core.v1.EnvFromSource", NULL, 1 },
    { "volumes", "io.k8s.api.core.v1.Volume", NULL, 1 },
    { "volumeMounts", "io.k8s.api.core.v1.VolumeMount", NULL, 1 },
    { "imagePullSecrets", "io.k8s.api.core.v1.LocalObjectReference", NULL, 1 },
    { "topologySpreadConstraints", "io.k8s.api.core.v1.TopologySpreadConstraint", NULL, 1 },
};

static int is_off(const ev *e, const char *ptr)
{
    for (size_t i = 0; i < e->noff; i++)
        if (!strcmp(e->off[i], ptr))
            return 1;
    return 0;
}

/* Is `ptr` at or below a typed key? */
static int typed_at_or_below(const ev *e, const char *ptr)
{
    for (size_t i = 0; i < e->out->n; i++) {
        size_t l = strlen(e->out->v[i].ptr);
        if (!strncmp(e->out->v[i].ptr, ptr, l) && (ptr[l] == '\0' || ptr[l] == '/'))
            return 1;
    }
    return 0;
}

static void add(ev *e, const char *ptr, const char *type, int list, int evidence, const char *why)
{
    sd_k8s_keys *k = e->out;
    if (!ptr || !why) {   /* a buffer that could not grow made them */
        e->oom = 1;
        return;
    }
    for (size_t i = 0; i < k->n; i++)
        if (!strcmp(k->v[i].ptr, ptr)) {
            if (evidence >= k->v[i].evidence)
                return;   /* the stronger evidence stays */
            k->v[i].type = type;
            k->v[i].list = list;
            k->v[i].evidence = evidence;
            k->v[i].why = sd_arena_strdup(&k->arena, why);
            e->oom |= !k->v[i].why;
            return;
        }
    if (sd_grow((void **)&k->v, &k->cap, k->n + 1, sizeof *k->v) < 0) {
        e->oom = 1;
        return;
    }
    sd_k8s_key x = { 0 };
    x.ptr = sd_arena_strdup(&k->arena, ptr);
    x.type = type;
    x.list = list;
    x.evidence = evidence;
    x.why = sd_arena_strdup(&k->arena, why);
    if (!x.ptr || !x.why) {   /* never kept half made */
        e->oom = 1;
        return;
    }
    k->v[k->n++] = x;
}

/* ---- 1. explicit: the chart's schema -------------------------------------- */

/* A local `$ref` ("#/$defs/x") of `root`, followed; anything else: NULL. */
static const sd_node *local(const sd_node *root, const char *ref)
{
    sd_buf tok = SD_BUF_INIT;
    const sd_node *n = root;
    const char *p;

    if (ref[0] != '#')
        return NULL;
    for (p = ref + 1; *p == '/' && n;) {
        p = sd_ptr_next(&tok, p);
        n = sd_node_get(n, tok.ptr);
    }
    sd_buf_release(&tok);
    return *p ? NULL : n;
}

/* The Kubernetes type a property schema names, through local $refs
 * (*list: as its items). */
static const char *schema_type(const ev *e, const sd_node *root, const sd_node *s, int *list)
{
    const char *ref, *full;
    int hops = 0;

    *list = 0;
    while (s && (ref = sd_node_str(sd_node_get(s, "$ref")))) {
        if ((full = sd_k8s_types_ref(e->t, ref)))
            return full;
        if (ref[0] != '#' || hops++ >= 8)
            return NULL;
        s = local(root, ref);
    }
    if (!s)
        return NULL;
    const sd_node *all = sd_node_get(s, "allOf"), *items = sd_node_get(s, "items");
    for (uint32_t i = 0; all && all->kind == SD_SEQ && i < all->n; i++)
        if ((ref = sd_node_str(sd_node_get(all->items[i].value, "$ref"))) && (full = sd_k8s_types_ref(e->t, ref)))
            return full;
    if (items && items->kind == SD_MAP && (ref = sd_node_str(sd_node_get(items, "$ref"))) &&
        (full = sd_k8s_types_ref(e->t, ref))) {
        *list = 1;
        return full;
    }
    return NULL;
}

static void walk_schema(ev *e, const sd_node *root, const sd_node *s, int depth)
{
    const char *ref;
    int hops = 0;
    while (s && (ref = sd_node_str(sd_node_get(s, "$ref"))) && ref[0] == '#' && hops++ < 8)
        s = local(root, ref);
    const sd_node *props = s ? sd_node_get(s, "properties") : NULL;
    if (!props || props->kind != SD_MAP || depth > MAX_DEPTH || e->oom)
        return;
    for (uint32_t i = 0; i < props->n; i++) {
        const sd_pair *p = &props->items[i];
        size_t mark = e->ptr.len;
        int list;
        const char *type = schema_type(e, root, p->value, &list);
        sd_ptr_push(&e->ptr, p->key->str, p->key->len);
        if (type) {
            sd_buf why = SD_BUF_INIT;
            sd_buf_puts(&why, "the chart's schema: a $ref to ");
            sd_k8s_type_label(&why, type);
            sd_buf_printf(&why, " (%s:%d)", p->value->loc.file ? p->value->loc.file : "values.schema.json",
                          p->value->loc.line);
            add(e, e->ptr.ptr, type, list, SD_K8S_EXPLICIT, why.ptr);
            sd_buf_release(&why);
        } else
            walk_schema(e, root, p->value, depth + 1);
        sd_buf_truncate(&e->ptr, mark);
    }
}

/* ---- 1. explicit: `@schema` annotations; `k8s: off` ------------------------ */

/* `text` names a type: a $ref string, or "Affinity", "[]Toleration",
 * "core/v1.Probe". Returns the full name (*list set), NULL for none, and
 * "off" for the switch. */
static const char *named(const ev *e, const char *text, int is_ref, const sd_node *value, int *list)
{
    const char *full = NULL;
    size_t n;
    *list = value && value->kind == SD_SEQ;
    if (!text)
        return NULL;
    while (*text == ' ' || *text == '"' || *text == '\'')
        text++;
    n = strlen(text);
    while (n && (text[n - 1] == ' ' || text[n - 1] == '"' || text[n - 1] == '\''))
        n--;
    if (is_ref) {
        char buf[512];
        snprintf(buf, sizeof buf, "%.*s", (int)n, text);
        return sd_k8s_types_ref(e->t, buf);
    }
    if ((n == 3 && !strncmp(text, "off", 3)) || (n == 5 && !strncmp(text, "false", 5)))
        return "off";
    if (n > 2 && !strncmp(text, "[]", 2)) {
        text += 2, n -= 2;
        *list = 1;
    }
    return sd_k8s_types_def(e->t, text, n, &full) ? full : NULL;
}

static void annotated(ev *e, const sd_pair *p)
{
    const sd_atann *a = sd_atschema_get(&e->ats, p);
    const char *type = NULL;
    int list = 0;
    sd_loc at = { NULL, 0, 0 };

    if (!a)
        return;
    for (size_t i = 0; i < a->nparts && !type; i++) {
        int is_ref = !strcmp(a->parts[i].name, "$ref"), item = !strcmp(a->parts[i].name, "itemRef");
        if (is_ref || item || !strcmp(a->parts[i].name, "k8s"))
            if ((type = named(e, a->parts[i].value, is_ref || item, p->value, &list))) {
                at = a->parts[i].loc;
                list |= item;
            }
    }
    if (!type && a->block && a->block->kind == SD_MAP) {
        const sd_node *items = sd_node_get(a->block, "items");
        if ((type = named(e, sd_node_str(sd_node_get(a->block, "k8s")), 0, p->value, &list)) ||
            (type = named(e, sd_node_str(sd_node_get(a->block, "$ref")), 1, p->value, &list)))
            at = a->block_loc;
        else if (items && (type = named(e, sd_node_str(sd_node_get(items, "$ref")), 1, NULL, &list))) {
            list = 1;
            at = a->block_loc;
        }
    }
    if (!type)
        return;
    if (!strcmp(type, "off")) {
        if (sd_grow((void **)&e->off, &e->aoff, e->noff + 1, sizeof *e->off) < 0 ||
            !(e->off[e->noff++] = sd_arena_strdup(&e->out->arena, e->ptr.ptr)))
            e->oom = 1;
        return;
    }
    sd_buf why = SD_BUF_INIT;
    sd_buf_printf(&why, "an @schema annotation naming ");
    sd_k8s_type_label(&why, type);
    sd_buf_printf(&why, " (%s:%d)", at.file ? at.file : "values.yaml", at.line);
    add(e, e->ptr.ptr, type, list, SD_K8S_EXPLICIT, why.ptr);
    sd_buf_release(&why);
}

static void walk_annotations(ev *e, const sd_node *n, int depth)
{
    if (!n || n->kind != SD_MAP || depth > MAX_DEPTH || e->oom)
        return;
    for (uint32_t i = 0; i < n->n; i++) {
        size_t mark = e->ptr.len;
        sd_ptr_push(&e->ptr, n->items[i].key->str, n->items[i].key->len);
        annotated(e, &n->items[i]);
        walk_annotations(e, n->items[i].value, depth + 1);
        sd_buf_truncate(&e->ptr, mark);
    }
}

/* ---- 3. name and default ---------------------------------------------------- */

/* Does `v` pass `type` strictly (no error, no unknown field)? */
static int passes(ev *e, const char *type, int list, const sd_node *v)
{
    sd_k8s_key k = { e->ptr.ptr, type, list, SD_K8S_NAME, "", NULL };
    int n = sd_k8s_check(e->t, &k, v, NULL, NULL);
    if (n < 0)
        e->oom = 1;
    return n == 0;
}

/* Has the author annotated `n` or anything under it (`@schema`)? Then the
 * annotations say what the key is, not its name. */
static int has_ann(const ev *e, const sd_pair *p)
{
    const sd_atann *a = sd_atschema_get(&e->ats, p);
    return a && (a->nparts || a->has_block);
}

static int annotated_below(const ev *e, const sd_node *n, int depth)
{
    if (!n || (n->kind != SD_MAP && n->kind != SD_SEQ) || depth > MAX_DEPTH)
        return 0;
    for (uint32_t i = 0; i < n->n; i++)
        if (has_ann(e, &n->items[i]) || annotated_below(e, n->items[i].value, depth + 1))
            return 1;
    return 0;
}

static void walk_names(ev *e, const sd_node *n, int depth)
{
    if (!n || n->kind != SD_MAP || depth > MAX_DEPTH || e->oom)
        return;
    for (uint32_t i = 0; i < n->n; i++) {
        const sd_pair *p = &n->items[i];
        size_t mark = e->ptr.len;
        sd_ptr_push(&e->ptr, p->key->str, p->key->len);
        if (is_off(e, e->ptr.ptr) || typed_at_or_below(e, e->ptr.ptr)) {
            sd_buf_truncate(&e->ptr, mark);
            continue;
        }
        const struct byname *b = NULL;
        for (size_t j = 0; j < sizeof names / sizeof *names; j++)
            if (!strcmp(names[j].key, p->key->str))
                b = &names[j];
        const sd_node *v = p->value;
        int nonempty = v && (v->kind == SD_MAP || v->kind == SD_SEQ) && v->n > 0 &&
                       (v->kind == SD_SEQ) == (b && b->list);
        if (b && nonempty && !has_ann(e, p) && !annotated_below(e, v, 0)) {
            const char *type = passes(e, b->type, b->list, v) ? b->type
                             : b->type2 && passes(e, b->type2, b->list, v) ? b->type2 : NULL;
            if (type) {
                sd_buf why = SD_BUF_INIT;
                sd_buf_printf(&why, "its name and its default (%s:%d)", v->loc.file ? v->loc.file : "values.yaml",
                              v->loc.line);
                add(e, e->ptr.ptr, type, b->list, SD_K8S_NAME, why.ptr);
                sd_buf_release(&why);
                sd_buf_truncate(&e->ptr, mark);
                continue;
            }
        }
        walk_names(e, v, depth + 1);
        sd_buf_truncate(&e->ptr, mark);
    }
}

int sd_k8s_keys_scan(sd_k8s_keys *out, const sd_k8s_types *t, const sd_k8s_chart *in)
{
    ev e;
    sd_diags quiet = SD_DIAGS_INIT;   /* malformed annotations are the pages' to report */
    const sd_node *values = in->values ? sd_doc_root(in->values) : NULL;

    memset(&e, 0, sizeof e);
    e.t = t;
    e.in = in;
    e.out = out;
    e.ptr = (sd_buf)SD_BUF_INIT;
    if (in->schema)
        walk_schema(&e, in->schema, in->schema, 0);
    /* (a values file without `@schema` has no annotation to read: most) */
    if (sd_dialect_at_schema(in->values)) {
        int rc = sd_atschema_scan(&e.ats, in->values, &quiet);
        e.oom |= rc == SD_ENOMEM;
        if (rc == 0)
            walk_annotations(&e, values, 0);
    }
    /* 2. the templates (places.c, from the k8splaces branch): until it is
     * merged the caller passes an empty SD_K8S_PLACES_INIT */
    for (size_t i = 0; in->places && i < in->places->n; i++) {
        const sd_k8s_place *pl = &in->places->v[i];
        sd_buf why = SD_BUF_INIT;
        sd_buf_printf(&why, "the templates: %s:%d hands it to %s", pl->file, pl->line, pl->where);
        add(&e, pl->ptr, pl->type, pl->list, SD_K8S_TEMPLATE, why.ptr);
        sd_buf_release(&why);
        for (size_t j = 0; pl->omit && j < out->n; j++)
            if (!strcmp(out->v[j].ptr, pl->ptr) && out->v[j].evidence == SD_K8S_TEMPLATE &&
                !(out->v[j].omit = sd_arena_strdup(&out->arena, pl->omit)))
                e.oom = 1;
    }
    sd_buf_clear(&e.ptr);
    walk_names(&e, values, 0);
    /* the switch wins over every evidence */
    for (size_t i = 0; i < out->n;)
        if (is_off(&e, out->v[i].ptr))
            out->v[i] = out->v[--out->n];
        else
            i++;
    sd_diags_release(&quiet);
    sd_atschema_release(&e.ats);
    free(e.off);
    if (sd_buf_failed(&e.ptr))
        e.oom = 1;
    sd_buf_release(&e.ptr);
    if (e.oom) {
        sd_alloc_note_failure();
        return SD_ENOMEM;
    }
    return 0;
}

const sd_k8s_key *sd_k8s_keys_find(const sd_k8s_keys *k, const char *ptr)
{
    for (size_t i = 0; k && i < k->n; i++)
        if (!strcmp(k->v[i].ptr, ptr))
            return &k->v[i];
    return NULL;
}

void sd_k8s_keys_release(sd_k8s_keys *k)
{
    free(k->v);
    k->v = NULL;
    k->n = k->cap = 0;
    sd_arena_release(&k->arena);
}
