/* SPDX-License-Identifier: Apache-2.0 */
/* annot.c - read helm-docs and Bitnami doc comments (see annot.h).
 *
 * helm-docs (norwoodj/helm-docs pkg/helm/chart_info.go) reads the comment
 * block above each key; the description starts at the last line of the
 * block that looks like `# -- text` and runs to the key, continuation lines
 * joined with a space (with `# @raw`, with a newline). Bitnami's
 * readme-generator reads every `## @...` line of the file in order. */
#include "annot.h"
#include "alloc.h"
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

/* A copy in the annotations' arena that records a failure (alloc.h): a
 * NULL here reads as "none". */
static char *dupn(scan *sc, const char *s, size_t n)
{
    char *p = sd_arena_strndup(&sc->a->arena, s, n);
    if (!p)
        sd_alloc_note_failure();   /* callers read NULL as "no such part" */
    return p;
}

static char *dup0(scan *sc, const char *s)
{
    return dupn(sc, s, strlen(s));
}

static const char *skip_ws(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

static void rtrim(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        s[--n] = '\0';
}

static sd_annot *add(sd_annots *a)
{
    if (sd_grow((void **)&a->items, &a->alloc, a->n + 1, sizeof *a->items) < 0)
        return NULL;
    sd_annot *r = &a->items[a->n++];
    memset(r, 0, sizeof *r);
    return r;
}

/* helm-docs' valuesDescriptionRegex ^\s*#\s*(.*)\s+--\s*(.*)$ on a whole
 * comment line `line` ("#" + text). Group 1 is greedy, so the LAST " --"
 * (preceded by a blank) splits key from text. */
static int match_desc(const char *line, const char **key, size_t *keylen, const char **text)
{
    const char *s = skip_ws(line), *best = NULL;
    if (*s != '#')
        return 0;
    s = skip_ws(s + 1);
    for (const char *d = s; (d = strchr(d, '-')); d++)   /* each "--", overlapping */
        if (d[1] == '-' && d > s && (d[-1] == ' ' || d[-1] == '\t'))
            best = d;
    if (!best) {
        /* (.*) may be empty only when "\s+" still matched: "#  --" */
        const char *h = skip_ws(line);
        if (h[0] == '#' && (h[1] == ' ' || h[1] == '\t') && strncmp(skip_ws(h + 1), "--", 2) == 0) {
            best = skip_ws(h + 1);
            *key = best;
            *keylen = 0;
            *text = skip_ws(best + 2);
            return 1;
        }
        return 0;
    }
    const char *ke = best;
    while (ke > s && (ke[-1] == ' ' || ke[-1] == '\t'))
        ke--;
    *key = s;
    *keylen = (size_t)(ke - s);
    *text = skip_ws(best + 2);
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

static int starts(const char *t, const char *word)
{
    return strncmp(t, word, strlen(word)) == 0;
}

/* `^\s*# @default -- (.*)$` and friends: exact single spaces after '#'. */
static const char *tagged(const char *line, const char *tag)
{
    const char *s = skip_ws(line);
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
        if (starts(lines[i], "# --"))
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
    *key = dupn(sc, k, klen);
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
                r->deprecated = dupn(sc, w, (size_t)(e - w));
            } else {
                r->type = dupn(sc, text + 1, (size_t)(e - text - 1));
            }
            text = skip_ws(e + 1);
        }
    }
    sd_buf_puts(d, text);
    for (size_t i = start + 1; i < n; i++) {
        const char *l = lines[i], *v;
        if (!raw) {
            const char *h = skip_ws(l);
            if (h[0] == '#' && (h[1] == ' ' || h[1] == '\t') && starts(skip_ws(h + 1), "@raw")) {
                raw = 1;
                continue;
            }
        }
        if ((v = tagged(l, "# @default -- "))) {
            r->default_text = dup0(sc, v);
            continue;
        }
        const char *h = skip_ws(l);
        if (h[0] == '#' && (h[1] == ' ' || h[1] == '\t') && starts(skip_ws(h + 1), "@notationType")) {
            const char *q = skip_ws(h + 1) + 13;
            if ((*q == ' ' || *q == '\t') && starts(skip_ws(q), "--") &&
                (skip_ws(q)[2] == ' ' || skip_ws(q)[2] == '\t')) {
                r->notation = dup0(sc, skip_ws(skip_ws(q) + 2));
                continue;
            }
        }
        if ((v = tagged(l, "# @section -- "))) {
            r->section = dup0(sc, v);
            continue;
        }
        /* `# @deprecated` or `# @deprecated -- use x`: the key is deprecated */
        if (h[0] == '#' && (h[1] == ' ' || h[1] == '\t') && starts(skip_ws(h + 1), "@deprecated") &&
            !isalnum((unsigned char)skip_ws(h + 1)[11])) {
            const char *q = skip_ws(skip_ws(h + 1) + 11);
            if (starts(q, "--"))
                q = skip_ws(q + 2);
            r->deprecated = dup0(sc, q);
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
    r->description = dupn(sc, d->ptr, d->len);
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
    p = skip_ws(lo->start[v->loc.line - 1]);
    return *p == '-' || *p == '\n' || *p == '\0';
}

/* A line of a plain comment block that is not prose: commented-out YAML
 * (`# replicas: 3`, `# - name: x`, `# ---`) or a rule of `#`s. */
static int code_line(const char *t)
{
    const char *k;
    while (*t == '#')
        t++;
    t = skip_ws(t);
    if (!*t || *t == '-' || *t == '{' || *t == '[')
        return 1;
    for (k = t; *k && *k != ':' && *k != ' '; k++)
        ;
    /* `key:` or `key: value` without another word: a YAML line */
    return *k == ':' && k > t && (!k[1] || (k[1] == ' ' && !strchr(skip_ws(k + 1), ' ')));
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
    return d->len ? dupn(sc, d->ptr, d->len) : NULL;
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
            sd_annot *r = add(a);
            if (!r || !(r->path = dupn(sc, path->ptr, path->len)))
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
            sd_annot *o = add(a);
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

/* `## @param path [modifiers] description` and friends, in file order. */
static int bitnami(scan *sc, const sd_doc *doc)
{
    sd_annots *a = sc->a;
    char *section = NULL;
    sd_buf desc = SD_BUF_INIT;
    int in_desc = 0;

    for (size_t i = 0; i < doc->ncomments; i++) {
        const sd_comment *c = &doc->comments[i];
        const char *t = c->text;
        if (t[0] != '#')
            continue; /* Bitnami tags are `## @...` */
        t = skip_ws(t + 1);
        if (in_desc) {
            if (starts(t, "@descriptionEnd")) {
                in_desc = 0;
                a->chart_description = dupn(sc, desc.ptr, desc.len);
                sd_buf_clear(&desc);
            } else {
                if (desc.len)
                    sd_buf_putc(&desc, '\n');
                sd_buf_puts(&desc, t);
            }
            continue;
        }
        if (starts(t, "@descriptionStart")) {
            in_desc = 1;
            sd_buf_clear(&desc);
        } else if (starts(t, "@section ")) {
            section = dup0(sc, skip_ws(t + 9));
            if (section)
                rtrim(section);
        } else if (starts(t, "@skip ")) {
            const char *p = skip_ws(t + 6), *e = p;
            while (*e && *e != ' ' && *e != '\t')
                e++;
            char **s = realloc(a->skips, (a->nskips + 1) * sizeof *s);
            if (!s)
                return SD_ENOMEM;
            a->skips = s;
            a->skips[a->nskips++] = dupn(sc, p, (size_t)(e - p));
        } else if (starts(t, "@param ") || starts(t, "@extra ")) {
            int extra = t[1] == 'e';
            const char *p = skip_ws(t + 7), *e = p;
            while (*e && *e != ' ' && *e != '\t')
                e++;
            sd_annot *r = add(a);
            if (!r)
                return SD_ENOMEM;
            r->path = dupn(sc, p, (size_t)(e - p));
            r->described = 1;
            r->extra = (unsigned char)extra;
            r->loc.file = doc->file;
            r->loc.line = c->line;
            r->loc.column = c->column;
            if (section)
                r->section = section;   /* the arena's: shared by the section's params */
            p = skip_ws(e);
            if (*p == '[') {
                const char *close = strchr(p, ']');
                if (close) {
                    r->modifiers = dupn(sc, p + 1, (size_t)(close - p - 1));
                    /* modifiers: comma separated; [default: X] may hold commas */
                    char *mods = dupn(sc, p + 1, (size_t)(close - p - 1));
                    char *m = mods;
                    while (m && *m) {
                        m = (char *)skip_ws(m);
                        if (starts(m, "default:")) {
                            r->default_text = dup0(sc, skip_ws(m + 8));
                            if (r->default_text)
                                rtrim(r->default_text);
                            break;
                        }
                        char *comma = strchr(m, ',');
                        if (comma)
                            *comma = '\0';
                        rtrim(m);
                        if (strcmp(m, "nullable") == 0)
                            r->nullable = 1;
                        else if (!strcmp(m, "array") || !strcmp(m, "object") || !strcmp(m, "string")) {
                            r->type = dup0(sc, m);
                        }
                        m = comma ? comma + 1 : NULL;
                    }
                    p = skip_ws(close + 1);
                }
            }
            r->description = dup0(sc, p);
            if (r->description)
                rtrim(r->description);
        }
    }
    sd_buf_release(&desc);
    return 0;
}

static uint64_t hash_path(const char *s, int old)
{
    uint64_t h = old ? 0x9e3779b97f4a7c15ULL : 1469598103934665603ULL, w;
    size_t n = strlen(s);
    for (; n >= 8; s += 8, n -= 8) {   /* eight bytes a step: paths are long */
        memcpy(&w, s, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    for (; n; s++, n--)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h ^ (h >> 29);
}

static size_t slot_of(const sd_annots *a, const char *path, int old, uint64_t *tag);

/* Index every annotation by (path, kind) once, so that each key's lookup
 * is a hash probe: a later annotation of the same path wins, as a scan
 * from the end would find it. */
static int index_paths(sd_annots *a)
{
    size_t cap = 16;
    while (cap < a->n * 2 + 2)
        cap *= 2;
    if (!(a->idx = calloc(cap, sizeof *a->idx)))
        return SD_ENOMEM;
    a->idx_cap = cap;
    for (size_t i = 0; i < a->n; i++) {
        uint64_t tag;
        size_t j;
        int old = a->items[i].old_style != 0;
        if (!a->items[i].path)
            continue;
        j = slot_of(a, a->items[i].path, old, &tag);
        a->idx[j] = tag | ((uint64_t)i + 1);
        a->nkind[old]++;
    }
    return 0;
}

int sd_annots_scan(sd_annots *out, const sd_doc *values, sd_diags *diags)
{
    sd_buf path = SD_BUF_INIT;
    scan sc = { out, SD_BUF_INIT, NULL, 0, SD_BUF_INIT };
    int err = 0;

    (void)diags;
    memset(out, 0, sizeof *out);
    if (!values)
        return 0;
    /* an annotation per comment at most: room for a file's worth at once
     * (up to a bound; beyond, the list grows), so it is not copied while
     * it grows */
    if (sd_grow((void **)&out->items, &out->alloc, values->ncomments < 16384 ? values->ncomments + 1 : 16384,
                sizeof *out->items) < 0)
        return SD_ENOMEM;
    for (size_t i = 0; i < values->ncomments; i++) {
        const char *t = values->comments[i].text;
        if (t[0] == '#' && starts(skip_ws(t + 1), "@param ")) {
            out->dialect = SD_DIALECT_BITNAMI;
            break;
        }
    }
    if (out->dialect == SD_DIALECT_BITNAMI) {
        err = bitnami(&sc, values);
    } else {
        lines_of lo = { NULL, 0 };
        out->dialect = SD_DIALECT_HELMDOCS;
        if (values->nroots && (values->roots[0].node->kind == SD_MAP || values->roots[0].node->kind == SD_SEQ)) {
            if (!(err = lines_make(&lo, values)))
                err = walk_helmdocs(&sc, values, &lo, values->roots[0].node, NULL, &path, 0);
            free(lo.start);
        }
        if (!err)
            err = helmdocs_old_style(&sc, values);
        /* neither dialect written anywhere: plain comments describe the keys */
        out->plain = 1;
        for (size_t i = 0; i < out->n && out->plain; i++)
            if (out->items[i].described || out->items[i].old_style)
                out->plain = 0;
    }
    sd_buf_release(&path);
    sd_buf_release(&sc.text);
    sd_buf_release(&sc.desc);
    free(sc.lines);
    return err ? err : index_paths(out);
}

/* The slot of `path` among the annotations of one kind (old_style or not):
 * the slot holding the last such annotation, or the empty slot where it
 * would go; *tag is the hash's part a slot keeps. A slot whose tag differs
 * is passed without reading its annotation: most lookups find nothing
 * (keys without a comment), and each annotation read was a cache miss on
 * a large file. */
static size_t slot_of(const sd_annots *a, const char *path, int old, uint64_t *tag)
{
    uint64_t h = hash_path(path, old);
    size_t mask = a->idx_cap - 1, j = (size_t)h & mask;
    *tag = h & 0xFFFFFFFF00000000ULL;
    for (; a->idx[j]; j = (j + 1) & mask) {
        const sd_annot *x;
        if ((a->idx[j] & 0xFFFFFFFF00000000ULL) != *tag)
            continue;
        x = &a->items[(uint32_t)a->idx[j] - 1];
        if (x->old_style == old && strcmp(x->path, path) == 0)
            break;
    }
    return j;
}

static const sd_annot *lookup(const sd_annots *a, const char *path, int old)
{
    size_t j;
    uint64_t tag;
    if (!a->idx_cap || !a->nkind[old])
        return NULL;   /* none of this kind: no hash to take */
    j = slot_of(a, path, old, &tag);
    return a->idx[j] ? &a->items[(uint32_t)a->idx[j] - 1] : NULL;
}

const sd_annot *sd_annots_get(const sd_annots *a, const char *path)
{
    return lookup(a, path, 0);
}

const sd_annot *sd_annots_get_old(const sd_annots *a, const char *path)
{
    return lookup(a, path, 1);
}

void sd_annots_release(sd_annots *a)
{
    free(a->skips);
    free(a->items);
    free(a->idx);
    sd_arena_release(&a->arena);
    memset(a, 0, sizeof *a);
}
