/* SPDX-License-Identifier: Apache-2.0 */
/* starlark.c - the Starlark that ytt annotations are written in, as far as
 * a schema needs it (starlark.h): literals (strings in every quote form,
 * ints, floats, True/False/None, lists, tuples, dicts, `+` of literals,
 * keyword arguments) and `#@ name = value` statements. What is not a
 * literal (a lambda, a function call, a variable without a literal
 * binding) is kept as its source text, tagged "!starlark".
 *
 * In: the text of an annotation's arguments, or a document's comments.
 * Out: nodes of a synthetic document (synth.h). */
#include "starlark.h"
#include "buf.h"
#include "synth.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---- literals ---------------------------------------------------------------- */

typedef struct sp {
    const char *p, *end;
    sd_doc     *out;
    sd_loc      loc;
    const char *err;
    int         depth;
    const sd_star_binding *binds;   /* the document's variables ... */
    size_t      nbinds;
    int         before;             /* ... assigned above this line */
} sp;

static void ws(sp *x)
{
    while (x->p < x->end && (*x->p == ' ' || *x->p == '\t' || *x->p == '\n' || *x->p == '\r' ||
                             (*x->p == '\\' && x->p + 1 < x->end && x->p[1] == '\n')))
        x->p++;
}

static sd_node *expr(sp *x);

/* A non-literal: its source text, to the end of this argument. */
static sd_node *source_text(sp *x, const char *start)
{
    int depth = 0;
    char q = 0;
    while (x->p < x->end) {
        char ch = *x->p;
        if (q) {
            if (ch == '\\') x->p++;
            else if (ch == q) q = 0;
        } else if (ch == '"' || ch == '\'') q = ch;
        else if (ch == '(' || ch == '[' || ch == '{') depth++;
        else if (ch == ')' || ch == ']' || ch == '}') {
            if (!depth) break;
            depth--;
        } else if (ch == ',' && !depth) break;
        x->p++;
    }
    const char *e = x->p;
    while (e > start && isspace((unsigned char)e[-1]))
        e--;
    sd_buf b = SD_BUF_INIT;
    sd_buf_put(&b, start, (size_t)(e - start));
    sd_node *n = sd_synth_str(x->out, x->loc, b.ptr);
    sd_buf_release(&b);
    if (n)
        n->tag = "!starlark"; /* marks source text, not a string value */
    return n;
}

static sd_node *string_lit(sp *x)
{
    char q = *x->p;
    int triple = x->end - x->p >= 3 && x->p[1] == q && x->p[2] == q;
    sd_buf b = SD_BUF_INIT;
    x->p += triple ? 3 : 1;
    for (;;) {
        if (x->p >= x->end) {
            x->err = "unterminated string";
            sd_buf_release(&b);
            return NULL;
        }
        char ch = *x->p;
        if (triple ? (ch == q && x->end - x->p >= 3 && x->p[1] == q && x->p[2] == q) : ch == q) {
            x->p += triple ? 3 : 1;
            break;
        }
        if (!triple && ch == '\n') {
            x->err = "unterminated string";
            sd_buf_release(&b);
            return NULL;
        }
        if (ch == '\\' && x->p + 1 < x->end) {
            char e = x->p[1];
            x->p += 2;
            switch (e) {
            case 'n': sd_buf_putc(&b, '\n'); break;
            case 't': sd_buf_putc(&b, '\t'); break;
            case 'r': sd_buf_putc(&b, '\r'); break;
            case '\n': break;
            case '\\': case '\'': case '"': sd_buf_putc(&b, e); break;
            default: sd_buf_putc(&b, '\\'); sd_buf_putc(&b, e);
            }
            continue;
        }
        sd_buf_putc(&b, ch);
        x->p++;
    }
    /* adjacent literals concatenate */
    ws(x);
    sd_node *n;
    if (x->p < x->end && (*x->p == '"' || *x->p == '\'')) {
        sd_node *more = string_lit(x);
        if (!more) {
            sd_buf_release(&b);
            return NULL;
        }
        sd_buf_puts(&b, more->str);
    }
    n = sd_synth_str(x->out, x->loc, b.ptr);
    sd_buf_release(&b);
    return n;
}

