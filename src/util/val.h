/* SPDX-License-Identifier: Apache-2.0 */
/* val.h - the model's and the view's JSON values: small, ordered, counted.
 *
 * The model, the view, the mustache context, the form's data and the diff
 * are trees of sd_val. The API is jansson's (json_object_get() is
 * sd_val_object_get(), JSON_INDENT(2) is SD_VAL_INDENT(2), and so on), with
 * the same semantics where the code base relies on them:
 *
 *  - Reference counts. A _new setter or appender steals the caller's
 *    reference, even when it fails; the plain one takes its own. A value
 *    reaches zero and is freed with sd_val_decref(). true, false and null
 *    are shared and never freed.
 *  - Objects keep their keys in insertion order; setting a key that is
 *    already there replaces its value in place. A lookup compares one-byte
 *    tags of up to 32 members, eight at a time, and only the keys whose
 *    tag matches; a larger object has a hash index behind a 256-bit filter.
 *  - Strings are UTF-8 and may hold NUL bytes. sd_val_string(),
 *    sd_val_stringn() and the setters without _nocheck refuse invalid
 *    UTF-8 (they return NULL or -1), as jansson does.
 *  - sd_val_dumps() writes what json_dumps() writes, byte for byte (reals
 *    with 17 significant digits, "\u001F"-style escapes, the same spaces
 *    and indentation), so that the model's JSON (docs/model.md) keeps its
 *    form.
 *
 * What is smaller than jansson: a string is one allocation (a 12-byte
 * header and its bytes), an object member is 17 bytes (a key and a value
 * pointer, a tag) plus the key's copy, and a key given as a string literal
 * (sd_val_object_set_new_nocheck(), whose key must be a literal) is not
 * copied at all. The integers 0 to 1023 are shared constants, as true,
 * false and null are (a model's line numbers, a view's depths). Everything
 * else comes from the allocator installed with
 * sd_val_set_alloc() (the CLI's pool: util/alloc.c), which is told each
 * block's size when it is freed.
 *
 * Not thread-safe for one tree: reference counts are plain integers.
 * Separate trees may be used from separate threads. */
#ifndef SD_VAL_H
#define SD_VAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef enum {
    SD_VAL_OBJECT, SD_VAL_ARRAY, SD_VAL_STRING, SD_VAL_INTEGER,
    SD_VAL_REAL, SD_VAL_TRUE, SD_VAL_FALSE, SD_VAL_NULL
} sd_val_type;

typedef struct sd_val {
    uint32_t refcount;   /* UINT32_MAX: shared constant, never freed */
    uint8_t  type;       /* sd_val_type */
    uint8_t  pad_[3];
} sd_val;

typedef long long sd_val_int;
#define SD_VAL_INTEGER_FORMAT "lld"

/* ---- making values: each returns a new reference, or NULL ---------------- */
sd_val *sd_val_object(void);
sd_val *sd_val_array(void);
/** NUL-terminated UTF-8; NULL when `s` is NULL or not valid UTF-8. */
sd_val *sd_val_string(const char *s);
/** `len` bytes of UTF-8 (NUL bytes allowed); NULL when invalid. */
sd_val *sd_val_stringn(const char *s, size_t len);
/** As sd_val_stringn(), trusting the caller that `s` is valid UTF-8. */
sd_val *sd_val_stringn_nocheck(const char *s, size_t len);
/** As sd_val_stringn(), for a text no other string will have (a node's id,
 *  a position in a file, an anchor): never looked up in or added to the
 *  table of short strings that sd_val_set_intern() shares, which such
 *  texts would only fill (and each lookup there is a cache miss). */
sd_val *sd_val_stringn_unique(const char *s, size_t len);
/** printf into a new string; NULL when the result is not valid UTF-8. */
sd_val *sd_val_sprintf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
sd_val *sd_val_integer(sd_val_int i);
/** NULL for NaN and the infinities, which JSON cannot write. */
sd_val *sd_val_real(double d);
sd_val *sd_val_true(void);
sd_val *sd_val_false(void);
sd_val *sd_val_null(void);
#define sd_val_boolean(b) ((b) ? sd_val_true() : sd_val_false())

/* ---- references ---------------------------------------------------------- */
static inline sd_val *sd_val_incref(sd_val *v)
{
    if (v && v->refcount != UINT32_MAX)
        v->refcount++;
    return v;
}
void sd_val__free(sd_val *v);
/** A stealing setter (sd_val_object_set_new & co, sd_val_array_append_new)
 *  that fails for want of memory keeps the value alive instead of freeing
 *  it, so that a caller's borrowed pointer to it stays valid; this frees
 *  those values. Call it once nothing points at them (the CLI: on exit). */
void sd_val_release_orphans(void);
static inline void sd_val_decref(sd_val *v)
{
    if (v && v->refcount != UINT32_MAX && --v->refcount == 0)
        sd_val__free(v);
}

