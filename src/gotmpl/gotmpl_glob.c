/* SPDX-License-Identifier: Apache-2.0 */
/* gotmpl_glob.c - gobwas/glob patterns with '/' as the separator, for
 * helm-docs' .Files.Glob: `*` (any run of non-separator characters), `**`
 * (any run), `?` (one non-separator character), `[abc]`, `[a-z]`, `[!...]`,
 * `{a,b,...}` (alternatives, nested), `\x` (x itself). Characters are
 * UTF-8 runes (a byte that is not UTF-8 stands for itself alone).
 *
 * The pattern becomes a small automaton (one state per item, Thompson's
 * construction) that is run over the name with a set of current states,
 * never by backtracking: the work is at most the pattern's states times
 * the name's characters, counted against the template's step bound (the
 * backtracking matcher this replaces took minutes on `*a*a*a*a*a*b`
 * against a 200-character name). A malformed pattern (an unclosed `[` or
 * `{`, a `\` at the end, an empty class) matches nothing, as helm-docs
 * returns no files when gobwas cannot compile it. */
#include "gotmpl_int.h"

#include <stdlib.h>
#include <string.h>

enum { G_CHAR, G_ANY, G_CLASS, G_STAR, G_SUPER, G_SPLIT, G_JUMP, G_MATCH };

typedef struct gstate {
    unsigned char kind;
    unsigned char neg;        /* G_CLASS: [!...] */
    unsigned long rune;       /* G_CHAR */
    size_t range, nranges;    /* G_CLASS: ranges[range .. range + nranges) */
    int out, out2;            /* next states (-1: none); out2 for G_SPLIT */
} gstate;

struct sd_gotmpl_glob {
    gstate *st;
    size_t n, cap;
    unsigned long (*ranges)[2];
    size_t nr, rcap;
    int start;
    int bad;                  /* malformed: matches nothing */
};

/* One rune of s[*i..n), advancing *i: a UTF-8 character's code point, or
 * for a byte that starts none, 0x110000 + the byte (itself, and never a
 * character's). */
static unsigned long next_rune(const char *s, size_t n, size_t *i)
{
    const unsigned char *u = (const unsigned char *)s + *i;
    size_t len = sd_utf8_len(u, (const unsigned char *)s + n);
    unsigned long r;

    if (len == 0) {
        *i += 1;
        return 0x110000UL + u[0];
    }
    r = len == 1 ? u[0] : u[0] & (len == 2 ? 0x1Fu : len == 3 ? 0x0Fu : 0x07u);
    for (size_t k = 1; k < len; k++)
        r = (r << 6) | (u[k] & 0x3Fu);
    *i += len;
    return r;
}

static int add_state(struct sd_gotmpl_glob *g, int kind)
{
    if (g->n == g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 16;
        gstate *st = realloc(g->st, cap * sizeof *st);
        if (!st)
            return -1;
        g->st = st;
        g->cap = cap;
    }
    memset(&g->st[g->n], 0, sizeof *g->st);
    g->st[g->n].kind = (unsigned char)kind;
    g->st[g->n].out = g->st[g->n].out2 = -1;
    return (int)g->n++;
}

static int add_range(struct sd_gotmpl_glob *g, unsigned long lo, unsigned long hi)
{
    if (g->nr == g->rcap) {
        size_t cap = g->rcap ? g->rcap * 2 : 8;
        unsigned long (*r)[2] = realloc(g->ranges, cap * sizeof *r);
        if (!r)
            return -1;
        g->ranges = r;
        g->rcap = cap;
    }
    g->ranges[g->nr][0] = lo;
    g->ranges[g->nr][1] = hi;
    g->nr++;
    return 0;
}

/* A piece of automaton: its first state and the one state (a G_JUMP) its
 * exits lead to, whose `out` the next piece fills in. */
typedef struct frag { int first, last; } frag;

/* Compile p[*i..n) up to an unescaped ',' or '}' at group depth > 0 (or the
 * end) into a sequence. -1 when out of memory or malformed (g->bad). */
static int compile_seq(struct sd_gotmpl_glob *g, const char *p, size_t n, size_t *i, int depth, frag *out)
{
    int first = add_state(g, G_JUMP), last = first;
    if (first < 0)
        return -1;
    while (*i < n) {
        char ch = p[*i];
        int s;
        if (depth && (ch == ',' || ch == '}'))
            break;
        if (ch == '*') {
            int super = *i + 1 < n && p[*i + 1] == '*';
            *i += super ? 2 : 1;
            if ((s = add_state(g, super ? G_SUPER : G_STAR)) < 0)
                return -1;
        } else if (ch == '?') {
            (*i)++;
            if ((s = add_state(g, G_ANY)) < 0)
                return -1;
        } else if (ch == '[') {
            size_t j = *i + 1, from;
            int neg = j < n && p[j] == '!';
            if (neg)
                j++;
            from = g->nr;
            while (j < n && p[j] != ']') {
                unsigned long lo = next_rune(p, n, &j), hi = lo;
                if (j + 1 < n && p[j] == '-' && p[j + 1] != ']') {
                    j++;
                    hi = next_rune(p, n, &j);
                }
                if (add_range(g, lo, hi) < 0)
                    return -1;
            }
            if (j >= n || g->nr == from) {   /* unclosed, or [] / [!] */
                g->bad = 1;
                return -1;
            }
            *i = j + 1;
            if ((s = add_state(g, G_CLASS)) < 0)
                return -1;
            g->st[s].neg = (unsigned char)neg;
            g->st[s].range = from;
            g->st[s].nranges = g->nr - from;
        } else if (ch == '{') {
            /* alternatives: a chain of splits into the branches, whose
             * ends all lead to one join state */
            int join, split = -1;
            if ((join = add_state(g, G_JUMP)) < 0)
                return -1;
            (*i)++;
            for (;;) {
                frag alt;
                int sp;
                if (depth + 1 > 200) {   /* nesting: the C stack */
                    g->bad = 1;
                    return -1;
                }
                if (compile_seq(g, p, n, i, depth + 1, &alt) < 0)
                    return -1;
                g->st[alt.last].out = join;
                if ((sp = add_state(g, G_SPLIT)) < 0)
                    return -1;
                g->st[sp].out = alt.first;
                if (split < 0)
                    s = sp;
                else
                    g->st[split].out2 = sp;
                split = sp;
                if (*i >= n) {               /* unclosed */
                    g->bad = 1;
                    return -1;
                }
                if (p[(*i)++] == '}')
                    break;
            }
            g->st[last].out = s;
            last = join;
            continue;
        } else {
            unsigned long r;
            if (ch == '\\') {
                if (++*i >= n) {             /* a '\' at the end */
                    g->bad = 1;
                    return -1;
                }
            }
            r = next_rune(p, n, i);
            if ((s = add_state(g, G_CHAR)) < 0)
                return -1;
            g->st[s].rune = r;
        }
        g->st[last].out = s;
        last = s;
    }
    /* end on a G_JUMP, so that the caller has one `out` to fill in */
    if (g->st[last].kind != G_JUMP || last == first) {
        int j = add_state(g, G_JUMP);
        if (j < 0)
            return -1;
        g->st[last].out = j;
        last = j;
    }
    out->first = first;
    out->last = last;
    return 0;
}

