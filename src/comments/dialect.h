/* SPDX-License-Identifier: Apache-2.0 */
/* dialect.h - the comment dialects of values files, one row each
 * (dialects.def): how a file is known to be written in one, the reader of
 * its annotations, and the conventions of the tool that writes its README
 * tables.
 *
 * The source stage picks a chart's dialect once (sd_source_dialect(), for
 * the chart and each subchart) and passes it on: to the reader
 * (sd_annots_scan), the parameter rows (rows/), the model's
 * `source.dialect`, the README check (cli/cmd_render.c); the view finds the
 * row again by that name (render/: cells, tables, defaults). No file
 * compares a dialect's name or id. The `# @schema` annotations of the
 * schema tools (atschema.h) are no row: a file of either dialect may carry
 * them, and sd_dialect_at_schema() is the one test of whether it does. */
#ifndef SD_DIALECT_H
#define SD_DIALECT_H

#include "diag.h"
#include "node.h"

struct sd_annots;

/* SD_DIALECT_<id>: a row's index in sd_dialects (SD_DIALECT_COUNT: how many). */
enum sd_dialect_id {
#define SD_DIALECT(id, name, detect, read, rows, check, view, flags) SD_DIALECT_##id,
#include "dialects.def"
#undef SD_DIALECT
    SD_DIALECT_COUNT
};

/* How the parameter rows list the keys (the rows column). */
enum sd_dialect_rows { SD_ROWS_KEYS, SD_ROWS_ANNOTATIONS };

/* The README conventions of the dialect's tool (the flags column). */
enum sd_dialect_flags {
    SD_DIALECT_CODE_CELLS = 1 << 0,
    SD_DIALECT_SECTION_TABLES = 1 << 1,
    SD_DIALECT_PLACEHOLDER_DEFAULTS = 1 << 2
};

/* A row of dialects.def; its header explains each field. */
typedef struct sd_dialect {
    const char *name;
    int       (*detect)(const sd_doc *values);
    int       (*read)(struct sd_annots *out, const sd_doc *values);
    int         rows;          /* enum sd_dialect_rows */
    int       (*check)(const sd_doc *values, const struct sd_annots *a, int lenient, sd_diags *diags);
    const char *view;
    unsigned    flags;         /* enum sd_dialect_flags */
} sd_dialect;

/** The table, in dialects.def's order. */
extern const sd_dialect sd_dialects[SD_DIALECT_COUNT];

/** The dialect `values` (may be NULL) is written in: the first row whose
 *  test says so, else the last row. Never NULL; static, never freed. */
const sd_dialect *sd_dialect_detect(const sd_doc *values);
/** The row named `name` (a model's `source.dialect`), or NULL. Static. */
const sd_dialect *sd_dialect_find(const char *name);
/** 1 when `values` (may be NULL) carries `# @schema` annotations of either
 *  schema tool (atschema.h), else 0: the test before a scan for them. */
int sd_dialect_at_schema(const sd_doc *values);

#endif
