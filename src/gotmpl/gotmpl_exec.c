/* SPDX-License-Identifier: Apache-2.0 */
/* gotmpl_exec.c - run a parsed template over data (text/template/exec.go
 * semantics): pipelines, field chains on maps, structs and host objects,
 * function calls with Go's argument checks, if/with/range/template and the
 * variable scopes, printing values as fmt does. Every action, iteration and
 * call counts against max_steps; template calls against max_depth; the
 * output buffer and the heap have caps. */
#include "gotmpl_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEF_OUTPUT ((size_t)64 << 20)
#define DEF_DEPTH 200
#define DEF_STEPS 50000000ULL
/* Nested lists and pipelines, added up over template calls: each level is a
 * few C frames, so this bounds the stack (200 calls x 200 levels would not). */
#define MAX_NEST 1000

int sd_gotmpl__errorf(sd_gcall *c, int code, const char *fmt, ...)
{
    va_list ap;
    char buf[768];
    if (c->err)
        return c->err;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    sd_loc loc = { c->file, c->line, c->col };
    if (c->tmpl && strcmp(c->tmpl, c->file) != 0)
        c->err = sd_diag_error(c->diags, code, loc, "in template \"%s\": %s", c->tmpl, buf);
    else
        c->err = sd_diag_error(c->diags, code, loc, "%s", buf);
    return c->err;
}

int sd_gcall_fail(sd_gcall *c, const char *fmt, ...)
{
    va_list ap;
    char buf[512];
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return sd_gotmpl__errorf(c, SD_EINVALID, "error calling %s: %s", c->fname ? c->fname : "?", buf);
}

sd_gheap *sd_gcall_heap(sd_gcall *c)
{
    return c->heap;
}

int sd_gotmpl__step(sd_gcall *c)
{
    if (++c->steps > c->lim.max_steps)
        return sd_gotmpl__errorf(c, SD_ELIMIT, "the template ran for more than %llu steps",
                                 c->lim.max_steps);
    if (c->heap->failed)
        return sd_gotmpl__errorf(c, c->heap->failed, c->heap->failed == SD_ELIMIT
                                 ? "the template's values need more than %zu bytes" : "out of memory (%zu)",
                                 c->heap->cap);
    return 0;
}

gwalk sd_gotmpl__walk(const sd_gcall *c)
{
    gwalk w = { 0, 0, 0 };
    w.left = w.start = c->steps < c->lim.max_steps ? c->lim.max_steps - c->steps : 0;
    return w;
}

int sd_gotmpl__walked(sd_gcall *c, const gwalk *w)
{
    c->steps += w->start - w->left;
    if (w->over)
        return sd_gotmpl__errorf(c, SD_ELIMIT, "the template ran for more than %llu steps",
                                 c->lim.max_steps);
    return 0;
}

int sd_gotmpl__steps(sd_gcall *c, unsigned long long n)
{
    if (n > c->lim.max_steps - (c->steps < c->lim.max_steps ? c->steps : c->lim.max_steps)) {
        c->steps = c->lim.max_steps;
        return sd_gotmpl__errorf(c, SD_ELIMIT, "the template ran for more than %llu steps",
                                 c->lim.max_steps);
    }
    c->steps += n;
    return 0;
}

int sd_gcall_steps(sd_gcall *c, unsigned long long n)
{
    return sd_gotmpl__steps(c, n);
}

void sd_gotmpl__buf(sd_gcall *c, sd_buf *b)
{
    sd_buf_init(b, c->lim.max_output ? c->lim.max_output : DEF_OUTPUT);
}

static int heap_check(sd_gcall *c)
{
    if (c->heap->failed)
        return sd_gotmpl__step(c);
    return 0;
}

/* --- variables ------------------------------------------------------------------ */

static int push_var(sd_gcall *c, const char *name, sd_gval v)
{
    if (c->nvars == c->vcap) {
        size_t cap = c->vcap ? c->vcap * 2 : 32;
        gvar *nv = realloc(c->vars, cap * sizeof *nv);
        if (!nv)
            return sd_gotmpl__errorf(c, SD_ENOMEM, "out of memory");
        c->vars = nv;
        c->vcap = cap;
    }
    c->vars[c->nvars].name = name;
    c->vars[c->nvars].v = v;
    c->nvars++;
    return 0;
}