static sd_node *seq_lit(sp *x, char close)
{
    sd_node *s = sd_synth_seq(x->out, x->loc);
    x->p++;
    for (;;) {
        ws(x);
        if (x->p < x->end && *x->p == close) {
            x->p++;
            return s;
        }
        sd_node *v = expr(x);
        if (!v || sd_synth_push(x->out, s, v))
            return NULL;
        ws(x);
        if (x->p < x->end && *x->p == ',') {
            x->p++;
            continue;
        }
        if (x->p < x->end && *x->p == close) {
            x->p++;
            return s;
        }
        x->err = close == ']' ? "expected ',' or ']'" : "expected ',' or ')'";
        return NULL;
    }
}

static sd_node *dict_lit(sp *x)
{
    sd_node *m = sd_synth_map(x->out, x->loc);
    x->p++;
    for (;;) {
        ws(x);
        if (x->p < x->end && *x->p == '}') {
            x->p++;
            return m;
        }
        sd_node *k = expr(x);
        if (!k)
            return NULL;
        ws(x);
        if (x->p >= x->end || *x->p != ':') {
            x->err = "expected ':' in a dict";
            return NULL;
        }
        x->p++;
        sd_node *v = expr(x);
        if (!v || sd_synth_set(x->out, m, k->str ? k->str : "", v))
            return NULL;
        ws(x);
        if (x->p < x->end && *x->p == ',') {
            x->p++;
            continue;
        }
        if (x->p < x->end && *x->p == '}') {
            x->p++;
            return m;
        }
        x->err = "expected ',' or '}'";
        return NULL;
    }
}

/* The value `name` (`len` bytes) was last assigned above the annotation. */
static sd_node *lookup(const sp *x, const char *name, size_t len)
{
    sd_node *v = NULL;
    for (size_t i = 0; i < x->nbinds; i++)
        if (x->binds[i].line < x->before && strlen(x->binds[i].name) == len &&
            !strncmp(x->binds[i].name, name, len))
            v = x->binds[i].value;
    return v;
}

static sd_node *primary(sp *x);

/* `a + b + ...`: strings, numbers and lists as Starlark adds them; any
 * other operand keeps the whole expression as source text. */
static sd_node *expr(sp *x)
{
    const char *start;
    sd_node *n;

    ws(x);
    start = x->p;
    if (!(n = primary(x)))
        return NULL;
    for (;;) {
        const char *save = x->p;
        ws(x);
        if (x->p >= x->end || *x->p != '+') {
            x->p = save;
            return n;
        }
        x->p++;
        sd_node *m = primary(x);
        if (!m)
            return NULL;
        if (sd_star_is_source(n) || sd_star_is_source(m))
            goto text;
        if (n->kind == SD_STR && m->kind == SD_STR) {
            sd_buf b = SD_BUF_INIT;
            sd_buf_put(&b, n->str, n->len);
            sd_buf_put(&b, m->str, m->len);
            n = sd_synth_str(x->out, x->loc, b.ptr);
            sd_buf_release(&b);
        } else if (n->kind == SD_INT && m->kind == SD_INT &&
                   !(m->num.i > 0 && n->num.i > LLONG_MAX - m->num.i) &&
                   !(m->num.i < 0 && n->num.i < LLONG_MIN - m->num.i)) {
            n = sd_synth_int(x->out, x->loc, n->num.i + m->num.i);
        } else if ((n->kind == SD_INT || n->kind == SD_FLOAT) && (m->kind == SD_INT || m->kind == SD_FLOAT)) {
            double a = n->kind == SD_INT ? (double)n->num.i : n->num.f;
            double c = m->kind == SD_INT ? (double)m->num.i : m->num.f;
            n = sd_synth_num(x->out, x->loc, a + c);
        } else if (n->kind == SD_SEQ && m->kind == SD_SEQ) {
            sd_node *l = sd_synth_seq(x->out, x->loc);
            for (size_t i = 0; l && i < n->n; i++)
                sd_synth_push(x->out, l, n->items[i].value);
            for (size_t i = 0; l && i < m->n; i++)
                sd_synth_push(x->out, l, m->items[i].value);
            n = l;
        } else {
            goto text;
        }
        if (!n)
            return NULL;
    }
text:
    x->p = start;
    return source_text(x, start);
}

