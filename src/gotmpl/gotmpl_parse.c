/* SPDX-License-Identifier: Apache-2.0 */
/* gotmpl_parse.c - tokens -> parse trees, as text/template/parse/parse.go
 * builds them: {{define}} at the top level, if/range/with with else and
 * "else if"/"else with", template, block, break/continue inside range,
 * pipelines with declarations, commands, operands and field chains. Names
 * are checked here as Go does: an undefined variable or function, or one
 * this engine refuses, is a parse error at its line and column. */
#include "gotmpl_int.h"
#include "gotmpl_lex.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NESTING 200
#define MAX_TEMPLATES 10000  /* names are looked up linearly */

typedef struct parser {
    sd_gotmpl *set;
    const char *file;
    gtok *t;
    size_t n, pos;
    const char **vars;       /* declared variables, innermost last */
    size_t nvars, vcap;
    int range_depth, depth;
    sd_diags *diags;
    int err;
    gtree **made;            /* trees of this parse call */
    size_t nmade, madecap;
} parser;

static int perr(parser *p, const gtok *at, const char *fmt, ...)
{
    va_list ap;
    char buf[512];
    if (p->err)
        return p->err;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    sd_loc loc = { p->file, at ? at->line : 0, at ? at->col : 0 };
    p->err = sd_diag_error(p->diags, SD_ESYNTAX, loc, "%s", buf);
    return p->err;
}

static void *palloc(parser *p, size_t n)
{
    void *x = sd_arena_alloc(&p->set->arena, n);
    if (!x && !p->err)
        p->err = sd_diag_error(p->diags, SD_ENOMEM, (sd_loc){ p->file, 0, 0 }, "out of memory");
    return x;
}

/* Growable arrays of pointers, copied into the arena when done. */
typedef struct pvec { void **v; int n, cap; } pvec;

static int pv_push(parser *p, pvec *pv, void *x)
{
    if (pv->n == pv->cap) {
        int cap = pv->cap ? pv->cap * 2 : 8;
        void **v = realloc(pv->v, (size_t)cap * sizeof *v);
        if (!v) {
            if (!p->err)
                p->err = sd_diag_error(p->diags, SD_ENOMEM, (sd_loc){ p->file, 0, 0 }, "out of memory");
            return -1;
        }
        pv->v = v;
        pv->cap = cap;
    }
    pv->v[pv->n++] = x;
    return 0;
}

static void **pv_done(parser *p, pvec *pv)
{
    void **out = palloc(p, (size_t)(pv->n ? pv->n : 1) * sizeof *out);
    if (out && pv->n)
        memcpy(out, pv->v, (size_t)pv->n * sizeof *out);
    free(pv->v);
    pv->v = NULL;
    return out;
}

/* --- tokens --------------------------------------------------------------- */

static const gtok *next(parser *p) { return &p->t[p->pos < p->n - 1 ? p->pos++ : p->pos]; }
static const gtok *peek(parser *p) { return &p->t[p->pos]; }
static void backup(parser *p, size_t k) { p->pos -= k; }

static const gtok *next_nonspace(parser *p)
{
    const gtok *k;
    do
        k = next(p);
    while (k->t == GT_SPACE);
    return k;
}

static const gtok *peek_nonspace(parser *p)
{
    size_t save = p->pos;
    const gtok *k = next_nonspace(p);
    p->pos = save;
    return k;
}

static const char *tok_desc(const gtok *k)
{
    static char buf[64];
    switch (k->t) {
    case GT_EOF: return "end of file";
    case GT_RDELIM: return "\"}}\"";
    case GT_LDELIM: return "\"{{\"";
    case GT_END: return "{{end}}";
    case GT_ELSE: return "{{else}}";
    default:
        snprintf(buf, sizeof buf, "\"%.*s\"", k->n > 40 ? 40 : (int)k->n, k->p);
        return buf;
    }
}

