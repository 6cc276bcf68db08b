/* SPDX-License-Identifier: Apache-2.0 */
/* lint.c - findings about values that the schema lets pass: keys that
 * neither the chart's values.yaml nor the schema knows (typos: Helm schemas
 * rarely close their objects) with the closest known key, and values set
 * for keys the schema marks deprecated (`deprecated: true`, or a
 * description that starts with "Deprecated:").
 *
 * In: the values validated, the defaults (a chart's values.yaml, or NULL)
 * and the schema, whose $refs go through the source's resolver. Out:
 * warnings (errors when strict) appended to an sd_vresult, in the shape of
 * the validator's own. */
#include "check.h"
#include "alloc.h"
#include "annot.h"
#include "buf.h"
#include "emit.h"
#include "keywords.h"
#include "pmap.h"
#include "ptr.h"
#include "tmplrefs.h"
#include "validate.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_SCHEMAS 64
#define MAX_DEPTH   100

typedef struct sref {
    const sd_node *node;
    const sd_doc  *doc;
    int            cond;   /* reached only through anyOf/oneOf/then/else: it may not apply */
} sref;

typedef struct lctx {
    sd_source     *src;
    sd_tape       *t;             /* the values */
    sd_vresult    *res;
    int            strict;
    const char    *defaults_file; /* keys written there are the chart's own */
    const char    *known_by;      /* "neither values.yaml nor the schema knows it" */
    const char *const *extra;     /* names known at the root (subchart aliases, global) */
    size_t         nextra;
    int            oom;
    /* collect()'s answer for one schema on its own, by schema node: every
     * key of a list's items (or of a map under one schema) asks it again */
    sd_pmap        memo;          /* schema node -> index + 1 in `memos` */
    struct lmemo { const sd_doc *doc; uint32_t at, n, whole; } *memos;
    size_t         nmemos, amemos;
    sref          *mpool;
    size_t         mpn, mpcap;
    int            cut;           /* a collect() stopped at its depth or count bound */
    const sd_ckeys *ck;           /* keys commented out in the defaults (known, optional) */
    const sd_node *droot;         /* the defaults' root (the analogy fallback) */
    const sd_node **dmaps;        /* its maps, listed on first need; NULL: not yet */
    size_t         ndmaps;
    int            generated;     /* the schema was made from the defaults (gen.h) */
    sd_lint_chart *lc;            /* the chart's templates and doc comments, or NULL */
    const char    *seg[MAX_DEPTH + 2];  /* the keys of the place walked (NULL: a list index) */
    size_t         nseg;
    int            free;          /* below a map the templates hand on whole: no key is unknown */
} lctx;

/* The schema maps that apply at one place: `s` and, through $ref and the
 * table's applicators that may add keys (sd_check__adds_keys: allOf,
 * anyOf, oneOf, then, else), every schema that could add keys. */
static void collect(lctx *c, const sd_node *s, const sd_doc *doc, sref *out, size_t *n, int depth,
                    int cond)
{
    const sd_node *x;

    if (!s || s->kind != SD_MAP)
        return;
    if (depth > 16 || *n >= MAX_SCHEMAS) {
        c->cut = 1;
        return;
    }
    for (size_t i = 0; i < *n; i++)
        if (out[i].node == s) {
            out[i].cond &= cond;   /* reached for sure once: it applies */
            return;
        }
    out[(*n)++] = (sref){ s, doc, cond };
    if ((x = sd_node_get(s, "$ref")) && x->kind == SD_STR) {
        const sd_schema_info *ti = NULL;
        sd_diags scratch = SD_DIAGS_INIT;  /* the validator reported it already */
        if (sd_source_resolve(c->src, &ti, doc, s, x, &scratch) == 0 && ti)
            collect(c, ti->node, ti->doc, out, n, depth + 1, cond);
        sd_diags_release(&scratch);
    }
    for (size_t k = 0; k < SD_KW_COUNT; k++) {
        const sd_kw *kw = &sd_kw_table[k];
        if (!sd_check__adds_keys(kw) || !(x = sd_node_get(s, kw->name)))
            continue;
        if (kw->field == SD_KF_RECS && x->kind == SD_SEQ) {
            for (size_t i = 0; i < x->n; i++)   /* allOf's apply for sure, the others may */
                collect(c, x->items[i].value, doc, out, n, depth + 1, cond || kw->id != SD_KW_allOf);
        } else if (kw->field == SD_KF_REC) {
            collect(c, x, doc, out, n, depth + 1, 1);
        }
    }
}

