/* SPDX-License-Identifier: Apache-2.0 */
/* annot_helmdocs.c - read helm-docs doc comments (the helm-docs row of
 * dialects.def; annot.h says what an annotation holds).
 *
 * helm-docs (norwoodj/helm-docs pkg/helm/chart_info.go) reads the comment
 * block above each key; the description starts at the last line of the
 * block that looks like `# -- text` and runs to the key, continuation lines
 * joined with a space (with `# @raw`, with a newline). The old style
 * `# path.key -- text` may stand anywhere. A file with neither: the plain
 * comment block above each key is kept (sd_annots.plain).
 *
 * In: a values document's comments and tree. Out: annotations added to
 * an sd_annots, their strings in its arena. */
#include "annot_int.h"
#include "buf.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* One scan's state: the annotations being made (their strings go to
 * their arena) and buffers reused from one comment block to the next. */
typedef struct scan {
    sd_annots   *a;
    sd_buf       text;        /* the block's lines, each "#" + comment + NUL */
    const char **lines;       /* the block's lines, into `text` */
    size_t       lines_cap;
    sd_buf       desc;        /* a description being joined */
} scan;

/* helm-docs' valuesDescriptionRegex ^\s*#\s*(.*)\s+--\s*(.*)$ on a whole
 * comment line `line` ("#" + text). Group 1 is greedy, so the LAST " --"
 * (preceded by a blank) splits key from text. */
static int match_desc(const char *line, const char **key, size_t *keylen, const char **text)
{
    const char *s = sd_annot__skip_ws(line), *best = NULL;
    if (*s != '#')
        return 0;
    s = sd_annot__skip_ws(s + 1);
    for (const char *d = s; (d = strchr(d, '-')); d++)   /* each "--", overlapping */
        if (d[1] == '-' && d > s && (d[-1] == ' ' || d[-1] == '\t'))
            best = d;
    if (!best) {
        /* (.*) may be empty only when "\s+" still matched: "#  --" */
        const char *h = sd_annot__skip_ws(line);
        if (h[0] == '#' && (h[1] == ' ' || h[1] == '\t') && strncmp(sd_annot__skip_ws(h + 1), "--", 2) == 0) {
            best = sd_annot__skip_ws(h + 1);
            *key = best;
            *keylen = 0;
            *text = sd_annot__skip_ws(best + 2);
            return 1;
        }
        return 0;
    }
    const char *ke = best;
    while (ke > s && (ke[-1] == ' ' || ke[-1] == '\t'))
        ke--;
    *key = s;
    *keylen = (size_t)(ke - s);
    *text = sd_annot__skip_ws(best + 2);
    return 1;
}

/* strstr(s, c + rest) != NULL, for a needle whose first byte is rare in a
 * comment line (glibc's strstr() takes its slow path on short needles) */
static int contains(const char *s, char c, const char *rest, size_t n)
{
    for (const char *p = strchr(s, c); p; p = strchr(p + 1, c))
        if (strncmp(p + 1, rest, n) == 0)
            return 1;
    return 0;
}

/* `^\s*# @default -- (.*)$` and friends: exact single spaces after '#'. */
static const char *tagged(const char *line, const char *tag)
{
    const char *s = sd_annot__skip_ws(line);
    size_t n = strlen(tag);
    return strncmp(s, tag, n) == 0 ? s + n : NULL;
}

/* helm-docs pkg/helm/comment.go ParseComment over whole lines ("# ..."):
 * the last group starting with "# --" counts. Fills `r`; returns 1 when a
 * description line was found (its key, for old-style, in *key). */
