/* SPDX-License-Identifier: Apache-2.0 */
/* mustache_int.h - the compiled template, shared by the compiler
 * (mustache.c) and the renderer (mustache_render.c). Not installed. */
#ifndef SD_MUSTACHE_INT_H
#define SD_MUSTACHE_INT_H

#include "mustache.h"
#include "arena.h"
#include "hash.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum ntype { N_TEXT, N_VAR, N_SECTION, N_INVERTED, N_PARTIAL, N_PARENT, N_BLOCK };

typedef struct mseg {       /* one part of a dotted name */
    const char *s;          /* NUL-terminated */
    size_t len;
    long idx;               /* array index if the part is all digits, else -1 */
    uint32_t hash;          /* sd_mustache__hash(s, len), for the render's lookups */
} mseg;

/* A name's hash from its length and its first and last eight bytes (all of
 * it when shorter): of a template's names when compiled, and of an object's
 * keys when the renderer indexes a frame (mustache_render.c). */
static inline uint32_t sd_mustache__hash(const char *s, size_t n)
{
    uint64_t a, b, h;
    sd_hash_ends(s, n, &a, &b);
    h = (a * 0x9E3779B97F4A7C15ull ^ b ^ n) * 0xff51afd7ed558ccdull;
    return (uint32_t)(h >> 32);
}

typedef struct mname {
    mseg  *seg;             /* NULL with nseg == 0 for the implicit iterator "." */
    int    nseg;
    const char *str;        /* the name as written (for partials: the file name) */
} mname;

typedef struct mnode mnode;
struct mnode {
    uint8_t type;           /* enum ntype */
    uint8_t escape;         /* N_VAR: {{x}} escapes, {{{x}}} and {{&x}} do not */
    uint8_t bol;            /* N_TEXT: starts a line of the template */
    uint8_t standalone;     /* partial, parent, block: the tag's line was standalone */
    uint8_t dynamic;        /* partial, parent: {{>*name}} */
    uint8_t is_arg;         /* N_BLOCK directly inside a parent tag: an argument */
    const char *text;       /* N_TEXT: bytes in the template's copy of the text */
    size_t len;
    const char *ws;         /* partial, parent, block: whitespace before the tag */
    size_t ws_len;          /* (block: after fix_indent, the indentation to apply) */
    mname name;
    int line, col;          /* of the opening tag */
    mnode *child;           /* section, inverted, block content; a parent's arguments */
    mnode *next;
};

struct sd_mustache {
    sd_arena arena;
    const char *name;
    char *text;             /* private copy; text nodes point into it */
    size_t len;
    mnode *root;
};

#endif
