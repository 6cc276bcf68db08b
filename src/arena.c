/* arena.c - bump allocator: blocks of at least 64 KiB, freed together. */
#include "arena.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct sd_arena_block {
    sd_arena_block *next;
    size_t size, off;
    alignas(max_align_t) unsigned char data[];
};

#define BLOCK_MIN ((size_t)64 * 1024)
#define ALIGN (alignof(max_align_t))

void *sd_arena_alloc(sd_arena *a, size_t n)
{
    sd_arena_block *b = a->head;
    size_t need = (n + ALIGN - 1) & ~(ALIGN - 1);

    if (need < n)
        return NULL;
#ifdef SD_ARENA_DEBUG
    b = NULL;
#endif
    if (!b || b->size - b->off < need) {
        size_t size = need > BLOCK_MIN ? need : BLOCK_MIN;
#ifdef SD_ARENA_DEBUG
        size = need;
#endif
        if (size > SIZE_MAX - sizeof *b)
            return NULL;
        b = malloc(sizeof *b + size);
        if (!b)
            return NULL;
        b->size = size;
        b->off = 0;
        /* Keep the fuller block in front only if the new one is bigger. */
        if (a->head && need > BLOCK_MIN) {
            b->next = a->head->next;
            a->head->next = b;
        } else {
            b->next = a->head;
            a->head = b;
        }
    }
    void *p = b->data + b->off;
    b->off += need;
    a->used += need;
    memset(p, 0, n);
    return p;
}

char *sd_arena_strndup(sd_arena *a, const char *s, size_t n)
{
    char *p = sd_arena_alloc(a, n + 1);
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
        free(b);
    }
    a->head = NULL;
    a->used = 0;
}
