/* SPDX-License-Identifier: Apache-2.0 */
/* validate.c - the validator's program (vprog.h) + an instance -> violations.
 *
 * Validating recurses along the instance and the schema together, with a
 * depth bound, a dynamic scope ($dynamicRef, $recursiveRef) and a stack of
 * the $refs taken on the current instance node: meeting the same target on
 * the same node again is a loop without progress and stops with SD_ELIMIT.
 * Evaluated properties/items (for unevaluated*) are bitmaps over the
 * instance's members, built only where a schema asks for them. With no
 * result list the walk short-circuits at the first failure; error details
 * are computed only on the failure path (JSON Schema core 2020-12 §7, §10,
 * §11; validation §6). */
#include "vprog.h"
#include "alloc.h"
#include "buf.h"
#include "vmsg.h"
#include "vnamed.h"

#include <stdarg.h>
#include <stdlib.h>

/* A schema node's JSON pointer, built when a message needs it. */
#define SPTR(info) sd_schema_ptr(c->v->r, (info))

static size_t utf8_count(const char *s, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += ((unsigned char)s[i] & 0xC0) != 0x80;
    return c;
}

/* ---- validating -------------------------------------------------------- */

typedef struct vref { const vs *s; const sd_tval *inst; } vref;

typedef struct vctx {
    sd_validator *v;
    sd_tape *t;               /* the instance */
    sd_vresult *res;          /* NULL: verdict only */
    size_t max;
    vseg *path; size_t npath, apath;
    sd_schema_info **scope; size_t nscope, ascope;
    vref *refs; size_t nrefs, arefs;
    int depth;
    int fatal;
    sd_diags *diags;
} vctx;


/* Where value `x` of the instance starts (computed for messages only). */
#define ILOC(c, x) sd_tape_loc((c)->t, (x))
#define NOWHERE ((sd_loc){ NULL, 0, 0 })

