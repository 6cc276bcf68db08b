/* SPDX-License-Identifier: Apache-2.0 */
/* ecma_dfa.c - a pattern as a deterministic automaton over ASCII
 * (ecma_re.h): the pattern's position automaton (Glushkov), with counted
 * repetitions written out (x{2,4} is x x x? x?), made deterministic by the
 * subset construction over classes of bytes that no position tells apart.
 * Matching is then one table lookup a byte: linear, no backtracking, which
 * is what most schema patterns (names, labels, versions) need.
 *
 * Semantics are those of JavaScript's RegExp.prototype.test with the `u`
 * flag on an ASCII subject: a pattern not anchored by ^ may start anywhere
 * (position 0, the start, stays in every state); one not anchored by $
 * matches as soon as a position that may end the pattern is reached. */
#include "ecma_re.h"
#include "ecma_int.h"

#include <stdlib.h>
#include <string.h>

#define MAXP SD_ECMA_MAX_POS    /* positions, besides the start */
#define MAXS 1024               /* states */
#define MAX_WORK 100000         /* syntax nodes visited while writing out repetitions */
#define W SD_ECMA_W

static int bmeet(const bits *a, const bits *b)
{
    for (int i = 0; i < W; i++)
        if (a->w[i] & b->w[i])
            return 1;
    return 0;
}

typedef struct build {
    const rp *p;
    int npos, fail;
    long work;
    uint64_t lab[MAXP + 1][2];      /* the ASCII characters of each position */
    bits follow[MAXP + 1];
} build;

struct sd_ecma_dfa {
    int ncls;
    int risk;                       /* enum sd_re_risk of the pattern */
    uint8_t cls[128];               /* byte -> class */
    uint8_t *stop;                  /* per state: 0 go on, 1 match, 2 no match */
    uint8_t *acc;                   /* per state: a match if the subject ends here */
    uint16_t *next;                 /* [state * ncls + class] */
};

static void link(build *b, const bits *from, const bits *to)
{
    for (int x = 0; x <= b->npos; x++)
        if (bget(from, x))
            bor(&b->follow[x], to);
}

/* out = out followed by k */
static void cat(build *b, gl *out, const gl *k)
{
    link(b, &out->last, &k->first);
    if (out->nullable)
        bor(&out->first, &k->first);
    if (k->nullable)
        bor(&out->last, &k->last);
    else
        out->last = k->last;
    out->nullable = out->nullable && k->nullable;
}

static void positions(build *b, int x, gl *out)
{
    const rnode *nd = &b->p->nodes[x];
    memset(out, 0, sizeof *out);
    if (b->fail || ++b->work > MAX_WORK) {
        b->fail = 1;
        return;
    }
    switch (nd->type) {
    case R_SET: {
        const rset *s = &b->p->sets[nd->set];
        int q;
        /* \p{...}: not known here. [] (no character): PCRE2 10.42 fails
         * []* and []? on the empty string, which ECMA-262 matches; the
         * validator must answer as it did, so PCRE2 keeps such patterns */
        if (s->univ || s->n == 0 || b->npos >= MAXP) {
            b->fail = 1;
            return;
        }
        q = ++b->npos;
        for (size_t i = 0; i < s->n; i += 2)
            for (uint32_t c = s->r[i]; c <= s->r[i + 1] && c < 128; c++)
                b->lab[q][c >> 6] |= 1ULL << (c & 63);
        bset(&out->first, q);
        bset(&out->last, q);
        return;
    }
    case R_EMPTY:
        out->nullable = 1;
        return;
    case R_GROUP:
        positions(b, nd->kid, out);
        return;
    case R_REPEAT: {
        gl k;
        out->nullable = 1;
        for (int i = 0; i < nd->min && !b->fail; i++) {
            positions(b, nd->kid, &k);
            cat(b, out, &k);
        }
        if (nd->max < 0) {
            positions(b, nd->kid, &k);
            link(b, &k.last, &k.first);
            k.nullable = 1;
            cat(b, out, &k);
        }
        for (int i = nd->min; i < nd->max && !b->fail; i++) {
            positions(b, nd->kid, &k);
            k.nullable = 1;
            cat(b, out, &k);
        }
        return;
    }
    case R_CAT:
        out->nullable = 1;
        for (int c = nd->kid; c >= 0 && !b->fail; c = b->p->nodes[c].next) {
            gl k;
            positions(b, c, &k);
            cat(b, out, &k);
        }
        return;
    case R_ALT:
        for (int c = nd->kid; c >= 0 && !b->fail; c = b->p->nodes[c].next) {
            gl k;
            positions(b, c, &k);
            bor(&out->first, &k.first);
            bor(&out->last, &k.last);
            out->nullable = out->nullable || k.nullable;
        }
        return;
    default:    /* assertions, lookarounds and back-references */
        b->fail = 1;
        return;
    }
}

