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
 * Partials come from the registry in mustache_partials.c. */
#include "mustache.h"
#include "arena.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum ntype { N_TEXT, N_VAR, N_SECTION, N_INVERTED, N_PARTIAL, N_PARENT, N_BLOCK };

typedef struct mseg {       /* one part of a dotted name */
    const char *s;          /* NUL-terminated */
    size_t len;
    long idx;               /* array index if the part is all digits, else -1 */
    uint32_t hash;          /* of s, for the render's lookup cache */
} mseg;

typedef struct mname {
    mseg  *seg;             /* NULL with nseg == 0 for the implicit iterator "." */
    int    nseg;
    const char *str;        /* the name as written (for partials: the file name) */
} mname;

typedef struct mnode mnode;
struct mnode {
    uint8_t type;           /* enum ntype */
    uint8_t escape;         /* N_VAR: {{x}} escapes, {{{x}}} and {{&x}} do not */
    uint8_t bol;            /* N_TEXT: starts a line of the template */
    uint8_t standalone;     /* partial, parent, block: the tag's line was standalone */
    uint8_t dynamic;        /* partial, parent: {{>*name}} */
    uint8_t is_arg;         /* N_BLOCK directly inside a parent tag: an argument */
    const char *text;       /* N_TEXT: bytes in the template's copy of the text */
    size_t len;
    const char *ws;         /* partial, parent, block: whitespace before the tag */
    size_t ws_len;          /* (block: after fix_indent, the indentation to apply) */
    mname name;
    int line, col;          /* of the opening tag */
    mnode *child;           /* section, inverted, block content; a parent's arguments */
    mnode *next;
};

struct sd_mustache {
    sd_arena arena;
    const char *name;
    char *text;             /* private copy; text nodes point into it */
    size_t len;
    mnode *root;
};

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
    if (cs->ntok == cs->captok) {
        size_t n = cs->captok ? cs->captok * 2 : 64;
        tok *p = realloc(cs->toks, n * sizeof *p);
        if (!p)
            return SD_ENOMEM;
        cs->toks = p;
        cs->captok = n;
    }
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
        sg->hash = 2166136261u;
        for (size_t h = 0; h < sg->len; h++)
            sg->hash = (sg->hash ^ (unsigned char)sg->s[h]) * 16777619u;
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
/* Rendering                                                                  */

/* A parent tag being rendered: its arguments override blocks, the outermost
 * caller first (spec ~inheritance "Multi-level inheritance"). */
typedef struct ovr {
    const mnode *parent;
    const sd_mustache *tmpl;    /* where the parent tag (and its arguments) are */
    const struct ovr *outer;
} ovr;

typedef struct rstate {
    sd_buf *out;
    sd_mustache_partials *partials;
    sd_diags *diags;
    const sd_mustache *tmpl;    /* the template being rendered, for diagnostics */
    json_t **ctx;               /* the context stack, borrowed values */
    size_t nctx, capctx;
    sd_buf ind;                 /* indentation strings; the current one is ind[istart..] */
    size_t istart;
    int skip_bol;               /* the first line start was already indented */
    struct lcache {             /* recent key lookups: sibling tags ask again */
        const json_t *obj;
        const mseg *seg;        /* the key, in whichever tag asked first */
        json_t *val;
    } cache[256];
    int depth;                  /* partials, parents and overrides being rendered */
    int nesting;                /* render_list() calls on the C stack */
    unsigned long expansions;   /* partials, parents and overrides rendered so far */
} rstate;

static int render_list(rstate *st, const mnode *n, const ovr *ov);