static const char *pstrndup(parser *p, const char *s, size_t n)
{
    char *x = palloc(p, n + 1);
    if (x) {
        memcpy(x, s, n);
        x[n] = '\0';
    }
    return x;
}

/* --- literals ------------------------------------------------------------------ */

static garg *new_arg(parser *p, int kind, const gtok *k)
{
    garg *a = palloc(p, sizeof *a);
    if (a) {
        a->kind = kind;
        a->line = k->line;
        a->col = k->col;
    }
    return a;
}

/* Parse a number token as parse.newNumber does. */
static garg *number(parser *p, const gtok *k)
{
    garg *a = new_arg(p, A_NUM, k);
    char buf[128];
    size_t j = 0;
    if (!a)
        return NULL;
    a->s = pstrndup(p, k->p, k->n);
    a->slen = k->n;
    if (k->t == GT_CHAR) {
        char tmp[16];
        long r = 0;
        if (k->n < 3 || k->n > 12 || sd_gotmpl__unquote(k->p + 1, k->n - 2, '\'', tmp, &r) < 0)
            return perr(p, k, "malformed character constant: %.*s", (int)k->n, k->p), NULL;
        a->is_char = a->is_int = a->is_float = 1;
        a->i = r;
        a->f = (double)r;
        return a;
    }
    if (k->n >= sizeof buf || k->p[k->n - 1] == 'i')
        return perr(p, k, "%s numbers are not supported", k->p[k->n - 1] == 'i' ? "complex" : "long"), NULL;
    for (size_t i = 0; i < k->n; i++)
        if (k->p[i] != '_')
            buf[j++] = k->p[i];
    buf[j] = '\0';
    const char *d = buf;
    int neg = 0, base = 10;
    if (*d == '+' || *d == '-')
        neg = *d++ == '-';
    if (d[0] == '0' && (d[1] == 'x' || d[1] == 'X')) base = 16, d += 2;
    else if (d[0] == '0' && (d[1] == 'o' || d[1] == 'O')) base = 8, d += 2;
    else if (d[0] == '0' && (d[1] == 'b' || d[1] == 'B')) base = 2, d += 2;
    else if (d[0] == '0' && d[1]) base = 8, d += 1;
    char *e;
    errno = 0;
    unsigned long long u = *d ? strtoull(d, &e, base) : 0;
    if (*d && !*e && errno == 0 && *d != '-' && *d != '+' &&
        (neg ? u <= 9223372036854775808ULL : u <= 9223372036854775807ULL)) {
        a->is_int = a->is_float = 1;
        a->i = neg ? (long long)(0 - u) : (long long)u;
        a->f = (double)a->i;
        return a;
    }
    errno = 0;
    double f = strtod(buf, &e);
    if (*e || e == buf)
        return perr(p, k, "illegal number syntax: \"%.*s\"", (int)k->n, k->p), NULL;
    if (!strpbrk(buf, ".eEpP") || (base == 16 && !strpbrk(buf, "pP")))
        return perr(p, k, "integer overflow: \"%.*s\"", (int)k->n, k->p), NULL;
    a->is_float = 1;
    a->f = f;
    if (f >= -9.2e18 && f <= 9.2e18 && (double)(long long)f == f) {
        a->is_int = 1;
        a->i = (long long)f;
    }
    return a;
}

/* --- variables --------------------------------------------------------------- */

static int push_var(parser *p, const char *name)
{
    if (p->nvars == p->vcap) {
        size_t cap = p->vcap ? p->vcap * 2 : 16;
        const char **v = realloc(p->vars, cap * sizeof *v);
        if (!v)
            return perr(p, NULL, "out of memory");
        p->vars = v;
        p->vcap = cap;
    }
    p->vars[p->nvars++] = name;
    return 0;
}

/* A define or block body starts a new tree whose only variable is "$";
 * the enclosing scope comes back afterwards. */
