/* SPDX-License-Identifier: Apache-2.0 */
/* ecma_risk.c - how long a backtracking matcher can take on a pattern
 * (ecma_re.h): the pattern's position automaton (Glushkov), with the
 * number of ways between positions kept, and its product with itself.
 * Exponential (EDA): one component of the product holds a pair (z,z) and
 * either a pair (x,y), x != y, or two parallel ways between diagonal pairs,
 * so two different paths lead from z back to z on the same word.
 * Polynomial (IDA): a looping state x can hand over to another looping
 * state y on a word both loop on; tested on pairs, not triples, which
 * over-approximates (Weideman et al., "Analyzing matching time behavior of
 * backtracking regular expression matchers by using ambiguity of NFA",
 * 2016). Over-approximation only makes a pattern run bounded needlessly. */
#include "ecma_re.h"
#include "ecma_int.h"

#include <stdlib.h>
#include <string.h>

#define MAX_POS SD_ECMA_MAX_POS
#define WORK_MAX 20000000L   /* pair-graph edges looked at, at most */

static int sets_meet(const rset *a, const rset *b)
{
    size_t i = 0, j = 0;
    if (a->univ || b->univ)
        return 1;
    while (i < a->n && j < b->n) {
        if (a->r[i + 1] < b->r[j])
            i += 2;
        else if (b->r[j + 1] < a->r[i])
            j += 2;
        else
            return 1;
    }
    return 0;
}


typedef struct nfa {
    int npos;                 /* states 1..npos are positions, 0 is the start */
    const rset *label[MAX_POS + 1];
    uint8_t follow[MAX_POS + 1][MAX_POS + 1];  /* ways from one to the next: 0, 1, 2 (or more) */
    int too_big;
} nfa;

/* one more way from every position of `from` to every position of `to` */
static void link(nfa *a, const bits *from, const bits *to)
{
    for (int x = 0; x <= a->npos; x++)
        if (bget(from, x))
            for (int y = 1; y <= a->npos; y++)
                if (bget(to, y) && a->follow[x][y] < 2)
                    a->follow[x][y]++;
}


static void glushkov(const rp *p, int x, nfa *a, gl *out, const rset *univ)
{
    const rnode *nd = &p->nodes[x];
    memset(out, 0, sizeof *out);
    switch (nd->type) {
    case R_SET: case R_BACKREF: {
        if (a->npos >= MAX_POS) {
            a->too_big = 1;
            out->nullable = 1;
            return;
        }
        int q = ++a->npos;
        a->label[q] = nd->type == R_SET ? &p->sets[nd->set] : univ;
        bset(&out->first, q);
        bset(&out->last, q);
        if (nd->type == R_BACKREF) {    /* any string: loops on itself */
            out->nullable = 1;
            a->follow[q][q] = 1;
        }
        return;
    }
    case R_EMPTY: case R_ASSERT: case R_LOOK:
        out->nullable = 1;
        return;
    case R_GROUP:
        glushkov(p, nd->kid, a, out, univ);
        return;
    case R_REPEAT: {
        gl k;
        if (nd->max == 0) {
            out->nullable = 1;
            return;
        }
        glushkov(p, nd->kid, a, &k, univ);
        *out = k;
        out->nullable = k.nullable || nd->min == 0;
        if (nd->max < 0 || nd->max > 1)
            link(a, &k.last, &k.first);
        return;
    }
    case R_CAT: {
        out->nullable = 1;
        for (int c = nd->kid; c >= 0; c = p->nodes[c].next) {
            gl k;
            glushkov(p, c, a, &k, univ);
            link(a, &out->last, &k.first);
            if (out->nullable)
                bor(&out->first, &k.first);
            if (k.nullable)
                bor(&out->last, &k.last);
            else
                out->last = k.last;
            out->nullable = out->nullable && k.nullable;
        }
        return;
    }
    default: {  /* R_ALT */
        out->nullable = 0;
        for (int c = nd->kid; c >= 0; c = p->nodes[c].next) {
            gl k;
            glushkov(p, c, a, &k, univ);
            bor(&out->first, &k.first);
            bor(&out->last, &k.last);
            out->nullable = out->nullable || k.nullable;
        }
        return;
    }
    }
}

/* The product of the automaton with itself, as far as the risk needs it:
 * a pair (x,y) is the state x * n + y; (x,y) -> (x',y') when x' follows x,
 * y' follows y and their labels share a character. */
