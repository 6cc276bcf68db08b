/* SPDX-License-Identifier: Apache-2.0 */
/* tmplrefs.c - the values paths a chart's templates use, and how: read,
 * written out whole, handed on whole, or ranged over (see tmplrefs.h).
 *
 * In: Go template text (Helm's templates/), tokens from src/gotmpl's lexer
 * one action at a time. Out: sd_tmplrefs, a trie of paths. Only the reading
 * of references is here, not src/gotmpl's engine: that one refuses
 * functions it does not run, and Helm's templates call many (include,
 * required, lookup...); here a function is only a name, and what matters
 * is which values path reaches which name. A path is a node of the trie
 * (a few alternatives where a value may be one of several: merge, default,
 * coalesce), so a long prefix bound by `with` is stored once. */
#include "alloc.h"
#include "tmplrefs.h"
#include "gotmpl_lex.h"

#include <stdlib.h>
#include <string.h>

#define MAX_NODES  ((size_t)1 << 20)
#define MAX_SEG    24
#define MAX_FRAMES 64
#define MAX_VARS   128
#define MAX_NEST   32
#define MAX_ARGS   64
#define ALTS       4           /* alternatives one value may be */
#define FRONTIER   256         /* trie nodes one key of a query may match */
#define ROOT_CTX   UINT32_MAX  /* the root context (`.` at the top, `$`) */
#define NO_NODE    (UINT32_MAX - 1)

/* sd_tmplnode.mark */
enum {
    M_SUBREAD    = 1 << 0,  /* it or a node below it is read */
    M_SUBRNW     = 1 << 1,  /* a node strictly below it is read and not handed on */
    M_READ_BELOW = 1 << 2   /* handed on whole, but read key by key below */
};

/* ---- the trie of paths ----------------------------------------------------------- */

static uint32_t hash_key(uint32_t parent, const char *k, size_t n)
{
    uint32_t h = 2166136261u ^ (parent * 0x9E3779B1u);
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)k[i]) * 16777619u;
    return h;
}

static int grow_index(sd_tmplrefs *r)
{
    size_t cap = r->cap ? r->cap * 2 : 256;
    uint32_t *slot = calloc(cap, sizeof *slot);
    if (!slot)
        return -1;
    for (size_t i = 1; i < r->nnodes; i++) {
        const sd_tmplnode *x = &r->nodes[i];
        size_t h = hash_key(x->parent, x->seg, x->len) & (cap - 1);
        while (slot[h])
            h = (h + 1) & (cap - 1);
        slot[h] = (uint32_t)i + 1;
    }
    free(r->slot);
    r->slot = slot;
    r->cap = cap;
    return 0;
}

static int add_node(sd_tmplrefs *r, uint32_t parent, const char *k, size_t n)
{
    if (sd_grow((void **)&r->nodes, &r->anodes, r->nnodes + 1, sizeof *r->nodes) < 0)
        return -1;
    sd_tmplnode *x = &r->nodes[r->nnodes];
    memset(x, 0, sizeof *x);
    if (!(x->seg = sd_arena_strndup(&r->arena, k, n)))
        return -1;
    x->len = (uint32_t)n;
    x->parent = parent;
    if (r->nnodes) {
        sd_tmplnode *p = &r->nodes[parent];
        x->depth = (uint16_t)(p->depth + 1);
        x->next = p->child;
        p->child = (uint32_t)r->nnodes + 1;
    }
    r->nnodes++;
    return 0;
}

/* The child `k` of node `parent`, or NO_NODE. */
static uint32_t find(const sd_tmplrefs *r, uint32_t parent, const char *k, size_t n)
{
    if (!r->cap)
        return NO_NODE;
    for (size_t h = hash_key(parent, k, n) & (r->cap - 1); r->slot[h]; h = (h + 1) & (r->cap - 1)) {
        const sd_tmplnode *x = &r->nodes[r->slot[h] - 1];
        if (x->parent == parent && x->len == n && !memcmp(x->seg, k, n))
            return r->slot[h] - 1;
    }
    return NO_NODE;
}

/* The child `k` of node `parent`, made when missing; NO_NODE when the path
 * is too deep or the trie is full. */
static uint32_t child(sd_tmplrefs *r, uint32_t parent, const char *k, size_t n)
{
    uint32_t c;
    size_t h;

    if (!r->nnodes || r->oom || n > UINT32_MAX)
        return NO_NODE;
    if ((c = find(r, parent, k, n)) != NO_NODE)
        return c;
    if (r->nodes[parent].depth >= MAX_SEG || r->nnodes >= MAX_NODES)
        return NO_NODE;
    if ((r->nnodes + 1) * 2 > r->cap && grow_index(r) < 0) {
        r->oom = 1;
        return NO_NODE;
    }
    if (add_node(r, parent, k, n) < 0) {
        r->oom = 1;
        return NO_NODE;
    }
    for (h = hash_key(parent, k, n) & (r->cap - 1); r->slot[h]; h = (h + 1) & (r->cap - 1))
        ;
    r->slot[h] = (uint32_t)r->nnodes;
    return (uint32_t)r->nnodes - 1;
}

