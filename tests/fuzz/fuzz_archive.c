/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_archive.c - the packaged-chart reader (src/load/archive.c): the
 * input is the tar stream of a .tgz (already inflated: zlib is not ours),
 * unpacked with sd_archive_untar into this process's own $TMPDIR. Aborts
 * when anything is left behind there afterwards (unpacked or refused), or
 * when an unpacked tree holds anything but directories and regular files,
 * or sits outside its temporary directory. */
#include "fuzz.h"
#include "archive.h"
#include "cleanup.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64];

/* Only directories and regular files under `path`; depth-first, bounded by
 * the archive's own name length (256 bytes). */
static void only_plain(const char *path, int depth)
{
    DIR *d;
    struct dirent *e;
    char sub[4096];
    struct stat st;
    if (depth > 200 || !(d = opendir(path)))
        abort();
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        if (lstat(sub, &st) != 0)
            abort();
        if (S_ISDIR(st.st_mode))
            only_plain(sub, depth + 1);
        else if (!S_ISREG(st.st_mode))
            abort();
    }
    closedir(d);
}

static int is_empty(const char *path)
{
    DIR *d = opendir(path);
    struct dirent *e;
    int n = 0;
    if (!d)
        return 0;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    closedir(d);
    return n == 0;
}

static void remove_dir(void)
{
    sd_rmtree(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sd_diags diags = SD_DIAGS_INIT;
    char *out = NULL, *tmp = NULL;

    if (size > FUZZ_MAX_INPUT)
        return -1;
    if (!dir[0]) {
        /* a memory file system when there is one: unpacking is file system work */
        snprintf(dir, sizeof dir, "%s/sd-fuzz-archive-%ld", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp",
                 (long)getpid());
        if (mkdir(dir, 0700) != 0 || setenv("TMPDIR", dir, 1) != 0)
            abort();
        atexit(remove_dir);
    }
    if (sd_archive_untar(&out, &tmp, (const char *)data, size, "fuzz.tar", &diags) == 0) {
        size_t tl = strlen(tmp);
        if (strncmp(tmp, dir, strlen(dir)) || strncmp(out, tmp, tl) || (out[tl] && out[tl] != '/'))
            abort();
        only_plain(tmp, 0);
        sd_archive_cleanup(tmp);
        struct stat st;
        if (lstat(tmp, &st) == 0)
            abort();   /* cleanup left the tree */
    } else if (!diags.count) {
        abort();       /* a refusal always says why */
    }
    if (!is_empty(dir))
        abort();       /* nothing outlives the call */
    free(out);
    free(tmp);
    sd_diags_release(&diags);
    return 0;
}