typedef struct vsave { const char **v; size_t n; } vsave;

static int vars_enter(parser *p, vsave *sv)
{
    sv->n = p->nvars;
    sv->v = NULL;
    if (p->nvars && !(sv->v = malloc(p->nvars * sizeof *sv->v)))
        return perr(p, NULL, "out of memory");
    if (p->nvars)
        memcpy(sv->v, p->vars, p->nvars * sizeof *sv->v);
    p->nvars = 0;
    return push_var(p, "$");
}

static void vars_leave(parser *p, vsave *sv)
{
    if (sv->n)
        memcpy(p->vars, sv->v, sv->n * sizeof *sv->v);
    p->nvars = sv->n;
    free(sv->v);
}

/* Split "$x.a.b" or ".a.b" into a name and field idents. */
static int split_idents(parser *p, garg *a, const char *s, size_t n, int is_var)
{
    pvec v = { 0 };
    size_t i = 0, st;
    if (is_var) {
        while (i < n && s[i] != '.')
            i++;
        a->name = pstrndup(p, s, i);
    }
    while (i < n) {
        st = ++i;
        while (i < n && s[i] != '.')
            i++;
        pv_push(p, &v, (void *)pstrndup(p, s + st, i - st));
    }
    a->nidents = v.n;
    a->idents = (const char **)pv_done(p, &v);
    return p->err;
}

static garg *use_var(parser *p, const gtok *k)
{
    garg *a = new_arg(p, A_VAR, k);
    if (!a || split_idents(p, a, k->p, k->n, 1))
        return NULL;
    for (size_t i = p->nvars; i-- > 0; )
        if (strcmp(p->vars[i], a->name) == 0)
            return a;
    return perr(p, k, "undefined variable \"%s\"", a->name), NULL;
}

/* --- pipelines ---------------------------------------------------------------- */

static gpipe *pipeline(parser *p, const char *context, int end);

static garg *term(parser *p)
{
    const gtok *k = next_nonspace(p);
    garg *a;
    switch (k->t) {
    case GT_IDENT: {
        const gfunc *f = sd_gotmpl__func(k->p, k->n);
        if (!f)
            return perr(p, k, "function \"%.*s\" not defined", (int)k->n, k->p), NULL;
        if (f->unsupported)
            return perr(p, k, "function \"%.*s\" is not supported by schemadoc: %s",
                        (int)k->n, k->p, f->unsupported), NULL;
        if ((a = new_arg(p, A_FUNC, k))) {
            a->name = f->name;
            a->fn = f;
        }
        return a;
    }
    case GT_DOT: return new_arg(p, A_DOT, k);
    case GT_NIL: return new_arg(p, A_NIL, k);
    case GT_VARIABLE: return use_var(p, k);
    case GT_FIELD:
        if ((a = new_arg(p, A_FIELD, k)))
            split_idents(p, a, k->p, k->n, 0);
        return a;
    case GT_BOOL:
        if ((a = new_arg(p, A_BOOL, k)))
            a->b = k->p[0] == 't';
        return a;
    case GT_CHAR: case GT_NUMBER:
        return number(p, k);
    case GT_LPAREN:
        if (++p->depth > MAX_NESTING)
            return perr(p, k, "nesting is deeper than %d levels", MAX_NESTING), NULL;
        if ((a = new_arg(p, A_PIPE, k)))
            a->pipe = pipeline(p, "parenthesized pipeline", GT_RPAREN);
        p->depth--;
        return p->err ? NULL : a;
    case GT_STRING: case GT_RAWSTRING: {
        if (!(a = new_arg(p, A_STR, k)))
            return NULL;
        char *buf = palloc(p, k->n + 8);
        long len;
        if (!buf)
            return NULL;
        if (k->t == GT_RAWSTRING) {
            len = 0;
            for (size_t i = 1; i + 1 < k->n; i++)
                if (k->p[i] != '\r')
                    buf[len++] = k->p[i];
        } else if ((len = sd_gotmpl__unquote(k->p + 1, k->n - 2, '"', buf, NULL)) < 0) {
            return perr(p, k, "malformed string: %.*s", (int)(k->n > 60 ? 60 : k->n), k->p), NULL;
        }
        buf[len] = '\0';
        a->s = buf;
        a->slen = (size_t)len;
        return a;
    }
    }
    backup(p, 1);
    return NULL;
}