static int fatal(vctx *c, sd_loc at, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static int fatal(vctx *c, sd_loc at, int code, const char *fmt, ...)
{
    sd_buf b = SD_BUF_INIT;
    va_list ap;
    if (c->fatal)
        return 0;
    c->fatal = code;
    va_start(ap, fmt);
    sd_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    sd_diag_error(c->diags, code, at, "%s", b.ptr);
    sd_buf_release(&b);
    return 0;
}

static inline int path_push(vctx *c, const sd_tval *key, size_t idx)
{
    if (c->npath >= c->apath && sd_grow((void **)&c->path, &c->apath, c->npath + 1, sizeof *c->path) < 0)
        return fatal(c, key ? ILOC(c, key) : NOWHERE, SD_ENOMEM, "out of memory"), -1;
    c->path[c->npath].key = key;
    c->path[c->npath].idx = idx;
    c->npath++;
    return 0;
}

/* One finding at value `inst` (or `at`, a key), appended to the result
 * (vreport.c makes the record). */
static void vrecord(vctx *c, int warn, const vs *s, const char *kw, const sd_tval *inst,
                    const sd_tval *at, const char *fmt, va_list ap)
{
    if (c->res)
        sd_vprog__record(c->v, c->res, c->max, warn, c->path, c->npath, s, kw, ILOC(c, at ? at : inst), fmt, ap);
}

static void verr(vctx *c, const vs *s, const char *kw, const sd_tval *inst,
                 const sd_tval *at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
static void verr(vctx *c, const vs *s, const char *kw, const sd_tval *inst,
                 const sd_tval *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vrecord(c, 0, s, kw, inst, at, fmt, ap);
    va_end(ap);
}

static void vwarn(vctx *c, const vs *s, const char *kw, const sd_tval *inst, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
static void vwarn(vctx *c, const vs *s, const char *kw, const sd_tval *inst, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vrecord(c, 1, s, kw, inst, NULL, fmt, ap);
    va_end(ap);
}


static int v_node(vctx *c, const vs *s, const sd_tval *inst, uint8_t *ev);

#define BIT_SET(b, i) ((b)[(i) >> 3] |= (uint8_t)(1u << ((i) & 7)))
#define BIT_GET(b, i) (((b)[(i) >> 3] >> ((i) & 7)) & 1u)

static int follow(vctx *c, const vs *t, const sd_tval *inst, uint8_t *ev, const vs *from, const char *kw)
{
    int ok;
    for (size_t i = c->nrefs; i-- > 0 && c->refs[i].inst == inst;)
        if (c->refs[i].s == t)
            return fatal(c, ILOC(c, inst), SD_ELIMIT,
                         SD_MSG_REF_LOOP,
                         kw, SPTR(t->info), kw, SPTR(from->info));
    if (sd_grow((void **)&c->refs, &c->arefs, c->nrefs + 1, sizeof *c->refs) < 0)
        return fatal(c, ILOC(c, inst), SD_ENOMEM, "out of memory");
    c->refs[c->nrefs].s = t;
    c->refs[c->nrefs].inst = inst;
    c->nrefs++;
    ok = v_node(c, t, inst, ev);
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

#define JIT_AFTER 32
#define POLY_NATIVE 512   /* src/form/rules_walk.js: longer strings meet poly patterns bounded */

static int re_match(vctx *c, const vre *cr, const sd_tval *str, const vs *s, const char *kw)
{
    vre *r = (vre *)cr;     /* its counter and lazily made automaton */
    pcre2_code *re = r->code;
    const char *src = r->src;
    if (r->uses <= JIT_AFTER && ++r->uses == JIT_AFTER) {
        /* a pattern used often enough gets its automaton (which costs
         * about as much as 100 short matches to make) and, where that does
         * not serve every string, PCRE2's JIT. Where the browser runs
         * RegExp, C runs the automaton; where the browser bounds its
         * matcher (docs/rules.md, "Bounds"), PCRE2 keeps its match limit,
         * and both give up alike. */
        if ((r->dfa = sd_ecma_dfa_compile(r->src, r->len))) {
            int risk = sd_ecma_dfa_risk(r->dfa);
            r->dfa_max = risk == SD_RE_LINEAR ? (size_t)-1 : POLY_NATIVE;
            if (risk == SD_RE_EXP) {
                sd_ecma_dfa_free(r->dfa);
                r->dfa = NULL;
            }
        }
        if ((!r->dfa || r->dfa_max != (size_t)-1) && c->v->jit)
            pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);  /* on failure the interpreter goes on */
    }
    if (r->dfa && str->len <= r->dfa_max) {
        int m = sd_ecma_dfa_match(r->dfa, str->u.s, str->len);
        if (m >= 0)
            return m;
    }
    /* the loaders checked UTF-8 already: skip PCRE2's per-match scan; the
     * JIT entry point skips the rest of pcre2_match's argument checks */
    int rc = c->v->jit && r->uses >= JIT_AFTER ? pcre2_jit_match(re, (PCRE2_SPTR)str->u.s, str->len, 0, 0, c->v->md, c->v->mctx)
                       : pcre2_match(re, (PCRE2_SPTR)str->u.s, str->len, 0, PCRE2_NO_UTF_CHECK, c->v->md, c->v->mctx);
    if (rc == PCRE2_ERROR_JIT_BADOPTION)  /* this pattern was not JIT-compiled */
        rc = pcre2_match(re, (PCRE2_SPTR)str->u.s, str->len, 0, PCRE2_NO_UTF_CHECK, c->v->md, c->v->mctx);
    if (rc >= 0)
        return 1;
    if (rc == PCRE2_ERROR_NOMATCH)
        return 0;
    if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT ||
        rc == PCRE2_ERROR_HEAPLIMIT || rc == PCRE2_ERROR_JIT_STACKLIMIT) {
        verr(c, s, kw, str, NULL, SD_MSG_PATTERN_LIMIT,
             src, c->v->opts.regex_match_limit ? c->v->opts.regex_match_limit : DEFAULT_MATCH_LIMIT);
        return -1;
    }
    verr(c, s, kw, str, NULL, SD_MSG_PATTERN_ERROR, src, rc);
    return -1;
}

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
        verr(c, s, kw, key, key, SD_MSG_UNEXPECTED_TYPO, key->u.s, best->name);
    else if (s->nprops && s->nprops <= 12) {
        sd_buf b = SD_BUF_INIT;
        for (size_t i = 0; i < s->nprops; i++)
            sd_buf_printf(&b, i ? SD_MSG_KEY_LIST_NEXT : SD_MSG_KEY_LIST_FIRST, s->props[i].name);
        verr(c, s, kw, key, key, SD_MSG_UNEXPECTED_ALLOWED, key->u.s, b.ptr);
        sd_buf_release(&b);
    } else
        verr(c, s, kw, key, key, SD_MSG_UNEXPECTED, key->u.s);
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
        v_node(c, br[i], inst, NULL);
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
        verr(c, s, kw, inst, NULL, SD_MSG_CLOSEST,
             n, kw, SPTR(s->info), kw, bi, e->key, e->message,
             best.total > 1 ? SD_MSG_CLOSEST_MORE : "");
    } else {
        verr(c, s, kw, inst, NULL, SD_MSG_NO_BRANCH, n, kw);
    }
    sd_vresult_release(&best);
}

