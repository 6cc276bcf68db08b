/* SPDX-License-Identifier: Apache-2.0 */
/* load_tape.c - YAML text -> sd_tape straight from libyaml's events, with
 * no sd_node tree in between (issue 41: a values file validated against a
 * plain schema took 10-11 bytes per input byte as a tree copied into a
 * tape; JSON, parsed straight into one, 2.2-2.8).
 *
 * In: a values file's text (load_tape.h). Out: the tape sd_tape_from_node()
 * would make of the tree sd_doc_load_mem() builds, value for value: the
 * same kinds, typing (go-yaml v2, util/yaml_scalar.c), key order, aliases
 * (expanded, under the run's alias budget), merge keys and positions (from
 * byte offsets, as a JSON tape's; tests/unit/test_tape.c compares them).
 * Strings stay in the text where they are written as they read (a plain
 * or quoted scalar on one line without escapes): the byte after them becomes
 * their NUL; others are copied into the tape's arena. Comments are not
 * kept. Anything the loader would report, and the few things the tape does
 * not keep (load_tape.h), end the parse with SD_ESYNTAX: the caller loads
 * the file as it always has, and the loader says what is wrong. */
#include "load_tape.h"
#include "alloc.h"
#include "hash.h"
#include "load_int.h"
#include "yaml_scalar.h"

#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#define REFUSE SD_ESYNTAX
#define DEFAULT_MAX_DEPTH 1000

typedef struct yframe {
    size_t   me;        /* the container's index in the tape */
    uint64_t weight;    /* nodes, as load.c counts them for an anchor */
    uint32_t count;     /* members or items */
    int      anchor;    /* index into anchors, or -1 */
    uint8_t  is_map, want_key, merges;
} yframe;

typedef struct yanchor {
    char    *name;
    size_t   at;        /* the anchored value's index in the tape */
    uint64_t weight;
    int      done;
} yanchor;

typedef struct yp {
    sd_tape *t;
    char    *text;
    size_t   len, cap;
    size_t   ci, bi;    /* libyaml's marks count characters: the character
                           index ci starts at byte bi, on line `line`
                           (0-based) at column `col` (characters) */
    size_t   line, col;
    size_t   nl_at;     /* a line break the cursor has yet to pass that is
                           now a string's NUL, or SIZE_MAX */
    yframe  *stack;
    size_t   depth, salloc, max_depth;
    yanchor *anchors;
    size_t   nanchors, aalloc;
    uint64_t left, aliased;
    int      docs;
} yp;

/* The byte offset of mark `m` in *off. Marks arrive in order, so the
 * cursor only moves forward. REFUSE when the mark goes back, or when its
 * line and column are not where the text puts its index (libyaml moves
 * the mark of the stream's end to a line of its own): the tape's
 * positions come from offsets and must be the loader's. */
static int seek(yp *p, yaml_mark_t m, size_t *off)
{
    if (m.index < p->ci)
        return REFUSE;
    while (p->ci < m.index && p->bi < p->len) {
        unsigned char c = (unsigned char)p->text[p->bi];
        if (c == '\n' || p->bi == p->nl_at) {
            p->line++;
            p->col = 0;
        } else {
            p->col++;
        }
        p->bi += c < 0xC0 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        p->ci++;
    }
    *off = p->bi < p->len ? p->bi : p->len;
    return p->ci == m.index && p->line == m.line && p->col == m.column ? 0 : REFUSE;
}

static int reserve(yp *p, size_t more)
{
    sd_tape *t = p->t;
    if (t->n + more <= p->cap)
        return 0;
    size_t cap = p->cap ? p->cap : 1024;
    while (cap < t->n + more)
        cap *= 2;
    if (cap >= ((size_t)1 << 31))
        return REFUSE;   /* (the tree's tape refuses it too: SD_ELIMIT) */
    sd_tval *v = realloc(t->v, cap * sizeof *v);
    if (!v)
        return SD_ENOMEM;
    t->v = v;
    p->cap = cap;
    return 0;
}