int sd_check__adds_keys(const sd_kw *kw)
{
    /* the applicators whose subschemas apply to the value itself: not
     * `not` (it only forbids), `if` (it only tests: its keys count through
     * then/else), nor those that apply to members or items
     * (additionalProperties, items, unevaluatedProperties, ...); $ref is
     * followed above. test_keywords fails on a row holding subschemas that
     * is neither here nor on its list of the others. */
    switch (kw->id) {
    case SD_KW_allOf: case SD_KW_anyOf: case SD_KW_oneOf: case SD_KW_then: case SD_KW_else:
        return 1;
    default:
        return 0;
    }
}

/* collect(`s`) into an empty `out`, from the memo when `s` was asked
 * before; returns the count, and in *whole whether no bound cut it. */
static size_t collect_one(lctx *c, const sd_node *s, const sd_doc *doc, sref *out, int *whole)
{
    size_t n = 0;
    uintptr_t *hit;

    *whole = 1;
    if (!s || s->kind != SD_MAP)
        return 0;
    if ((hit = sd_pmap_get(&c->memo, s)) && c->memos[*hit - 1].doc == doc) {
        const struct lmemo *e = &c->memos[*hit - 1];
        memcpy(out, c->mpool + e->at, e->n * sizeof *out);
        *whole = (int)e->whole;
        return e->n;
    }
    c->cut = 0;
    collect(c, s, doc, out, &n, 0, 0);
    *whole = !c->cut;
    /* remembered when there is room (else asked again next time) */
    if (hit || sd_grow((void **)&c->memos, &c->amemos, c->nmemos + 1, sizeof *c->memos) < 0 ||
        sd_grow((void **)&c->mpool, &c->mpcap, c->mpn + n, sizeof *c->mpool) < 0 ||
        sd_pmap_put(&c->memo, s, c->nmemos + 1) < 0)
        return n;
    memcpy(c->mpool + c->mpn, out, n * sizeof *out);
    c->memos[c->nmemos++] = (struct lmemo){ doc, (uint32_t)c->mpn, (uint32_t)n, (uint32_t)*whole };
    c->mpn += n;
    return n;
}

/* collect(c, s, doc, out, n, 0), answered from the memo. A list that only
 * whole answers went into holds, for each schema in it, every schema
 * collect() reaches from it; so collect() from `s` would add exactly the
 * schemas of its own answer that the list lacks, in that order. `*whole`
 * (1 for an empty list) is cleared when a bound cut an answer. */
static void collect_memo(lctx *c, const sd_node *s, const sd_doc *doc, sref *out, size_t *n, int *whole,
                         int cond)
{
    sref mine[MAX_SCHEMAS];
    int w;
    size_t m;

    if (!*whole) {
        collect(c, s, doc, out, n, 0, cond);
        return;
    }
    m = collect_one(c, s, doc, mine, &w);
    if (!w) {
        *whole = 0;
        if (*n) {
            collect(c, s, doc, out, n, 0, cond);
            return;
        }
    }
    for (size_t i = 0; i < m && *n < MAX_SCHEMAS; i++) {
        size_t j = 0;
        int ci = mine[i].cond || cond;
        while (j < *n && out[j].node != mine[i].node)
            j++;
        if (j == *n) {
            out[(*n)++] = mine[i];
            out[j].cond = ci;
        } else {
            out[j].cond &= ci;
        }
    }
}

static int plain(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (*s == '.' || *s == '[' || *s == ']' || *s == '"' || (unsigned char)*s <= ' ')
            return 0;
    return 1;
}

/* Append `key` to the dotted path in `b` ("a.b", `a["x.y"]`; `b` empty at
 * the root). */
static void dotted(sd_buf *b, const char *key)
{
    if (plain(key)) {
        if (b->len)
            sd_buf_putc(b, '.');
        sd_buf_puts(b, key);
    } else {
        sd_buf_putc(b, '[');
        sd_emit_json_string(b, key, strlen(key));
        sd_buf_putc(b, ']');
    }
}

