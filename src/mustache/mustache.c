/* SPDX-License-Identifier: Apache-2.0 */
/* mustache.c - template text -> compiled tree -> text, over a JSON view.
 *
 * Compiling is two passes. tokenize() cuts the text into text pieces (one
 * per line at most) and tags, applying set-delimiter tags as it goes. build()
 * then walks the pieces line by line, decides which lines are "standalone"
 * (Mustache spec: a line holding only whitespace and non-interpolating tags
 * disappears from the output) and builds a tree of nodes. A last pass,
 * fix_indent(), works out the indentation rules of ~inheritance.
 *
 * Indentation: every text node that starts a line carries `bol`. Rendering
 * keeps the current indentation (from standalone partials, parents and
 * overridden blocks) and writes it before each `bol` node, so the lines of
 * the template are indented and the lines of interpolated data are not
 * (spec partials.json "Standalone Indentation").
 *
 * Everything a template owns (nodes, names, a copy of the text) lives in its
 * arena and goes with sd_mustache_free(). Rendering borrows the JSON data.
 * Partials come from the registry in mustache_partials.c; rendering is
 * mustache_render.c. */
#include "mustache_int.h"
#include "alloc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------- */
/* Tokens                                                                     */

enum { TK_TEXT = 0 };       /* tags use their sigil; 'v' is a plain {{name}} */

typedef struct tok {
    uint8_t type;
    uint8_t nl;             /* TK_TEXT: ends with a newline */
    const char *s;          /* text bytes, or the tag content without sigil, trimmed */
    size_t n;
    int line, col;
} tok;

typedef struct cstate {
    sd_mustache *t;
    sd_diags *diags;
    tok *toks;
    size_t ntok, captok;
} cstate;