static int parse_comment(scan *sc, sd_annot *r, const char *const *lines, size_t n, char **key)
{
    size_t last = 0, start = 0;
    const char *k, *text;
    size_t klen;
    int found = 0, raw = 0;

    *key = NULL;
    for (size_t i = 0; i < n; i++)
        if (sd_annot__starts(lines[i], "# --"))
            last = i;
    lines += last;
    n -= last;
    for (size_t i = 0; i < n; i++)
        if (match_desc(lines[i], &k, &klen, &text)) {
            start = i;
            found = 1;
            break;
        }
    if (!found)
        return 0;
    *key = sd_annot__dupn(sc->a, k, klen);
    sd_buf *d = &sc->desc;
    sd_buf_clear(d);
    if (text[0] == '(') {
        const char *e = strchr(text, ')');
        if (e && e > text + 1) {
            /* loki's `# -- (deprecated, use defaults.extraArgs) text`: a
             * deprecation, not a type */
            if (strncasecmp(text + 1, "deprecated", 10) == 0 && !isalnum((unsigned char)text[11])) {
                const char *w = text + 11;
                while (w < e && (*w == ',' || *w == ':' || *w == ';' || *w == ' '))
                    w++;
                r->deprecated = sd_annot__dupn(sc->a, w, (size_t)(e - w));
            } else {
                r->type = sd_annot__dupn(sc->a, text + 1, (size_t)(e - text - 1));
            }
            text = sd_annot__skip_ws(e + 1);
        }
    }
    sd_buf_puts(d, text);
    for (size_t i = start + 1; i < n; i++) {
        const char *l = lines[i], *v;
        if (!raw) {
            const char *h = sd_annot__skip_ws(l);
            if (h[0] == '#' && (h[1] == ' ' || h[1] == '\t') && sd_annot__starts(sd_annot__skip_ws(h + 1), "@raw")) {
                raw = 1;
                continue;
            }
        }
        if ((v = tagged(l, "# @default -- "))) {
            r->default_text = sd_annot__dup0(sc->a, v);
            continue;
        }
        const char *h = sd_annot__skip_ws(l);
        if (h[0] == '#' && (h[1] == ' ' || h[1] == '\t') && sd_annot__starts(sd_annot__skip_ws(h + 1), "@notationType")) {
            const char *q = sd_annot__skip_ws(h + 1) + 13;
            if ((*q == ' ' || *q == '\t') && sd_annot__starts(sd_annot__skip_ws(q), "--") &&
                (sd_annot__skip_ws(q)[2] == ' ' || sd_annot__skip_ws(q)[2] == '\t')) {
                r->notation = sd_annot__dup0(sc->a, sd_annot__skip_ws(sd_annot__skip_ws(q) + 2));
                continue;
            }
        }
        if ((v = tagged(l, "# @section -- "))) {
            r->section = sd_annot__dup0(sc->a, v);
            continue;
        }
        /* `# @deprecated` or `# @deprecated -- use x`: the key is deprecated */
        if (h[0] == '#' && (h[1] == ' ' || h[1] == '\t') && sd_annot__starts(sd_annot__skip_ws(h + 1), "@deprecated") &&
            !isalnum((unsigned char)sd_annot__skip_ws(h + 1)[11])) {
            const char *q = sd_annot__skip_ws(sd_annot__skip_ws(h + 1) + 11);
            if (sd_annot__starts(q, "--"))
                q = sd_annot__skip_ws(q + 2);
            r->deprecated = sd_annot__dup0(sc->a, q);
            continue;
        }
        /* `## ...` lines are skipped: the argo-cd README (helm-docs output)
         * never shows them (comment.go's parseFootRegex) */
        if (h[0] == '#' && h[1] == '#')
            continue;
        if (h[0] == '#') {
            const char *c = h + 1;
            if (*c == ' ' || *c == '\t')
                c++;
            sd_buf_putc(d, raw ? '\n' : ' ');
            sd_buf_puts(d, c);
        }
    }
    r->raw = (unsigned char)raw;
    if (sd_buf_failed(d))
        sd_alloc_note_failure();
    r->description = sd_annot__dupn(sc->a, d->ptr, d->len);
    sd_buf_clear(d);
    return 1;
}

/* The `n` comments from `c` as whole lines ("#" + text) in sc->lines:
 * `n`, or 0 when memory ran out (noted). Valid until the next call. */
static size_t comment_lines(scan *sc, const sd_comment *c, size_t n)
{
    size_t need = 0, j;
    for (j = 0; j < n; j++)
        need += c[j].len + 2;
    sd_buf_clear(&sc->text);
    if (sd_grow((void **)&sc->lines, &sc->lines_cap, n, sizeof *sc->lines) < 0 ||
        sd_buf_grow(&sc->text, need) < 0) {
        sd_alloc_note_failure();   /* the scan goes on; the command fails at the end */
        return 0;
    }
    for (j = 0; j < n; j++) {   /* grown once: the text does not move */
        sc->lines[j] = sc->text.ptr + sc->text.len;
        sd_buf_putc(&sc->text, '#');
        sd_buf_put(&sc->text, c[j].text, c[j].len);
        sd_buf_putc(&sc->text, '\0');
    }
    return n;
}

