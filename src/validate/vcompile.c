/* SPDX-License-Identifier: Apache-2.0 */
/* vcompile.c - a schema (sd_node tree) -> the validator's program.
 *
 * Compiling walks a worklist (never recursion), so a chain of any number of
 * $refs compiles in constant stack; every schema node becomes one `vs`
 * record (vprog.h) with its keywords decoded, regexes compiled (PCRE2; JIT
 * on first heavy use, see validate.c), enums hashed, references linked to
 * their target's record through the resolver (resolve.c), and pure-$ref
 * schemas collapsed into aliases (a cycle of them is marked as a loop).
 * Every unresolvable $ref is reported, not only the first. */
#include "vprog.h"
#include "buf.h"
#include "keywords.h"

#include <stdarg.h>
#include <stdlib.h>

/* ---- compiling --------------------------------------------------------------- */

/* A schema value (const, enum) as a tape, what instances are compared with. */
static sd_tape *tape_of(const sd_node *x)
{
    sd_tape *t = malloc(sizeof *t);
    if (t && sd_tape_from_node(t, x) != 0) {
        free(t);
        t = NULL;
    }
    return t;
}

static void tape_drop(sd_tape *t)
{
    if (t) {
        sd_tape_free(t);
        free(t);
    }
}

static vs *vs_get(sd_validator *v, sd_schema_info *info)
{
    vs *s;
    if (info->user)
        return info->user;
    if (!(s = calloc(1, sizeof *s)))
        return NULL;
    s->info = info;
    s->node = info->node;
    s->draft = info->draft;
    s->format = -1;
    s->minp = s->maxp = s->mini = s->maxi = s->minc = s->maxc = s->minl = s->maxl = -1;
    info->user = s;
    if (v->nlist == v->alist) {
        size_t n = v->alist ? v->alist * 2 : 256;
        vs **p = realloc(v->list, n * sizeof *p);
        if (!p) { free(s); info->user = NULL; return NULL; }
        v->list = p;
        v->alist = n;
    }
    v->list[v->nlist++] = s;
    if (v->nwork == v->awork) {
        size_t n = v->awork ? v->awork * 2 : 256;
        vs **p = realloc(v->work, n * sizeof *p);
        if (!p) return NULL;
        v->work = p;
        v->awork = n;
    }
    v->work[v->nwork++] = s;
    return s;
}