/* The whole pattern: an alternation whose branches may start with ^ and
 * end with $, all of them alike. */
static int top(build *b, int root, gl *out, int *start_anchored, int *end_anchored)
{
    const rp *p = b->p;
    int first = 1;
    memset(out, 0, sizeof *out);
    if (p->nodes[root].type != R_ALT)
        return -1;
    for (int br = p->nodes[root].kid; br >= 0; br = p->nodes[br].next) {
        const rnode *bn = &p->nodes[br];
        int lo = bn->kid, hi = -1, sa = 0, ea = 0;
        gl g;
        if (bn->type != R_CAT)
            return -1;
        for (int c = bn->kid; c >= 0; c = p->nodes[c].next)
            hi = c;
        if (lo >= 0 && p->nodes[lo].type == R_ASSERT && p->nodes[lo].group == '^') {
            sa = 1;
            lo = p->nodes[lo].next;
        }
        if (hi >= 0 && p->nodes[hi].type == R_ASSERT && p->nodes[hi].group == '$' && (sa ? hi != bn->kid : 1)) {
            ea = 1;
        } else
            hi = -1;
        if (first) {
            *start_anchored = sa;
            *end_anchored = ea;
            first = 0;
        } else if (sa != *start_anchored || ea != *end_anchored)
            return -1;
        memset(&g, 0, sizeof g);
        g.nullable = 1;
        for (int c = lo; c >= 0 && c != hi && !b->fail; c = p->nodes[c].next) {
            gl k;
            positions(b, c, &k);
            cat(b, &g, &k);
        }
        bor(&out->first, &g.first);
        bor(&out->last, &g.last);
        out->nullable = out->nullable || g.nullable;
    }
    return b->fail ? -1 : 0;
}

typedef struct states {
    bits *set;
    int n;
    int *slot;        /* open addressing: state + 1, or 0 */
    unsigned nslot;
} states;

static unsigned hash_bits(const bits *s)
{
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < W; i++)
        h = (h ^ s->w[i]) * 0x100000001B3ULL;
    return (unsigned)(h ^ h >> 29);
}

/* the state of `s`, made if new; -1 when there would be too many */
static int state_of(states *st, const bits *s)
{
    unsigned i = hash_bits(s) & (st->nslot - 1);
    for (; st->slot[i]; i = (i + 1) & (st->nslot - 1))
        if (!memcmp(&st->set[st->slot[i] - 1], s, sizeof *s))
            return st->slot[i] - 1;
    if (st->n >= MAXS)
        return -1;
    st->set[st->n] = *s;
    st->slot[i] = ++st->n;
    return st->n - 1;
}