static int ensure_root(sd_tmplrefs *r)
{
    if (!r->nnodes && add_node(r, 0, "", 0) < 0)
        return r->oom = 1, -1;
    return 0;
}

/* ---- values while scanning ---------------------------------------------------- */

/* What a term stands for: up to ALTS nodes (or ROOT_CTX); none when n is 0. */
typedef struct tpath { uint8_t n; uint32_t id[ALTS]; } tpath;

static tpath none(void)
{
    tpath p;
    memset(&p, 0, sizeof p);
    return p;
}

static tpath one(uint32_t id)
{
    tpath p = none();
    p.n = 1;
    p.id[0] = id;
    return p;
}

static void add_alt(tpath *p, uint32_t id)
{
    for (size_t i = 0; i < p->n; i++)
        if (p->id[i] == id)
            return;
    if (p->n < ALTS)
        p->id[p->n++] = id;
}

static void join(tpath *p, const tpath *q)
{
    for (size_t i = 0; i < q->n; i++)
        add_alt(p, q->id[i]);
}

typedef struct span { const char *p; size_t n; } span;
typedef struct var { span name; tpath p; } var;

enum { F_IF, F_WITH, F_RANGE, F_DEFINE };
typedef struct frame { int kind; tpath outer; size_t vars; } frame;

/* The tokens of one action, from the lexer's: a term is a field, variable
 * or dot with the fields written right after it (`$r.Values.a`); T_CHAIN,
 * the fields right after a `)`. */
enum { T_TERM, T_CHAIN, T_IDENT, T_STR, T_LP, T_RP, T_PIPE, T_COMMA, T_DECL, T_ASSIGN, T_OTHER };
typedef struct tok {
    int         t;
    const char *p;     /* T_IDENT: the name; T_STR: inside the quotes; T_TERM: the first token */
    size_t      n;
    size_t      g0, g1;  /* T_TERM, T_CHAIN: the lexer's tokens [g0, g1) */
} tok;

/* sd_tmplrefs__scan_each's callback. */
typedef struct observer {
    int (*fn)(const sd_tmplact *act, void *payload);
    void *payload;
    const char *text;
} observer;

typedef struct scan {
    sd_tmplrefs *r;
    tpath        dot;
    frame        frames[MAX_FRAMES];
    size_t       nframes;
    var          vars[MAX_VARS];
    size_t       nvars;
    const gtok  *g;        /* the lexer's tokens of the action read */
    tok         *toks;
    size_t       ntoks, atoks;
    int          hashing;  /* the pipeline ends in a checksum: nothing is handed on */
    observer    *obs;      /* sd_tmplrefs__scan_each's, else NULL */
    sd_tmplact  *act;      /* (then) the action being read */
    uint32_t     param;    /* (then) a named template's dot */
    tok          dict[SD_TMPLACT_PAIRS];  /* the last (dict "k" v ...) read: keys */
    tpath        dictv[SD_TMPLACT_PAIRS]; /* and values */
    size_t       ndict;
    int          text_arg; /* reading tpl's text: a string, not a value written out */
} scan;

/* `p` with the key `k` below each alternative (`.Values` below the root
 * context). */
static void push_seg(scan *s, tpath *p, const char *k, size_t n)
{
    tpath q = none();
    for (size_t i = 0; i < p->n; i++) {
        uint32_t c;
        if (p->id[i] == ROOT_CTX)
            c = n == 6 && !memcmp(k, "Values", 6) ? 0 : NO_NODE;
        else
            c = child(s->r, p->id[i], k, n);
        if (c != NO_NODE)
            add_alt(&q, c);
    }
    *p = q;
}

/* scan_each: the term `t` (standing for `p`) goes into the action; with no
 * `t`, the action's terms standing for `p` are also used so (`| toYaml`). */
static void keep_term(scan *s, const tok *t, const tpath *p, unsigned use)
{
    sd_tmplact *a = s->act;
    for (size_t k = 0; a && !t && k < a->nterm; k++)
        for (size_t i = 0, j; i < p->n; i++)
            for (j = 0; j < a->term[k].nnode; j++)
                a->term[k].use |= a->term[k].node[j] == p->id[i] ? use : 0;
    if (!a || !t || a->nterm == SD_TMPLACT_TERMS)
        return;
    sd_tmplterm *k = &a->term[a->nterm];
    k->start = (size_t)(s->g[t->g0].p - s->obs->text);
    k->end = (size_t)(s->g[t->g1 - 1].p + s->g[t->g1 - 1].n - s->obs->text);
    k->use = use;
    for (size_t i = k->nnode = 0; i < p->n; i++)
        if (p->id[i] != ROOT_CTX)
            k->node[k->nnode++] = p->id[i];
    a->nterm += k->nnode > 0;
}