/* Append a list index to the pointer ("/3") and to the dotted path ("[3]"). */
static void push_index(sd_buf *ptr, sd_buf *dk, size_t i)
{
    sd_buf_putc(ptr, '/');
    sd_buf_put_int(ptr, (long long)i);
    sd_buf_putc(dk, '[');
    sd_buf_put_int(dk, (long long)i);
    sd_buf_putc(dk, ']');
}

static unsigned distance(const char *a, const char *b)
{
    return sd_edit_distance(a, strlen(a), b, strlen(b));
}

/* Record one finding (a warning, or an error when strict). */
static void record(lctx *c, int error, const sd_tval *key, const char *ptr, const char *dkey,
                   const char *keyword, const sref *at, const char *msg)
{
    sd_vresult *r = c->res;
    sd_verror **arr = error ? &r->items : &r->warnings;
    size_t *cnt = error ? &r->count : &r->nwarnings, *alloc = error ? &r->alloc : &r->awarnings;
    sd_verror *e;

    if (error)
        r->total++;
    /* grown by doubling: one finding per unknown key, and there may be 100,000s */
    if (sd_grow((void **)arr, alloc, *cnt + 1, sizeof **arr) < 0) {
        c->oom = 1;
        return;
    }
    e = &(*arr)[(*cnt)++];
    memset(e, 0, sizeof *e);
    e->path = strdup(ptr);
    e->key = strdup(dkey);
    e->loc = sd_tape_loc(c->t, key);
    e->at_key = 1;
    e->keyword = keyword;
    e->message = strdup(msg);
    e->schema_loc = at ? at->node->loc : (sd_loc){ NULL, 0, 0 };  /* no schema: no place in one */
    {
        sd_schema_info *info = at ? sd_resolver_info(sd_source_resolver(c->src), at->node) : NULL;
        const char *sp = info ? sd_schema_ptr(sd_source_resolver(c->src), info) : NULL;
        e->schema_path = strdup(sp ? sp : "");
    }
    if (!e->path || !e->key || !e->message || !e->schema_path)
        c->oom = 1;
}

/* The text after a "Deprecated:" at the start of a description, or NULL. */
static const char *deprecated_text(const char *d)
{
    while (*d == ' ' || *d == '*' || *d == '_' || *d == '\n' || *d == '(' || *d == '[')
        d++;
    if (strncasecmp(d, "deprecated", 10) != 0)
        return NULL;
    d += 10;
    while (*d == '*' || *d == '_')
        d++;
    /* "Deprecated: use x", "DEPRECATED. Use x", Bitnami's "DEPRECATED Please
     * use x": the word, then anything but a letter ("deprecatedFoo" is not) */
    if (isalnum((unsigned char)*d))
        return NULL;
    if (*d == ':' || *d == '.' || *d == ',' || *d == '-' || *d == ';')
        d++;
    while (*d == ' ' || *d == '*' || *d == '_')
        d++;
    return d;
}

/* A value set for a key whose Bitnami `## @param key DEPRECATED ...` (or
 * helm-docs `# -- Deprecated: ...`) comment says so. Returns 1 when said. */
static int comment_deprecated(lctx *c, const sd_tval *key, const char *ptr, const char *dkey)
{
    const sd_annot *a = c->lc && c->lc->annots ? sd_annots_get(c->lc->annots, dkey) : NULL;
    const char *why = a && a->deprecated ? a->deprecated
                    : a && a->description ? deprecated_text(a->description) : NULL;
    const char *from = why && !(a && a->deprecated) ? a->description : NULL;
    if (!why && a && a->plain && (why = deprecated_text(a->plain)))
        from = a->plain;   /* loki's `# (deprecated, use defaults.extraArgs)` */
    sd_buf m = SD_BUF_INIT;

    if (!why)
        return 0;
    sd_buf_printf(&m, "`%s` is deprecated", key->u.s);
    if (*why) {
        /* "(deprecated, use x) text": the notice ends at the parenthesis */
        int paren = from && from[strspn(from, " *_\n")] == '(';
        sd_buf_puts(&m, ": ");
        sd_buf_put(&m, why, strcspn(why, paren ? ")\n" : "\n"));
    }
    record(c, 0, key, ptr, dkey, "deprecated", NULL, m.ptr);
    sd_buf_release(&m);
    return 1;
}

/* A value set for a deprecated key: say so, with the schema's reason, else
 * the values.yaml comment's. */
