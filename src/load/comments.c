/* SPDX-License-Identifier: Apache-2.0 */
/* comments.c - find the comments in a YAML text and attach them to pairs.
 *
 * libyaml drops comments, so they are scanned from the text: a '#' at the
 * start of a line or after a blank starts a comment, except inside quoted
 * and block scalars (whose byte ranges the parser recorded). Then each pair
 * gets the block of comment-only lines directly above its key (blank lines
 * may sit inside the block; a line with content ends it) and the comment at
 * the end of its own line. Annotation dialects decide what the text means. */
#include "node.h"
#include "alloc.h"
#include "load_int.h"

#include <stdlib.h>
#include <string.h>

enum { LINE_BLANK = 0, LINE_COMMENT = 1, LINE_CONTENT = 2 };

typedef struct attach_ctx {
    sd_doc        *doc;
    unsigned char *state;     /* per line: LINE_* */
    int32_t       *line_cmt;  /* per line: comment index on that line, or -1 */
    size_t         nlines;
    int            last_line; /* the last line that received a leading block */
} attach_ctx;

static void leading(attach_ctx *c, int line, uint32_t *first, uint32_t *count)
{
    int l, top = -1;

    *first = 0;
    *count = 0;
    if (line <= c->last_line || line < 2 || (size_t)line > c->nlines)
        return;
    for (l = line - 1; l >= 1 && c->state[l] != LINE_CONTENT; l--)
        if (c->state[l] == LINE_COMMENT)
            top = l;
    c->last_line = line;
    if (top < 0)
        return;
    /* comments between top and line-1 are all own-line: a contiguous range */
    uint32_t i = (uint32_t)c->line_cmt[top], j = i;
    while (j < c->doc->ncomments && c->doc->comments[j].line < line)
        j++;
    *first = i;
    *count = j - i;
}

static int32_t trailing(attach_ctx *c, int line)
{
    if (line < 1 || (size_t)line > c->nlines || c->state[line] != LINE_CONTENT)
        return -1;
    return c->line_cmt[line];
}

static void walk(attach_ctx *c, sd_node *n)
{
    for (size_t i = 0; i < n->n; i++) {
        sd_pair *p = &n->items[i];
        int mode = p->c_trail;      /* -2: value shared by alias, -3: merged */
        int line;

        p->c_trail = -1;
        if (mode == -3)
            continue;
        line = p->key ? p->key->loc.line : p->value->loc.line;
        leading(c, line, &p->c_first, &p->c_count);
        p->c_trail = trailing(c, line);
        if (mode != -2 && (p->value->kind == SD_MAP || p->value->kind == SD_SEQ))
            walk(c, p->value);
    }
}

/* walk() without comments: the pairs' marks (c_trail -2, -3) cleared */
static void walk_bare(sd_node *n)
{
    for (size_t i = 0; i < n->n; i++) {
        sd_pair *p = &n->items[i];
        int mode = p->c_trail;
        p->c_trail = -1;
        p->c_first = p->c_count = 0;
        if (mode != -2 && mode != -3 && (p->value->kind == SD_MAP || p->value->kind == SD_SEQ))
            walk_bare(p->value);
    }
}

void sd_load__no_comments(sd_doc *doc)
{
    for (size_t r = 0; r < doc->nroots; r++) {
        doc->roots[r].c_first = doc->roots[r].c_count = 0;
        if (doc->roots[r].node->kind == SD_MAP || doc->roots[r].node->kind == SD_SEQ)
            walk_bare(doc->roots[r].node);
    }
}

static int is_blank(char ch) { return ch == ' ' || ch == '\t' || ch == '\r'; }

static int column_of(const char *line_start, const char *at)
{
    int col = 1;
    for (; line_start < at; line_start++)
        if (((unsigned char)*line_start & 0xC0) != 0x80)
            col++;
    return col;
}

/* One pass over the text, a line at a time (memchr for the line end and the
 * '#'), jumping over quoted and block scalars. Fills c->state/line_cmt and
 * doc->comments. Returns -1 when out of memory. */
