/* SPDX-License-Identifier: Apache-2.0 */
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

/* A pattern compiled to a deterministic automaton over ASCII: linear time,
 * no backtracking, no match limit. Only patterns made of characters,
 * classes, groups, alternatives and quantifiers, with ^ only at the start
 * and $ only at the end of the alternatives, compile; a subject with a byte
 * over 0x7F is left to PCRE2. */
typedef struct sd_ecma_dfa sd_ecma_dfa;

/** The automaton of `len` bytes of UTF-8 pattern `src`, or NULL when the
 *  pattern is outside that subset, too large (over 256 positions or 1,024
 *  states) or memory ran out: then match with PCRE2. Free with
 *  sd_ecma_dfa_free(). */
sd_ecma_dfa *sd_ecma_dfa_compile(const char *src, size_t len);

/** Does the pattern match somewhere in the `n` bytes of `s` (JavaScript's
 *  RegExp.prototype.test)? 1 yes, 0 no, -1 cannot tell (a byte over 0x7F). */
int sd_ecma_dfa_match(const sd_ecma_dfa *d, const char *s, size_t n);

/** What a backtracking matcher risks on the pattern (enum sd_re_risk, as
 *  sd_ecma_re_check() says): where the validator uses the automaton and
 *  where the bounded matchers (PCRE2's limit, the browser's regex.js) stay,
 *  so that C and the browser give up on the same kind of value. */
int sd_ecma_dfa_risk(const sd_ecma_dfa *d);

void sd_ecma_dfa_free(sd_ecma_dfa *d);

#endif