/* Record `use` of every alternative of `p`. */
static void record(scan *s, const tpath *p, unsigned use)
{
    sd_tmplrefs *r = s->r;
    keep_term(s, NULL, p, use);
    for (size_t i = 0; i < p->n; i++) {
        uint32_t id = p->id[i];
        unsigned u = use;
        if (id == ROOT_CTX || id >= r->nnodes)
            continue;
        if (s->act && id && (u & SD_TREF_DUMP) && !s->text_arg) {
            size_t k = 0;
            while (k < s->act->nwhole && s->act->whole[k] != id)
                k++;
            if (k == s->act->nwhole && k < SD_TMPLACT_WHOLE)
                s->act->whole[s->act->nwhole++] = id;
        }
        if (id == 0)
            u &= SD_TREF_READ;   /* `toYaml .Values` (a dump, a checksum) frees nothing */
        if (!r->nodes[id].use && u)
            r->n++;
        r->nodes[id].use |= (uint8_t)u;
    }
}

static unsigned whole_flags(int whole)
{
    return whole == 2 ? SD_TREF_WHOLE | SD_TREF_DUMP : whole == 1 ? SD_TREF_WHOLE : 0;
}

/* ---- tokens of one action ---------------------------------------------------- */

static int tok_is(const tok *t, int type, const char *text)
{
    size_t n = strlen(text);
    return t->t == type && t->n == n && !memcmp(t->p, text, n);
}

static int add_tok(scan *s, tok t)
{
    if (sd_grow((void **)&s->toks, &s->atoks, s->ntoks + 1, sizeof *s->toks) < 0)
        return s->r->oom = 1, -1;
    s->toks[s->ntoks++] = t;
    return 0;
}

/* The lexer's tokens g[1..count-1) (inside the delimiters) -> s->toks. */
static int tokens(scan *s, const gtok *g, size_t count)
{
    s->ntoks = 0;
    s->g = g;
    for (size_t i = 1; i + 1 < count; i++) {
        const gtok *x = &g[i];
        tok t = { T_OTHER, x->p, x->n, i, i + 1 };
        switch (x->t) {
        case GT_SPACE:
            continue;
        case GT_FIELD: case GT_VARIABLE: case GT_DOT:
            t.t = T_TERM;
            if (x->t == GT_FIELD && i > 1 && g[i - 1].t == GT_RPAREN)
                t.t = T_CHAIN;
            while (t.g1 + 1 < count && g[t.g1].t == GT_FIELD)
                t.g1++;
            i = t.g1 - 1;
            break;
        case GT_STRING: case GT_RAWSTRING:
            t.t = T_STR;   /* the text between the quotes (escapes left as they are) */
            t.p = x->p + 1;
            t.n = x->n >= 2 ? x->n - 2 : 0;
            break;
        case GT_IDENT: case GT_BLOCK: case GT_BREAK: case GT_CONTINUE: case GT_DEFINE:
        case GT_ELSE: case GT_END: case GT_IF: case GT_RANGE: case GT_TEMPLATE: case GT_WITH:
            t.t = T_IDENT;
            break;
        case GT_LPAREN: t.t = T_LP; break;
        case GT_RPAREN: t.t = T_RP; break;
        case GT_PIPE:   t.t = T_PIPE; break;
        case GT_DECLARE: t.t = T_DECL; break;
        case GT_ASSIGN: t.t = T_ASSIGN; break;
        case GT_CHARTOK:
            if (x->n == 1 && x->p[0] == ',')
                t.t = T_COMMA;
            break;
        default:
            break;
        }
        if (add_tok(s, t) < 0)
            return -1;
    }
    return 0;
}

/* ---- terms and pipelines --------------------------------------------------------- */

static const var *lookup(const scan *s, const char *p, size_t n)
{
    for (size_t i = s->nvars; i-- > 0;)
        if (s->vars[i].name.n == n && !memcmp(s->vars[i].name.p, p, n))
            return &s->vars[i];
    return NULL;
}

/* `p` with the keys of the field tokens g[from, to) below it. */
static void push_fields(scan *s, tpath *p, size_t from, size_t to)
{
    for (size_t i = from; i < to && p->n; i++)
        push_seg(s, p, s->g[i].p + 1, s->g[i].n - 1);
}

/* What a term stands for. `.Values...` is the values wherever it is written
 * (a named template is called with the root context as its dot, as charts
 * do); `$` is the root context unless a template rebinds it. */