/* ---- reading ------------------------------------------------------------- */
#define sd_val_typeof(v)     ((sd_val_type)(v)->type)
#define sd_val_is_object(v)  ((v) && (v)->type == SD_VAL_OBJECT)
#define sd_val_is_array(v)   ((v) && (v)->type == SD_VAL_ARRAY)
#define sd_val_is_string(v)  ((v) && (v)->type == SD_VAL_STRING)
#define sd_val_is_integer(v) ((v) && (v)->type == SD_VAL_INTEGER)
#define sd_val_is_real(v)    ((v) && (v)->type == SD_VAL_REAL)
#define sd_val_is_number(v)  (sd_val_is_integer(v) || sd_val_is_real(v))
#define sd_val_is_true(v)    ((v) && (v)->type == SD_VAL_TRUE)
#define sd_val_is_false(v)   ((v) && (v)->type == SD_VAL_FALSE)
#define sd_val_is_boolean(v) (sd_val_is_true(v) || sd_val_is_false(v))
#define sd_val_is_null(v)    ((v) && (v)->type == SD_VAL_NULL)

/** Borrowed: the string's bytes (NUL-terminated), or NULL for a non-string. */
const char *sd_val_string_value(const sd_val *v);
/** The string's length in bytes (it may hold a NUL), 0 for a non-string. */
size_t sd_val_string_length(const sd_val *v);
/** 0 for a non-integer. */
sd_val_int sd_val_integer_value(const sd_val *v);
/** 0.0 for a non-real. */
double sd_val_real_value(const sd_val *v);
/** An integer or a real as a double; 0.0 otherwise. */
double sd_val_number_value(const sd_val *v);

/* ---- objects ------------------------------------------------------------- */
/** The number of members; 0 for a non-object. */
size_t sd_val_object_size(const sd_val *o);
/** Room for `more` members beyond the present ones, made at once (a caller
 *  about to add several fields: one move of the members instead of one per
 *  growth step). 0, or -1 when `o` is no object or memory ran out. */
int sd_val_object_reserve(sd_val *o, size_t more);
/** Borrowed: the value under the `len` bytes of `key`, or NULL. */
sd_val *sd_val_object_getn(const sd_val *o, const char *key, size_t len);
/** A new empty object (a new reference, or NULL) with room for `n` members
 *  before it grows (a node whose fields are about known). */
sd_val *sd_val_object_sized(size_t n);
/** Borrowed: the value under `key`, or NULL (also when `o` is no object).
 *  Inline, so that a literal key's length is known when compiling. */
static inline sd_val *sd_val_object_get(const sd_val *o, const char *key)
{
    return key ? sd_val_object_getn(o, key, strlen(key)) : NULL;
}
/** Set `key` (copied; valid UTF-8 or -1) to `v`, stealing the reference.
 *  0, or -1 when `o` is no object, `v` is NULL, or memory ran out. */
int sd_val_object_set_new(sd_val *o, const char *key, sd_val *v);
/** The same with a key of `len` bytes (copied; checked as UTF-8, or not with
 *  _nocheck: the caller knows it is valid); the reference to `v` is stolen,
 *  also on failure. */
int sd_val_object_setn_new(sd_val *o, const char *key, size_t len, sd_val *v);
int sd_val_object_setn_new_nocheck(sd_val *o, const char *key, size_t len, sd_val *v);
/** As sd_val_object_set_new(), for a key that outlives the object (a
 *  string literal, an entry of a static table): kept by pointer, never
 *  copied or freed, and not checked. */
int sd_val__object_set_static_n(sd_val *o, const char *key, size_t len, sd_val *v);
static inline int sd_val_object_set_static(sd_val *o, const char *key, sd_val *v)
{
    return sd_val__object_set_static_n(o, key, strlen(key), v);   /* a literal's length: known */
}
/** As sd_val_object_set_new(), with the bytes of the string value `key` as
 *  the key: not copied, `o` holds a reference to `key` instead (a memo
 *  keyed by long texts that already live in the tree). -1 when `key` is
 *  not a string. */
int sd_val_object_set_new_strkey(sd_val *o, sd_val *key, sd_val *v);
/* The _nocheck setters take string literals only (the "" makes anything
 * else a compile error) and keep them by pointer. */
#define sd_val_object_set_new_nocheck(o, key, v) sd_val_object_set_static((o), "" key "", (v))
#define sd_val_object_set_nocheck(o, key, v) sd_val_object_set_static((o), "" key "", sd_val_incref(v))
static inline int sd_val_object_set(sd_val *o, const char *key, sd_val *v)
{
    return sd_val_object_set_new(o, key, sd_val_incref(v));
}
/** A new object of `n` members given as (key, value) pairs, as jansson's
 *  json_pack("{s:o,...}") makes it: each key is a string literal (kept by
 *  pointer), each value's reference is stolen, and a NULL value makes the
 *  whole result NULL. */
sd_val *sd_val_objectv(int n, ...);
/** Remove `key`, dropping the object's reference to its value: 0, or -1
 *  when the key is not there. */
int sd_val_object_del(sd_val *o, const char *key);

