/* SPDX-License-Identifier: Apache-2.0 */
/* gotmpl_lex.h - the token stream of a Go template (gotmpl_lex.c), read by
 * the parser (gotmpl_parse.c) and, action by action, by the lint's reading
 * of a chart's templates (helm/tmplrefs.c): one lexer for both. */
#ifndef SD_GOTMPL_LEX_H
#define SD_GOTMPL_LEX_H

#include <stddef.h>

enum gtok_type {
    GT_EOF, GT_TEXT, GT_LDELIM, GT_RDELIM, GT_SPACE,
    GT_FIELD, GT_VARIABLE, GT_IDENT, GT_DOT, GT_NIL, GT_BOOL,
    GT_NUMBER, GT_CHAR, GT_STRING, GT_RAWSTRING,
    GT_PIPE, GT_LPAREN, GT_RPAREN, GT_ASSIGN, GT_DECLARE, GT_CHARTOK,
    GT_BLOCK, GT_BREAK, GT_CONTINUE, GT_DEFINE, GT_ELSE, GT_END, GT_IF,
    GT_RANGE, GT_TEMPLATE, GT_WITH
};

/** One token: a slice of the template text (borrowed) and where it starts. */
typedef struct gtok {
    int t;
    const char *p;
    size_t n;
    int line, col;
} gtok;

/** Tokenize `n` bytes of `s`. On success *out is a malloc'd array of
 *  *count tokens ending with GT_EOF (the caller frees it) and 0 is
 *  returned; on a lexical error returns -1 with *err (malloc'd) and its
 *  position. Text tokens are already trimmed by the trim markers. */
int sd_gotmpl__lex(gtok **out, size_t *count, const char *s, size_t n,
                   char **err, int *eline, int *ecol);

/** Call `fn` with the tokens of each action of `n` bytes of `s` in turn,
 *  from its GT_LDELIM to its GT_RDELIM (text and comments are skipped; the
 *  array is reused, valid during the call only). Loose, for text Helm
 *  would refuse: an action with a lexical error is skipped up to the next
 *  "}}" and lexing goes on after it; an unclosed comment ends the text.
 *  Memory: the tokens of one action. Returns 0, -1 when out of memory, or
 *  what `fn` returned when that is not 0 (which stops the walk). */
int sd_gotmpl__lex_actions(const char *s, size_t n,
                           int (*fn)(const gtok *toks, size_t count, void *payload),
                           void *payload);

#endif
