/* file.c - read a local file safely (see file.h): stat, open with
 * O_NONBLOCK|O_CLOEXEC, fstat again (the file may have been swapped), refuse
 * anything but a regular file, read until EOF but never past the cap. */
#include "file.h"
#include "sd.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

int sd_file_present(const char *path)
{
    struct stat st;
    if (lstat(path, &st) == 0)
        return 1;
    return !(errno == ENOENT || errno == ENOTDIR);
}

static int open_error(sd_diags *diags, sd_loc loc, int eno)
{
    if (eno == ENOENT || eno == ENOTDIR)
        return sd_diag_error(diags, SD_ENOTFOUND, loc, "cannot open file: %s", strerror(eno));
    if (eno == ELOOP)
        return sd_diag_error(diags, SD_EIO, loc, "cannot open file: a symbolic link loop");
    if (eno == ENOMEM)
        return sd_diag_error(diags, SD_ENOMEM, loc, "out of memory");
    return sd_diag_error(diags, SD_EIO, loc, "cannot open file: %s", strerror(eno));
}

int sd_file_read(char **out, size_t *out_len, const char *path, size_t max, int flags,
                 sd_diags *diags)
{
    sd_loc loc = { path, 0, 0 };
    struct stat st;
    char *buf = NULL;
    size_t len = 0, alloc;
    ssize_t r;
    int fd, oflags = O_RDONLY | O_NONBLOCK | O_CLOEXEC;

    *out = NULL;
    *out_len = 0;
    if (flags & SD_FILE_NOFOLLOW)
        oflags |= O_NOFOLLOW;
    /* stat() first: a device is never even opened */
    if (((flags & SD_FILE_NOFOLLOW) ? lstat(path, &st) : stat(path, &st)) < 0)
        return open_error(diags, loc, errno);
    if (S_ISLNK(st.st_mode))
        return sd_diag_error(diags, SD_EIO, loc, "not a regular file: a symbolic link");
    if (S_ISDIR(st.st_mode))
        return sd_diag_error(diags, SD_EIO, loc, "not a regular file: a directory");
    if (!S_ISREG(st.st_mode))
        return sd_diag_error(diags, SD_EIO, loc, "not a regular file");
    if ((fd = open(path, oflags)) < 0)
        return open_error(diags, loc, errno);
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return sd_diag_error(diags, SD_EIO, loc, "not a regular file");
    }
    if ((uint64_t)st.st_size > max) {
        close(fd);
        return sd_diag_error(diags, SD_ELIMIT, loc,
                             "file is larger than the limit of %zu bytes", max);
    }
    /* room for the text, its NUL and one byte more: the read that finds
     * the end then has room to ask for a byte, so a file that keeps its
     * size is read without growing the buffer (it had doubled each file) */
    alloc = (size_t)st.st_size + 2;
    if (!(buf = malloc(alloc))) {
        close(fd);
        return sd_diag_error(diags, SD_ENOMEM, loc, "out of memory");
    }
    /* The size can change under us: read until EOF, but never past max. */
    for (;;) {
        if (len + 1 == alloc) {
            char *p;
            if (len > max) {
                free(buf);
                close(fd);
                return sd_diag_error(diags, SD_ELIMIT, loc,
                                     "file is larger than the limit of %zu bytes", max);
            }
            alloc = alloc * 2 > max + 2 ? max + 2 : alloc * 2;
            if (!(p = realloc(buf, alloc))) {
                free(buf);
                close(fd);
                return sd_diag_error(diags, SD_ENOMEM, loc, "out of memory");
            }
            buf = p;
        }
        r = read(fd, buf + len, alloc - 1 - len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int eno = errno;
            free(buf);
            close(fd);
            if (eno == EISDIR)
                return sd_diag_error(diags, SD_EIO, loc, "not a regular file: a directory");
            return sd_diag_error(diags, SD_EIO, loc, "read failed: %s", strerror(eno));
        }
        if (r == 0)
            break;
        len += (size_t)r;
    }
    close(fd);
    if (len > max) {
        free(buf);
        return sd_diag_error(diags, SD_ELIMIT, loc, "file is larger than the limit of %zu bytes", max);
    }
    buf[len] = '\0';
    *out = buf;
    *out_len = len;
    return 0;
}

int sd_file_read_buf(sd_buf *out, const char *path, size_t max, int flags, sd_diags *diags)
{
    char *text;
    size_t len;
    int err;

    if ((err = sd_file_read(&text, &len, path, max, flags, diags)) < 0)
        return err;
    sd_buf_put(out, text, len);
    free(text);
    if (sd_buf_failed(out)) {
        sd_loc loc = { path, 0, 0 };
        return sd_diag_error(diags, sd_buf_error(out) == SD_ELIMIT ? SD_ELIMIT : SD_ENOMEM, loc, "%s",
                             sd_buf_error(out) == SD_ELIMIT ? "file is too large" : "out of memory");
    }
    return 0;
}
