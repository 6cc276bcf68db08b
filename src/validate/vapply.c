/* SPDX-License-Identifier: Apache-2.0 */
/* vapply.c - the applicators of the validator's walk (vwalk.h): $ref
 * (with the stack of targets taken on the current value: the same target
 * on the same value again is a loop without progress and stops the walk),
 * $dynamicRef and $recursiveRef through the dynamic scope, allOf, anyOf and
 * oneOf (a failure names the branch that came closest), not, and
 * if/then/else. Branches are tried without a result list; what the passing
 * ones evaluated joins the caller's marks for unevaluated* (JSON Schema core
 * 2020-12 §8.2.3, §10.2). */
#include "vwalk.h"
#include "buf.h"
#include "vmsg.h"

#include <stdlib.h>

int sd_vwalk__follow(vctx *c, const vs *t, const sd_tval *inst, uint8_t *ev, const vs *from, const char *kw)
{
    int ok;
    for (size_t i = c->nrefs; i-- > 0 && c->refs[i].inst == inst;)
        if (c->refs[i].s == t)
            return sd_vwalk__fatal(c, ILOC(c, inst), SD_ELIMIT,
                                   SD_MSG_REF_LOOP,
                                   kw, SPTR(t->info), kw, SPTR(from->info));
    if (sd_grow((void **)&c->refs, &c->arefs, c->nrefs + 1, sizeof *c->refs) < 0)
        return sd_vwalk__fatal(c, ILOC(c, inst), SD_ENOMEM, "out of memory");
    c->refs[c->nrefs].s = t;
    c->refs[c->nrefs].inst = inst;
    c->nrefs++;
    ok = sd_vwalk__node(c, t, inst, ev);
    c->nrefs--;
    return ok;
}

static const vs *dynamic_target(vctx *c, const vs *s)
{
    sd_buf b = SD_BUF_INIT;
    const vs *t = s->dynref;
    for (size_t i = 0; i < c->nscope; i++) {
        sd_schema_info *res = c->scope[i], *a;
        if (s->dyn_kind == 2) {
            if (res->rec_anchor && res->user) { t = res->user; break; }
            continue;
        }
        sd_buf_clear(&b);
        sd_buf_printf(&b, "%s#%s", res->base, s->dyn_name);
        a = sd_resolver_lookup(c->v->r, b.ptr);
        if (a && a->dyn_anchor && strcmp(a->dyn_anchor, s->dyn_name) == 0 && a->user) {
            t = a->user;
            break;
        }
    }
    sd_buf_release(&b);
    return t;
}

/* anyOf/oneOf found no valid branch: say which came closest. */
static void report_closest(vctx *c, const vs *s, const char *kw, vs *const *br, size_t n,
                           const sd_tval *inst)
{
    sd_vresult *saved = c->res, best = SD_VRESULT_INIT;
    size_t bi = 0, bs = (size_t)-1, bmax = c->max;
    for (size_t i = 0; i < n; i++) {
        sd_vresult tmp = SD_VRESULT_INIT;
        size_t sc;
        c->res = &tmp;
        c->max = 20;
        sd_vwalk__node(c, br[i], inst, NULL);
        sc = sd_vprog__branch_score(&tmp, c->npath);
        if (sc < bs) {
            sd_vresult_release(&best);
            best = tmp;
            bs = sc;
            bi = i;
        } else {
            sd_vresult_release(&tmp);
        }
    }
    c->res = saved;
    c->max = bmax;
    if (best.count) {
        const sd_verror *e = &best.items[0];
        sd_vwalk__err(c, s, kw, inst, NULL, SD_MSG_CLOSEST,
                      n, kw, SPTR(s->info), kw, bi, e->key, e->message,
                      best.total > 1 ? SD_MSG_CLOSEST_MORE : "");
    } else {
        sd_vwalk__err(c, s, kw, inst, NULL, SD_MSG_NO_BRANCH, n, kw);
    }
    sd_vresult_release(&best);
}

/* What each applicator does with a failure: it counts, and when there is
 * no result to fill (a branch of anyOf being tried, c->res NULL) the first
 * one decides. */
#define FAIL(ok) do { (ok) = 0; if (!c->res) return 0; } while (0)

/* anyOf: every branch tried without a result; what the passing ones
 * evaluated joins `L` (`nbytes`: its size when sd_vwalk__node() made it). */
