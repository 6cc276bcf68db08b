/* ecma_re.h - what JavaScript makes of a JSON Schema `pattern`: the
 * ECMA-262 grammar with the `u` flag (the dialect JSON Schema specifies and
 * the browser's RegExp reads), the constructs that PCRE2 (which the C
 * validator matches with, through sd_regex_compile) reads differently, and
 * whether a backtracking matcher can take exponential or polynomial time on
 * it (ambiguity of the pattern's automaton).
 *
 * In: the pattern as UTF-8. Out: an sd_ecma_re report. No allocation
 * survives the call. */
#ifndef SD_ECMA_RE_H
#define SD_ECMA_RE_H

#include <stddef.h>

enum sd_re_risk {
    SD_RE_LINEAR = 0,   /* no input makes backtracking blow up */
    SD_RE_POLY,         /* some inputs take polynomial time (infinitely ambiguous, IDA) */
    SD_RE_EXP           /* some inputs take exponential time (EDA): catastrophic backtracking */
};

/* Constructs that PCRE2, as schemadoc calls it, reads differently. */
enum sd_re_differs {
    SD_RE_DIFF_CLASS_S   = 1 << 0,  /* \S inside [...]: ASCII in PCRE2, Unicode in ECMA-262 */
    SD_RE_DIFF_U_BRACE   = 1 << 1,  /* \u{...}: a code point in ECMA-262, "u" and a quantifier in PCRE2 */
    SD_RE_DIFF_BACKREF   = 1 << 2   /* a back-reference to a group that may not have matched:
                                       ECMA-262 matches the empty string, PCRE2 fails */
};

typedef struct sd_ecma_re {
    int         ok;        /* 1: ECMA-262 (u flag) accepts the pattern */
    const char *error;     /* when !ok: why (static text) */
    size_t      offset;    /* when !ok: code point offset of the problem */
    unsigned    differs;   /* enum sd_re_differs bits (when ok) */
    int         risk;      /* enum sd_re_risk (when ok) */
} sd_ecma_re;

/** 1 if ECMA-262 (u flag) accepts the `len` bytes of UTF-8 pattern `src`:
 *  the `regex` format. Syntax only, no analysis. */
int sd_ecma_re_valid(const char *src, size_t len);

/** Check `len` bytes of UTF-8 pattern `src`. Always fills `out`; returns
 *  out->ok. Patterns too large to analyse (over 4096 code points, or an
 *  automaton over 256 positions) are reported as SD_RE_POLY. */
int sd_ecma_re_check(sd_ecma_re *out, const char *src, size_t len);

#endif