static gvar *find_var(sd_gcall *c, const char *name)
{
    for (size_t i = c->nvars; i-- > c->vbase; )
        if (strcmp(c->vars[i].name, name) == 0)
            return &c->vars[i];
    return NULL;
}

/* --- argument conversion ----------------------------------------------------------- */

static const char *type_word(char t)
{
    switch (t) {
    case 'S': return "string";
    case 'I': return "int";
    case 'F': return "float64";
    case 'B': return "bool";
    case 'L': return "[]interface {}";
    case 'M': return "map[string]interface {}";
    case 'V': return "reflect.Value";
    default: return "interface {}";
    }
}

/* Go's validateType for a parameter of type `t`. */
static int validate(sd_gcall *c, char t, sd_gval v, sd_gval *out)
{
    if (v.kind == SD_G_MISSING) {
        if (t == 'V') { *out = v; return 0; }
        if (t == 'A' || t == 'L' || t == 'M') { *out = sd_gnil(); return 0; }
        return sd_gotmpl__errorf(c, SD_EINVALID, "invalid value; expected %s", type_word(t));
    }
    if (t == 'A' || t == 'V') {
        *out = v;
        return 0;
    }
    int ok = 0;
    switch (t) {
    case 'S': ok = v.kind == SD_G_STR; break;
    case 'I': ok = v.kind == SD_G_INT; break;
    case 'F': ok = v.kind == SD_G_FLOAT; break;
    case 'B': ok = v.kind == SD_G_BOOL; break;
    case 'L': ok = v.kind == SD_G_LIST; break;
    case 'M': ok = v.kind == SD_G_MAP && !v.u.m->type_name; break;
    }
    if (!ok)
        return sd_gotmpl__errorf(c, SD_EINVALID, "wrong type for value; expected %s; got %s",
                                 type_word(t), sd_gval_type_name(v));
    *out = v;
    return 0;
}

/* An untyped constant where any type is accepted (idealConstant). */
static int ideal(sd_gcall *c, const garg *a, sd_gval *out)
{
    if (a->is_char) {
        *out = sd_gint(a->i);
        out->sub = SD_GINT_RUNE;
        return 0;
    }
    if (a->is_float && strpbrk(a->s, ".eEpP") &&
        !(a->slen > 2 && a->s[0] == '0' && (a->s[1] == 'x' || a->s[1] == 'X') && !strpbrk(a->s, "pP"))) {
        *out = sd_gfloat(a->f);
        return 0;
    }
    if (a->is_int) {
        *out = sd_gint(a->i);
        return 0;
    }
    return sd_gotmpl__errorf(c, SD_EINVALID, "%s overflows int", a->s);
}

static int eval_pipeline(sd_gcall *c, sd_gval dot, const gpipe *p, sd_gval *out);
static int eval_call(sd_gcall *c, sd_gval dot, const gfunc *fn, const gcmd *cmd,
                     sd_gval final, int has_final, sd_gval *out);
static int eval_chain(sd_gcall *c, sd_gval dot, sd_gval recv, const garg *node,
                      const gcmd *cmd, sd_gval final, int has_final, sd_gval *out);

static void at(sd_gcall *c, int line, int col)
{
    c->line = line;
    c->col = col;
}

