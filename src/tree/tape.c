/* SPDX-License-Identifier: Apache-2.0 */
/* tape.c - JSON text -> sd_tape (see tape.h). The grammar is json.c's; on
 * anything json.c would report, or that the tape leaves to it, the parse
 * stops with SD_ESYNTAX and the caller loads the text with json.c. */
#include "tape.h"
#include "alloc.h"
#include "buf.h"
#include "hash.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct tp {
    sd_tape *t;
    char *p, *end;
    size_t cap;
    int depth, max_depth;
} tp;

#define REFUSE SD_ESYNTAX

static int grow(tp *j)
{
    size_t cap = j->cap ? j->cap * 2 : 1024;
    sd_tval *v = realloc(j->t->v, cap * sizeof *v);
    if (!v)
        return SD_ENOMEM;
    j->t->v = v;
    j->cap = cap;
    return 0;
}

static sd_tval *push(tp *j, sd_kind k, const char *at)
{
    if (j->t->n == j->cap && grow(j))
        return NULL;
    sd_tval *v = &j->t->v[j->t->n++];
    v->head = (uint32_t)k | (uint32_t)(at - j->t->text) << 4;
    v->len = 0;
    v->u.i = 0;
    return v;
}

static void skip_ws(tp *j)
{
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\n' || *j->p == '\t' || *j->p == '\r'))
        j->p++;
}

static int string(tp *j)
{
    char *start = j->p, *p = j->p + 1;
    int simple = 1;

    for (;;) {
        if (p >= j->end) return REFUSE;
        unsigned char c = (unsigned char)*p;
        if (c == '"') break;
        if (c < 0x20) return REFUSE;
        if (c == '\\') {
            simple = 0;
            if (++p >= j->end) return REFUSE;
            if (*p == 'u') {
                unsigned cp;
                if (j->end - p < 5 || sd_hex4(p + 1, &cp)) return REFUSE;
                p += 5;
            } else if (*p && strchr("\"\\/bfnrt", *p)) {
                p++;
            } else {
                return REFUSE;
            }
            continue;
        }
        if (c < 0x80) { p++; continue; }
        size_t l = sd_utf8_len((const unsigned char *)p, (const unsigned char *)j->end);
        if (!l) return REFUSE;
        p += l;
    }
    sd_tval *v = push(j, SD_STR, start);
    if (!v) return SD_ENOMEM;
    if (simple) {
        *p = '\0';   /* the closing quote: a byte of its own column either way */
        v->u.s = start + 1;
        v->len = (uint32_t)(p - start - 1);
        j->p = p + 1;
        return 0;
    }
    /* escapes are decoded into the arena (never longer than written), so
     * the text keeps the positions sd_tape_loc() counts */
    char *out = sd_arena_alloc_raw(&j->t->arena, (size_t)(p - start));
    const char *bad = NULL;
    if (!out) return SD_ENOMEM;
    long len = sd_json_unescape(start + 1, p, out, &bad);   /* >= 0: the digits were checked above */
    *p = '\0';
    v = &j->t->v[j->t->n - 1];
    v->u.s = out;
    v->len = (uint32_t)len;
    j->p = p + 1;
    return 0;
}

static int number(tp *j)
{
    char *s = j->p, *p = s;
    int is_float = 0;

    if (*p == '-') p++;
    if (p < j->end && *p == '0') p++;
    else if (p < j->end && *p >= '1' && *p <= '9') while (p < j->end && *p >= '0' && *p <= '9') p++;
    else return REFUSE;
    if (p < j->end && *p == '.') {
        is_float = 1;
        p++;
        if (p >= j->end || !(*p >= '0' && *p <= '9')) return REFUSE;
        while (p < j->end && *p >= '0' && *p <= '9') p++;
    }
    if (p < j->end && (*p == 'e' || *p == 'E')) {
        is_float = 1;
        p++;
        if (p < j->end && (*p == '+' || *p == '-')) p++;
        if (p >= j->end || !(*p >= '0' && *p <= '9')) return REFUSE;
        while (p < j->end && *p >= '0' && *p <= '9') p++;
    }
    sd_tval *v = push(j, is_float ? SD_FLOAT : SD_INT, s);
    if (!v) return SD_ENOMEM;
    v->len = (uint32_t)(p - s);
    /* strtod and strtoll stop where the grammar did: the next byte is a
     * delimiter or the text's NUL */
    if (is_float) {
        v->u.f = strtod(s, NULL);
    } else {
        errno = 0;
        long long x = strtoll(s, NULL, 10);
        if (errno == ERANGE) {
            v->head |= SD_TAPE_BIG;
            v->u.f = strtod(s, NULL);
        } else {
            v->u.i = x;
        }
    }
    j->p = p;
    return 0;
}