/* Members in insertion order. The body may delete the current member (what
 * jansson's json_object_foreach_safe() is for). */
/** Borrowed: the key and the value of member i (valid while the member is). */
const char *sd_val__key_at(const sd_val *o, size_t i);
sd_val *sd_val__value_at(const sd_val *o, size_t i);
/** The length of the key of member i (a key may hold a NUL byte). */
size_t sd_val__key_len_at(const sd_val *o, size_t i);
size_t sd_val__next(const sd_val *o, size_t i, const char *key);
#define sd_val_object_foreach(o, key, value)                                        \
    for (size_t sd_val_i_##key = 0;                                                 \
         sd_val_i_##key < sd_val_object_size(o) &&                                  \
         ((key) = sd_val__key_at((o), sd_val_i_##key),                              \
          ((value) = sd_val__value_at((o), sd_val_i_##key)) != NULL);               \
         sd_val_i_##key = sd_val__next((o), sd_val_i_##key, (key)))

/* ---- arrays -------------------------------------------------------------- */
/** The number of items; 0 for a non-array. */
size_t sd_val_array_size(const sd_val *a);
/** Borrowed: item `i`, or NULL. */
sd_val *sd_val_array_get(const sd_val *a, size_t i);
/** Append `v`, stealing the reference: 0, or -1 (no array, NULL, memory). */
int sd_val_array_append_new(sd_val *a, sd_val *v);
static inline int sd_val_array_append(sd_val *a, sd_val *v)
{
    return sd_val_array_append_new(a, sd_val_incref(v));
}
/** Append every item of `b` (each gains a reference; `b` is borrowed). */
int sd_val_array_extend(sd_val *a, sd_val *b);
/** Remove item `i` / every item, dropping the array's references to them:
 *  0, or -1 (no array, no such item). */
int sd_val_array_remove(sd_val *a, size_t i);
int sd_val_array_clear(sd_val *a);
#define sd_val_array_foreach(a, index, value)                                       \
    for ((index) = 0;                                                               \
         (index) < sd_val_array_size(a) && ((value) = sd_val_array_get((a), (index))); \
         (index)++)

/* ---- whole trees --------------------------------------------------------- */
/** 1 when equal in type and value (objects in any member order); both
 *  borrowed. */
int sd_val_equal(const sd_val *a, const sd_val *b);
/** A new tree equal to `v` (a new reference: the caller decrefs it), or
 *  NULL; `v` is borrowed. */
sd_val *sd_val_deep_copy(const sd_val *v);

#define SD_VAL_INDENT(n)      ((size_t)(n) & 0x1F)
#define SD_VAL_COMPACT        0x20
#define SD_VAL_ENSURE_ASCII_  0x40   /* not supported */
#define SD_VAL_SORT_KEYS      0x80
#define SD_VAL_PRESERVE_ORDER 0x100  /* always: objects are ordered */
#define SD_VAL_ENCODE_ANY     0x200
/** The JSON text of `v`: new, NUL-terminated, freed with free(). NULL when
 *  `v` is not an object or array and SD_VAL_ENCODE_ANY is not given, when a
 *  string is not valid UTF-8, or when memory runs out. */
char *sd_val_dumps(const sd_val *v, size_t flags);
/** The same text appended to `b`: 0, or -1 (then `b` may hold a part). */
struct sd_buf;
int sd_val_dumpb(struct sd_buf *b, const sd_val *v, size_t flags);

/* ---- reading JSON text (util/val_jansson.c: jansson parses) ------------- */
#define SD_VAL_DECODE_ANY         0x4    /* jansson's JSON_DECODE_ANY, ... */
#define SD_VAL_DECODE_INT_AS_REAL 0x8
#define SD_VAL_ALLOW_NUL          0x10
typedef struct { int line, column; char text[160]; } sd_val_error;
/** Parse `n` bytes of JSON text into a new tree, or NULL with `err` (may
 *  be NULL) saying where and why (text "out of memory" when it ran out). */
sd_val *sd_val_loadb(const char *s, size_t n, size_t flags, sd_val_error *err);
/** The same for a NUL-terminated text, and for the text of the file at
 *  `path`: a new reference (the caller decrefs it), or NULL with `err`. */
sd_val *sd_val_loads(const char *s, size_t flags, sd_val_error *err);
sd_val *sd_val_load_file(const char *path, size_t flags, sd_val_error *err);

/** With `on`, a new string of up to 24 bytes equal to one still alive is
 *  that one with another reference (strings never change, so sharing is
 *  invisible). Process-wide and not thread-safe: the command line turns it
 *  on with its pool; the library leaves it off. */
void sd_val_set_intern(int on);

/* ---- allocation ---------------------------------------------------------- */
/** Where every value's memory comes from. `release` is told the size that
 *  was asked for. Call before the first value is made; NULL, NULL restores
 *  malloc and free. An allocation failure is recorded (sd_alloc_failed()). */
void sd_val_set_alloc(void *(*get)(size_t), void (*release)(void *, size_t));

#endif
