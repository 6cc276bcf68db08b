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

/* Ambiguity of the automaton of node `root` (anchored: no implicit .* before it). */
int sd_ecma__risk(const rp *p, int root, int anchored)
{
    static const rset univ = { NULL, 0, 0, 1 };
    nfa *a = calloc(1, sizeof *a);
    gl g;
    int n, np, risk = SD_RE_LINEAR;
    long work = 0;
    uint8_t *meet = NULL, *loop = NULL;
    int *succ = NULL, *nsucc = NULL;
    if (!a)
        return SD_RE_POLY;
    glushkov(p, root, a, &g, &univ);
    if (a->too_big) {
        free(a);
        return SD_RE_POLY;
    }
    n = a->npos + 1;
    a->label[0] = &univ;
    for (int y = 1; y < n; y++)
        a->follow[0][y] = (uint8_t)bget(&g.first, y);
    if (!anchored)
        a->follow[0][0] = 1;
    np = n * n;
    meet = malloc((size_t)np);
    succ = malloc((size_t)np * sizeof *succ);
    nsucc = calloc((size_t)n, sizeof *nsucc);
    loop = calloc((size_t)n, 1);
    int *idx = malloc((size_t)np * sizeof *idx), *low = malloc((size_t)np * sizeof *low);
    int *stk = malloc((size_t)np * sizeof *stk), *cs = malloc((size_t)np * 2 * sizeof *cs);
    int *comp = malloc((size_t)np * sizeof *comp);
    uint8_t *on = calloc((size_t)np, 1);
    if (!meet || !succ || !nsucc || !loop || !idx || !low || !stk || !cs || !comp || !on) {
        risk = SD_RE_POLY;
        goto done;
    }
    for (int x = 0; x < n; x++) {
        for (int y = 0; y < n; y++)
            meet[x * n + y] = (uint8_t)sets_meet(a->label[x], a->label[y]);
        for (int y = 0; y < n; y++)
            if (a->follow[x][y])
                succ[x * n + nsucc[x]++] = y;
    }
    /* Tarjan's SCCs of the pair graph, iteratively: (x,y) -> (x',y') when
     * x' follows x, y' follows y and their labels share a character */
    {
        int counter = 0, sp = 0, ncomp = 0;
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
                int total = nsucc[x] * nsucc[y];
                while (e < total) {
                    int x2 = succ[x * n + e / nsucc[y]], y2 = succ[y * n + e % nsucc[y]], w = x2 * n + y2;
                    e++;
                    if (++work > WORK_MAX) {
                        risk = SD_RE_EXP;   /* too big to tell: run it bounded */
                        goto done;
                    }
                    if (!meet[x2 * n + y2])
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
                        comp[w] = ncomp;
                    } while (w != v);
                    ncomp++;
                }
            }
        }
    }
    /* a state on a cycle: (x,x) has an edge back into its own component */
    for (int x = 0; x < n; x++) {
        int v = x * n + x;
        for (int i = 0; i < nsucc[x] && !loop[x]; i++)
            for (int j = 0; j < nsucc[x] && !loop[x]; j++) {
                int x2 = succ[x * n + i], y2 = succ[x * n + j];
                if (meet[x2 * n + y2] && comp[x2 * n + y2] == comp[v])
                    loop[x] = 1;
            }
    }
    /* EDA: one component holds a diagonal pair (z,z) and a pair (x,y), x != y:
     * two different paths from z back to z read the same word */
    {
        uint8_t *diag = calloc((size_t)np, 1);
        if (!diag) {
            risk = SD_RE_POLY;
            goto done;
        }
        for (int z = 0; z < n; z++)
            diag[comp[z * n + z]] = 1;
        for (int v = 0; v < np && risk < SD_RE_EXP; v++)
            if (v / n != v % n && diag[comp[v]])
                risk = SD_RE_EXP;
        /* or two parallel ways z -> z2 inside one such component: (a+)+ */
        for (int z = 0; z < n && risk < SD_RE_EXP; z++)
            for (int i = 0; i < nsucc[z]; i++) {
                int z2 = succ[z * n + i];
                if (a->follow[z][z2] > 1 && meet[z2 * n + z2] && comp[z2 * n + z2] == comp[z * n + z])
                    risk = SD_RE_EXP;
            }
        free(diag);
    }
    /* IDA (over-approximated): looping x != y with (x,x) ->* (x,y) ->* (y,y) */
    if (risk == SD_RE_LINEAR) {
        uint8_t *fwd = malloc((size_t)np), *bwd = malloc((size_t)np);
        int *q = malloc((size_t)np * sizeof *q);
        if (!fwd || !bwd || !q) {
            risk = SD_RE_POLY;
        } else {
            for (int x = 0; x < n && risk == SD_RE_LINEAR; x++) {
                int qh = 0, qt = 0;
                if (!loop[x])
                    continue;
                memset(fwd, 0, (size_t)np);
                fwd[x * n + x] = 1;
                q[qt++] = x * n + x;
                while (qh < qt) {
                    int v = q[qh++], vx = v / n, vy = v % n;
                    for (int i = 0; i < nsucc[vx]; i++)
                        for (int j = 0; j < nsucc[vy]; j++) {
                            int x2 = succ[vx * n + i], y2 = succ[vy * n + j], w = x2 * n + y2;
                            if (++work > WORK_MAX) {
                                qh = qt;
                                break;
                            }
                            if (meet[w] && !fwd[w]) {
                                fwd[w] = 1;
                                q[qt++] = w;
                            }
                        }
                }
                for (int y = 0; y < n && risk == SD_RE_LINEAR; y++) {
                    if (y == x || !loop[y] || !fwd[x * n + y])
                        continue;
                    /* from (x,y), is (y,y) reachable? */
                    memset(bwd, 0, (size_t)np);
                    qh = qt = 0;
                    bwd[x * n + y] = 1;
                    q[qt++] = x * n + y;
                    while (qh < qt && !bwd[y * n + y]) {
                        int v = q[qh++], vx = v / n, vy = v % n;
                        for (int i = 0; i < nsucc[vx]; i++)
                            for (int j = 0; j < nsucc[vy]; j++) {
                                int x2 = succ[vx * n + i], y2 = succ[vy * n + j], w = x2 * n + y2;
                                if (++work > WORK_MAX) {
                                    qh = qt;
                                    break;
                                }
                                if (meet[w] && !bwd[w]) {
                                    bwd[w] = 1;
                                    q[qt++] = w;
                                }
                            }
                    }
                    if (bwd[y * n + y])
                        risk = SD_RE_POLY;
                }
                if (work > WORK_MAX)
                    risk = SD_RE_POLY;
            }
        }
        free(fwd);
        free(bwd);
        free(q);
    }
done:
    free(meet);
    free(succ);
    free(nsucc);
    free(loop);
    free(idx);
    free(low);
    free(stk);
    free(cs);
    free(comp);
    free(on);
    free(a);
    return risk;
}

