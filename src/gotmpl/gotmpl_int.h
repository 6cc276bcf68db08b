/* SPDX-License-Identifier: Apache-2.0 */
/* gotmpl_int.h - what the files of src/gotmpl/ share: the parse tree, the
 * function table and the execution state. Not for use outside the folder. */
#ifndef SD_GOTMPL_INT_H
#define SD_GOTMPL_INT_H

#include "arena.h"
#include "gotmpl.h"

#include <stdarg.h>

/* --- heap ------------------------------------------------------------------- */

struct sd_gheap {
    sd_arena arena;
    size_t cap;
    int failed;
};

struct sd_gmap {
    const char *type_name;   /* non-NULL: a struct */
    const char **keys;
    size_t *klen;
    sd_gval *vals;
    size_t n, cap;
    unsigned *index;         /* open addressing, 0 = empty, else entry + 1; NULL while small */
    size_t index_cap;
};

/* --- parse tree ------------------------------------------------------------- */

typedef struct gpipe gpipe;
typedef struct glist glist;

enum garg_kind {
    A_FIELD,   /* .A.B: idents */
    A_VAR,     /* $x.A: name, idents */
    A_DOT,
    A_NIL,
    A_BOOL,
    A_NUM,
    A_STR,
    A_FUNC,    /* an identifier: a function */
    A_PIPE,    /* ( pipeline ) */
    A_CHAIN    /* (x).A.B: base, idents */
};

typedef struct gfunc gfunc;

typedef struct garg {
    int kind, line, col;
    const char *name;          /* A_VAR, A_FUNC */
    const char **idents;       /* A_FIELD, A_VAR, A_CHAIN: field names */
    int nidents;
    const gfunc *fn;           /* A_FUNC */
    gpipe *pipe;               /* A_PIPE */
    struct garg *base;         /* A_CHAIN */
    int b;                     /* A_BOOL */
    const char *s; size_t slen;/* A_STR: the value; A_NUM: the text */
    /* A_NUM */
    int is_int, is_float, is_char;
    long long i;
    double f;
} garg;

typedef struct gcmd { garg **args; int nargs; int line, col; } gcmd;

struct gpipe {
    int line, col;
    int is_assign;             /* = rather than := */
    const char **decl; int ndecl;
    gcmd **cmds; int ncmds;
};

enum gnode_kind { N_TEXT, N_ACTION, N_IF, N_RANGE, N_WITH, N_TEMPLATE, N_BREAK, N_CONTINUE };

typedef struct gnode {
    int kind, line, col;
    const char *text; size_t len;   /* N_TEXT */
    gpipe *pipe;                    /* N_ACTION, N_IF, N_RANGE, N_WITH, N_TEMPLATE (may be NULL) */
    glist *list, *else_list;        /* N_IF, N_RANGE, N_WITH */
    const char *tname;              /* N_TEMPLATE */
} gnode;

struct glist { gnode **nodes; int n; };

typedef struct gtree {
    const char *name;
    const char *file;
    glist *root;
} gtree;

struct sd_gotmpl {
    sd_arena arena;              /* trees, nodes, copied text */
    const char *main_name;
    gtree **trees; size_t ntrees, cap;
};

/** The tree called `name`, or NULL. */
const gtree *sd_gotmpl__find(const sd_gotmpl *set, const char *name);
/** The slot of the tree called `name` in the set, or NULL. */
gtree **sd_gotmpl__slot(sd_gotmpl *set, const char *name);
/** strconv.Unquote of a "..." or '...' body (`n` bytes, without the
 *  quotes) into `out` (room for n + 4 bytes): returns its length, or -1 for
 *  a malformed escape. For a character constant (`rune` non-NULL) *rune is
 *  its value and the body must be one character. */
long sd_gotmpl__unquote(const char *s, size_t n, char quote, char *out, long *rune);
/** Whether a list holds only blank text and comments (Go's IsEmptyTree). */
int sd_gotmpl__empty(const glist *l);