static const uint8_t need_by_kind[] = { 0, 0, N_NUM, N_NUM, N_STR, N_OBJ, N_ARR };

/* 1 when `s` accepts `inst` by its type alone (a leaf such as
 * {"type": "string"}), decided without a call; 0 means "ask v_node". */
static inline int quick_ok(const vs *s, const sd_tval *inst)
{
    unsigned it;
    if (s->alias || s->kind != VS_SCHEMA)
        return s->kind == VS_TRUE && !s->alias;
    if (s->need & (N_ENUM | N_APPLY | need_by_kind[vk(inst)]))
        return 0;
    if (!(s->need & N_TYPE))
        return 1;
    if (s->int_or_string || s->nullable)
        return 0;
    it = inst_type(inst);
    return (s->types & it) || (it == T_INT && (s->types & T_NUM));
}

static int v_string(vctx *c, const vs *s, const sd_tval *inst);

/* A member's or an item's value under record `s`: accepted by its type
 * alone (quick_ok), or a string under a record without applicators, enum or
 * const whose type admits strings, which goes straight to the string
 * keywords (most values of a values file); v_node() for the rest. */
static inline int v_child(vctx *c, const vs *s, const sd_tval *inst)
{
    if (quick_ok(s, inst))
        return 1;
    if (vk(inst) == SD_STR && !s->alias && !s->loop && s->kind == VS_SCHEMA && !(s->need & (N_ENUM | N_APPLY)) &&
        (!(s->need & N_TYPE) || (s->types & T_STR) || s->int_or_string) && !c->fatal && c->depth < MAX_DEPTH)
        return !(s->need & N_STR) || v_string(c, s, inst);
    return v_node(c, s, inst, NULL);
}

/* x-kubernetes-embedded-resource: the object is a Kubernetes object of its
 * own, which must name a valid apiVersion and kind (format.c checks them). */
static int embedded_check(vctx *c, const vs *s, const sd_tval *inst)
{
    static const char *const keys[] = { "apiVersion", "kind" };
    int ok = 1;
    for (int k = 0; k < 2; k++) {
        const sd_tval *x = map_get(inst, keys[k], strlen(keys[k]));
        if (x && vk(x) == SD_STR && sd_format__k8s_name(k, x->u.s, x->len))
            continue;
        ok = 0;
        if (!c->res)
            return 0;
        if (!x) {
            verr(c, s, "x-kubernetes-embedded-resource", inst, NULL, SD_MSG_EMBEDDED_MISSING, keys[k]);
        } else if (path_push(c, x - 1, 0) == 0) {
            sd_buf b = SD_BUF_INIT;
            sd_vprog__show(&b, c->t, x);
            verr(c, s, "x-kubernetes-embedded-resource", x, NULL, k ? SD_MSG_EMBEDDED_KIND : SD_MSG_EMBEDDED_API,
                 b.ptr ? b.ptr : "");
            c->npath--;
            sd_buf_release(&b);
        }
    }
    return ok;
}

