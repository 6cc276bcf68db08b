/* SPDX-License-Identifier: Apache-2.0 */
/* uri.h - URI references (RFC 3986).
 *
 * In: reference strings as written in a `$ref`, base URIs, file paths.
 * Out: resolved absolute URIs (§5.2), keys normalised enough to compare
 * documents (§6.2.2), file paths. JSON Pointers are ptr.h's. Nothing here
 * touches the network or opens a file. */
#ifndef SD_URI_H
#define SD_URI_H

#include "buf.h"
#include "sd.h"

#include <stddef.h>

/** One component of a parsed reference: `p` is NULL when the component is
 *  undefined (no "?" at all), and non-NULL with n == 0 when it is empty ("?"). */
typedef struct sd_uri_part {
    const char *p;
    size_t n;
} sd_uri_part;

/** A reference split per RFC 3986 appendix B. The parts borrow the parsed
 *  string. `path` is always defined (possibly empty). */
typedef struct sd_uri {
    sd_uri_part scheme, authority, path, query, fragment;
} sd_uri;

/** Split `n` bytes of `s` into its five components. Never fails: anything
 *  is a reference, at worst a relative path. A scheme counts only when it is
 *  ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) (§3.1). */
void sd_uri_parse(sd_uri *out, const char *s, size_t n);

/** 1 when `s` has a scheme (an absolute URI or a URI with a fragment). */
int sd_uri_has_scheme(const char *s);

/** 1 when the scheme of `s` is `scheme`, compared without case. */
int sd_uri_scheme_is(const char *s, const char *scheme);

/** Resolve reference `ref` against `base` (RFC 3986 §5.2.2, strict, with
 *  remove_dot_segments). `base` should be absolute; when it has no scheme
 *  the result is as relative as the base. *out is a new string the caller
 *  frees with free(). Returns 0 or SD_ENOMEM. */
int sd_uri_resolve(char **out, const char *base, const char *ref);

/** Normalise an absolute URI for use as a key: lowercase scheme and host,
 *  uppercase percent-encoding hex digits, decode percent-encoded unreserved
 *  characters, remove dot segments, drop the default port of http (80) and
 *  https (443), give http(s) an empty path "/", and write file URIs as
 *  "file:///path" (a "localhost" host is dropped). The fragment is kept.
 *  *out is a new string the caller frees. Returns 0 or SD_ENOMEM. */
int sd_uri_normalize(char **out, const char *uri);

/** Split `uri` at its first '#'. *out_base (the URI without fragment) and
 *  *out_frag (the text after '#', NULL when there is no '#') are new strings
 *  the caller frees; pass NULL for a part you do not want. Returns 0 or
 *  SD_ENOMEM. */
int sd_uri_split_fragment(char **out_base, char **out_frag, const char *uri);

/** Decode %HH escapes in `n` bytes of `s`; a '%' not followed by two hex
 *  digits is kept as it is. *out is a new NUL-terminated string (which may
 *  contain NUL bytes: see *out_len) the caller frees. Returns 0 or SD_ENOMEM. */
int sd_uri_pct_decode(char **out, size_t *out_len, const char *s, size_t n);

/** Append the decoding of `n` bytes of `s` to `out` (same rules). */
void sd_uri_pct_decode_append(sd_buf *out, const char *s, size_t n);

/** Append `n` bytes of `s` to `out`, percent-encoding every byte that is not
 *  unreserved, a sub-delim, ':', '@' or one of the bytes in `keep` (e.g. "/"
 *  for a path, "/?" for a fragment). */
void sd_uri_pct_encode(sd_buf *out, const char *s, size_t n, const char *keep);

/** The file URI of `path`: a relative path is made absolute against the
 *  current directory, "." and ".." segments are removed lexically (no
 *  symbolic link is followed), repeated slashes collapse, a trailing slash
 *  is kept, and bytes outside the path characters are percent-encoded.
 *  *out is a new string ("file:///...") the caller frees. Returns 0,
 *  SD_ENOMEM, or SD_EIO when the current directory cannot be read. */
int sd_uri_from_path(char **out, const char *path);

/** The local path of a file URI ("file:///p", "file://localhost/p" or
 *  "file:/p"); query and fragment are ignored, escapes are decoded.
 *  *out is a new string the caller frees. Returns 0, SD_ENOMEM, SD_EINVALID
 *  when `uri` is not a file URI or names another host, or SD_ESYNTAX when
 *  the path would contain a NUL byte. */
int sd_uri_to_path(char **out, const char *uri);

#endif
