/* model.h - the normalized model: every source becomes one JSON tree.
 *
 * A chart, a JSON Schema, a CRD or a ytt schema all become the same model
 * (documented field by field in docs/model.md): source metadata, a tree of
 * nodes (one per schema location, each with title, description, types,
 * default, examples, constraints, flags and source positions), shared
 * definitions listed once and referenced by id, and the flat parameter rows
 * that Markdown tables show. Templates and `--format json` see exactly this. */
#ifndef SD_MODEL_H
#define SD_MODEL_H

#include "diag.h"
#include "node.h"

#include <jansson.h>

typedef struct sd_model_opts {
    int          draft;        /* default JSON Schema draft: 4, 6, 7, 2019, 2020 */
    int          lenient;      /* unresolved references are warnings, not errors */
    int          max_depth;    /* nesting of the model tree (default 64) */
    const char **maps;         /* --map PREFIX=TARGET, in order */
    size_t       nmaps;
    int          offline;      /* remote documents only from the cache */
    int          refresh;      /* fetch remote documents again */
    const char  *cache_dir;    /* NULL: $XDG_CACHE_HOME/schemadoc or ~/.cache/schemadoc */
    long         timeout_ms;   /* per request (0: 30 s) */
} sd_model_opts;

/** Build the model of `source` (a chart directory or a schema/CRD/ytt file).
 *  Returns a new reference the caller releases with json_decref(), or NULL
 *  with an error in `diags` (warnings may be added either way). */
json_t *sd_model_build(const char *source, const sd_model_opts *opts, sd_diags *diags);

/** "static_ip" -> "Static ip", "replicaCount" -> "Replica count" (seed 004
 *  Part 6, rails humanize, with camelCase split). Caller frees. */
char *sd_humanize(const char *key);

#endif
