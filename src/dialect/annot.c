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

static char *dupn(const char *s, size_t n);

/* strdup() that records a failure (alloc.h): a NULL here reads as "none". */
static char *dup0(const char *s)
{
    return dupn(s, strlen(s));
}

static char *dupn(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    } else {
        sd_alloc_note_failure();   /* callers read NULL as "no such part" */
    }
    return p;
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
    for (const char *d = s; (d = strstr(d, "--")); d++)
        if (d > s && (d[-1] == ' ' || d[-1] == '\t'))
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
static int parse_comment(sd_annot *r, char **lines, size_t n, char **key)
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
    *key = dupn(k, klen);
    sd_buf d = SD_BUF_INIT;
    if (text[0] == '(') {
        const char *e = strchr(text, ')');
        if (e && e > text + 1) {
            r->type = dupn(text + 1, (size_t)(e - text - 1));
            text = skip_ws(e + 1);
        }
    }
    sd_buf_puts(&d, text);
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
            free(r->default_text);
            r->default_text = dup0(v);
            continue;
        }
        const char *h = skip_ws(l);
        if (h[0] == '#' && (h[1] == ' ' || h[1] == '\t') && starts(skip_ws(h + 1), "@notationType")) {
            const char *q = skip_ws(h + 1) + 13;
            if ((*q == ' ' || *q == '\t') && starts(skip_ws(q), "--") &&
                (skip_ws(q)[2] == ' ' || skip_ws(q)[2] == '\t')) {
                free(r->notation);
                r->notation = dup0(skip_ws(skip_ws(q) + 2));
                continue;
            }
        }
        if ((v = tagged(l, "# @section -- "))) {
            free(r->section);
            r->section = dup0(v);
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
            sd_buf_putc(&d, raw ? '\n' : ' ');
            sd_buf_puts(&d, c);
        }
    }
    r->raw = raw;
    free(r->description);
    r->description = sd_buf_detach(&d);
    return 1;
}

static char *comment_line(const sd_comment *c)
{
    char *l = malloc(c->len + 2);
    if (l) {
        l[0] = '#';
        memcpy(l + 1, c->text, c->len + 1);
    }
    return l;
}