static int v_object(vctx *c, const vs *s, const sd_tval *inst, uint8_t *L)
{
    int ok = 1;
    if (s->minp >= 0 && inst->len < (size_t)s->minp) {
        ok = 0; if (!c->res) return 0;
        verr(c, s, "minProperties", inst, NULL, SD_MSG_MIN_PROPERTIES, (size_t)inst->len, s->minp);
    }
    if (s->maxp >= 0 && inst->len > (size_t)s->maxp) {
        ok = 0; if (!c->res) return 0;
        verr(c, s, "maxProperties", inst, NULL, SD_MSG_MAX_PROPERTIES, (size_t)inst->len, s->maxp);
    }
    if (s->required && !s->nreq_fast) {
        for (size_t i = 0; i < s->required->n; i++) {
            const sd_node *r = s->required->items[i].value;
            if (r->kind == SD_STR && !map_get(inst, r->str, r->len)) {
                ok = 0; if (!c->res) return 0;
                verr(c, s, "required", inst, NULL, SD_MSG_REQUIRED, r->str);
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
                    verr(c, s, d->kw, inst, NULL, SD_MSG_DEPENDENT, r->str, d->name);
                }
            }
        }
        if (d->s && !v_node(c, d->s, inst, L)) {
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
                int m = re_match(c, &s->pats[j].re, key, s, "patternProperties");
                if (m < 0) { ok = 0; if (!c->res) { c->npath--; return 0; } continue; }
                if (m) {
                    matched = 1;
                    if (!v_node(c, s->pats[j].s, val, NULL)) { ok = 0; if (!c->res) { c->npath--; return 0; } }
                }
            }
            if (!matched && s->addl) {
                const vs *a = s->addl->alias ? s->addl->alias : s->addl;
                matched = 1;
                if (a->kind == VS_FALSE) {
                    ok = 0;
                    if (!c->res) { c->npath--; return 0; }
                    unexpected_key(c, s, "additionalProperties", key);
                } else if (!v_node(c, s->addl, val, NULL)) {
                    ok = 0; if (!c->res) { c->npath--; return 0; }
                }
            }
            if (matched && L)
                BIT_SET(L, i);
            if (s->pnames) {
                /* keys are strings in JSON Schema, whatever YAML typed them
                 * as: a tape's keys are strings (sd_tape_from_node) */
                if (!v_node(c, s->pnames, key, NULL)) {
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
                    verr(c, s, "required", inst, NULL, SD_MSG_REQUIRED, r->str);
            }
        }
    }
    if (s->embedded && !embedded_check(c, s, inst)) {
        ok = 0; if (!c->res) return 0;
    }
    return ok;
}

/* uniqueItems: every item equal to an earlier one is reported (the first
 * only without a result list). */
typedef struct udup { vctx *c; const vs *s; const sd_tval *inst; } udup;

static int unique_found(void *arg, size_t i, size_t j, const sd_tval *item)
{
    udup *u = arg;
    if (!u->c->res)
        return 0;   /* the verdict is known: stop */
    path_push(u->c, NULL, i);
    verr(u->c, u->s, "uniqueItems", item, NULL, SD_MSG_UNIQUE, i, j);
    u->c->npath--;
    return 1;
}

static int unique_check(vctx *c, const vs *s, const sd_tval *inst)
{
    udup u = { c, s, inst };
    int n = sd_vprog__duplicates(inst, unique_found, &u);
    if (n < 0)
        return fatal(c, ILOC(c, inst), SD_ENOMEM, "out of memory");
    return n == 0;
}

static int v_array(vctx *c, const vs *s, const sd_tval *inst, uint8_t *L)
{
    int ok = 1;
    size_t n = inst->len, i;
    if (s->mini >= 0 && n < (size_t)s->mini) {
        ok = 0; if (!c->res) return 0;
        verr(c, s, "minItems", inst, NULL, SD_MSG_MIN_ITEMS, n, s->mini);
    }
    if (s->maxi >= 0 && n > (size_t)s->maxi) {
        ok = 0; if (!c->res) return 0;
        verr(c, s, "maxItems", inst, NULL, SD_MSG_MAX_ITEMS, n, s->maxi);
    }
    if (s->unique && !unique_check(c, s, inst)) {
        ok = 0; if (!c->res) return 0;
    }
    const sd_tval *x = inst + 1;
    for (i = 0; i < n && i < s->nprefix; i++, x = sd_tval_next(x)) {
        if (path_push(c, NULL, i) < 0) return 0;
        if (!v_node(c, s->prefix[i], x, NULL)) { ok = 0; if (!c->res) { c->npath--; return 0; } }
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
            if (v_node(c, s->contains, x, NULL)) {
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
                verr(c, s, "contains", inst, NULL, SD_MSG_CONTAINS);
            else
                verr(c, s, "minContains", inst, NULL, SD_MSG_MIN_CONTAINS, count, s->minc);
        }
        if (s->maxc >= 0 && count > s->maxc) {
            ok = 0; if (!c->res) return 0;
            verr(c, s, "maxContains", inst, NULL, SD_MSG_MAX_CONTAINS, count, s->maxc);
        }
    }
    return ok;
}

