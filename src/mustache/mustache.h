/* SPDX-License-Identifier: Apache-2.0 */
/* mustache.h - Mustache templates: compile text once into a tree, render it
 * many times over a JSON value (sd_val, val.h).
 *
 * Follows the Mustache spec (github.com/mustache/spec): interpolation,
 * sections, inverted sections, comments, set-delimiter, partials, and the
 * optional modules ~inheritance ({{<parent}}, {{$block}}) and
 * ~dynamic-names ({{>*name}}). Lambdas do not apply: the data is JSON.
 *
 * Falsey values are false, null, the empty array and a missing name; every
 * other value (including "" and 0) is truthy. {{x}} escapes & < > " (the
 * spec's set); {{{x}}} and {{&x}} do not escape. Data is never re-parsed as
 * template text. Errors are diagnostics "NAME:LINE:COL: error: message",
 * where NAME is the name given to sd_mustache_compile(). */
#ifndef SD_MUSTACHE_H
#define SD_MUSTACHE_H

#include "buf.h"
#include "diag.h"
#include "sd.h"

#include "val.h"
#include <stddef.h>

/** Partial, parent and section nesting is bounded by these (SD_ELIMIT). */
#define SD_MUSTACHE_MAX_DEPTH   100   /* nested partials and parents while rendering */
#define SD_MUSTACHE_MAX_NESTING 200   /* nested sections and blocks inside one template */
#define SD_MUSTACHE_MAX_STACK   2000  /* all of them together while rendering */
#define SD_MUSTACHE_MAX_EXPANSIONS 10000000UL /* partials rendered by one render call */

typedef struct sd_mustache sd_mustache;                   /* a compiled template */
typedef struct sd_mustache_partials sd_mustache_partials; /* partials by name */

/** Compile `len` bytes of `text`. `name` (copied) names the template in
 *  diagnostics, usually its file name. On success *out is a new template that
 *  the caller frees with sd_mustache_free(); on failure *out is NULL, the
 *  return value is SD_ESYNTAX (or SD_ENOMEM, SD_ELIMIT) and `diags` holds one
 *  error with the line and column of the offending tag. */
int sd_mustache_compile(sd_mustache **out, const char *name, const char *text,
                        size_t len, sd_diags *diags);
/** Free a compiled template; NULL is allowed. */
void sd_mustache_free(sd_mustache *t);
/** Borrowed: the name given to sd_mustache_compile(), valid until the free. */
const char *sd_mustache_name(const sd_mustache *t);

/** Append the rendering of `t` over `data` to `out`. `partials` may be NULL
 *  (then every partial renders as nothing, the spec's unknown partial). `data` is borrowed and not modified.
 *  Returns 0, or a negative code with a diagnostic in `diags`: SD_ENOTFOUND
 *  (unknown partial in a strict registry), SD_ESYNTAX (a partial does not
 *  compile), SD_EDENIED (a partial name leaves the search path), SD_ELIMIT
 *  (nesting deeper than SD_MUSTACHE_MAX_DEPTH or SD_MUSTACHE_MAX_STACK, more
 *  than SD_MUSTACHE_MAX_EXPANSIONS partials, or `out` reached its cap),
 *  SD_ENOMEM. On failure `out` holds a partial rendering. */
int sd_mustache_render(sd_buf *out, const sd_mustache *t, sd_val *data,
                       sd_mustache_partials *partials, sd_diags *diags);

/* --- partials ---------------------------------------------------------------
 * A registry compiles each partial once and keeps it until freed. A name is
 * looked up first among the templates added from memory, then as
 * DIR/NAME.mustache in each directory, in the order they were added (theme
 * directory first, then templates/). NAME may contain '/' for
 * subdirectories, but never an empty, "." or ".." segment, a leading '/',
 * or a backslash; a file that resolves (through symbolic links) outside its
 * directory is refused too (SD_EDENIED). */

enum sd_mustache_flags {
    /** An unknown partial or parent is an error (SD_ENOTFOUND) instead of the
     *  spec's empty string. A dynamic name that resolves to nothing still
     *  renders nothing, as the spec asks. */
    SD_MUSTACHE_STRICT = 1 << 0,
    /** Without STRICT: an unknown partial or parent still renders as the
     *  spec's empty string (its "Failed Lookup"), and a warning names it
     *  (once per name). `schemadoc template` runs so; themes are strict. */
    SD_MUSTACHE_WARN = 1 << 1
};

/** Start an empty registry; *out is freed with sd_mustache_partials_free().
 *  Returns 0 or SD_ENOMEM. */
int sd_mustache_partials_new(sd_mustache_partials **out, unsigned flags);
/** How {{x}} escapes a value: append `n` bytes of `s` to `b`, escaped. */
typedef void (*sd_mustache_escape_fn)(sd_buf *b, const char *s, size_t n);
/** Make {{x}} escape with `esc` instead of HTML's & < > " in every render
 *  that uses this registry (an output format's own escaping); NULL: HTML
 *  again. Nothing is allocated. */
void sd_mustache_partials_set_escape(sd_mustache_partials *p, sd_mustache_escape_fn esc);
/** The registry's escape function, or NULL for HTML's (borrowed; static). */
sd_mustache_escape_fn sd_mustache_partials_escape(const sd_mustache_partials *p);
/** Free the registry and every partial compiled through it; NULL is allowed. */
void sd_mustache_partials_free(sd_mustache_partials *p);
/** Add `dir` (copied) to the end of the search path. Returns 0 or SD_ENOMEM. */
int sd_mustache_partials_add_dir(sd_mustache_partials *p, const char *dir);
/** Compile `text` as the partial `name` (both copied); it shadows any file
 *  of that name. Returns 0 or the sd_mustache_compile() error. */
int sd_mustache_partials_add(sd_mustache_partials *p, const char *name,
                             const char *text, size_t len, sd_diags *diags);
/** Find, load and compile the partial `name`. Returns 0 with *out borrowed
 *  from the registry (valid until it is freed) or NULL when not found;
 *  or SD_EDENIED / SD_ESYNTAX / SD_EIO / SD_ENOMEM with a diagnostic at
 *  `loc` (or in the partial's own file for syntax errors). */
int sd_mustache_partials_get(const sd_mustache **out, sd_mustache_partials *p,
                             const char *name, sd_loc loc, sd_diags *diags);
/** Load every partial and parent that `t` names statically, and theirs in
 *  turn, so that an unknown or broken one is reported before any output is
 *  produced, whatever the data. Dynamic names ({{>*x}}) are not followed.
 *  Returns 0 or the first error (strict registries report unknown names). */
int sd_mustache_partials_preload(sd_mustache_partials *p, const sd_mustache *t,
                                 sd_diags *diags);

/** 1 when rendering `t` (with the partials of `p`, which may be NULL) may
 *  read the member `name` of the data's top level: a tag names it (as any
 *  part of a dotted name), an implicit iterator {{.}} outside every section
 *  prints the whole data, or a dynamic partial or parent could lead
 *  anywhere; also when a partial fails to load (the render reports it).
 *  0 when no render of `t` can. Loads the partials it follows. */
int sd_mustache_may_read(const sd_mustache *t, sd_mustache_partials *p, const char *name);

/* --- internal, shared with mustache_partials.c ------------------------------ */

/** Call `fn` for every partial and parent tag of `t` with a static name, in
 *  template order, with the tag's position; stops at the first negative
 *  return and returns it. */
int sd_mustache__each_partial(const sd_mustache *t,
                              int (*fn)(const char *name, sd_loc loc, void *payload),
                              void *payload);

#endif
