/* SPDX-License-Identifier: Apache-2.0 */
/* span.c - where a value or a key written in YAML (or JSON) text ends (see
 * span.h). The text is read with a small lexer that knows what a range
 * needs and no more: quoted scalars (YAML 1.2 §7.3), flow collections
 * (§7.4), comments (§6.6), block indentation (§8). It runs once over the
 * text, keeping for each line the flow depth and the open quote at its
 * start, so a position in the middle of a JSON file or of a multi-line
 * flow collection is known to be inside one. */
#include "span.h"
#include "sd.h"

#include <stdlib.h>
#include <string.h>

/* ---- the lexer --------------------------------------------------------------- */

typedef struct lex {
    int  depth;   /* flow collections open */
    char q;       /* inside a quoted scalar: its quote */
    char prev;    /* the last character on this line outside quotes and blanks (0: none) */
    char sp;      /* blanks since prev */
} lex;

/* Can a token start here (a quote or a bracket open something)? At the
 * start of a line, after an indicator (`: `, `- `, `? `); in a flow
 * collection also after `,`, `[`, `{`, and right after `:` (JSON's
 * "a":[...]). Elsewhere it is inside a plain scalar (`a: it's [x`). */
static int token_start(const lex *s)
{
    char p = s->prev;
    if (!p || (s->depth > 0 && (p == ',' || p == '[' || p == '{')))
        return 1;
    return (p == ':' || p == '-' || p == '?') && (s->sp || (p == ':' && s->depth > 0));
}

/* A character the lexer acts on outside quotes. */
static int special(unsigned char c)
{
    switch (c) {
    case ' ': case '\t': case '\r': case '\n': case '\0': case '#': case '"': case '\'':
    case '[': case ']': case '{': case '}':
        return 1;
    default:
        return 0;
    }
}

/* Read the character at t[i] (a comment: up to its line's end; an escape:
 * both characters unless the second is a line break); the next index. */
static size_t lex1(const char *t, size_t i, size_t len, lex *s)
{
    char c = t[i];
    size_t j = i;
    /* a run of characters that change nothing but `prev`: skipped in one
     * go (a 50 MB scalar is read at memory speed) */
    if (s->q == '"')
        while (j < len && t[j] != '"' && t[j] != '\\' && t[j] != '\n' && t[j] != '\0')
            j++;
    else if (s->q)
        while (j < len && t[j] != '\'' && t[j] != '\n' && t[j] != '\0')
            j++;
    else
        while (j < len && !special((unsigned char)t[j]))
            j++;
    if (j > i) {
        if (!s->q) {
            s->prev = t[j - 1];
            s->sp = 0;
        }
        return j;
    }
    if (s->q) {
        if (c == '\\' && s->q == '"' && i + 1 < len && t[i + 1] != '\n')
            return i + 2;
        if (c == s->q || c == '\0') {
            if (c == '\'' && i + 1 < len && t[i + 1] == '\'')
                return i + 2;
            s->q = 0;
            s->prev = c ? c : '"';
            s->sp = 0;
        }
        return i + 1;
    }
    if (c == '\n') {
        s->prev = 0;
        s->sp = 0;
        return i + 1;
    }
    if (c == ' ' || c == '\t' || c == '\r') {
        s->sp = 1;
        return i + 1;
    }
    if (c == '#' && (!s->prev || s->sp)) {
        const char *nl = memchr(t + i, '\n', len - i);
        return nl ? (size_t)(nl - t) : len;
    }
    if ((c == '"' || c == '\'') && token_start(s))
        s->q = c;
    else if ((c == '[' || c == '{') && token_start(s))
        s->depth++;
    else if ((c == ']' || c == '}') && s->depth > 0)
        s->depth--;
    s->prev = c;
    s->sp = 0;
    return i + 1;
}