static int cerr(sd_validator *v, int code, const sd_node *at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static int cerr(sd_validator *v, int code, const sd_node *at, const char *fmt, ...)
{
    sd_buf b = SD_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    sd_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    sd_diag_error(v->diags, code, at->loc, "%s", b.ptr);
    sd_buf_release(&b);
    if (!v->err)
        v->err = code;
    return code;
}

static vs *child(sd_validator *v, const sd_node *n)
{
    sd_schema_info *info = sd_resolver_info(v->r, n);
    vs *s;
    if (!info) {
        cerr(v, SD_ERROR, n, "internal error: subschema was not indexed");
        return NULL;
    }
    if (!(s = vs_get(v, info)))
        cerr(v, SD_ENOMEM, n, "out of memory");
    return s;
}

static int schema_ok(sd_validator *v, const sd_node *n, const char *kw)
{
    if (n->kind == SD_MAP || n->kind == SD_BOOL)
        return 1;
    cerr(v, SD_ESYNTAX, n, "'%s' must be a schema (an object or a boolean), found %s",
         kw, sd_node_type_word(n));
    return 0;
}

static vs **child_list(sd_validator *v, const sd_node *seq, const char *kw, size_t *count)
{
    vs **a;
    if (seq->kind != SD_SEQ) {
        cerr(v, SD_ESYNTAX, seq, "'%s' must be an array of schemas", kw);
        return NULL;
    }
    if (!(a = calloc(seq->n ? seq->n : 1, sizeof *a))) {
        cerr(v, SD_ENOMEM, seq, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < seq->n; i++) {
        if (!schema_ok(v, seq->items[i].value, kw) || !(a[i] = child(v, seq->items[i].value))) {
            free(a);
            return NULL;
        }
    }
    *count = seq->n;
    return a;
}

static vs *child_kw(sd_validator *v, const sd_node *n, const char *kw)
{
    return schema_ok(v, n, kw) ? child(v, n) : NULL;
}

static int count_kw(sd_validator *v, const sd_node *n, const char *kw, long long *out)
{
    if (!is_num(n) || !is_integral(n) || sd_node_number(n) < 0) {
        return cerr(v, SD_ESYNTAX, n, "'%s' must be a non-negative integer", kw);
    }
    if (n->kind == SD_INT && !n->big)
        *out = n->num.i;
    else   /* a count past 9e18 counts as 9e18 */
        *out = sd_node_number(n) < 9e18 ? (long long)sd_node_number(n) : 9000000000000000000LL;
    return 0;
}

static pcre2_code *compile_re(sd_validator *v, const sd_node *n, const char *kw, vre *out)
{
    int ec;
    PCRE2_SIZE off;
    pcre2_code *re;
    if (n->kind != SD_STR) {
        cerr(v, SD_ESYNTAX, n, "'%s' must be a string (a regular expression)", kw);
        return NULL;
    }
    out->src = n->str;
    out->len = n->len;
    re = sd_regex_compile(n->str, n->len, &ec, &off);
    if (!re) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(ec, msg, sizeof msg);
        cerr(v, SD_ESYNTAX, n, "invalid regular expression '%s' at offset %zu: %s",
             n->str, (size_t)off, (const char *)msg);
        return NULL;
    }
    /* JIT compiling costs ~0.1 ms a pattern: done on the 32nd match
     * (re_match), with the automaton */
    return out->code = re;
}

static int build_prop_hash(vs *s)
{
    uint32_t cap = 16;
    while (cap < s->nprops * 2)
        cap *= 2;
    if (!(s->phash = calloc(cap, sizeof *s->phash)))
        return SD_ENOMEM;
    s->phcap = cap;
    for (size_t i = 0; i < s->nprops; i++) {
        uint32_t j = s->props[i].h & (cap - 1);
        while (s->phash[j])
            j = (j + 1) & (cap - 1);
        s->phash[j] = (uint32_t)i + 1;
    }
    return 0;
}

static int add_dep(sd_validator *v, vs *s, const sd_pair *p, const char *kw, int schema)
{
    vdep *d = realloc(s->deps, (s->ndeps + 1) * sizeof *d);
    if (!d)
        return cerr(v, SD_ENOMEM, p->value, "out of memory");
    s->deps = d;
    d = &d[s->ndeps++];
    memset(d, 0, sizeof *d);
    d->name = p->key->str;
    d->len = p->key->len;
    d->kw = kw;
    if (schema) {
        if (!(d->s = child_kw(v, p->value, kw)))
            return v->err ? v->err : SD_ERROR;
    } else {
        if (p->value->kind != SD_SEQ)
            return cerr(v, SD_ESYNTAX, p->value, "'%s' values must be arrays of strings", kw);
        d->req = p->value;
    }
    return 0;
}

static unsigned type_bit(const sd_node *n)
{
    static const struct { const char *w; unsigned b; } t[] = {
        { "null", T_NULL }, { "boolean", T_BOOL }, { "integer", T_INT },
        { "number", T_NUM | T_INT }, { "string", T_STR }, { "object", T_OBJ }, { "array", T_ARR }
    };
    if (n->kind == SD_STR)
        for (size_t i = 0; i < sizeof t / sizeof *t; i++)
            if (strcmp(n->str, t[i].w) == 0)
                return t[i].b;
    return 0;
}

static int resolve_ref(sd_validator *v, vs *s, const sd_node *refn, const char *kw, vs **out)
{
    const sd_schema_info *ti;
    int err;
    if (refn->kind != SD_STR)
        return cerr(v, SD_ESYNTAX, refn, "'%s' must be a string", kw);
    *out = NULL;
    if (v->opts.lenient) {
        /* lenient: the failure is a warning and the $ref is left out */
        sd_diags tmp = SD_DIAGS_INIT;
        err = sd_resolver_resolve(v->r, &ti, s->node, refn->str, refn->loc, &tmp);
        for (size_t i = 0; i < tmp.count; i++) {
            const sd_diag *d = &tmp.items[i];
            sd_diag_add(v->diags, d->severity == SD_SEV_ERROR ? SD_SEV_WARNING : d->severity, 0,
                        d->loc, d->schema_ptr, d->instance_ptr, "%s",
                        d->message ? d->message : "out of memory");
        }
        sd_diags_release(&tmp);
        if (err == SD_ENOMEM)
            return cerr(v, SD_ENOMEM, refn, "out of memory");
        if (err < 0)
            return 1;
    } else if ((err = sd_resolver_resolve(v->r, &ti, s->node, refn->str, refn->loc, v->diags)) < 0) {
        if (!v->err)
            v->err = err;
        return err;
    }
    if (!(*out = vs_get(v, (sd_schema_info *)ti)))
        return cerr(v, SD_ENOMEM, refn, "out of memory");
    return 0;
}

/* 0 when the resource's meta-schema ($schema that is not a known draft)
 * lists a $vocabulary without the validation vocabulary (2019-09 core §8.1.2):
 * then type, enum, minimum... are not asserted. */
static int validation_vocab(sd_validator *v, const sd_schema_info *res)
{
    const sd_node *sch, *voc;
    const sd_schema_info *mi;
    sd_diags tmp = SD_DIAGS_INIT;
    int on = 1;
    struct vocab_memo *m;

    if (!res || res->node->kind != SD_MAP || res->draft < SD_DRAFT_2019 ||
        !(sch = sd_node_get(res->node, "$schema")) || sch->kind != SD_STR ||
        sd_draft_from_uri(sch->str))
        return 1;
    for (size_t i = 0; i < v->nvocab; i++)
        if (v->vocab[i].res == res)
            return v->vocab[i].validation;
    if (sd_resolver_resolve(v->r, &mi, res->node, sch->str, sch->loc, &tmp) == 0 &&
        (voc = sd_node_get(mi->node, "$vocabulary")) && voc->kind == SD_MAP) {
        on = 0;
        for (size_t i = 0; i < voc->n; i++) {
            const char *k = voc->items[i].key->str;
            size_t kl = voc->items[i].key->len;
            if (kl > 17 && !strcmp(k + kl - 17, "/vocab/validation"))
                on = 1;
        }
    }
    sd_diags_release(&tmp);
    if ((m = realloc(v->vocab, (v->nvocab + 1) * sizeof *m))) {
        v->vocab = m;
        m[v->nvocab].res = res;
        m[v->nvocab++].validation = on;
    }
    return on;
}

/* ---- the keywords (keywords.def) ---------------------------------------------- */

/* A record's field that a row of the table names. */
#define FIELD(s, kw, type) ((type *)(void *)((char *)(s) + (kw)->off))

/* A GENERIC keyword: read into its field by the field's kind. Compiling a
 * keyword sets its `need` bit when it gives the record something to check. */
static int compile_generic(sd_validator *v, vs *s, const sd_kw *kw, const sd_node *x)
{
    const char *k = kw->name;
    switch (kw->field) {
    case SD_KF_COUNT: {
        int err = count_kw(v, x, k, FIELD(s, kw, long long));
        if (err)
            return err;
        break;
    }
    case SD_KF_NUM:
        if (!is_num(x))
            return cerr(v, SD_ESYNTAX, x, "'%s' must be a number", k);
        *FIELD(s, kw, const sd_node *) = x;
        break;
    case SD_KF_REC:
        if (!(*FIELD(s, kw, vs *) = child_kw(v, x, k)))
            return SD_ERROR;
        break;
    case SD_KF_RECS: {
        size_t *n = (size_t *)(void *)((char *)s + kw->off_n);
        if (!(*FIELD(s, kw, vs **) = child_list(v, x, k, n)))
            return SD_ERROR;
        if (!*n)
            return 0;   /* an empty list applies nothing */
        break;
    }
    case SD_KF_FLAG:
        if (x->kind != SD_BOOL || !x->num.b)
            return 0;
        *FIELD(s, kw, uint8_t) = 1;
        break;
    default:
        return cerr(v, SD_ERROR, x, "internal error: keyword '%s' has no field to compile into", k);
    }
    s->need |= kw->need;
    return 0;
}

static int compile_type(sd_validator *v, vs *s, const sd_node *x)
{
    if (x->kind == SD_SEQ) {
        for (size_t j = 0; j < x->n; j++)
            s->types |= type_bit(x->items[j].value);
        if (!s->types)
            s->types = 0x80; /* type: [] allows nothing */
    } else if (!(s->types = type_bit(x))) {
        return cerr(v, SD_ESYNTAX, x, "unknown type '%s'", x->kind == SD_STR ? x->str : "?");
    }
    return 0;
}

static int compile_enum(sd_validator *v, vs *s, const sd_node *x)
{
    if (x->kind != SD_SEQ)
        return cerr(v, SD_ESYNTAX, x, "'enum' must be an array");
    s->enum_ = x;
    if (!(s->etape = tape_of(x)))
        return cerr(v, SD_ENOMEM, x, "out of memory");
    if (x->n > 8) {
        const sd_tval *e = s->etape->v + 1;
        if (!(s->ehash = malloc(x->n * sizeof *s->ehash)))
            return cerr(v, SD_ENOMEM, x, "out of memory");
        for (size_t j = 0; j < x->n; j++, e = sd_tval_next(e))
            s->ehash[j] = sd_vprog__hash(e);
    }
    return 0;
}

/* draft 4: a boolean flag on minimum/maximum (moved there after the loop);
 * later drafts: a number */
static int compile_exclusive(sd_validator *v, vs *s, const sd_kw *kw, const sd_node *x)
{
    if (s->draft == SD_DRAFT_4) {
        if (x->kind == SD_BOOL && x->num.b)
            *FIELD(s, kw, const sd_node *) = x;
        return 0;
    }
    if (!is_num(x))
        return cerr(v, SD_ESYNTAX, x, "'%s' must be a number", kw->name);
    *FIELD(s, kw, const sd_node *) = x;
    s->need |= kw->need;
    return 0;
}

/* dependencies (drafts 4-2019-09: names or a schema per key),
 * dependentRequired and dependentSchemas (2019-09+) */
static int compile_deps(sd_validator *v, vs *s, const sd_kw *kw, const sd_node *x)
{
    int err = 0;
    if (x->kind != SD_MAP)
        return cerr(v, SD_ESYNTAX, x, "'%s' must be an object", kw->name);
    for (size_t j = 0; j < x->n && !err; j++) {
        int is_schema = kw->id == SD_KW_dependentSchemas ||
                        (kw->id == SD_KW_dependencies && x->items[j].value->kind != SD_SEQ);
        err = add_dep(v, s, &x->items[j], kw->name, is_schema);
    }
    if (s->ndeps)
        s->need |= kw->need;
    return err;
}

static int compile_properties(sd_validator *v, vs *s, const sd_node *x)
{
    if (x->kind != SD_MAP)
        return cerr(v, SD_ESYNTAX, x, "'properties' must be an object");
    if (!(s->props = calloc(x->n ? x->n : 1, sizeof *s->props)))
        return cerr(v, SD_ENOMEM, x, "out of memory");
    for (size_t j = 0; j < x->n; j++) {
        vprop *pp = &s->props[j];
        pp->name = x->items[j].key->str;
        pp->len = x->items[j].key->len;
        pp->h = hash32(pp->name, pp->len);
        if (!(pp->s = child_kw(v, x->items[j].value, "properties")))
            return SD_ERROR;
        s->nprops++;
    }
    if (s->nprops > 24 && build_prop_hash(s) < 0)
        return cerr(v, SD_ENOMEM, x, "out of memory");
    return 0;
}

static int compile_pattern_properties(sd_validator *v, vs *s, const sd_node *x)
{
    if (x->kind != SD_MAP)
        return cerr(v, SD_ESYNTAX, x, "'patternProperties' must be an object");
    if (!(s->pats = calloc(x->n ? x->n : 1, sizeof *s->pats)))
        return cerr(v, SD_ENOMEM, x, "out of memory");
    for (size_t j = 0; j < x->n; j++) {
        vpat *pp = &s->pats[j];
        if (!compile_re(v, x->items[j].key, "patternProperties", &pp->re) ||
            !(pp->s = child_kw(v, x->items[j].value, "patternProperties"))) {
            if (pp->re.code)
                pcre2_code_free(pp->re.code);
            return SD_ERROR;
        }
        s->npats++;
    }
    return 0;
}

/* What compile_one() carries from one keyword to the next: the array form
 * of `items` and `additionalItems` (drafts 4-2019-09) pair up after the loop. */
typedef struct cstate { const sd_node *items_arr, *addl_items; } cstate;

/* An OWN keyword: its case here. Each sets its `need` bit itself, when the
 * record gets something to check. */
static int compile_own(sd_validator *v, vs *s, const sd_kw *kw, const sd_node *x, cstate *st)
{
    const char *k = kw->name;
    int err = 0, d = s->draft;
    switch (kw->id) {
    case SD_KW_type: err = compile_type(v, s, x); break;
    case SD_KW_enum: err = compile_enum(v, s, x); break;
    case SD_KW_const:
        s->has_const = 1;
        s->const_ = x;
        if (!(s->ctape = tape_of(x)))
            err = cerr(v, SD_ENOMEM, x, "out of memory");
        break;
    case SD_KW_pattern:
        if (!compile_re(v, x, k, &s->pattern))
            err = SD_ERROR;
        break;
    case SD_KW_format:
        if (x->kind == SD_STR)
            s->format = sd_format_id_for(x->str, d);
        if (s->format < 0 || (!s->assert_format && !s->warn_format))
            return 0;   /* unknown formats never assert; an annotation checks nothing */
        break;
    case SD_KW_exclusiveMinimum:
    case SD_KW_exclusiveMaximum: return compile_exclusive(v, s, kw, x);
    case SD_KW_multipleOf:
        if (!is_num(x))
            err = cerr(v, SD_ESYNTAX, x, "'%s' must be a number", k);
        else if (sd_node_number(x) <= 0)
            err = cerr(v, SD_ESYNTAX, x, "'multipleOf' must be greater than 0");
        else
            s->mult = x;
        break;
    case SD_KW_required:
        if (x->kind != SD_SEQ)
            err = cerr(v, SD_ESYNTAX, x, "'required' must be an array of strings");
        else
            s->required = x;
        break;
    case SD_KW_dependentRequired:
    case SD_KW_dependencies:
    case SD_KW_dependentSchemas: return compile_deps(v, s, kw, x);
    case SD_KW_properties:
        if ((err = compile_properties(v, s, x)) == 0 && !s->nprops)
            return 0;
        break;
    case SD_KW_patternProperties:
        if ((err = compile_pattern_properties(v, s, x)) == 0 && !s->npats)
            return 0;
        break;
    case SD_KW_items:
        if (d <= SD_DRAFT_2019 && x->kind == SD_SEQ) {
            st->items_arr = x;
            if (!(s->prefix = child_list(v, x, k, &s->nprefix)))
                err = SD_ERROR;
            else if (!s->nprefix)
                return 0;
        } else if (!(s->items = child_kw(v, x, k))) {
            err = SD_ERROR;
        }
        break;
    case SD_KW_additionalItems:
        if (!schema_ok(v, x, k))
            return SD_ERROR;
        st->addl_items = x;   /* applies only beside the array form of items */
        return 0;
    case SD_KW_contains:
        if (!(s->contains = child_kw(v, x, k)))
            err = SD_ERROR;
        if (s->minc < 0)
            s->minc = 1;
        break;
    default:
        return cerr(v, SD_ERROR, x, "internal error: keyword '%s' has no case in vcompile.c", k);
    }
    if (!err)
        s->need |= kw->need;
    return err;
}

/* $ref, $dynamicRef and $recursiveRef, before the other keywords: in drafts
 * 4-7 a $ref overrides its siblings (1: the record is done). */
static int compile_refs(sd_validator *v, vs *s)
{
    const sd_node *n = s->node, *x;
    int d = s->draft, err;

    if ((x = sd_node_get(n, "$ref"))) {
        vs *t;
        if ((err = resolve_ref(v, s, x, "$ref", &t)) < 0)
            return err;
        if (!t && d <= SD_DRAFT_7)
            return 1;   /* lenient: left out, and $ref overrides its siblings */
        /* drafts 4-7: $ref overrides its siblings; later drafts: a lone
         * $ref within one resource is the same as its target (crossing
         * resources would skip a dynamic scope) */
        if (t && (d <= SD_DRAFT_7 || (n->n == 1 && strcmp(s->info->base, t->info->base) == 0))) {
            s->alias = t;
            return 1;
        }
        if (t) {
            s->ref = t;
            s->need |= sd_kw_table[SD_KW_ref].need;
        }
    }
    if (d >= SD_DRAFT_2020 && (x = sd_node_get(n, "$dynamicRef"))) {
        const sd_schema_info *ti;
        if ((err = resolve_ref(v, s, x, "$dynamicRef", &s->dynref)) < 0)
            return err;
        ti = s->dynref ? s->dynref->info : NULL;
        if (ti) {
            const char *hash = strchr(x->str, '#');
            if (hash && hash[1] && hash[1] != '/' && ti->dyn_anchor && strcmp(ti->dyn_anchor, hash + 1) == 0) {
                s->dyn_kind = 1;
                s->dyn_name = hash + 1;
            }
        }
    }
    if (d == SD_DRAFT_2019 && (x = sd_node_get(n, "$recursiveRef"))) {
        if ((err = resolve_ref(v, s, x, "$recursiveRef", &s->dynref)) < 0)
            return err;
        if (s->dynref && s->dynref->info->rec_anchor)
            s->dyn_kind = 2;
    }
    if (s->dynref)
        s->need |= sd_kw_table[SD_KW_dynamicRef].need;
    return 0;   /* a lenient resolve_ref() returns 1 for a $ref left out */
}

/* After the keywords: what needs them all (keywords.def does not say it). */
static int compile_finish(sd_validator *v, vs *s, const cstate *st)
{
    if (s->draft == SD_DRAFT_4) {
        /* draft 4: exclusiveMinimum/Maximum are flags on minimum/maximum */
        if (s->exmin) { s->exmin = s->min; s->min = NULL; }
        if (s->exmax) { s->exmax = s->max; s->max = NULL; }
    }
    if (st->items_arr && st->addl_items) {
        if (!(s->items = child(v, st->addl_items)))
            return SD_ERROR;
        s->need |= sd_kw_table[SD_KW_items].need;
    }
    if (s->required && s->nprops) {
        /* when every required name is also in `properties`, the member loop
         * counts them and the separate lookups run only on failure */
        size_t fast = 0, all = 1;
        for (size_t j = 0; j < s->required->n && all; j++) {
            const sd_node *r = s->required->items[j].value;
            vprop *p;
            if (r->kind != SD_STR || !(p = find_prop(s, r->str, r->len))) {
                all = 0;
                break;
            }
            if (!p->req) {
                p->req = 1;
                fast++;
            }
        }
        if (all)
            s->nreq_fast = fast;
        else
            for (size_t j = 0; j < s->nprops; j++)
                s->props[j].req = 0;
    }
    s->has_uneval = s->uprops || s->uitems;
    if (s->dyn_kind)
        v->has_dynamic = 1;
    return 0;
}

/* One schema node -> its record: the $refs first, then every key the table
 * (keywords.def) knows for the node's draft, in the schema's order. */
static int compile_one(sd_validator *v, vs *s)
{
    const sd_node *n = s->node;
    cstate st = { NULL, NULL };
    int vocab_validation, d = s->draft, err;

    s->compiled = 1;
    if (n->kind == SD_BOOL) {
        s->kind = n->num.b ? VS_TRUE : VS_FALSE;
        return 0;
    }
    if (n->kind != SD_MAP)
        return cerr(v, SD_ESYNTAX, n, "a schema must be an object or a boolean, found %s", sd_node_type_word(n));
    s->res = sd_resolver_lookup(v->r, s->info->base);
    s->assert_format = v->opts.formats == SD_FORMATS_ASSERT ||
                       (v->opts.formats == SD_FORMATS_DEFAULT && d <= SD_DRAFT_7);
    /* 2019-09+ by default: a bad format is a warning, not a violation */
    s->warn_format = !s->assert_format && v->opts.formats == SD_FORMATS_DEFAULT;

    if ((err = compile_refs(v, s)) != 0)
        return err < 0 ? err : 0;
    vocab_validation = validation_vocab(v, s->res);
    for (size_t i = 0; i < n->n && !err; i++) {
        const sd_pair *p = &n->items[i];
        const sd_kw *kw = sd_kw_find(p->key->str, p->key->len);
        if (!kw || d < kw->from || d > kw->to || (!vocab_validation && kw->vocab))
            continue;
        if (kw->compile == SD_KC_GENERIC)
            err = compile_generic(v, s, kw, p->value);
        else if (kw->compile == SD_KC_OWN)
            err = compile_own(v, s, kw, p->value, &st);
        if (!err && v->err)
            err = v->err;
    }
    if (err)
        return err < 0 ? err : SD_ERROR;
    return compile_finish(v, s, &st);
}

/* Compile queued records in order (first in, first out, so errors come in
 * document order); after an error keep going to report every bad $ref. */
static int drain(sd_validator *v)
{
    int first = 0;
    while (v->whead < v->nwork) {
        vs *s = v->work[v->whead++];
        if (!s->compiled) {
            int err = compile_one(v, s);
            if (err == SD_ENOMEM)
                return err;
            if (err < 0 && !first)
                first = err;
        }
    }
    v->whead = v->nwork = 0;
    return first;
}

/* Every schema with a $dynamicAnchor or a $recursiveAnchor gets its record
 * up front: a dynamic reference may land on any of them. They are made in
 * document order, not in the resolver's, whose index is keyed by address
 * (the rules list records in the order they were made: the same schema must
 * give the same document on every run). */
typedef struct dyn_list { sd_schema_info **a; size_t n, cap; const sd_schema_info *nomem; } dyn_list;

static void collect_dynamic(sd_schema_info *info, void *payload)
{
    dyn_list *l = payload;
    if (!(info->dyn_anchor || info->rec_anchor) || info->user || l->nomem)
        return;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        sd_schema_info **a = realloc(l->a, cap * sizeof *a);
        if (!a) {
            l->nomem = info;
            return;
        }
        l->a = a;
        l->cap = cap;
    }
    l->a[l->n++] = info;
}

