/* SPDX-License-Identifier: Apache-2.0 */
/* test_cleanup.c - temporary files and trees that never outlive the run
 * (util/cleanup.h): sd_rmtree over trees deeper than any recursion limit,
 * wide and with links that must not be followed; a SIGINT, SIGTERM or
 * SIGHUP removes what is registered and the process still dies of the
 * signal; a forked child leaves its parent's paths alone; an unpacked
 * chart (load/archive.h) is removed whole, whatever its depth. */
#include "harness.h"
#include "archive.h"
#include "cleanup.h"
#include "diag.h"
#include "sd.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char base[64];

static void make_base(void)
{
    snprintf(base, sizeof base, "/tmp/sd-test-cleanup-XXXXXX");
    OK(mkdtemp(base) != NULL);
}

static int exists(const char *p)
{
    struct stat st;
    return lstat(p, &st) == 0;
}

/* A chain of `depth` directories under dir, each holding a file; built with
 * openat so that its path never has to fit in PATH_MAX. */
static int deep_chain(const char *dir, int depth)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY), ok = fd >= 0;
    for (int i = 0; ok && i < depth; i++) {
        int f = openat(fd, "file", O_WRONLY | O_CREAT, 0600);
        ok = f >= 0 && close(f) == 0 && mkdirat(fd, "d", 0700) == 0;
        int next = ok ? openat(fd, "d", O_RDONLY | O_DIRECTORY) : -1;
        close(fd);
        fd = next;
        ok = ok && fd >= 0;
    }
    if (fd >= 0)
        close(fd);
    return ok ? 0 : -1;
}

static void test_rmtree_deep(void)
{
    char tree[128];
    make_base();
    /* 3,000 levels: past the old limit of 64, past PATH_MAX (4096 bytes) */
    snprintf(tree, sizeof tree, "%s/t", base);
    OK(mkdir(tree, 0700) == 0);
    INT_EQ(deep_chain(tree, 3000), 0);
    INT_EQ(sd_rmtree(tree), 0);
    OK(!exists(tree));
    INT_EQ(t_count_files(base, NULL), 0);
    /* nothing there is not an error; a plain file goes too */
    INT_EQ(sd_rmtree(tree), 0);
    OK(t_write_file(base, "f", "x") == 0);
    snprintf(tree, sizeof tree, "%s/f", base);
    INT_EQ(sd_rmtree(tree), 0);
    OK(!exists(tree));
    rmdir(base);
}

static void test_rmtree_wide_and_links(void)
{
    char tree[128], p[256], outside[128];
    make_base();
    snprintf(tree, sizeof tree, "%s/t", base);
    snprintf(outside, sizeof outside, "%s/outside", base);
    OK(mkdir(tree, 0700) == 0 && mkdir(outside, 0700) == 0);
    OK(t_write_file(outside, "keep", "x") == 0);
    /* 3,000 entries in one folder, 300 of them non-empty folders */
    int made = 0;
    for (int i = 0; i < 3000; i++) {
        snprintf(p, sizeof p, "%s/e%04d", tree, i);
        if (i % 10)
            made += t_write_file(p, NULL, "x") == 0;
        else
            made += mkdir(p, 0700) == 0 && t_write_file(p, "f", "x") == 0;
    }
    INT_EQ(made, 3000);
    /* links to a folder and a file outside: removed, never followed */
    snprintf(p, sizeof p, "%s/e0000/link-dir", tree);
    OK(symlink(outside, p) == 0);
    snprintf(p, sizeof p, "%s/link-file", tree);
    snprintf(outside + strlen(outside), sizeof outside - strlen(outside), "/keep");
    OK(symlink(outside, p) == 0);
    INT_EQ(sd_rmtree(tree), 0);
    OK(!exists(tree));
    OK(exists(outside));
    snprintf(p, sizeof p, "%s/outside", base);
    INT_EQ(sd_rmtree(p), 0);
    rmdir(base);
}

/* A child registers a file and a deep tree, then gets `sig`: both gone,
 * the child dead of that very signal. */
static void signal_case(int sig)
{
    char tree[128], file[128];
    pid_t pid;
    int st = 0;
    make_base();
    snprintf(tree, sizeof tree, "%s/tree", base);
    snprintf(file, sizeof file, "%s/out.tmp", base);
    if ((pid = fork()) == 0) {
        sigset_t old;
        signal(sig, SIG_DFL);   /* as if started from a terminal */
        sd_cleanup_on_signals();
        sd_cleanup_hold(&old);
        if (mkdir(tree, 0700) != 0 || deep_chain(tree, 500) != 0 || t_write_file(file, NULL, "x") != 0)
            _exit(3);
        sd_cleanup_add(tree, 1);
        sd_cleanup_add(file, 0);
        sd_cleanup_release(&old);
        raise(sig);
        _exit(4);   /* not reached: the signal ends the child */
    }
    OK(pid > 0 && waitpid(pid, &st, 0) == pid);
    OK(WIFSIGNALED(st) && WTERMSIG(st) == sig);
    OK(!exists(tree));
    OK(!exists(file));
    INT_EQ(t_count_files(base, NULL), 0);
    sd_rmtree(base);
}

