/* SPDX-License-Identifier: Apache-2.0 */
/* commented.c - keys commented out in a values file (see commented.h).
 *
 * Runs of own-line comments on consecutive lines are cut into segments
 * that look like YAML (a `key:` line and what is indented under it or
 * written beside it); each segment is parsed as YAML with the comment
 * marks taken away and its columns kept. The map that holds a segment's
 * keys comes from the columns and the keys around it:
 *   - under the key just above, when that key's value is null or `{}` and
 *     the `#` is indented past that key (`nodeSelector:` / `  # os: linux`),
 *     or the value is `{}` on the line right above and the commented key is
 *     indented past it (`lifecycle: {}` / `# preStop:` written one level in);
 *   - else in the map whose keys start at the column of the `#` (the map of
 *     the key below the comment first, then of the key above), else the
 *     innermost map around it whose keys start left of the `#`. */
#include "commented.h"
#include "alloc.h"
#include "annot.h"
#include "buf.h"
#include "lines.h"
#include "synth.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A key of the values document, in document order. */
typedef struct ent {
    int line, col;              /* where the key is written */
    const sd_node *map;         /* the map that holds it */
    const sd_node *value;
    long up;                    /* the entry whose value holds `map` (through
                                   lists too), -1 at the root */
    const sd_cpath *path;       /* its dotted path */
    const sd_cpath *mpath;      /* the dotted path of `map` */
} ent;

typedef struct scan {
    sd_ckeys     *ck;
    const sd_doc *doc;
    ent          *e;
    size_t        n, alloc;
    struct okey { int line, col; size_t i; } *order;   /* entries by line, then column */
    sd_buf        seg;          /* a path segment being made */
    sd_pmap       seen;         /* aliased containers walked once */
    sd_lines      lines;        /* what each line holds */
    int           oom;
} scan;

/* One line of a segment. */
typedef struct sline {
    int line, hash_col, col;    /* the comment's line, its '#', its text */
    const char *text;           /* after the indentation */
    size_t len;
} sline;

static const char root_sentinel;   /* by_parent's key for an empty document */

void sd_cpath_text(sd_buf *out, const sd_cpath *p)
{
    size_t n = 0, at;
    for (const sd_cpath *q = p; q; q = q->up)
        n += q->seglen;
    at = out->len;
    /* written from the end: the links point up */
    for (size_t i = 0; i < n; i++)
        sd_buf_putc(out, ' ');
    if (sd_buf_failed(out))
        return;
    for (const sd_cpath *q = p; q; q = q->up) {
        n -= q->seglen;
        memcpy(out->ptr + at + n, q->seg, q->seglen);
    }
}

/* A new link under `up`: a key (`key`, `klen`) or a list index. Its text
 * is copied into the scan's arena: what every path costs is its own
 * segment. */
static const sd_cpath *link_path(scan *s, const sd_cpath *up, const char *key, size_t klen, size_t index)
{
    sd_cpath *c = sd_arena_alloc(&s->ck->arena, sizeof *c);
    sd_buf_clear(&s->seg);
    if (key) {
        if (up)
            sd_buf_putc(&s->seg, 'x');   /* the '.' sd_annot_path_push puts after a prefix */
        sd_annot_path_push(&s->seg, key, klen);
    } else {
        sd_buf_printf(&s->seg, "[%zu]", index);
    }
    size_t skip = key && up ? 1 : 0;   /* the placeholder: the dot is s->seg.ptr[1] */
    char *t = sd_buf_failed(&s->seg) || !c ? NULL
            : sd_arena_strndup(&s->ck->arena, s->seg.ptr + skip, s->seg.len - skip);
    if (!t) {
        s->oom = 1;
        return NULL;
    }
    c->up = up;
    c->seg = t;
    c->seglen = (uint32_t)(s->seg.len - skip);
    c->key = key;
    c->keylen = (uint32_t)klen;
    return c;
}

