/* SPDX-License-Identifier: Apache-2.0 */
/* archive.c - unpack a packaged chart (`helm package` writes a gzip-compressed
 * tar: ustar headers, with PAX or GNU records for long names) into a fresh
 * temporary directory, so that the source stage reads it as a chart
 * directory (the archive's top folder, or the archive itself when its
 * files sit at the top). zlib inflates (it comes with libcurl's development
 * package); the tar reading is ours. In: the .tgz path (or tar bytes).
 * Out: the chart directory, and the temporary directory to remove.
 * Refused, as errors naming the archive and the entry: absolute names, `..`
 * components, links and devices, malformed PAX records (Go's archive/tar
 * rules, which Helm reads with), more than 10,000 entries or 256 MiB
 * unpacked. The temporary directory is registered with cleanup.h, so a
 * SIGINT or SIGTERM removes it too. */
#include "archive.h"
#include "buf.h"
#include "cleanup.h"
#include "sd.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define MAX_UNPACKED (256u << 20)
#define MAX_ENTRIES  10000
#define MAX_NAME     256

int sd_archive_is_tgz(const char *path)
{
    unsigned char m[2];
    struct stat st;
    FILE *f;
    int r = 0;

    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || !(f = fopen(path, "rb")))
        return 0;
    if (fread(m, 1, 2, f) == 2 && m[0] == 0x1f && m[1] == 0x8b)
        r = 1;
    fclose(f);
    return r;
}

/* The reading of one archive: where it goes and what to name in errors. */
typedef struct untar {
    const char *root;      /* the temporary directory */
    const char *archive;   /* its name, for diagnostics */
    sd_diags *diags;
    size_t entry;          /* 1-based number of the header being read */
    char shown[MAX_NAME + 2];  /* that entry's name, printable */
} untar;

/* The entry's name as it may be printed: control bytes (a terminal escape
 * in a hostile name) become '?'. */
static void show_name(untar *u, const char *s, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n && s[i] && k < sizeof u->shown - 1; i++)
        u->shown[k++] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
    u->shown[k] = '\0';
}

static int entry_error(untar *u, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static int entry_error(untar *u, int code, const char *fmt, ...)
{
    char why[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return sd_diag_error(u->diags, code, (sd_loc){ u->archive, 0, 0 }, "tar entry %zu ('%s'): %s",
                         u->entry, u->shown, why);
}

/* A numeric header field: octal digits (space or NUL padded), or GNU's
 * base-256 form. -1 when it is neither or does not fit in 63 bits. */
static long long number(const char *p, size_t n)
{
    unsigned long long v = 0;
    size_t i = 0;
    if (n && ((unsigned char)p[0] & 0x80)) {   /* GNU base-256, positive only */
        if ((unsigned char)p[0] != 0x80)
            return -1;
        for (i = 1; i < n; i++) {
            if (v >> 55)
                return -1;
            v = (v << 8) | (unsigned char)p[i];
        }
        return (long long)v;
    }
    while (i < n && (p[i] == ' ' || p[i] == '\0'))
        i++;
    for (; i < n && p[i] >= '0' && p[i] <= '7'; i++)
        v = v * 8 + (unsigned long long)(p[i] - '0');   /* 12 digits: at most 2^36 */
    for (; i < n; i++)
        if (p[i] != ' ' && p[i] != '\0')
            return -1;
    return (long long)v;
}

static int safe_name(const char *s)
{
    if (!*s || *s == '/')
        return 0;
    for (const char *p = s; *p;) {
        const char *e = strchr(p, '/');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n == 2 && p[0] == '.' && p[1] == '.')
            return 0;
        p += n;
        while (*p == '/')
            p++;
    }
    return 1;
}

/* mkdir -p for the directories of `rel` under `root` */
static int make_parents(const char *root, const char *rel, int all)
{
    sd_buf b = SD_BUF_INIT;
    const char *p = rel;
    int r = 0;

    sd_buf_puts(&b, root);
    while (*p) {
        const char *e = strchr(p, '/');
        if (!e && !all)
            break;
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n && !(n == 1 && *p == '.')) {
            sd_buf_putc(&b, '/');
            sd_buf_put(&b, p, n);
            if (mkdir(b.ptr, 0700) != 0 && errno != EEXIST) {
                r = -1;
                break;
            }
        }
        p += n;
        while (*p == '/')
            p++;
    }
    sd_buf_release(&b);
    return r;
}

