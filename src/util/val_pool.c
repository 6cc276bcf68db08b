/* SPDX-License-Identifier: Apache-2.0 */
/* val_pool.c - the command line's pool for sd_val (val_pool.h).
 *
 * A model is hundreds of thousands of small sd_val blocks that live until
 * the process ends. Here each is carved from an arena (util/arena.c:
 * blocks from 4 KiB up to 16 MiB, those from 64 KiB mapped and populated
 * 64 KiB at a time) in the order it is made (a map's members, keys and
 * values sit together, where malloc's bins scatter them: lookups miss the
 * cache less). sd_val tells the size
 * of every block it gives back, so a block needs no header: a freed one
 * goes on its size class's list for the next allocation of that size, or
 * is cut for a smaller one when that size has none free.
 * Larger requests go to malloc. Not thread-safe: only the single-threaded
 * CLI installs it, and never when it frees everything at exit (valgrind's
 * runs), so that memcheck sees every value. */
#include "val_pool.h"
#include "alloc.h"
#include "arena.h"
#include "val.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define POOL_CLASSES 64                     /* 8, 16, ... 512 bytes */

#define POOL_CHUNK ((size_t)32 << 10)      /* taken from the arena at a time */

static struct {
    sd_arena arena;
    unsigned char *cur, *end;               /* the chunk being carved */
    void *free[POOL_CLASSES];
    uint64_t some;                          /* bit c - 1: free[c - 1] has blocks */
} pool;

static void *pop_free(size_t c)
{
    void *p = pool.free[c - 1];
    memcpy(&pool.free[c - 1], p, sizeof(void *));
    if (!pool.free[c - 1])
        pool.some &= ~((uint64_t)1 << (c - 1));
    return p;
}

static void push_free(void *p, size_t c)
{
    memcpy(p, &pool.free[c - 1], sizeof(void *));
    pool.free[c - 1] = p;
    pool.some |= (uint64_t)1 << (c - 1);
}

static void *pool_get(size_t n)
{
    size_t c = n ? (n + 7) >> 3 : 1;
    uint64_t larger;
    void *p;

    if (c > POOL_CLASSES) {
        if (!(p = malloc(n)))
            sd_alloc_note_failure();
        return p;
    }
    if (pool.free[c - 1])
        return pop_free(c);
    /* A freed block of a larger class is cut in two before the chunk is
     * carved further: an object's members left behind when it grew (the
     * view adds fields to every node of the model) become the strings
     * made next, where they would wait for an object of their own size. */
    if ((larger = c < POOL_CLASSES ? pool.some >> c : 0)) {
        size_t big = c + 1 + (size_t)__builtin_ctzll(larger);
        p = pop_free(big);
        push_free((unsigned char *)p + c * 8, big - c);
        return p;
    }
    if ((size_t)(pool.end - pool.cur) < c * 8) {
        if (!(pool.cur = sd_arena_alloc_raw(&pool.arena, POOL_CHUNK))) {
            pool.end = NULL;
            sd_alloc_note_failure();
            return NULL;
        }
        pool.end = pool.cur + POOL_CHUNK;   /* a chunk's unused tail is left */
    }
    p = pool.cur;
    pool.cur += c * 8;
    return p;
}

static void pool_release(void *p, size_t n)
{
    size_t c = n ? (n + 7) >> 3 : 1;
    if (c > POOL_CLASSES) {
        free(p);
        return;
    }
    push_free(p, c);
}

void sd_val_pool_install(void)
{
    sd_val_set_alloc(pool_get, pool_release);
    sd_val_set_intern(1);   /* single-threaded as well */
}