static int v_string(vctx *c, const vs *s, const sd_tval *inst)
{
    int ok = 1;
    /* n bytes of UTF-8 hold n/4 to n code points: count them only when
     * those bounds do not settle both limits */
    if ((s->minl >= 0 && (inst->len + 3) / 4 < (size_t)s->minl) ||
        (s->maxl >= 0 && inst->len > (size_t)s->maxl)) {
        size_t len = utf8_count(inst->u.s, inst->len);
        if (s->minl >= 0 && len < (size_t)s->minl) {
            ok = 0; if (!c->res) return 0;
            verr(c, s, "minLength", inst, NULL, SD_MSG_MIN_LENGTH, len, s->minl);
        }
        if (s->maxl >= 0 && len > (size_t)s->maxl) {
            ok = 0; if (!c->res) return 0;
            verr(c, s, "maxLength", inst, NULL, SD_MSG_MAX_LENGTH, len, s->maxl);
        }
    }
    if (s->pattern.code) {
        int m = re_match(c, &s->pattern, inst, s, "pattern");
        if (m == 0) {
            ok = 0; if (!c->res) return 0;
            const char *nm = sd_vnamed_words(NULL, s->pattern.src);   /* vnamed.h */
            sd_buf b = SD_BUF_INIT;
            sd_vprog__show(&b, c->t, inst);
            verr(c, s, "pattern", inst, NULL, nm ? SD_MSG_NAMED : SD_MSG_PATTERN, b.ptr, nm ? nm : s->pattern.src);
            sd_buf_release(&b);
        } else if (m < 0) {
            ok = 0; if (!c->res) return 0;
        }
    }
    if (s->format >= 0 && s->assert_format && !sd_format_check(s->format, inst->u.s, inst->len)) {
        ok = 0; if (!c->res) return 0;
        const char *nm = sd_vnamed_words(sd_format_name(s->format), NULL);
        sd_buf b = SD_BUF_INIT;
        sd_vprog__show(&b, c->t, inst);
        verr(c, s, "format", inst, NULL, nm ? SD_MSG_NAMED : SD_MSG_FORMAT, b.ptr, nm ? nm : sd_format_name(s->format));
        sd_buf_release(&b);
    } else if (s->format >= 0 && s->warn_format && c->res &&
               !sd_format_check(s->format, inst->u.s, inst->len)) {
        sd_buf b = SD_BUF_INIT;
        sd_vprog__show(&b, c->t, inst);
        vwarn(c, s, "format", inst, SD_MSG_FORMAT_WARN, b.ptr, sd_format_name(s->format), sd_draft_name(s->draft));
        sd_buf_release(&b);
    }
    return ok;
}

/* A number's text as written, for a message (NUL-terminated in `b`). */
static const char *numtext(const vctx *c, const sd_tval *x, sd_buf *b)
{
    size_t len;
    const char *s = sd_tape_text(c->t, x, &len);
    sd_buf_clear(b);
    if (s)
        sd_buf_put(b, s, len);
    return s ? b->ptr : NULL;
}

#define NUMTXT numtext(c, inst, &txt)

