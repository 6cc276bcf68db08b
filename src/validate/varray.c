/* SPDX-License-Identifier: Apache-2.0 */
/* varray.c - the array keywords of the validator's walk (vwalk.h):
 * minItems, maxItems, uniqueItems (every item equal to an earlier one, by
 * value: vequal.c), prefixItems and items (draft 4 to 2019's array form
 * compiled into prefixItems, additionalItems into items), then `contains`
 * with minContains and maxContains. A record and a tape list in, a verdict
 * out, and the items evaluated marked for unevaluated* (JSON Schema core
 * 2020-12 §10.3.1, validation §6.4). */
#include "vwalk.h"
#include "vmsg.h"

/* uniqueItems: every item equal to an earlier one is reported (the first
 * only without a result list). */
typedef struct udup { vctx *c; const vs *s; const sd_tval *inst; } udup;

static int unique_found(void *arg, size_t i, size_t j, const sd_tval *item)
{
    udup *u = arg;
    if (!u->c->res)
        return 0;   /* the verdict is known: stop */
    path_push(u->c, NULL, i);
    sd_vwalk__err(u->c, u->s, "uniqueItems", item, NULL, SD_MSG_UNIQUE, i, j);
    u->c->npath--;
    return 1;
}

static int unique_check(vctx *c, const vs *s, const sd_tval *inst)
{
    udup u = { c, s, inst };
    int n = sd_vprog__duplicates(inst, unique_found, &u);
    if (n < 0)
        return sd_vwalk__fatal(c, ILOC(c, inst), SD_ENOMEM, "out of memory");
    return n == 0;
}

int sd_vwalk__array(vctx *c, const vs *s, const sd_tval *inst, uint8_t *L)
{
    int ok = 1;
    size_t n = inst->len, i;
    if (s->mini >= 0 && n < (size_t)s->mini) {
        ok = 0; if (!c->res) return 0;
        sd_vwalk__err(c, s, "minItems", inst, NULL, SD_MSG_MIN_ITEMS, n, s->mini);
    }
    if (s->maxi >= 0 && n > (size_t)s->maxi) {
        ok = 0; if (!c->res) return 0;
        sd_vwalk__err(c, s, "maxItems", inst, NULL, SD_MSG_MAX_ITEMS, n, s->maxi);
    }
    if (s->unique && !unique_check(c, s, inst)) {
        ok = 0; if (!c->res) return 0;
    }
    const sd_tval *x = inst + 1;
    for (i = 0; i < n && i < s->nprefix; i++, x = sd_tval_next(x)) {
        if (path_push(c, NULL, i) < 0) return 0;
        if (!sd_vwalk__node(c, s->prefix[i], x, NULL)) { ok = 0; if (!c->res) { c->npath--; return 0; } }
        c->npath--;
        if (L) BIT_SET(L, i);
    }
    if (s->items) {
        for (; i < n; i++, x = sd_tval_next(x)) {
            if (path_push(c, NULL, i) < 0) return 0;
            if (!v_child(c, s->items, x)) { ok = 0; if (!c->res) { c->npath--; return 0; } }
            c->npath--;
            if (L) BIT_SET(L, i);
        }
    }
    if (s->contains) {
        sd_vresult *saved = c->res;
        long long count = 0;
        c->res = NULL;
        x = inst + 1;
        for (i = 0; i < n; i++, x = sd_tval_next(x)) {
            if (path_push(c, NULL, i) < 0) { c->res = saved; return 0; }
            if (sd_vwalk__node(c, s->contains, x, NULL)) {
                count++;
                if (L && s->draft >= SD_DRAFT_2020) BIT_SET(L, i);
                else if (!L && s->maxc < 0 && count >= s->minc) { c->npath--; break; }
            }
            c->npath--;
        }
        c->res = saved;
        if (count < s->minc) {
            ok = 0; if (!c->res) return 0;
            if (count == 0)
                sd_vwalk__err(c, s, "contains", inst, NULL, SD_MSG_CONTAINS);
            else
                sd_vwalk__err(c, s, "minContains", inst, NULL, SD_MSG_MIN_CONTAINS, count, s->minc);
        }
        if (s->maxc >= 0 && count > s->maxc) {
            ok = 0; if (!c->res) return 0;
            sd_vwalk__err(c, s, "maxContains", inst, NULL, SD_MSG_MAX_CONTAINS, count, s->maxc);
        }
    }
    return ok;
}