typedef struct pairs {
    const nfa *a;
    int        n, np;
    uint8_t   *meet;     /* [x * n + y]: the labels of x and y share a character */
    int       *succ;     /* [x * n + i]: the i-th state that follows x */
    int       *nsucc;    /* [x]: how many follow x */
    int       *comp;     /* [pair]: its strongly connected component */
    uint8_t   *loop;     /* [x]: x is on a cycle of the product's diagonal */
    long       work;     /* pair-graph edges looked at (at most WORK_MAX) */
} pairs;

/* Tarjan's SCCs of the pair graph, iteratively, into g->comp. Returns
 * SD_RE_LINEAR, SD_RE_EXP when the graph is too big to tell (run it
 * bounded), SD_RE_POLY when out of memory. */
static int pair_components(pairs *g)
{
    int n = g->n, np = g->np, risk = SD_RE_LINEAR;
    int *idx = malloc((size_t)np * sizeof *idx), *low = malloc((size_t)np * sizeof *low);
    int *stk = malloc((size_t)np * sizeof *stk), *cs = malloc((size_t)np * 2 * sizeof *cs);
    uint8_t *on = calloc((size_t)np, 1);
    int counter = 0, sp = 0, ncomp = 0;

    if (!idx || !low || !stk || !cs || !on) {
        risk = SD_RE_POLY;
        goto done;
    }
    for (int v = 0; v < np; v++)
        idx[v] = -1;
    for (int root_v = 0; root_v < np; root_v++) {
        int csp = 0;
        if (idx[root_v] >= 0)
            continue;
        cs[csp++] = root_v;
        cs[csp++] = 0;
        idx[root_v] = low[root_v] = counter++;
        stk[sp++] = root_v;
        on[root_v] = 1;
        while (csp) {
            int v = cs[csp - 2], e = cs[csp - 1], x = v / n, y = v % n, pushed = 0;
            int total = g->nsucc[x] * g->nsucc[y];
            while (e < total) {
                int x2 = g->succ[x * n + e / g->nsucc[y]], y2 = g->succ[y * n + e % g->nsucc[y]], w = x2 * n + y2;
                e++;
                if (++g->work > WORK_MAX) {
                    risk = SD_RE_EXP;   /* too big to tell: run it bounded */
                    goto done;
                }
                if (!g->meet[x2 * n + y2])
                    continue;
                if (idx[w] < 0) {
                    cs[csp - 1] = e;
                    idx[w] = low[w] = counter++;
                    stk[sp++] = w;
                    on[w] = 1;
                    cs[csp++] = w;
                    cs[csp++] = 0;
                    pushed = 1;
                    break;
                } else if (on[w] && idx[w] < low[v]) {
                    low[v] = idx[w];
                }
            }
            if (pushed)
                continue;
            csp -= 2;
            if (csp && low[v] < low[cs[csp - 2]])
                low[cs[csp - 2]] = low[v];
            if (low[v] == idx[v]) {
                int w;
                do {
                    w = stk[--sp];
                    on[w] = 0;
                    g->comp[w] = ncomp;
                } while (w != v);
                ncomp++;
            }
        }
    }
done:
    free(idx);
    free(low);
    free(stk);
    free(cs);
    free(on);
    return risk;
}

/* A state on a cycle: (x,x) has an edge back into its own component. */
static void mark_loops(pairs *g)
{
    int n = g->n;
    for (int x = 0; x < n; x++) {
        int v = x * n + x;
        for (int i = 0; i < g->nsucc[x] && !g->loop[x]; i++)
            for (int j = 0; j < g->nsucc[x] && !g->loop[x]; j++) {
                int x2 = g->succ[x * n + i], y2 = g->succ[x * n + j];
                if (g->meet[x2 * n + y2] && g->comp[x2 * n + y2] == g->comp[v])
                    g->loop[x] = 1;
            }
    }
}

/* EDA: one component holds a diagonal pair (z,z) and a pair (x,y), x != y:
 * two different paths from z back to z read the same word; or two parallel
 * ways z -> z2 inside one such component: (a+)+. SD_RE_EXP or
 * SD_RE_LINEAR (SD_RE_POLY when out of memory). */
static int exponential(const pairs *g)
{
    int n = g->n, np = g->np, risk = SD_RE_LINEAR;
    uint8_t *diag = calloc((size_t)np, 1);
    if (!diag)
        return SD_RE_POLY;
    for (int z = 0; z < n; z++)
        diag[g->comp[z * n + z]] = 1;
    for (int v = 0; v < np && risk < SD_RE_EXP; v++)
        if (v / n != v % n && diag[g->comp[v]])
            risk = SD_RE_EXP;
    for (int z = 0; z < n && risk < SD_RE_EXP; z++)
        for (int i = 0; i < g->nsucc[z]; i++) {
            int z2 = g->succ[z * n + i];
            if (g->a->follow[z][z2] > 1 && g->meet[z2 * n + z2] && g->comp[z2 * n + z2] == g->comp[z * n + z])
                risk = SD_RE_EXP;
        }
    free(diag);
    return risk;
}