static sd_ecma_dfa *determinise(build *b, const gl *g, int sa, int ea)
{
    states st = { 0 };
    bits cmask[128], accept = g->last;
    int ncls = 0, ok = 1;
    uint16_t *next = NULL;
    uint8_t cls[128];
    sd_ecma_dfa *d = NULL;

    /* classes of bytes: the same positions accept them */
    for (int c = 0; c < 128; c++) {
        bits sig;
        int k;
        memset(&sig, 0, sizeof sig);
        for (int q = 1; q <= b->npos; q++)
            if (b->lab[q][c >> 6] >> (c & 63) & 1)
                bset(&sig, q);
        for (k = 0; k < ncls && memcmp(&cmask[k], &sig, sizeof sig); k++)
            ;
        if (k == ncls)
            cmask[ncls++] = sig;
        cls[c] = (uint8_t)k;
    }
    if (g->nullable)
        bset(&accept, 0);
    st.nslot = 2 * MAXS;
    st.set = malloc(MAXS * sizeof *st.set);
    st.slot = calloc(st.nslot, sizeof *st.slot);
    next = malloc((size_t)MAXS * (size_t)ncls * sizeof *next);
    if (!st.set || !st.slot || !next)
        goto out;
    {
        bits s0;
        memset(&s0, 0, sizeof s0);
        bset(&s0, 0);
        state_of(&st, &s0);
    }
    for (int i = 0; i < st.n && ok; i++) {
        bits reach;
        memset(&reach, 0, sizeof reach);
        for (int q = 0; q <= b->npos; q++)
            if (bget(&st.set[i], q))
                bor(&reach, &b->follow[q]);
        for (int k = 0; k < ncls; k++) {
            bits t;
            int to;
            for (int w = 0; w < W; w++)
                t.w[w] = reach.w[w] & cmask[k].w[w];
            if (!sa)
                bset(&t, 0);
            if ((to = state_of(&st, &t)) < 0) {
                ok = 0;
                break;
            }
            next[i * ncls + k] = (uint16_t)to;
        }
    }
    if (!ok)
        goto out;
    if (!(d = calloc(1, sizeof *d + 2 * (size_t)st.n)))
        goto out;
    d->ncls = ncls;
    memcpy(d->cls, cls, sizeof cls);
    d->stop = (uint8_t *)(d + 1);
    d->acc = d->stop + st.n;
    for (int i = 0; i < st.n; i++) {
        static const bits none;
        d->acc[i] = (uint8_t)bmeet(&st.set[i], &accept);
        if (!ea && d->acc[i])
            d->stop[i] = 1;
        else if (!memcmp(&st.set[i], &none, sizeof none))
            d->stop[i] = 2;
    }
    d->next = realloc(next, (size_t)st.n * (size_t)ncls * sizeof *next);
    if (!d->next)
        d->next = next;
    next = NULL;
out:
    free(next);
    free(st.set);
    free(st.slot);
    return d;
}

sd_ecma_dfa *sd_ecma_dfa_compile(const char *src, size_t len)
{
    rp p;
    build *b;
    gl g;
    int sa = 0, ea = 0, root = sd_ecma__parse(&p, src, len);
    sd_ecma_dfa *d = NULL;
    if (root < 0 || p.differs || !(b = calloc(1, sizeof *b))) {
        sd_ecma__release(&p);
        return NULL;
    }
    b->p = &p;
    if (top(b, root, &g, &sa, &ea) == 0) {
        b->follow[0] = g.first;
        if ((d = determinise(b, &g, sa, ea)))
            d->risk = p.n > 4096 ? SD_RE_POLY : sd_ecma__risk(&p, root, sa);   /* as ecma_re.c */
    }
    free(b);
    sd_ecma__release(&p);
    return d;
}

int sd_ecma_dfa_match(const sd_ecma_dfa *d, const char *s, size_t n)
{
    const uint8_t *cls = d->cls, *stop = d->stop;
    const uint16_t *next = d->next;
    unsigned st = 0, ncls = (unsigned)d->ncls;
    if (stop[0])
        return stop[0] == 1;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x80)
            return -1;
        st = next[st * ncls + cls[c]];
        if (stop[st])
            return stop[st] == 1;
    }
    return d->acc[st];
}

int sd_ecma_dfa_risk(const sd_ecma_dfa *d)
{
    return d->risk;
}

void sd_ecma_dfa_free(sd_ecma_dfa *d)
{
    if (d)
        free(d->next);
    free(d);
}