static tpath term_path(scan *s, const tok *t)
{
    const gtok *first = &s->g[t->g0];
    size_t rest = t->g0 + 1;
    tpath p = none();

    if (first->t == GT_FIELD) {
        if (first->n == 7 && !memcmp(first->p, ".Values", 7))
            p = one(0);
        else {
            p = s->dot;
            rest = t->g0;
        }
    } else if (first->t == GT_DOT) {
        p = s->dot;
    } else {
        const var *v = lookup(s, first->p, first->n);
        if (v)
            p = v->p;
        else if (first->n == 1)
            p = one(ROOT_CTX);
    }
    push_fields(s, &p, rest, t->g1);
    return p;
}

/* The end of the argument starting at toks[i]: a term, or a (...) group
 * with the fields written after it. */
static size_t arg_end(const scan *s, size_t i, size_t to)
{
    int depth = 0;
    if (s->toks[i].t != T_LP)
        return i + 1;
    for (size_t j = i; j < to; j++) {
        if (s->toks[j].t == T_LP)
            depth++;
        else if (s->toks[j].t == T_RP && --depth == 0)
            return j + 1 < to && s->toks[j + 1].t == T_CHAIN ? j + 2 : j + 1;
    }
    return to;
}

/* 2: written out whole (toYaml, toJson, tpl); 1: handed on whole (include). */
static int whole_fn(const tok *t)
{
    static const char *const dumps[] = {
        "toYaml", "toJson", "toPrettyJson", "toRawJson", "mustToJson", "mustToPrettyJson",
        "mustToRawJson", "toToml", "tpl", NULL
    };
    for (const char *const *f = dumps; *f; f++)
        if (tok_is(t, T_IDENT, *f))
            return 2;
    return tok_is(t, T_IDENT, "include") ? 1 : 0;
}

static int is_hash_fn(const tok *t)
{
    return tok_is(t, T_IDENT, "sha256sum") || tok_is(t, T_IDENT, "sha1sum") ||
           tok_is(t, T_IDENT, "sha512sum") || tok_is(t, T_IDENT, "adler32sum");
}

/* Functions whose result is (one of) their map arguments, or (concat)
 * holds their lists' items. */
static int passes_map(const tok *t)
{
    static const char *const fns[] = {
        "default", "required", "coalesce", "deepCopy", "mustDeepCopy", "omit", "pick",
        "merge", "mergeOverwrite", "mustMerge", "mustMergeOverwrite", "ternary", "concat", NULL
    };
    for (const char *const *f = fns; *f; f++)
        if (tok_is(t, T_IDENT, *f))
            return 1;
    return 0;
}

static tpath pipeline(scan *s, size_t from, size_t to, int whole, int depth);

/* One argument: what it stands for (recorded as read, and as handed on
 * when `whole`). */
static tpath argument(scan *s, size_t i, size_t e, int whole, int depth)
{
    tpath p = none();
    if (s->toks[i].t == T_LP) {
        size_t rp = e;
        if (rp > i + 1 && s->toks[rp - 1].t == T_CHAIN)
            rp--;
        if (rp > i + 1 && s->toks[rp - 1].t == T_RP)
            rp--;
        int chain = e > i + 1 && s->toks[e - 1].t == T_CHAIN;
        /* `(P).a.b`: what is handed on is P's key a.b, not P */
        p = pipeline(s, i + 1, rp, chain ? 0 : whole, depth + 1);
        if (chain)
            push_fields(s, &p, s->toks[e - 1].g0, s->toks[e - 1].g1);
    } else if (s->toks[i].t == T_TERM) {
        p = term_path(s, &s->toks[i]);
        keep_term(s, &s->toks[i], &p, SD_TREF_READ | whole_flags(whole));
    } else {
        return p;
    }
    record(s, &p, SD_TREF_READ | whole_flags(whole));
    return p;
}

/* `p` with the string arguments args[from..to) appended as keys (index,
 * get, dig); stops at the first argument that is not a string. */
static tpath with_keys(scan *s, tpath p, const size_t *arg, size_t from, size_t to)
{
    for (size_t k = from; k < to && p.n; k++) {
        const tok *t = &s->toks[arg[k]];
        if (t->t != T_STR)
            break;
        push_seg(s, &p, t->p, t->n);
    }
    return p;
}

static void act_arg(sd_tmplact *a, const tpath *p)
{
    a->narg = 0;
    for (size_t i = 0; i < p->n && a->narg < 4; i++)
        a->arg[a->narg++] = p->id[i] == ROOT_CTX ? SD_TMPL_ROOTCTX : p->id[i];
}

/* sd_tmplrefs__scan_each: a `dict` call's pairs are kept for the include
 * that gets it; an include's name and argument go into the action. */
