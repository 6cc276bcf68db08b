/* hash.h - the two ends of a short name as two words, for hashing it
 * without a multiply per byte: the validator's property tables
 * (validate/vprog.h) and the template renderer's frame index
 * (mustache/mustache_int.h) mix them each their own way. */
#ifndef SD_HASH_H
#define SD_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

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