static void check_deprecated(lctx *c, const sd_tval *key, const sref *s, size_t ns,
                             const char *ptr, const char *dkey)
{
    for (size_t i = 0; i < ns; i++) {
        const sd_node *d = sd_node_get(s[i].node, "deprecated");
        const sd_node *desc = sd_node_get(s[i].node, "description");
        const char *why = desc && desc->kind == SD_STR ? deprecated_text(desc->str) : NULL;
        if ((d && d->kind == SD_BOOL && d->num.b) || why) {
            sd_buf m = SD_BUF_INIT;
            sd_buf_printf(&m, "`%s` is deprecated", key->u.s);
            if (why && *why) {
                size_t l = strcspn(why, "\n");
                sd_buf_puts(&m, ": ");
                sd_buf_put(&m, why, l);
            }
            record(c, 0, key, ptr, dkey, "deprecated", &s[i], m.ptr);
            sd_buf_release(&m);
            return;
        }
    }
    comment_deprecated(c, key, ptr, dkey);
}

/* 1 when the value `v` is the chart's default `def` (deep): it sets
 * nothing, so its key's deprecation is nothing to act on (a copy of
 * values.yaml, as `helm show values` writes it, gives no warning). */
static int same_as_default(const lctx *c, const sd_tval *v, const sd_node *def)
{
    const sd_node *n = sd_tape_node(c->t, v);
    if (!n || !def)
        return 0;
    if (n == def)
        return 1;
    sd_val *a = sd_node_to_val(n), *b = a ? sd_node_to_val(def) : NULL;
    int same = a && b && sd_val_equal(a, b);
    sd_val_decref(a);
    sd_val_decref(b);
    return same;
}

static void walk(lctx *c, const sd_tval *v, const sd_node *defs, const sref *s, size_t ns,
                 sd_buf *ptr, sd_buf *dk, int depth);

/* ---- keys commented out in values.yaml (commented.h) ------------------------
 * `# minAvailable: 1` under a map of the defaults makes `minAvailable` a
 * known key there; below it, the commented value is an example, not a
 * default, so its own keys are known but the place is not judged. */

/* The commented-out keys under the defaults node `defs` (key -> value), or NULL. */
static const sd_node *commented_under(const lctx *c, const sd_node *defs)
{
    return c->ck && defs && !sd_ckeys_is_commented(c->ck, defs) ? sd_ckeys_under(c->ck, defs) : NULL;
}

/* The default (or else the commented value) of `key` under `defs`. */
static const sd_node *default_of(const lctx *c, const sd_node *defs, const char *key)
{
    const sd_node *d = defs && defs->kind == SD_MAP ? sd_node_get(defs, key) : NULL;
    const sd_node *cm = d ? NULL : commented_under(c, defs);
    return d ? d : cm ? sd_node_get(cm, key) : NULL;
}

/* Whether the keys at `defs` are judged by the defaults: a map that is not
 * empty, not data (free_form) and not a commented-out example. */
static int judged_by_defaults(const lctx *c, const sd_node *defs, int (*data)(const sd_node *))
{
    return defs && defs->kind == SD_MAP && defs->n && !data(defs) && !sd_ckeys_is_commented(c->ck, defs);
}

/* Whether a schema's `properties` judge the keys of a map: not in a schema
 * made from the defaults (its properties are the defaults' keys, whose own
 * rules apply: data maps and list items are not judged). */
static int judged_by_schema(const lctx *c, const sd_node *props)
{
    return props && props->n && !c->generated;
}

/* The commented-out key under `defs` closest to `k` (edit distance below *bd). */
static void closest_commented(const lctx *c, const sd_node *defs, const char *k, unsigned *bd, const char **best)
{
    const sd_node *cm = commented_under(c, defs);
    for (size_t q = 0; cm && q < cm->n; q++) {
        unsigned d = sd_edit_distance(k, strlen(k), cm->items[q].key->str, cm->items[q].key->len);
        if (d < *bd)
            *bd = d, *best = cm->items[q].key->str;
    }
}

/* A default map whose keys are data, not settings: environment variables
 * (`HTTP_PROXY`), labels and annotations (`app.kubernetes.io/name`). */