static int eval_arg(sd_gcall *c, sd_gval dot, char t, const garg *a, sd_gval *out)
{
    sd_gval v = sd_gmissing();
    int r = 0;
    at(c, a->line, a->col);
    switch (a->kind) {
    case A_DOT:
        return validate(c, t, dot, out);
    case A_NIL:
        if (t == 'V') { *out = sd_gmissing(); return 0; }
        if (t == 'A' || t == 'L' || t == 'M') { *out = sd_gnil(); return 0; }
        return sd_gotmpl__errorf(c, SD_EINVALID, "cannot assign nil to %s", type_word(t));
    case A_FIELD:
        r = eval_chain(c, dot, dot, a, NULL, v, 0, &v);
        break;
    case A_VAR: {
        gvar *x = find_var(c, a->name);
        if (!x)
            return sd_gotmpl__errorf(c, SD_EINVALID, "undefined variable: %s", a->name);
        v = x->v;
        if (a->nidents)
            r = eval_chain(c, dot, v, a, NULL, sd_gmissing(), 0, &v);
        break;
    }
    case A_PIPE:
        r = eval_pipeline(c, dot, a->pipe, &v);
        break;
    case A_FUNC:
        r = eval_call(c, dot, a->fn, NULL, sd_gmissing(), 0, &v);
        break;
    case A_CHAIN:
        if (a->base->kind == A_NIL)
            return sd_gotmpl__errorf(c, SD_EINVALID, "indirection through explicit nil");
        if ((r = eval_arg(c, dot, 'V', a->base, &v)) == 0)
            r = eval_chain(c, dot, v, a, NULL, sd_gmissing(), 0, &v);
        break;
    case A_BOOL:
        if (t == 'B' || t == 'A' || t == 'V') { *out = sd_gbool(a->b); return 0; }
        return sd_gotmpl__errorf(c, SD_EINVALID, "expected %s; found %s", type_word(t), a->b ? "true" : "false");
    case A_STR:
        if (t == 'S' || t == 'A' || t == 'V') { *out = sd_gstr_static(a->s, a->slen); return 0; }
        return sd_gotmpl__errorf(c, SD_EINVALID, "expected %s; found string constant", type_word(t));
    case A_NUM:
        if (t == 'I' && a->is_int) { *out = sd_gint(a->i); return 0; }
        if (t == 'F' && a->is_float) { *out = sd_gfloat(a->f); return 0; }
        if (t == 'A' || t == 'V')
            return ideal(c, a, out);
        return sd_gotmpl__errorf(c, SD_EINVALID, "expected %s; found %s",
                                 t == 'I' ? "integer" : t == 'F' ? "float" : type_word(t), a->s);
    }
    if (r)
        return r;
    at(c, a->line, a->col);
    return validate(c, t, v, out);
}

/* --- fields ------------------------------------------------------------------------ */

static int eval_field(sd_gcall *c, sd_gval dot, const char *name, const gcmd *cmd,
                      sd_gval final, int has_final, sd_gval recv, sd_gval *out)
{
    int has_args = (cmd && cmd->nargs > 1) || has_final;
    switch (recv.kind) {
    case SD_G_MISSING:
        *out = sd_gmissing();
        return 0;
    case SD_G_NIL:
        return sd_gotmpl__errorf(c, SD_EINVALID, "nil pointer evaluating interface {}.%s", name);
    case SD_G_OBJ: {
        int argc = (cmd ? cmd->nargs - 1 : 0) + has_final, r;
        sd_gval *argv = sd_gheap_alloc(c->heap, (size_t)(argc ? argc : 1) * sizeof *argv);
        if (!argv)
            return heap_check(c);
        for (int i = 0; cmd && i < cmd->nargs - 1; i++)
            if ((r = eval_arg(c, dot, 'A', cmd->args[i + 1], &argv[i])) != 0)
                return r;
        if (has_final && (r = validate(c, 'A', final, &argv[argc - 1])) != 0)
            return r;
        if ((r = sd_gotmpl__step(c)) != 0)
            return r;
        c->fname = name;
        r = recv.u.o->cls->method(out, c, recv.u.o->self, name, argv, argc);
        if (r == 1)
            return sd_gotmpl__errorf(c, SD_EINVALID, "can't evaluate field %s in type %s",
                                     name, recv.u.o->cls->type_name);
        if (r < 0 && !c->err)
            return sd_gcall_fail(c, "failed");
        return r < 0 ? r : heap_check(c);
    }
    case SD_G_MAP:
        if (recv.u.m->type_name) {
            sd_gval v = sd_gmap_get(recv, name, strlen(name));
            if (v.kind == SD_G_MISSING)
                return sd_gotmpl__errorf(c, SD_EINVALID, "can't evaluate field %s in type %s",
                                         name, recv.u.m->type_name);
            if (has_args)
                return sd_gotmpl__errorf(c, SD_EINVALID, "%s has arguments but cannot be invoked as function", name);
            *out = v;
            return 0;
        }
        if (has_args)
            return sd_gotmpl__errorf(c, SD_EINVALID, "%s is not a method but has arguments", name);
        *out = sd_gmap_get(recv, name, strlen(name));
        return 0;
    default:
        return sd_gotmpl__errorf(c, SD_EINVALID, "can't evaluate field %s in type %s",
                                 name, sd_gval_type_name(recv));
    }
}