static void flatten(scan *s, const sd_node *v, long up, const sd_cpath *path, int depth)
{
    int last = 0;

    if (!v || s->oom || depth > 1000 || (v->kind != SD_MAP && v->kind != SD_SEQ))
        return;
    if (v->is_alias) {
        if (sd_pmap_get(&s->seen, v))
            return;
        if (sd_pmap_put(&s->seen, v, 1) < 0) {
            s->oom = 1;
            return;
        }
    }
    for (size_t i = 0; i < v->n && !s->oom; i++) {
        const sd_pair *p = &v->items[i];
        if (v->kind == SD_SEQ) {
            const sd_cpath *ip = link_path(s, path, NULL, 0, i);
            if (ip)
                flatten(s, p->value, up, ip, depth + 1);
            continue;
        }
        if (p->key->loc.line < last)    /* merged in from an anchor (<<) */
            continue;
        last = p->key->loc.line;
        if (sd_grow((void **)&s->e, &s->alloc, s->n + 1, sizeof *s->e) < 0) {
            s->oom = 1;
            return;
        }
        const sd_cpath *kp = link_path(s, path, p->key->str, p->key->len, 0);
        if (!kp)
            return;
        ent *e = &s->e[s->n];
        e->line = p->key->loc.line;
        e->col = p->key->loc.column;
        e->map = v;
        e->value = p->value;
        e->up = up;
        e->mpath = path;
        e->path = kp;
        flatten(s, p->value, (long)s->n++, kp, depth + 1);
    }
}

static int cmp_order(const void *a, const void *b)
{
    const struct okey *x = a, *y = b;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    if (x->col != y->col)
        return x->col < y->col ? -1 : 1;
    return x->i < y->i ? -1 : 1;
}

/* The last entry written before `line` (-1: none). */
static long before_line(const scan *s, int line)
{
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (s->order[mid].line < line)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? (long)s->order[lo - 1].i : -1;
}

/* The first entry written after `line` (-1: none). */
static long after_line(const scan *s, int line)
{
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (s->order[mid].line <= line)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->n ? (long)s->order[lo].i : -1;
}

/* ---- which comment lines are YAML ----------------------------------------- */

/* The length of a key at the start of `t` followed by ':' and a blank or
 * the end (a plain key of letters, digits and `_-./$`, or a quoted one);
 * 0 when the line is not `key: ...`. */
static size_t key_len(const char *t, size_t n)
{
    size_t i = 0;
    if (!n)
        return 0;
    if (t[0] == '"' || t[0] == '\'') {
        for (i = 1; i < n && t[i] != t[0]; i++)
            if (t[0] == '"' && t[i] == '\\')
                i++;
        if (i >= n)
            return 0;
        i++;
    } else {
        if (!isalnum((unsigned char)t[0]) && t[0] != '_' && t[0] != '$')
            return 0;
        while (i < n && (isalnum((unsigned char)t[i]) || strchr("_-./$", t[i])))
            i++;
    }
    if (i >= n || t[i] != ':' || (i + 1 < n && t[i + 1] != ' '))
        return 0;
    return i;
}

/* Words that start prose written as `Word: text` ("Note: ...", "ref: URL"). */
static int prose_word(const char *k, size_t n)
{
    static const char *const words[] = {
        "ref", "refs", "reference", "references", "note", "notes", "nb", "example", "examples",
        "e.g", "eg", "i.e", "ie", "see", "also", "warning", "warn", "caution", "important",
        "attention", "tip", "hint", "info", "todo", "fixme", "xxx", "usage", "docs", "doc",
        "documentation", "link", "links", "source", "more", "details", "deprecated", "default",
        "defaults", "type", "types", "format", "description", "options", "values", "requires",
        "required", "optional", "caveat", "remember", "hack", "workaround",
        "spdx-license-identifier", "copyright", "license", "author", "authors"
    };
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (strlen(words[i]) == n && !strncasecmp(k, words[i], n)) {
            /* lowercase settings named like these are real keys
             * (`default: true`, `type: ClusterIP`) */
            if (islower((unsigned char)k[0]) && (!strcmp(words[i], "default") || !strcmp(words[i], "type") ||
                                                  !strcmp(words[i], "format") || !strcmp(words[i], "values") ||
                                                  !strcmp(words[i], "required") || !strcmp(words[i], "optional") ||
                                                  !strcmp(words[i], "options") || !strcmp(words[i], "description") ||
                                                  !strcmp(words[i], "types") || !strcmp(words[i], "source") ||
                                                  !strcmp(words[i], "defaults") || !strcmp(words[i], "deprecated")))
                return 0;
            return 1;
        }
    return 0;
}

