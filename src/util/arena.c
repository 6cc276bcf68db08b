/* SPDX-License-Identifier: Apache-2.0 */
/* arena.c - bump allocator: blocks from 4 KiB up, freed together. */
#include "arena.h"
#include "alloc.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

struct sd_arena_block {
    sd_arena_block *next;
    size_t size, off;
    size_t ready;         /* data[0..ready) is populated (mapped blocks) */
    int mapped;           /* from mmap (a large block), not malloc */
    alignas(max_align_t) unsigned char data[];
};

#define BLOCK_MIN ((size_t)4 * 1024)
#define RESERVE_MIN ((size_t)256)
#define BLOCK_MAX ((size_t)16 << 20)
#define BLOCK_MAP ((size_t)64 << 10)
#define POPULATE ((size_t)64 * 1024)

/* Nodes, pairs and tables hold pointers, sizes and doubles: 8 bytes of
 * alignment serve them, where max_align_t's 16 would add 8 bytes to every
 * 72-byte node. Strings are packed (alignment 1). */
#define ALIGN ((size_t)8)

/* Blocks grow geometrically with the arena (4 KiB, 8 KiB, ... 16 MiB), so
 * a large document needs few of them and a small one (a subchart's
 * Chart.yaml; a chart may have thousands) takes little memory. Blocks of
 * 64 KiB and more are mapped and populated POPULATE bytes at a time as the
 * bump pointer reaches them (MADV_POPULATE_WRITE): the kernel fills the
 * pages in one call instead of one page fault per 4 KiB, which is most of
 * what loading a large file costs on a virtual machine, while the unused end
 * of the last block is never touched and never resident. Mapped memory
 * comes zeroed. (From 1 MiB and a quarter MiB at a time, as it was, an
 * argo-cd page took 721 page faults; from 64 KiB, 401.) */
static sd_arena_block *new_block(size_t size)
{
    sd_arena_block *b;
    size_t total = sizeof *b + size;
    if (size >= BLOCK_MAP) {
        void *p = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return NULL;
        b = p;
        b->mapped = 1;
        b->ready = 0;
    } else {
        if (!(b = malloc(total)))
            return NULL;
        b->mapped = 0;
        b->ready = size;
    }
    b->size = size;
    b->off = 0;
    return b;
}

/* Populate a mapped block's pages up to `end` (only a hint: where the
 * kernel lacks MADV_POPULATE_WRITE, the pages fault in one by one). */
static void populate(sd_arena_block *b, size_t end)
{
    size_t to = (end + POPULATE - 1) & ~(POPULATE - 1);
    if (to > b->size)
        to = b->size;
#ifdef MADV_POPULATE_WRITE
    {
        uintptr_t mask = (uintptr_t)4095;
        uintptr_t from = (uintptr_t)(b->data + b->ready) & ~mask;
        (void)madvise((void *)from, (uintptr_t)(b->data + to) - from, MADV_POPULATE_WRITE);
    }
#endif
    b->ready = to;
}

/* `n` bytes at alignment `align` (a power of two up to ALIGN), zeroed
 * unless `raw`. */
static void *bump(sd_arena *a, size_t n, size_t align, int raw)
{
    sd_arena_block *b = a->head;
    size_t need = n ? n : 1, at = 0;
    void *p;

#ifdef SD_ARENA_DEBUG
    b = NULL;
#endif
    if (b)
        at = (b->off + align - 1) & ~(align - 1);
    if (!b || at > b->size || b->size - at < need) {
        size_t size = a->head ? a->head->size * 2 : BLOCK_MIN;
        if (size > BLOCK_MAX)
            size = BLOCK_MAX;
        if (size < need)
            size = need;
#ifdef SD_ARENA_DEBUG
        size = need;
        if (1) {
            if (!(b = malloc(sizeof *b + size)))
                return NULL;
            b->mapped = 0;
            b->size = b->ready = size;
            b->off = 0;
        } else
#endif
        if (size > SIZE_MAX / 2 || !(b = new_block(size))) {
            sd_alloc_note_failure();
            return NULL;
        }
        /* a one-off block for a large request goes behind the current one */
        if (a->head && need > a->head->size * 2 && need > BLOCK_MAX) {
            b->next = a->head->next;
            a->head->next = b;
        } else {
            b->next = a->head;
            a->head = b;
        }
        at = 0;
    }
    if (at + need > b->ready)
        populate(b, at + need);
    p = b->data + at;
    b->off = at + need;
    a->used += need;
    if (!b->mapped && !raw)
        memset(p, 0, n); /* mapped memory comes zeroed and is never reused */
    return p;
}

void *sd_arena_alloc(sd_arena *a, size_t n)
{
    return bump(a, n, ALIGN, 0);
}

void *sd_arena_alloc_raw(sd_arena *a, size_t n)
{
    return bump(a, n, ALIGN, 1);
}

int sd_arena_reserve(sd_arena *a, size_t n)
{
    sd_arena_block *b;
    if (a->head && a->head->size - a->head->off >= n)
        return 0;
#ifdef SD_ARENA_DEBUG
    return 0;
#endif
    if (n < RESERVE_MIN)   /* a small document's first block: its size */
        n = RESERVE_MIN;
    if (n > SIZE_MAX / 4 || !(b = new_block(n)))
        return -1;
    b->next = a->head;
    a->head = b;
    return 0;
}

char *sd_arena_strndup(sd_arena *a, const char *s, size_t n)
{
    char *p = n == (size_t)-1 ? NULL : bump(a, n + 1, 1, 1);
    if (p) {
        if (n)
            memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

char *sd_arena_strdup(sd_arena *a, const char *s)
{
    return sd_arena_strndup(a, s, strlen(s));
}

void sd_arena_release(sd_arena *a)
{
    sd_arena_block *b = a->head, *next;
    for (; b; b = next) {
        next = b->next;
        if (b->mapped)
            munmap(b, sizeof *b + b->size);
        else
            free(b);
    }
    a->head = NULL;
    a->used = 0;
}
