/* SPDX-License-Identifier: Apache-2.0 */
/* k8s_schema.c - the typed keys in a made schema (`schemadoc schema` in
 * schemadoc's own mode, and the schema made for a chart that ships none):
 * each typed key's property becomes a `$ref` to a `$defs` entry named
 * after its Kubernetes type ("#/$defs/io.k8s.api.core.v1.Affinity"), its
 * description and default kept; the definitions it needs are bundled
 * under `$defs`, their refs pointed there. Quantity and IntOrString take
 * what the API server takes (a number too; an integer too) with the
 * `quantity` and `int-or-string` formats. Never in `--like` output, which
 * stays the tools' own.
 *
 * In: a made schema (a synth document), the types, the typed keys. Out:
 * the schema changed in place. */
#include "k8s.h"
#include "ptr.h"
#include "synth.h"
#include "vnamed.h"

#include <stdlib.h>
#include <string.h>

#define QUANTITY  "io.k8s.apimachinery.pkg.api.resource.Quantity"
#define INTORSTR  "io.k8s.apimachinery.pkg.util.intstr.IntOrString"
#define MAX_DEPTH 64
/* quantity.c's grammars as ECMA-262 patterns: the named formats' table
 * (vnamed.h), whose words validate and the form give a value they refuse */
#define QUANTITY_RE SD_RE_QUANTITY
#define INTORSTR_RE SD_RE_INT_OR_STRING

typedef struct bundle {
    sd_doc             *doc;
    const sd_k8s_types *t;
    sd_node            *defs;   /* the schema's $defs */
    int                 oom;
} bundle;

static void need(bundle *b, const char *full);

/* A copy of definition `n` into the schema without its descriptions (the
 * pages link the API reference instead: a made schema stays small) nor
 * the API machinery's x-kubernetes-patch-* hints. Positions say where it
 * comes from: the types' own text is freed once the schema is made. */
static sd_node *lean(bundle *b, const sd_node *n, int depth)
{
    static const sd_loc at = { "(Kubernetes " SD_K8S_RELEASE " types)", 0, 0 };
    sd_node *c;

    if (depth > MAX_DEPTH || b->oom)
        return NULL;
    if (n->kind != SD_MAP && n->kind != SD_SEQ) {
        if (!(c = sd_synth_copy(b->doc, n)))
            b->oom = 1;
        else
            c->loc = at;
        return c;
    }
    if (!(c = n->kind == SD_MAP ? sd_synth_map(b->doc, at) : sd_synth_seq(b->doc, at))) {
        b->oom = 1;
        return NULL;
    }
    for (uint32_t i = 0; i < n->n && !b->oom; i++) {
        const sd_pair *p = &n->items[i];
        /* a field named "description" (under `properties`) is kept */
        if (p->key && ((!strcmp(p->key->str, "description") && p->value->kind == SD_STR) ||
                       !strncmp(p->key->str, "x-kubernetes-patch-", 19)))
            continue;
        sd_node *v = lean(b, p->value, depth + 1);
        if (!v || (p->key ? sd_synth_set(b->doc, c, p->key->str, v) : sd_synth_push(b->doc, c, v)) < 0)
            b->oom = 1;
    }
    return c;
}

/* "#/definitions/X" -> "#/$defs/X" everywhere under `n` (a copy), and the
 * definitions those name bundled too. */
static void repoint(bundle *b, sd_node *n, int depth)
{
    if (!n || depth > MAX_DEPTH || b->oom)
        return;
    if (n->kind == SD_MAP)
        for (uint32_t i = 0; i < n->n; i++) {
            sd_node *v = n->items[i].value;
            if (!strcmp(n->items[i].key->str, "$ref") && v->kind == SD_STR) {
                const char *full = sd_k8s_types_ref(b->t, v->str);
                if (!full)
                    continue;
                sd_buf r = SD_BUF_INIT;
                sd_buf_puts(&r, "#/$defs");
                sd_ptr_push(&r, full, strlen(full));
                sd_node *s = sd_synth_str(b->doc, v->loc, r.ptr);
                sd_buf_release(&r);
                if (!s) {
                    b->oom = 1;
                    return;
                }
                n->items[i].value = s;
                need(b, full);
            } else
                repoint(b, v, depth + 1);
        }
    else if (n->kind == SD_SEQ)
        for (uint32_t i = 0; i < n->n; i++)
            repoint(b, n->items[i].value, depth + 1);
}