static sd_tval *push(yp *p, sd_kind k, size_t at)
{
    if (reserve(p, 1))
        return NULL;
    sd_tval *v = &p->t->v[p->t->n++];
    v->head = (uint32_t)k | (uint32_t)at << 4;
    v->len = 0;
    v->u.i = 0;
    return v;
}

/* A string value or key: left in the text when the text holds it as it
 * reads (`pos`: where it would start, `nul`: the byte that becomes its
 * NUL), else copied into the tape's arena. */
static int put_string(yp *p, sd_tval *v, const char *s, size_t len, size_t pos, size_t nul, int in_place)
{
    v->len = (uint32_t)len;
    if (in_place && nul <= p->len && nul == pos + len && (unsigned char)p->text[nul] < 0x80 &&
        memcmp(p->text + pos, s, len) == 0) {
        if (p->text[nul] == '\n') {
            if (sd_tape_lines(p->t) < 0)   /* (before the first line break becomes a NUL) */
                return SD_ENOMEM;
            p->nl_at = nul;   /* (the cursor stands on it: a plain scalar's end) */
        }
        p->text[nul] = '\0';
        v->u.s = p->text + pos;
        return 0;
    }
    char *c = sd_arena_strndup(&p->t->arena, s, len);
    if (!c)
        return SD_ENOMEM;
    v->u.s = c;
    return 0;
}

/* A finished value (`w` nodes) joins the innermost collection. */
static int add(yp *p, uint64_t w)
{
    if (!p->depth)
        return 0;
    yframe *f = &p->stack[p->depth - 1];
    f->weight += w;
    if (f->is_map && (f->want_key = !f->want_key))
        f->count++;
    else if (!f->is_map)
        f->count++;
    return 0;
}

static int in_key(const yp *p)
{
    return p->depth && p->stack[p->depth - 1].is_map && p->stack[p->depth - 1].want_key;
}

static int define(yp *p, const char *name, size_t at, int done)
{
    if (sd_grow((void **)&p->anchors, &p->aalloc, p->nanchors + 1, sizeof *p->anchors))
        return SD_ENOMEM;
    yanchor *a = &p->anchors[p->nanchors];
    if (!(a->name = strdup(name)))
        return SD_ENOMEM;
    a->at = at;
    a->weight = 1;
    a->done = done;
    p->nanchors++;
    return 0;
}

static int on_scalar(yp *p, const yaml_event_t *ev)
{
    const char *s = (const char *)ev->data.scalar.value;
    size_t len = ev->data.scalar.length;
    const int key = in_key(p);
    const yaml_scalar_style_t st = ev->data.scalar.style;
    const int quoted = st == YAML_SINGLE_QUOTED_SCALAR_STYLE || st == YAML_DOUBLE_QUOTED_SCALAR_STYLE;
    const int plain = !quoted && st != YAML_LITERAL_SCALAR_STYLE && st != YAML_FOLDED_SCALAR_STYLE;
    const char *anchor = (const char *)ev->data.scalar.anchor;
    sd_yaml_scalar y = { 0 };
    int r;

    if (ev->data.scalar.tag || (anchor && key))
        return REFUSE;
    if (plain && !key)
        y = sd_yaml_scalar_read(s, len, SD_YAML_GO_V2);
    else
        y.type = SD_YAML_STR;
    /* a number's text as written is read at its offset, where an anchor
     * would be (the tree's node keeps it apart) */
    if (anchor && y.type != SD_YAML_STR)
        return REFUSE;
    size_t at, tv = p->t->n;
    sd_tval *v;
    if ((r = seek(p, ev->start_mark, &at)))
        return r;
    switch (y.type) {
    case SD_YAML_NULL: v = push(p, SD_NULL, at); break;
    case SD_YAML_BOOL: if ((v = push(p, SD_BOOL, at))) v->u.b = y.b; break;
    case SD_YAML_INT: if ((v = push(p, SD_INT, at))) v->u.i = y.i; break;
    case SD_YAML_UINT:
        if ((v = push(p, SD_INT, at))) {
            v->head |= SD_TAPE_BIG;
            v->u.f = (double)y.u;
        }
        break;
    case SD_YAML_FLOAT: if ((v = push(p, SD_FLOAT, at))) v->u.f = y.f; break;
    default: v = push(p, SD_STR, at); break;
    }
    if (!v)
        return SD_ENOMEM;
    if (sd_tape_kind(v) == SD_STR) {
        size_t end;
        const int end_ok = seek(p, ev->end_mark, &end) == 0;
        if (plain)
            r = put_string(p, v, s, len, at, end, end_ok && !anchor);
        else
            r = put_string(p, v, s, len, at + 1, end - 1, end_ok && quoted && !anchor && end > at + 1);
        if (r)
            return r;
        p->t->v[tv].head = (uint32_t)SD_STR | (uint32_t)at << 4;
        /* a merge key, as load.c's is_merge_key(): marked by a kind no key
         * has until its map ends */
        if (key && plain && len == 2 && memcmp(s, "<<", 2) == 0) {
            p->t->v[tv].head = (uint32_t)SD_NULL | (uint32_t)at << 4;
            p->stack[p->depth - 1].merges = 1;
        }
    } else {
        v->len = (uint32_t)len;   /* the text as written (a plain scalar: the value) */
    }
    if (anchor && (r = define(p, anchor, tv, 1)))
        return r;
    return add(p, 1);
}