static int free_form(const sd_node *m)
{
    size_t data = 0;
    for (size_t i = 0; i < m->n; i++) {
        const char *k = m->items[i].key->str;
        int upper = 0, other = 0;
        for (const char *p = k; *p; p++) {
            if (*p >= 'A' && *p <= 'Z')
                upper = 1;
            else if (!(*p >= '0' && *p <= '9') && *p != '_')
                other = 1;
        }
        if (strchr(k, '/') || strchr(k, '.') || (upper && !other && k[1]))
            data++;
    }
    return data * 2 > m->n;   /* most keys look like data (one "grafana.ini" does not) */
}

/* The keywords of the schemas at one map that every key of it asks about. */
typedef struct mapkw {
    const sd_node *props;   /* `properties`, when a map */
    const sd_node *addl;    /* `additionalProperties`, when a map */
} mapkw;

/* The schemas of `key`'s value under the schemas `s` (properties,
 * patternProperties are not matched here: they make every key known). */
static size_t child_schemas(lctx *c, const sref *s, const mapkw *kw, size_t ns, const char *key,
                            sref *out)
{
    size_t n = 0;
    int whole = 1;
    for (size_t i = 0; i < ns; i++) {
        const sd_node *x;
        if (kw[i].props && (x = sd_node_get(kw[i].props, key)))
            collect_memo(c, x, s[i].doc, out, &n, &whole, s[i].cond);
        else if (kw[i].addl)
            collect_memo(c, kw[i].addl, s[i].doc, out, &n, &whole, s[i].cond);
    }
    return n;
}

/* What the schemas and defaults say of one map's keys. */
typedef struct place {
    int judged;          /* something lists the keys here */
    int open;            /* any key is fine: a schema for other keys, patternProperties,
                            x-kubernetes-preserve-unknown-fields, keys the validator
                            refuses already (false), names a template ranges over */
    int loose;           /* additionalProperties (unevaluatedProperties) true or {}: a
                            schema generator's default, no statement; a key within
                            an edit distance of 2 of a declared one is still a typo */
    const sref *owner;   /* the schema that names the place */
} place;

static place judge_place(lctx *c, const sd_node *defs, const sref *s, size_t ns, mapkw *kw)
{
    place pl = { 0, 0, 0, ns ? &s[0] : NULL };   /* the first schema listing keys names it */
    int owned = 0;

    if (judged_by_defaults(c, defs, free_form))
        pl.judged = 1;
    for (size_t i = 0; i < ns; i++) {
        const sd_node *p = sd_node_get(s[i].node, "properties");
        const char *const addl[] = { "additionalProperties", "unevaluatedProperties" };
        kw[i].props = p && p->kind == SD_MAP ? p : NULL;
        kw[i].addl = NULL;
        if (judged_by_schema(c, kw[i].props)) {
            pl.judged = 1;
            if (!owned) {
                pl.owner = &s[i];
                owned = 1;
            }
        }
        for (size_t k = 0; k < 2; k++) {
            const sd_node *ap = sd_node_get(s[i].node, addl[k]);
            if (ap && ap->kind == SD_MAP && k == 0)
                kw[i].addl = ap;
            if (ap && ((ap->kind == SD_BOOL && ap->num.b) || (ap->kind == SD_MAP && !ap->n)))
                pl.loose = 1;
            else if (ap && ap->kind == SD_BOOL && s[i].cond)
                ;   /* false where a branch may not apply: the validator may well let a typo by */
            else if (ap && (ap->kind == SD_MAP || ap->kind == SD_BOOL))
                pl.open = 1;
        }
        if (sd_node_get(s[i].node, "patternProperties") ||
            sd_node_get(s[i].node, "x-kubernetes-preserve-unknown-fields"))
            pl.open = 1;
    }
    if (c->lc && c->lc->refs && (sd_tmplrefs_use(c->lc->refs, c->seg, c->nseg) & SD_TREF_NAMES))
        pl.open = 1;
    return pl;
}

/* 1 when a schema here names `k` in `required` without describing it in
 * `properties`: a key all the same. */
static int required_here(const sref *s, size_t ns, const char *k)
{
    for (size_t i = 0; i < ns; i++) {
        const sd_node *r = sd_node_get(s[i].node, "required");
        for (size_t j = 0; r && r->kind == SD_SEQ && j < r->n; j++)
            if (r->items[j].value->kind == SD_STR && !strcmp(r->items[j].value->str, k))
                return 1;
    }
    return 0;
}