static sd_node *list2(bundle *b, const char *x, const char *y)
{
    sd_node *l = sd_synth_seq(b->doc, (sd_loc){ NULL, 0, 0 });
    if (!l || sd_synth_push(b->doc, l, sd_synth_str(b->doc, l->loc, x)) < 0 ||
        sd_synth_push(b->doc, l, sd_synth_str(b->doc, l->loc, y)) < 0)
        b->oom = 1;
    return l;
}

static void need(bundle *b, const char *full)
{
    const sd_node *def;
    sd_node *copy;

    if (sd_node_get(b->defs, full) || b->oom)
        return;
    if (!(def = sd_k8s_types_def(b->t, full, strlen(full), NULL)))
        return;
    if (!strcmp(full, INTORSTR)) {
        /* its `format: int-or-string` would annotate what the pattern says */
        copy = sd_synth_map(b->doc, (sd_loc){ "(Kubernetes " SD_K8S_RELEASE " types)", 0, 0 });
    } else
        copy = lean(b, def, 0);
    if (!copy || sd_synth_set(b->doc, b->defs, full, copy) < 0) {
        b->oom = 1;
        return;
    }
    /* as the API server decodes them: a quantity may be a number, an
     * IntOrString an integer; their strings as a `pattern`, which asserts
     * in every draft (a `format` only annotates in 2019-09 and later) */
    if (!strcmp(full, QUANTITY)) {
        if (sd_synth_set(b->doc, copy, "type", list2(b, "string", "number")) < 0 ||
            sd_synth_set(b->doc, copy, "pattern", sd_synth_str(b->doc, copy->loc, QUANTITY_RE)) < 0)
            b->oom = 1;
    } else if (!strcmp(full, INTORSTR)) {
        if (sd_synth_set(b->doc, copy, "type", list2(b, "integer", "string")) < 0 ||
            sd_synth_set(b->doc, copy, "pattern", sd_synth_str(b->doc, copy->loc, INTORSTR_RE)) < 0)
            b->oom = 1;
    }
    repoint(b, copy, 0);
}

/* The property schema of values path `ptr` under `root`, through
 * `properties` only, with its parent map and index; NULL when absent. */
static sd_node *property(sd_node *root, const char *ptr, sd_node **parent, uint32_t *idx)
{
    sd_buf tok = SD_BUF_INIT;
    sd_node *s = root;
    while (s && *ptr == '/') {
        ptr = sd_ptr_next(&tok, ptr);
        sd_node *props = sd_node_get(s, "properties");
        s = NULL;
        for (uint32_t i = 0; props && props->kind == SD_MAP && i < props->n; i++)
            if (!strcmp(props->items[i].key->str, tok.ptr)) {
                *parent = props;
                *idx = i;
                s = props->items[i].value;
                break;
            }
    }
    sd_buf_release(&tok);
    return s;
}

/* The schema made for a chart that ships none, which every command uses:
 * a typed key's property left open (its words and default kept), so that
 * the inference from one default does not refuse what the Kubernetes type
 * takes (`port: 80` made `integer` refuses "http-port"); validate checks
 * the type as its layer (check_k8s.c). It still names the type, as a
 * `$ref` to an open `$defs` entry of that name, so the pages show it. */
static int open_keys(sd_doc *doc, const sd_k8s_keys *keys)
{
    sd_node *root = sd_doc_root(doc), *defs = NULL;
    for (size_t i = 0; i < keys->n; i++) {
        const sd_k8s_key *k = &keys->v[i];
        sd_node *parent = NULL, *old, *s, *ref;
        uint32_t idx = 0;
        if (!(old = property(root, k->ptr, &parent, &idx)) || old->kind != SD_MAP)
            continue;
        if (!defs && !(defs = sd_node_get(root, "$defs"))) {
            if (!(defs = sd_synth_map(doc, root->loc)) || sd_synth_set(doc, root, "$defs", defs) < 0)
                return SD_ENOMEM;
            defs = sd_node_get(root, "$defs");
        }
        if (!sd_node_get(defs, k->type)) {
            sd_node *open = sd_synth_map(doc, (sd_loc){ "(Kubernetes " SD_K8S_RELEASE " types)", 0, 0 });
            int scalar = !strcmp(k->type, QUANTITY) || !strcmp(k->type, INTORSTR);
            if (!open || (!scalar && sd_synth_set(doc, open, "type", sd_synth_str(doc, open->loc, "object")) < 0) ||
                sd_synth_set(doc, defs, k->type, open) < 0)
                return SD_ENOMEM;
        }
        sd_buf r = SD_BUF_INIT;
        sd_buf_puts(&r, "#/$defs");
        sd_ptr_push(&r, k->type, strlen(k->type));
        s = sd_synth_map(doc, old->loc);
        ref = sd_synth_map(doc, old->loc);
        int bad = !s || !ref || sd_synth_set(doc, ref, "$ref", sd_synth_str(doc, old->loc, r.ptr)) < 0;
        sd_buf_release(&r);
        if (bad)
            return SD_ENOMEM;
        static const char *const kept[] = { "title", "description", "default", "deprecated", "examples" };
        for (size_t j = 0; j < sizeof kept / sizeof *kept; j++) {
            sd_node *v = sd_node_get(old, kept[j]);
            if (v && sd_synth_set(doc, s, kept[j], v) < 0)
                return SD_ENOMEM;
        }
        if (k->list ? sd_synth_set(doc, s, "type", sd_synth_str(doc, old->loc, "array")) < 0 ||
                      sd_synth_set(doc, s, "items", ref) < 0
                    : sd_synth_set(doc, s, "$ref", sd_node_get(ref, "$ref")) < 0)
            return SD_ENOMEM;
        parent->items[idx].value = s;
    }
    return 0;
}

