/* SPDX-License-Identifier: Apache-2.0 */
/* outfmt.c - the output formats as data: outfmt.def's rows as sd_outfmts[]
 * and a lookup by name (render.h). The command line, the page renderer and
 * the view read a format's columns here instead of comparing its name. */
#include "render.h"
#include "render_int.h"

#include <string.h>

const sd_outfmt sd_outfmts[SD_OUT_COUNT] = {
#define SD_OUTFMT(id, name, ext, make, top, markup, escape, flags)                                     \
    [SD_OUT_##id] = { name, ext, SD_MAKE_##make, top, SD_MARKUP_##markup, escape, SD_OUTFMT_FLAGS(flags) },
#define THEMED SD_OUTFMT_THEMED
#define README SD_OUTFMT_README
#define SOURCE_URL SD_OUTFMT_SOURCE_URL
#define REFERENCE SD_OUTFMT_REFERENCE
#define SCRIPT SD_OUTFMT_SCRIPT
#define LAZY_ROWS SD_OUTFMT_LAZY_ROWS
#define SD_OUTFMT_FLAGS(f) (unsigned)(f)
#include "outfmt.def"
#undef SD_OUTFMT
#undef THEMED
#undef README
#undef SOURCE_URL
#undef REFERENCE
#undef SCRIPT
#undef LAZY_ROWS
#undef SD_OUTFMT_FLAGS
};

const sd_outfmt *sd_outfmt_find(const char *name)
{
    for (size_t i = 0; name && i < SD_OUT_COUNT; i++)
        if (!strcmp(sd_outfmts[i].name, name))
            return &sd_outfmts[i];
    return NULL;
}
