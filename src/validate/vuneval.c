/* SPDX-License-Identifier: Apache-2.0 */
/* vuneval.c - unevaluatedProperties and unevaluatedItems in the validator's
 * walk (vwalk.h), checked after every other keyword of a record: the walk
 * keeps a bit per member or item (`L`, made by sd_vwalk__node() only where
 * a record has one of these keywords), set by whatever keyword evaluated
 * it, and these validate the members and items still unmarked, then mark
 * them (JSON Schema core 2020-12 §11). */
#include "vwalk.h"
#include "vmsg.h"

/* unevaluatedProperties and unevaluatedItems, last: they see what every
 * other keyword evaluated (`L`), and mark what they evaluate. */
int sd_vwalk__unevaluated(vctx *c, const vs *s, const sd_tval *inst, uint8_t *L)
{
    int ok = 1;
    if (s->uprops && vk(inst) == SD_MAP) {
        const sd_tval *key = inst + 1;
        for (size_t i = 0; i < inst->len; i++, key = sd_tval_next(key + 1)) {
            if (BIT_GET(L, i))
                continue;
            if (path_push(c, key, 0) < 0)
                return ok;   /* fatal: sd_vwalk__node() fails */
            const vs *u = s->uprops->alias ? s->uprops->alias : s->uprops;
            if (u->kind == VS_FALSE) {
                ok = 0;
                if (!c->res) { c->npath--; return 0; }
                sd_vwalk__err(c, s, "unevaluatedProperties", key, key, SD_MSG_UNEVALUATED, key->u.s);
            } else if (!sd_vwalk__node(c, s->uprops, key + 1, NULL)) {
                ok = 0;
                if (!c->res) { c->npath--; return 0; }
            }
            c->npath--;
            BIT_SET(L, i);
        }
    }
    if (s->uitems && vk(inst) == SD_SEQ) {
        const sd_tval *x = inst + 1;
        for (size_t i = 0; i < inst->len; i++, x = sd_tval_next(x)) {
            if (BIT_GET(L, i))
                continue;
            if (path_push(c, NULL, i) < 0)
                return ok;   /* fatal: sd_vwalk__node() fails */
            if (!sd_vwalk__node(c, s->uitems, x, NULL)) {
                ok = 0;
                if (!c->res) { c->npath--; return 0; }
            }
            c->npath--;
            BIT_SET(L, i);
        }
    }
    return ok;
}