static void observe_call(scan *s, const tok *f, const size_t *arg, const tpath *res, size_t n)
{
    sd_tmplact *a = s->act;
    if (tok_is(f, T_IDENT, "dict")) {
        s->ndict = 0;
        for (size_t k = 0; k + 1 < n && s->ndict < SD_TMPLACT_PAIRS; k += 2)
            if (s->toks[arg[k]].t == T_STR) {
                s->dict[s->ndict] = s->toks[arg[k]];
                s->dictv[s->ndict++] = res[k + 1];
            }
    } else if ((tok_is(f, T_IDENT, "typeOf") || tok_is(f, T_IDENT, "typeIs") ||
                tok_is(f, T_IDENT, "kindOf") || tok_is(f, T_IDENT, "kindIs")) && n) {
        const tpath *p = &res[n - 1];
        for (size_t i = 0; i < p->n && a->ntested < 4; i++)
            if (p->id[i] != ROOT_CTX)
                a->tested[a->ntested++] = p->id[i];
} else if (tok_is(f, T_IDENT, "include") && !a->name && n >= 2 && s->toks[arg[0]].t == T_STR) {
        a->name = s->toks[arg[0]].p;
        a->name_n = s->toks[arg[0]].n;
        act_arg(a, &res[1]);
        a->npair = 0;
        if (s->toks[arg[1]].t == T_LP)
            for (size_t k = 0; k < s->ndict; k++)
                if (s->dictv[k].n)
                    a->pair[a->npair++] = (sd_tmplpair){ s->dict[k].p, s->dict[k].n,
                        s->dictv[k].id[0] == ROOT_CTX ? SD_TMPL_ROOTCTX : s->dictv[k].id[0] };
    }
}

/* One command of a pipeline: a function with arguments, or a term; `prev`
 * is the previous command's result (what the pipe hands on). */
static tpath command(scan *s, size_t from, size_t to, int whole, const tpath *prev, int depth)
{
    const tok *f = &s->toks[from];
    size_t arg[MAX_ARGS], n = 0;
    tpath res[MAX_ARGS];

    if (f->t != T_IDENT)
        return argument(s, from, arg_end(s, from, to), whole, depth);
    int fs = s->hashing ? 0 : whole_fn(f);
    int fw = fs > whole ? fs : whole;
    int tpl = tok_is(f, T_IDENT, "tpl");
    if (fw && prev && prev->n)
        record(s, prev, SD_TREF_READ | whole_flags(fw));
    s->ndict = 0;
    for (size_t i = from + 1; i < to && n < MAX_ARGS;) {
        size_t e = arg_end(s, i, to);
        arg[n] = i;
        /* tpl's second argument is the context it runs in, not written out */
        int text = s->text_arg;
        if (tpl && !n && s->toks[i].t != T_LP)
            s->text_arg = 1;   /* `tpl .Values.x $`: x is template text */
        res[n] = argument(s, i, e, tpl && n ? whole : fw, depth);
        s->text_arg = text;
        n++;
        i = e;
    }
    if (s->act)
        observe_call(s, f, arg, res, n);
    /* what the call gives back, when it is (a part of) a values path */
    if (tok_is(f, T_IDENT, "index") || tok_is(f, T_IDENT, "get"))
        return n ? with_keys(s, res[0], arg, 1, n) : none();
    if (tok_is(f, T_IDENT, "hasKey")) {
        tpath k = n ? with_keys(s, res[0], arg, 1, n) : none();
        record(s, &k, SD_TREF_READ);
        return none();
    }
    if (tok_is(f, T_IDENT, "dig")) {
        /* dig "a" "b" DEFAULT MAP */
        if (n < 3)
            return none();
        tpath p = res[n - 1];
        for (size_t k = 0; k + 2 < n && p.n; k++) {
            if (s->toks[arg[k]].t != T_STR)
                return none();
            push_seg(s, &p, s->toks[arg[k]].p, s->toks[arg[k]].n);
        }
        record(s, &p, SD_TREF_READ);
        return p;
    }
    if (passes_map(f)) {
        /* `merge $a $b`, `.Values.a | default .Values.b`: any of them */
        tpath p = prev ? *prev : none();
        for (size_t k = 0; k < n; k++)
            join(&p, &res[k]);
        return p;
    }
    return none();
}

/* A pipeline toks[from..to): its commands in order; returns the last
 * one's result. */
static tpath pipeline(scan *s, size_t from, size_t to, int whole, int depth)
{
    tpath prev = none();
    int outer_hashing = s->hashing;

    if (depth > MAX_NEST)
        return prev;
    for (size_t i = from; i < to; i++)
        if (is_hash_fn(&s->toks[i]))
            s->hashing = 1;
    for (size_t i = from; i < to;) {
        size_t e = i;
        int d = 0;
        while (e < to && !(d == 0 && s->toks[e].t == T_PIPE)) {
            if (s->toks[e].t == T_LP)
                d++;
            else if (s->toks[e].t == T_RP)
                d--;
            e++;
        }
        if (e > i)
            prev = command(s, i, e, whole, i > from ? &prev : NULL, depth);
        i = e + 1;
    }
    s->hashing = outer_hashing;
    return prev;
}