int sd_k8s_schema_bundle(sd_doc *doc, const sd_k8s_types *t, const sd_k8s_keys *keys)
{
    sd_node *root = sd_doc_root(doc);
    bundle b = { doc, t, NULL, 0 };

    if (!root || root->kind != SD_MAP || !keys->n)
        return 0;
    for (size_t i = 0; i < keys->n && !b.oom; i++) {
        const sd_k8s_key *k = &keys->v[i];
        sd_node *parent = NULL, *old;
        uint32_t idx = 0;
        if (!(old = property(root, k->ptr, &parent, &idx)) || old->kind != SD_MAP)
            continue;
        if (!b.defs) {
            if (!(b.defs = sd_node_get(root, "$defs"))) {
                if (!(b.defs = sd_synth_map(doc, root->loc)) || sd_synth_set(doc, root, "$defs", b.defs) < 0) {
                    b.oom = 1;
                    break;
                }
                b.defs = sd_node_get(root, "$defs");
            }
        }
        /* the property: its words and default kept, its shape the type's */
        sd_node *s = sd_synth_map(doc, old->loc), *ref;
        sd_buf r = SD_BUF_INIT;
        sd_buf_puts(&r, "#/$defs");
        sd_ptr_push(&r, k->type, strlen(k->type));
        ref = sd_synth_map(doc, old->loc);
        if (!s || !ref || sd_synth_set(doc, ref, "$ref", sd_synth_str(doc, old->loc, r.ptr)) < 0)
            b.oom = 1;
        sd_buf_release(&r);
        if (b.oom)
            break;
        static const char *const kept[] = { "title", "description", "default", "deprecated", "examples" };
        for (size_t j = 0; j < sizeof kept / sizeof *kept; j++) {
            sd_node *v = sd_node_get(old, kept[j]);
            if (v && sd_synth_set(doc, s, kept[j], v) < 0)
                b.oom = 1;
        }
        if (k->list) {
            if (sd_synth_set(doc, s, "type", sd_synth_str(doc, old->loc, "array")) < 0 ||
                sd_synth_set(doc, s, "items", ref) < 0)
                b.oom = 1;
        } else if (sd_synth_set(doc, s, "$ref", sd_node_get(ref, "$ref")) < 0)
            b.oom = 1;
        parent->items[idx].value = s;
        need(&b, k->type);
    }
    return b.oom ? SD_ENOMEM : 0;
}

int sd_k8s_chart_places(sd_k8s_places *out, const char *chart_dir)
{
    *out = (sd_k8s_places)SD_K8S_PLACES_INIT;
    return chart_dir ? sd_k8s_places_scan_dir(out, chart_dir) : 0;
}

void sd_k8s_chart_places_release(sd_k8s_places *p)
{
    /* sd_k8s_places_release(p) once places.c is merged */
    free(p->v);
    sd_arena_release(&p->arena);
    *p = (sd_k8s_places)SD_K8S_PLACES_INIT;
}

int sd_k8s_type_schema(sd_doc *schema, const sd_doc *values, const char *chart_dir, int open)
{
    sd_k8s_types *t = NULL;
    sd_k8s_keys k = SD_K8S_KEYS_INIT;
    sd_k8s_places pl;
    int err = sd_k8s_chart_places(&pl, chart_dir);
    sd_k8s_chart in = { values, NULL, &pl };

    if (!err && !(err = sd_k8s_types_open(&t)) && !(err = sd_k8s_keys_scan(&k, t, &in)))
        err = open ? open_keys(schema, &k) : sd_k8s_schema_bundle(schema, t, &k);
    sd_k8s_keys_release(&k);
    sd_k8s_chart_places_release(&pl);
    sd_k8s_types_free(t);
    return err;
}
