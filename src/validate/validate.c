/* SPDX-License-Identifier: Apache-2.0 */
/* validate.c - the validator's program (vprog.h) + an instance -> violations.
 *
 * This is the walk: it recurses along the instance and the schema together,
 * with a depth bound, a dynamic scope ($dynamicRef, $recursiveRef) and a
 * stack of the $refs taken on the current instance node (vapply.c): meeting
 * the same target on the same node again is a loop without progress and
 * stops with SD_ELIMIT. At each record it runs the families of checks in
 * order (vwalk.h: vtype.c, vnumber.c, vstring.c, vobject.c, varray.c,
 * vapply.c, vuneval.c). Evaluated properties/items (for unevaluated*) are
 * bitmaps over the instance's members, built only where a schema asks for
 * them. With no result list the walk short-circuits at the first failure;
 * error details are computed only on the failure path (JSON Schema core
 * 2020-12 §7, §10, §11; validation §6). */
#include "vwalk.h"
#include "vmsg.h"

#include <stdlib.h>

/* A loop of $refs is a fault of the schema: report it at the first $ref. */
static sd_loc loop_at(const vs *s)
{
    const sd_node *n = s->info ? s->info->node : NULL;
    const sd_node *r = n && n->kind == SD_MAP ? sd_node_get(n, "$ref") : NULL;
    return r ? r->loc : n ? n->loc : NOWHERE;
}

/* The keywords of the value's own kind (strings, numbers, objects, arrays). */
static int v_kind(vctx *c, const vs *s, const sd_tval *inst, uint8_t *L)
{
    switch (vk(inst)) {
    case SD_STR: return !(s->need & N_STR) || sd_vwalk__string(c, s, inst);
    case SD_INT: case SD_FLOAT: return !(s->need & N_NUM) || sd_vwalk__number(c, s, inst);
    case SD_MAP: return !(s->need & N_OBJ) || sd_vwalk__object(c, s, inst, L);
    case SD_SEQ: return !(s->need & N_ARR) || sd_vwalk__array(c, s, inst, L);
    default: return 1;
    }
}

/* The order of a record's checks: its type, enum and const, the keywords
 * of the value's kind, the applicators, unevaluated* last (they see what
 * every other keyword evaluated). */
int sd_vwalk__node(vctx *c, const vs *s, const sd_tval *inst, uint8_t *ev)
{
    uint8_t *L = ev, *own = NULL;
    int ok = 1, pushed = 0;
    size_t nbytes = 0;

    if (s->loop)
        return sd_vwalk__fatal(c, loop_at(s), SD_ELIMIT, SD_MSG_ALIAS_LOOP,
                               SPTR(s->info));
    if (s->alias) {
        /* a collapsed $ref is still an edge of the loop check */
        if (s->alias->kind == VS_SCHEMA && !s->alias->loop)
            return sd_vwalk__follow(c, s->alias, inst, ev, s, "$ref");
        s = s->alias;
    }
    if (s->loop)
        return sd_vwalk__fatal(c, loop_at(s), SD_ELIMIT, SD_MSG_ALIAS_LOOP,
                               SPTR(s->info));
    if (s->kind == VS_TRUE)
        return 1;
    if (s->kind == VS_FALSE) {
        sd_vwalk__err(c, s, "false", inst, NULL, SD_MSG_FALSE_SCHEMA);
        return 0;
    }
    if (!(s->need & (N_TYPE | N_ENUM | N_APPLY | need_by_kind[vk(inst)])))
        return 1;   /* nothing here applies to this kind of value */
    if (c->fatal)
        return 0;
    if (c->depth >= MAX_DEPTH)
        return sd_vwalk__fatal(c, ILOC(c, inst), SD_ELIMIT, SD_MSG_DEPTH,
                               MAX_DEPTH, SPTR(s->info));
    c->depth++;
    if (c->v->has_dynamic && s->res && (c->nscope == 0 || c->scope[c->nscope - 1] != s->res)) {
        if (sd_grow((void **)&c->scope, &c->ascope, c->nscope + 1, sizeof *c->scope) < 0) {
            c->depth--;
            return sd_vwalk__fatal(c, ILOC(c, inst), SD_ENOMEM, "out of memory");
        }
        c->scope[c->nscope++] = s->res;
        pushed = 1;
    }
    if (s->has_uneval && (vk(inst) == SD_MAP || vk(inst) == SD_SEQ)) {
        nbytes = (inst->len + 7) / 8;
        if (!(own = calloc(nbytes ? nbytes : 1, 1))) {
            ok = sd_vwalk__fatal(c, ILOC(c, inst), SD_ENOMEM, "out of memory");
            goto out;
        }
        L = own;
    }
    if ((s->need & (N_TYPE | N_ENUM)) && !sd_vwalk__value(c, s, inst)) { ok = 0; if (!c->res) goto out; }
    if (!v_kind(c, s, inst, L)) { ok = 0; if (!c->res) goto out; }
    if (!(s->need & N_APPLY))
        goto out;
    if (!sd_vwalk__apply(c, s, inst, L, nbytes)) { ok = 0; if (!c->res) goto out; }
    if (!sd_vwalk__unevaluated(c, s, inst, L))
        ok = 0;
out:
    if (own) {
        if (ev)
            for (size_t k = 0; k < nbytes; k++)
                ev[k] |= own[k];
        free(own);
    }
    if (pushed)
        c->nscope--;
    c->depth--;
    if (c->fatal)
        return 0;
    return ok;
}

int sd_validate(sd_validator *v, const sd_node *instance, sd_vresult *res, sd_diags *diags)
{
    return sd_validate_entry(v, 0, instance, res, diags);
}

int sd_validate_entry(sd_validator *v, size_t entry, const sd_node *instance, sd_vresult *res,
                      sd_diags *diags)
{
    sd_tape t;
    int err;

    if (!instance)   /* an empty document has no root (sd_doc_root) */
        return sd_diag_error(diags, SD_EUSAGE, (sd_loc){ NULL, 0, 0 }, "no value to validate: the document is empty");
    if (entry >= v->nroots)
        return sd_diag_error(diags, SD_EINVALID, instance->loc, "no schema to validate against");
    if ((err = sd_tape_from_node(&t, instance)) < 0)
        return sd_diag_error(diags, err, instance->loc, err == SD_ENOMEM ? "out of memory" : "the value is too large to validate");
    err = sd_validate_tape(v, entry, &t, res, diags);
    sd_tape_free(&t);
    return err;
}

int sd_validate_tape(sd_validator *v, size_t entry, sd_tape *instance, sd_vresult *res, sd_diags *diags)
{
    vctx c;
    int ok;

    if (!instance->n)
        return sd_diag_error(diags, SD_EUSAGE, (sd_loc){ NULL, 0, 0 }, "no value to validate: the document is empty");
    if (entry >= v->nroots)
        return sd_diag_error(diags, SD_EINVALID, sd_tape_loc(instance, instance->v), "no schema to validate against");
    memset(&c, 0, sizeof c);
    c.v = v;
    c.t = instance;
    c.res = res;
    c.max = v->opts.max_errors ? v->opts.max_errors : 1000;
    c.diags = diags;
    ok = sd_vwalk__node(&c, v->roots[entry], instance->v, NULL);
    free(c.path);
    free(c.scope);
    free(c.refs);
    if (c.fatal)
        return c.fatal;
    return ok ? 0 : SD_EINVALID;
}
