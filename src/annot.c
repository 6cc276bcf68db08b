/* annot.c - read helm-docs and Bitnami doc comments (see annot.h).
 *
 * helm-docs (norwoodj/helm-docs pkg/helm/chart_info.go) reads the comment
 * block above each key; the description starts at the last line of the
 * block that looks like `# -- text` and runs to the key, continuation lines
 * joined with a space (with `# @raw`, with a newline). Bitnami's
 * readme-generator reads every `## @...` line of the file in order. */
#include "annot.h"
#include "buf.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static char *dupn(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
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
    if (a->n == a->alloc) {
        size_t n = a->alloc ? a->alloc * 2 : 64;
        sd_annot *p = realloc(a->items, n * sizeof *p);
        if (!p)
            return NULL;
        a->items = p;
        a->alloc = n;
    }
    sd_annot *r = &a->items[a->n++];
    memset(r, 0, sizeof *r);
    return r;
}

/* `# [key] -- text`: helm-docs' valuesDescriptionRegex ^\s*#\s*(.*)\s+--\s*(.*)$
 * on the comment text (after '#'). Sets *key (may be empty) and *text. */
static int match_desc(const char *t, const char **key, size_t *keylen, const char **text)
{
    const char *s = skip_ws(t), *dash;
    /* the last " --" followed by a blank or the end, as the greedy (.*) takes */
    const char *best = NULL;
    if (strncmp(s, "--", 2) == 0 && (s[2] == ' ' || s[2] == '\t' || s[2] == '\0')) {
        *key = s;
        *keylen = 0;
        *text = skip_ws(s + 2);
        return 1;
    }
    for (dash = s; (dash = strstr(dash, "--")); dash++)
        if (dash > s && (dash[-1] == ' ' || dash[-1] == '\t'))
            best = dash;
    if (!best)
        return 0;
    const char *ke = best;
    while (ke > s && (ke[-1] == ' ' || ke[-1] == '\t'))
        ke--;
    /* an old-style key is one word (a values path) */
    for (const char *q = s; q < ke; q++)
        if (*q == ' ' || *q == '\t')
            return 0;
    *key = s;
    *keylen = (size_t)(ke - s);
    *text = skip_ws(best + 2);
    return 1;
}

static int starts(const char *t, const char *word)
{
    return strncmp(t, word, strlen(word)) == 0;
}

/* Parse a helm-docs comment block (comments[first..first+count)) for `path`. */
static int helmdocs_block(sd_annots *a, const sd_doc *doc, uint32_t first, uint32_t count,
                          const char *path, const char *section)
{
    int start = -1;
    const char *key, *text;
    size_t keylen;

    for (uint32_t i = 0; i < count; i++)
        if (match_desc(doc->comments[first + i].text, &key, &keylen, &text))
            start = (int)i;
    if (start < 0) {
        /* @ignored / @section can stand without a description */
        for (uint32_t i = 0; i < count; i++) {
            const char *t = doc->comments[first + i].text;
            if (starts(t, " @ignored")) {
                sd_annot *r = add(a);
                if (!r || !(r->path = strdup(path)))
                    return SD_ENOMEM;
                r->ignored = 1;
            }
        }
        return 0;
    }
    const sd_comment *c0 = &doc->comments[first + (uint32_t)start];
    match_desc(c0->text, &key, &keylen, &text);
    sd_annot *r = add(a);
    if (!r)
        return SD_ENOMEM;
    r->path = keylen ? dupn(key, keylen) : strdup(path);
    r->described = 1;
    r->loc.file = doc->file;
    r->loc.line = c0->line;
    r->loc.column = c0->column;
    sd_buf d = SD_BUF_INIT;
    /* `# -- (type) text` */
    if (text[0] == '(') {
        const char *e = strchr(text, ')');
        if (e) {
            r->type = dupn(text + 1, (size_t)(e - text - 1));
            text = skip_ws(e + 1);
        }
    }
    sd_buf_puts(&d, text);
    for (uint32_t i = (uint32_t)start + 1; i < count; i++) {
        const char *t = doc->comments[first + i].text;
        if (!r->raw && starts(skip_ws(t), "@raw")) {
            r->raw = 1;
            continue;
        }
        if (starts(t, " @default -- ")) {
            free(r->default_text);
            r->default_text = strdup(t + 13);
            continue;
        }
        if (starts(t, " @section -- ")) {
            free(r->section);
            r->section = strdup(t + 13);
            continue;
        }
        if (starts(t, " @ignored")) {
            r->ignored = 1;
            continue;
        }
        const char *nt = skip_ws(t);
        if (starts(nt, "@notationType") && strstr(nt, "-- ")) {
            const char *v = skip_ws(strstr(nt, "-- ") + 3);
            free(r->type);
            r->type = malloc(strlen(v) + 5);
            if (r->type)
                sprintf(r->type, "tpl/%s", v);
            continue;
        }
        /* commentContinuationRegex ^\s*#(\s?)(.*)$ */
        const char *cont = t[0] == ' ' ? t + 1 : t;
        sd_buf_putc(&d, r->raw ? '\n' : ' ');
        sd_buf_puts(&d, cont);
    }
    rtrim(d.ptr);
    d.len = strlen(d.ptr);
    r->description = sd_buf_detach(&d);
    if (!r->section && section)
        r->section = strdup(section);
    return r->path && r->description ? 0 : SD_ENOMEM;
}