static int by_place(const void *pa, const void *pb)
{
    const sd_schema_info *a = *(sd_schema_info *const *)pa, *b = *(sd_schema_info *const *)pb;
    const sd_loc *x = &a->node->loc, *y = &b->node->loc;
    int c = strcmp(x->file ? x->file : "", y->file ? y->file : "");
    if (c)
        return c;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    if (x->column != y->column)
        return x->column < y->column ? -1 : 1;
    /* documents built in memory: the base and the pointer (made before the sort) */
    if ((c = strcmp(a->base ? a->base : "", b->base ? b->base : "")) != 0)
        return c;
    return strcmp(a->ptr ? a->ptr : "", b->ptr ? b->ptr : "");
}

static void precompile_dynamic(sd_validator *v)
{
    dyn_list l = { NULL, 0, 0, NULL };
    sd_resolver_each(v->r, collect_dynamic, &l);
    for (size_t i = 0; i < l.n && !l.nomem; i++)
        if (!sd_schema_ptr(v->r, l.a[i]))
            l.nomem = l.a[i];
    if (l.nomem) {
        cerr(v, SD_ENOMEM, l.nomem->node, "out of memory");
        free(l.a);
        return;
    }
    if (l.n > 1)
        qsort(l.a, l.n, sizeof *l.a, by_place);
    for (size_t i = 0; i < l.n && !v->err; i++)
        if (!l.a[i]->user && !vs_get(v, l.a[i]))
            cerr(v, SD_ENOMEM, l.a[i]->node, "out of memory");
    free(l.a);
}