static garg *operand(parser *p)
{
    garg *a = term(p);
    if (!a || peek(p)->t != GT_FIELD)
        return a;
    const gtok *first = peek(p);
    pvec v = { 0 };
    while (peek(p)->t == GT_FIELD) {
        const gtok *k = next(p);
        /* each field token may itself be ".a.b"? no: the lexer splits at '.' */
        pv_push(p, &v, (void *)pstrndup(p, k->p + 1, k->n - 1));
    }
    switch (a->kind) {
    case A_FIELD: case A_VAR: {
        /* append the chain to the idents */
        const char **ids = palloc(p, (size_t)(a->nidents + v.n) * sizeof *ids);
        if (!ids) { free(v.v); return NULL; }
        for (int i = 0; i < a->nidents; i++) ids[i] = a->idents[i];
        for (int i = 0; i < v.n; i++) ids[a->nidents + i] = v.v[i];
        a->idents = ids;
        a->nidents += v.n;
        free(v.v);
        return a;
    }
    case A_BOOL: case A_STR: case A_NUM: case A_NIL: case A_DOT:
        free(v.v);
        return perr(p, first, "unexpected . after term"), NULL;
    default: {
        garg *c = new_arg(p, A_CHAIN, first);
        if (!c) { free(v.v); return NULL; }
        c->base = a;
        c->nidents = v.n;
        c->idents = (const char **)pv_done(p, &v);
        return c;
    }
    }
}

static gcmd *command(parser *p)
{
    pvec args = { 0 };
    gcmd *c = palloc(p, sizeof *c);
    const gtok *start = peek_nonspace(p);
    if (!c)
        return NULL;
    c->line = start->line;
    c->col = start->col;
    for (;;) {
        peek_nonspace(p);
        garg *a = operand(p);
        if (p->err)
            break;
        if (a)
            pv_push(p, &args, a);
        const gtok *k = next(p);
        if (k->t == GT_SPACE)
            continue;
        if (k->t == GT_RDELIM || k->t == GT_RPAREN)
            backup(p, 1);
        else if (k->t != GT_PIPE)
            perr(p, k, "unexpected %s in operand", tok_desc(k));
        break;
    }
    if (!p->err && args.n == 0)
        perr(p, start, "empty command");
    c->nargs = args.n;
    c->args = (garg **)pv_done(p, &args);
    return p->err ? NULL : c;
}

