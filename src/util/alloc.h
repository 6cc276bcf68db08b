/* SPDX-License-Identifier: Apache-2.0 */
/* alloc.h - noticing allocation failures that a library swallows.
 *
 * JSON builders fail quietly (sd_val_object_set_new() with a NULL value
 * from a failed sd_val_string() just returns -1, and most callers do not
 * look): a model built while memory ran out would be silently incomplete.
 * sd_val (val.h) records every failed allocation, and sd_alloc_install()
 * routes jansson's (the few places that parse JSON text with it) through a
 * malloc that does the same; sd_out_write() and the stages that build JSON check
 * sd_alloc_failed() and fail with "out of memory" instead of writing a
 * partial result. */
#ifndef SD_ALLOC_H
#define SD_ALLOC_H

#include <stddef.h>

/** Route jansson's allocations through the recording malloc. Idempotent;
 *  call before the first jansson value is made. Only a program may call it
 *  (the CLI's main does): the setting is global to the process, so the
 *  library (schemadoc_open) leaves a host program's jansson allocator alone. */
void sd_alloc_install(void);

/** Make a growable array at *p (items of `size` bytes, *alloc of them)
 *  hold at least `need` items: its size doubles (from 16) until it does.
 *  Returns 0, or SD_ENOMEM with the array unchanged and the failure
 *  recorded (sd_alloc_failed()). The one growth rule of the code base. */
int sd_grow(void **p, size_t *alloc, size_t need, size_t size);

/** Cap what jansson allocates from now on (per thread) at `bytes` in all,
 *  frees not given back, while `on`; sd_alloc_json_cap(0, 0) lifts it. An
 *  allocation past the cap fails without being recorded as a failure:
 *  sd_alloc_json_over() says it was the cap. A text parsed under the cap
 *  (fromJson in templates) costs at most what its tree is allowed. Where
 *  sd_alloc_install() has not run (a host program linking the library),
 *  the counting allocator replaces the host's from `on` until the cap is
 *  lifted, which must come after the capped tree is freed (jansson's
 *  allocator is global: the swap is not safe while another thread of the
 *  host uses jansson). */
void sd_alloc_json_cap(size_t bytes, int on);

/** 1 if an allocation failed at the cap since sd_alloc_json_cap(). */
int sd_alloc_json_over(void);

/** 1 if an allocation through the hook failed since the last
 *  sd_alloc_reset() (per thread). */
int sd_alloc_failed(void);

/** Forget earlier failures (per thread). */
void sd_alloc_reset(void);

/** Record a failure seen elsewhere (a NULL from malloc that was absorbed). */
void sd_alloc_note_failure(void);

#endif