static int literal(tp *j, const char *word, sd_kind k, int b)
{
    size_t n = strlen(word);
    if ((size_t)(j->end - j->p) < n || memcmp(j->p, word, n) != 0)
        return REFUSE;
    sd_tval *v = push(j, k, j->p);
    if (!v) return SD_ENOMEM;
    v->len = (uint32_t)n;
    v->u.b = b;
    j->p += n;
    return 0;
}

static int key_eq(const sd_tval *a, const sd_tval *b)
{
    return a->len == b->len && memcmp(a->u.s, b->u.s, a->len) == 0;
}

/* json.c refuses an object with a key twice: the tape leaves it to say so */
static int has_dups(tp *j, size_t first, size_t n)
{
    sd_tape *t = j->t;
    size_t keys[16], k = 0;
    if (n < 2)
        return 0;
    if (n <= 16) {
        for (size_t i = first + 1; i < t->n; i = sd_tape_next(t, i + 1)) {
            for (size_t q = 0; q < k; q++)
                if (key_eq(&t->v[keys[q]], &t->v[i]))
                    return 1;
            keys[k++] = i;
        }
        return 0;
    }
    size_t cap = 32;
    while (cap < n * 2)
        cap *= 2;
    uint32_t *tab = calloc(cap, sizeof *tab);
    if (!tab)
        return -1;
    int dup = 0;
    for (size_t i = first + 1; i < t->n && !dup; i = sd_tape_next(t, i + 1)) {
        const sd_tval *kv = &t->v[i];
        size_t h = (size_t)sd_hash_fnv(kv->u.s, kv->len) & (cap - 1);
        for (; tab[h] && !dup; h = (h + 1) & (cap - 1))
            dup = key_eq(&t->v[tab[h] - 1], kv);
        tab[h] = (uint32_t)i + 1;
    }
    free(tab);
    return dup;
}

static int value(tp *j);

static int container(tp *j, int is_obj)
{
    size_t me = j->t->n;
    uint32_t count = 0;
    int r;

    if (!push(j, is_obj ? SD_MAP : SD_SEQ, j->p))
        return SD_ENOMEM;
    if (++j->depth > j->max_depth)
        return REFUSE;
    j->p++;
    skip_ws(j);
    if (j->p < j->end && *j->p == (is_obj ? '}' : ']')) {
        j->p++;
    } else {
        for (;;) {
            skip_ws(j);
            if (is_obj) {
                if (j->p >= j->end || *j->p != '"') return REFUSE;
                if ((r = string(j))) return r;
                skip_ws(j);
                if (j->p >= j->end || *j->p != ':') return REFUSE;
                j->p++;
                skip_ws(j);
            }
            if ((r = value(j))) return r;
            count++;
            skip_ws(j);
            if (j->p < j->end && *j->p == ',') { j->p++; continue; }
            if (j->p < j->end && *j->p == (is_obj ? '}' : ']')) { j->p++; break; }
            return REFUSE;
        }
    }
    j->t->v[me].len = count;
    j->t->v[me].u.span = (uint32_t)(j->t->n - me);
    if (is_obj && (r = has_dups(j, me, count)) != 0)
        return r < 0 ? SD_ENOMEM : REFUSE;
    j->depth--;
    return 0;
}

static int value(tp *j)
{
    if (j->p >= j->end)
        return REFUSE;
    switch (*j->p) {
    case '{': return container(j, 1);
    case '[': return container(j, 0);
    case '"': return string(j);
    case 't': return literal(j, "true", SD_BOOL, 1);
    case 'f': return literal(j, "false", SD_BOOL, 0);
    case 'n': return literal(j, "null", SD_NULL, 0);
    default:
        if (*j->p == '-' || (*j->p >= '0' && *j->p <= '9'))
            return number(j);
        return REFUSE;
    }
}

int sd_tape_parse(sd_tape *t, char *text, size_t len, const char *file, int max_depth)
{
    tp j;
    int r;

    memset(t, 0, sizeof *t);
    t->text = text;
    t->text_len = len;
    t->file = file;
    if (len >= SD_TAPE_MAX_TEXT || (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0))
        return REFUSE;
    memset(&j, 0, sizeof j);
    j.t = t;
    j.p = text;
    j.end = text + len;
    j.max_depth = max_depth > 0 ? max_depth : 1000;
    skip_ws(&j);
    if (!(r = value(&j))) {
        skip_ws(&j);
        if (j.p < j.end)
            r = REFUSE;
    }
    if (r) {
        sd_tape_free(t);
        return r;
    }
    return 0;
}