/* Evaluate node's field idents on `recv`; the last one gets cmd's
 * arguments and the piped final value. */
static int eval_chain(sd_gcall *c, sd_gval dot, sd_gval recv, const garg *node,
                      const gcmd *cmd, sd_gval final, int has_final, sd_gval *out)
{
    int r, n = node->nidents;
    for (int i = 0; i < n - 1; i++) {
        at(c, node->line, node->col);
        if ((r = eval_field(c, dot, node->idents[i], NULL, sd_gmissing(), 0, recv, &recv)) != 0)
            return r;
    }
    at(c, node->line, node->col);
    return eval_field(c, dot, node->idents[n - 1], cmd, final, has_final, recv, out);
}

/* --- calls ---------------------------------------------------------------------------- */

static int eval_call(sd_gcall *c, sd_gval dot, const gfunc *fn, const gcmd *cmd,
                     sd_gval final, int has_final, sd_gval *out)
{
    int nexpr = cmd ? cmd->nargs - 1 : 0, numin = nexpr + has_final, r;
    size_t sl = strlen(fn->sig);
    int variadic = sl && fn->sig[sl - 1] == '*';
    int fixed = (int)sl - variadic;
    int line = c->line, col = c->col;
    if (cmd)
        line = cmd->args[0]->line, col = cmd->args[0]->col;

    if (variadic ? numin < fixed - 1 : numin != fixed) {
        at(c, line, col);
        return sd_gotmpl__errorf(c, SD_EINVALID, "wrong number of args for %s: want %s%d got %d",
                                 fn->name, variadic ? "at least " : "", variadic ? fixed - 1 : fixed, numin);
    }
    if (fn->fn == NULL && (fn->sig[0] == 'V') && (strcmp(fn->name, "and") == 0 || strcmp(fn->name, "or") == 0)) {
        int is_or = fn->name[0] == 'o';
        sd_gval v = sd_gmissing();
        for (int i = 0; i < nexpr; i++) {
            if ((r = eval_arg(c, dot, 'V', cmd->args[i + 1], &v)) != 0)
                return r;
            if (sd_gval_truth(v) == is_or) {
                *out = v;
                return 0;
            }
        }
        if (has_final)
            v = final;
        *out = v;
        return 0;
    }
    sd_gval *argv = sd_gheap_alloc(c->heap, (size_t)(numin ? numin : 1) * sizeof *argv);
    if (!argv)
        return heap_check(c);
    for (int i = 0; i < nexpr; i++) {
        char t = variadic && i >= fixed - 1 ? fn->sig[fixed - 1] : fn->sig[i];
        if ((r = eval_arg(c, dot, t, cmd->args[i + 1], &argv[i])) != 0)
            return r;
    }
    if (has_final) {
        char t = variadic && numin - 1 >= fixed - 1 ? fn->sig[fixed - 1] : fn->sig[numin - 1];
        at(c, line, col);
        if ((r = validate(c, t, final, &argv[numin - 1])) != 0)
            return r;
    }
    if ((r = sd_gotmpl__step(c)) != 0)
        return r;
    at(c, line, col);
    c->fname = fn->name;
    *out = sd_gmissing();
    r = fn->fn(out, c, argv, numin);
    if (r < 0 || c->err)   /* c->err: a bound reached by work done inside */
        return c->err ? c->err : sd_gcall_fail(c, "failed");
    return heap_check(c);
}

static int not_a_function(sd_gcall *c, const gcmd *cmd, int has_final)
{
    if (cmd->nargs > 1 || has_final)
        return sd_gotmpl__errorf(c, SD_EINVALID, "can't give argument to non-function");
    return 0;
}

