/* SPDX-License-Identifier: Apache-2.0 */
/* vwalk.h - internal to the validator's walk: the walk itself (validate.c),
 * the context every check reads and reports through (vctx.c), and the
 * families of checks it calls, one file each: type, enum and const
 * (vtype.c), numbers (vnumber.c), strings, patterns and formats (vstring.c),
 * objects and properties (vobject.c), Kubernetes embedded resources
 * (vembedded.c), arrays and contains (varray.c), the applicators, $ref and
 * the dynamic scope (vapply.c), and unevaluated* (vuneval.c).
 *
 * Every check takes the walk's context `c`, the compiled record `s`
 * (vprog.h; borrowed from the validator) and the instance value `inst`
 * (borrowed from the tape `c->t`), and returns 1 when the value passes it.
 * With a result list (`c->res`) a check reports every failure and goes on;
 * without one (a branch of anyOf being tried) the first failure decides and
 * it returns 0 at once. A check that holds subschemas validates them with
 * sd_vwalk__node(), which is why those families and the walk call each
 * other: the validator is one recursion (tests/circle-check.sh names the
 * group). Nothing here allocates what outlives a call but the context's
 * stacks, which sd_validate_tape() frees. */
#ifndef SD_VWALK_H
#define SD_VWALK_H

#include "vprog.h"
#include "alloc.h"

#include <stdint.h>

typedef struct vref { const vs *s; const sd_tval *inst; } vref;

/* The walk's context: one per sd_validate_tape() call, on its stack. */
typedef struct vctx {
    sd_validator *v;
    sd_tape *t;               /* the instance */
    sd_vresult *res;          /* NULL: verdict only */
    size_t max;
    vseg *path; size_t npath, apath;
    sd_schema_info **scope; size_t nscope, ascope;
    vref *refs; size_t nrefs, arefs;
    int depth;
    int fatal;
    sd_diags *diags;
} vctx;

/* A schema node's JSON pointer, built when a message needs it. */
#define SPTR(info) sd_schema_ptr(c->v->r, (info))
/* Where value `x` of the instance starts (computed for messages only). */
#define ILOC(c, x) sd_tape_loc((c)->t, (x))
#define NOWHERE ((sd_loc){ NULL, 0, 0 })

/* A check's failure path (the messages) and checks that few schemas use:
 * kept out of the walk's hot function when the release build inlines
 * across files (LTO), as the one file of old kept them by chance. */
#if defined(__GNUC__)
#define SD_VWALK_COLD __attribute__((cold, noinline))
#else
#define SD_VWALK_COLD
#endif

/* A bit per member or item: what the schema evaluated, for unevaluated*. */
#define BIT_SET(b, i) ((b)[(i) >> 3] |= (uint8_t)(1u << ((i) & 7)))
#define BIT_GET(b, i) (((b)[(i) >> 3] >> ((i) & 7)) & 1u)

/* ---- the context (vctx.c) ------------------------------------------------ */

/** Stop the walk with `code` (SD_ELIMIT, SD_ENOMEM) and a message at `at`
 *  in the context's diags; only the first stop is kept. Returns 0, the
 *  verdict a stopped walk gives. */
