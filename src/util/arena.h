/* SPDX-License-Identifier: Apache-2.0 */
/* arena.h - bump allocator for a document's nodes and strings.
 *
 * Everything allocated from an arena is freed at once by sd_arena_release().
 * Build with -DSD_ARENA_DEBUG to send each allocation through malloc so that
 * ASan and valgrind see every block (libgit2 pool.h). */
#ifndef SD_ARENA_H
#define SD_ARENA_H

#include <stddef.h>

typedef struct sd_arena_block sd_arena_block;
typedef struct sd_arena {
    sd_arena_block *head;
    size_t used;       /* bytes handed out, for limits and statistics */
} sd_arena;

#define SD_ARENA_INIT { NULL, 0 }

/** Allocate `n` zeroed bytes aligned to 8 (pointers, sizes, doubles: not
 *  long double); NULL when out of memory. */
void *sd_arena_alloc(sd_arena *a, size_t n);
/** As sd_arena_alloc(), not zeroed (for a caller that fills every byte). */
void *sd_arena_alloc_raw(sd_arena *a, size_t n);
/** Copy `n` bytes of `s` and add a NUL (packed: alignment 1); NULL when
 *  out of memory. */
char *sd_arena_strndup(sd_arena *a, const char *s, size_t n);
char *sd_arena_strdup(sd_arena *a, const char *s);
/** Make the next block at least `n` bytes (a hint from the caller, who
 *  knows roughly how much a document will need: fewer, pre-faulted blocks;
 *  or, made first, a small first block: from 256 bytes, where a block
 *  starts at 4 KiB otherwise).
 *  Returns 0, or -1 when out of memory (the arena is still usable). */
int sd_arena_reserve(sd_arena *a, size_t n);
/** Free every block; the arena is empty and reusable. */
void sd_arena_release(sd_arena *a);

#endif
