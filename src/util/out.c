/* SPDX-License-Identifier: Apache-2.0 */
/* out.c - atomic output files (see out.h): a temporary file beside the
 * target, renamed over it at the end. The temporary file is registered
 * with cleanup.h, so a SIGINT, SIGTERM or SIGHUP removes it too; it gets
 * the target's mode (and owner, where allowed); a target with other hard
 * links is rewritten in place once the whole text is ready, so the links
 * stay; a symbolic link is refused. */
#include "out.h"
#include "alloc.h"
#include "buf.h"
#include "cleanup.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct sd_out {
    const char *path;     /* NULL: stdout */
    char *tmp_path;       /* the temporary file beside `path`, or NULL */
    FILE *f;              /* the temporary file (tmpfile() without tmp_path) */
    int   in_place;       /* stdout, a device or a FIFO: copied into at the end */
    int   linked;         /* a regular file with other hard links: copied into */
    int   has_mode;       /* the target exists: its mode and owner below */
    mode_t mode;
    uid_t uid;
    gid_t gid;
    const char *failed;   /* what went wrong at a spill (with errno_) */
    int   errno_;
};

static int io_error(sd_diags *diags, const char *path, const char *what)
{
    sd_loc loc = { path ? path : "<stdout>", 0, 0 };
    return sd_diag_error(diags, SD_EIO, loc, "%s: %s", what, strerror(errno));
}

int sd_out_open(sd_out **out, const char *path, sd_diags *diags)
{
    sd_out *o = calloc(1, sizeof *o);
    struct stat st;

    *out = NULL;
    if (!o)
        return sd_diag_error(diags, SD_ENOMEM, (sd_loc){ NULL, 0, 0 }, "out of memory");
    o->path = path && strcmp(path, "-") != 0 ? path : NULL;
    /* stdout, a device or a FIFO (/dev/null, /dev/stdout, a pipe) gets its
     * bytes at the end from an anonymous file: renaming a temporary file
     * over it would replace it. /dev/stdout is a link to whatever fd 1
     * is, a regular file too, so /dev and /proc are always written in place. */
    o->in_place = !o->path || strncmp(o->path, "/dev/", 5) == 0 || strncmp(o->path, "/proc/", 6) == 0 ||
                  (stat(o->path, &st) == 0 && !S_ISREG(st.st_mode));
    if (!o->in_place && lstat(o->path, &st) == 0) {
        if (S_ISLNK(st.st_mode)) {
            /* a rename would replace the link, writing through it would
             * write wherever it points (a chart can plant links): neither */
            free(o);
            return sd_diag_error(diags, SD_EDENIED, (sd_loc){ path, 0, 0 },
                                 "refusing to write through a symbolic link: give the file it points to");
        }
        o->has_mode = 1;
        o->mode = st.st_mode & 07777;
        o->uid = st.st_uid;
        o->gid = st.st_gid;
        o->linked = st.st_nlink > 1;
    }
    *out = o;
    return 0;
}

/* The temporary file, made at the first spill (or at the commit of a text
 * that never spilled). 0, or -1 with o->failed set. */
static int make_tmp(sd_out *o)
{
    sd_buf tmp = SD_BUF_INIT;
    sigset_t old;
    int fd;

    sd_buf_printf(&tmp, "%s.tmpXXXXXX", o->path);
    if (sd_buf_failed(&tmp) || !(o->tmp_path = sd_buf_detach(&tmp))) {
        errno = ENOMEM;
        o->failed = "cannot create output file";
        return -1;
    }
    /* made and registered with the signals held: a ^C now removes it */
    sd_cleanup_hold(&old);
    if ((fd = mkstemp(o->tmp_path)) >= 0)
        sd_cleanup_add(o->tmp_path, 0);
    sd_cleanup_release(&old);
    if (fd < 0) {
        o->failed = "cannot create output file";
        goto fail;
    }
    if (o->has_mode) {
        /* the file it replaces: same owner and group where allowed, same mode */
        if (fchown(fd, o->uid, o->gid) != 0)
            (void)fchown(fd, (uid_t)-1, o->gid);
        (void)fchmod(fd, o->mode);
    } else {
        mode_t um = umask(0);
        umask(um);
        (void)fchmod(fd, 0666 & ~um); /* mkstemp made it 0600 */
    }
    if (!(o->f = fdopen(fd, "wb"))) {
        o->failed = "cannot write output file";
        close(fd);
        unlink(o->tmp_path);
        sd_cleanup_forget(o->tmp_path);
        goto fail;
    }
    return 0;
fail:
    o->errno_ = errno;
    free(o->tmp_path);
    o->tmp_path = NULL;
    return -1;
}