int sd_validator_new(sd_validator **out, const sd_doc *doc, const sd_node *schema,
                     const sd_validate_opts *opts, sd_diags *diags)
{
    sd_validator *v = calloc(1, sizeof *v);
    sd_loc l = { doc ? doc->file : NULL, 0, 0 };
    int err;

    *out = NULL;
    if (!v)
        return sd_diag_error(diags, SD_ENOMEM, l, "out of memory");
    if (opts)
        v->opts = *opts;
    if (v->opts.resolver) {
        v->r = v->opts.resolver;
    } else {
        sd_resolve_opts ro = { 0 };
        ro.load = v->opts.load;
        ro.map = v->opts.map;
        ro.payload = v->opts.payload;
        ro.draft = v->opts.draft ? v->opts.draft : v->opts.default_draft ? v->opts.default_draft : SD_DRAFT_2020;
        if (!(v->r = sd_resolver_new(&ro))) {
            free(v);
            return sd_diag_error(diags, SD_ENOMEM, l, "out of memory");
        }
        v->own_r = 1;
    }
    v->mctx = pcre2_match_context_create(NULL);
    v->md = pcre2_match_data_create(1, NULL);
    if (!v->mctx || !v->md) {
        sd_validator_free(v);
        return sd_diag_error(diags, SD_ENOMEM, l, "out of memory");
    }
    pcre2_set_match_limit(v->mctx, (uint32_t)(v->opts.regex_match_limit ? v->opts.regex_match_limit : DEFAULT_MATCH_LIMIT));
    pcre2_set_depth_limit(v->mctx, 10000);
    {
        uint32_t jit = 0;
        v->jit = pcre2_config(PCRE2_CONFIG_JIT, &jit) >= 0 && jit;
    }
    if (schema && (err = sd_validator_add(v, doc, schema, diags)) < 0) {
        sd_validator_free(v);
        return err;
    }
    *out = v;
    return 0;
}