static gpipe *pipeline(parser *p, const char *context, int end)
{
    gpipe *pp = palloc(p, sizeof *pp);
    pvec decl = { 0 }, cmds = { 0 };
    const gtok *start = peek_nonspace(p);
    if (!pp)
        return NULL;
    pp->line = start->line;
    pp->col = start->col;
    /* declarations: $x := or $i, $v := (range), or $x = */
    for (;;) {
        const gtok *v = peek_nonspace(p);
        if (v->t != GT_VARIABLE)
            break;
        size_t save = p->pos;
        next_nonspace(p);
        const gtok *after = peek(p), *nx = peek_nonspace(p);
        if (nx->t == GT_ASSIGN || nx->t == GT_DECLARE) {
            pp->is_assign = nx->t == GT_ASSIGN;
            next_nonspace(p);
            const char *name = pstrndup(p, v->p, v->n);
            pv_push(p, &decl, (void *)name);
            if (!pp->is_assign)
                push_var(p, name);
            else {
                size_t i;
                for (i = p->nvars; i-- > 0; )
                    if (strcmp(p->vars[i], name) == 0)
                        break;
                if (i == (size_t)-1)
                    perr(p, v, "undefined variable \"%s\"", name);
            }
            break;
        }
        if (nx->t == GT_CHARTOK && nx->p[0] == ',') {
            next_nonspace(p);
            const char *name = pstrndup(p, v->p, v->n);
            pv_push(p, &decl, (void *)name);
            push_var(p, name);
            if (strcmp(context, "range") == 0 && decl.n < 2) {
                int t = peek_nonspace(p)->t;
                if (t == GT_VARIABLE || t == GT_RDELIM || t == GT_RPAREN)
                    continue;
                perr(p, nx, "range can only initialize variables");
                break;
            }
            perr(p, nx, "too many declarations in %s", context);
            break;
        }
        (void)after;
        p->pos = save;
        break;
    }
    while (!p->err) {
        const gtok *k = next_nonspace(p);
        if (k->t == end) {
            if (cmds.n == 0)
                perr(p, k, "missing value for %s", context);
            break;
        }
        switch (k->t) {
        case GT_BOOL: case GT_CHAR: case GT_DOT: case GT_FIELD: case GT_IDENT: case GT_NUMBER:
        case GT_NIL: case GT_RAWSTRING: case GT_STRING: case GT_VARIABLE: case GT_LPAREN:
            backup(p, 1);
            pv_push(p, &cmds, command(p));
            continue;
        default:
            perr(p, k, "unexpected %s in %s", tok_desc(k), context);
        }
    }
    pp->ndecl = decl.n;
    pp->decl = (const char **)pv_done(p, &decl);
    pp->ncmds = cmds.n;
    pp->cmds = (gcmd **)pv_done(p, &cmds);
    if (p->err)
        return NULL;
    for (int i = 1; i < pp->ncmds; i++) {
        int t = pp->cmds[i]->args[0]->kind;
        if (t == A_BOOL || t == A_DOT || t == A_NIL || t == A_NUM || t == A_STR) {
            gtok at = { 0, NULL, 0, pp->cmds[i]->line, pp->cmds[i]->col };
            perr(p, &at, "non executable command in pipeline stage %d", i + 1);
            return NULL;
        }
    }
    return pp;
}

/* --- lists and control structures ------------------------------------------------ */

static glist *item_list(parser *p, int *end_kind, const gtok **end_tok);

static gnode *new_node(parser *p, int kind, const gtok *k)
{
    gnode *n = palloc(p, sizeof *n);
    if (n) {
        n->kind = kind;
        n->line = k->line;
        n->col = k->col;
    }
    return n;
}

/* if / range / with: pipeline, list, optional else (or else if / else with). */
static gnode *control(parser *p, int kind, const gtok *k, const char *context)
{
    size_t mark = p->nvars;
    gnode *n = new_node(p, kind, k);
    int ek;
    const gtok *et;
    if (!n)
        return NULL;
    if (++p->depth > MAX_NESTING) {
        perr(p, k, "nesting is deeper than %d levels", MAX_NESTING);
        return NULL;
    }
    n->pipe = pipeline(p, context, GT_RDELIM);
    if (p->err)
        return NULL;
    if (kind == N_RANGE)
        p->range_depth++;
    n->list = item_list(p, &ek, &et);
    if (kind == N_RANGE)
        p->range_depth--;
    if (!p->err && ek == GT_EOF)
        perr(p, et ? et : k, "unexpected end of file: {{%s}} at %d:%d has no {{end}}", context, k->line, k->col);
    if (!p->err && ek == GT_ELSE) {
        int t = peek_nonspace(p)->t;
        if ((kind == N_IF && t == GT_IF) || (kind == N_WITH && t == GT_WITH)) {
            const gtok *kk = next_nonspace(p);
            gnode *inner = control(p, kind, kk, context);
            if (inner) {
                n->else_list = palloc(p, sizeof *n->else_list);
                gnode **one = palloc(p, sizeof *one);
                if (n->else_list && one) {
                    one[0] = inner;
                    n->else_list->nodes = one;
                    n->else_list->n = 1;
                }
            }
        } else {
            const gtok *rd = next_nonspace(p);
            if (rd->t != GT_RDELIM)
                perr(p, rd, "unexpected %s in else", tok_desc(rd));
            else {
                n->else_list = item_list(p, &ek, &et);
                if (!p->err && ek != GT_END)
                    perr(p, et, "expected end; found %s", tok_desc(et));
            }
        }
    }
    p->nvars = mark;
    p->depth--;
    return p->err ? NULL : n;
}

