/* SPDX-License-Identifier: Apache-2.0 */
/* k8s_check.c - a values subtree against its Kubernetes type, as the API
 * server would take it once the chart hands it to a manifest: types
 * (a string where an integer is wanted is refused: JSON decoding into the
 * Go struct fails), the closed sets of strings (enum), required fields,
 * int32 ranges, quantities (resource.ParseQuantity) and IntOrString, and
 * fields the type does not have (the API server drops them with a warning,
 * or refuses them under strict field validation: a warning here, with the
 * closest field). `null` is Helm's "delete this key" and always passes.
 *
 * In: the types, a typed key, its value. Out: findings appended to an
 * sd_vresult (errors and warnings, the validator's shape), or only their
 * count (a dry run: does a default validate against the strict type). */
#include "k8s.h"
#include "alloc.h"
#include "ptr.h"
#include "vnamed.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 64
#define QUANTITY  "io.k8s.apimachinery.pkg.api.resource.Quantity"

typedef struct kc {
    const sd_k8s_types *t;
    const sd_k8s_key   *k;
    sd_vresult         *res;     /* NULL: count only */
    int                 n;       /* findings */
    int                 oom;
    sd_buf              ptr, dkey;
    const char         *def;     /* the definition being walked (full name) */
} kc;

static void record(kc *c, int error, sd_loc loc, int at_key, const char *msg)
{
    sd_vresult *r = c->res;
    c->n++;
    if (!r)
        return;
    sd_verror **arr = error ? &r->items : &r->warnings;
    size_t *cnt = error ? &r->count : &r->nwarnings, *alloc = error ? &r->alloc : &r->awarnings;
    if (error)
        r->total++;
    if (sd_grow((void **)arr, alloc, *cnt + 1, sizeof **arr) < 0) {
        c->oom = 1;
        return;
    }
    sd_verror *e = &(*arr)[(*cnt)++];
    sd_buf sp = SD_BUF_INIT;
    memset(e, 0, sizeof *e);
    sd_buf_puts(&sp, "#/definitions");
    sd_ptr_push(&sp, c->def, strlen(c->def));
    e->path = strdup(c->ptr.ptr);
    e->key = strdup(c->dkey.len ? c->dkey.ptr : "(root)");
    e->loc = loc;
    e->at_key = at_key;
    e->keyword = "kubernetes";
    e->message = strdup(msg);
    e->schema_path = sd_buf_detach(&sp);
    if (!e->path || !e->key || !e->message || !e->schema_path)
        c->oom = 1;
}

/* " (ResourceRequirements (core/v1); typed by ...)" */
static void tail(kc *c, sd_buf *m)
{
    sd_buf_puts(m, " [");
    sd_k8s_type_label(m, c->def);
    sd_buf_printf(m, "; typed by %s]", c->k->why);
}

static void show(sd_buf *m, const sd_node *n)
{
    switch (n->kind) {
    case SD_STR:
        sd_buf_printf(m, "string \"%.60s%s\"", n->str, n->len > 60 ? "..." : "");
        break;
    case SD_MAP: sd_buf_puts(m, "an object"); break;
    case SD_BOOL: sd_buf_puts(m, n->num.b ? "boolean true" : "boolean false"); break;   /* `y` is true */
    case SD_SEQ: sd_buf_puts(m, "an array"); break;
    default:
        sd_buf_printf(m, "%s %.60s", sd_node_type_word(n), n->str ? n->str : "");
        break;
    }
}

static void rejects(kc *c, const sd_node *v, const char *expected)
{
    sd_buf m = SD_BUF_INIT;
    if (!c->res) {
        c->n++;
        return;
    }
    sd_buf_puts(&m, "the Kubernetes API server rejects this at install: found ");
    show(&m, v);
    sd_buf_printf(&m, ", expected %s", expected);
    tail(c, &m);
    record(c, 1, v->loc, 0, m.ptr);
    sd_buf_release(&m);
}

static void walk(kc *c, const sd_node *v, const sd_node *s, int depth);

/* The closest field of `props` to `key` (edit distance), or NULL. */
static const char *closest(const sd_node *props, const char *key)
{
    size_t kl = strlen(key);
    unsigned best = (unsigned)(kl > 6 ? kl / 3 : 2) + 1;
    const char *name = NULL;
    for (uint32_t i = 0; props && i < props->n; i++) {
        const sd_node *pk = props->items[i].key;
        unsigned d = sd_edit_distance(key, kl, pk->str, pk->len);
        if (d < best && d < kl) {
            best = d;
            name = pk->str;
        }
    }
    return name;
}

static void push(kc *c, const char *key, size_t idx, size_t *pm, size_t *dm);
static void pop(kc *c, size_t pm, size_t dm);

