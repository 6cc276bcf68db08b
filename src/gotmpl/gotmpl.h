/* SPDX-License-Identifier: Apache-2.0 */
/* gotmpl.h - Go text/template, for running helm-docs README.md.gotmpl files.
 *
 * A second template language beside Mustache, for compatibility only. It
 * follows Go's text/template (actions, pipelines, variables with := and =,
 * if / else if / else, range with $i, $v and else, with / else with, break,
 * continue, define, template, block, comments, {{- and -}} trimming) with
 * Go's builtin functions (and, or, not, len, index, slice, print, printf,
 * println, html, js, urlquery, eq, ne, lt, le, gt, ge) and the Sprig
 * functions that helm-docs templates use; docs/gotmpl.md lists them all.
 *
 * It knows no schema. Data is a tree of sd_gval values (Go's nil, bool,
 * int, float64, string, []interface{}, map[string]interface{}, structs with
 * fixed fields, and host objects with methods) that live in an sd_gheap.
 *
 * Hostile input is bounded: template calls nest at most max_depth deep, the
 * output and the heap have byte caps, and execution stops after max_steps
 * steps (every action, iteration and function call is one), so neither a
 * template nor its data can loop forever or exhaust memory. A template can
 * read nothing but its data: there is no env, no file function; only host
 * objects (helm-docs' .Files) reach outside, under the host's rules.
 *
 * Errors are diagnostics at FILE:LINE:COL (columns count characters). A
 * function or keyword that Go or Sprig has but this engine lacks is a parse
 * error naming it, never a silent empty string. */
#ifndef SD_GOTMPL_H
#define SD_GOTMPL_H

#include "buf.h"
#include "diag.h"
#include "sd.h"

#include <stddef.h>

/* --- values ------------------------------------------------------------- */

typedef enum sd_gkind {
    SD_G_MISSING = 0, /* no value: a missing map key ("<no value>") */
    SD_G_NIL,         /* a nil interface: YAML null, JSON null */
    SD_G_BOOL,
    SD_G_INT,         /* Go int (and int64, ... : `sub` says which) */
    SD_G_FLOAT,       /* Go float64 */
    SD_G_STR,         /* Go string: bytes, may hold NULs */
    SD_G_LIST,        /* []interface{} */
    SD_G_MAP,         /* map[string]interface{}, or a struct when it has a type name */
    SD_G_OBJ          /* a host object: methods only */
} sd_gkind;

/* Go integer types, for typeOf/kindOf and messages (SD_G_INT's `sub`). */
enum { SD_GINT_INT = 0, SD_GINT_INT64 = 1, SD_GINT_RUNE = 2 };

typedef struct sd_glist sd_glist;
typedef struct sd_gmap  sd_gmap;
typedef struct sd_gobj  sd_gobj;
typedef struct sd_gheap sd_gheap;
typedef struct sd_gcall sd_gcall;

/** A value. Small, passed by value; strings and containers point into the
 *  sd_gheap that made them (borrowed: valid until sd_gheap_free). */
typedef struct sd_gval {
    unsigned char kind;  /* sd_gkind */
    unsigned char sub;   /* SD_G_INT: SD_GINT_* */
    union {
        int b;
        long long i;
        double f;
        struct { const char *p; size_t n; } s;
        sd_glist *l;
        sd_gmap *m;
        sd_gobj *o;
    } u;
} sd_gval;

struct sd_glist { sd_gval *items; size_t n, cap; };

/** A host object's class: a type name for messages and one method hook.
 *  `method` returns 0 with *out set, 1 when the object has no method
 *  `name` (a "can't evaluate field" error follows), or a negative code
 *  after sd_gcall_fail(). Arguments are borrowed. */
typedef struct sd_gobj_class {
    const char *type_name;
    int (*method)(sd_gval *out, sd_gcall *c, void *self, const char *name,
                  const sd_gval *argv, int argc);
} sd_gobj_class;
struct sd_gobj { const sd_gobj_class *cls; void *self; };

/** A new heap whose values together may use at most `cap` bytes (0: 256
 *  MiB). NULL when out of memory. Free with sd_gheap_free(). */
