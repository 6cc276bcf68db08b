/* SPDX-License-Identifier: Apache-2.0 */
/* diag.h - diagnostics: errors and warnings with a position and pointers.
 *
 * Loading stops at the first error; validation collects them all. Only
 * main.c prints them (sd_diags_print), compiler style:
 *   values.yaml:12:5: error: message [schema #/properties/a, instance /a]
 */
#ifndef SD_DIAG_H
#define SD_DIAG_H

#include "sd.h"

#include <stdio.h>

typedef struct sd_diag {
    int    code;          /* SD_E* for errors, 0 for warnings and notes */
    int    severity;      /* enum sd_severity */
    sd_loc loc;           /* loc.file is owned by the diag (a copy) */
    char  *schema_ptr;    /* "#/properties/id", or NULL */
    char  *instance_ptr;  /* "/items/3", or NULL */
    char  *message;       /* lowercase, no final period */
    int    end_line, end_column; /* just past what loc names (tree/span.h); 0: unknown */
} sd_diag;

struct sd_diags {
    sd_diag *items;
    size_t   count, alloc;
    size_t   errors, warnings;
    size_t   max;         /* stop recording after this many (0: 10000) */
};

#define SD_DIAGS_INIT { NULL, 0, 0, 0, 0, 0 }

/** Record an error at `loc` and return `code` (so `return sd_diag_error(...)`
 *  reports and fails in one line). `fmt` is printf-style. */
int sd_diag_error(sd_diags *d, int code, sd_loc loc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/** Record a warning at `loc`. */
void sd_diag_warning(sd_diags *d, sd_loc loc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/** The general form: any severity, optional pointers (copied). Returns code. */
int sd_diag_add(sd_diags *d, int severity, int code, sd_loc loc,
                const char *schema_ptr, const char *instance_ptr,
                const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;
/** Print every diagnostic to `f`; `color` adds ANSI colours. */
void sd_diags_print(const sd_diags *d, FILE *f, int color);
/** Print d->items[from..to) to `f` (no note about unrecorded ones). */
void sd_diags_print_range(const sd_diags *d, size_t from, size_t to, FILE *f, int color);
/** Format one diagnostic as a line without newline; caller frees. */
char *sd_diag_format(const sd_diag *dg);
/** Free every diagnostic; the list is empty and reusable. */
void sd_diags_release(sd_diags *d);

#endif