/* A `key: value` line that reads as a setting rather than a sentence. */
static int key_line(const char *t, size_t n)
{
    size_t k = key_len(t, n);
    if (!k || prose_word(t, k))
        return 0;
    const char *v = t + k + 1;
    size_t vn = n - k - 1;
    while (vn && *v == ' ')
        v++, vn--;
    while (vn && v[vn - 1] == ' ')
        vn--;
    int plain = vn && !strchr("\"'[{|>&*!", v[0]), spaces = 0;
    for (size_t i = 0; plain && i < vn; i++)
        spaces += v[i] == ' ';
    if (spaces && (v[vn - 1] == '.' || spaces >= 4))
        return 0;   /* a sentence */
    if (isupper((unsigned char)t[0]) && !memchr(t, '.', k) && !memchr(t, '/', k)) {
        /* `Requirements:`, `Default: the first one` (an ALL_CAPS key is an
         * environment variable; settings are camelCase) */
        for (size_t i = 0; i < k; i++)
            if (islower((unsigned char)t[i]))
                return 0;
    }
    return 1;
}

/* ---- placing and recording one parsed segment ---------------------------- */

static sd_node *under_map(scan *s, const sd_node *parent)
{
    const void *key = parent ? (const void *)parent : (const void *)&root_sentinel;
    uintptr_t *hit = sd_pmap_get(&s->ck->by_parent, key);
    if (hit)
        return (sd_node *)*hit;
    sd_node *m = sd_synth_map(s->ck->maps, parent ? parent->loc : (sd_loc){ s->doc->file, 1, 1 });
    if (!m || sd_pmap_put(&s->ck->by_parent, key, (uintptr_t)m) < 0) {
        s->oom = 1;
        return NULL;
    }
    return m;
}

/* Give every node of a parsed segment the values file's positions, and
 * note it as commented. */
static void relocate(scan *s, sd_node *v, const sline *lines, size_t nl, int shift, const char *file,
                     int depth)
{
    if (!v || depth > 1000 || s->oom || sd_pmap_get(&s->ck->inside, v))
        return;
    if (sd_pmap_put(&s->ck->inside, v, 1) < 0) {
        s->oom = 1;
        return;
    }
    if (v->loc.line >= 1 && (size_t)v->loc.line <= nl)
        v->loc.line = lines[v->loc.line - 1].line;
    v->loc.column += shift;
    v->loc.file = file;
    for (size_t i = 0; i < v->n; i++) {
        sd_pair *p = &v->items[i];
        if (p->key && !sd_pmap_get(&s->ck->inside, p->key)) {
            if (sd_pmap_put(&s->ck->inside, p->key, 1) < 0) {
                s->oom = 1;
                return;
            }
            if (p->key->loc.line >= 1 && (size_t)p->key->loc.line <= nl)
                p->key->loc.line = lines[p->key->loc.line - 1].line;
            p->key->loc.column += shift;
            p->key->loc.file = file;
        }
        relocate(s, p->value, lines, nl, shift, file, depth + 1);
    }
}

/* Where the keys of a segment belong (see the top of this file): the
 * parent node, and its path. */
static int can_hold(const sd_node *v)
{
    return (v->kind == SD_MAP && v->n == 0) || v->kind == SD_NULL;
}