static void test_signals(void)
{
    signal_case(SIGINT);
    signal_case(SIGTERM);
    signal_case(SIGHUP);
}

/* A forked child that dies of a signal leaves its parent's paths; once
 * forgotten, a path is left to its owner. */
static void test_forked_child(void)
{
    char file[128];
    pid_t pid;
    int st = 0;
    make_base();
    snprintf(file, sizeof file, "%s/parent.tmp", base);
    OK(t_write_file(file, NULL, "x") == 0);
    sd_cleanup_on_signals();
    INT_EQ(sd_cleanup_add(file, 0), 0);
    if ((pid = fork()) == 0) {
        char mine[160];
        snprintf(mine, sizeof mine, "%s/child.tmp", base);
        t_write_file(mine, NULL, "x");
        sd_cleanup_add(mine, 0);
        /* the handler the parent installed was inherited */
        struct sigaction sa;
        sigaction(SIGTERM, NULL, &sa);
        if (sa.sa_handler == SIG_DFL)
            _exit(5);
        raise(SIGTERM);
        _exit(4);
    }
    OK(pid > 0 && waitpid(pid, &st, 0) == pid);
    OK(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
    OK(exists(file));
    INT_EQ(t_count_files(base, NULL), 1);   /* the child's own went */
    sd_cleanup_forget(file);
    unlink(file);
    sd_rmtree(base);
}

/* A chart unpacked 120 folders deep is removed whole (the old cleanup gave
 * up below 64 levels and left 124 entries), and a refused archive leaves
 * nothing either. */
static void test_archive_cleanup(void)
{
    static const char chart[] = "apiVersion: v2\nname: c\nversion: 1.0.0\n";
    char tar[8192], *out = NULL, *tmp = NULL;
    size_t n = 0;
    sd_diags d = SD_DIAGS_INIT;
    make_base();
    setenv("TMPDIR", base, 1);
    memset(tar, 0, sizeof tar);
    /* a ustar header for `name` of `size` bytes, then the data */
    #define MEMBER(name, data, type) do { \
        char *h = tar + n; size_t len = strlen(data); unsigned sum = 0; \
        snprintf(h, 100, "%s", name); memcpy(h + 100, "0000600", 8); \
        snprintf(h + 124, 12, "%011o", (unsigned)len); h[156] = (type); \
        memcpy(h + 257, "ustar\0" "00", 8); memset(h + 148, ' ', 8); \
        for (int i_ = 0; i_ < 512; i_++) sum += (unsigned char)h[i_]; \
        snprintf(h + 148, 8, "%06o", sum); \
        memcpy(h + 512, data, len); n += 512 + (len + 511) / 512 * 512; } while (0)
    char rec[400], path[300];
    int k = snprintf(path, sizeof path, "c/");
    for (int i = 0; i < 120; i++)
        k += snprintf(path + k, sizeof path - (size_t)k, "d/");
    snprintf(path + k, sizeof path - (size_t)k, "f.yaml");
    int len = (int)strlen(path) + 10;   /* "NNN path=...\n": 3 digits */
    snprintf(rec, sizeof rec, "%d path=%s\n", len, path);
    OK((int)strlen(rec) == len);
    MEMBER("c/Chart.yaml", chart, '0');
    MEMBER("././@PaxHeader", rec, 'x');
    MEMBER("placeholder", "a: 1\n", '0');
    n += 1024;
    INT_EQ(sd_archive_untar(&out, &tmp, tar, n, "deep.tgz", &d), 0);
    OK(out && tmp && exists(out));
    snprintf(rec, sizeof rec, "%s/%s", out ? out : "", "d/d/d/d/d");
    OK(exists(rec));
    sd_archive_cleanup(tmp);
    INT_EQ(t_count_files(base, NULL), 0);
    free(out);
    free(tmp);
    /* refused halfway (a link after the deep file): nothing left */
    n -= 1024;
    MEMBER("c/link", "", '2');
    n += 1024;
    OK(sd_archive_untar(&out, &tmp, tar, n, "deep.tgz", &d) < 0);
    OK(d.count == 1 && strstr(d.items[0].message, "tar entry 4 ('c/link'): refused: links"));
    INT_EQ(t_count_files(base, NULL), 0);
    sd_diags_release(&d);
    unsetenv("TMPDIR");
    rmdir(base);
}

TEST_MAIN(test_rmtree_deep, test_rmtree_wide_and_links, test_signals, test_forked_child,
          test_archive_cleanup)
