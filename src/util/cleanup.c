/* SPDX-License-Identifier: Apache-2.0 */
/* cleanup.c - temporary files and directories removed at the end of the
 * run or on SIGINT/SIGTERM/SIGHUP (see cleanup.h), and sd_rmtree(), which
 * removes a tree of any depth without recursion or memory.
 *
 * The signal handler may run in the middle of anything (malloc included),
 * so it only calls async-signal-safe functions: unlink, openat, unlinkat,
 * rmdir, close, lseek, and on Linux the getdents64 system call to list a
 * directory (opendir/readdir allocate). Elsewhere directories are listed
 * with fdopendir, which is fine at the end of a run and a small risk in the
 * handler. */
#include "cleanup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

/* --- listing a directory --------------------------------------------------- */

#if defined(__linux__) && defined(SYS_getdents64)
/* struct linux_dirent64 (getdents64(2)) */
struct dent64 {
    unsigned long long ino;
    long long off;
    unsigned short reclen;
    unsigned char type;
    char name[];
};

typedef struct dscan {
    int fd;
    long n, at;
    union { char c[4096]; long long align; } buf;
} dscan;

static int scan_open(dscan *s, int fd)
{
    s->fd = fd;
    s->n = s->at = 0;
    return lseek(fd, 0, SEEK_SET) < 0 ? -1 : 0;
}

/* The next name (borrowed until the next call), NULL at the end (errno 0)
 * or on an error (errno set). *type is a DT_* value, DT_UNKNOWN if unsure. */
static const char *scan_next(dscan *s, unsigned char *type)
{
    if (s->at >= s->n) {
        s->n = syscall(SYS_getdents64, s->fd, s->buf.c, sizeof s->buf.c);
        s->at = 0;
        if (s->n <= 0) {
            if (s->n == 0)
                errno = 0;
            return NULL;
        }
    }
    struct dent64 *d = (struct dent64 *)(void *)(s->buf.c + s->at);
    s->at += d->reclen;
    *type = d->type;
    return d->name;
}

static void scan_close(dscan *s)
{
    (void)s;
}
#else
typedef struct dscan { DIR *d; } dscan;

static int scan_open(dscan *s, int fd)
{
    int copy = dup(fd);
    if (copy < 0 || !(s->d = fdopendir(copy))) {
        if (copy >= 0)
            close(copy);
        return -1;
    }
    rewinddir(s->d);
    return 0;
}

static const char *scan_next(dscan *s, unsigned char *type)
{
    struct dirent *e;
    errno = 0;
    if (!(e = readdir(s->d)))
        return NULL;
#ifdef DT_UNKNOWN
    *type = e->d_type;
#else
    *type = 0;
#endif
    return e->d_name;
}

static void scan_close(dscan *s)
{
    closedir(s->d);
}
#endif

/* --- sd_rmtree ------------------------------------------------------------- */

/* Remove the entry `name` of directory `fd`: 0 removed (or already gone),
 * 1 a directory that is not empty, -1 failed. */
static int remove_entry(int fd, const char *name, unsigned char type)
{
    if (type != DT_DIR) {
        if (unlinkat(fd, name, 0) == 0 || errno == ENOENT)
            return 0;
        if (errno != EISDIR && errno != EPERM)
            return -1;
    }
    if (unlinkat(fd, name, AT_REMOVEDIR) == 0 || errno == ENOENT)
        return 0;
    return errno == ENOTEMPTY || errno == EEXIST ? 1 : -1;
}

/* Empty the directory *fd, or go down into its first subdirectory that is
 * not empty (*fd is then that one, the old descriptor closed): 0 empty,
 * 1 went down, -1 failed. Entries removed while the listing is read can
 * make it skip some, so it lists again until a pass removes nothing. */