int sd_out_spill(void *ctx, const char *p, size_t n)
{
    sd_out *o = ctx;
    if (o->failed)
        return -1;
    if (!o->f) {
        if (o->in_place) {
            if (!(o->f = tmpfile()))
                return 1;   /* no room for an anonymous file: keep the text in memory */
        } else if (make_tmp(o) < 0) {
            return -1;
        }
    }
    if (fwrite(p, 1, n, o->f) != n) {
        o->errno_ = errno;
        o->failed = "write failed";
        return -1;
    }
    return 0;
}

void sd_out_discard(sd_out *o)
{
    if (!o)
        return;
    if (o->f)
        fclose(o->f);
    if (o->tmp_path) {
        unlink(o->tmp_path);
        sd_cleanup_forget(o->tmp_path);
        free(o->tmp_path);
    }
    free(o);
}

/* Copy the anonymous file's bytes to `to`. */
static int copy_out(FILE *from, FILE *to)
{
    char chunk[65536];
    size_t n;
    if (fflush(from) != 0 || fseek(from, 0, SEEK_SET) != 0)
        return -1;
    while ((n = fread(chunk, 1, sizeof chunk, from)) > 0)
        if (fwrite(chunk, 1, n, to) != n)
            return -1;
    return ferror(from) ? -1 : 0;
}

int sd_out_commit(sd_out *o, const char *rest, size_t len, sd_diags *diags)
{
    int err = 0;
    FILE *to;

    if (o->failed) {
        errno = o->errno_;
        err = io_error(diags, o->path, o->failed);
        sd_out_discard(o);
        return err;
    }
    /* a JSON value that could not be allocated was dropped somewhere on
     * the way here: the data is incomplete, write none of it (alloc.h) */
    if (sd_alloc_failed()) {
        sd_out_discard(o);
        return sd_diag_error(diags, SD_ENOMEM, (sd_loc){ NULL, 0, 0 }, "out of memory");
    }
    if (!o->in_place) {
        if (!o->f && make_tmp(o) < 0) {
            errno = o->errno_;
            err = io_error(diags, o->path, o->failed);
        } else if (fwrite(rest, 1, len, o->f) != len || fflush(o->f) != 0) {
            err = io_error(diags, o->path, "write failed");
        } else if (o->linked) {
            /* other hard links share the file: the whole text, ready in
             * the temporary file, is copied into it (links stay) */
            FILE *to = NULL;
            int fd = open(o->path, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC);
            if (fd < 0 || !(to = fdopen(fd, "wb"))) {
                if (fd >= 0)
                    close(fd);
                err = io_error(diags, o->path, "cannot write output file");
            } else if (copy_out(o->f, to) < 0 || fflush(to) != 0) {
                err = io_error(diags, o->path, "write failed (the file may be incomplete)");
            }
            if (to && fclose(to) != 0 && !err)
                err = io_error(diags, o->path, "write failed (the file may be incomplete)");
        } else {
            int r = fclose(o->f);
            o->f = NULL;
            if (r != 0 || rename(o->tmp_path, o->path) != 0) {
                err = io_error(diags, o->path, "cannot write output file");
            } else {
                sd_cleanup_forget(o->tmp_path);
                free(o->tmp_path);
                o->tmp_path = NULL;
            }
        }
        sd_out_discard(o);
        return err;
    }
    if (!o->path) {
        to = stdout;
    } else if (!(to = fopen(o->path, "wb"))) {
        err = io_error(diags, o->path, "cannot write output file");
        sd_out_discard(o);
        return err;
    }
    if ((o->f && copy_out(o->f, to) < 0) || fwrite(rest, 1, len, to) != len || fflush(to) != 0)
        err = io_error(diags, o->path, "write failed");
    if (to != stdout && fclose(to) != 0 && !err)
        err = io_error(diags, o->path, "write failed");
    sd_out_discard(o);
    return err;
}

int sd_out_write(const char *path, const char *data, size_t len, sd_diags *diags)
{
    sd_out *o;
    int err;

    if (sd_alloc_failed())
        return sd_diag_error(diags, SD_ENOMEM, (sd_loc){ NULL, 0, 0 }, "out of memory");
    if (!path || strcmp(path, "-") == 0) {
        if (fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0)
            return io_error(diags, NULL, "write failed");
        return 0;
    }
    if ((err = sd_out_open(&o, path, diags)) < 0)
        return err;
    return sd_out_commit(o, data, len, diags);
}
