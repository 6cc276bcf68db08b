/* SPDX-License-Identifier: Apache-2.0 */
/* file.h - the one way a local file is read: opened without blocking,
 * checked as a regular file, read under a size cap.
 *
 * Every stage that reads a file from disk comes through here, so a FIFO
 * (which would block open() or read() forever), a device (/dev/zero never
 * ends), a directory or a symbolic-link loop is refused with a clear error
 * at the file, and a file that exists but cannot be read is an error, never
 * "absent". */
#ifndef SD_FILE_H
#define SD_FILE_H

#include "buf.h"
#include "diag.h"

#include <stddef.h>

/* The cap for files with no limit of their own (templates, themes, READMEs). */
#define SD_FILE_MAX ((size_t)64 << 20)

enum sd_file_flags {
    SD_FILE_NOFOLLOW = 1 << 0   /* a symbolic link at `path` itself is refused */
};

/** Read the regular file `path`, at most `max` bytes, into a new
 *  NUL-terminated buffer *out (its length in *out_len) that the caller
 *  frees with free(). Returns 0, or SD_ENOTFOUND (nothing at `path`),
 *  SD_EIO (not a regular file, a symbolic-link loop, unreadable), SD_ELIMIT
 *  (over `max`) or SD_ENOMEM, with one error at `path` in `diags`. Never
 *  blocks: the file is opened with O_NONBLOCK and checked with fstat(). */
int sd_file_read(char **out, size_t *out_len, const char *path, size_t max, int flags,
                 sd_diags *diags);

/** sd_file_read() appending to `out` (borrowed; the caller releases it). */
int sd_file_read_buf(sd_buf *out, const char *path, size_t max, int flags, sd_diags *diags);

/** 1 when a directory entry exists at `path` (even a dangling or looping
 *  symbolic link, or a file that cannot be read: reading it then fails
 *  loudly), 0 when there is none. For optional files: absent is only ever
 *  "no such file". */
int sd_file_present(const char *path);

/** realpath() of `path`, or of its deepest existing ancestor with the rest
 *  appended (a missing file behind a symbolic link is still judged by
 *  where the link leads); *exists says whether the whole path resolved. A
 *  new string the caller frees, or NULL when out of memory. */
char *sd_file_real_of(const char *path, int *exists);

/** Keep `path` in the directory `dir` it is written in: when `path`, made
 *  absolute and with "." and ".." resolved as text, lies inside `dir`, it
 *  must resolve inside `dir`'s real path too (symbolic links followed; a
 *  missing file by its deepest existing folder). A path outside `dir` as
 *  written is the user's own choice and passes. On success *out is the
 *  path to use: `path` itself, or the file it resolves to when a link
 *  inside `dir` leads there (a new string the caller frees). Returns 0, or
 *  SD_EDENIED with an error at `path` naming where it leads (`what` names
 *  the file: "README"), or SD_ENOMEM. */
int sd_file_confine(char **out, const char *dir, const char *path, const char *what, sd_diags *diags);

/** Read the chart file `path` of the chart directory `dir`: the one way
 *  a chart's own files are opened (Chart.yaml, values files, schemas,
 *  .schema.yaml, ci/ and templates/ files, READMEs, `$ref` targets that
 *  annotations name). `path`, made absolute with "." and ".." resolved as
 *  text, must lie inside `dir`, and its real path (symbolic links
 *  followed) inside `dir`'s real path; the real path is then opened with
 *  O_NOFOLLOW, as sd_file_read() does, at most `max` bytes. *out and
 *  *out_len as sd_file_read(). Returns 0, or SD_EDENIED with an error at
 *  `path` that names the file as `what` ("values file") and says where it
 *  leads, or sd_file_read()'s codes and messages, reported at `path`.
 *  Not a byte of a refused file is read. */
int sd_file_read_in(char **out, size_t *out_len, const char *dir, const char *path, size_t max,
                    const char *what, sd_diags *diags);

#endif
