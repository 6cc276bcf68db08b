/* SPDX-License-Identifier: Apache-2.0 */
/* hash.h - hashing names: FNV-1a over every byte (the document tree's key
 * tables, YAML merge keys, the validator's long names), and the two ends of
 * a short name as two words, without a multiply per byte (the validator's
 * property tables and the template renderer's frame index mix them each
 * their own way). */
#ifndef SD_HASH_H
#define SD_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* FNV-1a, 64 bits, of s[0..n). */
static inline uint64_t sd_hash_fnv(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    return h;
}

/* *a and *b: the first and the last eight bytes of s[0..n), overlapping
 * when n < 16; the first and last four when n < 8; when n < 4, three of its
 * bytes in *a and 0 in *b. */
static inline void sd_hash_ends(const char *s, size_t n, uint64_t *a, uint64_t *b)
{
    if (n >= 8) {
        memcpy(a, s, 8);
        memcpy(b, s + n - 8, 8);
    } else if (n >= 4) {
        uint32_t x, y;
        memcpy(&x, s, 4);
        memcpy(&y, s + n - 4, 4);
        *a = x;
        *b = y;
    } else {
        *a = n ? (uint64_t)(unsigned char)s[0] | (uint64_t)(unsigned char)s[n / 2] << 8 |
                     (uint64_t)(unsigned char)s[n - 1] << 16
               : 0;
        *b = 0;
    }
}

#endif
