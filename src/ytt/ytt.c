/* SPDX-License-Identifier: Apache-2.0 */
/* ytt.c - ytt schema documents -> synthetic JSON Schema (see ytt.h).
 *
 * Annotation arguments are read as Starlark literals (starlark.c); what
 * is not a literal (a lambda, a function call, a variable without a
 * literal binding) is kept as its source text. */
#include "ytt.h"
#include "buf.h"
#include "starlark.h"
#include "synth.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- annotations ------------------------------------------------------------ */

typedef struct annot {
    char     name[40];     /* "desc", "nullable", ... (after "@schema/") */
    sd_node *pos, *kw;
    sd_loc   loc;
    char    *text;         /* the argument text, for messages */
} annot;

typedef struct yctx {
    const sd_doc *src;
    sd_doc       *out;
    sd_diags     *diags;
    int           warned_rules;
    int           err;
    sd_star_binding *binds;    /* `#@ name = value` lines of the file, in order */
    size_t        nbinds;
} yctx;

static sd_node *kwarg(const annot *a, const char *k) { return sd_node_get(a->kw, k); }

static int truthy(const sd_node *n) { return n && n->kind == SD_BOOL && n->num.b; }

/* The `#@schema/...` annotations written above a pair. Lines that continue
 * an annotation (unbalanced brackets or an open triple quote) are joined. */
static size_t pair_annots(yctx *y, const sd_pair *p, annot *out, size_t max)
{
    size_t n = 0;
    for (uint32_t i = 0; i < p->c_count && n < max; i++) {
        const sd_comment *c = &y->src->comments[p->c_first + i];
        if (strncmp(c->text, "@schema/", 8) != 0)
            continue;
        const char *t = c->text + 8, *e = t;
        while (*e && *e != ' ' && *e != '\t')
            e++;
        annot *a = &out[n];
        memset(a, 0, sizeof *a);
        size_t nl = (size_t)(e - t) < sizeof a->name - 1 ? (size_t)(e - t) : sizeof a->name - 1;
        memcpy(a->name, t, nl);
        a->loc.file = y->src->file;
        a->loc.line = c->line;
        a->loc.column = c->column;
        sd_buf args = SD_BUF_INIT;
        sd_buf_puts(&args, e);
        /* join `#@ ...` continuation lines while brackets or quotes are open */
        for (;;) {
            int depth = 0, tq = 0;
            for (size_t k = 0; k < args.len; k++) {
                if (k + 2 < args.len && (args.ptr[k] == '"' || args.ptr[k] == '\'') &&
                    args.ptr[k + 1] == args.ptr[k] && args.ptr[k + 2] == args.ptr[k]) {
                    tq = !tq;
                    k += 2;
                } else if (!tq && strchr("([{", args.ptr[k])) depth++;
                else if (!tq && strchr(")]}", args.ptr[k])) depth--;
            }
            if ((depth <= 0 && !tq) || i + 1 >= p->c_count)
                break;
            const sd_comment *nx = &y->src->comments[p->c_first + i + 1];
            if (nx->text[0] != '@' || !strncmp(nx->text, "@schema/", 8))
                break;
            i++;
            sd_buf_putc(&args, '\n');
            sd_buf_puts(&args, nx->text + 1);
        }
        const char *why = NULL;
        int err = sd_star_args(&a->pos, &a->kw, &why, args.ptr, args.len, y->out, a->loc, y->binds,
                               y->nbinds);
        if (err == SD_ENOMEM) {
            y->err = SD_ENOMEM;
            sd_buf_release(&args);
            return n;
        }
        if (err) {
            /* ytt itself would refuse this file; document the text as written */
            sd_diag_warning(y->diags, a->loc, "@schema/%s: %s in '%s'; kept as text", a->name,
                            why ? why : "cannot read the arguments", args.ptr);
            a->pos = sd_synth_seq(y->out, a->loc);
            a->kw = sd_synth_map(y->out, a->loc);
            sd_node *raw = sd_synth_str(y->out, a->loc, args.ptr + strspn(args.ptr, " \t"));
            if (!a->pos || !a->kw || !raw || sd_synth_push(y->out, a->pos, raw)) {
                y->err = SD_ENOMEM;
                sd_buf_release(&args);
                return n;
            }
            raw->tag = "!starlark";
        }
        a->text = sd_buf_detach(&args);
        n++;
    }
    return n;
}

static void free_annots(annot *a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(a[i].text);
}

static const annot *find(const annot *a, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(a[i].name, name))
            return &a[i];
    return NULL;
}

