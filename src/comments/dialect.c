/* SPDX-License-Identifier: Apache-2.0 */
/* dialect.c - the table of comment dialects (dialects.def) and the choice
 * of a values file's dialect (see dialect.h). */
#include "dialect.h"
#include "annot_int.h"
#include "bncheck.h"

#include <string.h>

const sd_dialect sd_dialects[SD_DIALECT_COUNT] = {
#define SD_DIALECT(id, name, detect, read, rows, check, view, flags) \
    { name, detect, read, SD_ROWS_##rows, check, view, (flags) },
#define CODE_CELLS SD_DIALECT_CODE_CELLS
#define SECTION_TABLES SD_DIALECT_SECTION_TABLES
#define PLACEHOLDER_DEFAULTS SD_DIALECT_PLACEHOLDER_DEFAULTS
#include "dialects.def"
#undef CODE_CELLS
#undef SECTION_TABLES
#undef PLACEHOLDER_DEFAULTS
#undef SD_DIALECT
};

const sd_dialect *sd_dialect_detect(const sd_doc *values)
{
    for (size_t i = 0; i + 1 < SD_DIALECT_COUNT; i++)
        if (values && sd_dialects[i].detect && sd_dialects[i].detect(values))
            return &sd_dialects[i];
    return &sd_dialects[SD_DIALECT_COUNT - 1];
}

const sd_dialect *sd_dialect_find(const char *name)
{
    for (size_t i = 0; name && i < SD_DIALECT_COUNT; i++)
        if (!strcmp(sd_dialects[i].name, name))
            return &sd_dialects[i];
    return NULL;
}

int sd_dialect_at_schema(const sd_doc *values)
{
    return values && values->text && strstr(values->text, "@schema") != NULL;
}