/* --- functions ----------------------------------------------------------------
 * `sig` lists the parameter types, one letter each: S string, I int, F
 * float64, B bool, A interface{}, L []interface{}, M map[string]interface{},
 * V a reflect.Value (anything, missing kept); a trailing '*' makes the last
 * one variadic. Go's argument conversion rules apply (docs/gotmpl.md). */
typedef int (*gfunc_fn)(sd_gval *out, sd_gcall *c, const sd_gval *argv, int argc);

struct gfunc {
    const char *name;
    const char *sig;
    gfunc_fn fn;
    const char *unsupported;    /* non-NULL: known but refused, with the reason */
};

enum { GF_AND = 1, GF_OR = 2 };

/** The function called `name` (`n` bytes), or NULL (gotmpl_funcmap.c). */
const gfunc *sd_gotmpl__func(const char *name, size_t n);
/** The tables it searches, each ending with a NULL name: Sprig's
 *  (gotmpl_sprig.c, gotmpl_lists.c), the codecs (gotmpl_codec.c), toYaml
 *  and fromYaml (gotmpl_yaml.c), the regular expressions (gotmpl_regex.c)
 *  and Go's builtins (gotmpl_funcs.c). */
extern const gfunc sd_gotmpl__sprig_funcs[], sd_gotmpl__lists_funcs[], sd_gotmpl__codec_funcs[],
    sd_gotmpl__yaml_funcs[], sd_gotmpl__regex_funcs[], sd_gotmpl__builtin_funcs[];

/* --- execution ---------------------------------------------------------------- */

typedef struct gvar { const char *name; sd_gval v; } gvar;

struct sd_gcall {
    const sd_gotmpl *set;
    sd_gheap *heap;
    sd_buf *out;
    sd_diags *diags;
    sd_gotmpl_limits lim;
    unsigned depth;
    unsigned nest;              /* walk and pipeline levels, across template calls */
    unsigned long long steps;
    gvar *vars; size_t nvars, vcap;
    size_t vbase;               /* the running template's first variable ($) */
    const char *file;           /* of the running tree */
    const char *tmpl;           /* its name */
    int line, col;              /* the node being executed */
    const char *fname;          /* the function being called */
    int err;                    /* set once: the first error */
    int brk;                    /* 1 break, 2 continue, while unwinding */
};