/* The key known here closest to `k` by edit distance (*bd), or NULL. */
static const char *closest(const lctx *c, const char *k, const sd_node *defs, const sref *s,
                           size_t ns, const mapkw *kw, int root, unsigned *bd)
{
    const char *best = NULL;
    *bd = 999;
    for (size_t j = 0; j < ns; j++) {
        const sd_node *p = kw[j].props, *r = sd_node_get(s[j].node, "required");
        for (size_t q = 0; p && q < p->n; q++) {
            unsigned d = distance(k, p->items[q].key->str);
            if (d < *bd)
                *bd = d, best = p->items[q].key->str;
        }
        for (size_t q = 0; r && r->kind == SD_SEQ && q < r->n; q++) {
            unsigned d = r->items[q].value->kind == SD_STR ? distance(k, r->items[q].value->str) : 999;
            if (d < *bd)
                *bd = d, best = r->items[q].value->str;
        }
    }
    for (size_t q = 0; defs && defs->kind == SD_MAP && q < defs->n; q++) {
        unsigned d = distance(k, defs->items[q].key->str);
        if (d < *bd)
            *bd = d, best = defs->items[q].key->str;
    }
    closest_commented(c, defs, k, bd, &best);
    for (size_t j = 0; root && j < c->nextra; j++) {
        unsigned d = distance(k, c->extra[j]);
        if (d < *bd)
            *bd = d, best = c->extra[j];
    }
    return best;
}

/* Without templates to read: a new entry of a map of named entries (grafana's
 * `route: {main: {...}}`, where a file adds `route.redirect` shaped like
 * `main`) is known, and judged against that sibling. The sibling of `defs`
 * whose keys the value `v` shares most, when it shares at least half of
 * them; NULL otherwise. */
static const sd_node *entry_like(const sd_tval *v, const sd_node *defs)
{
    const sd_node *best = NULL;
    size_t bn = 0, nk = sd_tape_kind(v) == SD_MAP ? v->len : 0;

    if (!nk || !defs || defs->kind != SD_MAP)
        return NULL;
    for (size_t i = 0; i < defs->n; i++) {
        const sd_node *sib = defs->items[i].value;
        size_t shared = 0;
        if (sib->kind != SD_MAP || sib->n < 2)
            continue;
        const sd_tval *k = v + 1;
        for (size_t j = 0; j < nk; j++, k = sd_tval_next(k + 1))
            shared += sd_node_get(sib, k->u.s) != NULL;
        if (shared > bn)
            bn = shared, best = sib;
    }
    return bn * 2 >= nk ? best : NULL;
}

/* Report `key` (unknown here) with the closest known key; under `loose`
 * only when that one is a slip away (distance 2 at most). */
static void report_unknown(lctx *c, const sd_tval *key, const place *pl, const sd_node *defs,
                           const sref *s, size_t ns, const mapkw *kw, sd_buf *ptr, sd_buf *dk,
                           size_t dmark)
{
    const char *k = key->u.s;
    size_t kl = key->len;
    unsigned bd;
    const char *best = closest(c, k, defs, s, ns, kw, dmark == 0, &bd);
    int near = best && bd <= (kl > 6 ? kl / 3 : 2) && bd < kl;
    sd_buf m = SD_BUF_INIT;

    if (pl->loose && !(near && bd <= 2))
        return;
    sd_buf_printf(&m, "unknown key `%s`: %s", k, c->known_by);
    if (near) {
        sd_buf sug = SD_BUF_INIT;
        if (dmark)
            sd_buf_put(&sug, dk->ptr, dmark);
        dotted(&sug, best);
        sd_buf_printf(&m, "; did you mean `%s`?", sug.ptr);
        sd_buf_release(&sug);
    }
    record(c, c->strict, key, ptr->ptr, dk->ptr, "unknownKey", pl->owner, m.ptr);
    sd_buf_release(&m);
}

/* List the maps of the defaults below `n` (at most 20,000, 50 deep). */
static void list_maps(lctx *c, const sd_node *n, size_t *cap, int depth)
{
    if (!n || depth > 50 || c->ndmaps >= 20000 || c->oom)
        return;
    if (n->kind == SD_MAP && n->n) {
        if (sd_grow((void **)&c->dmaps, cap, c->ndmaps + 1, sizeof *c->dmaps) < 0) {
            c->oom = 1;
            return;
        }
        c->dmaps[c->ndmaps++] = n;
    }
    if (n->kind == SD_MAP || n->kind == SD_SEQ)
        for (size_t i = 0; i < n->n; i++)
            list_maps(c, n->items[i].value, cap, depth + 1);
}