static const char *template_name(parser *p, const char *context)
{
    const gtok *k = next_nonspace(p);
    char *buf;
    long len;
    if (k->t != GT_STRING && k->t != GT_RAWSTRING)
        return perr(p, k, "unexpected %s in %s", tok_desc(k), context), NULL;
    if (!(buf = palloc(p, k->n + 8)))
        return NULL;
    if (k->t == GT_RAWSTRING) {
        memcpy(buf, k->p + 1, k->n - 2);
        len = (long)k->n - 2;
    } else if ((len = sd_gotmpl__unquote(k->p + 1, k->n - 2, '"', buf, NULL)) < 0) {
        return perr(p, k, "malformed template name"), NULL;
    }
    buf[len] = '\0';
    return buf;
}

static int add_tree(parser *p, const char *name, glist *root, const gtok *at);

/* An action after "{{": a keyword or a pipeline to print. Returns the node,
 * or NULL with *end set for {{end}} / {{else}}. */
static gnode *action(parser *p, const gtok *open, int *end_kind, const gtok **end_tok)
{
    const gtok *k = next_nonspace(p);
    gnode *n;
    switch (k->t) {
    case GT_END: case GT_ELSE:
        *end_kind = k->t;
        *end_tok = k;
        if (k->t == GT_END) {
            const gtok *rd = next_nonspace(p);
            if (rd->t != GT_RDELIM)
                perr(p, rd, "unexpected %s in end", tok_desc(rd));
        }
        return NULL;
    case GT_IF: return control(p, N_IF, k, "if");
    case GT_RANGE: return control(p, N_RANGE, k, "range");
    case GT_WITH: return control(p, N_WITH, k, "with");
    case GT_BREAK: case GT_CONTINUE: {
        const gtok *rd = next_nonspace(p);
        if (rd->t != GT_RDELIM)
            return perr(p, rd, "unexpected %s in {{%s}}", tok_desc(rd), k->t == GT_BREAK ? "break" : "continue"), NULL;
        if (!p->range_depth)
            return perr(p, k, "{{%s}} outside {{range}}", k->t == GT_BREAK ? "break" : "continue"), NULL;
        return new_node(p, k->t == GT_BREAK ? N_BREAK : N_CONTINUE, k);
    }
    case GT_TEMPLATE: case GT_BLOCK: {
        const char *ctx = k->t == GT_BLOCK ? "block clause" : "template clause";
        if (!(n = new_node(p, N_TEMPLATE, k)))
            return NULL;
        if (!(n->tname = template_name(p, ctx)))
            return NULL;
        if (next_nonspace(p)->t != GT_RDELIM) {
            backup(p, 1);
            n->pipe = pipeline(p, ctx, GT_RDELIM);
        } else if (k->t == GT_BLOCK) {
            return perr(p, k, "missing pipeline in block clause"), NULL;
        }
        if (p->err)
            return NULL;
        if (k->t == GT_BLOCK) {
            /* {{block "x" .}} T {{end}} = {{define "x"}} T {{end}}{{template "x" .}} */
            vsave sv;
            int ek;
            const gtok *et;
            if (vars_enter(p, &sv))
                return NULL;
            if (++p->depth > MAX_NESTING) {
                vars_leave(p, &sv);
                return perr(p, k, "nesting is deeper than %d levels", MAX_NESTING), NULL;
            }
            glist *body = item_list(p, &ek, &et);
            p->depth--;
            if (!p->err && ek != GT_END)
                perr(p, et, "unexpected %s in block clause", tok_desc(et));
            vars_leave(p, &sv);
            if (p->err || add_tree(p, n->tname, body, k) < 0)
                return NULL;
        }
        return n;
    }
    case GT_DEFINE:
        return perr(p, k, "unexpected \"define\" in command: {{define}} is allowed only at the top level"), NULL;
    default:
        break;
    }
    backup(p, 1);
    (void)open;
    if (!(n = new_node(p, N_ACTION, peek_nonspace(p))))
        return NULL;
    n->pipe = pipeline(p, "command", GT_RDELIM);
    return p->err ? NULL : n;
}