static int v_number(vctx *c, const vs *s, const sd_tval *inst)
{
    int ok = 1;
    sd_buf txt = SD_BUF_INIT;
    if (s->min && numcmp(inst, s->min) < 0) {
        ok = 0; if (!c->res) goto out;
        verr(c, s, "minimum", inst, NULL, SD_MSG_MINIMUM, NUMTXT, s->min->str);
    }
    if (s->max && numcmp(inst, s->max) > 0) {
        ok = 0; if (!c->res) goto out;
        verr(c, s, "maximum", inst, NULL, SD_MSG_MAXIMUM, NUMTXT, s->max->str);
    }
    if (s->exmin && numcmp(inst, s->exmin) <= 0) {
        ok = 0; if (!c->res) goto out;
        verr(c, s, s->draft == SD_DRAFT_4 ? "minimum" : "exclusiveMinimum", inst, NULL,
             SD_MSG_EXCLUSIVE_MINIMUM, NUMTXT, s->exmin->str);
    }
    if (s->exmax && numcmp(inst, s->exmax) >= 0) {
        ok = 0; if (!c->res) goto out;
        verr(c, s, s->draft == SD_DRAFT_4 ? "maximum" : "exclusiveMaximum", inst, NULL,
             SD_MSG_EXCLUSIVE_MAXIMUM, NUMTXT, s->exmax->str);
    }
    if (s->mult && !sd_vprog__multiple_of(c->t, inst, s->mult)) {
        ok = 0; if (!c->res) goto out;
        verr(c, s, "multipleOf", inst, NULL, SD_MSG_MULTIPLE_OF, NUMTXT, s->mult->str);
    }
out:
    sd_buf_release(&txt);
    return ok;
}

static int in_enum(const vs *s, const sd_tval *inst)
{
    const sd_tval *e = s->etape->v + 1;
    if (s->ehash) {
        uint64_t h = sd_vprog__hash(inst);
        for (size_t i = 0; i < s->etape->v->len; i++, e = sd_tval_next(e))
            if (s->ehash[i] == h && sd_vprog__equal(inst, e))
                return 1;
        return 0;
    }
    for (size_t i = 0; i < s->etape->v->len; i++, e = sd_tval_next(e))
        if (sd_vprog__equal(inst, e))
            return 1;
    return 0;
}

/* A loop of $refs is a fault of the schema: report it at the first $ref. */
static sd_loc loop_at(const vs *s)
{
    const sd_node *n = s->info ? s->info->node : NULL;
    const sd_node *r = n && n->kind == SD_MAP ? sd_node_get(n, "$ref") : NULL;
    return r ? r->loc : n ? n->loc : NOWHERE;
}

/* What each helper of v_node() does with a failure: it counts, and when
 * there is no result to fill (a branch of anyOf being tried, c->res NULL)
 * the first one decides. */
#define FAIL(ok) do { (ok) = 0; if (!c->res) return 0; } while (0)

/* The messages of a failed type, enum or const (not on the way of a value
 * that passes: v_node() checks, these explain). */
static void report_type(vctx *c, const vs *s, const sd_tval *inst, unsigned allowed)
{
    sd_buf b = SD_BUF_INIT;
    sd_vprog__type_names(&b, allowed);
    if (vk(inst) == SD_MAP || vk(inst) == SD_SEQ)
        verr(c, s, s->types ? "type" : "x-kubernetes-int-or-string", inst, NULL, SD_MSG_TYPE, sd_kind_type_word(vk(inst)), b.ptr);
    else {
        sd_buf val = SD_BUF_INIT;
        sd_vprog__show(&val, c->t, inst);
        verr(c, s, s->types ? "type" : "x-kubernetes-int-or-string", inst, NULL, SD_MSG_TYPE_VALUE,
             sd_kind_type_word(vk(inst)), val.ptr, b.ptr);
        sd_buf_release(&val);
    }
    sd_buf_release(&b);
}

static void report_enum(vctx *c, const vs *s, const sd_tval *inst)
{
    sd_buf b = SD_BUF_INIT, val = SD_BUF_INIT;
    const sd_tval *e = s->etape->v + 1;
    for (size_t i = 0; i < s->enum_->n && i < 12; i++, e = sd_tval_next(e)) {
        if (i) sd_buf_puts(&b, SD_MSG_ENUM_SEP);
        sd_vprog__show(&b, s->etape, e);
    }
    if (s->enum_->n > 12)
        sd_buf_printf(&b, SD_MSG_ENUM_MORE, (size_t)s->enum_->n - 12);
    sd_vprog__show(&val, c->t, inst);
    verr(c, s, "enum", inst, NULL, SD_MSG_ENUM, val.ptr, b.ptr);
    sd_buf_release(&b);
    sd_buf_release(&val);
}