static int scan(attach_ctx *c, const size_t *spans, size_t nspans)
{
    sd_doc *doc = c->doc;
    const char *t = doc->text, *end = t + doc->text_len, *p = t, *ls = t;
    sd_comment *v = NULL;
    size_t nv = 0, av = 0, si = 0;
    int line = 1, content = 0;

    const char *le = NULL;   /* the end of the line p is on (found once per line:
                                a one-line document has many spans on its line) */
    while (p < end) {
        if (!le || le < p) {
            le = memchr(p, '\n', (size_t)(end - p));
            if (!le)
                le = end;
        }
        /* a scalar that began where we already are past (a '#' inside a
         * plain multi-line scalar's text, say) no longer matters */
        while (si < nspans && t + spans[si] < p)
            si += 2;
        const char *span = si < nspans ? t + spans[si] : end;
        /* leading blanks, then what starts here */
        while (p < le && is_blank(*p) && p != span)
            p++;
        if (p == span && span < end) {
            /* a quoted or block scalar: its lines are content */
            const char *se = t + spans[si + 1];
            si += 2;
            c->state[line] = LINE_CONTENT;
            for (; p < se; p++)
                if (*p == '\n') {
                    line++;
                    ls = p + 1;
                    c->state[line] = LINE_CONTENT;
                }
            content = p > t && p[-1] != '\n';
            if (!content)
                c->state[line] = LINE_BLANK;
            continue;
        }
        if (p == le) { /* end of line */
            if (p < end) {
                line++;
                ls = ++p;
                content = 0;
            }
            continue;
        }
        const char *stop = span < le ? span : le;
        const char *h = *p == '#' ? p : NULL;
        if (!h) {
            content = 1;
            c->state[line] = LINE_CONTENT;
            for (const char *q = p + 1; q < stop; q++) {
                q = memchr(q, '#', (size_t)(stop - q));
                if (!q)
                    break;
                if (is_blank(q[-1])) {
                    h = q;
                    break;
                }
            }
        }
        if (!h) {
            p = stop;
            continue;
        }
        /* a comment from h to the end of the line */
        if (nv == av) {
            size_t na = av ? av * 2 : 64;
            sd_comment *nvp = realloc(v, na * sizeof *v);
            if (!nvp) {
                free(v);
                return -1;
            }
            v = nvp;
            av = na;
        }
        size_t tl = (size_t)(le - h - 1);
        if (tl && h[tl] == '\r')
            tl--;
        v[nv].line = line;
        v[nv].column = column_of(ls, h);
        v[nv].own_line = !content;
        v[nv].text = h + 1;
        v[nv].len = tl;
        if (!content)
            c->state[line] = LINE_COMMENT;
        c->line_cmt[line] = (int32_t)nv;
        nv++;
        /* a span cannot start inside a comment */
        while (si < nspans && t + spans[si] < le)
            si += 2;
        p = le;
    }
    doc->ncomments = nv;
    if (nv) {
        doc->comments = sd_arena_alloc(&doc->arena, nv * sizeof *v);
        for (size_t i = 0; doc->comments && i < nv; i++) {
            doc->comments[i] = v[i];
            doc->comments[i].text = sd_arena_strndup(&doc->arena, v[i].text, v[i].len);
            if (!doc->comments[i].text)
                doc->comments = NULL;
        }
    }
    free(v);
    return nv && !doc->comments ? -1 : 0;
}

/* libyaml's mark.index counts characters, not bytes: turn the (sorted)
 * span boundaries into byte offsets with one walk over the text. */
static void chars_to_bytes(const sd_doc *doc, size_t *spans, size_t nspans)
{
    const unsigned char *t = (const unsigned char *)doc->text;
    size_t byte = 0, ch = 0, len = doc->text_len;
    for (size_t i = 0; i < nspans; i++) {
        while (ch < spans[i] && byte < len) {
            uint64_t w;
            if (spans[i] - ch >= 8 && len - byte >= 8) {   /* eight ASCII bytes are eight characters */
                memcpy(&w, t + byte, 8);
                if (!(w & 0x8080808080808080ull)) {
                    byte += 8;
                    ch += 8;
                    continue;
                }
            }
            byte++;
            while (byte < len && (t[byte] & 0xC0) == 0x80)
                byte++;
            ch++;
        }
        spans[i] = byte;
    }
}

void sd_load__attach_comments(sd_doc *doc, size_t *spans, size_t nspans)
{
    const char *t = doc->text;
    size_t len = doc->text_len, nl = 1;
    attach_ctx c;
    const char *q = t;

    while ((q = memchr(q, '\n', (size_t)(t + len - q)))) {
        nl++;
        q++;
    }
    memset(&c, 0, sizeof c);
    c.doc = doc;
    c.nlines = nl;
    c.state = calloc(nl + 2, 1);
    c.line_cmt = malloc((nl + 2) * sizeof *c.line_cmt);
    if (c.line_cmt)
        memset(c.line_cmt, 0xff, (nl + 2) * sizeof *c.line_cmt); /* all -1 */
    if (!c.state || !c.line_cmt)
        sd_alloc_note_failure();   /* the comments would be missing: fail at the end */
    chars_to_bytes(doc, spans, nspans);
    if (c.state && c.line_cmt && scan(&c, spans, nspans) < 0) {
        doc->comments = NULL;
        doc->ncomments = 1; /* the caller reports out of memory */
    }
    if (c.state && c.line_cmt && (doc->comments || !doc->ncomments)) {
        for (size_t r = 0; r < doc->nroots; r++) {
            sd_root *root = &doc->roots[r];
            int dl = (int)root->c_first;
            root->c_first = 0;
            if (dl <= 0)
                dl = root->node->loc.line;
            leading(&c, dl, &root->c_first, &root->c_count);
            c.last_line = dl - 1;
            if (root->node->kind == SD_MAP || root->node->kind == SD_SEQ)
                walk(&c, root->node);
        }
    }
    free(c.state);
    free(c.line_cmt);
}
