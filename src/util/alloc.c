/* alloc.c - record allocation failures that jansson swallows (alloc.h). */
#include "alloc.h"

#include <jansson.h>
#include <stdlib.h>

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