int sd_gotmpl_glob_compile(sd_gotmpl_glob **out, const char *pattern, size_t n)
{
    struct sd_gotmpl_glob *g = calloc(1, sizeof *g);
    frag f;
    size_t i = 0;
    int m;

    *out = NULL;
    if (!g)
        return SD_ENOMEM;
    if (compile_seq(g, pattern, n, &i, 0, &f) < 0 || (m = add_state(g, G_MATCH)) < 0) {
        if (!g->bad) {
            sd_gotmpl_glob_free(g);
            return SD_ENOMEM;
        }
        g->n = 0;   /* malformed: an automaton with no states matches nothing */
    } else {
        g->st[f.last].out = m;
        g->start = f.first;
    }
    *out = g;
    return 0;
}

void sd_gotmpl_glob_free(sd_gotmpl_glob *g)
{
    if (!g)
        return;
    free(g->st);
    free(g->ranges);
    free(g);
}

/* The set of states the automaton is in: a list, and the generation in
 * which each state joined it (so joining twice is free). */
typedef struct gset { int *list; size_t n; } gset;

/* Add s and every state its empty moves reach; `stack` has room for 2n + 2
 * entries. Returns the states touched (work). */
static size_t follow(const struct sd_gotmpl_glob *g, gset *set, unsigned *seen, unsigned gen, int s, int *stack)
{
    size_t sp = 0, work = 0;
    stack[sp++] = s;
    while (sp) {
        int x = stack[--sp];
        if (x < 0 || seen[x] == gen)
            continue;
        seen[x] = gen;
        work++;
        switch (g->st[x].kind) {
        case G_JUMP:
            stack[sp++] = g->st[x].out;
            break;
        case G_SPLIT:
            stack[sp++] = g->st[x].out2;
            stack[sp++] = g->st[x].out;
            break;
        case G_STAR: case G_SUPER:
            set->list[set->n++] = x;        /* may take a character, or none: */
            stack[sp++] = g->st[x].out;
            break;
        default:
            set->list[set->n++] = x;
        }
    }
    return work;
}

static int class_has(const struct sd_gotmpl_glob *g, const gstate *s, unsigned long r)
{
    for (size_t k = 0; k < s->nranges; k++)
        if (r >= g->ranges[s->range + k][0] && r <= g->ranges[s->range + k][1])
            return !s->neg;
    return s->neg;
}

int sd_gotmpl_glob_match(const sd_gotmpl_glob *g, const char *name, size_t n, unsigned long long *work)
{
    size_t i = 0, k;
    int *buf, hit = 0;
    unsigned *seen;
    unsigned gen = 1;
    gset cur, nxt;

    if (!g->n)
        return 0;
    /* two sets of at most n states, and a stack for follow(): each state
     * seen pushes at most two */
    buf = malloc((4 * g->n + 2) * sizeof *buf);
    seen = calloc(g->n, sizeof *seen);
    if (!buf || !seen) {
        free(buf);
        free(seen);
        return SD_ENOMEM;
    }
    cur.list = buf;
    nxt.list = buf + g->n;
    cur.n = 0;
    *work += follow(g, &cur, seen, gen, g->start, buf + 2 * g->n);
    while (i < n && cur.n) {
        unsigned long r = next_rune(name, n, &i);
        nxt.n = 0;
        gen++;
        for (k = 0; k < cur.n; k++) {
            const gstate *s = &g->st[cur.list[k]];
            int to = -1;
            switch (s->kind) {
            case G_CHAR: to = s->rune == r ? s->out : -1; break;
            case G_ANY: to = r != '/' ? s->out : -1; break;
            case G_CLASS: to = class_has(g, s, r) ? s->out : -1; break;
            case G_STAR: to = r != '/' ? cur.list[k] : -1; break;
            case G_SUPER: to = cur.list[k]; break;
            default: break;
            }
            if (to >= 0)
                *work += follow(g, &nxt, seen, gen, to, buf + 2 * g->n);
        }
        *work += cur.n;
        gset t = cur;
        cur = nxt;
        nxt = t;
    }
    if (i >= n)
        for (k = 0; k < cur.n && !hit; k++)
            hit = g->st[cur.list[k]].kind == G_MATCH;
    free(buf);
    free(seen);
    return hit;
}
