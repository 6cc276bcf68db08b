/* out.c - atomic output files (see out.h). */
#include "out.h"
#include "alloc.h"
#include "buf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int sd_out_write(const char *path, const char *data, size_t len, sd_diags *diags)
{
    sd_buf tmp = SD_BUF_INIT;
    sd_loc loc = { path, 0, 0 };
    FILE *f;
    int fd, err = 0;

    /* a JSON value that could not be allocated was dropped somewhere on
     * the way here: the data is incomplete, write none of it (alloc.h) */
    if (sd_alloc_failed())
        return sd_diag_error(diags, SD_ENOMEM, (sd_loc){ NULL, 0, 0 }, "out of memory");

    if (!path || strcmp(path, "-") == 0) {
        if (fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0) {
            loc.file = "<stdout>";
            return sd_diag_error(diags, SD_EIO, loc, "write failed: %s", strerror(errno));
        }
        return 0;
    }
    {
        /* A device or FIFO (/dev/null, /dev/stdout, a pipe) is written in
         * place: renaming a temporary file over it would replace it. */
        struct stat st;
        if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
            if (!(f = fopen(path, "wb")))
                return sd_diag_error(diags, SD_EIO, loc, "cannot write output file: %s", strerror(errno));
            if (fwrite(data, 1, len, f) != len || fflush(f) != 0) {
                fclose(f);
                return sd_diag_error(diags, SD_EIO, loc, "write failed: %s", strerror(errno));
            }
            if (fclose(f) != 0)
                return sd_diag_error(diags, SD_EIO, loc, "write failed: %s", strerror(errno));
            return 0;
        }
    }
    sd_buf_printf(&tmp, "%s.tmpXXXXXX", path);
    if (sd_buf_failed(&tmp))
        return sd_diag_error(diags, SD_ENOMEM, loc, "out of memory");
    if ((fd = mkstemp(tmp.ptr)) < 0) {
        err = sd_diag_error(diags, SD_EIO, loc, "cannot create output file: %s", strerror(errno));
        goto done;
    }
    {
        mode_t um = umask(0);
        umask(um);
        (void)fchmod(fd, 0666 & ~um); /* mkstemp made it 0600 */
    }
    if (!(f = fdopen(fd, "wb"))) {
        close(fd);
        unlink(tmp.ptr);
        err = sd_diag_error(diags, SD_EIO, loc, "cannot write output file: %s", strerror(errno));
        goto done;
    }
    if (fwrite(data, 1, len, f) != len || fflush(f) != 0) {
        err = sd_diag_error(diags, SD_EIO, loc, "write failed: %s", strerror(errno));
        fclose(f);
        unlink(tmp.ptr);
        goto done;
    }
    if (fclose(f) != 0 || rename(tmp.ptr, path) != 0) {
        err = sd_diag_error(diags, SD_EIO, loc, "cannot write output file: %s", strerror(errno));
        unlink(tmp.ptr);
    }
done:
    sd_buf_release(&tmp);
    return err;
}
