/* SPDX-License-Identifier: Apache-2.0 */
/* sha256.h - SHA-256 (FIPS 180-4) of a byte string, and its base64 text:
 * what a Content-Security-Policy 'sha256-...' source names. The reference
 * page's script is the theme's html/script partial rendered at run time (a
 * theme may bring its own), so its hash is made at run time too
 * (render_page.c; the form's fixed bundle is hashed at build time). Our own
 * small implementation; no library of the build provides one. */
#ifndef SD_SHA256_H
#define SD_SHA256_H

#include <stddef.h>

/** The SHA-256 digest of `n` bytes at `data`, written to `out`. */
void sd_sha256(unsigned char out[32], const void *data, size_t n);

/** The digest as standard base64 (44 characters and a NUL) in `out`. */
void sd_sha256_base64(char out[45], const void *data, size_t n);

#endif