static int on_alias(yp *p, const yaml_event_t *ev)
{
    const char *name = (const char *)ev->data.alias.anchor;
    size_t i = p->nanchors;
    int r;

    while (i-- > 0)
        if (strcmp(p->anchors[i].name, name) == 0)
            break;
    if (i == (size_t)-1 || !p->anchors[i].done || in_key(p))
        return REFUSE;
    /* load.c's limit_alias(): the weight against what the budget has left */
    uint64_t w = p->anchors[i].weight;
    if (w > p->left - p->aliased)
        return REFUSE;
    p->aliased += w;
    size_t at = p->anchors[i].at, span = sd_tape_next(p->t, at) - at;
    if ((r = reserve(p, span)))
        return r;
    memcpy(&p->t->v[p->t->n], &p->t->v[at], span * sizeof *p->t->v);
    p->t->n += span;
    return add(p, w);
}

static int on_start(yp *p, const yaml_event_t *ev, int is_map)
{
    const yaml_char_t *tag = is_map ? ev->data.mapping_start.tag : ev->data.sequence_start.tag;
    const char *anchor = (const char *)(is_map ? ev->data.mapping_start.anchor
                                               : ev->data.sequence_start.anchor);
    size_t me = p->t->n, at;
    int r;

    if (tag || in_key(p) || p->depth >= p->max_depth)
        return REFUSE;
    if ((r = seek(p, ev->start_mark, &at)))
        return r;
    if (!push(p, is_map ? SD_MAP : SD_SEQ, at))
        return SD_ENOMEM;
    if (sd_grow((void **)&p->stack, &p->salloc, p->depth + 1, sizeof *p->stack))
        return SD_ENOMEM;
    yframe *f = &p->stack[p->depth++];
    memset(f, 0, sizeof *f);
    f->me = me;
    f->weight = 1;
    f->is_map = (uint8_t)is_map;
    f->want_key = (uint8_t)is_map;
    f->anchor = -1;
    if (anchor) {
        if ((r = define(p, anchor, me, 0)))
            return r;
        f->anchor = (int)p->nanchors - 1;
    }
    return 0;
}

static int same_key(const sd_tval *a, const sd_tval *b)
{
    return a->len == b->len && memcmp(a->u.s, b->u.s, a->len) == 0;
}

/* A set of keys (tape indexes) by their text. */
typedef struct keyset {
    uint32_t *slot;
    size_t    mask;
} keyset;