sd_gheap *sd_gheap_new(size_t cap);
/** Free the heap and every value made in it; NULL is allowed. */
void sd_gheap_free(sd_gheap *h);
/** `n` zeroed bytes from the heap; NULL (and the heap marked failed) past
 *  the cap or when out of memory. */
void *sd_gheap_alloc(sd_gheap *h, size_t n);
/** Whether an allocation failed: SD_ELIMIT (over the cap), SD_ENOMEM, or 0. */
int sd_gheap_failed(const sd_gheap *h);

static inline sd_gval sd_gnil(void) { sd_gval v = { SD_G_NIL, 0, { 0 } }; return v; }
static inline sd_gval sd_gmissing(void) { sd_gval v = { SD_G_MISSING, 0, { 0 } }; return v; }
static inline sd_gval sd_gbool(int b) { sd_gval v = { SD_G_BOOL, 0, { 0 } }; v.u.b = b != 0; return v; }
static inline sd_gval sd_gint(long long i) { sd_gval v = { SD_G_INT, 0, { 0 } }; v.u.i = i; return v; }
static inline sd_gval sd_gfloat(double f) { sd_gval v = { SD_G_FLOAT, 0, { 0 } }; v.u.f = f; return v; }
/** A string value copied into `h` (`n` bytes of `s`); a missing value
 *  when the heap is full (check sd_gheap_failed at the end). */
sd_gval sd_gstr(sd_gheap *h, const char *s, size_t n);
sd_gval sd_gstrz(sd_gheap *h, const char *s);
/** A string value that borrows `s` (it must outlive the heap's use). */
sd_gval sd_gstr_static(const char *s, size_t n);
/** A new empty list / map. */
sd_gval sd_glist_new(sd_gheap *h, size_t cap);
sd_gval sd_gmap_new(sd_gheap *h);
/** A new struct: a map with the type name `type_name` (borrowed) whose
 *  missing fields are errors, as in Go. Fields are set with sd_gmap_set. */
sd_gval sd_gstruct_new(sd_gheap *h, const char *type_name);
/** A host object value; `cls` and `self` are borrowed. */
sd_gval sd_gobj_new(sd_gheap *h, const sd_gobj_class *cls, void *self);
/** Append `v` to list `l`. Returns 0 or SD_ELIMIT / SD_ENOMEM. */
int sd_glist_push(sd_gheap *h, sd_gval l, sd_gval v);
/** Set key `k` (`n` bytes, copied) of map or struct `m` to `v`, replacing
 *  an existing entry in place. Returns 0 or SD_ELIMIT / SD_ENOMEM. */
int sd_gmap_set(sd_gheap *h, sd_gval m, const char *k, size_t n, sd_gval v);
/** Look up key `k`: its value, or a missing value. */
sd_gval sd_gmap_get(sd_gval m, const char *k, size_t n);
/** Remove key `k` (a no-op when absent). */
void sd_gmap_del(sd_gval m, const char *k, size_t n);
size_t sd_gmap_len(sd_gval m);
/** Entry `i` (0 <= i < len) in insertion order; borrowed. */
const char *sd_gmap_key(sd_gval m, size_t i, size_t *len);
sd_gval sd_gmap_val(sd_gval m, size_t i);
/** Go's truth: false, 0, nil, empty strings and collections are false. */
int sd_gval_truth(sd_gval v);
/** Append `v` as Go's fmt prints it with %v (fmt.Sprint). */
void sd_gval_print(sd_buf *b, sd_gval v);
/** The Go type name of `v` for messages: "string", "int", "float64",
 *  "[]interface {}", "map[string]interface {}", a struct's name. */
const char *sd_gval_type_name(sd_gval v);

/** Append `v` as gopkg.in/yaml.v3 Marshal writes it (sorted map keys,
 *  4-space indentation), ending in a newline. */
void sd_gval_yaml(sd_buf *b, sd_gval v);

/** Convert JSON text into a value, as Go's json.Unmarshal into interface{}
 *  does (numbers are float64). Returns 0, or SD_ESYNTAX with `err` (a short
 *  message, `errlen` bytes of room) filled in. */
