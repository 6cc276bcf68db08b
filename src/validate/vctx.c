/* SPDX-License-Identifier: Apache-2.0 */
/* vctx.c - the validator walk's context (vwalk.h): a check's failure in,
 * a finding at the walk's place in the instance out (vreport.c makes the
 * record, the result list owns it), or a fatal stop that ends the walk
 * (a loop of $refs, the depth bound, out of memory) in the run's diags. */
#include "vwalk.h"
#include "buf.h"

#include <stdarg.h>

int sd_vwalk__fatal(vctx *c, sd_loc at, int code, const char *fmt, ...)
{
    sd_buf b = SD_BUF_INIT;
    va_list ap;
    if (c->fatal)
        return 0;
    c->fatal = code;
    va_start(ap, fmt);
    sd_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    sd_diag_error(c->diags, code, at, "%s", b.ptr);
    sd_buf_release(&b);
    return 0;
}

/* One finding at value `inst` (or `at`, a key), appended to the result
 * (vreport.c makes the record). */
static void vrecord(vctx *c, int warn, const vs *s, const char *kw, const sd_tval *inst,
                    const sd_tval *at, const char *fmt, va_list ap)
{
    if (c->res)
        sd_vprog__record(c->v, c->res, c->max, warn, c->path, c->npath, s, kw, ILOC(c, at ? at : inst), at != NULL, fmt, ap);
}

void sd_vwalk__err(vctx *c, const vs *s, const char *kw, const sd_tval *inst,
                   const sd_tval *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vrecord(c, 0, s, kw, inst, at, fmt, ap);
    va_end(ap);
}

void sd_vwalk__warn(vctx *c, const vs *s, const char *kw, const sd_tval *inst, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vrecord(c, 1, s, kw, inst, NULL, fmt, ap);
    va_end(ap);
}