/* ---- from a tree ------------------------------------------------------ */

#define FROM_MAX ((size_t)1 << 31)

static int from_push(sd_tape *t, size_t *cap, const sd_node *n)
{
    if (t->n == *cap) {
        size_t nc = *cap ? *cap * 2 : 256;
        if (nc > FROM_MAX)
            nc = FROM_MAX;
        if (t->n >= nc)
            return SD_ELIMIT;
        /* noted (alloc.h): a caller may swallow the failure, as a
         * message's "..." does, and the run must still end "out of memory" */
        sd_tval *v = realloc(t->v, nc * sizeof *v);
        if (!v) {
            sd_alloc_note_failure();
            return SD_ENOMEM;
        }
        t->v = v;
        const sd_node **s = realloc((void *)t->src, nc * sizeof *s);
        if (!s) {
            sd_alloc_note_failure();
            return SD_ENOMEM;
        }
        t->src = s;
        *cap = nc;
    }
    t->src[t->n] = n;
    memset(&t->v[t->n], 0, sizeof t->v[t->n]);
    t->n++;
    return 0;
}

static int from_node(sd_tape *t, size_t *cap, const sd_node *n)
{
    size_t me = t->n;
    int r;
    if ((r = from_push(t, cap, n)))
        return r;
    sd_tval *v = &t->v[me];
    v->head = n->kind | (n->big ? SD_TAPE_BIG : 0);
    switch ((sd_kind)n->kind) {
    case SD_BOOL: v->u.b = n->num.b; break;
    case SD_INT: if (n->big) v->u.f = n->num.f; else v->u.i = n->num.i; break;
    case SD_FLOAT: v->u.f = n->num.f; break;
    case SD_STR: v->u.s = n->str ? n->str : ""; v->len = n->str ? n->len : 0; break;
    case SD_MAP: case SD_SEQ:
        v->len = n->n;
        for (size_t i = 0; i < n->n; i++) {
            const sd_pair *p = &n->items[i];
            if (p->key) {
                size_t k = t->n;
                if ((r = from_push(t, cap, p->key)))
                    return r;
                t->v[k].head = SD_STR;
                t->v[k].u.s = p->key->str ? p->key->str : "";
                t->v[k].len = p->key->str ? p->key->len : 0;
            }
            if ((r = from_node(t, cap, p->value)))
                return r;
        }
        t->v[me].u.span = (uint32_t)(t->n - me);
        break;
    default: break;
    }
    return 0;
}

int sd_tape_from_node(sd_tape *t, const sd_node *root)
{
    size_t cap = 0;
    int r;
    memset(t, 0, sizeof *t);
    if ((r = from_node(t, &cap, root)) != 0)
        sd_tape_free(t);
    return r;
}

void sd_tape_free(sd_tape *t)
{
    free((void *)t->src);
    t->src = NULL;
    free(t->v);
    free(t->lines);
    sd_arena_release(&t->arena);
    t->v = NULL;
    t->lines = NULL;
    t->n = t->nlines = 0;
}

int sd_tape_lines(sd_tape *t)
{
    size_t n = 1;
    if (t->lines)
        return 0;
    for (const char *p = t->text; (p = memchr(p, '\n', (size_t)(t->text + t->text_len - p))); p++)
        n++;
    if (!(t->lines = malloc(n * sizeof *t->lines)))
        return SD_ENOMEM;
    t->lines[0] = 0;
    t->nlines = 1;
    for (const char *p = t->text; (p = memchr(p, '\n', (size_t)(t->text + t->text_len - p))); p++)
        t->lines[t->nlines++] = (uint32_t)(p - t->text) + 1;
    return 0;
}

sd_loc sd_tape_loc(sd_tape *t, const sd_tval *x)
{
    sd_loc l = { t->file, 0, 0 };
    uint32_t at = sd_tape_offset(x);
    size_t lo = 0, hi;

    if (t->src)
        return sd_tape_node(t, x)->loc;

    if (sd_tape_lines(t) < 0)
        return l;
    /* the last line that starts at or before `at` */
    hi = t->nlines;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->lines[mid] <= at) lo = mid;
        else hi = mid;
    }
    l.line = (int)lo + 1;
    l.column = 1;
    for (const char *p = t->text + t->lines[lo]; p < t->text + at; p++)
        if (((unsigned char)*p & 0xC0) != 0x80)
            l.column++;
    return l;
}