/** Report an error at the current node; returns SD_EINVALID (or `code`). */
int sd_gotmpl__errorf(sd_gcall *c, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/** Execute template `name` into `out` with dot `dot` (for include). */
int sd_gotmpl__exec_named(sd_gcall *c, sd_buf *out, const char *name, sd_gval dot);
/** Count one step; SD_ELIMIT after max_steps. */
int sd_gotmpl__step(sd_gcall *c);

/* --- walks over values ---------------------------------------------------------
 * Printing, encoding, comparing or copying a value visits its nodes, and a
 * value may share a node many times (fromYaml keeps aliases shared: a
 * 700-byte document can stand for 10^10 nodes). Every such walk counts the
 * nodes it visits against the running call's step bound. */

/** The steps a walk may take, and whether it ran out. */
typedef struct gwalk { unsigned long long left, start; int over; } gwalk;
/** The bound of a walk outside any call (sd_gval_print, sd_gval_yaml): the
 *  default step bound. */
#define SD_GOTMPL_WALK_STEPS 50000000ULL

/** Visit one node: 0, or -1 once the budget is spent (w->over is then set;
 *  the walk stops and its caller reports). */
static inline int sd_gotmpl__visit(gwalk *w)
{
    if (!w->left) {
        w->over = 1;
        return -1;
    }
    w->left--;
    return 0;
}
/** A walk with the steps the running call has left. */
gwalk sd_gotmpl__walk(const sd_gcall *c);
/** A walk outside any call (SD_GOTMPL_WALK_STEPS). Inline, so that
 *  gotmpl_value.c and gotmpl_yaml.c need nothing of the executor, which
 *  calls them (no loop of calls: make circle-check). */
static inline gwalk sd_gotmpl__walk_alone(void)
{
    gwalk w = { SD_GOTMPL_WALK_STEPS, SD_GOTMPL_WALK_STEPS, 0 };
    return w;
}
/** Charge the steps `w` took to `c`: 0, or SD_ELIMIT with the step bound's
 *  error when the walk ran out. */
int sd_gotmpl__walked(sd_gcall *c, const gwalk *w);
/** Count `n` steps of work done at once (elements copied, characters
 *  matched): 0 or SD_ELIMIT with the error. */
int sd_gotmpl__steps(sd_gcall *c, unsigned long long n);
/** Start `b` empty, capped at the call's output bound: a value made from
 *  a value can never be larger than what the template may print. */
void sd_gotmpl__buf(sd_gcall *c, sd_buf *b);

/* --- helpers shared by the function files ------------------------------------- */

/** Append `v` as fmt.Sprint prints it (%v), counting its nodes in `w`. */
void sd_gotmpl__print(sd_buf *b, sd_gval v, gwalk *w);
/** fmt.Sprintf for Go verbs; appends to `b`, counting in `w`. Returns 0. */
int sd_gotmpl__sprintf(sd_buf *b, const char *fmt, size_t flen, const sd_gval *argv, int argc, gwalk *w);
/** Go's strconv.FormatFloat(f, fmtc, prec, 64); prec -1: shortest. */
void sd_gotmpl__fmt_float(sd_buf *b, double f, char fmtc, int prec);
/** Copy a buffer into the heap as a string value (the buffer is released). */
int sd_gotmpl__buf_val(sd_gval *out, sd_gcall *c, sd_buf *b);
/** The same after a walk made the buffer's text: the walk's steps are
 *  charged first, and when it ran out the buffer is released and the
 *  step error returned. */
int sd_gotmpl__buf_walked(sd_gval *out, sd_gcall *c, sd_buf *b, const gwalk *w);
/** Sprig's strval: strings as they are, anything else as fmt.Sprint. */
void sd_gotmpl__strval(sd_buf *b, sd_gval v, gwalk *w);
/** strval of `v` as a string value in *out (in the heap, capped at the
 *  output bound): 0, or the error (the walk ran out: it is charged then,
 *  and the caller returns at once; the text or the heap too large). */
int sd_gotmpl__strval_v(sd_gval *out, sd_gcall *c, sd_gval v, gwalk *w);
/** cast.ToInt64 / cast.ToFloat64 as Sprig converts numbers: strings parse
 *  (base 0), floats truncate, bools are 0 or 1, anything else is 0. */
long long sd_gotmpl__to_int64(sd_gval v);
double sd_gotmpl__to_float64(sd_gval v);
/** Sprig's empty(). */
int sd_gotmpl__empty_val(sd_gval v);
/** YAML as gopkg.in/yaml.v3 Marshal writes it (without the final newline
 *  trimmed: the caller does that), counting in `w`. */
int sd_gotmpl__to_yaml(sd_buf *b, sd_gval v, gwalk *w);
/** Parse YAML as yaml.v3 Unmarshal into map[string]interface{}; on a syntax
 *  error returns SD_ESYNTAX with `err` filled in. Aliases are shared, never
 *  copied; the nodes printed for a key that is not a string and the
 *  entries copied by merge keys count in `w` (SD_ELIMIT when it ran out). */
int sd_gotmpl__from_yaml(sd_gval *out, sd_gheap *h, const char *s, size_t n,
                         char *err, size_t errlen, gwalk *w);
/** Compare two strings as Go's sort.Strings does (bytes). */
int sd_gotmpl__strcmp(const char *a, size_t an, const char *b, size_t bn);
/** Sorted indexes of the map's keys (heap memory), or NULL. */
size_t *sd_gotmpl__sorted_keys(sd_gheap *h, sd_gval m);
/** The entry indexes of `m` in Go's key order (sort.Strings, qsort), in a
 *  new array the caller frees with free(); NULL when out of memory. */
size_t *sd_gotmpl__key_order(const sd_gmap *m);

#endif
