/* SPDX-License-Identifier: Apache-2.0 */
/* archive.h - packaged charts: a `helm package` .tgz (gzip-compressed tar)
 * unpacked into a fresh temporary directory that the source stage then
 * reads as a chart directory (docs/diff.md, "Packaged charts"). */
#ifndef SD_ARCHIVE_H
#define SD_ARCHIVE_H

#include "diag.h"

#include <stddef.h>

/** 1 when `path` names a regular file that starts like a gzip stream. */
int sd_archive_is_tgz(const char *path);
/** Unpack the packaged chart `tgz` (a gzip-compressed ustar archive, as
 *  `helm package` writes it) into a new directory under $TMPDIR (or /tmp).
 *  Only regular files and directories are written; an entry with an
 *  absolute path or a `..` component, a link, or an archive past the size
 *  limits is refused. On success *out is the chart directory inside (the
 *  archive's top folder, or the directory itself when the files sit at
 *  the top; caller frees with free()) and *tmp the directory
 *  to remove with sd_archive_cleanup() (caller frees). Returns 0 or
 *  SD_E* with an error in `diags`. */
int sd_archive_unpack(char **out, char **tmp, const char *tgz, sd_diags *diags);
/** The same from the tar bytes `data` (`n` bytes, already inflated) that
 *  `name` held (named in diagnostics). */
int sd_archive_untar(char **out, char **tmp, const char *data, size_t n, const char *name,
                     sd_diags *diags);
/** Remove the directory sd_archive_unpack made (and everything in it). */
void sd_archive_cleanup(const char *tmp);

#endif
