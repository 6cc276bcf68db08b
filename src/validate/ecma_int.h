/* SPDX-License-Identifier: Apache-2.0 */
/* ecma_int.h - internal to ecma_re.c (the parser) and ecma_risk.c (the
 * automaton analysis): the syntax tree of a pattern and its character sets. */
#ifndef SD_ECMA_INT_H
#define SD_ECMA_INT_H

#include <stddef.h>
#include <stdint.h>

#define SD_ECMA_UNIV 0x10FFFF
#define SD_ECMA_MAX_POS 256     /* automaton positions analysed */

/* A set of code points: sorted, merged [lo, hi] pairs; `univ`: any character
 * (what \p{...} and back-references count as). */
typedef struct rset { uint32_t *r; size_t n, cap; int univ; } rset;

enum { R_EMPTY, R_SET, R_BACKREF, R_ASSERT, R_LOOK, R_GROUP, R_REPEAT, R_CAT, R_ALT };

typedef struct rnode {
    int type;
    int kid, next, parent;   /* first child, next sibling (CAT and ALT lists), parent */
    int min, max;            /* R_REPEAT (max -1: unbounded) */
    int set;                 /* R_SET: index into sets */
    int group;               /* R_GROUP: number; R_BACKREF: number referred to (0: by name) */
    int pos;                 /* automaton position, or -1 */
    int order;               /* R_GROUP: nodes made before it closed; R_BACKREF: before it */
} rnode;

typedef struct rp {
    const uint32_t *s;
    size_t n, i;
    const char *err;
    size_t erroff;
    int ngroups, opened;
    size_t (*names)[2];      /* [start, length] of each group name, in order */
    size_t nnames;
    rnode *nodes;
    size_t nn, an;
    rset *sets;
    size_t ns, as;
    unsigned differs;
    int depth, oom;
} rp;

/* A set of automaton positions (0 is the start state), and what the
 * position automaton (Glushkov) of a subtree is made of: whether it
 * matches the empty string, its first and its last positions. */
#define SD_ECMA_W ((SD_ECMA_MAX_POS + 1 + 63) / 64)
typedef struct bits { uint64_t w[SD_ECMA_W]; } bits;
typedef struct gl { int nullable; bits first, last; } gl;

static inline void bor(bits *a, const bits *b) { for (int i = 0; i < SD_ECMA_W; i++) a->w[i] |= b->w[i]; }
static inline void bset(bits *a, int i) { a->w[i >> 6] |= 1ULL << (i & 63); }
static inline int bget(const bits *a, int i) { return (int)(a->w[i >> 6] >> (i & 63)) & 1; }

/** Parse `len` bytes of UTF-8 pattern `src` into `p` (which it clears):
 *  the root node (an R_ALT of R_CATs), or -1 with p->err set. Release `p`
 *  with sd_ecma__release() either way. */
int sd_ecma__parse(rp *p, const char *src, size_t len);
void sd_ecma__release(rp *p);

/** The backtracking risk (enum sd_re_risk) of the automaton of node `root`
 *  of parser `p`; `anchored`: no implicit .* before it. */
int sd_ecma__risk(const rp *p, int root, int anchored);

#endif