/* Nodes until {{end}}, {{else}} or the end of the text (kind GT_EOF). */
static glist *item_list(parser *p, int *end_kind, const gtok **end_tok)
{
    pvec v = { 0 };
    glist *l = palloc(p, sizeof *l);
    *end_kind = GT_EOF;
    *end_tok = NULL;
    while (!p->err) {
        const gtok *k = next(p);
        if (k->t == GT_EOF) {
            *end_tok = k;
            break;
        }
        if (k->t == GT_TEXT) {
            gnode *n = new_node(p, N_TEXT, k);
            if (n) {
                n->text = k->p;
                n->len = k->n;
                pv_push(p, &v, n);
            }
            continue;
        }
        if (k->t != GT_LDELIM) {
            perr(p, k, "unexpected %s", tok_desc(k));
            break;
        }
        if (peek_nonspace(p)->t == GT_DEFINE) {
            perr(p, peek_nonspace(p), "unexpected {{define}}: only allowed at the top level");
            break;
        }
        int ek = 0;
        const gtok *et = NULL;
        gnode *n = action(p, k, &ek, &et);
        if (ek) {
            *end_kind = ek;
            *end_tok = et;
            break;
        }
        if (n)
            pv_push(p, &v, n);
    }
    if (l) {
        l->n = v.n;
        l->nodes = (gnode **)pv_done(p, &v);
    } else {
        free(v.v);
    }
    return l;
}

/* --- trees and the set --------------------------------------------------------- */

/* Record a tree made by this parse call (Go's treeSet rules: a second
 * non-empty definition in one text is an error). */
static int add_tree(parser *p, const char *name, glist *root, const gtok *at)
{
    for (size_t i = 0; i < p->nmade; i++) {
        if (strcmp(p->made[i]->name, name) != 0)
            continue;
        if (sd_gotmpl__empty(p->made[i]->root)) {
            p->made[i]->root = root;
            return 0;
        }
        if (!sd_gotmpl__empty(root))
            return perr(p, at, "template: multiple definition of template \"%s\"", name);
        return 0;
    }
    if (p->nmade + p->set->ntrees >= MAX_TEMPLATES)
        return perr(p, at, "more than %d templates", MAX_TEMPLATES);
    gtree *t = palloc(p, sizeof *t);
    if (!t)
        return -1;
    t->name = pstrndup(p, name, strlen(name));
    t->file = p->file;
    t->root = root;
    if (p->nmade == p->madecap) {
        size_t cap = p->madecap ? p->madecap * 2 : 16;
        gtree **v = realloc(p->made, cap * sizeof *v);
        if (!v)
            return perr(p, at, "out of memory");
        p->made = v;
        p->madecap = cap;
    }
    p->made[p->nmade++] = t;
    return 0;
}

