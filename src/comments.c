/* comments.c - find the comments in a YAML text and attach them to pairs.
 *
 * libyaml drops comments, so they are scanned from the text: a '#' at the
 * start of a line or after a blank starts a comment, except inside quoted
 * and block scalars (whose byte ranges the parser recorded). Then each pair
 * gets the block of comment-only lines directly above its key (blank lines
 * may sit inside the block; a line with content ends it) and the comment at
 * the end of its own line. Annotation dialects decide what the text means. */
#include "node.h"

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

void sd_load__attach_comments(sd_doc *doc, const size_t *spans, size_t nspans)
{
    const char *t = doc->text;
    size_t len = doc->text_len, i, si = 0, nl = 1, nc = 0;
    attach_ctx c;
    int line = 1, col = 1, content = 0;

    for (i = 0; i < len; i++)
        if (t[i] == '\n')
            nl++;
    memset(&c, 0, sizeof c);
    c.doc = doc;
    c.nlines = nl;
    c.state = calloc(nl + 2, 1);
    c.line_cmt = malloc((nl + 2) * sizeof *c.line_cmt);
    if (c.line_cmt)
        memset(c.line_cmt, 0xff, (nl + 2) * sizeof *c.line_cmt); /* all -1 */
    /* count first so the table is allocated once from the arena */
    for (int pass = 0; pass < 2; pass++) {
        if (!c.state || !c.line_cmt)
            break;
        if (pass == 1) {
            doc->ncomments = nc;
            if (nc && !(doc->comments = sd_arena_alloc(&doc->arena, nc * sizeof *doc->comments)))
                break;
            nc = 0;
        }
        line = 1, col = 1, content = 0, si = 0;
        for (i = 0; i < len; i++) {
            char ch = t[i];
            if (si < nspans && i >= spans[si]) {
                /* inside a quoted or block scalar: content up to its end */
                size_t end = spans[si + 1];
                for (; i < end && i < len; i++) {
                    if (pass == 0) c.state[line] = LINE_CONTENT;
                    if (t[i] == '\n') line++, col = 1;
                    else if (((unsigned char)t[i] & 0xC0) != 0x80) col++;
                }
                if (pass == 0 && (size_t)line <= nl) c.state[line] = LINE_CONTENT;
                content = 1;
                si += 2;
                i--;
                continue;
            }
            if (ch == '\n') {
                line++, col = 1, content = 0;
                continue;
            }
            if (ch == '#' && (i == 0 || t[i - 1] == ' ' || t[i - 1] == '\t' ||
                              t[i - 1] == '\n' || t[i - 1] == '\r')) {
                size_t e = i + 1;
                while (e < len && t[e] != '\n')
                    e++;
                size_t tl = e - i - 1;
                if (tl && t[e - 1] == '\r')
                    tl--;
                if (pass == 0) {
                    if (!content) c.state[line] = LINE_COMMENT;
                    c.line_cmt[line] = (int32_t)nc;
                } else {
                    sd_comment *cm = &doc->comments[nc];
                    cm->line = line;
                    cm->column = col;
                    cm->own_line = !content;
                    cm->text = t + i + 1;
                    cm->len = tl;
                }
                nc++;
                i = e - 1;
                continue;
            }
            if (ch != ' ' && ch != '\t' && ch != '\r') {
                content = 1;
                if (pass == 0) c.state[line] = LINE_CONTENT;
            }
            if (((unsigned char)ch & 0xC0) != 0x80)
                col++;
        }
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