int sd_gval_from_json_text(sd_gval *out, sd_gheap *h, const char *s, size_t n,
                           char *err, size_t errlen);

/* --- templates ------------------------------------------------------------ */

typedef struct sd_gotmpl sd_gotmpl;  /* a set of named templates */

/** Bounds for one execution (0 in a field: the default). */
typedef struct sd_gotmpl_limits {
    size_t max_output;             /* bytes of output; default 64 MiB */
    unsigned max_depth;            /* nested template calls; default 200 */
    unsigned long long max_steps;  /* actions + iterations + calls; default 50 million */
} sd_gotmpl_limits;

/** A new empty set whose main template is called `main_name` (copied).
 *  Returns 0 or SD_ENOMEM; free *out with sd_gotmpl_free(). */
int sd_gotmpl_new(sd_gotmpl **out, const char *main_name);
void sd_gotmpl_free(sd_gotmpl *set);
/** Parse `len` bytes of `text` (copied) into the set, as Go's
 *  (*Template).Parse does: each {{define}} adds or replaces a named
 *  template, and non-blank top-level text becomes the main template's body.
 *  `file` (copied) names the text in diagnostics. Returns 0, or SD_ESYNTAX
 *  (SD_ELIMIT for nesting deeper than 200, SD_ENOMEM) with one error at
 *  FILE:LINE:COL in `diags`; the set keeps what earlier calls added. */
int sd_gotmpl_parse(sd_gotmpl *set, const char *file, const char *text, size_t len,
                    sd_diags *diags);
/** Whether the set has a (non-empty) template called `name`. */
int sd_gotmpl_has(const sd_gotmpl *set, const char *name);
/** Execute the template `name` (NULL: the main one) with `data` as dot,
 *  appending to `out`. Values made while executing come from `heap`.
 *  Returns 0, or a negative code with an error at FILE:LINE:COL:
 *  SD_ENOTFOUND (no such template), SD_EINVALID (a runtime error: a
 *  missing field, a function's error, a bad comparison), SD_ELIMIT (a
 *  bound of `lim` (may be NULL) or of the heap), SD_ENOMEM. On failure
 *  `out` holds a partial result that the caller should discard. */
int sd_gotmpl_execute(sd_buf *out, const sd_gotmpl *set, const char *name, sd_gval data,
                      sd_gheap *heap, const sd_gotmpl_limits *lim, sd_diags *diags);

/* --- for functions and host objects --------------------------------------- */

/** The heap of the running execution (for results). Borrowed. */
sd_gheap *sd_gcall_heap(sd_gcall *c);
/** Fail the running call with a message (printf-style); returns SD_EINVALID. */
int sd_gcall_fail(sd_gcall *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/** Count `n` steps of a host object's work against the running call's
 *  step bound: 0, or SD_ELIMIT with the error reported (return it). */
int sd_gcall_steps(sd_gcall *c, unsigned long long n);

/* --- glob patterns (helm-docs' .Files.Glob) ------------------------------- */

/** A compiled gobwas/glob pattern with '/' as the separator: `*`, `**`,
 *  `?`, `[...]`, `[!...]`, `{a,b}` (nested), `\x`; runes, not bytes. */
typedef struct sd_gotmpl_glob sd_gotmpl_glob;
/** Compile `n` bytes of `pattern` into *out (free with
 *  sd_gotmpl_glob_free). A malformed pattern (unclosed `[` or `{`, empty
 *  class, final `\`) compiles to one that matches nothing, as helm-docs
 *  returns no files for it. Returns 0 or SD_ENOMEM. */
int sd_gotmpl_glob_compile(sd_gotmpl_glob **out, const char *pattern, size_t n);
/** 1 when the whole of `name` (`n` bytes) matches, 0 when not, SD_ENOMEM.
 *  No backtracking: at most the pattern's states times the name's
 *  characters of work, which is added to *work (for sd_gcall_steps). */
int sd_gotmpl_glob_match(const sd_gotmpl_glob *g, const char *name, size_t n, unsigned long long *work);
void sd_gotmpl_glob_free(sd_gotmpl_glob *g);

#endif