static int eval_command(sd_gcall *c, sd_gval dot, const gcmd *cmd, sd_gval final, int has_final,
                        sd_gval *out)
{
    const garg *a = cmd->args[0];
    int r;
    at(c, a->line, a->col);
    switch (a->kind) {
    case A_FIELD:
        return eval_chain(c, dot, dot, a, cmd, final, has_final, out);
    case A_CHAIN: {
        sd_gval base;
        if (a->base->kind == A_NIL)
            return sd_gotmpl__errorf(c, SD_EINVALID, "indirection through explicit nil");
        if ((r = eval_arg(c, dot, 'V', a->base, &base)) != 0)
            return r;
        return eval_chain(c, dot, base, a, cmd, final, has_final, out);
    }
    case A_FUNC:
        return eval_call(c, dot, a->fn, cmd, final, has_final, out);
    case A_PIPE:
        if ((r = not_a_function(c, cmd, has_final)) != 0)
            return r;
        return eval_pipeline(c, dot, a->pipe, out);
    case A_VAR: {
        gvar *x = find_var(c, a->name);
        if (!x)
            return sd_gotmpl__errorf(c, SD_EINVALID, "undefined variable: %s", a->name);
        if (!a->nidents) {
            if ((r = not_a_function(c, cmd, has_final)) != 0)
                return r;
            *out = x->v;
            return 0;
        }
        return eval_chain(c, dot, x->v, a, cmd, final, has_final, out);
    }
    }
    if ((r = not_a_function(c, cmd, has_final)) != 0)
        return r;
    switch (a->kind) {
    case A_BOOL: *out = sd_gbool(a->b); return 0;
    case A_DOT: *out = dot; return 0;
    case A_NIL: return sd_gotmpl__errorf(c, SD_EINVALID, "nil is not a command");
    case A_NUM: return ideal(c, a, out);
    case A_STR: *out = sd_gstr_static(a->s, a->slen); return 0;
    }
    return sd_gotmpl__errorf(c, SD_EINVALID, "can't evaluate command");
}

static int eval_pipeline(sd_gcall *c, sd_gval dot, const gpipe *p, sd_gval *out)
{
    sd_gval v = sd_gmissing();
    int has = 0, r;
    if (c->nest >= MAX_NEST)
        return sd_gotmpl__errorf(c, SD_ELIMIT, "nesting is deeper than %d levels across template calls", MAX_NEST);
    for (int i = 0; i < p->ncmds; i++) {
        c->nest++;
        r = eval_command(c, dot, p->cmds[i], v, has, &v);
        c->nest--;
        if (r != 0)
            return r;
        has = 1;
        /* exec.go digs into interface{} results: a nil one becomes no value */
        if (v.kind == SD_G_NIL)
            v = sd_gmissing();
    }
    for (int i = 0; i < p->ndecl; i++) {
        if (p->is_assign) {
            gvar *x = find_var(c, p->decl[i]);
            if (!x)
                return sd_gotmpl__errorf(c, SD_EINVALID, "undefined variable: %s", p->decl[i]);
            x->v = v;
        } else if ((r = push_var(c, p->decl[i], v)) != 0) {
            return r;
        }
    }
    *out = v;
    return 0;
}

/* --- statements ----------------------------------------------------------------------- */

static int walk(sd_gcall *c, sd_gval dot, const glist *l);

static int out_check(sd_gcall *c)
{
    if (sd_buf_failed(c->out))
        return sd_gotmpl__errorf(c, sd_buf_error(c->out), sd_buf_error(c->out) == SD_ELIMIT
                                 ? "the output is larger than %zu bytes" : "out of memory (%zu)",
                                 c->out->cap);
    return 0;
}

static int exec_tree(sd_gcall *c, const gtree *t, sd_gval dot)
{
    const char *of = c->file, *ot = c->tmpl;
    size_t obase = c->vbase, onvars = c->nvars;
    int r;
    if (c->depth >= c->lim.max_depth)
        return sd_gotmpl__errorf(c, SD_ELIMIT, "exceeded maximum template depth (%u)", c->lim.max_depth);
    c->depth++;
    c->vbase = c->nvars;
    c->file = t->file;
    c->tmpl = t->name;
    r = push_var(c, "$", dot);
    if (!r)
        r = walk(c, dot, t->root);
    c->nvars = onvars;
    c->vbase = obase;
    c->depth--;
    if (!r) {
        c->file = of;
        c->tmpl = ot;
    }
    return r;
}

