/* SPDX-License-Identifier: Apache-2.0 */
/* val_pool.h - the command line's faster route for sd_val (val.h): a pool
 * carved from an arena that never gives memory back to the system
 * (val_pool.c). */
#ifndef SD_VAL_POOL_H
#define SD_VAL_POOL_H

/** Allocate every sd_val from the pool, and intern short strings. Single-
 *  threaded callers only; call before the first value is made. Failures
 *  are recorded as alloc.h records them (sd_alloc_failed()). */
void sd_val_pool_install(void);

#endif
