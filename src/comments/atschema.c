/* SPDX-License-Identifier: Apache-2.0 */
/* atschema.c - read the `# @schema` dialects of a values file (see
 * atschema.h).
 *
 * The comments of a key, as yaml.v3 gives them to both tools: the head
 * comment's last group (the comment lines right above the key, no blank
 * line between), the line comment (after the key or its value on the key's
 * line) and the foot comment (comment lines right after the key's value, at
 * the key's column, then a blank line, the end, or a line further left).
 * helm-values-schema-json reads `# @schema name: value; ...` lines in all
 * three; helm-schema reads the block between two `# @schema` lines of the
 * head comment, and the rest of the head comment as the description. */
#include "atschema.h"
#include "alloc.h"
#include "buf.h"
#include "lines.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef struct scan {
    sd_atschema  *s;
    const sd_doc *doc;
    sd_diags     *diags;
    sd_lines      lines;
    sd_pmap       seen;        /* aliased containers walked once */
    int           oom;
} scan;

static char *dupn(scan *sc, const char *p, size_t n)
{
    char *r = sd_arena_strndup(&sc->s->arena, p, n);
    if (!r)
        sc->oom = 1;
    return r;
}

static int is_ws(char c) { return c == ' ' || c == '\t' || c == '\r'; }

static const char *skip_ws(const char *p)
{
    while (is_ws(*p))
        p++;
    return p;
}

/* A comment's text after `# @schema` and a blank, or NULL (`# @schemafoo`,
 * `# @schema` alone: losisin's cutSchemaComment). */
static const char *hvsj_text(const char *text)
{
    const char *p = skip_ws(text);
    if (strncmp(p, "@schema", 7) != 0 || !is_ws(p[7]))
        return NULL;
    p = skip_ws(p + 7);
    return *p ? p : NULL;
}

/* `# @schema` alone on its line (a helm-schema block's fence); `root`:
 * `# @schema.root`. The text starts after the '#'. */
static int fence(const char *text, int root)
{
    const char *w = root ? "@schema.root" : "@schema";
    size_t n = strlen(w);
    if (text[0] != ' ' || strncmp(text + 1, w, n) != 0)
        return 0;
    return *skip_ws(text + 1 + n) == '\0';
}

int sd_hvsj_helmdocs(const char *text, const char **path, size_t *plen, const char **type, size_t *tlen,
                     const char **desc)
{
    const char *p = text, *pstart, *segend, *dash = NULL;
    if (!is_ws(*p))
        return 0;
    p = pstart = skip_ws(p);
    if (p[0] == '-' && p[1] == '-') {
        dash = p;
    } else {
        /* a path, then blanks and "--"; a segment may end in dashes that
         * are the "--" itself: try each shorter end */
        if (*p == '"') {
            const char *q = strchr(p + 1, '"');
            if (!q)
                return 0;
            p = q + 1;
        } else {
            while (*p && *p != '@' && *p != '-' && !is_ws(*p))
                p++;
        }
        while (!dash) {
            const char *q = skip_ws(p);
            if (q[0] == '-' && q[1] == '-') {
                dash = q;
                break;
            }
            if (*p != '.')
                return 0;
            p++;
            if (*p == '"') {
                const char *e = strchr(p + 1, '"');
                if (!e)
                    return 0;
                p = e + 1;
                continue;
            }
            segend = p;
            while (*segend && *segend != '.' && !is_ws(*segend))
                segend++;
            for (const char *e = segend; e >= p && !dash; e--) {
                const char *r = skip_ws(e);
                if (r[0] == '-' && r[1] == '-') {
                    dash = r;
                    p = e;
                }
            }
            if (!dash)
                p = segend;
        }
    }
    if (path) {
        const char *pe = dash;
        while (pe > pstart && is_ws(pe[-1]))
            pe--;
        *path = pstart;
        *plen = (size_t)(pe - pstart);
    }
    p = skip_ws(dash + 2);
    if (type)
        *type = NULL, *tlen = 0;
    if (*p == '(') {
        const char *q = p + 1;
        while (*q && (isalnum((unsigned char)*q) || *q == '_' || *q == '/' || *q == '.' || *q == '-'))
            q++;
        if (*q == ')' && q > p + 1) {
            if (type)
                *type = p + 1, *tlen = (size_t)(q - p - 1);
            p = skip_ws(q + 1);
        }
    }
    if (desc)
        *desc = p;
    return 1;
}