int sd_validator_add(sd_validator *v, const sd_doc *doc, const sd_node *schema, sd_diags *diags)
{
    sd_schema_info *ri;
    vs *root;
    int err;

    if (v->err)
        return v->err;  /* an earlier root failed to compile: the program is incomplete */
    if (v->nroots == v->aroots) {
        size_t n = v->aroots ? v->aroots * 2 : 4;
        vs **p = realloc(v->roots, n * sizeof *p);
        if (!p)
            return sd_diag_error(diags, SD_ENOMEM, schema->loc, "out of memory");
        v->roots = p;
        v->aroots = n;
    }
    v->diags = diags;
    /* a forced draft wins over $schema: index with it as the default and
     * let only nested resources with their own $schema differ */
    if (!(ri = sd_resolver_info(v->r, schema)) &&
        (err = sd_resolver_add(v->r, doc, schema, v->opts.base_uri, v->opts.draft, diags)) < 0)
        goto fail;
    if (v->opts.draft && (ri = sd_resolver_info(v->r, schema)))
        ri->draft = v->opts.draft;
    if (!(ri = sd_resolver_info(v->r, schema)) || !(root = vs_get(v, ri))) {
        err = sd_diag_error(diags, SD_ENOMEM, schema->loc, "out of memory");
        goto fail;
    }
    for (;;) {
        size_t before = v->nlist;
        if ((err = drain(v)) < 0)
            goto fail;
        precompile_dynamic(v);
        if (v->err) { err = v->err; goto fail; }
        if (v->nlist == before && !v->nwork)
            break;
    }
    /* collapse alias chains (with path compression: linear overall); a
     * cycle of pure $refs is a loop */
    for (size_t i = 0; i < v->nlist; i++) {
        vs *s = v->list[i], *t;
        if (!s->alias || s->alias_state == 2)
            continue;
        for (t = s; t->alias && t->alias_state == 0; t = t->alias)
            t->alias_state = 1;
        /* t: a non-alias (the end), a finished alias, or one on this path (a cycle) */
        {
            vs *end = t->alias ? (t->alias_state == 2 ? t->alias : NULL) : t;
            int loop = !end || (t->alias && t->loop);
            for (vs *u = s; u->alias_state == 1; ) {
                vs *next = u->alias;
                u->alias_state = 2;
                if (loop)
                    u->loop = 1;
                else
                    u->alias = end;
                u = next;
            }
        }
    }
    v->diags = NULL;
    v->roots[v->nroots] = root;
    return (int)v->nroots++;
fail:
    v->diags = NULL;
    if (!v->err)
        v->err = err < 0 ? err : SD_ERROR;
    return v->err;
}

void sd_validator_free(sd_validator *v)
{
    if (!v)
        return;
    for (size_t i = 0; i < v->nlist; i++) {
        vs *s = v->list[i];
        free(s->all); free(s->any); free(s->one);
        free(s->props); free(s->phash);
        for (size_t j = 0; j < s->npats; j++) {
            pcre2_code_free(s->pats[j].re.code);
            sd_ecma_dfa_free(s->pats[j].re.dfa);
        }
        free(s->pats);
        free(s->deps);
        free(s->prefix);
        pcre2_code_free(s->pattern.code);
        sd_ecma_dfa_free(s->pattern.dfa);
        free(s->ehash);
        tape_drop(s->ctape);
        tape_drop(s->etape);
        free(s);
    }
    free(v->list);
    free(v->work);
    free(v->vocab);
    free(v->roots);
    if (v->md) pcre2_match_data_free(v->md);
    if (v->mctx) pcre2_match_context_free(v->mctx);
    if (v->own_r)
        sd_resolver_free(v->r);
    free(v);
}


