/* SPDX-License-Identifier: Apache-2.0 */
/* out.h - write a finished output: stdout, or a file replaced atomically
 * (temporary file in the same directory, then rename), so a failed run
 * never leaves a partial or truncated file behind, nor a temporary file
 * (also on SIGINT, SIGTERM, SIGHUP once sd_cleanup_on_signals() was
 * called: cleanup.h). A file replaced keeps its mode (and owner and group
 * where the process may set them); a file with other hard links is
 * rewritten in place once the whole text is ready, so its links stay; a
 * symbolic link is refused, never replaced nor written through. Paths
 * under /dev/ and /proc/ (/dev/stdout) are written in place. */
#ifndef SD_OUT_H
#define SD_OUT_H

#include "diag.h"

#include <stddef.h>

/** Write `len` bytes to `path` ("-" or NULL: stdout). Returns 0, or SD_EIO
 *  or SD_EDENIED (a symbolic link) with a diagnostic. */
int sd_out_write(const char *path, const char *data, size_t len, sd_diags *diags);

/* An output written while it is made, still all or nothing: its text goes
 * to a temporary file (beside `path`, or an anonymous one for stdout, a
 * device or a FIFO) and reaches `path` only at sd_out_commit().
 *
 *     sd_out *o;  sd_buf b = SD_BUF_INIT;
 *     sd_out_open(&o, path, d);  b.spill = sd_out_spill;  b.spill_ctx = o;
 *     ...write b...  ok ? sd_out_commit(o, b.ptr, b.len, d) : sd_out_discard(o);
 */
typedef struct sd_out sd_out;
/** A new pending output for `path` ("-" or NULL: stdout) in *out. Returns
 *  0, or SD_EDENIED (`path` is a symbolic link) / SD_ENOMEM with a
 *  diagnostic. */
int sd_out_open(sd_out **out, const char *path, sd_diags *diags);
/** An sd_buf spill function (buf.h): appends to the temporary file (1 when
 *  no anonymous file can be made: the buffer then keeps its text). */
int sd_out_spill(void *ctx, const char *p, size_t n);
/** Append the last `len` bytes and put the whole text in place (rename, or
 *  copy to stdout / the device). Frees `o`. Returns 0 or a negative code
 *  with a diagnostic; nothing is written when an allocation failed. */
int sd_out_commit(sd_out *o, const char *rest, size_t len, sd_diags *diags);
/** Give up: the temporary file is removed, `path` untouched. Frees `o`. */
void sd_out_discard(sd_out *o);

#endif