static void report_const(vctx *c, const vs *s, const sd_tval *inst)
{
    sd_buf b = SD_BUF_INIT, val = SD_BUF_INIT;
    sd_vprog__show(&b, s->ctape, s->ctape->v);
    sd_vprog__show(&val, c->t, inst);
    verr(c, s, "const", inst, NULL, SD_MSG_CONST, val.ptr, b.ptr);
    sd_buf_release(&b);
    sd_buf_release(&val);
}

/* The keywords of the value's own kind (strings, numbers, objects, arrays). */
static int v_kind(vctx *c, const vs *s, const sd_tval *inst, uint8_t *L)
{
    switch (vk(inst)) {
    case SD_STR: return !(s->need & N_STR) || v_string(c, s, inst);
    case SD_INT: case SD_FLOAT: return !(s->need & N_NUM) || v_number(c, s, inst);
    case SD_MAP: return !(s->need & N_OBJ) || v_object(c, s, inst, L);
    case SD_SEQ: return !(s->need & N_ARR) || v_array(c, s, inst, L);
    default: return 1;
    }
}

/* anyOf: every branch tried without a result; what the passing ones
 * evaluated joins `L` (`nbytes`: its size when v_node() made it). */
static int v_any_of(vctx *c, const vs *s, const sd_tval *inst, uint8_t *L, size_t nbytes)
{
    sd_vresult *saved = c->res;
    int any = 0;
    uint8_t *T = L ? malloc(nbytes ? nbytes : (inst->len + 7) / 8 + 1) : NULL;
    size_t tb = L ? (inst->len + 7) / 8 : 0;
    c->res = NULL;
    for (size_t i = 0; i < s->nany; i++) {
        if (T) memset(T, 0, tb);
        if (v_node(c, s->any[i], inst, T)) {
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
        if (v_node(c, s->one[i], inst, T)) {
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
        verr(c, s, "oneOf", inst, NULL, SD_MSG_ONE_OF_MANY, SPTR(s->info), first, SPTR(s->info), second);
    return 0;
}

/* not */
static int v_not(vctx *c, const vs *s, const sd_tval *inst)
{
    sd_vresult *saved = c->res;
    int r;
    c->res = NULL;
    r = v_node(c, s->not_, inst, NULL);
    c->res = saved;
    if (r && c->res)
        verr(c, s, "not", inst, NULL, SD_MSG_NOT, SPTR(s->info));
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
    r = v_node(c, s->if_, inst, T);
    c->res = saved;
    if (r && L)
        for (size_t k = 0; k < tb; k++) L[k] |= T[k];
    free(T);
    if (r && s->then_)
        return v_node(c, s->then_, inst, L);
    if (!r && s->else_)
        return v_node(c, s->else_, inst, L);
    return 1;
}

/* The applicators: $ref, $dynamicRef / $recursiveRef, allOf, anyOf, oneOf,
 * not, if. */
static int v_apply(vctx *c, const vs *s, const sd_tval *inst, uint8_t *L, size_t nbytes)
{
    int ok = 1;
    if (s->ref && !follow(c, s->ref, inst, L, s, "$ref"))
        FAIL(ok);
    if (s->dynref) {
        const vs *t = s->dyn_kind ? dynamic_target(c, s) : s->dynref;
        if (!follow(c, t, inst, L, s, s->dyn_kind == 2 ? "$recursiveRef" : "$dynamicRef"))
            FAIL(ok);
    }
    for (size_t i = 0; i < s->nall; i++)
        if (!v_node(c, s->all[i], inst, L))
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

/* unevaluatedProperties and unevaluatedItems, last: they see what every
 * other keyword evaluated (`L`), and mark what they evaluate. */
static int v_unevaluated(vctx *c, const vs *s, const sd_tval *inst, uint8_t *L)
{
    int ok = 1;
    if (s->uprops && vk(inst) == SD_MAP) {
        const sd_tval *key = inst + 1;
        for (size_t i = 0; i < inst->len; i++, key = sd_tval_next(key + 1)) {
            if (BIT_GET(L, i))
                continue;
            if (path_push(c, key, 0) < 0)
                return ok;   /* fatal: v_node() fails */
            const vs *u = s->uprops->alias ? s->uprops->alias : s->uprops;
            if (u->kind == VS_FALSE) {
                ok = 0;
                if (!c->res) { c->npath--; return 0; }
                verr(c, s, "unevaluatedProperties", key, key, SD_MSG_UNEVALUATED, key->u.s);
            } else if (!v_node(c, s->uprops, key + 1, NULL)) {
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
                return ok;   /* fatal: v_node() fails */
            if (!v_node(c, s->uitems, x, NULL)) {
                ok = 0;
                if (!c->res) { c->npath--; return 0; }
            }
            c->npath--;
            BIT_SET(L, i);
        }
    }
    return ok;
}

#undef FAIL

/* Validate `inst` against schema `s`; mark in `ev` (a bit per member or
 * item, or NULL) what it evaluated, for unevaluated*. 1 when it holds. */
static int v_node(vctx *c, const vs *s, const sd_tval *inst, uint8_t *ev)
{
    uint8_t *L = ev, *own = NULL;
    int ok = 1, pushed = 0;
    size_t nbytes = 0;

    if (s->loop)
        return fatal(c, loop_at(s), SD_ELIMIT, SD_MSG_ALIAS_LOOP,
                     SPTR(s->info));
    if (s->alias) {
        /* a collapsed $ref is still an edge of the loop check */
        if (s->alias->kind == VS_SCHEMA && !s->alias->loop)
            return follow(c, s->alias, inst, ev, s, "$ref");
        s = s->alias;
    }
    if (s->loop)
        return fatal(c, loop_at(s), SD_ELIMIT, SD_MSG_ALIAS_LOOP,
                     SPTR(s->info));
    if (s->kind == VS_TRUE)
        return 1;
    if (s->kind == VS_FALSE) {
        verr(c, s, "false", inst, NULL, SD_MSG_FALSE_SCHEMA);
        return 0;
    }
    if (!(s->need & (N_TYPE | N_ENUM | N_APPLY | need_by_kind[vk(inst)])))
        return 1;   /* nothing here applies to this kind of value */
    if (c->fatal)
        return 0;
    if (c->depth >= MAX_DEPTH)
        return fatal(c, ILOC(c, inst), SD_ELIMIT, SD_MSG_DEPTH,
                     MAX_DEPTH, SPTR(s->info));
    c->depth++;
    if (c->v->has_dynamic && s->res && (c->nscope == 0 || c->scope[c->nscope - 1] != s->res)) {
        if (sd_grow((void **)&c->scope, &c->ascope, c->nscope + 1, sizeof *c->scope) < 0) {
            c->depth--;
            return fatal(c, ILOC(c, inst), SD_ENOMEM, "out of memory");
        }
        c->scope[c->nscope++] = s->res;
        pushed = 1;
    }
    if (s->has_uneval && (vk(inst) == SD_MAP || vk(inst) == SD_SEQ)) {
        nbytes = (inst->len + 7) / 8;
        if (!(own = calloc(nbytes ? nbytes : 1, 1))) {
            ok = fatal(c, ILOC(c, inst), SD_ENOMEM, "out of memory");
            goto out;
        }
        L = own;
    }
    if (s->need & N_TYPE) {
        unsigned it = inst_type(inst);
        unsigned allowed = s->types | (s->int_or_string ? T_INT | T_STR : 0) | (s->nullable ? T_NULL : 0);
        if (!(allowed & it) && !(it == T_INT && (allowed & T_NUM))) {
            ok = 0;
            if (!c->res) goto out;
            report_type(c, s, inst, allowed);
        }
    }
    if (s->enum_ && !(s->nullable && vk(inst) == SD_NULL) && !in_enum(s, inst)) {
        ok = 0;
        if (!c->res) goto out;
        report_enum(c, s, inst);
    }
    if (s->has_const && !sd_vprog__equal(inst, s->ctape->v)) {
        ok = 0;
        if (!c->res) goto out;
        report_const(c, s, inst);
    }
    if (!v_kind(c, s, inst, L)) { ok = 0; if (!c->res) goto out; }
    if (!(s->need & N_APPLY))
        goto out;
    if (!v_apply(c, s, inst, L, nbytes)) { ok = 0; if (!c->res) goto out; }
    if (!v_unevaluated(c, s, inst, L))
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
    ok = v_node(&c, v->roots[entry], instance->v, NULL);
    free(c.path);
    free(c.scope);
    free(c.refs);
    if (c.fatal)
        return c.fatal;
    return ok ? 0 : SD_EINVALID;
}