static sd_node *primary(sp *x)
{
    const char *start;
    ws(x);
    if (x->p >= x->end) {
        x->err = "expected a value";
        return NULL;
    }
    if (++x->depth > 100) {
        x->err = "nesting too deep";
        return NULL;
    }
    start = x->p;
    char ch = *x->p;
    sd_node *n = NULL;
    if (ch == '"' || ch == '\'') {
        n = string_lit(x);
    } else if (ch == '[') {
        n = seq_lit(x, ']');
    } else if (ch == '(') {
        /* a tuple, or a parenthesised expression */
        n = seq_lit(x, ')');
        if (n && n->n == 1 && x->p[-2] != ',' && !(x->p - start >= 2 && memchr(start, ',', (size_t)(x->p - start))))
            n = n->items[0].value;
    } else if (ch == '{') {
        n = dict_lit(x);
    } else if (isdigit((unsigned char)ch) || ((ch == '-' || ch == '+' || ch == '.') && x->p + 1 < x->end &&
                                               (isdigit((unsigned char)x->p[1]) || x->p[1] == '.'))) {
        char *e;
        long long iv = strtoll(x->p, &e, 0);
        if (*e == '.' || *e == 'e' || *e == 'E') {
            double d = strtod(x->p, &e);
            n = sd_synth_num(x->out, x->loc, d);
        } else {
            n = sd_synth_int(x->out, x->loc, iv);
        }
        x->p = e;
    } else {
        const char *w = x->p;
        while (x->p < x->end && (isalnum((unsigned char)*x->p) || *x->p == '_' || *x->p == '.'))
            x->p++;
        size_t wl = (size_t)(x->p - w);
        ws(x);
        int call = x->p < x->end && (*x->p == '(' || *x->p == '[');
        if (!call && wl == 4 && !strncmp(w, "True", 4)) n = sd_synth_bool(x->out, x->loc, 1);
        else if (!call && wl == 5 && !strncmp(w, "False", 5)) n = sd_synth_bool(x->out, x->loc, 0);
        else if (!call && wl == 4 && !strncmp(w, "None", 4)) n = sd_synth_null(x->out, x->loc);
        else if (!call && wl && (n = lookup(x, w, wl))) {
            /* a variable assigned above */
        } else {
            x->p = start;
            n = source_text(x, start); /* lambda, call, variable */
        }
    }
    x->depth--;
    return n;
}

/* Arguments of one annotation: positional values in `pos`, keyword
 * arguments in `kw`. */
static int parse_args(sp *x, sd_node **pos, sd_node **kw)
{
    *pos = sd_synth_seq(x->out, x->loc);
    *kw = sd_synth_map(x->out, x->loc);
    if (!*pos || !*kw)
        return SD_ENOMEM;
    for (;;) {
        ws(x);
        if (x->p >= x->end)
            return 0;
        const char *w = x->p;
        while (x->p < x->end && (isalnum((unsigned char)*x->p) || *x->p == '_'))
            x->p++;
        const char *we = x->p;
        ws(x);
        if (we > w && x->p < x->end && *x->p == '=' && (x->p + 1 >= x->end || x->p[1] != '=')) {
            x->p++;
            sd_node *v = expr(x);
            if (!v)
                return SD_ESYNTAX;
            char key[64];
            size_t kl = (size_t)(we - w) < sizeof key - 1 ? (size_t)(we - w) : sizeof key - 1;
            memcpy(key, w, kl);
            key[kl] = '\0';
            if (sd_synth_set(x->out, *kw, key, v))
                return SD_ENOMEM;
        } else {
            x->p = w;
            sd_node *v = expr(x);
            if (!v)
                return SD_ESYNTAX;
            if (sd_synth_push(x->out, *pos, v))
                return SD_ENOMEM;
        }
        ws(x);
        if (x->p < x->end && *x->p == ',') {
            x->p++;
            continue;
        }
        if (x->p < x->end) {
            x->err = "expected ',' between arguments";
            return SD_ESYNTAX;
        }
        return 0;
    }
}