static void unknown_field(kc *c, const sd_pair *p, const sd_node *props)
{
    sd_buf m = SD_BUF_INIT;
    const char *near;
    size_t pm, dm;
    if (!c->res) {
        c->n++;
        return;
    }
    sd_buf_printf(&m, "unknown field `%s` of ", p->key->str);
    sd_k8s_type_label(&m, c->def);
    sd_buf_puts(&m, ": the Kubernetes API server drops it");
    if ((near = closest(props, p->key->str)))
        sd_buf_printf(&m, "; did you mean `%s`?", near);
    sd_buf_printf(&m, " [typed by %s]", c->k->why);
    push(c, p->key->str, 0, &pm, &dm);
    record(c, 0, p->key->loc, 1, m.ptr);
    pop(c, pm, dm);
    sd_buf_release(&m);
}

static void push(kc *c, const char *key, size_t idx, size_t *pm, size_t *dm)
{
    *pm = c->ptr.len;
    *dm = c->dkey.len;
    if (key) {
        sd_ptr_push(&c->ptr, key, strlen(key));
        sd_buf_printf(&c->dkey, "%s%s", c->dkey.len ? "." : "", key);
    } else {
        sd_buf_printf(&c->ptr, "/%zu", idx);
        sd_buf_printf(&c->dkey, "[%zu]", idx);
    }
}

static void pop(kc *c, size_t pm, size_t dm)
{
    sd_buf_truncate(&c->ptr, pm);
    sd_buf_truncate(&c->dkey, dm);
}

static void check_object(kc *c, const sd_node *v, const sd_node *s, int depth)
{
    const sd_node *props = sd_node_get(s, "properties");
    const sd_node *addl = sd_node_get(s, "additionalProperties");
    const sd_node *req = sd_node_get(s, "required");
    size_t pm, dm;

    if (v->kind != SD_MAP) {
        rejects(c, v, "an object");
        return;
    }
    for (uint32_t i = 0; req && req->kind == SD_SEQ && i < req->n; i++) {
        const sd_node *r = req->items[i].value;
        const sd_node *have = r->kind == SD_STR ? sd_node_get(v, r->str) : NULL;
        if (r->kind == SD_STR && (!have || have->kind == SD_NULL)) {
            sd_buf m = SD_BUF_INIT;
            if (!c->res) {
                c->n++;
                continue;
            }
            sd_buf_printf(&m, "the Kubernetes API server rejects this at install: required field `%s` is missing",
                          r->str);
            tail(c, &m);
            record(c, 1, v->loc, 0, m.ptr);
            sd_buf_release(&m);
        }
    }
    for (uint32_t i = 0; i < v->n; i++) {
        const sd_pair *p = &v->items[i];
        const sd_node *fs = props ? sd_node_get(props, p->key->str) : NULL;
        if (!fs && addl && addl->kind == SD_MAP)
            fs = addl;
        if (!fs) {
            if (props && !(addl && addl->kind == SD_BOOL && addl->num.b))
                unknown_field(c, p, props);
            continue;   /* a free-form object (no properties): any key */
        }
        push(c, p->key->str, 0, &pm, &dm);
        walk(c, p->value, fs, depth + 1);
        pop(c, pm, dm);
    }
}

static void check_scalar(kc *c, const sd_node *v, const sd_node *s, const char *type)
{
    const sd_node *en = sd_node_get(s, "enum");
    const char *fmt = sd_node_str(sd_node_get(s, "format"));

    if (!strcmp(type, "string")) {
        if (fmt && !strcmp(fmt, "int-or-string")) {
            if (v->kind == SD_INT)
                return;
            if (v->kind != SD_STR)
                rejects(c, v, "an integer or a string");
            else if (!sd_format__int_or_string(v->str, v->len)) {
                /* a name too long for a port's name (IANA service names,
                 * which the API server checks: at most 15 characters) */
                int name = v->len > 15;
                for (size_t i = 0; i < v->len && name; i++)
                    name = (v->str[i] >= 'a' && v->str[i] <= 'z') || (v->str[i] >= '0' && v->str[i] <= '9') ||
                           v->str[i] == '-';
                rejects(c, v, name ? "an integer or a port name of at most 15 characters (an IANA service name)"
                                   : "an integer, a port name (IANA service name) or a percentage");
            }
            return;
        }
        if (v->kind != SD_STR) {
            rejects(c, v, "string");
            return;
        }
        if (en && en->kind == SD_SEQ) {
            for (uint32_t i = 0; i < en->n; i++) {
                const sd_node *e = en->items[i].value;
                if (e->kind == SD_STR && e->len == v->len && !memcmp(e->str, v->str, v->len))
                    return;
            }
            sd_buf want = SD_BUF_INIT;
            sd_buf_puts(&want, "one of");
            for (uint32_t i = 0, first = 1; i < en->n; i++)
                if (en->items[i].value->len) {
                    sd_buf_printf(&want, "%s \"%s\"", first ? "" : ",", en->items[i].value->str);
                    first = 0;
                }
            rejects(c, v, want.ptr);
            sd_buf_release(&want);
        }
        return;
    }
    if (!strcmp(type, "integer")) {
        if (v->kind != SD_INT || v->big) {
            rejects(c, v, v->kind == SD_INT ? "an integer of 64 bits" : "integer");
            return;
        }
        if (fmt && !strcmp(fmt, "int32") && (v->num.i < INT32_MIN || v->num.i > INT32_MAX))
            rejects(c, v, "an integer of 32 bits");
        return;
    }
    if (!strcmp(type, "number")) {
        if (v->kind != SD_INT && v->kind != SD_FLOAT)
            rejects(c, v, "number");
        return;
    }
    if (!strcmp(type, "boolean") && v->kind != SD_BOOL)
        rejects(c, v, "boolean");
}