static void free_lines(char **lines, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(lines[i]);
    free(lines);
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
static size_t head_comment(const sd_doc *doc, const sd_pair *p, int line, char ***out)
{
    size_t n = 0;
    uint32_t i = p->c_count;
    int want = line - 1;
    *out = NULL;
    while (i > 0 && doc->comments[p->c_first + i - 1].line == want) {
        i--;
        want--;
        n++;
    }
    if (!n)
        return 0;
    char **lines = calloc(n, sizeof *lines);
    if (!lines) {
        sd_alloc_note_failure();   /* the scan goes on; the command fails at the end */
        return 0;
    }
    for (size_t j = 0; j < n; j++)
        if (!(lines[j] = comment_line(&doc->comments[p->c_first + i + j]))) {
            free_lines(lines, n);
            sd_alloc_note_failure();
            return 0;
        }
    *out = lines;
    return n;
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

static int walk_helmdocs(sd_annots *a, const sd_doc *doc, const lines_of *lo, const sd_node *n,
                         const sd_node *nkey, sd_buf *path, int depth)
{
    size_t base = path->len;
    int err = 0;
    if (depth > 200)
        return 0;
    for (size_t i = 0; i < n->n && !err; i++) {
        const sd_pair *p = &n->items[i];
        char **lines = NULL;
        size_t nl = 0;
        sd_buf_truncate(path, base);
        if (p->key) {
            sd_annot_path_push(path, p->key->str, p->key->len);
            nl = head_comment(doc, p, p->key->loc.line, &lines);
        } else {
            sd_buf_printf(path, "[%zu]", i);
            if (p->c_count && block_item(lo, nkey, p->value))
                nl = head_comment(doc, p, p->value->loc.line, &lines);
        }
        if (nl) {
            int ignored = 0, dash = 0;
            for (size_t j = 0; j < nl; j++) {
                if (strstr(lines[j], "@ignore"))
                    ignored = 1;
                if (strstr(lines[j], "# --"))
                    dash = 1;
            }
            sd_annot *r = add(a);
            if (!r || !(r->path = dup0(path->ptr))) {
                free_lines(lines, nl);
                return SD_ENOMEM;
            }
            r->ignored = ignored;
            r->loc = p->key ? p->key->loc : p->value->loc;
            if (dash && !ignored) {
                char *key = NULL;
                if (parse_comment(r, lines, nl, &key) && key && !*key && r->description && *r->description)
                    r->described = 1;
                if (key && *key) { /* a keyed comment above a key: ignored entirely */
                    free(r->description);
                    free(r->type);
                    free(r->default_text);
                    free(r->notation);
                    free(r->section);
                    r->description = r->type = r->default_text = r->notation = r->section = NULL;
                }
                free(key);
            }
            free_lines(lines, nl);
            if (ignored)
                continue;
        }
        if (p->value->kind == SD_MAP || p->value->kind == SD_SEQ)
            err = walk_helmdocs(a, doc, lo, p->value, p->key, path, depth + 1);
    }
    sd_buf_truncate(path, base);
    return err;
}

/* Old style `# path.to.key -- text` blocks anywhere in the file
 * (chart_info.go parseChartValuesFileComments). */
static int helmdocs_old_style(sd_annots *a, const sd_doc *doc)
{
    size_t i = 0;
    while (i < doc->ncomments) {
        const sd_comment *c = &doc->comments[i];
        const char *k, *text;
        size_t klen;
        char *line = comment_line(c);
        if (!line)
            return SD_ENOMEM;
        int hit = c->own_line && match_desc(line, &k, &klen, &text) && klen > 0;
        free(line);
        if (!hit) {
            i++;
            continue;
        }
        /* the block: this and the following comment-only lines, no gap */
        size_t j = i + 1;
        while (j < doc->ncomments && doc->comments[j].own_line &&
               doc->comments[j].line == doc->comments[j - 1].line + 1)
            j++;
        char **lines = calloc(j - i, sizeof *lines);
        if (!lines)
            return SD_ENOMEM;
        for (size_t m = i; m < j; m++)
            if (!(lines[m - i] = comment_line(&doc->comments[m]))) {
                free_lines(lines, j - i);
                return SD_ENOMEM;
            }
        sd_annot r;
        memset(&r, 0, sizeof r);
        char *key = NULL;
        if (parse_comment(&r, lines, j - i, &key) && key && *key) {
            sd_annot *o = add(a);
            if (!o) {
                free(key);
                free_lines(lines, j - i);
                return SD_ENOMEM;
            }
            *o = r;
            o->path = key;
            o->old_style = 1;
            o->described = 1;
            o->loc.file = doc->file;
            o->loc.line = c->line;
            o->loc.column = c->column;
        } else {
            free(key);
            free(r.description);
            free(r.type);
            free(r.default_text);
            free(r.section);
            free(r.notation);
        }
        free_lines(lines, j - i);
        i = j;
    }
    return 0;
}

/* `## @param path [modifiers] description` and friends, in file order. */
static int bitnami(sd_annots *a, const sd_doc *doc)
{
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
                free(a->chart_description);
                a->chart_description = sd_buf_detach(&desc);
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
            free(section);
            section = dup0(skip_ws(t + 9));
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
            a->skips[a->nskips++] = dupn(p, (size_t)(e - p));
        } else if (starts(t, "@param ") || starts(t, "@extra ")) {
            int extra = t[1] == 'e';
            const char *p = skip_ws(t + 7), *e = p;
            while (*e && *e != ' ' && *e != '\t')
                e++;
            sd_annot *r = add(a);
            if (!r)
                return SD_ENOMEM;
            r->path = dupn(p, (size_t)(e - p));
            r->described = 1;
            r->extra = extra;
            r->loc.file = doc->file;
            r->loc.line = c->line;
            r->loc.column = c->column;
            if (section)
                r->section = dup0(section);
            p = skip_ws(e);
            if (*p == '[') {
                const char *close = strchr(p, ']');
                if (close) {
                    r->modifiers = dupn(p + 1, (size_t)(close - p - 1));
                    /* modifiers: comma separated; [default: X] may hold commas */
                    char *mods = dupn(p + 1, (size_t)(close - p - 1));
                    char *m = mods;
                    while (m && *m) {
                        m = (char *)skip_ws(m);
                        if (starts(m, "default:")) {
                            r->default_text = dup0(skip_ws(m + 8));
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
                            free(r->type);
                            r->type = dup0(m);
                        }
                        m = comma ? comma + 1 : NULL;
                    }
                    free(mods);
                    p = skip_ws(close + 1);
                }
            }
            r->description = dup0(p);
            if (r->description)
                rtrim(r->description);
        }
    }
    free(section);
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

static size_t slot_of(const sd_annots *a, const char *path, int old);

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
        if (!a->items[i].path)
            continue;
        a->idx[slot_of(a, a->items[i].path, a->items[i].old_style != 0)] = (uint32_t)i + 1;
    }
    return 0;
}

