/* alloc.c - record allocation failures that jansson swallows (alloc.h). */
#include "alloc.h"
#include "sd.h"

#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local int failed;

static void *recording_malloc(size_t n)
{
    void *p = malloc(n);
    if (!p)
        failed = 1;
    return p;
}

void sd_alloc_install(void)
{
    json_set_alloc_funcs(recording_malloc, free);
}

int sd_alloc_failed(void)
{
    return failed;
}

void sd_alloc_reset(void)
{
    failed = 0;
}

void sd_alloc_note_failure(void)
{
    failed = 1;
}

int sd_grow(void **p, size_t *alloc, size_t need, size_t size)
{
    size_t n;
    void *q;

    if (need <= *alloc)
        return 0;
    n = *alloc ? *alloc : 16;
    while (n < need) {
        if (n > SIZE_MAX / 2 / (size ? size : 1)) {
            failed = 1;
            return SD_ENOMEM;
        }
        n *= 2;
    }
    if (!(q = realloc(*p, n * size))) {
        failed = 1;
        return SD_ENOMEM;
    }
    *p = q;
    *alloc = n;
    return 0;
}

/* ---- a pool for the command line's jansson values ------------------------
 * A model is hundreds of thousands of small jansson values that live until
 * the process ends. Here each is carved from 1 MiB blocks in the order it
 * is made (a map's pairs, keys and values sit together, where malloc's bins
 * scatter them: lookups miss the cache less), with an 8-byte header naming
 * its size class; a freed one goes on its class's list for the next
 * allocation of that size. Larger requests go to malloc. Not thread-safe:
 * only the single-threaded CLI installs it, and never when it frees
 * everything at exit (valgrind's runs), so that memcheck sees every value. */
#define POOL_CLASSES 32                     /* payloads of 8, 16, ... 256 bytes */
#define POOL_BLOCK ((size_t)1 << 20)

static struct {
    unsigned char *cur, *end;
    void *free[POOL_CLASSES];
} pool;

static void *pool_malloc(size_t n)
{
    size_t c = n ? (n + 7) >> 3 : 1, need;
    uint64_t *h;

    if (c > POOL_CLASSES) {
        if (n > SIZE_MAX - 8 || !(h = malloc(n + 8))) {
            failed = 1;
            return NULL;
        }
        h[0] = 0;                           /* from malloc */
        return h + 1;
    }
    if ((h = pool.free[c - 1])) {
        memcpy(&pool.free[c - 1], h + 1, sizeof(void *));
        return h + 1;
    }
    need = 8 + c * 8;
    if (!pool.cur || (size_t)(pool.end - pool.cur) < need) {
        if (!(pool.cur = malloc(POOL_BLOCK))) {
            failed = 1;
            return NULL;
        }
        pool.end = pool.cur + POOL_BLOCK;
    }
    h = (uint64_t *)(void *)pool.cur;
    pool.cur += need;
    h[0] = c;
    return h + 1;
}

static void pool_free(void *p)
{
    uint64_t *h;
    if (!p)
        return;
    h = (uint64_t *)p - 1;
    if (h[0] == 0) {
        free(h);
        return;
    }
    memcpy(p, &pool.free[h[0] - 1], sizeof(void *));
    pool.free[h[0] - 1] = h;
}

void sd_alloc_install_pool(void)
{
    json_set_alloc_funcs(pool_malloc, pool_free);
}

void sd_json_free(void *p)
{
    json_malloc_t m;
    json_free_t f;
    json_get_alloc_funcs(&m, &f);
    f(p);
}