/* Without templates to read: `k` is a key of another map of values.yaml
 * (written, or commented out) shaped like `defs`: half of defs' keys, and
 * at least 4, are keys of it too. Charts repeat one component's settings
 * in the next (grafana's imageRenderer shares 27 of its 38 keys with the
 * root, whose commented-out `podLabels` its CI values set under
 * imageRenderer too); a typo is a key of no map at all. */
static int known_by_analogy(lctx *c, const sd_node *defs, const char *k)
{
    if (!defs || defs->kind != SD_MAP || defs->n < 4 || !c->droot)
        return 0;
    if (!c->dmaps) {
        size_t cap = 0;
        list_maps(c, c->droot, &cap, 0);
        if (!c->dmaps)
            return 0;
    }
    for (size_t i = 0; i < c->ndmaps; i++) {
        const sd_node *n = c->dmaps[i], *cm = commented_under(c, n);
        size_t shared = 0;
        if (n == defs || !(sd_node_get(n, k) || (cm && sd_node_get(cm, k))))
            continue;
        for (size_t j = 0; j < defs->n; j++) {
            const char *dk = defs->items[j].key->str;
            shared += sd_node_get(n, dk) || (cm && sd_node_get(cm, dk));
        }
        if (shared >= 4 && shared * 2 >= defs->n)
            return 1;
    }
    return 0;
}

static void walk_map(lctx *c, const sd_tval *v, const sd_node *defs, const sref *s, size_t ns,
                     sd_buf *ptr, sd_buf *dk, int depth)
{
    const int root = dk->len == 0, was_free = c->free;
    const sd_tmplrefs *refs = c->lc && c->lc->refs && c->lc->refs->has_templates ? c->lc->refs : NULL;
    mapkw kw[MAX_SCHEMAS];
    place pl = judge_place(c, defs, s, ns, kw);

    /* a map the templates hand on whole is application configuration */
    if (refs && (sd_tmplrefs_use(refs, c->seg, c->nseg) & SD_TREF_WHOLE))
        c->free = 1;
    const sd_tval *key = v + 1;
    for (size_t i = 0; i < v->len; i++, key = sd_tval_next(key + 1)) {
        const char *k = key->u.s;
        const char *kfile = sd_tape_file(c->t, key);
        size_t mark = ptr->len, dmark = dk->len;
        sref cs[MAX_SCHEMAS];
        size_t ncs;
        int known = 0, extra = 0;
        const sd_node *cd = default_of(c, defs, k);
        /* the chart's own values.yaml knows what it writes */
        const int own = c->defaults_file && kfile &&
                        (kfile == c->defaults_file || !strcmp(kfile, c->defaults_file));

        for (size_t j = 0; root && j < c->nextra && !extra; j++)
            extra = !strcmp(c->extra[j], k);
        /* global and the subcharts' parts: theirs to judge (no key of them
         * is unknown here), but a deprecation this chart says is still said */
        known = extra;
        for (size_t j = 0; j < ns && !known; j++)
            known = kw[j].props && sd_node_get(kw[j].props, k);
        known = known || cd || own || required_here(s, ns, k);
        c->seg[c->nseg++] = k;
        if (!known && refs)   /* a key the templates read exists */
            known = (sd_tmplrefs_use(refs, c->seg, c->nseg) & SD_TREF_READ) != 0;
        if (!known && !refs && pl.judged && !pl.open && (cd = entry_like(key + 1, defs)))
            known = 1;
        if (!known && !refs && pl.judged && !pl.open)
            known = known_by_analogy(c, defs, k);
        if (!refs && c->lc && pl.judged && !own && !extra && !c->free)
            c->lc->shape_used = 1;
        sd_ptr_push(ptr, k, key->len);
        dotted(dk, k);
        if (pl.judged && !pl.open && !known && !c->free) {
            report_unknown(c, key, &pl, defs, s, ns, kw, ptr, dk, dmark);
            /* (nothing below a key nobody knows can be judged) */
        } else if (!(own && cd && sd_tape_node(c->t, key + 1) == cd)) {
            /* (a value the chart's values.yaml gives as it is, shared by the
             * merge, holds nothing to report: its keys are the chart's own) */
            ncs = child_schemas(c, s, kw, ns, k, cs);
            if (!own && !same_as_default(c, key + 1, cd))
                check_deprecated(c, key, cs, ncs, ptr->ptr, dk->ptr);
            const int map_free = c->free;
            if (extra)
                c->free = 1;
            walk(c, key + 1, cd, cs, ncs, ptr, dk, depth + 1);
            c->free = map_free;
        }
        c->nseg--;
        sd_buf_truncate(ptr, mark);
        sd_buf_truncate(dk, dmark);
    }
    c->free = was_free;
}

