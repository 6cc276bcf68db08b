/* SPDX-License-Identifier: Apache-2.0 */
/* hook.c - allocation-failure injection for `make check-oom` (curl's
 * torture tests are the model).
 *
 * Linked only into build/oom/schemadoc with -Wl,--wrap=malloc,calloc,
 * realloc,strdup,strndup, and against the static archives of libyaml,
 * jansson, cmark-gfm and PCRE2: every allocation of schemadoc's code and of
 * those four libraries comes through here (libc's own internal ones, such
 * as realpath(p, NULL), do not).
 *
 *   SD_OOM_FAIL_AT=N   the Nth allocation returns NULL (once; 0: none)
 *   SD_OOM_COUNT=FILE  at exit, write how many allocations were made
 *   SD_OOM_TRACE=1     print the stack of the allocation that fails */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t m);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);

void __sanitizer_print_stack_trace(void);

static unsigned long count, fail_at;
static int ready, trace;

static int fail_now(void)
{
    if (!ready) {
        const char *s = getenv("SD_OOM_FAIL_AT");
        fail_at = s ? strtoul(s, NULL, 10) : 0;
        trace = getenv("SD_OOM_TRACE") != NULL;
        ready = 1;
    }
    if (++count != fail_at)
        return 0;
    if (trace)
        __sanitizer_print_stack_trace();
    return 1;
}

void *__wrap_malloc(size_t n)
{
    return fail_now() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t m)
{
    return fail_now() ? NULL : __real_calloc(n, m);
}

void *__wrap_realloc(void *p, size_t n)
{
    return fail_now() ? NULL : __real_realloc(p, n);
}

char *__wrap_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = __wrap_malloc(n);
    return p ? memcpy(p, s, n) : NULL;
}

char *__wrap_strndup(const char *s, size_t n)
{
    size_t len = strnlen(s, n);
    char *p = __wrap_malloc(len + 1);
    if (p) {
        memcpy(p, s, len);
        p[len] = '\0';
    }
    return p;
}

__attribute__((destructor)) static void report(void)
{
    const char *f = getenv("SD_OOM_COUNT");
    FILE *o;
    if (f && *f && (o = fopen(f, "w"))) {
        fprintf(o, "%lu\n", count);
        fclose(o);
    }
}
