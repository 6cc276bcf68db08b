/* SPDX-License-Identifier: Apache-2.0 */
/* test_out.c - an output written while it is made (util/out.h with the
 * spill of util/buf.h): the buffer stays small, the file gets every byte
 * only at the commit, and a failure leaves nothing behind. */
#include "harness.h"
#include "buf.h"
#include "cleanup.h"
#include "diag.h"
#include "out.h"
#include "sd.h"

#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define TOTAL ((size_t)3 << 20)   /* well past SD_BUF_SPILL_AT */

static char dir[64];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/sd-test-out-XXXXXX");
    OK(mkdtemp(dir) != NULL);
}

/* Files in `dir` (the output and any temporary file left behind). */
static int files_in_dir(void) { return t_count_files(dir, NULL); }

/* A pending output for `path` with `b` spilling into it. */
static sd_out *spilling(sd_buf *b, const char *path, sd_diags *d)
{
    sd_out *o = NULL;
    INT_EQ(sd_out_open(&o, path, d), 0);
    b->spill = sd_out_spill;
    b->spill_ctx = o;
    return o;
}

/* The i-th byte of the test text: a pattern that a lost or repeated chunk
 * would break. */
static char byte_at(size_t i) { return (char)('a' + (i * 7 + i / 4096) % 26); }

/* Write TOTAL bytes in uneven pieces; the largest buffer size seen. */
static size_t write_text(sd_buf *b)
{
    size_t i = 0, most = 0;
    char piece[1000];
    while (i < TOTAL) {
        size_t n = 1 + (i * 13) % sizeof piece;
        if (n > TOTAL - i)
            n = TOTAL - i;
        for (size_t k = 0; k < n; k++)
            piece[k] = byte_at(i + k);
        if (i % 3 == 0)
            sd_buf_put(b, piece, n);
        else
            for (size_t k = 0; k < n; k++)
                sd_buf_putc(b, piece[k]);
        i += n;
        if (b->alloc > most)
            most = b->alloc;
    }
    return most;
}

static void test_spill_to_file(void)
{
    char path[128], *got = NULL;
    sd_diags d = SD_DIAGS_INIT;
    sd_buf b = SD_BUF_INIT;
    sd_out *o = NULL;
    size_t most, len = 0, bad = 0;
    FILE *f;

    make_dir();
    snprintf(path, sizeof path, "%s/page.html", dir);
    o = spilling(&b, path, &d);
    most = write_text(&b);
    OK(!sd_buf_failed(&b));
    OK(most < 4 * SD_BUF_SPILL_AT);          /* the buffer never held the text */
    OK(access(path, F_OK) != 0);              /* nothing in place before the commit */
    INT_EQ(files_in_dir(), 1);                /* the temporary file */
    INT_EQ(sd_out_commit(o, b.ptr, b.len, &d), 0);
    INT_EQ(files_in_dir(), 1);                /* renamed into place */
    OK((f = fopen(path, "rb")) != NULL);
    if (f) {
        got = malloc(TOTAL + 1);
        len = got ? fread(got, 1, TOTAL + 1, f) : 0;
        fclose(f);
    }
    INT_EQ(len, TOTAL);
    for (size_t i = 0; got && i < len; i++)
        bad += got[i] != byte_at(i);
    INT_EQ(bad, 0);
    INT_EQ(d.count, 0);
    free(got);
    unlink(path);
    rmdir(dir);
    sd_buf_release(&b);
    sd_diags_release(&d);
}

static void test_discard_leaves_nothing(void)
{
    char path[128];
    sd_diags d = SD_DIAGS_INIT;
    sd_buf b = SD_BUF_INIT;
    sd_out *o = NULL;

    make_dir();
    snprintf(path, sizeof path, "%s/page.html", dir);
    o = spilling(&b, path, &d);
    write_text(&b);
    INT_EQ(files_in_dir(), 1);
    sd_out_discard(o);                        /* a failed run */
    INT_EQ(files_in_dir(), 0);
    rmdir(dir);
    sd_buf_release(&b);
    sd_diags_release(&d);
}

static void test_spill_failure(void)
{
    sd_diags d = SD_DIAGS_INIT;
    sd_buf b = SD_BUF_INIT;
    sd_out *o = NULL;

    o = spilling(&b, "/nonexistent-dir-of-sd-tests/page.html", &d);
    write_text(&b);
    INT_EQ(sd_buf_error(&b), SD_EIO);          /* the buffer fails, later writes are ignored */
    OK(b.len < 2 * SD_BUF_SPILL_AT);
    OK(sd_out_commit(o, b.ptr, b.len, &d) < 0);
    INT_EQ(d.count, 1);
    OK(d.count == 1 && strstr(d.items[0].message, "cannot create output file") != NULL);
    sd_buf_release(&b);
    sd_diags_release(&d);
}

static void test_capped_buffer_keeps_its_text(void)
{
    sd_diags d = SD_DIAGS_INIT;
    sd_buf b = SD_BUF_INIT;
    sd_out *o = NULL;

    make_dir();
    o = spilling(&b, dir, &d);                /* never written: discarded below */
    b.cap = TOTAL;                            /* a cap counts the bytes held: no spill */
    write_text(&b);
    OK(!sd_buf_failed(&b));
    INT_EQ(b.len, TOTAL);
    INT_EQ(files_in_dir(), 0);
    sd_out_discard(o);
    rmdir(dir);
    sd_buf_release(&b);
    sd_diags_release(&d);
}