static const char *ytt_type_word(const char *t)
{
    if (!strcmp(t, "int")) return "integer";
    if (!strcmp(t, "float")) return "number";
    if (!strcmp(t, "bool")) return "boolean";
    if (!strcmp(t, "map")) return "object";
    if (!strcmp(t, "array") || !strcmp(t, "list")) return "array";
    return t; /* string, null */
}

static int set(yctx *y, sd_node *s, const char *k, sd_node *v)
{
    if (!v || sd_synth_set(y->out, s, k, v))
        return y->err = SD_ENOMEM;
    return 0;
}

static void add_rule(yctx *y, sd_node *s, sd_loc loc, const char *what, const char *source)
{
    sd_node *rules = sd_node_get(s, "x-ytt-rules");
    if (!rules) {
        rules = sd_synth_seq(y->out, loc);
        if (set(y, s, "x-ytt-rules", rules))
            return;
    }
    sd_node *r = sd_synth_map(y->out, loc);
    if (!r || set(y, r, "description", sd_synth_str(y->out, loc, what)) ||
        set(y, r, "source", sd_synth_str(y->out, loc, source)) || sd_synth_push(y->out, rules, r)) {
        y->err = SD_ENOMEM;
        return;
    }
    if (!y->warned_rules++)
        sd_diag_warning(y->diags, loc, "custom validation rules are shown in the documentation but not enforced (%s)", source);
}

static char *regex_quote(const char *s)
{
    sd_buf b = SD_BUF_INIT;
    for (; *s; s++) {
        if (strchr("\\^$.|?*+()[]{}", *s))
            sd_buf_putc(&b, '\\');
        sd_buf_putc(&b, *s);
    }
    return sd_buf_detach(&b);
}

/* @schema/validation (current ytt) and @schema/validate (the seeds). */
static void validation(yctx *y, sd_node *s, const annot *a, const sd_node *value)
{
    int is_len_type = value && (value->kind == SD_STR || value->kind == SD_SEQ || value->kind == SD_MAP);
    for (size_t i = 0; i < a->kw->n; i++) {
        const char *k = a->kw->items[i].key->str;
        sd_node *v = a->kw->items[i].value;
        if (sd_star_is_source(v) || !strcmp(k, "when") || !strcmp(k, "when_null_skip")) {
            sd_buf src = SD_BUF_INIT;
            sd_buf_printf(&src, "%s=%s", k, v->str ? v->str : "");
            add_rule(y, s, a->loc, !strcmp(k, "when") ? "applies only when the condition holds" : k, src.ptr);
            sd_buf_release(&src);
            continue;
        }
        if (!strcmp(k, "min")) set(y, s, "minimum", v);
        else if (!strcmp(k, "max")) set(y, s, "maximum", v);
        else if (!strcmp(k, "min_len") || !strcmp(k, "max_len")) {
            int mn = k[1] == 'i';
            const char *kw = value && value->kind == SD_SEQ ? (mn ? "minItems" : "maxItems")
                           : value && value->kind == SD_MAP ? (mn ? "minProperties" : "maxProperties")
                           : (mn ? "minLength" : "maxLength");
            (void)is_len_type;
            set(y, s, kw, v);
        } else if (!strcmp(k, "one_of") || !strcmp(k, "enum")) set(y, s, "enum", v);
        else if (!strcmp(k, "regexp")) set(y, s, "pattern", v);
        else if (!strcmp(k, "format")) {
            set(y, s, "format", v);
            set(y, s, "x-format-assert", sd_synth_bool(y->out, a->loc, 1));
        } else if (!strcmp(k, "not_null")) {
            if (truthy(v))
                set(y, s, "x-not-null", v);
        } else if (!strcmp(k, "one_not_null")) {
            set(y, s, "x-one-not-null", v);
            if (v->kind == SD_SEQ) {
                /* exactly one of the named keys is not null */
                sd_node *one = sd_synth_seq(y->out, a->loc);
                for (size_t j = 0; one && j < v->n; j++) {
                    sd_node *br = sd_synth_map(y->out, a->loc), *props = sd_synth_map(y->out, a->loc);
                    sd_node *nn = sd_synth_map(y->out, a->loc), *req = sd_synth_seq(y->out, a->loc);
                    sd_node *notnull = sd_synth_map(y->out, a->loc);
                    if (!br || !props || !nn || !req || !notnull) break;
                    set(y, notnull, "type", sd_synth_str(y->out, a->loc, "null"));
                    set(y, nn, "not", notnull);
                    set(y, props, v->items[j].value->str ? v->items[j].value->str : "", nn);
                    set(y, br, "properties", props);
                    sd_synth_push(y->out, req, v->items[j].value);
                    set(y, br, "required", req);
                    sd_synth_push(y->out, one, br);
                }
                set(y, s, "oneOf", one);
            }
        } else if (!strcmp(k, "prefix") || !strcmp(k, "starts_with") || !strcmp(k, "ends_with")) {
            if (v->kind == SD_STR) {
                char *q = regex_quote(v->str);
                sd_buf pat = SD_BUF_INIT;
                sd_buf_printf(&pat, k[0] == 'e' ? "%s$" : "^%s", q ? q : "");
                set(y, s, sd_node_get(s, "pattern") ? "x-pattern-2" : "pattern", sd_synth_str(y->out, a->loc, pat.ptr));
                sd_buf_release(&pat);
                free(q);
            }
        } else {
            sd_buf src = SD_BUF_INIT;
            sd_buf_printf(&src, "%s=%s", k, v->kind == SD_STR ? v->str : "...");
            add_rule(y, s, a->loc, "a rule schemadoc does not know", src.ptr);
            sd_buf_release(&src);
        }
    }
    /* positional rules: ("description", assertion) */
    for (size_t i = 0; i < a->pos->n; i++) {
        const sd_node *r = a->pos->items[i].value;
        const char *what = r->kind == SD_SEQ && r->n && r->items[0].value->kind == SD_STR ? r->items[0].value->str : "custom rule";
        const char *src = r->kind == SD_SEQ && r->n > 1 && r->items[1].value->str ? r->items[1].value->str : a->text;
        add_rule(y, s, a->loc, what, src);
    }
}

