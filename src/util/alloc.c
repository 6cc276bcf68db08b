/* SPDX-License-Identifier: Apache-2.0 */
/* alloc.c - record allocation failures that libraries swallow, and the one
 * growth rule (alloc.h). The CLI's pool for sd_val is val_pool.c. */
#include "alloc.h"
#include "sd.h"

#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>

static _Thread_local int failed;
/* sd_alloc_json_cap(): what jansson may still take, while capped */
static _Thread_local size_t json_left;
static _Thread_local int json_capped, json_over;

static void *recording_malloc(size_t n)
{
    if (json_capped) {
        /* a limit, not a failure: the caller reports it as one */
        if (n > json_left) {
            json_over = 1;
            return NULL;
        }
        json_left -= n;
    }
    void *p = malloc(n);
    if (!p)
        failed = 1;
    return p;
}

void sd_alloc_install(void)
{
    json_set_alloc_funcs(recording_malloc, free);
}

/* the host's jansson allocator, while sd_alloc_json_cap() has replaced it */
static _Thread_local json_malloc_t host_malloc;
static _Thread_local json_free_t host_free;
static _Thread_local int swapped;

void sd_alloc_json_cap(size_t bytes, int on)
{
    json_capped = on;
    json_left = bytes;
    json_over = 0;
    if (on && !swapped) {
        /* a host program's allocator (the library never installs its own):
         * the counting one only for this parse, the host's back after it */
        json_malloc_t m;
        json_free_t f;
        json_get_alloc_funcs(&m, &f);
        if (m != recording_malloc) {
            host_malloc = m;
            host_free = f;
            swapped = 1;
            json_set_alloc_funcs(recording_malloc, free);
        }
    } else if (!on && swapped) {
        json_set_alloc_funcs(host_malloc, host_free);
        swapped = 0;
    }
}

int sd_alloc_json_over(void)
{
    return json_over;
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