/* ---- actions ---------------------------------------------------------------------- */

static void bind(scan *s, const tok *name, const tpath *p, int assign)
{
    var *v = assign ? (var *)lookup(s, name->p, name->n) : NULL;
    if (name->n == 1 && !p->n)
        return;   /* `$ := .` where the dot is not known (a define): $ stays the root */
    if (v) {
        v->p = *p;
        return;
    }
    if (s->nvars < MAX_VARS)
        s->vars[s->nvars++] = (var){ { name->p, name->n }, *p };
}

static int is_var(const scan *s, const tok *t)
{
    return t->t == T_TERM && t->g1 == t->g0 + 1 && s->g[t->g0].t == GT_VARIABLE;
}

/* A pipeline that may declare: `$x := P`, `$x = P`, `$k, $v := P` (range).
 * Returns P's result; `range` binds the element, not P. */
static tpath decl_pipeline(scan *s, size_t from, size_t to, int range)
{
    const tok *t = s->toks;
    size_t nv = 0, v[2];
    size_t i = from;
    int assign = 0;

    while (i < to && is_var(s, &t[i]) && nv < 2) {
        v[nv++] = i++;
        if (i < to && t[i].t == T_COMMA)
            i++;
        else
            break;
    }
    if (nv && i < to && (t[i].t == T_DECL || t[i].t == T_ASSIGN)) {
        assign = t[i].t == T_ASSIGN;
        i++;
    } else {
        nv = 0;
        i = from;
    }
    tpath p = pipeline(s, i, to, 0, 0);
    if (range) {
        tpath el = p;
        record(s, &p, SD_TREF_READ | SD_TREF_NAMES);
        push_seg(s, &el, "*", 1);
        if (nv == 2) {
            tpath k = none();
            bind(s, &t[v[0]], &k, assign);
            bind(s, &t[v[1]], &el, assign);
        } else if (nv == 1) {
            bind(s, &t[v[0]], &el, assign);
        }
        return el;
    }
    if (nv == 1)
        bind(s, &t[v[0]], &p, assign);
    record(s, &p, SD_TREF_READ);   /* printed, tested or bound: read (`index .Values "a-b"`) */
    return p;
}

static void push_frame(scan *s, int kind)
{
    if (s->nframes < MAX_FRAMES)
        s->frames[s->nframes] = (frame){ kind, s->dot, s->nvars };
    s->nframes++;   /* past the bound: counted, so `end`s still pair up */
}

static void pop_frame(scan *s)
{
    if (!s->nframes)
        return;
    if (--s->nframes < MAX_FRAMES) {
        s->dot = s->frames[s->nframes].outer;
        s->nvars = s->frames[s->nframes].vars;
    }
}

static frame *top(scan *s)
{
    return s->nframes && s->nframes <= MAX_FRAMES ? &s->frames[s->nframes - 1] : NULL;
}

/* One action's tokens. */
static void action(scan *s)
{
    const tok *t = s->toks;
    size_t n = s->ntoks;

    if (!n)
        return;
    if (tok_is(&t[0], T_IDENT, "end")) {
        if (s->act)
            s->act->kind = SD_TACT_END;
        pop_frame(s);
    } else if (tok_is(&t[0], T_IDENT, "else")) {
        frame *f = top(s);
        if (f)
            s->dot = f->outer;
        if (n > 1 && tok_is(&t[1], T_IDENT, "with")) {
            tpath p = decl_pipeline(s, 2, n, 0);
            s->dot = p;
        } else if (n > 1 && tok_is(&t[1], T_IDENT, "if")) {
            decl_pipeline(s, 2, n, 0);
        }
    } else if (tok_is(&t[0], T_IDENT, "if")) {
        if (s->act)
            s->act->kind = SD_TACT_OPEN;
        push_frame(s, F_IF);
        decl_pipeline(s, 1, n, 0);
    } else if (tok_is(&t[0], T_IDENT, "with")) {
        if (s->act)
            s->act->kind = SD_TACT_OPEN;
        push_frame(s, F_WITH);
        tpath p = decl_pipeline(s, 1, n, 0);
        s->dot = p;
    } else if (tok_is(&t[0], T_IDENT, "range")) {
        if (s->act)
            s->act->kind = SD_TACT_OPEN;
        push_frame(s, F_RANGE);
        tpath el = decl_pipeline(s, 1, n, 1);
        s->dot = el;
    } else if (tok_is(&t[0], T_IDENT, "define")) {
        push_frame(s, F_DEFINE);
        s->dot = s->act ? one(s->param) : none();   /* whatever the caller passes */
        if (s->act) {
            s->act->kind = SD_TACT_DEFINE;
            if (n > 1 && t[1].t == T_STR) {
                s->act->name = t[1].p;
                s->act->name_n = t[1].n;
            }
        }
    } else if (tok_is(&t[0], T_IDENT, "block")) {
        tpath p = n > 2 ? pipeline(s, 2, n, 1, 0) : none();
        push_frame(s, F_DEFINE);
        s->dot = p;
        if (s->act)
            s->act->kind = SD_TACT_OPEN;
    } else if (tok_is(&t[0], T_IDENT, "template")) {
        if (n > 2) {
            tpath p = pipeline(s, 2, n, 1, 0);   /* a named template gets the value whole */
            if (s->act && t[1].t == T_STR) {
                s->act->name = t[1].p;
                s->act->name_n = t[1].n;
                act_arg(s->act, &p);
            }
        }
    } else if (tok_is(&t[0], T_IDENT, "break") || tok_is(&t[0], T_IDENT, "continue")) {
        return;
    } else {
        decl_pipeline(s, 0, n, 0);
    }
}