int sd_gotmpl__exec_named(sd_gcall *c, sd_buf *out, const char *name, sd_gval dot)
{
    const gtree *t = sd_gotmpl__find(c->set, name);
    sd_buf *old = c->out;
    int r, brk = c->brk;
    if (!t)
        return sd_gotmpl__errorf(c, SD_EINVALID, "template \"%s\" not defined", name);
    c->out = out;
    c->brk = 0;
    r = exec_tree(c, t, dot);
    c->out = old;
    c->brk = brk;
    return r;
}

static int range_iter(sd_gcall *c, const gnode *n, size_t mark, sd_gval index, sd_gval elem)
{
    const gpipe *p = n->pipe;
    int r;
    if ((r = sd_gotmpl__step(c)) != 0)
        return r;
    if (p->ndecl > 0) {
        if (p->is_assign) {
            gvar *x = find_var(c, p->decl[p->ndecl > 1 ? 1 : 0]);
            if (x) x->v = elem;
            if (p->ndecl > 1 && (x = find_var(c, p->decl[0])))
                x->v = index;
        } else {
            c->vars[c->nvars - 1].v = elem;
            if (p->ndecl > 1)
                c->vars[c->nvars - 2].v = index;
        }
    }
    r = walk(c, elem, n->list);
    c->nvars = mark;
    if (c->brk == 2)
        c->brk = 0;
    return r;
}

static int walk_range(sd_gcall *c, sd_gval dot, const gnode *n)
{
    size_t mark0 = c->nvars, mark;
    sd_gval v;
    int r, any = 0;
    if ((r = eval_pipeline(c, dot, n->pipe, &v)) != 0)
        return r;
    mark = c->nvars;
    switch (v.kind) {
    case SD_G_LIST:
        for (size_t i = 0; i < v.u.l->n && !c->brk; i++, any = 1)
            if ((r = range_iter(c, n, mark, sd_gint((long long)i), v.u.l->items[i])) != 0)
                return r;
        break;
    case SD_G_MAP: {
        if (v.u.m->type_name) {
            at(c, n->line, n->col);
            return sd_gotmpl__errorf(c, SD_EINVALID, "range can't iterate over %s", v.u.m->type_name);
        }
        /* a snapshot: the body may set or unset keys of the map (Sprig's
         * set/unset), which must not move what is being iterated */
        size_t *ix = sd_gotmpl__sorted_keys(c->heap, v), cnt = sd_gmap_len(v);
        sd_gval *keys = sd_gheap_alloc(c->heap, (cnt ? cnt : 1) * sizeof *keys);
        sd_gval *vals = sd_gheap_alloc(c->heap, (cnt ? cnt : 1) * sizeof *vals);
        if (!ix || !keys || !vals)
            return heap_check(c);
        for (size_t i = 0; i < cnt; i++) {
            size_t kl;
            const char *k = sd_gmap_key(v, ix[i], &kl);
            keys[i] = sd_gstr_static(k, kl);
            vals[i] = sd_gmap_val(v, ix[i]);
        }
        for (size_t i = 0; i < cnt && !c->brk; i++, any = 1)
            if ((r = range_iter(c, n, mark, keys[i], vals[i])) != 0)
                return r;
        break;
    }
    case SD_G_INT:
        if (n->pipe->ndecl > 1) {
            at(c, n->line, n->col);
            return sd_gotmpl__errorf(c, SD_EINVALID, "can't use %lld to iterate over more than one variable", v.u.i);
        }
        for (long long i = 0; i < v.u.i && !c->brk; i++, any = 1)
            if ((r = range_iter(c, n, mark, sd_gint(i), sd_gint(i))) != 0)
                return r;
        break;
    case SD_G_MISSING: case SD_G_NIL:
        break;
    default: {
        sd_buf b = SD_BUF_INIT;
        gwalk w = sd_gotmpl__walk(c);
        sd_buf_init(&b, 200);
        sd_gotmpl__print(&b, v, &w);
        at(c, n->line, n->col);
        r = sd_gotmpl__errorf(c, SD_EINVALID, "range can't iterate over %s", b.ptr);
        sd_buf_release(&b);
        return r;
    }
    }
    c->brk = 0;
    if (!any && n->else_list)
        r = walk(c, dot, n->else_list);
    c->nvars = mark0;
    return r;
}