static sd_node *example_node(yctx *y, const sd_node *v)
{
    return sd_star_is_source(v) ? (sd_node *)(uintptr_t)v : sd_synth_copy(y->out, v);
}

static sd_node *schema_for(yctx *y, const sd_pair *p, const sd_node *value, int depth);

static sd_node *schema_of_value(yctx *y, const sd_node *value, int any, int depth)
{
    sd_node *s = sd_synth_map(y->out, value->loc);
    const char *t = value->kind == SD_NULL ? NULL : sd_node_type_word(value); /* ytt floats accept ints too: "number" */
    if (!s)
        return NULL;
    if (any)
        return set(y, s, "default", sd_synth_copy(y->out, value)) ? NULL : s;
    if (t && set(y, s, "type", sd_synth_str(y->out, value->loc, t)))
        return NULL;
    if (depth > 200)
        return s;
    if (value->kind == SD_MAP) {
        sd_node *props = sd_synth_map(y->out, value->loc);
        sd_node *def = sd_synth_map(y->out, value->loc);
        if (set(y, s, "properties", props))
            return NULL;
        for (size_t i = 0; i < value->n; i++) {
            const sd_pair *cp = &value->items[i];
            sd_node *c = schema_for(y, cp, cp->value, depth + 1);
            if (!c)
                return NULL;
            int anykey = 0;
            for (uint32_t k = 0; k < cp->c_count; k++)
                if (!strncmp(y->src->comments[cp->c_first + k].text, "@schema/any-key", 15))
                    anykey = 1;
            if (anykey)
                set(y, s, "additionalProperties", c);
            else if (set(y, props, cp->key->str, c))
                return NULL;
            const sd_node *d = sd_node_get(c, "default");
            if (d && !anykey)
                set(y, def, cp->key->str, (sd_node *)d);
        }
        if (!sd_node_get(s, "additionalProperties"))
            set(y, s, "additionalProperties", sd_synth_bool(y->out, value->loc, 0));
        set(y, s, "default", def); /* a map defaults to its items' defaults */
    } else if (value->kind == SD_SEQ) {
        if (value->n) {
            sd_node *items = schema_for(y, &value->items[0], value->items[0].value, depth + 1);
            if (!items || set(y, s, "items", items))
                return NULL;
        }
        set(y, s, "default", sd_synth_seq(y->out, value->loc)); /* arrays default to [] */
    } else {
        set(y, s, "default", sd_synth_copy(y->out, value));
    }
    return s;
}

/* The schema for one map item or array item, with its annotations. */
/* A text argument without the blank lines and spaces around it (a
 * triple-quoted string starts and ends on its quote lines, seed 004). */
