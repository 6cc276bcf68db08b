/* tmplrefs.h - a chart's templates/ -> how they use each values path.
 *
 * The lint (source/lint.c) judges the keys of a values file against the
 * chart's values.yaml and schema; neither says which maps are application
 * configuration that the chart hands on whole (`{{ toYaml .Values.config |
 * nindent 4 }}`), which keys are names (`{{ range $name, $r :=
 * .Values.routes }}`), or which keys the templates read although
 * values.yaml does not write them. The templates say it: this scanner
 * reads their actions (its own small reader of Go template syntax: Helm's
 * functions need not be known, only their names), follows the dot through
 * `with`/`range`, and `$variables` through `:=`/`=`, and records each values
 * path it meets with how it was used.
 *
 * In: a chart directory (its templates/, recursively; regular files only,
 * never leaving the chart) or one template text. Out: the paths, each a
 * list of keys where "*" stands for any key or list index. Bounded: at most
 * 2,000 files and 32 MiB of text are read, 65,536 paths kept. */
#ifndef SD_TMPLREFS_H
#define SD_TMPLREFS_H

#include "arena.h"
#include "diag.h"

#include <stddef.h>
#include <stdint.h>

/* How a path is used (flags of one sd_tmplref). */
enum sd_tmplref_use {
    SD_TREF_READ  = 1 << 0,  /* its value is read: the key exists */
    SD_TREF_WHOLE = 1 << 1,  /* handed whole to toYaml, toJson, tpl, include,
                                template: free-form below it */
    SD_TREF_NAMES = 1 << 2   /* ranged over: its keys are names */
};

typedef struct sd_tmplref {
    const char **seg;        /* the keys ("*": any key or index) */
    size_t       nseg;
    unsigned     use;        /* enum sd_tmplref_use, or'ed over every use */
    const char  *key;        /* the keys joined by \x1f (the index's key) */
    int          read_below; /* a longer path read starts with this one */
} sd_tmplref;

/** The strings and arrays live in `arena`; sd_tmplrefs_release() frees all. */
typedef struct sd_tmplrefs {
    sd_tmplref *items;
    size_t      n, alloc;
    size_t      files;          /* template files read */
    int         has_templates;  /* the chart has a templates/ directory with a file */
    int         oom;
    uint32_t   *slot;           /* open addressing: items index + 1, 0 empty */
    size_t      cap;
    sd_arena    arena;
} sd_tmplrefs;

#define SD_TMPLREFS_INIT { NULL, 0, 0, 0, 0, 0, NULL, 0, SD_ARENA_INIT }

/** Read every file under `chart_dir`/templates into `r` (initialised with
 *  SD_TMPLREFS_INIT). No templates/ is not an error: r->has_templates stays
 *  0. A file that cannot be read is skipped, and so are symbolic links and
 *  files whose real path leaves `chart_dir` (sd_file_read_in; a templates/
 *  that leads out is refused by sd_chart_load). Returns 0 or SD_ENOMEM. */
int sd_tmplrefs_scan_dir(sd_tmplrefs *r, const char *chart_dir);
/** Scan one template text (`len` bytes) into `r`. Returns 0 or SD_ENOMEM. */
int sd_tmplrefs_scan(sd_tmplrefs *r, const char *text, size_t len);

/** What the templates say of the values path `seg[0..nseg)` (NULL entries
 *  are list indexes): SD_TREF_WHOLE when it lies at or below a path handed
 *  on whole that the templates do not also read key by key below;
 *  SD_TREF_NAMES when it is ranged over; SD_TREF_READ when a path read
 *  starts with it (so the key exists). */
unsigned sd_tmplrefs_use(const sd_tmplrefs *r, const char *const *seg, size_t nseg);

void sd_tmplrefs_release(sd_tmplrefs *r);

#endif