/* Mark in `seen` every pair reachable from `from` in the pair graph (`q`:
 * room for np pairs), stopping once `stop` is reached (-1: never) or the
 * work runs out. */
static void reach(pairs *g, int from, int stop, uint8_t *seen, int *q)
{
    int n = g->n, qh = 0, qt = 0;
    memset(seen, 0, (size_t)g->np);
    seen[from] = 1;
    q[qt++] = from;
    while (qh < qt && !(stop >= 0 && seen[stop])) {
        int v = q[qh++], vx = v / n, vy = v % n;
        for (int i = 0; i < g->nsucc[vx]; i++)
            for (int j = 0; j < g->nsucc[vy]; j++) {
                int x2 = g->succ[vx * n + i], y2 = g->succ[vy * n + j], w = x2 * n + y2;
                if (++g->work > WORK_MAX) {
                    qh = qt;
                    break;
                }
                if (g->meet[w] && !seen[w]) {
                    seen[w] = 1;
                    q[qt++] = w;
                }
            }
    }
}

/* IDA (over-approximated): looping x != y with (x,x) ->* (x,y) ->* (y,y).
 * SD_RE_POLY or SD_RE_LINEAR. */
static int polynomial(pairs *g)
{
    int n = g->n, np = g->np, risk = SD_RE_LINEAR;
    uint8_t *fwd = malloc((size_t)np), *bwd = malloc((size_t)np);
    int *q = malloc((size_t)np * sizeof *q);
    if (!fwd || !bwd || !q) {
        risk = SD_RE_POLY;
        goto done;
    }
    for (int x = 0; x < n && risk == SD_RE_LINEAR; x++) {
        if (!g->loop[x])
            continue;
        reach(g, x * n + x, -1, fwd, q);
        for (int y = 0; y < n && risk == SD_RE_LINEAR; y++) {
            if (y == x || !g->loop[y] || !fwd[x * n + y])
                continue;
            /* from (x,y), is (y,y) reachable? */
            reach(g, x * n + y, y * n + y, bwd, q);
            if (bwd[y * n + y])
                risk = SD_RE_POLY;
        }
        if (g->work > WORK_MAX)
            risk = SD_RE_POLY;
    }
done:
    free(fwd);
    free(bwd);
    free(q);
    return risk;
}

/* Ambiguity of the automaton of node `root` (anchored: no implicit .* before it). */
int sd_ecma__risk(const rp *p, int root, int anchored)
{
    static const rset univ = { NULL, 0, 0, 1 };
    nfa *a = calloc(1, sizeof *a);
    pairs g;
    gl first;
    int n, risk;
    if (!a)
        return SD_RE_POLY;
    glushkov(p, root, a, &first, &univ);
    if (a->too_big) {
        free(a);
        return SD_RE_POLY;
    }
    n = a->npos + 1;
    a->label[0] = &univ;
    for (int y = 1; y < n; y++)
        a->follow[0][y] = (uint8_t)bget(&first.first, y);
    if (!anchored)
        a->follow[0][0] = 1;
    memset(&g, 0, sizeof g);
    g.a = a;
    g.n = n;
    g.np = n * n;
    g.meet = malloc((size_t)g.np);
    g.succ = malloc((size_t)g.np * sizeof *g.succ);
    g.nsucc = calloc((size_t)n, sizeof *g.nsucc);
    g.loop = calloc((size_t)n, 1);
    g.comp = malloc((size_t)g.np * sizeof *g.comp);
    if (!g.meet || !g.succ || !g.nsucc || !g.loop || !g.comp) {
        risk = SD_RE_POLY;
        goto done;
    }
    for (int x = 0; x < n; x++) {
        for (int y = 0; y < n; y++)
            g.meet[x * n + y] = (uint8_t)sets_meet(a->label[x], a->label[y]);
        for (int y = 0; y < n; y++)
            if (a->follow[x][y])
                g.succ[x * n + g.nsucc[x]++] = y;
    }
    if ((risk = pair_components(&g)) != SD_RE_LINEAR)
        goto done;
    mark_loops(&g);
    if ((risk = exponential(&g)) == SD_RE_LINEAR)
        risk = polynomial(&g);
done:
    free(g.meet);
    free(g.succ);
    free(g.nsucc);
    free(g.loop);
    free(g.comp);
    free(a);
    return risk;
}