static int define(parser *p, const gtok *open)
{
    const char *name = template_name(p, "define clause");
    int ek;
    const gtok *et;
    vsave sv;
    if (!name)
        return -1;
    const gtok *rd = next_nonspace(p);
    if (rd->t != GT_RDELIM)
        return perr(p, rd, "unexpected %s in define clause", tok_desc(rd));
    if (vars_enter(p, &sv))
        return -1;
    glist *body = item_list(p, &ek, &et);
    vars_leave(p, &sv);
    if (p->err)
        return -1;
    if (ek != GT_END)
        return perr(p, et ? et : open, "unexpected %s in {{define \"%s\"}}",
                    et ? tok_desc(et) : "end of file", name);
    return add_tree(p, name, body, open);
}

int sd_gotmpl_parse(sd_gotmpl *set, const char *file, const char *text, size_t len,
                    sd_diags *diags)
{
    parser p;
    char *lerr = NULL;
    int eline = 0, ecol = 0;
    pvec top = { 0 };

    memset(&p, 0, sizeof p);
    p.set = set;
    p.diags = diags;
    if (!(p.file = sd_arena_strdup(&set->arena, file)))
        return sd_diag_error(diags, SD_ENOMEM, (sd_loc){ file, 0, 0 }, "out of memory");
    char *copy = sd_arena_strndup(&set->arena, text, len);
    if (!copy)
        return sd_diag_error(diags, SD_ENOMEM, (sd_loc){ file, 0, 0 }, "out of memory");
    if (sd_gotmpl__lex(&p.t, &p.n, copy, len, &lerr, &eline, &ecol) < 0) {
        sd_loc loc = { p.file, eline, ecol };
        int r = sd_diag_error(diags, strcmp(lerr, "out of memory") ? SD_ESYNTAX : SD_ENOMEM, loc, "%s", lerr);
        free(lerr);
        return r;
    }
    push_var(&p, "$");
    /* the top level: text and actions, with {{define}} allowed */
    while (!p.err) {
        const gtok *k = peek(&p);
        if (k->t == GT_EOF)
            break;
        if (k->t == GT_LDELIM) {
            size_t save = p.pos;
            next(&p);
            const gtok *kw = next_nonspace(&p);
            if (kw->t == GT_DEFINE) {
                define(&p, kw);
                continue;
            }
            p.pos = save;
        }
        int ek;
        const gtok *et;
        /* one item at a time, so that a following {{define}} is seen */
        if (k->t == GT_TEXT) {
            next(&p);
            gnode *n = new_node(&p, N_TEXT, k);
            if (n) {
                n->text = k->p;
                n->len = k->n;
                pv_push(&p, &top, n);
            }
            continue;
        }
        next(&p);
        ek = 0;
        gnode *n = action(&p, k, &ek, &et);
        if (ek) {
            perr(&p, et, "unexpected %s", tok_desc(et));
            break;
        }
        if (n)
            pv_push(&p, &top, n);
    }
    glist *root = palloc(&p, sizeof *root);
    if (root) {
        root->n = top.n;
        root->nodes = (gnode **)pv_done(&p, &top);
    } else {
        free(top.v);
    }
    if (!p.err)
        add_tree(&p, set->main_name, root, NULL);
    /* associate: a blank definition never replaces a non-blank one */
    for (size_t i = 0; !p.err && i < p.nmade; i++) {
        gtree *t = p.made[i], **slot = sd_gotmpl__slot(set, t->name);
        if (slot) {
            if (!sd_gotmpl__empty(t->root) || !(*slot)->root)
                *slot = t;
            continue;
        }
        if (set->ntrees == set->cap) {
            size_t cap = set->cap ? set->cap * 2 : 32;
            gtree **v = realloc(set->trees, cap * sizeof *v);
            if (!v) {
                perr(&p, NULL, "out of memory");
                break;
            }
            set->trees = v;
            set->cap = cap;
        }
        set->trees[set->ntrees++] = t;
    }
    free(p.t);
    free(p.vars);
    free(p.made);
    return p.err;
}
