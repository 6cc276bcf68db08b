/* SPDX-License-Identifier: Apache-2.0 */
/* starlark.h - the Starlark of ytt annotations (`#@schema/desc "..."`,
 * `#@schema/validation ("...", lambda v: ...)`, `#@ name = value`), read as
 * far as a schema needs it: literals become nodes of a synthetic document,
 * anything else is kept as its source text (starlark.c). */
#ifndef SD_STARLARK_H
#define SD_STARLARK_H

#include "node.h"

/** A `#@ name = value` statement of a file: a variable the annotations
 *  below it may use (seed 004: `#@schema/doc documentation`). */
typedef struct sd_star_binding {
    char    *name;
    sd_node *value;            /* a literal; NULL: not one (kept as source text) */
    int      line;             /* where the statement starts */
} sd_star_binding;

/** Every `#@ name = value` statement among the comments of `src` (`#@`
 *  lines that are no annotation), joined across continuation lines and
 *  evaluated in order: a value may use the variables assigned before it.
 *  Other statements (def, load, if, ...) are skipped. Values are nodes of
 *  `out`. *binds gets a new array of *n (free it with
 *  sd_star_bindings_free(), also on failure). Returns 0 or SD_ENOMEM. */
int sd_star_read_bindings(sd_star_binding **binds, size_t *n, sd_doc *out, const sd_doc *src);
void sd_star_bindings_free(sd_star_binding *binds, size_t n);

/** The arguments `text` (`len` bytes) of one annotation at `loc`:
 *  positional values in a new list *pos, keyword arguments in a new map
 *  *kw (nodes of `out`); names resolve to the `binds` assigned above
 *  loc.line. Returns 0, SD_ENOMEM, or SD_ESYNTAX with *why saying what was
 *  expected (a static string; NULL when the reader gave no reason). */
int sd_star_args(sd_node **pos, sd_node **kw, const char **why, const char *text, size_t len,
                 sd_doc *out, sd_loc loc, const sd_star_binding *binds, size_t nbinds);

/** 1 when `n` is source text kept as written (a lambda, a call, an
 *  unknown name), not a literal value: tagged "!starlark". */
int sd_star_is_source(const sd_node *n);

/** 1 when brackets or a triple quote are still open at the end of `t`
 *  (`n` bytes), or it ends in a `\` continuation: the statement goes on on
 *  the next `#@` line. */
int sd_star_continues(const char *t, size_t n);

#endif