/* The key path as helm-docs writes it: keys with '.' or ' ' are quoted. */
void sd_annot_path_push(sd_buf *b, const char *key, size_t len)
{
    int quote = memchr(key, '.', len) || memchr(key, ' ', len);
    if (b->len)
        sd_buf_putc(b, '.');
    if (quote)
        sd_buf_putc(b, '"');
    sd_buf_put(b, key, len);
    if (quote)
        sd_buf_putc(b, '"');
}

/* yaml.v3's HeadComment of a key: the comment-only lines directly above it,
 * with no blank line in between. */
static size_t head_comment(scan *sc, const sd_doc *doc, const sd_pair *p, int line)
{
    size_t n = 0;
    uint32_t i = p->c_count;
    int want = line - 1;
    while (i > 0 && doc->comments[p->c_first + i - 1].line == want) {
        i--;
        want--;
        n++;
    }
    return n ? comment_lines(sc, &doc->comments[p->c_first + i], n) : 0;
}

/* Where each line of a document starts, made once per scan so that
 * looking at a line is not a walk from the top of the file. */
typedef struct lines_of {
    const char **start;   /* start[l - 1] is line l; NULL when not made */
    size_t       n;
} lines_of;

static int lines_make(lines_of *lo, const sd_doc *doc)
{
    size_t n = 1, k = 0;
    const char *p, *e = doc->text ? doc->text + doc->text_len : NULL;
    for (p = doc->text; p < e && (p = memchr(p, '\n', (size_t)(e - p))); p++)
        n++;
    if (!(lo->start = malloc(n * sizeof *lo->start)))
        return SD_ENOMEM;
    lo->start[k++] = doc->text;
    for (p = doc->text; k < n && p < e && (p = memchr(p, '\n', (size_t)(e - p))); p++)
        lo->start[k++] = p + 1;
    lo->n = k;
    return 0;
}

/* 1 if the list item at `v` is a block item (`- x` on its own line): only
 * those carry a HeadComment in yaml.v3. */
static int block_item(const lines_of *lo, const sd_node *parent_key, const sd_node *v)
{
    const char *p;
    if (parent_key && v->loc.line == parent_key->loc.line)
        return 0;
    if (v->loc.line < 1 || (size_t)v->loc.line > lo->n)
        return 0;
    p = sd_annot__skip_ws(lo->start[v->loc.line - 1]);
    return *p == '-' || *p == '\n' || *p == '\0';
}

/* A line of a plain comment block that is not prose: commented-out YAML
 * (`# replicas: 3`, `# - name: x`, `# ---`) or a rule of `#`s. */
static int code_line(const char *t)
{
    const char *k;
    while (*t == '#')
        t++;
    t = sd_annot__skip_ws(t);
    if (!*t || *t == '-' || *t == '{' || *t == '[')
        return 1;
    for (k = t; *k && *k != ':' && *k != ' '; k++)
        ;
    /* `key:` or `key: value` without another word: a YAML line */
    return *k == ':' && k > t && (!k[1] || (k[1] == ' ' && !strchr(sd_annot__skip_ws(k + 1), ' ')));
}

/* The prose of a plain comment block (its `#`s and one space taken off
 * each line, lines joined by newlines), in the arena; NULL when it has none. */
static char *plain_text(scan *sc, const char *const *lines, size_t nl)
{
    sd_buf *d = &sc->desc;
    sd_buf_clear(d);
    for (size_t j = 0; j < nl; j++) {
        const char *t = lines[j];
        if (code_line(t))
            continue;
        while (*t == '#')
            t++;
        if (*t == ' ')
            t++;
        if (d->len)
            sd_buf_putc(d, '\n');
        sd_buf_puts(d, t);
    }
    while (d->len && (d->ptr[d->len - 1] == ' ' || d->ptr[d->len - 1] == '\n'))
        sd_buf_truncate(d, d->len - 1);
    return d->len ? sd_annot__dupn(sc->a, d->ptr, d->len) : NULL;
}