static int on_action(const gtok *g, size_t count, void *payload)
{
    scan *s = payload;
    sd_tmplact act;
    if (tokens(s, g, count) < 0)
        return -1;
    if (!s->obs) {
        action(s);
        return s->r->oom ? -1 : 0;
    }
    const observer *o = s->obs;
    memset(&act, 0, sizeof act);
    act.start = (size_t)(g[0].p - o->text);
    act.end = (size_t)(g[count - 1].p + g[count - 1].n - o->text);
    act.line = g[0].line;
    act.col = g[0].col;
    s->act = &act;
    action(s);
    s->act = NULL;
    if (s->r->oom)
        return -1;
    return o->fn(&act, o->payload) ? 1 : 0;
}

/* One text's actions, in order (each reported to `o` when not NULL). */
static int scan_text(sd_tmplrefs *r, const char *text, size_t len, observer *o)
{
    scan *s;

    if (ensure_root(r) < 0 || !(s = calloc(1, sizeof *s)))
        return r->oom = 1, SD_ENOMEM;
    s->r = r;
    s->dot = one(ROOT_CTX);   /* the root context: .Values leads into the values */
    if (o) {
        s->param = sd_tmplrefs__param(r);
        s->obs = o;
    }
    if (sd_gotmpl__lex_actions(text, len, on_action, s) < 0)
        r->oom = 1;
    free(s->toks);
    free(s);
    return r->oom ? SD_ENOMEM : 0;
}

uint32_t sd_tmplrefs__param(sd_tmplrefs *r)
{
    if (ensure_root(r) < 0)
        return 0;
    uint32_t c = child(r, 0, "\x01", 1);
    return c == NO_NODE ? 0 : c;
}

int sd_tmplrefs__scan_each(sd_tmplrefs *r, const char *text, size_t len,
                           int (*fn)(const sd_tmplact *act, void *payload), void *payload)
{
    observer o = { fn, payload, text };
    return scan_text(r, text, len, &o);
}

/* ---- a chart's templates/ -------------------------------------------------------- */

static int scan_file(const char *rel, const char *text, size_t len, void *payload)
{
    sd_tmplrefs *r = payload;
    (void)rel;
    r->files++;
    scan_text(r, text, len, NULL);
    return r->oom ? SD_ENOMEM : 0;
}

/* ---- what the paths say ------------------------------------------------------ */

/* A node handed on whole (include, template) but also read key by key
 * below is no free-form map: the keys read are settings (`include "image"
 * (dict "imageRoot" .Values.image)` beside `.Values.image.pullPolicy`).
 * "*" on either side matches any key. Linear: the marks are made bottom-up
 * once, and a node's search only follows nodes with a read key below them;
 * past a budget of steps (proportional to the trie), a node is taken as
 * read below (the lint then judges its keys: never a crash or a stall). */