int sd_star_args(sd_node **pos, sd_node **kw, const char **why, const char *text, size_t len,
                 sd_doc *out, sd_loc loc, const sd_star_binding *binds, size_t nbinds)
{
    sp x = { text, text + len, out, loc, NULL, 0, binds, nbinds, loc.line };
    int err = parse_args(&x, pos, kw);
    *why = x.err;
    return err;
}

int sd_star_is_source(const sd_node *n)
{
    return n && n->tag && !strcmp(n->tag, "!starlark");
}

void sd_star_bindings_free(sd_star_binding *binds, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(binds[i].name);
    free(binds);
}

/* ---- statements ------------------------------------------------------------- */

/* Brackets or a triple quote still open at the end of `t`, or a `\`
 * continuation: the statement goes on on the next `#@` line. */
int sd_star_continues(const char *t, size_t n)
{
    int depth = 0, tq = 0;
    char q = 0;
    for (size_t k = 0; k < n; k++) {
        char c = t[k];
        if (!q && k + 2 < n && (c == '"' || c == '\'') && t[k + 1] == c && t[k + 2] == c) {
            tq = !tq;
            k += 2;
        } else if (tq) {
            if (c == '\\')
                k++;
        } else if (q) {
            if (c == '\\') k++;
            else if (c == q) q = 0;
        } else if (c == '"' || c == '\'') q = c;
        else if (c == '#') break;
        else if (strchr("([{", c)) depth++;
        else if (strchr(")]}", c)) depth--;
    }
    while (n && (t[n - 1] == ' ' || t[n - 1] == '\t'))
        n--;
    return tq || depth > 0 || (n && t[n - 1] == '\\');
}

/* Every `#@ name = value` statement of the file (`#@` lines that are no
 * annotation), joined across continuation lines, evaluated in order: a
 * value may use the variables assigned before it. Other statements (def,
 * load, if, ...) are skipped. */
int sd_star_read_bindings(sd_star_binding **binds, size_t *nbinds, sd_doc *out, const sd_doc *d)
{
    int err = 0;

    *binds = NULL;
    *nbinds = 0;
    for (size_t i = 0; i < d->ncomments && !err; i++) {
        const sd_comment *c = &d->comments[i];
        if (c->text[0] != '@' || (c->text[1] != ' ' && c->text[1] != '\t'))
            continue;
        sd_buf st = SD_BUF_INIT;
        int line = c->line;
        sd_buf_puts(&st, c->text + 1);
        while (sd_star_continues(st.ptr, st.len) && i + 1 < d->ncomments && d->comments[i + 1].text[0] == '@' &&
               d->comments[i + 1].line == d->comments[i].line + 1) {
            i++;
            sd_buf_putc(&st, '\n');
            sd_buf_puts(&st, d->comments[i].text + 1);
        }
        const char *p = st.ptr + strspn(st.ptr, " \t"), *w = p;
        while (isalnum((unsigned char)*p) || *p == '_')
            p++;
        size_t wl = (size_t)(p - w);
        p += strspn(p, " \t");
        if (wl && !isdigit((unsigned char)*w) && *p == '=' && p[1] != '=' &&
            !(wl == 3 && !strncmp(w, "def", 3))) {
            sp x;
            memset(&x, 0, sizeof x);
            x.p = p + 1;
            x.end = st.ptr + st.len;
            x.out = out;
            x.loc = (sd_loc){ d->file, line, c->column };
            x.binds = *binds;
            x.nbinds = *nbinds;
            x.before = line;
            sd_node *v = expr(&x);
            ws(&x);
            if (v && (x.p < x.end || sd_star_is_source(v)))
                v = NULL;       /* more than a value: not something to show */
            sd_star_binding *b = realloc(*binds, (*nbinds + 1) * sizeof *b);
            char *name = malloc(wl + 1);
            if (!b || !name) {
                free(name);
                if (b)
                    *binds = b;
                err = SD_ENOMEM;
            } else {
                memcpy(name, w, wl);
                name[wl] = '\0';
                *binds = b;
                (*binds)[(*nbinds)++] = (sd_star_binding){ name, v, line };
            }
        }
        sd_buf_release(&st);
    }
    return err;
}