static void path_child(sd_buf *b, size_t base, const sd_pair *p, size_t index)
{
    sd_buf_truncate(b, base);
    if (p->key) {
        if (base)
            sd_buf_putc(b, '.');
        sd_buf_put(b, p->key->str, p->key->len);
    } else {
        sd_buf_printf(b, "[%zu]", index);
    }
}

static int walk_helmdocs(sd_annots *a, const sd_doc *doc, const sd_node *n, sd_buf *path, int depth)
{
    size_t base = path->len;
    int err;
    if (depth > 200)
        return 0;
    for (size_t i = 0; i < n->n; i++) {
        const sd_pair *p = &n->items[i];
        path_child(path, base, p, i);
        if (p->c_count && (err = helmdocs_block(a, doc, p->c_first, p->c_count, path->ptr, NULL)) < 0)
            return err;
        if (p->value->kind == SD_MAP || p->value->kind == SD_SEQ)
            if ((err = walk_helmdocs(a, doc, p->value, path, depth + 1)) < 0)
                return err;
    }
    sd_buf_truncate(path, base);
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
            section = strdup(skip_ws(t + 9));
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
                r->section = strdup(section);
            p = skip_ws(e);
            if (*p == '[') {
                const char *close = strchr(p, ']');
                if (close) {
                    /* modifiers: comma separated; [default: X] may hold commas */
                    char *mods = dupn(p + 1, (size_t)(close - p - 1));
                    char *m = mods;
                    while (m && *m) {
                        m = (char *)skip_ws(m);
                        if (starts(m, "default:")) {
                            r->default_text = strdup(skip_ws(m + 8));
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
                            r->type = strdup(m);
                        }
                        m = comma ? comma + 1 : NULL;
                    }
                    free(mods);
                    p = skip_ws(close + 1);
                }
            }
            r->description = strdup(p);
            if (r->description)
                rtrim(r->description);
        }
    }
    free(section);
    sd_buf_release(&desc);
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
    if (out->dialect == SD_DIALECT_BITNAMI)
        return bitnami(out, values);
    out->dialect = SD_DIALECT_HELMDOCS;
    for (size_t r = 0; r < values->nroots && !err; r++)
        if (values->roots[r].node->kind == SD_MAP)
            err = walk_helmdocs(out, values, values->roots[r].node, &path, 0);
    sd_buf_release(&path);
    return err;
}

const sd_annot *sd_annots_get(const sd_annots *a, const char *path)
{
    /* the last one wins, as later comments override in helm-docs */
    for (size_t i = a->n; i-- > 0;)
        if (a->items[i].path && strcmp(a->items[i].path, path) == 0)
            return &a->items[i];
    return NULL;
}

void sd_annots_release(sd_annots *a)
{
    for (size_t i = 0; i < a->n; i++) {
        free(a->items[i].path);
        free(a->items[i].description);
        free(a->items[i].type);
        free(a->items[i].default_text);
        free(a->items[i].section);
    }
    for (size_t i = 0; i < a->nskips; i++)
        free(a->skips[i]);
    free(a->skips);
    free(a->items);
    free(a->chart_description);
    memset(a, 0, sizeof *a);
}