static void quantity(kc *c, const sd_node *v)
{
    if (v->kind == SD_INT || v->kind == SD_FLOAT)
        return;   /* Quantity's UnmarshalJSON takes a number too */
    if (v->kind != SD_STR)
        rejects(c, v, "a quantity");
    else if (!sd_format__quantity(v->str, v->len))
        rejects(c, v, sd_vnamed_words("quantity", NULL));   /* vnamed.h's words */
}

static void walk(kc *c, const sd_node *v, const sd_node *s, int depth)
{
    const char *ref, *type, *full = NULL, *outer = c->def;

    if (!v || !s || v->kind == SD_NULL || depth > MAX_DEPTH || c->oom)
        return;
    if ((ref = sd_node_str(sd_node_get(s, "$ref")))) {
        const char *name = strrchr(ref, '/');
        name = name ? name + 1 : ref;
        if (!(s = sd_k8s_types_def(c->t, name, strlen(name), &full)))
            return;
        if (!strcmp(full, QUANTITY)) {
            quantity(c, v);
            return;
        }
        c->def = full;
    } else if (depth == 0 && !strcmp(c->def, QUANTITY)) {
        quantity(c, v);   /* a key typed Quantity itself (`size: 8Gi`) */
        return;
    }
    if (sd_node_get(s, "x-kubernetes-preserve-unknown-fields")) {
        c->def = outer;
        return;   /* open where Kubernetes is open */
    }
    type = sd_node_str(sd_node_get(s, "type"));
    if (!type && (sd_node_get(s, "properties") || sd_node_get(s, "additionalProperties")))
        type = "object";
    if (!type)
        ;
    else if (!strcmp(type, "object"))
        check_object(c, v, s, depth);
    else if (!strcmp(type, "array")) {
        const sd_node *items = sd_node_get(s, "items");
        size_t pm, dm;
        if (v->kind != SD_SEQ)
            rejects(c, v, "an array");
        else
            for (uint32_t i = 0; i < v->n && !c->oom; i++) {
                push(c, NULL, i, &pm, &dm);
                walk(c, v->items[i].value, items, depth + 1);
                pop(c, pm, dm);
            }
    } else
        check_scalar(c, v, s, type);
    c->def = outer;
}

int sd_k8s_check(const sd_k8s_types *t, const sd_k8s_key *k, const sd_node *value,
                 const char *dkey, sd_vresult *res)
{
    kc c = { t, k, res, 0, 0, SD_BUF_INIT, SD_BUF_INIT, k->type };
    const sd_node *def = sd_k8s_types_def(t, k->type, strlen(k->type), NULL);
    size_t pm, dm;

    if (!def || !value)
        return 0;
    sd_buf_puts(&c.ptr, k->ptr);
    sd_buf_puts(&c.dkey, dkey ? dkey : "");
    if (k->list) {
        if (value->kind == SD_SEQ)
            for (uint32_t i = 0; i < value->n && !c.oom; i++) {
                push(&c, NULL, i, &pm, &dm);
                walk(&c, value->items[i].value, def, 0);
                pop(&c, pm, dm);
            }
        else if (value->kind != SD_NULL)
            rejects(&c, value, "an array");
    } else
        walk(&c, value, def, 0);
    if (sd_buf_failed(&c.ptr) || sd_buf_failed(&c.dkey))
        c.oom = 1;
    sd_buf_release(&c.ptr);
    sd_buf_release(&c.dkey);
    return c.oom ? SD_ENOMEM : c.n;
}