static sd_node *trimmed(yctx *y, const sd_node *n)
{
    size_t a = 0, b;
    if (n->kind != SD_STR || sd_star_is_source(n))
        return (sd_node *)(uintptr_t)n;
    b = n->len;
    while (a < b && n->str[a] && strchr(" \t\r\n", n->str[a]))
        a++;
    while (b > a && n->str[b - 1] && strchr(" \t\r\n", n->str[b - 1]))
        b--;
    if (a == 0 && b == n->len)
        return (sd_node *)(uintptr_t)n;
    sd_buf t = SD_BUF_INIT;
    sd_buf_put(&t, n->str + a, b - a);
    sd_node *r = sd_synth_str(y->out, n->loc, t.ptr);
    sd_buf_release(&t);
    return r ? r : (sd_node *)(uintptr_t)n;
}

static sd_node *schema_for(yctx *y, const sd_pair *p, const sd_node *value, int depth)
{
    annot an[16];
    size_t na = pair_annots(y, p, an, 16);
    const annot *a;
    int any = 0;

    if ((a = find(an, na, "type")) && truthy(kwarg(a, "any")))
        any = 1;
    if (value->kind == SD_NULL && !find(an, na, "nullable") && !find(an, na, "type"))
        any = 1; /* ytt refuses a bare null; document it as any type */
    sd_node *s = schema_of_value(y, value, any, depth);
    if (!s) {
        free_annots(an, na);
        return NULL;
    }
    for (size_t i = 0; i < na; i++) {
        a = &an[i];
        const sd_node *arg = a->pos->n ? a->pos->items[0].value : NULL;
        if (arg && sd_star_is_source(arg) && (!strcmp(a->name, "title") || !strcmp(a->name, "desc") ||
                                    !strcmp(a->name, "doc") || !strcmp(a->name, "deprecated") ||
                                    !strcmp(a->name, "removed") || !strcmp(a->name, "default")))
            sd_diag_warning(y->diags, a->loc, "@schema/%s: '%s' is not a value schemadoc can evaluate "
                            "(a literal, a variable assigned above, `+`); shown as source text",
                            a->name, arg->str);
        if (!strcmp(a->name, "title") && arg) set(y, s, "title", trimmed(y, arg));
        else if ((!strcmp(a->name, "desc") || !strcmp(a->name, "doc")) && arg) set(y, s, "description", trimmed(y, arg));
        else if (!strcmp(a->name, "nullable")) {
            const sd_node *t = sd_node_get(s, "type");
            if (t && t->kind == SD_STR) {
                sd_node *ts = sd_synth_seq(y->out, a->loc);
                sd_synth_push(y->out, ts, (sd_node *)t);
                sd_synth_push(y->out, ts, sd_synth_str(y->out, a->loc, "null"));
                set(y, s, "type", ts);
            }
            if (!find(an, na, "default"))
                set(y, s, "default", sd_synth_null(y->out, a->loc));
        } else if (!strcmp(a->name, "default") && arg) {
            set(y, s, "default", example_node(y, arg));
        } else if (!strcmp(a->name, "type") && any) {
            /* any=True: no type, children not constrained */
        } else if (!strcmp(a->name, "match") || !strcmp(a->name, "definition")) {
            /* document markers (seeds) */
        } else if (!strcmp(a->name, "type")) {
            const sd_node *one = kwarg(a, "one_of");
            if (!one && arg)
                one = a->pos->n == 1 ? arg : a->pos;
            if (one) {
                sd_node *ts = sd_synth_seq(y->out, a->loc);
                const sd_node *inferred = sd_node_get(s, "type");
                size_t cnt = one->kind == SD_SEQ ? one->n : 1;
                for (size_t k = 0; k < cnt; k++) {
                    const sd_node *w = one->kind == SD_SEQ ? one->items[k].value : one;
                    if (w->kind == SD_STR)
                        sd_synth_push(y->out, ts, sd_synth_str(y->out, a->loc, ytt_type_word(w->str)));
                }
                if (truthy(kwarg(a, "or_inferred")) && inferred && inferred->kind == SD_STR)
                    sd_synth_push(y->out, ts, (sd_node *)inferred);
                set(y, s, "type", ts->n == 1 ? ts->items[0].value : ts);
            }
        } else if (!strcmp(a->name, "example") && arg) {
            sd_node *ex = sd_synth_seq(y->out, a->loc), *o = sd_synth_map(y->out, a->loc);
            /* (value, "title") or a plain value */
            const sd_node *val = arg, *title = NULL;
            if (arg->kind == SD_SEQ && arg->n == 2 && arg->items[1].value->kind == SD_STR && a->text[strspn(a->text, " \t")] == '(')
                val = arg->items[0].value, title = arg->items[1].value;
            set(y, o, "value", example_node(y, val));
            if (title)
                set(y, o, "title", (sd_node *)title);
            sd_synth_push(y->out, ex, o);
            set(y, s, "x-examples", ex);
        } else if (!strcmp(a->name, "examples")) {
            sd_node *ex = sd_synth_seq(y->out, a->loc);
            for (size_t k = 0; k < a->pos->n; k++) {
                const sd_node *tu = a->pos->items[k].value;
                sd_node *o = sd_synth_map(y->out, a->loc);
                if (tu->kind == SD_SEQ && tu->n >= 2) {
                    set(y, o, "title", tu->items[0].value);
                    set(y, o, "value", example_node(y, tu->items[1].value));
                } else {
                    set(y, o, "value", example_node(y, tu));
                }
                sd_synth_push(y->out, ex, o);
            }
            set(y, s, "x-examples", ex);
        } else if (!strcmp(a->name, "deprecated")) {
            set(y, s, "deprecated", sd_synth_bool(y->out, a->loc, 1));
            if (arg && arg->kind == SD_STR)
                set(y, s, "x-deprecation", (sd_node *)arg);
        } else if (!strcmp(a->name, "removed")) {
            set(y, s, "x-removed", arg && arg->kind == SD_STR ? (sd_node *)arg : sd_synth_str(y->out, a->loc, ""));
        } else if (!strcmp(a->name, "validation") || !strcmp(a->name, "validate")) {
            validation(y, s, a, value);
        } else if (!strcmp(a->name, "key")) {
            set(y, s, "x-ytt-key", sd_synth_str(y->out, a->loc, a->text));
        } else if (!strcmp(a->name, "any-key") || !strcmp(a->name, "key-may-be-present")) {
            /* handled by the parent map */
        } else {
            sd_diag_warning(y->diags, a->loc, "unknown annotation '@schema/%s' ignored", a->name);
        }
        if (y->err)
            break;
    }
    free_annots(an, na);
    return y->err ? NULL : s;
}

