/* archive.c - unpack a packaged chart (`helm package` writes a gzip-compressed
 * tar: ustar headers, with PAX or GNU records for long names) into a fresh
 * temporary directory, so that the source stage reads it as a chart
 * directory (the archive's top folder, or the archive itself when its
 * files sit at the top). zlib inflates (it comes with libcurl's development package);
 * the tar reading is ours. In: the .tgz path. Out: the chart directory.
 * Refused: absolute names, `..` components, links and devices, more than
 * 10,000 entries or 256 MiB unpacked. */
#include "archive.h"
#include "buf.h"
#include "sd.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define MAX_UNPACKED (256u << 20)
#define MAX_ENTRIES  10000

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

static unsigned long long octal(const char *p, size_t n)
{
    unsigned long long v = 0;
    size_t i = 0;
    if (n && ((unsigned char)p[0] & 0x80)) {   /* GNU base-256 */
        v = (unsigned char)p[0] & 0x7f;
        for (i = 1; i < n; i++)
            v = (v << 8) | (unsigned char)p[i];
        return v;
    }
    while (i < n && (p[i] == ' ' || p[i] == '\0'))
        i++;
    for (; i < n && p[i] >= '0' && p[i] <= '7'; i++)
        v = v * 8 + (unsigned long long)(p[i] - '0');
    return v;
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
    fd = open(b.ptr, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
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

/* The value of `key` in a PAX extended header ("LEN key=value\n"...). */
static char *pax_value(const char *d, size_t n, const char *key)
{
    size_t i = 0, kl = strlen(key);
    while (i < n) {
        size_t len = 0, j = i;
        while (j < n && d[j] >= '0' && d[j] <= '9')
            len = len * 10 + (size_t)(d[j++] - '0');
        if (!len || i + len > n || j >= n || d[j] != ' ')
            return NULL;
        const char *rec = d + j + 1;
        size_t rl = i + len - (j + 1);
        if (rl > kl + 1 && memcmp(rec, key, kl) == 0 && rec[kl] == '=') {
            size_t vl = rl - kl - 1;
            if (vl && rec[kl + 1 + vl - 1] == '\n')
                vl--;
            char *v = malloc(vl + 1);
            if (v) {
                memcpy(v, rec + kl + 1, vl);
                v[vl] = '\0';
            }
            return v;
        }
        i += len;
    }
    return NULL;
}

static int untar(const char *root, const char *d, size_t n, char **top, const char *name,
                 sd_diags *diags)
{
    size_t off = 0, entries = 0;
    char *longname = NULL;
    sd_loc loc = { name, 0, 0 };
    int err = 0;

    while (off + 512 <= n) {
        const char *h = d + off;
        char nm[256 + 2];
        unsigned long long size;
        char type = h[156];
        int zero = 1;

        for (int i = 0; i < 512; i++)
            if (h[i]) {
                zero = 0;
                break;
            }
        if (zero)
            break;
        if (++entries > MAX_ENTRIES) {
            err = sd_diag_error(diags, SD_ELIMIT, loc, "archive has more than %d entries", MAX_ENTRIES);
            break;
        }
        size = octal(h + 124, 12);
        if (size > n - off - 512) {
            err = sd_diag_error(diags, SD_ESYNTAX, loc, "truncated tar archive");
            break;
        }
        const char *data = h + 512;
        size_t next = off + 512 + (size_t)((size + 511) / 512 * 512);
        if (type == 'x' || type == 'L') {
            free(longname);
            if (type == 'x') {
                longname = pax_value(data, (size_t)size, "path");
            } else if ((longname = malloc((size_t)size + 1))) {
                memcpy(longname, data, (size_t)size);
                longname[size] = '\0';
            }
            off = next;
            continue;
        }
        if (type == 'g') {
            off = next;
            continue;
        }
        if (longname) {
            snprintf(nm, sizeof nm, "%s", longname);
            if (strlen(longname) >= sizeof nm - 1) {
                err = sd_diag_error(diags, SD_ELIMIT, loc, "tar entry name too long");
                break;
            }
            free(longname);
            longname = NULL;
        } else if (memcmp(h + 257, "ustar", 5) == 0 && h[345]) {
            snprintf(nm, sizeof nm, "%.155s/%.100s", h + 345, h);
        } else {
            snprintf(nm, sizeof nm, "%.100s", h);
        }
        if (!safe_name(nm)) {
            err = sd_diag_error(diags, SD_EDENIED, loc, "refusing tar entry '%s': an absolute path or '..'", nm);
            break;
        }
        if (!*top) {
            size_t tl = strcspn(nm, "/");
            if (!(*top = malloc(tl + 1))) {
                err = SD_ENOMEM;
                break;
            }
            memcpy(*top, nm, tl);
            (*top)[tl] = '\0';
        }
        if (type == '5') {
            if (make_parents(root, nm, 1) < 0) {
                err = sd_diag_error(diags, SD_EIO, loc, "cannot create '%s': %s", nm, strerror(errno));
                break;
            }
        } else if (type == '0' || type == '\0' || type == '7') {
            size_t l = strlen(nm);
            if (l && nm[l - 1] == '/') {
                off = next;
                continue;
            }
            if (make_parents(root, nm, 0) < 0 || write_file(root, nm, data, (size_t)size) < 0) {
                err = sd_diag_error(diags, SD_EIO, loc, "cannot write '%s': %s", nm, strerror(errno));
                break;
            }
        } else {
            err = sd_diag_error(diags, SD_EDENIED, loc,
                                "refusing tar entry '%s': links and special files are not unpacked", nm);
            break;
        }
        off = next;
    }
    free(longname);
    if (!err && !*top)
        err = sd_diag_error(diags, SD_ESYNTAX, loc, "empty archive");
    return err;
}

int sd_archive_unpack(char **out, char **tmp, const char *tgz, sd_diags *diags)
{
    const char *t = getenv("TMPDIR");
    sd_buf dir = SD_BUF_INIT, data = SD_BUF_INIT, chart = SD_BUF_INIT;
    sd_loc loc = { tgz, 0, 0 };
    char *top = NULL, chunk[65536];
    gzFile gz = NULL;
    int err = 0, n;
    struct stat st;

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
    if (err)
        goto done;
    sd_buf_printf(&dir, "%s/schemadoc-chart-XXXXXX", t && *t ? t : "/tmp");
    if (sd_buf_failed(&dir) || !mkdtemp(dir.ptr)) {
        err = sd_diag_error(diags, SD_EIO, loc, "cannot create a temporary directory: %s", strerror(errno));
        goto done;
    }
    if ((err = untar(dir.ptr, data.ptr ? data.ptr : "", data.len, &top, tgz, diags)) < 0) {
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
    *out = sd_buf_detach(&chart);
    *tmp = sd_buf_detach(&dir);
done:
    free(top);
    sd_buf_release(&dir);
    sd_buf_release(&data);
    sd_buf_release(&chart);
    return err;
}

static void remove_tree(const char *path, int depth)
{
    DIR *d;
    struct dirent *e;
    struct stat st;

    if (depth > 64 || lstat(path, &st) != 0)
        return;
    if (S_ISDIR(st.st_mode) && (d = opendir(path))) {
        while ((e = readdir(d))) {
            sd_buf b = SD_BUF_INIT;
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            sd_buf_printf(&b, "%s/%s", path, e->d_name);
            if (!sd_buf_failed(&b))
                remove_tree(b.ptr, depth + 1);
            sd_buf_release(&b);
        }
        closedir(d);
        rmdir(path);
    } else {
        unlink(path);
    }
}

void sd_archive_cleanup(const char *tmp)
{
    if (tmp && *tmp)
        remove_tree(tmp, 0);
}