static int cerror(cstate *cs, int code, int line, int col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

static int cerror(cstate *cs, int code, int line, int col, const char *fmt, ...)
{
    sd_buf msg = SD_BUF_INIT;
    sd_loc loc = { cs->t->name, line, col };
    va_list ap;

    va_start(ap, fmt);
    sd_buf_vprintf(&msg, fmt, ap);
    va_end(ap);
    sd_diag_error(cs->diags, code, loc, "%s", msg.ptr);
    sd_buf_release(&msg);
    return code;
}

static int push_tok(cstate *cs, const tok *tk)
{
    if (sd_grow((void **)&cs->toks, &cs->captok, cs->ntok + 1, sizeof *cs->toks) < 0)
        return SD_ENOMEM;
    cs->toks[cs->ntok++] = *tk;
    return 0;
}

static int is_blank(char c) { return c == ' ' || c == '\t'; }
static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static const char *find(const char *p, const char *end, const char *pat, size_t n)
{
    /* memchr for the first byte, then compare: memmem is a GNU extension */
    while ((size_t)(end - p) >= n) {
        const char *q = memchr(p, pat[0], (size_t)(end - p) - n + 1);
        if (!q)
            return NULL;
        if (memcmp(q, pat, n) == 0)
            return q;
        p = q + 1;
    }
    return NULL;
}

/* Advance line/col over [p, end). Columns count bytes from 1. */
static void advance(const char *p, const char *end, int *line, int *col)
{
    for (; p < end; p++) {
        if (*p == '\n') {
            ++*line;
            *col = 1;
        } else {
            ++*col;
        }
    }
}

static int tokenize(cstate *cs)
{
    const char *p = cs->t->text, *end = p + cs->t->len;
    char otag[64] = "{{", ctag[64] = "}}", close2[66];
    size_t olen = 2, clen = 2;
    int line = 1, col = 1, err;

    while (p < end) {
        const char *q = find(p, end, otag, olen), *stop = q ? q : end, *r, *c;
        tok tk;

        /* text up to the tag, one token per line */
        while (p < stop) {
            const char *nl = memchr(p, '\n', (size_t)(stop - p));
            const char *e = nl ? nl + 1 : stop;
            tk.type = TK_TEXT;
            tk.nl = nl != NULL;
            tk.s = p;
            tk.n = (size_t)(e - p);
            tk.line = line;
            tk.col = col;
            if ((err = push_tok(cs, &tk)) < 0)
                return err;
            advance(p, e, &line, &col);
            p = e;
        }
        if (!q)
            break;

        tk.line = line;
        tk.col = col;
        tk.nl = 0;
        r = q + olen;
        if (r < end && *r == '{') {
            tk.type = '{';
            close2[0] = '}';
            memcpy(close2 + 1, ctag, clen);
            c = find(++r, end, close2, clen + 1);
        } else if (r < end && *r == '=') {
            tk.type = '=';
            close2[0] = '=';
            memcpy(close2 + 1, ctag, clen);
            c = find(++r, end, close2, clen + 1);
        } else {
            tk.type = 'v';
            if (r < end && *r && strchr("&#^/!><$", *r))
                tk.type = (uint8_t)*r++;
            c = find(r, end, ctag, clen);
        }
        if (!c)
            return cerror(cs, SD_ESYNTAX, line, col, "unclosed tag: no '%s%s' after '%s'",
                          tk.type == '{' ? "}" : tk.type == '=' ? "=" : "", ctag, otag);
        tk.s = r;
        tk.n = (size_t)(c - r);
        while (tk.n && is_space(tk.s[0]))
            tk.s++, tk.n--;
        while (tk.n && is_space(tk.s[tk.n - 1]))
            tk.n--;
        p = c + clen + (tk.type == '{' || tk.type == '=');
        advance(q, p, &line, &col);

        if (tk.type == '=') {
            /* {{=<% %>=}}: two delimiters, no whitespace or '=' in them */
            size_t i = 0, a, b;
            while (i < tk.n && !is_space(tk.s[i]))
                i++;
            a = i;
            while (i < tk.n && is_space(tk.s[i]))
                i++;
            b = i;
            if (a == 0 || b == a || b >= tk.n || memchr(tk.s, '=', tk.n) ||
                a >= sizeof otag || tk.n - b >= sizeof ctag)
                return cerror(cs, SD_ESYNTAX, tk.line, tk.col,
                              "invalid set-delimiter tag '%.*s': expected two delimiters "
                              "without spaces or '=', like {{=<%% %%>=}}", (int)tk.n, tk.s);
            for (i = b; i < tk.n; i++)
                if (is_space(tk.s[i]))
                    return cerror(cs, SD_ESYNTAX, tk.line, tk.col,
                                  "invalid set-delimiter tag '%.*s': expected two delimiters "
                                  "without spaces or '=', like {{=<%% %%>=}}", (int)tk.n, tk.s);
            memcpy(otag, tk.s, a);
            otag[a] = '\0';
            olen = a;
            memcpy(ctag, tk.s + b, tk.n - b);
            ctag[tk.n - b] = '\0';
            clen = tk.n - b;
        } else if (tk.type != '!') {
            size_t i;
            if (tk.n == 0)
                return cerror(cs, SD_ESYNTAX, tk.line, tk.col, "tag has no name");
            for (i = 0; i < tk.n; i++)
                if (is_space(tk.s[i]) && !((tk.type == '>' || tk.type == '<') && tk.s[0] == '*'))
                    return cerror(cs, SD_ESYNTAX, tk.line, tk.col,
                                  "invalid name '%.*s': names cannot contain spaces",
                                  (int)tk.n, tk.s);
        }
        if ((err = push_tok(cs, &tk)) < 0)
            return err;
    }
    return 0;
}

/* ------------------------------------------------------------------------- */
/* Tree                                                                       */

typedef struct frame {
    mnode *node;            /* the open section/block/parent; NULL at the root */
    mnode **tail;           /* where the next child goes */
    const char *key;        /* name to match in the closing tag */
    size_t key_len;
} frame;

typedef struct bstate {
    cstate *cs;
    frame stack[SD_MUSTACHE_MAX_NESTING + 1];
    int depth;
} bstate;

static mnode *new_node(bstate *b, int type, const tok *tk)
{
    mnode *n = sd_arena_alloc(&b->cs->t->arena, sizeof *n);
    if (!n)
        return NULL;
    n->type = (uint8_t)type;
    n->line = tk->line;
    n->col = tk->col;
    return n;
}

static void append(bstate *b, mnode *n)
{
    frame *f = &b->stack[b->depth];
    *f->tail = n;
    f->tail = &n->next;
}

static int top_type(const bstate *b)
{
    const mnode *n = b->stack[b->depth].node;
    return n ? n->type : -1;
}

/* Split "a.b.c" into parts; "." alone is the implicit iterator. */
static int parse_name(bstate *b, mname *out, const char *s, size_t n, const tok *tk)
{
    sd_arena *a = &b->cs->t->arena;
    size_t i, start, k = 0;
    int nseg = 1;

    if (!(out->str = sd_arena_strndup(a, s, n)))
        return SD_ENOMEM;
    if (n == 1 && s[0] == '.') {
        out->seg = NULL;
        out->nseg = 0;
        return 0;
    }
    for (i = 0; i < n; i++)
        if (s[i] == '.')
            nseg++;
    if (!(out->seg = sd_arena_alloc(a, (size_t)nseg * sizeof *out->seg)))
        return SD_ENOMEM;
    for (start = i = 0; i <= n; i++) {
        if (i < n && s[i] != '.')
            continue;
        if (i == start)
            return cerror(b->cs, SD_ESYNTAX, tk->line, tk->col,
                          "invalid name '%.*s': empty part in a dotted name", (int)n, s);
        mseg *sg = &out->seg[k++];
        sg->len = i - start;
        if (!(sg->s = sd_arena_strndup(a, s + start, sg->len)))
            return SD_ENOMEM;
        sg->idx = -1;
        sg->hash = sd_mustache__hash(sg->s, sg->len);
        if (sg->len <= 9 && strspn(sg->s, "0123456789") == sg->len)
            sg->idx = strtol(sg->s, NULL, 10);
        start = i + 1;
    }
    out->nseg = nseg;
    return 0;
}

/* A partial or parent name: "*dotted.name" is dynamic, anything else literal. */
static int parse_partial_name(bstate *b, mnode *n, const tok *tk)
{
    if (tk->s[0] == '*') {
        const char *s = tk->s + 1;
        size_t len = tk->n - 1;
        while (len && is_blank(*s))
            s++, len--;
        if (len == 0)
            return cerror(b->cs, SD_ESYNTAX, tk->line, tk->col, "dynamic name '*' has no name");
        n->dynamic = 1;
        return parse_name(b, &n->name, s, len, tk);
    }
    n->name.str = sd_arena_strndup(&b->cs->t->arena, tk->s, tk->n);
    return n->name.str ? 0 : SD_ENOMEM;
}

static int open_frame(bstate *b, mnode *n, const tok *tk)
{
    frame *f;
    if (b->depth >= SD_MUSTACHE_MAX_NESTING)
        return cerror(b->cs, SD_ELIMIT, tk->line, tk->col,
                      "sections nested deeper than %d", SD_MUSTACHE_MAX_NESTING);
    f = &b->stack[++b->depth];
    f->node = n;
    f->tail = &n->child;
    f->key = tk->s;
    f->key_len = tk->n;
    return 0;
}

static const char *kind_word(int type)
{
    return type == N_PARENT ? "parent" : type == N_BLOCK ? "block" : "section";
}

static int close_frame(bstate *b, const tok *tk)
{
    frame *f = &b->stack[b->depth];
    if (b->depth == 0)
        return cerror(b->cs, SD_ESYNTAX, tk->line, tk->col,
                      "closing tag '%.*s' has no open section", (int)tk->n, tk->s);
    if (f->key_len != tk->n || memcmp(f->key, tk->s, tk->n) != 0)
        return cerror(b->cs, SD_ESYNTAX, tk->line, tk->col,
                      "closing tag '%.*s' does not match %s '%.*s' opened at %d:%d",
                      (int)tk->n, tk->s, kind_word(f->node->type),
                      (int)f->key_len, f->key, f->node->line, f->node->col);
    b->depth--;
    return 0;
}

/* One tag of a line. `standalone`: the line is standalone; `ws`: the
 * whitespace that starts the line, if only whitespace precedes the tag. */
static int add_tag(bstate *b, const tok *tk, int standalone, const char *ws, size_t ws_len)
{
    mnode *n = NULL;
    int err, type;

    switch (tk->type) {
    case '!': case '=':
        return 0;
    case '/':
        return close_frame(b, tk);
    case 'v': case '&': case '{':
        if (!(n = new_node(b, N_VAR, tk)))
            return SD_ENOMEM;
        n->escape = tk->type == 'v';
        if ((err = parse_name(b, &n->name, tk->s, tk->n, tk)) < 0)
            return err;
        append(b, n);
        return 0;
    case '#': case '^':
        if (!(n = new_node(b, tk->type == '#' ? N_SECTION : N_INVERTED, tk)))
            return SD_ENOMEM;
        if ((err = parse_name(b, &n->name, tk->s, tk->n, tk)) < 0)
            return err;
        append(b, n);
        return open_frame(b, n, tk);
    case '>': case '<': case '$':
        type = tk->type == '>' ? N_PARTIAL : tk->type == '<' ? N_PARENT : N_BLOCK;
        if (!(n = new_node(b, type, tk)))
            return SD_ENOMEM;
        n->standalone = (uint8_t)standalone;
        n->ws = ws ? ws : "";
        n->ws_len = ws ? ws_len : 0;
        if (type == N_BLOCK) {
            n->is_arg = top_type(b) == N_PARENT;
            if (!(n->name.str = sd_arena_strndup(&b->cs->t->arena, tk->s, tk->n)))
                return SD_ENOMEM;
        } else if ((err = parse_partial_name(b, n, tk)) < 0) {
            return err;
        }
        append(b, n);
        return type == N_PARTIAL ? 0 : open_frame(b, n, tk);
    }
    return 0;
}

static int add_text(bstate *b, const tok *tk, int bol)
{
    mnode *n;
    if (top_type(b) == N_PARENT)   /* text inside a parent tag is ignored */
        return 0;
    if (!(n = new_node(b, N_TEXT, tk)))
        return SD_ENOMEM;
    n->text = tk->s;
    n->len = tk->n;
    n->bol = (uint8_t)bol;
    append(b, n);
    return 0;
}

static int ws_only(const tok *tk)
{
    size_t i, n = tk->n;
    if (tk->nl) {
        n--;                                  /* "\n" */
        if (n && tk->s[n - 1] == '\r')
            n--;                              /* "\r\n" */
    }
    for (i = 0; i < n; i++)
        if (!is_blank(tk->s[i]))
            return 0;
    return 1;
}

/* Is the line toks[i, j) standalone? Only whitespace and tags that print
 * nothing, and at most one of them counts: a parent's own tags and the
 * argument blocks directly inside it do not, so "{{<p}}{{/p}}" and
 * "{{<p}}{{$arg}}" lines are standalone (spec ~inheritance "Standalone
 * parent"), while "{{$b}}{{/b}}" outside a parent is not ("Standalone block"). */
static int line_standalone(const bstate *b, size_t i, size_t j)
{
    int kinds[16], nk = 0, depth = b->depth, tags = 0, counted = 0;
    const tok *toks = b->cs->toks;

    for (; i < j; i++) {
        const tok *tk = &toks[i];
        int top = nk ? kinds[nk - 1] : (depth > 0 ? b->stack[depth].node->type : -1);
        if (tk->type == TK_TEXT) {
            if (!ws_only(tk))
                return 0;
            continue;
        }
        tags++;
        switch (tk->type) {
        case 'v': case '&': case '{':
            return 0;
        case '<':
            if (nk == 16)
                return 0;
            kinds[nk++] = N_PARENT;
            break;
        case '$':
            if (nk == 16)
                return 0;
            if (top == N_PARENT) {
                kinds[nk++] = -2;             /* argument */
            } else {
                kinds[nk++] = N_BLOCK;
                counted++;
            }
            break;
        case '#': case '^':
            if (nk == 16)
                return 0;
            kinds[nk++] = N_SECTION;
            counted++;
            break;
        case '/':
            if (nk)
                nk--;
            else if (depth > 0) {
                top = b->stack[depth].node->is_arg ? -2 : top;
                depth--;
            }
            if (top != N_PARENT && top != -2)
                counted++;
            break;
        default:
            counted++;
        }
    }
    return tags > 0 && counted <= 1;
}

static int build(cstate *cs)
{
    bstate *b = calloc(1, sizeof *b);
    size_t i = 0, j, k;
    int err = 0;

    if (!b)
        return SD_ENOMEM;
    b->cs = cs;
    b->stack[0].tail = &cs->t->root;

    while (i < cs->ntok) {
        for (j = i; j < cs->ntok; )
            if (cs->toks[j++].nl)
                break;
        /* the line is toks[i, j) */
        if (line_standalone(b, i, j)) {
            const char *ws = cs->toks[i].type == TK_TEXT ? cs->toks[i].s : NULL;
            size_t ws_len = ws ? cs->toks[i].n : 0;
            for (k = i; k < j && !err; k++)
                if (cs->toks[k].type != TK_TEXT)
                    err = add_tag(b, &cs->toks[k], 1, ws, ws_len);
        } else {
            for (k = i; k < j && !err; k++) {
                const tok *tk = &cs->toks[k];
                if (tk->type == TK_TEXT) {
                    err = add_text(b, tk, k == i);
                    continue;
                }
                if (k == i) {
                    /* an empty line start, so that indentation goes before the tag */
                    tok mark = *tk;
                    mark.s = "";
                    mark.n = 0;
                    mark.type = TK_TEXT;
                    if ((err = add_text(b, &mark, 1)) < 0)
                        break;
                }
                if (k == i)
                    err = add_tag(b, tk, 0, "", 0);
                else if (k == i + 1 && cs->toks[i].type == TK_TEXT && ws_only(&cs->toks[i]))
                    err = add_tag(b, tk, 0, cs->toks[i].s, cs->toks[i].n);
                else
                    err = add_tag(b, tk, 0, NULL, 0);
            }
        }
        if (err < 0)
            break;
        i = j;
    }
    if (!err && b->depth > 0) {
        const mnode *n = b->stack[b->depth].node;
        err = cerror(cs, SD_ESYNTAX, n->line, n->col, "%s '%.*s' is never closed",
                     kind_word(n->type), (int)b->stack[b->depth].key_len, b->stack[b->depth].key);
    }
    free(b);
    return err;
}

/* ------------------------------------------------------------------------- */
/* Indentation of blocks (spec ~inheritance "Block reindentation",
 * "Intrinsic indentation", "Nested block reindentation").
 *
 * An argument block whose opening tag is standalone loses the indentation
 * its lines have in common; a block in a parent template gives its override
 * the indentation of its tag, or when that is empty and the tag is
 * standalone, the indentation its default content has in common. */

typedef struct indent {
    const char *s;
    size_t n;
    int set;
} indent;

static void merge_indent(indent *ci, const char *s, size_t n)
{
    size_t i;
    if (!ci->set) {
        ci->s = s;
        ci->n = n;
        ci->set = 1;
        return;
    }
    for (i = 0; i < ci->n && i < n && ci->s[i] == s[i]; i++)
        ;
    ci->n = i;
}

static void common_indent(indent *ci, const mnode *n)
{
    for (; n; n = n->next) {
        if (n->type == N_TEXT && n->bol) {
            size_t w = 0;
            while (w < n->len && is_blank(n->text[w]))
                w++;
            if (w < n->len) {
                if (n->text[w] != '\n' && n->text[w] != '\r')
                    merge_indent(ci, n->text, w);
            } else if (n->next && !(n->next->type == N_TEXT && n->next->bol)) {
                merge_indent(ci, n->text, w);     /* whitespace, then a tag */
            }
        } else if ((n->type == N_PARTIAL || n->type == N_PARENT || n->type == N_BLOCK) &&
                   n->standalone && !n->is_arg) {
            merge_indent(ci, n->ws, n->ws_len);
        }
        if (n->child)
            common_indent(ci, n->child);
    }
}

static void strip_prefix(const char **s, size_t *n, const indent *ci)
{
    if (*n >= ci->n && memcmp(*s, ci->s, ci->n) == 0) {
        *s += ci->n;
        *n -= ci->n;
    }
}

static void dedent(mnode *n, const indent *ci)
{
    for (; n; n = n->next) {
        if (n->type == N_TEXT && n->bol)
            strip_prefix(&n->text, &n->len, ci);
        else if (n->type == N_PARTIAL || n->type == N_PARENT || n->type == N_BLOCK)
            strip_prefix(&n->ws, &n->ws_len, ci);
        if (n->child)
            dedent(n->child, ci);
    }
}

static void fix_indent(mnode *n)
{
    for (; n; n = n->next) {
        if (n->type == N_BLOCK && n->is_arg && n->standalone) {
            indent ci = { NULL, 0, 0 };
            common_indent(&ci, n->child);
            if (ci.n)
                dedent(n->child, &ci);   /* ci points into the text, which stays put */
        } else if (n->type == N_BLOCK && !n->is_arg && n->standalone && n->ws_len == 0) {
            indent ci = { NULL, 0, 0 };
            common_indent(&ci, n->child);
            if (ci.set) {
                n->ws = ci.s;
                n->ws_len = ci.n;
            }
        }
        if (n->child)
            fix_indent(n->child);
    }
}

/* ------------------------------------------------------------------------- */

int sd_mustache_compile(sd_mustache **out, const char *name, const char *text,
                        size_t len, sd_diags *diags)
{
    cstate cs = { NULL, diags, NULL, 0, 0 };
    sd_mustache *t;
    int err;

    *out = NULL;
    if (!(t = calloc(1, sizeof *t)))
        return sd_diag_error(diags, SD_ENOMEM, (sd_loc){ name, 0, 0 }, "out of memory");
    t->name = sd_arena_strdup(&t->arena, name ? name : "<template>");
    t->text = sd_arena_strndup(&t->arena, text, len);
    t->len = len;
    if (!t->name || !t->text) {
        sd_mustache_free(t);
        return sd_diag_error(diags, SD_ENOMEM, (sd_loc){ name, 0, 0 }, "out of memory");
    }
    cs.t = t;
    if ((err = tokenize(&cs)) == 0 && (err = build(&cs)) == 0)
        fix_indent(t->root);
    free(cs.toks);
    if (err < 0) {
        if (err == SD_ENOMEM) {
            sd_loc loc = { t->name, 0, 0 };
            sd_diag_error(diags, err, loc, "out of memory");
        }
        sd_mustache_free(t);
        return err;
    }
    *out = t;
    return 0;
}

void sd_mustache_free(sd_mustache *t)
{
    if (!t)
        return;
    sd_arena_release(&t->arena);
    free(t);
}

const char *sd_mustache_name(const sd_mustache *t)
{
    return t->name;
}

/* ------------------------------------------------------------------------- */

static int each_partial(const sd_mustache *t, const mnode *n,
                        int (*fn)(const char *name, sd_loc loc, void *payload), void *payload)
{
    int err;
    for (; n; n = n->next) {
        if ((n->type == N_PARTIAL || n->type == N_PARENT) && !n->dynamic) {
            sd_loc loc = { t->name, n->line, n->col };
            if ((err = fn(n->name.str, loc, payload)) < 0)
                return err;
        }
        if (n->child && (err = each_partial(t, n->child, fn, payload)) < 0)
            return err;
    }
    return 0;
}

int sd_mustache__each_partial(const sd_mustache *t,
                              int (*fn)(const char *name, sd_loc loc, void *payload),
                              void *payload)
{
    return each_partial(t, t->root, fn, payload);
}

/* ------------------------------------------------------------------------- */
/* What a render may read (sd_mustache_may_read)                              */

typedef struct reads {
    sd_mustache_partials *p;
    const char *name;
    size_t len;
    sd_diags *diags;
    struct { const sd_mustache *t; int root; } seen[256];   /* templates walked */
    size_t nseen;
} reads;

static int names_it(const reads *r, const mname *nm)
{
    for (int k = 0; k < nm->nseg; k++)
        if (nm->seg[k].len == r->len && memcmp(nm->seg[k].s, r->name, r->len) == 0)
            return 1;
    return 0;
}

static int may_read_list(reads *r, const sd_mustache *t, const mnode *n, int root);

/* `t` as a partial or parent, at the top of the data or not (`root`). */
static int may_read_template(reads *r, const sd_mustache *t, int root)
{
    size_t i;
    for (i = 0; i < r->nseen; i++)
        if (r->seen[i].t == t && r->seen[i].root == root)
            return 0;
    if (r->nseen == sizeof r->seen / sizeof *r->seen)
        return 1;   /* too many to follow: say yes */
    r->seen[r->nseen].t = t;
    r->seen[r->nseen++].root = root;
    return may_read_list(r, t, t->root, root);
}

static int may_read_list(reads *r, const sd_mustache *t, const mnode *n, int root)
{
    const sd_mustache *pt;
    int x;
    for (; n; n = n->next) {
        switch (n->type) {
        case N_TEXT:
            break;
        case N_VAR:   /* {{.}} at the top prints the whole data as JSON */
            if (n->name.nseg == 0 ? root : names_it(r, &n->name))
                return 1;
            break;
        case N_SECTION:
        case N_INVERTED:
            if (names_it(r, &n->name))
                return 1;
            /* a section over a named value pushes it: {{.}} is that value */
            if ((x = may_read_list(r, t, n->child, root && (n->type == N_INVERTED || n->name.nseg == 0))))
                return x;
            break;
        case N_PARTIAL:
        case N_PARENT: {
            sd_loc loc = { t->name, n->line, n->col };
            pt = NULL;
            if (n->dynamic || (r->p && sd_mustache_partials_get(&pt, r->p, n->name.str, loc, r->diags) < 0))
                return 1;
            if (pt && (x = may_read_template(r, pt, root)))
                return x;
            if ((x = may_read_list(r, t, n->child, root)))   /* a parent's arguments */
                return x;
            break;
        }
        case N_BLOCK:
            if ((x = may_read_list(r, t, n->child, root)))
                return x;
            break;
        }
    }
    return 0;
}

int sd_mustache_may_read(const sd_mustache *t, sd_mustache_partials *p, const char *name)
{
    sd_diags scratch = SD_DIAGS_INIT;   /* the render reports errors itself */
    reads *r = calloc(1, sizeof *r);
    int x;
    if (!r)
        return 1;
    r->p = p;
    r->name = name;
    r->len = strlen(name);
    r->diags = &scratch;
    x = may_read_template(r, t, 1);
    free(r);
    sd_diags_release(&scratch);
    return x;
}