static int helmdocs_line(const char *text)
{
    return sd_hvsj_helmdocs(text, NULL, NULL, NULL, NULL, NULL);
}

static sd_atann *item_for(scan *sc, const sd_pair *p)
{
    uintptr_t *hit = sd_pmap_get(&sc->s->by_pair, p);
    if (hit)
        return &sc->s->items[*hit - 1];
    if (sd_grow((void **)&sc->s->items, &sc->s->alloc, sc->s->n + 1, sizeof *sc->s->items) < 0 ||
        sd_pmap_put(&sc->s->by_pair, p, sc->s->n + 1) < 0) {
        sc->oom = 1;
        return NULL;
    }
    sd_atann *a = &sc->s->items[sc->s->n++];
    memset(a, 0, sizeof *a);
    a->pair = p;
    return a;
}

static int add_part(scan *sc, sd_atann *a, sd_hvsj_part *pt)
{
    sd_hvsj_part *np = realloc(a->parts, (a->nparts + 1) * sizeof *np);
    if (!np) {
        sc->oom = 1;
        return SD_ENOMEM;
    }
    a->parts = np;
    a->parts[a->nparts++] = *pt;
    return 0;
}

/* The parts of one `# @schema ...` comment, split at ';' and then at the
 * first ':' (losisin's splitCommentsByParts). */
static void hvsj_parts(scan *sc, sd_atann *a, const sd_comment *c, int where, int in_docs)
{
    const char *t = hvsj_text(c->text);
    if (!t)
        return;
    if (where != SD_AT_HEAD || !in_docs)
        sc->s->hvsj++;
    while (*t && !sc->oom) {
        const char *end = strchr(t, ';'), *colon;
        size_t len = end ? (size_t)(end - t) : strlen(t);
        const char *st = t;
        while (len && is_ws(*st))
            st++, len--;
        size_t tl = len;
        while (tl && is_ws(st[tl - 1]))
            tl--;
        if (tl) {
            sd_hvsj_part pt;
            memset(&pt, 0, sizeof pt);
            pt.where = (unsigned char)where;
            pt.in_docs = (unsigned char)in_docs;
            pt.loc = (sd_loc){ sc->doc->file, c->line, c->column + 1 + (int)(st - c->text) };
            colon = memchr(st, ':', tl);
            size_t nl = colon ? (size_t)(colon - st) : tl;
            while (nl && is_ws(st[nl - 1]))
                nl--;
            pt.name = dupn(sc, st, nl);
            if (colon) {
                const char *v = skip_ws(colon + 1);
                size_t vl = (size_t)(st + tl - v);
                pt.value = dupn(sc, v, vl);
            } else {
                pt.value = "";
            }
            if (pt.name && pt.value)
                add_part(sc, a, &pt);
        }
        if (!end)
            break;
        t = end + 1;
    }
}

/* The comment lines right above the key's line, with no blank line between:
 * comments[first..first+*count). After a sibling whose value is a block
 * map or list (`after_block`), a line indented deeper than the key ends the
 * group: it (and what is above it) closes that sibling's children (a
 * commented-out child, a foot comment), as yaml.v3 reads it; after a
 * scalar or `{}` such a line is still the key's (`annotations: {}` then
 * `    # kubernetes.io/tls-acme: "true"` above `hosts:`). */
static size_t head_group(const sd_doc *d, const sd_pair *p, int line, int after_block, size_t *count)
{
    uint32_t i = p->c_count;
    int want = line - 1, col = p->key ? p->key->loc.column : p->value->loc.column;
    while (i > 0 && d->comments[p->c_first + i - 1].line == want &&
           (!after_block || d->comments[p->c_first + i - 1].column <= col)) {
        i--;
        want--;
    }
    *count = p->c_count - i;
    return p->c_first + i;
}

/* The last line a value takes (its last descendant's line; a block
 * scalar's last line). */
static int end_line(const sd_node *v, int depth)
{
    int e = v->loc.line;
    if (depth > 1000)
        return e;
    if (v->kind == SD_STR && (v->style == SD_STYLE_LITERAL || v->style == SD_STYLE_FOLDED ||
                              v->style == SD_STYLE_PLAIN || v->style == SD_STYLE_DQUOTED ||
                              v->style == SD_STYLE_SQUOTED)) {
        /* the lines a multi-line scalar spans: at least its newlines */
        int nl = 0;
        for (uint32_t i = 0; i < v->len; i++)
            nl += v->str[i] == '\n';
        if (v->style == SD_STYLE_LITERAL || v->style == SD_STYLE_FOLDED)
            e += nl > 0 ? nl : 1;
    }
    for (uint32_t i = 0; i < v->n; i++) {
        int k = v->items[i].key ? v->items[i].key->loc.line : 0;
        int x = end_line(v->items[i].value, depth + 1);
        if (k > e)
            e = k;
        if (x > e)
            e = x;
    }
    return e;
}