static int empty_or_descend(int *fd)
{
    dscan s;
    for (;;) {
        int removed = 0, r = 0;
        const char *name;
        unsigned char type;
        if (scan_open(&s, *fd) < 0)
            return -1;
        while ((name = scan_next(&s, &type))) {
            if (name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2])))
                continue;
            if ((r = remove_entry(*fd, name, type)) < 0)
                break;
            if (r > 0) {
                int child = openat(*fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (child < 0) {
                    r = -1;
                    break;
                }
                close(*fd);
                *fd = child;
                break;
            }
            removed++;
        }
        if (!name && errno)
            r = -1;
        scan_close(&s);
        if (r)
            return r;
        if (!removed)
            return 0;
    }
}

int sd_rmtree(const char *path)
{
    struct stat st;
    unsigned long depth = 0;
    int fd, r = 0, e;

    if (lstat(path, &st) != 0)
        return errno == ENOENT ? 0 : -1;
    if (!S_ISDIR(st.st_mode))
        return unlink(path) == 0 || errno == ENOENT ? 0 : -1;
    if ((fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
        return -1;
    /* down to the first directory that can be emptied, then back up one
     * level (its parent lists it again and removes it), never above `path` */
    for (;;) {
        if ((r = empty_or_descend(&fd)) > 0) {
            depth++;
            continue;
        }
        if (r < 0 || depth == 0)
            break;
        int up = openat(fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        close(fd);
        if ((fd = up) < 0) {
            r = -1;
            break;
        }
        depth--;
    }
    e = errno;
    if (fd >= 0)
        close(fd);
    if (r < 0) {
        errno = e;
        return -1;
    }
    return rmdir(path) == 0 || errno == ENOENT ? 0 : -1;
}

/* --- the registry and the handler ------------------------------------------- */

#define SLOTS 16

static char *volatile slot_path[SLOTS];
static volatile pid_t slot_pid[SLOTS];
static volatile sig_atomic_t slot_dir[SLOTS];
static int wanted, installed;
static const int caught[] = { SIGINT, SIGTERM, SIGHUP };

static void on_signal(int sig)
{
    int saved = errno;
    pid_t me = getpid();
    for (int i = 0; i < SLOTS; i++) {
        char *p = slot_path[i];
        if (p && slot_pid[i] == me) {
            if (slot_dir[i])
                sd_rmtree(p);
            else
                unlink(p);
        }
    }
    /* die of the same signal: the parent (a shell, make) sees why */
    signal(sig, SIG_DFL);
    raise(sig);
    errno = saved;
}

static void install(void)
{
    struct sigaction sa, old;
    size_t i;

    installed = 1;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (i = 0; i < sizeof caught / sizeof *caught; i++)
        sigaddset(&sa.sa_mask, caught[i]);
    for (i = 0; i < sizeof caught / sizeof *caught; i++)
        if (sigaction(caught[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
            sigaction(caught[i], &sa, NULL);
}

void sd_cleanup_on_signals(void)
{
    wanted = 1;
}

int sd_cleanup_add(const char *path, int is_dir)
{
    if (wanted && !installed)
        install();
    for (int i = 0; i < SLOTS; i++) {
        if (slot_path[i])
            continue;
        char *p = strdup(path);
        if (!p)
            return -1;
        slot_dir[i] = is_dir != 0;
        slot_pid[i] = getpid();
        slot_path[i] = p;   /* last: the handler sees a complete slot or none */
        return 0;
    }
    return -1;
}

void sd_cleanup_forget(const char *path)
{
    for (int i = 0; path && i < SLOTS; i++) {
        char *p = slot_path[i];
        if (p && strcmp(p, path) == 0) {
            slot_path[i] = NULL;   /* first: the handler never reads freed memory */
            free(p);
            return;
        }
    }
}

void sd_cleanup_hold(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < sizeof caught / sizeof *caught; i++)
        sigaddset(&set, caught[i]);
    sigprocmask(SIG_BLOCK, &set, old);
}

void sd_cleanup_release(const sigset_t *old)
{
    sigprocmask(SIG_SETMASK, old, NULL);
}
