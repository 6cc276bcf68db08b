/* SPDX-License-Identifier: Apache-2.0 */
/* pmap.h - a map from pointers (or any non-zero word) to a word: open
 * addressing, linear probing, at most half full. For the memo tables of one
 * run (the resolver's schema infos, the rules exporter's records and
 * paths, the lint's schema lists). The resolver walks the slots in order
 * (sd_resolver_each), and the validator numbers its records in that order:
 * the hash and the growth (256 slots, doubling) are part of the output.
 *
 *     sd_pmap m = SD_PMAP_INIT;
 *     if (sd_pmap_put(&m, node, 3) < 0) ...oom...
 *     uintptr_t *v = sd_pmap_get(&m, node);   // NULL when absent
 *     sd_pmap_release(&m);
 */
#ifndef SD_PMAP_H
#define SD_PMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct sd_pmap_slot { const void *k; uintptr_t v; } sd_pmap_slot;
typedef struct sd_pmap { sd_pmap_slot *s; size_t n, cap; } sd_pmap;

#define SD_PMAP_INIT { NULL, 0, 0 }

/** The value of `k` (borrowed: valid until the next put), or NULL. */
uintptr_t *sd_pmap_get(const sd_pmap *m, const void *k);
/** Set `k` (not NULL) to `v`. Returns 0 or SD_ENOMEM. */
int sd_pmap_put(sd_pmap *m, const void *k, uintptr_t v);
void sd_pmap_release(sd_pmap *m);

#endif