static int walk_helmdocs(scan *sc, const sd_doc *doc, const lines_of *lo, const sd_node *n,
                         const sd_node *nkey, sd_buf *path, int depth)
{
    sd_annots *a = sc->a;
    size_t base = path->len;
    int err = 0;
    if (depth > 200)
        return 0;
    for (size_t i = 0; i < n->n && !err; i++) {
        const sd_pair *p = &n->items[i];
        const char *const *lines = sc->lines;
        size_t nl = 0;
        sd_buf_truncate(path, base);
        if (p->key) {
            sd_annot_path_push(path, p->key->str, p->key->len);
            nl = head_comment(sc, doc, p, p->key->loc.line);
        } else {
            sd_buf_printf(path, "[%zu]", i);
            if (p->c_count && block_item(lo, nkey, p->value))
                nl = head_comment(sc, doc, p, p->value->loc.line);
        }
        lines = sc->lines;
        if (nl) {
            int ignored = 0, dash = 0;
            for (size_t j = 0; j < nl; j++) {
                if (contains(lines[j], '@', "ignore", 6))
                    ignored = 1;
                if (contains(lines[j], '#', " --", 3))
                    dash = 1;
            }
            sd_annot *r = sd_annot__add(a);
            if (!r || !(r->path = sd_annot__dupn(sc->a, path->ptr, path->len)))
                return SD_ENOMEM;
            r->ignored = (unsigned char)ignored;
            r->loc = p->key ? p->key->loc : p->value->loc;
            if (!dash && !ignored)
                r->plain = plain_text(sc, lines, nl);
            if (dash && !ignored) {
                char *key = NULL;
                if (parse_comment(sc, r, lines, nl, &key) && key && !*key && r->description && *r->description)
                    r->described = 1;
                if (key && *key) /* a keyed comment above a key: ignored entirely */
                    r->description = r->type = r->default_text = r->notation = r->section = NULL;
            }
            if (ignored)
                continue;
        }
        if (p->value->kind == SD_MAP || p->value->kind == SD_SEQ)
            err = walk_helmdocs(sc, doc, lo, p->value, p->key, path, depth + 1);
    }
    sd_buf_truncate(path, base);
    return err;
}

/* Old style `# path.to.key -- text` blocks anywhere in the file
 * (chart_info.go parseChartValuesFileComments). */
static int helmdocs_old_style(scan *sc, const sd_doc *doc)
{
    sd_annots *a = sc->a;
    size_t i = 0;
    while (i < doc->ncomments) {
        const sd_comment *c = &doc->comments[i];
        const char *k, *text;
        size_t klen;
        if (!comment_lines(sc, c, 1))
            return SD_ENOMEM;
        if (!(c->own_line && match_desc(sc->lines[0], &k, &klen, &text) && klen > 0)) {
            i++;
            continue;
        }
        /* the block: this and the following comment-only lines, no gap */
        size_t j = i + 1;
        while (j < doc->ncomments && doc->comments[j].own_line &&
               doc->comments[j].line == doc->comments[j - 1].line + 1)
            j++;
        if (!comment_lines(sc, c, j - i))
            return SD_ENOMEM;
        sd_annot r;
        memset(&r, 0, sizeof r);
        char *key = NULL;
        if (parse_comment(sc, &r, sc->lines, j - i, &key) && key && *key) {
            sd_annot *o = sd_annot__add(a);
            if (!o)
                return SD_ENOMEM;
            *o = r;
            o->path = key;
            o->old_style = 1;
            o->described = 1;
            o->loc.file = doc->file;
            o->loc.line = c->line;
            o->loc.column = c->column;
        }
        i = j;
    }
    return 0;
}

int sd_annot__helmdocs_read(sd_annots *out, const sd_doc *values)
{
    sd_buf path = SD_BUF_INIT;
    scan sc = { out, SD_BUF_INIT, NULL, 0, SD_BUF_INIT };
    lines_of lo = { NULL, 0 };
    int err = 0;

    if (values->nroots && (values->roots[0].node->kind == SD_MAP || values->roots[0].node->kind == SD_SEQ)) {
        if (!(err = lines_make(&lo, values)))
            err = walk_helmdocs(&sc, values, &lo, values->roots[0].node, NULL, &path, 0);
        free(lo.start);
    }
    if (!err)
        err = helmdocs_old_style(&sc, values);
    /* no `# --` written anywhere: plain comments describe the keys */
    out->plain = 1;
    for (size_t i = 0; i < out->n && out->plain; i++)
        if (out->items[i].described || out->items[i].old_style)
            out->plain = 0;
    sd_buf_release(&path);
    sd_buf_release(&sc.text);
    sd_buf_release(&sc.desc);
    free(sc.lines);
    return err;
}