static int keyset_init(keyset *ks, size_t n)
{
    size_t cap = 32;
    while (cap < n * 2)
        cap *= 2;
    ks->mask = cap - 1;
    return (ks->slot = calloc(cap, sizeof *ks->slot)) ? 0 : SD_ENOMEM;
}

/* 1 when key `k` was added, 0 when an equal key was there. */
static int keyset_add(keyset *ks, const sd_tape *t, size_t k)
{
    const sd_tval *kv = &t->v[k];
    size_t h = (size_t)sd_hash_fnv(kv->u.s, kv->len) & ks->mask;
    for (; ks->slot[h]; h = (h + 1) & ks->mask)
        if (same_key(&t->v[ks->slot[h] - 1], kv))
            return 0;
    ks->slot[h] = (uint32_t)k + 1;
    return 1;
}

/* A key twice in the map at `me` (load.c reports it: "duplicate key"). */
static int has_dups(yp *p, size_t me, uint32_t count)
{
    const sd_tape *t = p->t;
    keyset ks;
    int dup = 0;
    if (count < 2)
        return 0;
    if (count <= 16) {
        for (size_t i = me + 1; i < t->n && !dup; i = sd_tape_next(t, i + 1))
            for (size_t j = me + 1; j < i && !dup; j = sd_tape_next(t, j + 1))
                dup = same_key(&t->v[i], &t->v[j]);
        return dup;
    }
    if (keyset_init(&ks, count))
        return SD_ENOMEM;
    for (size_t i = me + 1; i < t->n && !dup; i = sd_tape_next(t, i + 1))
        dup = !keyset_add(&ks, t, i);
    free(ks.slot);
    return dup;
}

static int out_put(sd_tval **out, size_t *nout, size_t *aout, const sd_tval *v, size_t n)
{
    if (sd_grow((void **)out, aout, *nout + n, sizeof **out))
        return SD_ENOMEM;
    memcpy(*out + *nout, v, n * sizeof *v);
    *nout += n;
    return 0;
}

/* Merge keys (`<<: *base`, `<<: [*a, *b]`) as load.c's apply_merges()
 * applies them (go-yaml v2): keys written in the map win, then earlier
 * sources win over later; the members are rewritten in place (the result
 * is never longer: the sources are copies inside the map's range). */
static int merge(yp *p, yframe *f)
{
    sd_tape *t = p->t;
    const size_t me = f->me, end = t->n;
    sd_tval *out = NULL;
    size_t nout = 0, aout = 0;
    uint32_t count = 0;
    keyset ks;
    int r = 0;

    /* an anchor inside would move: left to the loader (rare) */
    if (p->nanchors && p->anchors[p->nanchors - 1].at > me)
        return REFUSE;
    if (keyset_init(&ks, (end - me) / 2 + 1))
        return SD_ENOMEM;
    for (size_t k = me + 1; k < end; k = sd_tape_next(t, k + 1))
        if (sd_tape_kind(&t->v[k]) == SD_STR)
            keyset_add(&ks, t, k);
    for (size_t k = me + 1; k < end && !r; k = sd_tape_next(t, k + 1)) {
        const size_t val = k + 1, next = sd_tape_next(t, val);
        if (sd_tape_kind(&t->v[k]) == SD_STR) {
            r = out_put(&out, &nout, &aout, &t->v[k], next - k);
            count++;
            continue;
        }
        const sd_kind vk = sd_tape_kind(&t->v[val]);
        size_t src = vk == SD_SEQ ? val + 1 : val;
        if (vk != SD_SEQ && vk != SD_MAP)
            r = REFUSE;
        for (; !r && src < next; src = vk == SD_SEQ ? sd_tape_next(t, src) : next) {
            if (sd_tape_kind(&t->v[src]) != SD_MAP) {
                r = REFUSE;
                break;
            }
            const size_t send = sd_tape_next(t, src);
            for (size_t m = src + 1; m < send && !r; m = sd_tape_next(t, m + 1)) {
                if (!keyset_add(&ks, t, m))
                    continue;   /* written in the map, or merged before */
                r = out_put(&out, &nout, &aout, &t->v[m], sd_tape_next(t, m + 1) - m);
                count++;
            }
        }
    }
    if (!r) {
        if (nout)   /* (a map of nothing but a merge of null: no pairs, out is NULL) */
            memcpy(&t->v[me + 1], out, nout * sizeof *out);
        t->n = me + 1 + nout;
        f->count = count;
    }
    free(out);
    free(ks.slot);
    return r;
}