static int v_any_of(vctx *c, const vs *s, const sd_tval *inst, uint8_t *L, size_t nbytes)
{
    sd_vresult *saved = c->res;
    int any = 0;
    uint8_t *T = L ? malloc(nbytes ? nbytes : (inst->len + 7) / 8 + 1) : NULL;
    size_t tb = L ? (inst->len + 7) / 8 : 0;
    c->res = NULL;
    for (size_t i = 0; i < s->nany; i++) {
        if (T) memset(T, 0, tb);
        if (sd_vwalk__node(c, s->any[i], inst, T)) {
            any = 1;
            if (!L) break;
            for (size_t k = 0; k < tb; k++) L[k] |= T[k];
        }
    }
    free(T);
    c->res = saved;
    if (!any && c->res)
        report_closest(c, s, "anyOf", s->any, s->nany, inst);
    return any;
}

/* oneOf: exactly one branch passes; what it evaluated joins `L`. */
static int v_one_of(vctx *c, const vs *s, const sd_tval *inst, uint8_t *L)
{
    sd_vresult *saved = c->res;
    size_t tb = L ? (inst->len + 7) / 8 : 0, first = 0, second = 0, matches = 0;
    uint8_t *T = L ? malloc(tb + 1) : NULL, *keep = L ? calloc(tb + 1, 1) : NULL;
    c->res = NULL;
    for (size_t i = 0; i < s->none && matches < 2; i++) {
        if (T) memset(T, 0, tb);
        if (sd_vwalk__node(c, s->one[i], inst, T)) {
            if (matches++ == 0) {
                first = i;
                if (keep) memcpy(keep, T, tb);
            } else {
                second = i;
            }
        }
    }
    c->res = saved;
    if (matches == 1 && L)
        for (size_t k = 0; k < tb; k++) L[k] |= keep[k];
    free(T);
    free(keep);
    if (matches == 1)
        return 1;
    if (!c->res)
        return 0;
    if (matches == 0)
        report_closest(c, s, "oneOf", s->one, s->none, inst);
    else
        sd_vwalk__err(c, s, "oneOf", inst, NULL, SD_MSG_ONE_OF_MANY, SPTR(s->info), first, SPTR(s->info), second);
    return 0;
}

/* not */
static int v_not(vctx *c, const vs *s, const sd_tval *inst)
{
    sd_vresult *saved = c->res;
    int r;
    c->res = NULL;
    r = sd_vwalk__node(c, s->not_, inst, NULL);
    c->res = saved;
    if (r && c->res)
        sd_vwalk__err(c, s, "not", inst, NULL, SD_MSG_NOT, SPTR(s->info));
    return !r;
}

/* if, then, else: what `if` evaluated joins `L` when it passes. */
static int v_conditional(vctx *c, const vs *s, const sd_tval *inst, uint8_t *L)
{
    sd_vresult *saved = c->res;
    size_t tb = L ? (inst->len + 7) / 8 : 0;
    uint8_t *T = L ? calloc(tb + 1, 1) : NULL;
    int r;
    c->res = NULL;
    r = sd_vwalk__node(c, s->if_, inst, T);
    c->res = saved;
    if (r && L)
        for (size_t k = 0; k < tb; k++) L[k] |= T[k];
    free(T);
    if (r && s->then_)
        return sd_vwalk__node(c, s->then_, inst, L);
    if (!r && s->else_)
        return sd_vwalk__node(c, s->else_, inst, L);
    return 1;
}

/* The applicators: $ref, $dynamicRef / $recursiveRef, allOf, anyOf, oneOf,
 * not, if. */
int sd_vwalk__apply(vctx *c, const vs *s, const sd_tval *inst, uint8_t *L, size_t nbytes)
{
    int ok = 1;
    if (s->ref && !sd_vwalk__follow(c, s->ref, inst, L, s, "$ref"))
        FAIL(ok);
    if (s->dynref) {
        const vs *t = s->dyn_kind ? dynamic_target(c, s) : s->dynref;
        if (!sd_vwalk__follow(c, t, inst, L, s, s->dyn_kind == 2 ? "$recursiveRef" : "$dynamicRef"))
            FAIL(ok);
    }
    for (size_t i = 0; i < s->nall; i++)
        if (!sd_vwalk__node(c, s->all[i], inst, L))
            FAIL(ok);
    if (s->nany && !v_any_of(c, s, inst, L, nbytes))
        FAIL(ok);
    if (s->none && !v_one_of(c, s, inst, L))
        FAIL(ok);
    if (s->not_ && !v_not(c, s, inst))
        FAIL(ok);
    if (s->if_ && !v_conditional(c, s, inst, L))
        FAIL(ok);
    return ok;
}

#undef FAIL