/* ---- documents ------------------------------------------------------------------- */

static int marked(const sd_doc *doc, const sd_root *r)
{
    for (uint32_t i = 0; i < r->c_count; i++) {
        const char *t = doc->comments[r->c_first + i].text;
        if (!strncmp(t, "@data/values-schema", 19) || !strncmp(t, "@schema/match", 13) ||
            !strncmp(t, "@schema/definition", 18))
            return 1;
    }
    return 0;
}

int sd_ytt_is_schema(const sd_doc *doc)
{
    for (size_t i = 0; i < doc->nroots; i++)
        if (marked(doc, &doc->roots[i]))
            return 1;
    return 0;
}

int sd_ytt_schema(sd_doc **out, const sd_doc *doc, sd_diags *diags)
{
    yctx y;
    const sd_root *r = NULL;

    *out = NULL;
    for (size_t i = 0; i < doc->nroots && !r; i++)
        if (marked(doc, &doc->roots[i]))
            r = &doc->roots[i];
    if (!r)
        return sd_diag_error(diags, SD_ENOTFOUND, (sd_loc){ doc->file, 0, 0 },
                             "no ytt schema document (#@data/values-schema) in this file");
    memset(&y, 0, sizeof y);
    y.src = doc;
    y.diags = diags;
    if (!(y.out = sd_synth_new(doc->file)))
        return sd_diag_error(diags, SD_ENOMEM, (sd_loc){ doc->file, 0, 0 }, "out of memory");
    y.err = sd_star_read_bindings(&y.binds, &y.nbinds, y.out, doc);
    /* the document's own annotations (title, desc, examples) sit above `---` */
    sd_pair top;
    memset(&top, 0, sizeof top);
    top.c_first = r->c_first;
    top.c_count = r->c_count;
    top.value = r->node;
    sd_node *s = y.err ? NULL : schema_for(&y, &top, r->node, 0);
    sd_star_bindings_free(y.binds, y.nbinds);
    if (!s || y.err) {
        sd_doc_free(y.out);
        return y.err ? y.err : SD_ENOMEM;
    }
    sd_node *root = sd_synth_map(y.out, r->node->loc);
    set(&y, root, "$schema", sd_synth_str(y.out, r->node->loc, "https://json-schema.org/draft/2020-12/schema"));
    for (size_t i = 0; i < s->n; i++)
        set(&y, root, s->items[i].key->str, s->items[i].value);
    sd_synth_set_root(y.out, root);
    *out = y.out;
    return 0;
}