int sd_span_text_init(sd_span_text *l, const char *text, size_t len)
{
    size_t n = 1, k = 1;
    lex s = { 0, 0, 0, 0 };

    memset(l, 0, sizeof *l);
    for (const char *p = text, *e = text ? text + len : text; p < e && (p = memchr(p, '\n', (size_t)(e - p))); p++)
        n++;
    l->start = malloc(n * sizeof *l->start);
    l->depth = malloc(n * sizeof *l->depth);
    l->quote = malloc(n);
    if (!l->start || !l->depth || !l->quote) {
        sd_span_text_release(l);
        return SD_ENOMEM;
    }
    l->text = text;
    l->len = len;
    l->n = n;
    l->start[0] = 0;
    l->depth[0] = 0;
    l->quote[0] = 0;
    for (size_t i = 0; i < len;) {
        size_t at = i;
        i = lex1(text, i, len, &s);
        if (text[at] == '\n' && k < n) {
            l->start[k] = at + 1;
            l->depth[k] = s.depth;
            l->quote[k++] = (unsigned char)s.q;
        }
    }
    return 0;
}

void sd_span_text_release(sd_span_text *l)
{
    free(l->start);
    free(l->depth);
    free(l->quote);
    l->start = NULL;
    l->depth = NULL;
    l->quote = NULL;
    l->n = l->len = 0;
}

/* ---- lines and columns ------------------------------------------------------- */

/* The end of line i's text (before "\n" or "\r\n"). */
static size_t lend(const sd_span_text *l, size_t i)
{
    size_t e = i + 1 < l->n ? l->start[i + 1] - 1 : l->len;
    if (e > l->start[i] && l->text[e - 1] == '\r')
        e--;
    return e;
}