static const sd_node *place(const scan *s, const sd_node *seg, const sline *first, int last_line,
                            const sd_cpath **path)
{
    long p = before_line(s, first->line), nx = after_line(s, last_line);
    const sd_node *root = sd_doc_root(s->doc);

    *path = NULL;
    if (p >= 0) {
        const ent *e = &s->e[p];
        int empty_map = e->value->kind == SD_MAP && e->value->n == 0;
        if ((can_hold(e->value) && first->hash_col > e->col) ||
            (empty_map && first->col > e->col && first->line == e->line + 1 &&
             e->value->loc.line == e->line)) {
            *path = e->path;
            return e->value;
        }
    }
    if (nx >= 0) {
        /* "For example:" and a block indented within its comment, in the
         * comments right above a key whose value is empty: that key's
         * value, unless the block writes the key itself */
        const ent *e = &s->e[nx];
        int only_comments = 1;
        for (int l = last_line + 1; l < e->line && only_comments; l++)
            only_comments = sd_lines_state(&s->lines, l) != SD_LINE_CONTENT;
        if (only_comments && can_hold(e->value) && first->col >= first->hash_col + 3 &&
            first->hash_col <= e->col) {
            const sd_pair *kp = NULL;
            for (size_t i = 0; i < e->map->n && !kp; i++)
                if (e->map->items[i].value == e->value)
                    kp = &e->map->items[i];
            if (kp && !sd_node_get(seg, kp->key->str)) {
                *path = e->path;
                return e->value;
            }
        }
    }
    /* the map whose keys start at the '#': the key below's first */
    for (int pass = 0; pass < 2; pass++)
        for (long x = pass ? p : nx; x >= 0; x = s->e[x].up)
            if (s->e[x].col == first->hash_col) {
                *path = s->e[x].mpath;
                return s->e[x].map;
            }
    for (long x = p; x >= 0; x = s->e[x].up)
        if (s->e[x].col <= first->hash_col) {
            *path = s->e[x].mpath;
            return s->e[x].map;
        }
    return root;
}

/* `key` names the map a segment goes in, or one of its ancestors (a
 * segment of the dotted `path`): the block writes the path again from
 * there, as grafana's example under `global:` does (`# global:` /
 * `#   imagePullSecrets:`): an example of keys written for real, not a
 * key of its own. */
static int names_ancestor(const sd_cpath *path, const char *key)
{
    size_t n = strlen(key);
    for (const sd_cpath *p = path; p; p = p->up)
        if (p->key && p->keylen == n && !memcmp(p->key, key, n))
            return 1;
    return 0;
}

/* The dotted path of the key whose value is `v` (NULL: none found). */
static const sd_cpath *path_of(const scan *s, const sd_node *v)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->e[i].value == v)
            return s->e[i].path;
    return NULL;
}

/* Record the keys of the commented map `m` as commented keys of the real
 * map `parent` (path `ppath`). A key written for real too is skipped, but
 * when both are maps the commented one's keys go under the real one:
 * grafana's `# server:` / `#    root_url:` below a real `server:` map
 * comments out `server.root_url`. */
static void record_map(scan *s, const sd_node *parent, const sd_cpath *ppath, const sd_node *m, int depth)
{
    sd_node *under = NULL;

    for (size_t i = 0; i < m->n && !s->oom; i++) {
        const sd_pair *p = &m->items[i];
        const sd_node *real = parent && parent->kind == SD_MAP ? sd_node_get(parent, p->key->str) : NULL;
        if (real) {   /* written for real too */
            if (real->kind == SD_MAP && p->value && p->value->kind == SD_MAP && depth < 64) {
                const sd_cpath *rp = path_of(s, real);
                if (rp)
                    record_map(s, real, rp, p->value, depth + 1);
            }
            continue;
        }
        if (names_ancestor(ppath, p->key->str))
            continue;   /* the path written again: an example */
        if (!under && !(under = under_map(s, parent)))
            return;
        if (sd_node_get(under, p->key->str))
            continue;   /* commented out twice: the first one counts */
        if (sd_synth_set(s->ck->maps, under, p->key->str, p->value) < 0 ||
            sd_grow((void **)&s->ck->items, &s->ck->alloc, s->ck->n + 1, sizeof *s->ck->items) < 0) {
            s->oom = 1;
            return;
        }
        s->ck->items[s->ck->n++] = (sd_ckey){ parent, ppath, p->key->str, p->key->loc, p->value };
    }
}

static void record(scan *s, sd_doc *d, const sline *lines, size_t nl)
{
    sd_node *root = sd_doc_root(d);
    const sd_cpath *ppath;
    const sd_node *parent = place(s, root, &lines[0], lines[nl - 1].line, &ppath);

    relocate(s, root, lines, nl, lines[0].col - 1, d->file, 0);
    if (!s->oom)
        record_map(s, parent, ppath, root, 0);
}

static int keep_doc(sd_ckeys *ck, sd_doc *d)
{
    if (sd_grow((void **)&ck->docs, &ck->adocs, ck->ndocs + 1, sizeof *ck->docs) < 0) {
        sd_doc_free(d);
        return SD_ENOMEM;
    }
    ck->docs[ck->ndocs++] = d;
    return 0;
}