static void walk(lctx *c, const sd_tval *v, const sd_node *defs, const sref *s, size_t ns,
                 sd_buf *ptr, sd_buf *dk, int depth)
{
    if (!v || depth > MAX_DEPTH || c->oom || sd_buf_failed(ptr) || sd_buf_failed(dk))
        return;
    if (sd_tape_kind(v) == SD_MAP) {
        walk_map(c, v, defs, s, ns, ptr, dk, depth);
    } else if (sd_tape_kind(v) == SD_SEQ) {
        sref is[MAX_SCHEMAS];
        size_t nis = 0;
        /* list items are judged by the schema alone: the default list's
         * items may differ in shape from each other */
        (void)defs;
        int whole = 1;
        for (size_t i = 0; i < ns; i++) {
            const sd_node *it = sd_node_get(s[i].node, "items");
            if (it && it->kind == SD_MAP)
                collect_memo(c, it, s[i].doc, is, &nis, &whole, s[i].cond);
            else if ((it = sd_node_get(s[i].node, "additionalItems")) && it->kind == SD_MAP)
                collect_memo(c, it, s[i].doc, is, &nis, &whole, s[i].cond);
        }
        const sd_tval *x = v + 1;
        c->seg[c->nseg++] = NULL;   /* any index */
        for (size_t i = 0; i < v->len; i++, x = sd_tval_next(x)) {
            size_t mark = ptr->len, dmark = dk->len;
            push_index(ptr, dk, i);
            walk(c, x, NULL, is, nis, ptr, dk, depth + 1);
            sd_buf_truncate(ptr, mark);
            sd_buf_truncate(dk, dmark);
        }
        c->nseg--;
    }
}

int sd_check__lint(sd_source *src, sd_tape *values, const sd_node *defaults,
                   const char *defaults_file, const sd_doc *doc, const sd_node *schema,
                   const char *const *extra, size_t nextra, int strict,
                   sd_lint_chart *lc, sd_vresult *res)
{
    lctx c;
    sref s[MAX_SCHEMAS];
    size_t ns = 0;
    sd_buf ptr = SD_BUF_INIT, dk = SD_BUF_INIT;

    memset(&c, 0, sizeof c);
    c.src = src;
    c.t = values;
    c.res = res;
    c.strict = strict;
    c.defaults_file = defaults_file;
    c.extra = extra;
    c.nextra = nextra;
    c.generated = sd_source_schema_generated(src) && sd_source_chart(src) && doc == sd_source_chart(src)->schema;
    c.ck = defaults ? sd_source_commented(src, defaults) : NULL;
    c.droot = defaults;
    c.lc = lc;
    c.known_by = !schema ? "values.yaml does not have it (and the chart has no schema)"
               : c.generated ? "neither values.yaml nor its comments know it"
               : defaults ? "neither values.yaml nor the schema knows it" : "the schema does not know it";
    collect(&c, schema, doc, s, &ns, 0, 0);
    /* the chart's own values.yaml, unmerged, holds nothing to report */
    const char *vfile = values->n ? sd_tape_file(values, values->v) : NULL;
    if (values->n && !(defaults && sd_tape_node(values, values->v) == defaults && defaults_file && vfile &&
                       !strcmp(vfile, defaults_file)))
        walk(&c, values->v, defaults, s, ns, &ptr, &dk, 0);
    sd_buf_release(&ptr);
    sd_buf_release(&dk);
    sd_pmap_release(&c.memo);
    free(c.memos);
    free(c.mpool);
    free(c.dmaps);
    return c.oom ? SD_ENOMEM : 0;
}