static int walk_node(sd_gcall *c, sd_gval dot, const gnode *n)
{
    sd_gval v;
    int r;
    if ((r = sd_gotmpl__step(c)) != 0)
        return r;
    at(c, n->line, n->col);
    switch (n->kind) {
    case N_TEXT:
        sd_buf_put(c->out, n->text, n->len);
        return out_check(c);
    case N_ACTION:
        if ((r = eval_pipeline(c, dot, n->pipe, &v)) != 0)
            return r;
        if (n->pipe->ndecl == 0) {
            gwalk w = sd_gotmpl__walk(c);
            sd_gotmpl__print(c->out, v, &w);
            if ((r = sd_gotmpl__walked(c, &w)) != 0)
                return r;
            return out_check(c);
        }
        return 0;
    case N_IF: case N_WITH: {
        size_t mark = c->nvars;
        if ((r = eval_pipeline(c, dot, n->pipe, &v)) != 0)
            return r;
        if (sd_gval_truth(v))
            r = walk(c, n->kind == N_WITH ? v : dot, n->list);
        else if (n->else_list)
            r = walk(c, dot, n->else_list);
        c->nvars = mark;
        return r;
    }
    case N_RANGE:
        return walk_range(c, dot, n);
    case N_TEMPLATE: {
        const gtree *t = sd_gotmpl__find(c->set, n->tname);
        sd_gval d = sd_gmissing();
        if (!t)
            return sd_gotmpl__errorf(c, SD_EINVALID, "template \"%s\" not defined", n->tname);
        if (n->pipe && (r = eval_pipeline(c, dot, n->pipe, &d)) != 0)
            return r;
        return exec_tree(c, t, d);
    }
    case N_BREAK:
        c->brk = 1;
        return 0;
    case N_CONTINUE:
        c->brk = 2;
        return 0;
    }
    return 0;
}

static int walk(sd_gcall *c, sd_gval dot, const glist *l)
{
    int r = 0;
    if (c->nest >= MAX_NEST)
        return sd_gotmpl__errorf(c, SD_ELIMIT, "nesting is deeper than %d levels across template calls", MAX_NEST);
    c->nest++;
    for (int i = 0; l && i < l->n; i++) {
        if ((r = walk_node(c, dot, l->nodes[i])) != 0 || c->brk)
            break;
    }
    c->nest--;
    return r;
}

int sd_gotmpl_execute(sd_buf *out, const sd_gotmpl *set, const char *name, sd_gval data,
                      sd_gheap *heap, const sd_gotmpl_limits *lim, sd_diags *diags)
{
    sd_gcall c;
    const gtree *t;
    size_t ocap = out->cap;
    int r;

    memset(&c, 0, sizeof c);
    c.set = set;
    c.heap = heap;
    c.out = out;
    c.diags = diags;
    if (lim)
        c.lim = *lim;
    if (!c.lim.max_output) c.lim.max_output = DEF_OUTPUT;
    if (!c.lim.max_depth) c.lim.max_depth = DEF_DEPTH;
    if (!c.lim.max_steps) c.lim.max_steps = DEF_STEPS;
    name = name ? name : set->main_name;
    if (!(t = sd_gotmpl__find(set, name)))
        return sd_diag_error(diags, SD_ENOTFOUND, (sd_loc){ name, 0, 0 },
                             "no template \"%s\"", name);
    if (!out->cap || out->cap > out->len + c.lim.max_output)
        out->cap = out->len + c.lim.max_output;
    c.file = t->file;
    c.tmpl = t->name;
    r = exec_tree(&c, t, data);
    out->cap = ocap;
    free(c.vars);
    return r;
}