static int rerror(rstate *st, int code, const mnode *n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static int rerror(rstate *st, int code, const mnode *n, const char *fmt, ...)
{
    sd_buf msg = SD_BUF_INIT;
    sd_loc loc = { st->tmpl->name, n->line, n->col };
    va_list ap;

    va_start(ap, fmt);
    sd_buf_vprintf(&msg, fmt, ap);
    va_end(ap);
    sd_diag_error(st->diags, code, loc, "%s", msg.ptr);
    sd_buf_release(&msg);
    return code;
}

/* json_object_getn() hashes the key on every call; rendering a list of
 * look-alike objects asks for the same few keys of each object several
 * times, so remember recent answers. The data does not change during a
 * render, and the cache dies with it. */
static json_t *object_get(rstate *st, json_t *obj, const mseg *sg)
{
    uintptr_t h = ((uintptr_t)obj >> 4) * 31u + sg->hash;
    struct lcache *c = &st->cache[(h ^ (h >> 8)) & 255];

    if (c->obj != obj || (c->seg != sg && (c->seg->hash != sg->hash || c->seg->len != sg->len ||
                                           memcmp(c->seg->s, sg->s, sg->len) != 0))) {
        c->obj = obj;
        c->seg = sg;
        c->val = json_object_getn(obj, sg->s, sg->len);
    }
    return c->val;
}

static json_t *child_of(rstate *st, json_t *v, const mseg *sg)
{
    if (json_is_object(v))
        return object_get(st, v, sg);
    if (json_is_array(v) && sg->idx >= 0)
        return json_array_get(v, (size_t)sg->idx);
    return NULL;
}

/* Spec interpolation.json "Dotted Names": the first part is looked up down
 * the context stack, the rest only inside what the first part found. */
static json_t *lookup(rstate *st, const mname *nm)
{
    json_t *v = NULL;
    size_t i;
    int k;

    if (nm->nseg == 0)
        return st->nctx ? st->ctx[st->nctx - 1] : NULL;
    for (i = st->nctx; i-- > 0; ) {
        json_t *c = st->ctx[i];
        if (json_is_object(c) && (v = object_get(st, c, &nm->seg[0])))
            break;
    }
    for (k = 1; v && k < nm->nseg; k++)
        v = child_of(st, v, &nm->seg[k]);
    return v;
}

static int falsey(const json_t *v)
{
    return !v || json_is_false(v) || json_is_null(v) ||
           (json_is_array(v) && json_array_size(v) == 0);
}

static int push_ctx(rstate *st, json_t *v)
{
    if (st->nctx == st->capctx) {
        size_t n = st->capctx ? st->capctx * 2 : 32;
        json_t **p = realloc(st->ctx, n * sizeof *p);
        if (!p)
            return SD_ENOMEM;
        st->ctx = p;
        st->capctx = n;
    }
    st->ctx[st->nctx++] = v;
    return 0;
}

/* The spec's escaping set: & < > " (interpolation.json "HTML Escaping"). */
static const unsigned char html_special[256] = { ['&'] = 1, ['<'] = 1, ['>'] = 1, ['"'] = 1 };

static void put_html(sd_buf *b, const char *s, size_t n)
{
    size_t i = 0, start = 0;
    for (;;) {
        while (i < n && !html_special[(unsigned char)s[i]])
            i++;
        sd_buf_put(b, s + start, i - start);
        if (i == n)
            return;
        switch (s[i]) {
        case '&': sd_buf_put(b, "&amp;", 5); break;
        case '<': sd_buf_put(b, "&lt;", 4); break;
        case '>': sd_buf_put(b, "&gt;", 4); break;
        default: sd_buf_put(b, "&quot;", 6); break;
        }
        start = ++i;
    }
}

/* Decimal digits of an integer, without printf. Returns the length. */
static size_t format_int(char *buf, json_int_t v)
{
    char tmp[24];
    size_t n = 0, len = 0;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        buf[len++] = '-';
    while (n)
        buf[len++] = tmp[--n];
    buf[len] = '\0';
    return len;
}

/* Shortest text that reads back as the same double: 1.21 stays "1.21",
 * 2.0 is "2" (spec interpolation.json "Basic Decimal Interpolation"). */
static int format_real(char *buf, size_t size, double d)
{
    int prec, n = 0;
    for (prec = 15; prec <= 17; prec++) {
        n = snprintf(buf, size, "%.*g", prec, d);
        if (strtod(buf, NULL) == d)
            break;
    }
    return n;
}

static int put_value(rstate *st, json_t *v, int escape)
{
    char num[64];
    const char *s = NULL;
    size_t n = 0;

    switch (json_typeof(v)) {
    case JSON_STRING:
        s = json_string_value(v);
        n = json_string_length(v);
        break;
    case JSON_INTEGER:
        n = format_int(num, json_integer_value(v));
        s = num;
        break;
    case JSON_REAL:
        n = (size_t)format_real(num, sizeof num, json_real_value(v));
        s = num;
        break;
    case JSON_TRUE:
        s = "true", n = 4;
        break;
    case JSON_FALSE:
        s = "false", n = 5;
        break;
    case JSON_NULL:
        return 0;
    case JSON_OBJECT:
    case JSON_ARRAY: {
        /* compact JSON, in the object's own key order */
        char *js = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
        if (!js)
            return SD_ENOMEM;
        if (escape)
            put_html(st->out, js, strlen(js));
        else
            sd_buf_puts(st->out, js);
        free(js);
        return 0;
    }
    }
    if (escape)
        put_html(st->out, s, n);
    else
        sd_buf_put(st->out, s, n);
    return 0;
}

/* Make the current indentation the current one plus `extra` (with `reset`,
 * just `extra`). The current indentation is always the tail of st->ind,
 * ind[istart..len), so pushing appends and popping truncates. */
static void indent_push(rstate *st, int reset, const char *extra, size_t n, size_t saved[2])
{
    saved[0] = st->istart;
    saved[1] = st->ind.len;
    if (reset)
        st->istart = st->ind.len;
    sd_buf_put(&st->ind, extra, n);
}

static void indent_pop(rstate *st, const size_t saved[2])
{
    st->istart = saved[0];
    sd_buf_truncate(&st->ind, saved[1]);
}

static void put_indent(rstate *st)
{
    if (st->ind.len > st->istart)
        sd_buf_put(st->out, st->ind.ptr + st->istart, st->ind.len - st->istart);
}

/* Find the template a partial or parent tag names. *t is NULL when there
 * is none (and that is not an error). */
static int resolve_partial(rstate *st, const mnode *n, const sd_mustache **t)
{
    const char *name = n->name.str;
    sd_loc loc = { st->tmpl->name, n->line, n->col };
    int err;

    *t = NULL;
    if (n->dynamic) {
        /* spec ~dynamic-names: resolve once, like an interpolation */
        json_t *v = lookup(st, &n->name);
        if (!json_is_string(v))
            return 0;
        name = json_string_value(v);
    }
    if (!st->partials)
        return 0;                   /* no registry: every partial is unknown */
    if ((err = sd_mustache_partials_get(t, st->partials, name, loc, st->diags)) < 0)
        return err;
    return 0;
}

static int render_partial(rstate *st, const mnode *n, const ovr *ov)
{
    const sd_mustache *t, *saved_t = st->tmpl;
    size_t saved[2];
    ovr frame = { n, st->tmpl, ov };
    int err;

    if ((err = resolve_partial(st, n, &t)) < 0 || !t)
        return err;
    if (st->depth >= SD_MUSTACHE_MAX_DEPTH)
        return rerror(st, SD_ELIMIT, n, "partials nested deeper than %d (is '%s' recursive?)",
                      SD_MUSTACHE_MAX_DEPTH, sd_mustache_name(t));
    /* partials that each include another twice are exponential without
     * being deep or producing output */
    if (++st->expansions > SD_MUSTACHE_MAX_EXPANSIONS)
        return rerror(st, SD_ELIMIT, n, "more than %lu partial expansions in one rendering",
                      (unsigned long)SD_MUSTACHE_MAX_EXPANSIONS);
    /* spec partials.json "Standalone Indentation": a standalone tag's
     * whitespace indents every line; an inline partial is not indented */
    indent_push(st, !n->standalone, n->ws, n->standalone ? n->ws_len : 0, saved);
    st->depth++;
    st->tmpl = t;
    st->skip_bol = 0;
    err = render_list(st, t->root, n->type == N_PARENT ? &frame : ov);
    st->tmpl = saved_t;
    st->depth--;
    indent_pop(st, saved);
    return err;
}

static const mnode *find_override(const ovr *ov, const char *name, const sd_mustache **where)
{
    const mnode *found = NULL, *a;
    for (; ov; ov = ov->outer)
        for (a = ov->parent->child; a; a = a->next)
            if (a->type == N_BLOCK && strcmp(a->name.str, name) == 0) {
                found = a;          /* keep looking: outer callers win */
                *where = ov->tmpl;
                break;
            }
    return found;
}

static int render_block(rstate *st, const mnode *n, const ovr *ov)
{
    const sd_mustache *where = NULL, *saved_t = st->tmpl;
    const mnode *arg = n->is_arg ? NULL : find_override(ov, n->name.str, &where);
    size_t saved[2];
    int err;

    if (n->is_arg)
        return 0;                   /* arguments only render where a parent uses them */
    if (!arg)
        return render_list(st, n->child, ov);
    if (st->depth >= SD_MUSTACHE_MAX_DEPTH)
        return rerror(st, SD_ELIMIT, n, "blocks nested deeper than %d (does block '%s' include itself?)",
                      SD_MUSTACHE_MAX_DEPTH, n->name.str);
    if (++st->expansions > SD_MUSTACHE_MAX_EXPANSIONS)
        return rerror(st, SD_ELIMIT, n, "more than %lu partial expansions in one rendering",
                      (unsigned long)SD_MUSTACHE_MAX_EXPANSIONS);
    indent_push(st, 0, n->ws, n->ws_len, saved);
    if (n->standalone) {
        if (!arg->standalone)
            put_indent(st);         /* the argument starts mid-line */
        st->skip_bol = 0;
    } else {
        st->skip_bol = 1;           /* the first line is already started */
    }
    st->depth++;
    st->tmpl = where;
    err = render_list(st, arg->child, ov);
    st->tmpl = saved_t;
    st->depth--;
    st->skip_bol = 0;
    indent_pop(st, saved);
    return err;
}

static int render_nodes(rstate *st, const mnode *n, const ovr *ov);

/* Sections inside partials inside sections...: bound the C stack whatever
 * the mix (each level of each kind is bounded too, but their product is big). */
static int render_list(rstate *st, const mnode *n, const ovr *ov)
{
    int err;
    if (!n)
        return 0;
    if (st->nesting >= SD_MUSTACHE_MAX_STACK)
        return rerror(st, SD_ELIMIT, n, "sections and partials nested deeper than %d",
                      SD_MUSTACHE_MAX_STACK);
    st->nesting++;
    err = render_nodes(st, n, ov);
    st->nesting--;
    return err;
}

static int render_nodes(rstate *st, const mnode *n, const ovr *ov)
{
    json_t *v;
    int err;

    for (; n; n = n->next) {
        switch (n->type) {
        case N_TEXT:
            if (n->bol) {
                if (st->skip_bol)
                    st->skip_bol = 0;
                else if (st->ind.len > st->istart)
                    put_indent(st);
            } else if (n->len) {
                st->skip_bol = 0;
            }
            sd_buf_put(st->out, n->text, n->len);
            break;
        case N_VAR:
            st->skip_bol = 0;
            if ((v = lookup(st, &n->name)) && (err = put_value(st, v, n->escape)) < 0)
                return err;
            break;
        case N_SECTION:
            v = lookup(st, &n->name);
            if (falsey(v))
                break;
            if (json_is_array(v)) {
                size_t i, size = json_array_size(v);
                for (i = 0; i < size; i++) {
                    if ((err = push_ctx(st, json_array_get(v, i))) < 0)
                        return err;
                    err = render_list(st, n->child, ov);
                    st->nctx--;
                    if (err < 0)
                        return err;
                    if (sd_buf_failed(st->out))
                        break;
                }
            } else {
                if ((err = push_ctx(st, v)) < 0)
                    return err;
                err = render_list(st, n->child, ov);
                st->nctx--;
                if (err < 0)
                    return err;
            }
            break;
        case N_INVERTED:
            if (falsey(lookup(st, &n->name)) && (err = render_list(st, n->child, ov)) < 0)
                return err;
            break;
        case N_PARTIAL:
        case N_PARENT:
            if ((err = render_partial(st, n, ov)) < 0)
                return err;
            break;
        case N_BLOCK:
            if ((err = render_block(st, n, ov)) < 0)
                return err;
            break;
        }
        if (sd_buf_failed(st->out))
            return sd_buf_error(st->out);
    }
    return 0;
}

int sd_mustache_render(sd_buf *out, const sd_mustache *t, json_t *data,
                       sd_mustache_partials *partials, sd_diags *diags)
{
    rstate st;
    int err;

    memset(&st, 0, sizeof st);
    st.out = out;
    st.partials = partials;
    st.diags = diags;
    st.tmpl = t;
    sd_buf_init(&st.ind, 0);
    if ((err = push_ctx(&st, data)) == 0)
        err = render_list(&st, t->root, NULL);
    if (err == 0 && sd_buf_failed(&st.ind))
        err = SD_ENOMEM;
    if (err == SD_ELIMIT && sd_buf_failed(out)) {
        sd_loc loc = { t->name, 0, 0 };
        sd_diag_error(diags, err, loc, "output larger than %zu bytes", out->cap);
    } else if (err == SD_ENOMEM) {
        sd_loc loc = { t->name, 0, 0 };
        sd_diag_error(diags, err, loc, "out of memory");
    }
    free(st.ctx);
    sd_buf_release(&st.ind);
    return err;
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