static void test_small_text_needs_no_spill(void)
{
    char path[128], got[16] = { 0 };
    sd_diags d = SD_DIAGS_INIT;
    sd_out *o = NULL;
    FILE *f;

    make_dir();
    snprintf(path, sizeof path, "%s/small.md", dir);
    INT_EQ(sd_out_open(&o, path, &d), 0);
    INT_EQ(files_in_dir(), 0);                /* nothing made before a spill */
    INT_EQ(sd_out_commit(o, "# hi\n", 5, &d), 0);
    OK((f = fopen(path, "rb")) != NULL);
    if (f) {
        INT_EQ(fread(got, 1, sizeof got - 1, f), 5);
        fclose(f);
    }
    STR_EQ(got, "# hi\n");
    unlink(path);
    rmdir(dir);
    sd_diags_release(&d);
}

/* Read `path` whole into a new string (NULL when unreadable). */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *s = malloc(64);
    size_t n = f && s ? fread(s, 1, 63, f) : 0;
    if (f)
        fclose(f);
    if (s)
        s[n] = '\0';
    return s;
}

/* Issue 36 item 16: the file replaced keeps its mode; a file with another
 * hard link is rewritten in place (both names see the new text); a
 * symbolic link (to a file, or dangling) is refused and left as it was. */
static void test_mode_links_symlinks(void)
{
    char path[128], other[128], lnk[128], *got;
    sd_diags d = SD_DIAGS_INIT;
    struct stat st, st2;

    make_dir();
    snprintf(path, sizeof path, "%s/secret.md", dir);
    OK(t_write_file(path, NULL, "old\n") == 0 && chmod(path, 0600) == 0);
    INT_EQ(sd_out_write(path, "new\n", 4, &d), 0);
    OK(stat(path, &st) == 0 && (st.st_mode & 07777) == 0600);
    OK(chmod(path, 0640) == 0);
    INT_EQ(sd_out_write(path, "newer\n", 6, &d), 0);
    OK(stat(path, &st) == 0 && (st.st_mode & 07777) == 0640);

    snprintf(other, sizeof other, "%s/hardlink.md", dir);
    OK(link(path, other) == 0);
    INT_EQ(sd_out_write(path, "linked\n", 7, &d), 0);
    OK(stat(path, &st) == 0 && stat(other, &st2) == 0 && st.st_ino == st2.st_ino && st.st_nlink == 2);
    STR_EQ(got = slurp(other), "linked\n");
    free(got);
    OK((st.st_mode & 07777) == 0640);
    INT_EQ(d.count, 0);

    snprintf(lnk, sizeof lnk, "%s/link.md", dir);
    OK(symlink(other, lnk) == 0);
    OK(sd_out_write(lnk, "via link\n", 9, &d) == SD_EDENIED);
    OK(d.count == 1 && strstr(d.items[0].message, "refusing to write through a symbolic link"));
    OK(lstat(lnk, &st) == 0 && S_ISLNK(st.st_mode));
    STR_EQ(got = slurp(other), "linked\n");
    free(got);
    unlink(lnk);
    OK(symlink("nowhere.md", lnk) == 0);   /* dangling: refused too */
    OK(sd_out_write(lnk, "x\n", 2, &d) == SD_EDENIED);
    OK(lstat(lnk, &st) == 0 && S_ISLNK(st.st_mode));
    snprintf(other + strlen(dir), sizeof other - strlen(dir), "/nowhere.md");
    OK(access(other, F_OK) != 0);
    INT_EQ(files_in_dir(), 3);   /* secret, hardlink, link: no temporary file */
    unlink(lnk);
    unlink(path);
    snprintf(other, sizeof other, "%s/hardlink.md", dir);
    unlink(other);
    rmdir(dir);
    sd_diags_release(&d);
}

/* A signal while the text is being written: the temporary file goes, the
 * target is untouched, and the process dies of the signal. */
static void test_signal_removes_the_temporary_file(void)
{
    int sigs[] = { SIGINT, SIGTERM, SIGHUP };
    char path[128], *got;
    make_dir();
    snprintf(path, sizeof path, "%s/page.html", dir);
    OK(t_write_file(path, NULL, "before\n") == 0);
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
        int st = 0;
        pid_t pid = fork();
        if (pid == 0) {
            sd_diags d = SD_DIAGS_INIT;
            sd_buf b = SD_BUF_INIT;
            signal(sigs[i], SIG_DFL);
            sd_cleanup_on_signals();
            spilling(&b, path, &d);
            write_text(&b);   /* spilled: the temporary file exists */
            if (t_count_files(dir, "page.html.tmp") != 1)
                _exit(3);
            raise(sigs[i]);
            _exit(4);
        }
        OK(pid > 0 && waitpid(pid, &st, 0) == pid);
        OK(WIFSIGNALED(st) && WTERMSIG(st) == sigs[i]);
        INT_EQ(t_count_files(dir, "page.html.tmp"), 0);
    }
    STR_EQ(got = slurp(path), "before\n");
    free(got);
    unlink(path);
    rmdir(dir);
}

TEST_MAIN(test_spill_to_file, test_mode_links_symlinks, test_signal_removes_the_temporary_file, test_discard_leaves_nothing, test_spill_failure,
          test_capped_buffer_keeps_its_text, test_small_text_needs_no_spill)
