/* SPDX-License-Identifier: Apache-2.0 */
/* file.c - read a local file safely (see file.h): stat, open with
 * O_NONBLOCK|O_CLOEXEC, fstat again (the file may have been swapped), refuse
 * anything but a regular file, read until EOF but never past the cap. */
#include "file.h"
#include "sd.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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

char *sd_file_real_of(const char *path, int *exists)
{
    char real[PATH_MAX];
    char *p = strdup(path), *cut;
    sd_buf b = SD_BUF_INIT;
    size_t keep;

    *exists = 0;
    if (!p)
        return NULL;
    if (realpath(p, real)) {
        *exists = 1;
        free(p);
        return strdup(real);
    }
    for (;;) {
        if (!(cut = strrchr(p, '/')) || cut == p) {
            if (!cut && realpath(".", real)) {   /* a bare name: in the current folder */
                sd_buf_puts(&b, real);
                sd_buf_putc(&b, '/');
            }
            sd_buf_puts(&b, path);
            break;
        }
        *cut = '\0';
        if (realpath(p, real)) {
            keep = strlen(p);
            sd_buf_puts(&b, real);
            sd_buf_puts(&b, path + keep);
            break;
        }
    }
    free(p);
    return sd_buf_detach(&b);
}

/* `path` made absolute against the current folder, its ".", ".." and
 * repeated '/' resolved as text (links are not followed). A new string. */
static char *lexical_abs(const char *path)
{
    sd_buf in = SD_BUF_INIT, out = SD_BUF_INIT;
    char cwd[PATH_MAX];

    if (path[0] != '/') {
        if (!getcwd(cwd, sizeof cwd))
            return NULL;
        sd_buf_puts(&in, cwd);
        sd_buf_putc(&in, '/');
    }
    sd_buf_puts(&in, path);
    for (const char *c = in.ptr; *c;) {
        const char *e = strchr(c, '/');
        size_t n = e ? (size_t)(e - c) : strlen(c);
        if (n == 2 && c[0] == '.' && c[1] == '.') {
            while (out.len && out.ptr[out.len - 1] != '/')
                out.len--;
            if (out.len)
                out.len--;
            out.ptr[out.len] = '\0';
        } else if (n && !(n == 1 && c[0] == '.')) {
            sd_buf_putc(&out, '/');
            sd_buf_put(&out, c, n);
        }
        c += n;
        while (*c == '/')
            c++;
    }
    if (!out.len)
        sd_buf_putc(&out, '/');
    sd_buf_release(&in);
    return sd_buf_failed(&out) ? (sd_buf_release(&out), NULL) : sd_buf_detach(&out);
}

/* Whether `p` is `dir` or below it (both absolute, without a final '/'). */
static int inside(const char *p, const char *dir)
{
    size_t n = strlen(dir);
    if (n == 1 && dir[0] == '/')
        return 1;
    return strncmp(p, dir, n) == 0 && (p[n] == '/' || !p[n]);
}

int sd_file_confine(char **out, const char *dir, const char *path, const char *what, sd_diags *diags)
{
    char *dabs = lexical_abs(dir), *pabs = lexical_abs(path), *dreal = NULL, *preal = NULL;
    int exists, r = 0;
    sd_loc loc = { path, 0, 0 };

    *out = NULL;
    if (!dabs || !pabs) {
        r = sd_diag_error(diags, SD_ENOMEM, loc, "out of memory");
        goto done;
    }
    if (!inside(pabs, dabs)) {
        *out = strdup(path);   /* outside as written: the user's own file */
        goto done;
    }
    if (!(dreal = sd_file_real_of(dir, &exists)) || !(preal = sd_file_real_of(path, &exists))) {
        r = sd_diag_error(diags, SD_ENOMEM, loc, "out of memory");
        goto done;
    }
    if (!inside(preal, dreal)) {
        r = sd_diag_error(diags, SD_EDENIED, loc,
                          "refusing the %s: it leads outside the chart directory '%s' through a symbolic "
                          "link (to '%s')", what, dir, preal);
        goto done;
    }
    /* no link on the way: the path as given (its messages say it so) */
    *out = strcmp(preal, pabs) == 0 ? strdup(path) : preal;
    if (*out == preal)
        preal = NULL;
done:
    if (!r && !*out)
        r = sd_diag_error(diags, SD_ENOMEM, loc, "out of memory");
    free(dabs);
    free(pabs);
    free(dreal);
    free(preal);
    return r;
}

/* The real path of the chart directory `dabs` (absolute, lexical), kept
 * for the next call: a chart's files are read one after the other, each
 * against the same directory (10,000 subcharts: 20,000 realpath() calls
 * fewer). A new string, or NULL when out of memory. */
static char *real_dir(const char *dabs)
{
    static _Thread_local char *key, *real;
    int exists;

    if (key && real && strcmp(key, dabs) == 0)
        return strdup(real);
    free(key);
    free(real);
    key = strdup(dabs);
    real = sd_file_real_of(dabs, &exists);
    if (!key || !real) {
        free(key);
        free(real);
        key = real = NULL;
        return sd_file_real_of(dabs, &exists);
    }
    return strdup(real);
}

int sd_file_read_in(char **out, size_t *out_len, const char *dir, const char *path, size_t max,
                    const char *what, sd_diags *diags)
{
    char *dabs = lexical_abs(dir), *pabs = lexical_abs(path), *dreal = NULL, *preal = NULL;
    sd_diags quiet = SD_DIAGS_INIT;
    sd_loc loc = { path, 0, 0 };
    int exists = 0, r;

    *out = NULL;
    *out_len = 0;
    if (!dabs || !pabs) {
        r = sd_diag_error(diags, SD_ENOMEM, loc, "out of memory");
        goto done;
    }
    if (!inside(pabs, dabs)) {
        r = sd_diag_error(diags, SD_EDENIED, loc, "refusing the %s: it lies outside the chart directory '%s'",
                          what, dir);
        goto done;
    }
    if (!(dreal = real_dir(dabs)) || !(preal = sd_file_real_of(path, &exists))) {
        r = sd_diag_error(diags, SD_ENOMEM, loc, "out of memory");
        goto done;
    }
    if (!inside(preal, dreal)) {
        r = sd_diag_error(diags, SD_EDENIED, loc,
                          "refusing the %s: it leads outside the chart directory '%s' through a symbolic "
                          "link (to '%s')", what, dir, preal);
        goto done;
    }
    if (!exists) {
        /* nothing there, a dangling link or a loop: said as sd_file_read
         * says it, without opening anything; a file that appeared since
         * the check is not trusted */
        struct stat st;
        if (stat(path, &st) < 0)
            r = open_error(diags, loc, errno);
        else
            r = sd_diag_error(diags, SD_EDENIED, loc, "refusing the %s: it changed while it was checked", what);
        goto done;
    }
    /* the path with every link resolved, opened with O_NOFOLLOW: a link
     * swapped in since the check is refused, never followed */
    if ((r = sd_file_read(out, out_len, preal, max, SD_FILE_NOFOLLOW, &quiet)) < 0)
        r = sd_diag_error(diags, r, loc, "%s", quiet.count && quiet.items[0].message
                                               ? quiet.items[0].message : "out of memory");
done:
    sd_diags_release(&quiet);
    free(dabs);
    free(pabs);
    free(dreal);
    free(preal);
    return r;
}
