/* SPDX-License-Identifier: Apache-2.0 */
/* ptr.h - JSON Pointers (RFC 6901): the one place that escapes and
 * unescapes them.
 *
 * In: pointer text ("/properties/a~1b", or a URI fragment, percent-encoded)
 * and raw tokens. Out: escaped pointers appended to an sd_buf ("~" as "~0",
 * "/" as "~1"), tokens with their escapes undone. Schema locations
 * ("#/properties/a") are a '#' followed by a pointer. */
#ifndef SD_PTR_H
#define SD_PTR_H

#include "buf.h"

#include <stddef.h>

/** Append one token to `out` as "/" followed by the escaped token. */
void sd_ptr_push(sd_buf *out, const char *tok, size_t n);

/** The same, also percent-encoded for use after '#' in a URI (RFC 6901 §6). */
void sd_ptr_push_uri(sd_buf *out, const char *tok, size_t n);

/** Decode the token that starts after the '/' at `p[0]` (p points at the
 *  '/'), replacing the contents of `tok` with it, and return a pointer to
 *  the next '/' or to the terminating NUL. A '~' not followed by 0 or 1 is
 *  kept as written. */
const char *sd_ptr_next(sd_buf *tok, const char *p);

/** 1 if `n` bytes of `s` are a syntactically valid pointer ("" or "/..."
 *  with every '~' followed by 0 or 1), else 0. */
int sd_ptr_valid(const char *s, size_t n);

/** A parsed pointer: `n` unescaped reference tokens. A token may contain
 *  NUL bytes (from "%00"), so each has a length. */
typedef struct sd_ptr {
    size_t n;
    char **seg;    /* seg[i] is NUL-terminated, len[i] bytes */
    size_t *len;
} sd_ptr;

#define SD_PTR_INIT { 0, NULL, NULL }

/** Parse `n` bytes of pointer text `s` into tokens. With `from_fragment`
 *  the text is first percent-decoded (a pointer taken from a URI fragment).
 *  "" is the whole document (n == 0). Returns 0, SD_ENOMEM, or SD_ESYNTAX
 *  when the text is not a valid pointer (sd_ptr_valid). Free the result
 *  with sd_ptr_release(). */
int sd_ptr_parse(sd_ptr *out, const char *s, size_t n, int from_fragment);

/** Free a parsed pointer; it is empty afterwards. */
void sd_ptr_release(sd_ptr *p);

#endif