static int on_end(yp *p)
{
    yframe *f = &p->stack[p->depth - 1];
    int r;

    if (f->is_map && (r = has_dups(p, f->me, f->count)) != 0)
        return r < 0 ? r : REFUSE;
    if (f->merges && (r = merge(p, f)))
        return r;
    p->t->v[f->me].len = f->count;
    p->t->v[f->me].u.span = (uint32_t)(p->t->n - f->me);
    if (f->anchor >= 0) {
        p->anchors[f->anchor].weight = f->weight;
        p->anchors[f->anchor].done = 1;
    }
    uint64_t w = f->weight;
    p->depth--;
    return add(p, w);
}

/* Line breaks libyaml counts that a tape's positions do not (a lone CR,
 * CRLF, NEL, LS, PS), or an encoding other than UTF-8 without a mark. */
static int plain_text(const char *text, size_t len)
{
    const unsigned char *s = (const unsigned char *)text;
    if (len >= 1 && (s[0] == 0xEF || s[0] == 0xFE || s[0] == 0xFF || s[0] == 0))
        return 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '\r')
            return 0;
        if (s[i] == 0xC2 && i + 1 < len && s[i + 1] == 0x85)
            return 0;
        if (s[i] == 0xE2 && i + 2 < len && s[i + 1] == 0x80 && (s[i + 2] == 0xA8 || s[i + 2] == 0xA9))
            return 0;
    }
    return 1;
}

int sd_load_tape_yaml(sd_tape *t, char *text, size_t len, const char *file,
                      const sd_load_limits *lim)
{
    yaml_parser_t parser;
    yaml_event_t ev;
    yp p;
    int r = 0, done = 0;

    memset(t, 0, sizeof *t);
    t->text = text;
    t->text_len = len;
    t->file = file;
    if (len >= SD_TAPE_MAX_TEXT || !plain_text(text, len))
        return REFUSE;
    memset(&p, 0, sizeof p);
    p.t = t;
    p.text = text;
    p.len = len;
    p.nl_at = SIZE_MAX;
    p.max_depth = lim && lim->max_depth > 0 ? (size_t)lim->max_depth : DEFAULT_MAX_DEPTH;
    p.left = sd_load__alias_left(lim);
    if (!yaml_parser_initialize(&parser))
        return SD_ENOMEM;
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    while (!done && !r) {
        if (!yaml_parser_parse(&parser, &ev)) {
            r = parser.error == YAML_MEMORY_ERROR ? SD_ENOMEM : REFUSE;
            break;
        }
        switch (ev.type) {
        case YAML_STREAM_END_EVENT: done = 1; break;
        case YAML_DOCUMENT_START_EVENT: r = p.docs++ ? REFUSE : 0; break;
        case YAML_SCALAR_EVENT: r = on_scalar(&p, &ev); break;
        case YAML_ALIAS_EVENT: r = on_alias(&p, &ev); break;
        case YAML_SEQUENCE_START_EVENT: r = on_start(&p, &ev, 0); break;
        case YAML_MAPPING_START_EVENT: r = on_start(&p, &ev, 1); break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT: r = on_end(&p); break;
        default: break;
        }
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&parser);
    for (size_t i = 0; i < p.nanchors; i++)
        free(p.anchors[i].name);
    free(p.anchors);
    free(p.stack);
    if (!r && t->n == 0)
        r = REFUSE;   /* no document: the loader's empty stream */
    if (r) {
        sd_tape_free(t);
        return r;
    }
    sd_load__alias_spend(p.aliased);
    return 0;
}