int sd_vwalk__fatal(vctx *c, sd_loc at, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/** One error of record `s`'s keyword `kw` at value `inst` (or at `at`, a
 *  key, when not NULL), added to the result when there is one (vreport.c
 *  makes the record; the result owns it). */
void sd_vwalk__err(vctx *c, const vs *s, const char *kw, const sd_tval *inst,
                   const sd_tval *at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
/** The same as a warning (a format that is not asserted). */
void sd_vwalk__warn(vctx *c, const vs *s, const char *kw, const sd_tval *inst, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Step into a member (`key`, a tape key) or an item (`idx`): 0, or -1
 * (out of memory: the walk is stopped). The caller pops with c->npath--. */
static inline int path_push(vctx *c, const sd_tval *key, size_t idx)
{
    if (c->npath >= c->apath && sd_grow((void **)&c->path, &c->apath, c->npath + 1, sizeof *c->path) < 0)
        return sd_vwalk__fatal(c, key ? ILOC(c, key) : NOWHERE, SD_ENOMEM, "out of memory"), -1;
    c->path[c->npath].key = key;
    c->path[c->npath].idx = idx;
    c->npath++;
    return 0;
}

/* ---- the walk (validate.c) ----------------------------------------------- */

/** Validate `inst` against record `s`; mark in `ev` (a bit per member or
 *  item, or NULL; the caller's) what it evaluated, for unevaluated*. 1
 *  when it holds. */
int sd_vwalk__node(vctx *c, const vs *s, const sd_tval *inst, uint8_t *ev);

/* ---- the families of checks ---------------------------------------------- */

/** type (with x-kubernetes-int-or-string and nullable), enum, const
 *  (vtype.c). */
int sd_vwalk__value(vctx *c, const vs *s, const sd_tval *inst);
/** minimum, maximum, exclusive*, multipleOf of a number (vnumber.c). */
int sd_vwalk__number(vctx *c, const vs *s, const sd_tval *inst);
/** minLength, maxLength, pattern, format of a string (vstring.c). */
int sd_vwalk__string(vctx *c, const vs *s, const sd_tval *inst);
/** Whether string `str` matches pattern `r` (of record `s`'s keyword `kw`,
 *  for the message when matching fails): 1, 0, or -1 with an error reported
 *  (a match limit reached). Counts the pattern's uses in `r` and makes its
 *  automaton on heavy use (vstring.c; the validator owns both). */
int sd_vwalk__match(vctx *c, const vre *r, const sd_tval *str, const vs *s, const char *kw);
/** The object keywords: counts, required, dependencies, properties,
 *  patternProperties, additionalProperties, propertyNames; marks in `L`
 *  (or NULL) the members they evaluated (vobject.c). */
int sd_vwalk__object(vctx *c, const vs *s, const sd_tval *inst, uint8_t *L);
/** x-kubernetes-embedded-resource: a valid apiVersion and kind (vembedded.c). */
int sd_vwalk__embedded(vctx *c, const vs *s, const sd_tval *inst);
/** The array keywords: counts, uniqueItems, prefixItems, items, contains
 *  and its bounds; marks in `L` (or NULL) the items they evaluated
 *  (varray.c). */
int sd_vwalk__array(vctx *c, const vs *s, const sd_tval *inst, uint8_t *L);
/** Validate `inst` against `t`, the target of record `from`'s reference
 *  `kw`, unless the same target was already taken on the same value: a
 *  loop without progress stops the walk (vapply.c). */
int sd_vwalk__follow(vctx *c, const vs *t, const sd_tval *inst, uint8_t *ev, const vs *from, const char *kw);
/** The applicators: $ref, $dynamicRef / $recursiveRef, allOf, anyOf, oneOf,
 *  not, if/then/else; `nbytes`: the size of `L` when the walk made it
 *  (vapply.c). */
int sd_vwalk__apply(vctx *c, const vs *s, const sd_tval *inst, uint8_t *L, size_t nbytes);
/** unevaluatedProperties and unevaluatedItems, after every other keyword:
 *  they read and extend `L` (vuneval.c). */
int sd_vwalk__unevaluated(vctx *c, const vs *s, const sd_tval *inst, uint8_t *L);

/* ---- members and items, the hot path ------------------------------------- */

static const uint8_t need_by_kind[] = { 0, 0, N_NUM, N_NUM, N_STR, N_OBJ, N_ARR };

/* 1 when `s` accepts `inst` by its type alone (a leaf such as
 * {"type": "string"}), decided without a call; 0 means "ask the walk". */
static inline int quick_ok(const vs *s, const sd_tval *inst)
{
    unsigned it;
    if (s->alias || s->kind != VS_SCHEMA)
        return s->kind == VS_TRUE && !s->alias;
    if (s->need & (N_ENUM | N_APPLY | need_by_kind[vk(inst)]))
        return 0;
    if (!(s->need & N_TYPE))
        return 1;
    if (s->int_or_string || s->nullable)
        return 0;
    it = inst_type(inst);
    return (s->types & it) || (it == T_INT && (s->types & T_NUM));
}

/* A member's or an item's value under record `s`: accepted by its type
 * alone (quick_ok), or a string under a record without applicators, enum or
 * const whose type admits strings, which goes straight to the string
 * keywords (most values of a values file); the walk for the rest. */
static inline int v_child(vctx *c, const vs *s, const sd_tval *inst)
{
    if (quick_ok(s, inst))
        return 1;
    if (vk(inst) == SD_STR && !s->alias && !s->loop && s->kind == VS_SCHEMA && !(s->need & (N_ENUM | N_APPLY)) &&
        (!(s->need & N_TYPE) || (s->types & T_STR) || s->int_or_string) && !c->fatal && c->depth < MAX_DEPTH)
        return !(s->need & N_STR) || sd_vwalk__string(c, s, inst);
    return sd_vwalk__node(c, s, inst, NULL);
}

#endif
