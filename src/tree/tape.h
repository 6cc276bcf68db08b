/* SPDX-License-Identifier: Apache-2.0 */
/* tape.h - one JSON document as a flat array of 16-byte values, for
 * validating large instances in a third of the memory of an sd_node tree
 * (issue 15: 4 bytes per input byte; an sd_node tree takes 10).
 *
 * The validator (validate.h) and the lint of values files (check.h) read
 * tapes only: a JSON values file is parsed straight into one (here), a
 * YAML one too (load/load_tape.h), and any other instance (merged chart
 * values) is copied into one from its sd_node tree (sd_tape_from_node),
 * which keeps a pointer to each value's node for its position and its text
 * as written.
 *
 * Layout: values in document order, an object's members as key, value,
 * key, value... A container's `u.span` is the number of values of its
 * subtree, itself included, so a sibling is reached by skipping and a value
 * alone (without its tape) is enough to walk its subtree. Strings point into the document's
 * text: the closing quote becomes the NUL, and only strings with escapes
 * are decoded, into the tape's own arena, so the text keeps every byte's
 * position and a value's line and column are computed from its offset
 * when a message needs them (sd_tape_loc), exactly as json.c counts them.
 *
 * The parser accepts exactly what json.c accepts, less what it refuses
 * itself (duplicate keys, nesting deeper than the limit, a byte order mark,
 * a text of 256 MiB or more): for those it returns SD_ESYNTAX and the
 * caller loads the file with sd_doc_load_mem(), which says what is wrong. */
#ifndef SD_TAPE_H
#define SD_TAPE_H

#include "arena.h"
#include "node.h"

#include <stddef.h>
#include <stdint.h>

typedef struct sd_tval {
    uint32_t head;   /* kind (sd_kind) in bits 0-2, SD_TAPE_BIG, offset of the value's first byte << 4 */
    uint32_t len;    /* strings: bytes; numbers, true/false/null: their text; containers: members or items */
    union {
        const char *s;  /* strings, NUL-terminated (a number's or a literal's text is at its offset) */
        long long   i;  /* SD_INT (not big) */
        double      f;  /* SD_FLOAT, and SD_INT beyond int64 (big) */
        int         b;  /* SD_BOOL */
        uint32_t    span;/* containers: values in the subtree, itself included */
    } u;
} sd_tval;

#define SD_TAPE_BIG 8u
#define SD_TAPE_MAX_TEXT ((size_t)1 << 28)

typedef struct sd_tape {
    sd_tval    *v;       /* v[0] is the root */
    size_t      n;
    const sd_node **src; /* sd_tape_from_node(): the node of each value (of a
                            key: the key's node); NULL for a parsed tape */
    const char *text;    /* the document's text (borrowed; rewritten as described) */
    size_t      text_len;
    const char *file;    /* for locations (borrowed) */
    uint32_t   *lines;   /* start offsets of the lines, made on the first sd_tape_loc() */
    size_t      nlines;
    sd_arena    arena;   /* decoded strings */
} sd_tape;

static inline sd_kind sd_tape_kind(const sd_tval *v) { return (sd_kind)(v->head & 7u); }
static inline uint32_t sd_tape_offset(const sd_tval *v) { return v->head >> 4; }
static inline int sd_tape_big(const sd_tval *v) { return (v->head & SD_TAPE_BIG) != 0; }
/** The value just past `v` and its subtree (its next sibling, if any). */
static inline const sd_tval *sd_tval_next(const sd_tval *v)
{
    sd_kind k = sd_tape_kind(v);
    return k == SD_MAP || k == SD_SEQ ? v + v->u.span : v + 1;
}
/** The index past value `i` and its subtree. */
static inline size_t sd_tape_next(const sd_tape *t, size_t i)
{
    return (size_t)(sd_tval_next(&t->v[i]) - t->v);
}
/** A number's value as a double. */
static inline double sd_tval_number(const sd_tval *v)
{
    return sd_tape_kind(v) == SD_INT && !sd_tape_big(v) ? (double)v->u.i : v->u.f;
}

/** Parse `len` bytes of `text` (NUL-terminated at text[len], writable: it
 *  is rewritten) into *t. Returns 0, SD_ESYNTAX when json.c must
 *  load it instead (any error, or one of the cases above), or SD_ENOMEM.
 *  `max_depth` as in sd_load_limits. */
int sd_tape_parse(sd_tape *t, char *text, size_t len, const char *file, int max_depth);
/** Copy the tree under `root` into *t (aliases expanded; keys of any YAML
 *  kind become strings, as JSON Schema reads them). Returns 0, SD_ENOMEM, or
 *  SD_ELIMIT past 2^31 values. The nodes are borrowed: they must outlive
 *  the tape. */
int sd_tape_from_node(sd_tape *t, const sd_node *root);
void sd_tape_free(sd_tape *t);
/** The node value `x` (of `t`) was copied from, or NULL for a parsed tape. */
static inline const sd_node *sd_tape_node(const sd_tape *t, const sd_tval *x)
{
    return t->src ? t->src[x - t->v] : NULL;
}
/** Where value `x` of `t` starts, as json.c (or the node's loader) reports it. */
sd_loc sd_tape_loc(sd_tape *t, const sd_tval *x);
/** Make t->lines (the start offset of each line of t->text) unless made:
 *  0, or SD_ENOMEM (nothing made). The first sd_tape_loc() calls it; a
 *  parser that writes NULs over line breaks calls it before (load_tape.c). */
int sd_tape_lines(sd_tape *t);
/** The file of value `x` (cheaper than its location). */
static inline const char *sd_tape_file(const sd_tape *t, const sd_tval *x)
{
    return t->src ? sd_tape_node(t, x)->loc.file : t->file;
}
/** A number's (or a literal's) text as written, `*len` bytes, not
 *  NUL-terminated; NULL when a tree's node has none. */
static inline const char *sd_tape_text(const sd_tape *t, const sd_tval *x, size_t *len)
{
    const sd_node *n = sd_tape_node(t, x);
    if (n) {
        *len = n->len;
        return n->str;
    }
    *len = x->len;
    return t->text + sd_tape_offset(x);
}

#endif