/* Parse a segment; on a syntax error, try again without the lines from
 * the one the error is on (prose after the YAML). */
static void parse_segment(scan *s, const sline *lines, size_t nl)
{
    sd_buf text = SD_BUF_INIT;
    int base = lines[0].col;

    while (nl && !s->oom) {
        sd_diags quiet = SD_DIAGS_INIT;
        sd_doc *d = NULL;
        int err;

        sd_buf_clear(&text);
        for (size_t i = 0; i < nl; i++) {
            for (int c = base; c < lines[i].col; c++)
                sd_buf_putc(&text, ' ');
            sd_buf_put(&text, lines[i].text, lines[i].len);
            sd_buf_putc(&text, '\n');
        }
        if (sd_buf_failed(&text)) {
            s->oom = 1;
            break;
        }
        err = sd_doc_load_mem(&d, s->doc->file, text.ptr, text.len, SD_FMT_YAML, NULL, &quiet);
        if (err == SD_ENOMEM)
            s->oom = 1;
        if (err < 0) {
            int at = quiet.count ? quiet.items[0].loc.line : 0;
            sd_diags_release(&quiet);
            if (at < 1 || (size_t)at > nl)
                at = (int)nl;   /* found at the end: the last line opened it */
            if (at <= 1)
                break;
            nl = (size_t)at - 1;   /* the lines before the error */
            continue;
        }
        sd_diags_release(&quiet);
        if (keep_doc(s->ck, d) < 0) {
            s->oom = 1;
            break;
        }
        if (sd_doc_root(d) && sd_doc_root(d)->kind == SD_MAP && sd_doc_root(d)->n)
            record(s, d, lines, nl);
        break;
    }
    sd_buf_release(&text);
}

/* One comment line as the cutter sees it: `prose` (not YAML), `key` (a
 * `key: ...` setting), `item` (a `- ` list item). `block` tracks a
 * helm-schema `# @schema` ... `# @schema` block (NULL: not tracked). */
static sline cut_line(const sd_comment *c, int *block, int *prose, int *key, int *item)
{
    const char *t = c ? c->text : "#";
    size_t len = c ? c->len : 1, sp = 0;
    while (sp < len && t[sp] == ' ')
        sp++;
    sline l = { c ? c->line : 0, c ? c->column : 0, 0, t + sp, len - sp };
    l.col = l.hash_col + 1 + (int)sp;
    *prose = t[0] == '#' || !l.len || l.text[0] == '@' || (l.len >= 2 && !strncmp(l.text, "--", 2)) ||
             memchr(l.text, '\t', l.len) != NULL;
    /* a helm-schema block's YAML is keywords of the key below, not keys */
    size_t fl = l.len;
    while (fl && (l.text[fl - 1] == ' ' || l.text[fl - 1] == '\t'))
        fl--;
    if ((fl == 7 && !strncmp(l.text, "@schema", 7)) || (fl == 12 && !strncmp(l.text, "@schema.root", 12))) {
        if (block)
            *block = !*block;
    } else if (block && *block) {
        *prose = 1;
    }
    *key = !*prose && key_line(l.text, l.len);
    *item = !*prose && l.text[0] == '-' && (l.len == 1 || l.text[1] == ' ');
    return l;
}

/* A sentence between a `key:` with nothing after it and the keys written
 * under it (grafana: `# server:` / `# The full public facing url ...` /
 * `#    root_url:`): within the next three lines, before any other YAML,
 * a key indented past `last`. */
static int prose_inside(const sd_comment *c, size_t i, size_t n, const sline *last)
{
    size_t kn = key_len(last->text, last->len);
    if (!kn || kn + 1 != last->len)
        return 0;   /* the key above has a value of its own */
    for (size_t j = i + 1; j < n && j <= i + 3; j++) {
        int prose, key, item;
        sline l = cut_line(&c[j], NULL, &prose, &key, &item);
        if (!key && !item && l.len)
            continue;   /* more of the sentence */
        return (key || item) && l.col > last->col;
    }
    return 0;
}

