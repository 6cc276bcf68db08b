/* SPDX-License-Identifier: Apache-2.0 */
/* vobject.c - the object keywords of the validator's walk (vwalk.h):
 * minProperties, maxProperties, required, dependentRequired /
 * dependentSchemas / dependencies, then one pass over the members for
 * properties, patternProperties, additionalProperties (a key it refuses
 * gets a did-you-mean or the allowed keys) and propertyNames, and last
 * x-kubernetes-embedded-resource (vembedded.c). A record and a tape map
 * in, a verdict out, and the members evaluated marked for unevaluated*
 * (JSON Schema core 2020-12 §10.3.2, validation §6.5). */
#include "vwalk.h"
#include "buf.h"
#include "vmsg.h"

static void unexpected_key(vctx *c, const vs *s, const char *kw, const sd_tval *key)
{
    const vprop *best = NULL;
    unsigned bd = 999;
    for (size_t i = 0; i < s->nprops; i++) {
        unsigned dd = sd_edit_distance(key->u.s, key->len, s->props[i].name, s->props[i].len);
        if (dd < bd) {
            bd = dd;
            best = &s->props[i];
        }
    }
    if (best && bd <= (key->len > 6 ? key->len / 3 : 2) && bd < key->len)
        sd_vwalk__err(c, s, kw, key, key, SD_MSG_UNEXPECTED_TYPO, key->u.s, best->name);
    else if (s->nprops && s->nprops <= 12) {
        sd_buf b = SD_BUF_INIT;
        for (size_t i = 0; i < s->nprops; i++)
            sd_buf_printf(&b, i ? SD_MSG_KEY_LIST_NEXT : SD_MSG_KEY_LIST_FIRST, s->props[i].name);
        sd_vwalk__err(c, s, kw, key, key, SD_MSG_UNEXPECTED_ALLOWED, key->u.s, b.ptr);
        sd_buf_release(&b);
    } else
        sd_vwalk__err(c, s, kw, key, key, SD_MSG_UNEXPECTED, key->u.s);
}

int sd_vwalk__object(vctx *c, const vs *s, const sd_tval *inst, uint8_t *L)
{
    int ok = 1;
    if (s->minp >= 0 && inst->len < (size_t)s->minp) {
        ok = 0; if (!c->res) return 0;
        sd_vwalk__err(c, s, "minProperties", inst, NULL, SD_MSG_MIN_PROPERTIES, (size_t)inst->len, s->minp);
    }
    if (s->maxp >= 0 && inst->len > (size_t)s->maxp) {
        ok = 0; if (!c->res) return 0;
        sd_vwalk__err(c, s, "maxProperties", inst, NULL, SD_MSG_MAX_PROPERTIES, (size_t)inst->len, s->maxp);
    }
    if (s->required && !s->nreq_fast) {
        for (size_t i = 0; i < s->required->n; i++) {
            const sd_node *r = s->required->items[i].value;
            if (r->kind == SD_STR && !map_get(inst, r->str, r->len)) {
                ok = 0; if (!c->res) return 0;
                sd_vwalk__err(c, s, "required", inst, NULL, SD_MSG_REQUIRED, r->str);
            }
        }
    }
    for (size_t i = 0; i < s->ndeps; i++) {
        const vdep *d = &s->deps[i];
        if (!map_get(inst, d->name, d->len))
            continue;
        if (d->req) {
            for (size_t j = 0; j < d->req->n; j++) {
                const sd_node *r = d->req->items[j].value;
                if (r->kind == SD_STR && !map_get(inst, r->str, r->len)) {
                    ok = 0; if (!c->res) return 0;
                    sd_vwalk__err(c, s, d->kw, inst, NULL, SD_MSG_DEPENDENT, r->str, d->name);
                }
            }
        }
        if (d->s && !sd_vwalk__node(c, d->s, inst, L)) {
            ok = 0; if (!c->res) return 0;
        }
    }
    if (s->nprops || s->npats || s->addl || s->pnames) {
        size_t nreq = 0;
        const sd_tval *key = inst + 1;
        for (size_t i = 0; i < inst->len; i++, key = sd_tval_next(key + 1)) {
            const sd_tval *val = key + 1;
            int matched = 0;
            if (path_push(c, key, 0) < 0)
                return 0;
            if (s->nprops) {
                const vprop *p = find_prop(s, key->u.s, key->len);
                if (p) {
                    matched = 1;
                    nreq += (size_t)p->req;
                    if (!v_child(c, p->s, val)) { ok = 0; if (!c->res) { c->npath--; return 0; } }
                }
            }
            for (size_t j = 0; j < s->npats; j++) {
                int m = sd_vwalk__match(c, &s->pats[j].re, key, s, "patternProperties");
                if (m < 0) { ok = 0; if (!c->res) { c->npath--; return 0; } continue; }
                if (m) {
                    matched = 1;
                    if (!sd_vwalk__node(c, s->pats[j].s, val, NULL)) { ok = 0; if (!c->res) { c->npath--; return 0; } }
                }
            }
            if (!matched && s->addl) {
                const vs *a = s->addl->alias ? s->addl->alias : s->addl;
                matched = 1;
                if (a->kind == VS_FALSE) {
                    ok = 0;
                    if (!c->res) { c->npath--; return 0; }
                    unexpected_key(c, s, "additionalProperties", key);
                } else if (!sd_vwalk__node(c, s->addl, val, NULL)) {
                    ok = 0; if (!c->res) { c->npath--; return 0; }
                }
            }
            if (matched && L)
                BIT_SET(L, i);
            if (s->pnames) {
                /* keys are strings in JSON Schema, whatever YAML typed them
                 * as: a tape's keys are strings (sd_tape_from_node) */
                if (!sd_vwalk__node(c, s->pnames, key, NULL)) {
                    ok = 0; if (!c->res) { c->npath--; return 0; }
                }
            }
            c->npath--;
        }
        if (s->nreq_fast && nreq < s->nreq_fast) {
            ok = 0; if (!c->res) return 0;
            for (size_t i = 0; i < s->required->n; i++) {
                const sd_node *r = s->required->items[i].value;
                if (r->kind == SD_STR && !map_get(inst, r->str, r->len))
                    sd_vwalk__err(c, s, "required", inst, NULL, SD_MSG_REQUIRED, r->str);
            }
        }
    }
    if (s->embedded && !sd_vwalk__embedded(c, s, inst)) {
        ok = 0; if (!c->res) return 0;
    }
    return ok;
}