static int write_file(const char *root, const char *rel, const char *data, size_t n)
{
    sd_buf b = SD_BUF_INIT;
    int fd, r = 0;

    sd_buf_printf(&b, "%s/%s", root, rel);
    fd = open(b.ptr, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    sd_buf_release(&b);
    if (fd < 0)
        return -1;
    while (n > 0) {
        ssize_t w = write(fd, data, n);
        if (w <= 0) {
            r = -1;
            break;
        }
        data += w;
        n -= (size_t)w;
    }
    if (close(fd) != 0)
        r = -1;
    return r;
}

/* What a PAX extended header says about the next entry. */
typedef struct pax { char *path; long long size; } pax;

/* Read the PAX records of `d` (`n` bytes): "LEN key=value\n" each, LEN the
 * record's own length in decimal, counting itself. As Go's archive/tar
 * (parsePAXRecord) every record must be whole and well formed: a length
 * that does not fit, points past the header or before its own text, a
 * missing '=' or final newline is an error. Keeps `path` and `size`. */
static int read_pax(untar *u, const char *d, size_t n, pax *px)
{
    size_t i = 0;

    while (i < n) {
        unsigned long long len = 0;
        size_t j = i;
        while (j < n && d[j] >= '0' && d[j] <= '9') {
            if (j - i >= 19)
                return entry_error(u, SD_ESYNTAX, "bad PAX record at byte %zu: its length '%.20s...' is too large",
                                   i, d + i);
            len = len * 10 + (unsigned long long)(d[j++] - '0');
        }
        if (j == i || j >= n || d[j] != ' ')
            return entry_error(u, SD_ESYNTAX, "bad PAX record at byte %zu: no length", i);
        if (len > n - i || len < j - i + 4)
            return entry_error(u, SD_ESYNTAX, "bad PAX record at byte %zu: a length of %llu %s", i, len,
                               len > n - i ? "goes past the end of the header" : "is shorter than the record");
        const char *rec = d + j + 1, *end = d + i + len - 1;   /* end: the newline */
        const char *eq = memchr(rec, '=', (size_t)(end - rec));
        if (*end != '\n' || !eq || eq == rec)
            return entry_error(u, SD_ESYNTAX, "bad PAX record at byte %zu: not 'key=value' and a newline", i);
        size_t kl = (size_t)(eq - rec), vl = (size_t)(end - eq - 1);
        if (kl == 4 && !memcmp(rec, "path", 4)) {
            free(px->path);
            if (!(px->path = malloc(vl + 1)))
                return sd_diag_error(u->diags, SD_ENOMEM, (sd_loc){ u->archive, 0, 0 }, "out of memory");
            memcpy(px->path, eq + 1, vl);
            px->path[vl] = '\0';
        } else if (kl == 4 && !memcmp(rec, "size", 4)) {
            long long v = 0;
            size_t k = 0;
            for (; k < vl && k < 18 && eq[1 + k] >= '0' && eq[1 + k] <= '9'; k++)
                v = v * 10 + (eq[1 + k] - '0');
            if (!vl || k != vl)
                return entry_error(u, SD_ESYNTAX, "bad PAX size '%.*s'", (int)(vl > 20 ? 20 : vl), eq + 1);
            px->size = v;
        }
        i += (size_t)len;
    }
    return 0;
}

/* Unpack the tar bytes `d` into u->root; *top is the first component of
 * the first entry (a new string). */
static int untar_into(untar *u, const char *d, size_t n, char **top)
{
    size_t off = 0;
    pax px = { NULL, -1 };
    char *longname = NULL;
    int err = 0;

    u->entry = 0;
    while (off + 512 <= n) {
        const char *h = d + off;
        char nm[MAX_NAME + 2];
        long long size;
        char type = h[156];
        int zero = 1;

        for (int i = 0; i < 512; i++)
            if (h[i]) {
                zero = 0;
                break;
            }
        if (zero)
            break;
        u->entry++;
        show_name(u, h, 100);
        if (u->entry > MAX_ENTRIES) {
            err = sd_diag_error(u->diags, SD_ELIMIT, (sd_loc){ u->archive, 0, 0 },
                                "archive has more than %d entries", MAX_ENTRIES);
            break;
        }
        size = number(h + 124, 12);
        if (size >= 0 && px.size >= 0 && type != 'x' && type != 'g' && type != 'L')
            size = px.size;   /* a PAX size stands for the entry's own */
        if (size < 0) {
            err = entry_error(u, SD_ESYNTAX, "bad size field");
            break;
        }
        if ((unsigned long long)size > n - off - 512) {
            err = entry_error(u, SD_ESYNTAX, "truncated tar archive");
            break;
        }
        const char *data = h + 512;
        size_t next = off + 512 + ((size_t)size + 511) / 512 * 512;
        if (type == 'x') {
            if ((err = read_pax(u, data, (size_t)size, &px)) < 0)
                break;
            off = next;
            continue;
        }
        if (type == 'L') {
            free(longname);
            if (!(longname = malloc((size_t)size + 1))) {
                err = sd_diag_error(u->diags, SD_ENOMEM, (sd_loc){ u->archive, 0, 0 }, "out of memory");
                break;
            }
            memcpy(longname, data, (size_t)size);
            longname[size] = '\0';
            off = next;
            continue;
        }
        if (type == 'g') {
            off = next;
            continue;
        }
        const char *given = px.path ? px.path : longname;
        if (given) {
            show_name(u, given, strlen(given));
            if (strlen(given) > MAX_NAME) {
                err = entry_error(u, SD_ELIMIT, "name longer than %d bytes", MAX_NAME);
                break;
            }
            snprintf(nm, sizeof nm, "%s", given);
        } else if (memcmp(h + 257, "ustar", 5) == 0 && h[345]) {
            snprintf(nm, sizeof nm, "%.155s/%.100s", h + 345, h);
        } else {
            snprintf(nm, sizeof nm, "%.100s", h);
        }
        free(px.path);
        free(longname);
        px.path = longname = NULL;
        px.size = -1;
        show_name(u, nm, strlen(nm));
        if (!safe_name(nm)) {
            err = entry_error(u, SD_EDENIED, "refused: an absolute path or '..'");
            break;
        }
        if (!*top) {
            size_t tl = strcspn(nm, "/");
            if (!(*top = malloc(tl + 1))) {
                err = sd_diag_error(u->diags, SD_ENOMEM, (sd_loc){ u->archive, 0, 0 }, "out of memory");
                break;
            }
            memcpy(*top, nm, tl);
            (*top)[tl] = '\0';
        }
        if (type == '5') {
            if (make_parents(u->root, nm, 1) < 0) {
                err = entry_error(u, SD_EIO, "cannot create it: %s", strerror(errno));
                break;
            }
        } else if (type == '0' || type == '\0' || type == '7') {
            size_t l = strlen(nm);
            if (!(l && nm[l - 1] == '/') &&
                (make_parents(u->root, nm, 0) < 0 || write_file(u->root, nm, data, (size_t)size) < 0)) {
                err = entry_error(u, SD_EIO, "cannot write it: %s", strerror(errno));
                break;
            }
        } else {
            err = entry_error(u, SD_EDENIED, "refused: links and special files are not unpacked");
            break;
        }
        off = next;
    }
    free(px.path);
    free(longname);
    if (!err && !*top)
        err = sd_diag_error(u->diags, SD_ESYNTAX, (sd_loc){ u->archive, 0, 0 }, "empty archive");
    return err;
}

int sd_archive_untar(char **out, char **tmp, const char *data, size_t n, const char *name,
                     sd_diags *diags)
{
    const char *t = getenv("TMPDIR");
    sd_buf dir = SD_BUF_INIT, chart = SD_BUF_INIT;
    sd_loc loc = { name, 0, 0 };
    char *top = NULL;
    int err = 0, made;
    struct stat st;
    sigset_t old;

    *out = *tmp = NULL;
    sd_buf_printf(&dir, "%s/schemadoc-chart-XXXXXX", t && *t ? t : "/tmp");
    if (sd_buf_failed(&dir))
        return sd_diag_error(diags, SD_ENOMEM, loc, "out of memory");
    /* made and registered with the signals held: never one without the other */
    sd_cleanup_hold(&old);
    if ((made = mkdtemp(dir.ptr) != NULL))
        sd_cleanup_add(dir.ptr, 1);
    sd_cleanup_release(&old);
    if (!made) {
        err = sd_diag_error(diags, SD_EIO, loc, "cannot create a temporary directory: %s", strerror(errno));
        goto done;
    }
    untar u = { dir.ptr, name, diags, 0, "" };
    if ((err = untar_into(&u, data ? data : "", n, &top)) < 0) {
        sd_archive_cleanup(dir.ptr);
        goto done;
    }
    sd_buf_printf(&chart, "%s/%s", dir.ptr, top);
    if (stat(chart.ptr, &st) == 0 && !S_ISDIR(st.st_mode)) {
        /* files at the top of the archive: the chart is the archive itself */
        sd_buf_clear(&chart);
        sd_buf_puts(&chart, dir.ptr);
    }
    if (stat(chart.ptr, &st) != 0 || !S_ISDIR(st.st_mode)) {
        err = sd_diag_error(diags, SD_ENOTFOUND, loc, "the archive holds no chart folder");
        sd_archive_cleanup(dir.ptr);
        goto done;
    }
    if (sd_buf_failed(&chart)) {
        err = sd_diag_error(diags, SD_ENOMEM, loc, "out of memory");
        sd_archive_cleanup(dir.ptr);
        goto done;
    }
    *out = sd_buf_detach(&chart);
    *tmp = sd_buf_detach(&dir);
done:
    free(top);
    sd_buf_release(&dir);
    sd_buf_release(&chart);
    return err;
}

int sd_archive_unpack(char **out, char **tmp, const char *tgz, sd_diags *diags)
{
    sd_buf data = SD_BUF_INIT;
    sd_loc loc = { tgz, 0, 0 };
    char chunk[65536];
    gzFile gz;
    int err = 0, n;

    *out = *tmp = NULL;
    if (!(gz = gzopen(tgz, "rb")))
        return sd_diag_error(diags, SD_EIO, loc, "cannot open file: %s", strerror(errno));
    while ((n = gzread(gz, chunk, sizeof chunk)) > 0) {
        if (data.len + (size_t)n > MAX_UNPACKED) {
            err = sd_diag_error(diags, SD_ELIMIT, loc, "archive unpacks to more than %u MiB", MAX_UNPACKED >> 20);
            break;
        }
        sd_buf_put(&data, chunk, (size_t)n);
    }
    if (!err && n < 0) {
        int zerr;
        const char *m = gzerror(gz, &zerr);
        err = sd_diag_error(diags, SD_ESYNTAX, loc, "not a valid gzip stream: %s", m ? m : "read error");
    }
    gzclose(gz);
    if (!err && sd_buf_failed(&data))
        err = sd_diag_error(diags, SD_ENOMEM, loc, "out of memory");
    if (!err)
        err = sd_archive_untar(out, tmp, data.ptr, data.len, tgz, diags);
    sd_buf_release(&data);
    return err;
}

void sd_archive_cleanup(const char *tmp)
{
    if (tmp && *tmp) {
        sd_rmtree(tmp);
        sd_cleanup_forget(tmp);
    }
}