static void mark(sd_tmplrefs *r)
{
    uint32_t *cur = NULL, *nxt = NULL;
    size_t budget = 64 * r->nnodes + 65536;

    if (!r->nnodes)
        return;
    for (size_t i = 0; i < r->nnodes; i++)
        r->nodes[i].mark = (r->nodes[i].use & SD_TREF_READ) ? M_SUBREAD : 0;
    for (size_t i = r->nnodes; i-- > 1;) {
        const sd_tmplnode *x = &r->nodes[i];
        sd_tmplnode *p = &r->nodes[x->parent];
        p->mark |= x->mark & M_SUBREAD;
        if ((x->mark & M_SUBRNW) || ((x->use & SD_TREF_READ) && !(x->use & SD_TREF_WHOLE)))
            p->mark |= M_SUBRNW;
    }
    cur = malloc(FRONTIER * sizeof *cur);
    nxt = malloc(FRONTIER * sizeof *nxt);
    if (!cur || !nxt) {
        r->oom = 1;
        goto done;
    }
    for (size_t w = 1; w < r->nnodes; w++) {
        sd_tmplnode *x = &r->nodes[w];
        const sd_tmplnode *seg[MAX_SEG + 1];
        size_t nc = 1, d = x->depth;
        if (!(x->use & SD_TREF_WHOLE) || (x->use & SD_TREF_DUMP))
            continue;
        for (size_t k = d, i = w; k-- > 0; i = r->nodes[i].parent)
            seg[k] = &r->nodes[i];
        cur[0] = 0;
        for (size_t k = 0; k < d && nc; k++) {
            size_t nn = 0;
            int star = seg[k]->len == 1 && seg[k]->seg[0] == '*';
            for (size_t f = 0; f < nc; f++) {
                uint32_t c[2] = { NO_NODE, NO_NODE };
                if (star) {
                    for (uint32_t ch = r->nodes[cur[f]].child; ch; ch = r->nodes[ch - 1].next) {
                        if (!budget || nn == FRONTIER)
                            goto out_of_budget;
                        budget--;
                        if (r->nodes[ch - 1].mark & M_SUBRNW)
                            nxt[nn++] = ch - 1;
                    }
                    continue;
                }
                c[0] = find(r, cur[f], seg[k]->seg, seg[k]->len);
                c[1] = find(r, cur[f], "*", 1);
                for (size_t q = 0; q < 2; q++) {
                    if (!budget || nn == FRONTIER)
                        goto out_of_budget;
                    budget--;
                    if (c[q] != NO_NODE && (r->nodes[c[q]].mark & M_SUBRNW))
                        nxt[nn++] = c[q];
                }
            }
            uint32_t *t = cur;
            cur = nxt;
            nxt = t;
            nc = nn;
        }
        if (nc)
            x->mark |= M_READ_BELOW;
        continue;
out_of_budget:
        x->mark |= M_READ_BELOW;
    }
done:
    free(cur);
    free(nxt);
}

int sd_tmplrefs_scan(sd_tmplrefs *r, const char *text, size_t len)
{
    if (scan_text(r, text, len, NULL) == 0)
        mark(r);
    return r->oom ? SD_ENOMEM : 0;
}

int sd_tmplrefs_scan_dir(sd_tmplrefs *r, const char *chart_dir)
{
    if (sd_tmplrefs__each_file(chart_dir, &r->has_templates, scan_file, r) == SD_ENOMEM)
        r->oom = 1;
    if (!r->oom)
        mark(r);
    return r->oom ? SD_ENOMEM : 0;
}

unsigned sd_tmplrefs_use(const sd_tmplrefs *r, const char *const *seg, size_t nseg)
{
    uint32_t a[FRONTIER], b[FRONTIER], *cur = a, *nxt = b;
    size_t nc = 1;
    unsigned use = 0;

    if (!r || !r->nnodes)
        return 0;
    cur[0] = 0;
    for (size_t i = 0; i < nseg && nc; i++) {
        size_t nn = 0;
        int lit_star = seg[i] && !strcmp(seg[i], "*");
        for (size_t f = 0; f < nc; f++) {
            uint32_t c[2] = { NO_NODE, NO_NODE };
            if (seg[i] && !lit_star)
                c[0] = find(r, cur[f], seg[i], strlen(seg[i]));
            c[1] = find(r, cur[f], "*", 1);
            for (size_t q = 0; q < 2; q++)
                if (c[q] != NO_NODE && nn < FRONTIER)
                    nxt[nn++] = c[q];
        }
        for (size_t k = 0; k < nn; k++) {
            const sd_tmplnode *x = &r->nodes[nxt[k]];
            if ((x->use & SD_TREF_DUMP) || ((x->use & SD_TREF_WHOLE) && !(x->mark & M_READ_BELOW)))
                use |= SD_TREF_WHOLE;
        }
        uint32_t *t = cur;
        cur = nxt;
        nxt = t;
        nc = nn;
    }
    for (size_t k = 0; k < nc; k++) {
        const sd_tmplnode *x = &r->nodes[cur[k]];
        if (x->use & SD_TREF_NAMES)
            use |= SD_TREF_NAMES;
        if (x->mark & M_SUBREAD)
            use |= SD_TREF_READ;
    }
    return use;
}

size_t sd_tmplrefs_path(const sd_tmplrefs *r, size_t i, const char **seg, size_t max)
{
    if (!r || i >= r->nnodes)
        return 0;
    size_t d = r->nodes[i].depth;
    for (size_t k = d, j = i; k-- > 0; j = r->nodes[j].parent)
        if (k < max)
            seg[k] = r->nodes[j].seg;
    return d;
}

void sd_tmplrefs_release(sd_tmplrefs *r)
{
    free(r->nodes);
    free(r->slot);
    sd_arena_release(&r->arena);
    memset(r, 0, sizeof *r);
}