static size_t line_of(const sd_span_text *l, size_t off)
{
    size_t lo = 0, hi = l->n;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (l->start[mid] <= off)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static int is_cont(char c) { return ((unsigned char)c & 0xC0) == 0x80; }

/* One code point on from `p` (not past `e`). */
static size_t next_cp(const char *t, size_t p, size_t e)
{
    p++;
    while (p < e && is_cont(t[p]))
        p++;
    return p;
}

/* The line's leading spaces; *blank: it holds nothing but blanks or a comment. */
static size_t indent(const sd_span_text *l, size_t i, int *blank)
{
    size_t p = l->start[i], e = lend(l, i);
    while (p < e && l->text[p] == ' ')
        p++;
    while (p < e && l->text[p] == '\t')
        p++;
    *blank = p == e || l->text[p] == '#';
    return p - l->start[i];
}

/* The end of line i without its comment and trailing blanks. */
static size_t content_end(const sd_span_text *l, size_t i)
{
    lex s = { l->depth[i], (char)l->quote[i], 0, 0 };
    size_t p = l->start[i], e = lend(l, i), last = p;
    while (p < e) {
        size_t q = lex1(l->text, p, e, &s);
        if (l->text[p] == '#' && q > p + 1)
            break;   /* a comment */
        if (l->text[p] != ' ' && l->text[p] != '\t')
            last = q;
        p = q;
    }
    return last;
}

/* ---- what is written at a position --------------------------------------------- */

static int blank_or_end(const char *t, size_t p, size_t e)
{
    return p >= e || t[p] == ' ' || t[p] == '\t';
}

/* A quoted scalar from its quote at p to after its closing one, across
 * lines; an unclosed one to the end of p's line. */
static size_t quoted_end(const sd_span_text *l, size_t p)
{
    lex s = { 0, l->text[p], 0, 0 };
    for (size_t i = p + 1; i < l->len;) {
        i = lex1(l->text, i, l->len, &s);
        if (!s.q)
            return i;
    }
    return lend(l, line_of(l, p));
}

/* A flow collection from its bracket at p to after its closing one. */
static size_t flow_end(const sd_span_text *l, size_t p)
{
    lex s = { 0, 0, 0, 0 };
    for (size_t i = p; i < l->len;) {
        char c = l->text[i];
        i = lex1(l->text, i, l->len, &s);
        if ((c == ']' || c == '}') && s.depth == 0 && !s.q)
            return i;
    }
    return lend(l, line_of(l, p));
}

/* A plain scalar (or key) from p on its line: to `: `, ` #`, the line's
 * end, and in a flow collection to `,`, `]` or `}`; *key: it ended at `:`. */
static size_t plain_end(const sd_span_text *l, size_t p, int flow, int *key)
{
    const char *t = l->text;
    size_t e = lend(l, line_of(l, p)), i;
    *key = 0;
    for (i = p; i < e; i++) {
        if (t[i] == '\0')
            break;   /* a tape's text: the string's NUL stands where it ended (load_tape.c) */
        if (t[i] == ':' && (blank_or_end(t, i + 1, e) || (flow && strchr(",]}", t[i + 1])))) {
            *key = 1;
            break;
        }
        if (flow && (t[i] == ',' || t[i] == ']' || t[i] == '}'))
            break;
        if (t[i] == '#' && i > p && (t[i - 1] == ' ' || t[i - 1] == '\t'))
            break;
    }
    while (i > p && (t[i - 1] == ' ' || t[i - 1] == '\t'))
        i--;
    return i;
}

/* The indentation a value at p is nested in: the column of the key or
 * `-` before it on its line, else of the nearest line above indented less
 * than p (-1: the top). Content of it must be indented more (§8.1). */
static long parent_indent(const sd_span_text *l, size_t p)
{
    const char *t = l->text;
    size_t li = line_of(l, p), ls = l->start[li], i = ls;
    long dash = -1;
    while (i < p && t[i] == ' ')
        i++;
    while (i < p) {
        if (t[i] == '-' && blank_or_end(t, i + 1, p + 1)) {
            dash = (long)(i - ls);
            for (i++; i < p && t[i] == ' '; i++)
                ;
            continue;
        }
        return (long)(i - ls);   /* a key */
    }
    if (dash >= 0)
        return dash;
    for (size_t own = p - ls; li-- > 0;) {
        int blank;
        size_t ind = indent(l, li, &blank);
        if (!blank && ind < own && !l->depth[li] && !l->quote[li])
            return (long)ind;
    }
    return -1;
}

/* A block scalar (header at p) to its last line of content. */
static size_t block_scalar_end(const sd_span_text *l, size_t p)
{
    long n = parent_indent(l, p);
    size_t li = line_of(l, p), last = li;
    for (size_t i = li + 1; i < l->n; i++) {
        int blank;
        size_t ind = indent(l, i, &blank);
        if (lend(l, i) == l->start[i] + ind)
            continue;   /* an empty line belongs to it, but ends nothing */
        if ((long)ind <= n)
            break;
        last = i;
    }
    if (last == li)
        return content_end(l, li);
    size_t e = lend(l, last);
    while (e > l->start[last] && (l->text[e - 1] == ' ' || l->text[e - 1] == '\t'))
        e--;
    return e;
}

/* A block mapping (first key at p) or sequence (`-` at p) to its last line. */
static size_t block_coll_end(const sd_span_text *l, size_t p, int seq)
{
    size_t li = line_of(l, p), n = p - l->start[li], last = li;
    const char *t = l->text;
    for (size_t i = li + 1; i < l->n; i++) {
        int blank;
        size_t ind = indent(l, i, &blank), s = l->start[i] + ind, e = lend(l, i);
        if (blank && !l->depth[i] && !l->quote[i])
            continue;
        if (!l->depth[i] && !l->quote[i]) {
            if (ind == 0 && e - s >= 3 && (!strncmp(t + s, "---", 3) || !strncmp(t + s, "...", 3)) &&
                blank_or_end(t, s + 3, e))
                break;   /* the document ends */
            if (ind < n || (ind == n && seq && !(t[s] == '-' && blank_or_end(t, s + 1, e))))
                break;
        }
        last = i;
    }
    return content_end(l, last);
}

/* Past the properties (`&anchor`, `!tag`) of the node at p; a node whose
 * properties end its line continues on the next line that holds anything. */
static size_t skip_properties(const sd_span_text *l, size_t p)
{
    const char *t = l->text;
    size_t li = line_of(l, p), e = lend(l, li);
    while (p < e && (t[p] == '&' || t[p] == '!')) {
        while (p < e && t[p] != ' ' && t[p] != '\t')
            p++;
        while (p < e && (t[p] == ' ' || t[p] == '\t'))
            p++;
    }
    if (p < e && t[p] != '#')
        return p;
    for (size_t i = li + 1; i < l->n; i++) {
        int blank;
        size_t ind = indent(l, i, &blank);
        if (!blank)
            return l->start[i] + ind;
    }
    return p;
}

/* A plain scalar in a block: continued on the lines below indented more
 * than its parent (§7.3.3 ns-plain-multi-line), up to a comment line. */
static size_t plain_block_end(const sd_span_text *l, size_t p, size_t e)
{
    long n = parent_indent(l, p);
    int key;
    for (size_t i = line_of(l, p) + 1; i < l->n; i++) {
        int blank;
        size_t ind = indent(l, i, &blank), s = l->start[i] + ind;
        if (s == lend(l, i))
            continue;
        if (blank || (long)ind <= n)
            break;
        e = plain_end(l, s, 0, &key);
    }
    return e;
}

/* The flow depth at p: its line's, and what the line opens before p. */
static int depth_at(const sd_span_text *l, size_t li, size_t p)
{
    lex s = { l->depth[li], (char)l->quote[li], 0, 0 };
    for (size_t i = l->start[li]; i < p;)
        i = lex1(l->text, i, p, &s);
    return s.depth;
}

static size_t value_end(const sd_span_text *l, size_t p, int flow)
{
    const char *t = l->text;
    int key;
    size_t e;
    if (!flow)
        p = skip_properties(l, p);
    if (p >= l->len)
        return p;
    switch (t[p]) {
    case '"': case '\'':
        e = quoted_end(l, p);
        if (!flow) {
            size_t k = e, le = lend(l, line_of(l, e ? e - 1 : 0));
            while (k < le && (t[k] == ' ' || t[k] == '\t'))
                k++;
            if (k < le && t[k] == ':' && blank_or_end(t, k + 1, le))
                return block_coll_end(l, p, 0);   /* a mapping's first key */
        }
        return e;
    case '[': case '{':
        return flow_end(l, p);
    case '|': case '>':
        return flow ? p + 1 : block_scalar_end(l, p);
    case '-': case '?':
        if (!flow && blank_or_end(t, p + 1, lend(l, line_of(l, p))))
            return block_coll_end(l, p, t[p] == '-');
        break;
    default:
        break;
    }
    e = plain_end(l, p, flow, &key);
    if (flow)
        return e;
    return key ? block_coll_end(l, p, 0) : plain_block_end(l, p, e);
}

static size_t token_end(const sd_span_text *l, size_t p, int flow)
{
    int key;
    switch (l->text[p]) {
    case '"': case '\'': return quoted_end(l, p);
    case '[': case '{':  return flow_end(l, p);
    case '|': case '>':  return p + 1;
    default:             return plain_end(l, p, flow, &key);
    }
}

int sd_span_end(const sd_span_text *l, int line, int column, int what, int *end_line, int *end_column)
{
    const char *t = l->text;
    size_t li, p, le, e;

    *end_line = *end_column = 0;
    if (line < 1 || column < 1 || (size_t)line > l->n)
        return -1;
    li = (size_t)line - 1;
    p = l->start[li];
    le = lend(l, li);
    for (int c = 1; c < column; c++) {
        if (p >= le)
            return -1;
        p = next_cp(t, p, le);
    }
    if (p >= le) {
        e = p;
    } else {
        int flow = depth_at(l, li, p) > 0;
        e = what == SD_SPAN_VALUE ? value_end(l, p, flow) : token_end(l, p, flow);
        if (e <= p)
            e = next_cp(t, p, le);   /* nothing to underline: one character */
    }
    li = line_of(l, e);
    if (e > p && li > 0 && e == l->start[li]) {   /* after a line break: the end of its line */
        e = lend(l, --li);
    }
    *end_line = (int)li + 1;
    *end_column = 1;
    for (size_t i = l->start[li]; i < e; i = next_cp(t, i, e))
        ++*end_column;
    return 0;
}