/* The index of the first comment on `line` or after it. */
static size_t comment_at(const sd_doc *d, int line)
{
    size_t lo = 0, hi = d->ncomments;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (d->comments[mid].line < line)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The foot comment of the key `k`: own-line comments right after `last`
 * at the key's column, then a blank line, the end or a line left of it. */
static void foot(scan *sc, sd_atann **a, const sd_pair *p, int last)
{
    const sd_doc *d = sc->doc;
    int col = p->key->loc.column, l = last + 1;
    size_t i = comment_at(d, l), first = i;

    while (i < d->ncomments && d->comments[i].line == l && d->comments[i].own_line &&
           d->comments[i].column == col) {
        i++;
        l++;
    }
    if (i == first)
        return;
    int next = sd_lines_state(&sc->lines, l);
    if (next == SD_LINE_CONTENT && l >= 1 && (size_t)l < sc->lines.n && sc->lines.indent[l] >= col)
        return;   /* right above the next key: its head comment */
    for (size_t j = first; j < i && !sc->oom; j++) {
        if (!hvsj_text(d->comments[j].text))
            continue;
        if (!*a && !(*a = item_for(sc, p)))
            return;
        hvsj_parts(sc, *a, &d->comments[j], SD_AT_FOOT, 0);
    }
}

static int keep_doc(scan *sc, sd_doc *d)
{
    if (sd_grow((void **)&sc->s->docs, &sc->s->adocs, sc->s->ndocs + 1, sizeof *sc->s->docs) < 0) {
        sd_doc_free(d);
        sc->oom = 1;
        return SD_ENOMEM;
    }
    sc->s->docs[sc->s->ndocs++] = d;
    return 0;
}

/* Parse a helm-schema block (its lines `# ...`, comments[from..to)) as
 * YAML; a syntax error is a warning at its place in the comment. */
static sd_node *parse_block(scan *sc, const sd_comment *c, size_t n, int *bad)
{
    sd_buf text = SD_BUF_INIT;
    int *shift = malloc((n ? n : 1) * sizeof *shift);
    sd_diags quiet = SD_DIAGS_INIT;
    sd_doc *d = NULL;
    sd_node *root = NULL;

    *bad = 0;
    if (!shift) {
        sc->oom = 1;
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        const char *t = c[i].text;
        int off = 1;
        if (*t == '#')   /* "##": losisin and helm-schema take one more '#' */
            t++, off++;
        if (*t == ' ')
            t++, off++;
        shift[i] = c[i].column - 1 + off;
        sd_buf_puts(&text, t);
        sd_buf_putc(&text, '\n');
    }
    if (sd_buf_failed(&text)) {
        sc->oom = 1;
    } else if (sd_doc_load_mem(&d, sc->doc->file, text.ptr, text.len, SD_FMT_YAML, NULL, &quiet) < 0) {
        const sd_diag *e = quiet.count ? &quiet.items[0] : NULL;
        int l = e && e->loc.line >= 1 && (size_t)e->loc.line <= n ? e->loc.line : (int)n;
        int col = e && e->loc.column > 0 ? e->loc.column : 1;
        if (e && e->code == SD_ENOMEM)
            sc->oom = 1;
        *bad = 1;
        if (n)
            sd_diag_warning(sc->diags, (sd_loc){ sc->doc->file, c[l - 1].line, col + shift[l - 1] },
                            "the `# @schema` block is not YAML (%s); it is left out",
                            e ? e->message : "a syntax error");
    } else if (keep_doc(sc, d) == 0) {
        root = sd_doc_root(d);
        if (root && root->kind != SD_MAP) {
            sd_diag_warning(sc->diags, (sd_loc){ sc->doc->file, c[0].line, c[0].column },
                            "the `# @schema` block is not a map of JSON Schema keywords; it is left out");
            *bad = 1;
            root = NULL;
        }
        /* positions in the block, as written in the values file */
        for (size_t i = 0; root && i < root->n; i++) {
            sd_node *k = root->items[i].key;
            if (k->loc.line >= 1 && (size_t)k->loc.line <= n) {
                k->loc.column += shift[k->loc.line - 1];
                k->loc.line = c[k->loc.line - 1].line;
            }
            k->loc.file = sc->doc->file;
        }
    }
    sd_diags_release(&quiet);
    sd_buf_release(&text);
    free(shift);
    return root;
}

/* The head comment of a key: hvsj parts, a helm-schema block (or the root
 * block), the description around the block. */
static void head(scan *sc, const sd_pair *p, sd_atann **a, int first_key, int after_block)
{
    const sd_doc *d = sc->doc;
    size_t nh, h0 = head_group(d, p, p->key ? p->key->loc.line : p->value->loc.line, after_block, &nh);
    const sd_comment *c;
    int in_docs = 0, in_block = 0, in_root = 0;
    size_t bstart = 0, rstart = 0;
    sd_buf desc = SD_BUF_INIT;
    sd_atann *at;

    if (!nh || !p->key || !d->comments)
        return;
    c = d->comments + h0;
    if (!(at = *a ? *a : (*a = item_for(sc, p))))
        return;
    at->head = sd_arena_alloc(&sc->s->arena, nh * sizeof *at->head);
    if (!at->head) {
        sc->oom = 1;
        return;
    }
    for (size_t i = 0; i < nh && !sc->oom; i++) {
        sd_buf l = SD_BUF_INIT;
        sd_buf_putc(&l, '#');
        sd_buf_puts(&l, c[i].text);
        at->head[at->nhead++] = sd_buf_failed(&l) ? "#" : dupn(sc, l.ptr, l.len);
        sd_buf_release(&l);
        if (first_key && fence(c[i].text, 1)) {
            if (in_root) {
                int bad;
                sd_node *r = parse_block(sc, c + rstart + 1, i - rstart - 1, &bad);
                if (r && !sc->s->root_block)
                    sc->s->root_block = r;
            }
            in_root = !in_root;
            rstart = i;
            continue;
        }
        if (in_root)
            continue;
        if (fence(c[i].text, 0)) {
            if (in_block) {
                int bad;
                at->block = parse_block(sc, c + bstart + 1, i - bstart - 1, &bad);
                at->has_block = !bad;
                at->block_loc = (sd_loc){ d->file, c[bstart].line, c[bstart].column };
                sc->s->blocks++;
            }
            in_block = !in_block;
            bstart = i;
            continue;
        }
        if (in_block)
            continue;
        if (helmdocs_line(c[i].text)) {
            if (!in_docs)
                sc->s->helmdocs++;
            in_docs = 1;
        }
        hvsj_parts(sc, at, &c[i], SD_AT_HEAD, in_docs);
        if (!hvsj_text(c[i].text)) {
            const char *t = c[i].text[0] == ' ' ? c[i].text + 1 : c[i].text;
            if (desc.len)
                sd_buf_putc(&desc, '\n');
            sd_buf_puts(&desc, t);
        }
    }
    if (in_block || in_root) {
        const sd_comment *o = &c[in_block ? bstart : rstart];
        sd_diag_warning(sc->diags, (sd_loc){ d->file, o->line, o->column },
                        "this `# @schema%s` block is not closed before the key; it is left out",
                        in_block ? "" : ".root");
        at->block = NULL;
        at->has_block = 0;
    }
    if (desc.len && !sd_buf_failed(&desc))
        at->block_desc = dupn(sc, desc.ptr, desc.len);
    else if (sd_buf_failed(&desc))
        sc->oom = 1;
    sd_buf_release(&desc);
}

static void walk(scan *sc, const sd_node *v, int depth, int *first_key, int in_flow)
{
    if (!v || sc->oom || depth > 1000 || (v->kind != SD_MAP && v->kind != SD_SEQ))
        return;
    if (v->is_alias) {
        if (sd_pmap_get(&sc->seen, v))
            return;
        if (sd_pmap_put(&sc->seen, v, 1) < 0) {
            sc->oom = 1;
            return;
        }
    }
    for (uint32_t i = 0; i < v->n && !sc->oom; i++) {
        const sd_pair *p = &v->items[i];
        sd_atann *a = NULL;
        if (p->key) {
            const sd_node *pv = i ? v->items[i - 1].value : NULL;
            head(sc, p, &a, *first_key,
                 pv && (pv->kind == SD_MAP || pv->kind == SD_SEQ) && pv->n && pv->style != SD_STYLE_FLOW);
            *first_key = 0;
        }
        /* yaml.v3 gives a line's comment to the innermost node that ends
         * there: a block collection's item or a flow collection's key does
         * not take it from the scalar or the flow collection after it */
        int takes = !in_flow && !(!p->key && (p->value->kind == SD_MAP || p->value->kind == SD_SEQ) &&
                                  p->value->style != SD_STYLE_FLOW && p->value->n);
        if (takes && p->c_trail >= 0) {
            const sd_comment *c = &sc->doc->comments[p->c_trail];
            if (hvsj_text(c->text) && (a || (a = item_for(sc, p))))
                hvsj_parts(sc, a, c, SD_AT_LINE, 0);
        }
        if (p->key)
            foot(sc, &a, p, end_line(p->value, 0));
        walk(sc, p->value, depth + 1, first_key, in_flow || p->value->style == SD_STYLE_FLOW);
    }
}

/* A `# @schema.root` block before the first key but apart from its head
 * comment (a blank line between): still the root block, as helm-schema
 * reads the document's head comment. */
static void root_apart(scan *sc)
{
    const sd_doc *d = sc->doc;
    const sd_node *root = sd_doc_root(d);
    int first = root && root->kind == SD_MAP && root->n && root->items[0].key ? root->items[0].key->loc.line : 0;
    size_t start = 0;
    int open = 0;

    for (size_t i = 0; first && i < d->ncomments && d->comments[i].line < first; i++) {
        if (!d->comments[i].own_line || !fence(d->comments[i].text, 1))
            continue;
        if (open) {
            int bad;
            sd_node *r = parse_block(sc, d->comments + start + 1, i - start - 1, &bad);
            if (r)
                sc->s->root_block = r;
            return;
        }
        open = 1;
        start = i;
    }
}

int sd_atschema_scan(sd_atschema *out, const sd_doc *values, sd_diags *diags)
{
    scan sc;
    int first = 1;

    memset(out, 0, sizeof *out);
    if (!values || !sd_doc_root(values))
        return 0;
    memset(&sc, 0, sizeof sc);
    sc.s = out;
    sc.doc = values;
    sc.diags = diags;
    if (sd_lines_scan(&sc.lines, values) < 0)
        return SD_ENOMEM;
    walk(&sc, sd_doc_root(values), 0, &first, 0);
    if (!sc.oom && !out->root_block)
        root_apart(&sc);
    sd_lines_release(&sc.lines);
    sd_pmap_release(&sc.seen);
    if (sc.oom) {
        sd_atschema_release(out);
        sd_alloc_note_failure();
        return SD_ENOMEM;
    }
    return 0;
}

const sd_atann *sd_atschema_get(const sd_atschema *s, const sd_pair *pair)
{
    uintptr_t *hit = s ? sd_pmap_get(&s->by_pair, pair) : NULL;
    return hit ? &s->items[*hit - 1] : NULL;
}

sd_node *sd_atschema_yaml(sd_atschema *s, const char *text, size_t len, sd_loc at, sd_diags *diags, int *bad)
{
    sd_diags quiet = SD_DIAGS_INIT;
    sd_doc *d = NULL;
    scan sc;

    *bad = 0;
    /* a part written again (a million `enum: [a];` on one line) costs its
     * text, not a document each */
    if (s->last && s->last->text_len == len && !memcmp(s->last->text, text, len))
        return sd_doc_root(s->last);
    memset(&sc, 0, sizeof sc);
    sc.s = s;
    if (sd_doc_load_mem(&d, at.file ? at.file : "values.yaml", text, len, SD_FMT_YAML, NULL, &quiet) < 0) {
        const sd_diag *e = quiet.count ? &quiet.items[0] : NULL;
        *bad = 1;
        sd_diag_warning(diags, (sd_loc){ at.file, at.line, at.column + (e && e->loc.column > 0 ? e->loc.column - 1 : 0) },
                        "`%.*s` is not YAML (%s)", (int)(len > 60 ? 60 : len), text,
                        e ? e->message : "a syntax error");
        sd_diags_release(&quiet);
        return NULL;
    }
    sd_diags_release(&quiet);
    if (keep_doc(&sc, d) < 0) {
        *bad = 1;
        return NULL;
    }
    s->last = d;
    return sd_doc_root(d);
}

void sd_atschema_release(sd_atschema *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->items[i].parts);
    free(s->items);
    for (size_t i = 0; i < s->ndocs; i++)
        sd_doc_free(s->docs[i]);
    free(s->docs);
    sd_pmap_release(&s->by_pair);
    sd_arena_release(&s->arena);
    memset(s, 0, sizeof *s);
}