/* Cut a run of own-line comments on consecutive lines into segments. */
static void scan_run(scan *s, const sd_comment *c, size_t n)
{
    sline *seg = malloc(n * sizeof *seg);
    size_t ns = 0;
    int skip = 0;   /* lines indented past this column belong to a skipped line */
    int block = 0;  /* inside a helm-schema `# @schema` ... `# @schema` block */

    if (!seg) {
        s->oom = 1;
        return;
    }
    for (size_t i = 0; i <= n && !s->oom; i++) {
        int prose, key, item;
        sline l = cut_line(i < n ? &c[i] : NULL, &block, &prose, &key, &item);
        if (ns) {
            int base = seg[0].col;
            if (l.len && l.text[0] == '#' && (i < n && c[i].text[0] != '#'))
                continue;   /* a comment inside the commented YAML */
            if (!prose && (l.col > base || (l.col == base && (key || item)))) {
                seg[ns++] = l;
                continue;
            }
            if (!key && !item && l.len && i < n && prose_inside(c, i, n, &seg[ns - 1]))
                continue;   /* a sentence about the key above, then its keys */
            parse_segment(s, seg, ns);
            ns = 0;
        }
        if (skip && (!l.len || l.col > skip))
            continue;   /* under a list item or a sentence: part of that */
        skip = 0;
        if (key)
            seg[ns++] = l;
        else if (!prose && (item || key_len(l.text, l.len)))
            skip = l.col;
    }
    free(seg);
}

int sd_ckeys_scan(sd_ckeys *out, const sd_doc *values)
{
    scan s;

    memset(out, 0, sizeof *out);
    if (!values || !values->ncomments)
        return 0;
    memset(&s, 0, sizeof s);
    s.seg = (sd_buf)SD_BUF_INIT;
    s.ck = out;
    s.doc = values;
    if (!(out->maps = sd_synth_new(values->file)) || keep_doc(out, out->maps) < 0) {
        out->maps = NULL;
        return SD_ENOMEM;
    }
    flatten(&s, sd_doc_root(values), -1, NULL, 0);
    if (!s.oom && s.n && !(s.order = malloc(s.n * sizeof *s.order)))
        s.oom = 1;
    if (!s.oom && s.n) {
        for (size_t i = 0; i < s.n; i++)
            s.order[i] = (struct okey){ s.e[i].line, s.e[i].col, i };
        qsort(s.order, s.n, sizeof *s.order, cmp_order);
    }
    if (sd_buf_failed(&s.seg) || (!s.oom && sd_lines_scan(&s.lines, values) < 0))
        s.oom = 1;
    for (size_t i = 0; i < values->ncomments && !s.oom;) {
        size_t j = i;
        if (!values->comments[i].own_line) {
            i++;
            continue;
        }
        while (j + 1 < values->ncomments && values->comments[j + 1].own_line &&
               sd_lines_blank_between(&s.lines, values->comments[j].line, values->comments[j + 1].line))
            j++;
        scan_run(&s, &values->comments[i], j - i + 1);
        i = j + 1;
    }
    sd_lines_release(&s.lines);
    free(s.e);
    free(s.order);
    sd_buf_release(&s.seg);
    sd_pmap_release(&s.seen);
    if (s.oom) {
        sd_ckeys_release(out);
        sd_alloc_note_failure();
        return SD_ENOMEM;
    }
    return 0;
}

const sd_node *sd_ckeys_under(const sd_ckeys *ck, const sd_node *parent)
{
    uintptr_t *hit;
    if (!ck || !ck->maps)
        return NULL;
    hit = sd_pmap_get(&ck->by_parent, parent ? (const void *)parent : (const void *)&root_sentinel);
    return hit ? (const sd_node *)*hit : NULL;
}

int sd_ckeys_is_commented(const sd_ckeys *ck, const sd_node *node)
{
    return ck && node && sd_pmap_get(&ck->inside, node) != NULL;
}

void sd_ckeys_release(sd_ckeys *ck)
{
    for (size_t i = 0; i < ck->ndocs; i++)
        sd_doc_free(ck->docs[i]);
    free(ck->docs);
    free(ck->items);
    sd_pmap_release(&ck->by_parent);
    sd_pmap_release(&ck->inside);
    sd_arena_release(&ck->arena);
    memset(ck, 0, sizeof *ck);
}