int sd_annots_scan(sd_annots *out, const sd_doc *values, sd_diags *diags)
{
    sd_buf path = SD_BUF_INIT;
    int err = 0;

    (void)diags;
    memset(out, 0, sizeof *out);
    if (!values)
        return 0;
    for (size_t i = 0; i < values->ncomments; i++) {
        const char *t = values->comments[i].text;
        if (t[0] == '#' && starts(skip_ws(t + 1), "@param ")) {
            out->dialect = SD_DIALECT_BITNAMI;
            break;
        }
    }
    if (out->dialect == SD_DIALECT_BITNAMI) {
        err = bitnami(out, values);
    } else {
        lines_of lo = { NULL, 0 };
        out->dialect = SD_DIALECT_HELMDOCS;
        if (values->nroots && (values->roots[0].node->kind == SD_MAP || values->roots[0].node->kind == SD_SEQ)) {
            if (!(err = lines_make(&lo, values)))
                err = walk_helmdocs(out, values, &lo, values->roots[0].node, NULL, &path, 0);
            free(lo.start);
        }
        if (!err)
            err = helmdocs_old_style(out, values);
    }
    sd_buf_release(&path);
    return err ? err : index_paths(out);
}

/* The slot of `path` among the annotations of one kind (old_style or not):
 * the slot holding the last such annotation, or the empty slot where it
 * would go. */
static size_t slot_of(const sd_annots *a, const char *path, int old)
{
    size_t mask = a->idx_cap - 1, j = (size_t)hash_path(path, old) & mask;
    for (; a->idx[j]; j = (j + 1) & mask) {
        const sd_annot *x = &a->items[a->idx[j] - 1];
        if (x->old_style == old && strcmp(x->path, path) == 0)
            break;
    }
    return j;
}

static const sd_annot *lookup(const sd_annots *a, const char *path, int old)
{
    size_t j;
    if (!a->idx_cap)
        return NULL;
    j = slot_of(a, path, old);
    return a->idx[j] ? &a->items[a->idx[j] - 1] : NULL;
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
    for (size_t i = 0; i < a->n; i++) {
        free(a->items[i].path);
        free(a->items[i].description);
        free(a->items[i].type);
        free(a->items[i].default_text);
        free(a->items[i].section);
        free(a->items[i].notation);
        free(a->items[i].modifiers);
    }
    for (size_t i = 0; i < a->nskips; i++)
        free(a->skips[i]);
    free(a->skips);
    free(a->items);
    free(a->idx);
    free(a->chart_description);
    memset(a, 0, sizeof *a);
}
