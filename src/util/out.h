/* out.h - write a finished output: stdout, or a file replaced atomically
 * (temporary file in the same directory, then rename), so a failed run
 * never leaves a partial or truncated file behind. */
#ifndef SD_OUT_H
#define SD_OUT_H

#include "diag.h"

#include <stddef.h>

/** Write `len` bytes to `path` ("-" or NULL: stdout). Returns 0 or SD_EIO
 *  with a diagnostic. */
int sd_out_write(const char *path, const char *data, size_t len, sd_diags *diags);

#endif
