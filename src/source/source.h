/* SPDX-License-Identifier: Apache-2.0 */
/* source.h - open any input: the first stage every command shares.
 *
 * In: a path (a Helm chart directory, a JSON Schema file, a Kubernetes CRD
 * file or a ytt schema) and the source options. Out: an sd_source that owns
 * every document read (Chart.yaml, values, schemas, subcharts, documents
 * reached by $ref), the docset with its prefix maps (schema-dependencies.json,
 * --map) and confinement, the CRD layout, the translation of a ytt schema,
 * and the one resolver and the one validator of the run. The model, the
 * validation of values files and the rules export all follow $ref through
 * this resolver, so they agree on every target.
 *
 * The schemas of a source are its entry points, in a fixed order:
 *   chart   "values" (values.schema.json or .yaml; when the chart has none,
 *           the schema made from its values.yaml and comments, gen.h), then
 *           "charts/ALIAS" for each subchart with a schema
 *   CRD     "GROUP/VERSION" for each version that has an openAPIV3Schema
 *           ("GROUP/VERSION#2" for a second CRD of the same group and version)
 *   ytt     "values" (the JSON Schema translated from the annotations)
 *   schema  "schema" (the file itself) */
#ifndef SD_SOURCE_H
#define SD_SOURCE_H

#include "chart.h"
#include "commented.h"
#include "crd.h"
#include "dialect.h"
#include "diag.h"
#include "docset.h"
#include "node.h"
#include "resolve.h"
#include "validate.h"

/** How a source is read; zero values are the defaults. */
typedef struct sd_source_opts {
    int          draft;        /* dialect when `$schema` is absent: 4, 6, 7,
                                  2019, 2020 (0: 2020-12) */
    int          lenient;      /* an unresolved reference is a warning, not an error */
    const char *const *maps;   /* --map PREFIX=TARGET, in order (borrowed) */
    size_t       nmaps;
    int          offline;      /* remote documents only from the cache */
    int          refresh;      /* fetch remote documents again */
    const char  *cache_dir;    /* NULL: $XDG_CACHE_HOME/schemadoc or ~/.cache/schemadoc */
    long         timeout_ms;   /* per request (0: 30 s) */
    int          k8s_types_off; /* --k8s-types off: no key gets a Kubernetes type (docs/k8s.md) */
    int          k8s_bundle;   /* a chart without a schema: its typed keys get their
                                  Kubernetes definitions (the form), not left open */
} sd_source_opts;

enum sd_source_kind {
    SD_SOURCE_CHART = 1, SD_SOURCE_SCHEMA, SD_SOURCE_CRD, SD_SOURCE_YTT
};

/** One schema of a source (an entry point). Everything is borrowed from
 *  the source. */
typedef struct sd_source_schema {
    const char    *name;   /* "values", "charts/redis", "example.com/v1", "schema" */
    const sd_doc  *doc;    /* the document the schema node sits in */
    const sd_node *root;   /* the schema; NULL for a chart without one */
    const sd_chart *chart; /* charts: the chart or subchart it belongs to */
    const sd_crd  *crd;    /* CRDs: the CRD and the version */
    const sd_crd_version *version;
} sd_source_schema;

typedef struct sd_source sd_source;

/** Open `path`. On success *out is a new source the caller frees with
 *  sd_source_free(); on failure returns SD_E* with an error in `diags`
 *  (SD_ENOTFOUND: nothing at `path`, or a directory that is no chart;
 *  a load, map or ytt error otherwise). Warnings may be added either way.
 *  `opts` is copied (the strings it points to must outlive the source). */
int sd_source_open(sd_source **out, const char *path, const sd_source_opts *opts,
                   sd_diags *diags);
void sd_source_free(sd_source *src);

/** What was opened: enum sd_source_kind. */
int sd_source_kind(const sd_source *src);
/** The path as given. Borrowed. */
const char *sd_source_path(const sd_source *src);
/** The options the source was opened with. Borrowed. */
const sd_source_opts *sd_source_options(const sd_source *src);
/** The chart (SD_SOURCE_CHART), or NULL. Borrowed. */
const sd_chart *sd_source_chart(const sd_source *src);
/** The comment dialect of `ch`'s values (dialect.h): for the source's chart
 *  and its subcharts, the one chosen when the source was opened; for any
 *  other chart, the one its values are written in. Every later stage takes
 *  a chart's dialect from here. Never NULL; static, never freed. */
const sd_dialect *sd_source_dialect(const sd_source *src, const sd_chart *ch);
/** The file that was opened (schema, CRD or ytt file); NULL for charts. */
const sd_doc *sd_source_doc(const sd_source *src);
/** The CRDs of a CRD file (empty otherwise). Borrowed. */
const sd_crds *sd_source_crds(const sd_source *src);
/** A ytt source's schema translated to JSON Schema, or NULL. Borrowed. */
const sd_doc *sd_source_ytt_schema(const sd_source *src);
sd_resolver *sd_source_resolver(sd_source *src);

/** The entry points (see the top of this file). */
size_t sd_source_nschemas(const sd_source *src);
const sd_source_schema *sd_source_schema_at(const sd_source *src, size_t i);
/** The entry point named `name`, or NULL. */
const sd_source_schema *sd_source_schema_named(const sd_source *src, const char *name);

/** Resolve the $ref `ref` (the string node that is the value of "$ref")
 *  written in the schema map `from` of document `doc`. On success *out is
 *  the target. On failure returns SD_EREF (or the loader's code) with an
 *  error at the $ref in `diags`, or, when the source is lenient, a
 *  warning with the same text (the return code still says it failed). */
int sd_source_resolve(sd_source *src, const sd_schema_info **out, const sd_doc *doc,
                      const sd_node *from, const sd_node *ref, sd_diags *diags);

/** The validator of the source, compiled on first use with `vopts` (its
 *  resolver, load, map and payload fields are ignored: the source's
 *  resolver serves them); later calls return the same validator. Borrowed:
 *  freed with the source. Returns 0 or SD_ENOMEM. */
int sd_source_validator(sd_validator **out, sd_source *src, const sd_validate_opts *vopts,
                        sd_diags *diags);
/** The validator entry (sd_validate_entry()) of schema `i`, compiling it
 *  on first use. Returns the entry (>= 0) or a negative SD_E* (a schema
 *  that does not compile, with errors in `diags`). The validator must have
 *  been made with sd_source_validator(). */
int sd_source_entry(sd_source *src, size_t i, sd_diags *diags);

/** 1 when the chart ships no schema and its "values" schema is the one
 *  made from its values.yaml (a map with keys) and comments (gen.h: with the chart's
 *  .schema.yaml settings and ci/ files); the source said so in a note. */
int sd_source_schema_generated(const sd_source *src);

/** The keys commented out in the values.yaml (of the chart or a subchart)
 *  whose root is `values_root` (commented.h), scanned on first use and
 *  owned by the source; NULL when `values_root` is no chart's values root,
 *  or when out of memory (noted: sd_alloc_note_failure). */
const sd_ckeys *sd_source_commented(sd_source *src, const sd_node *values_root);

/** The documents of `path` as the loader sees them (the `doc` format): one
 *  JSON object per file (a chart: Chart.yaml, values.yaml, the schema,
 *  schema-dependencies.json) appended to `out`. Returns 0 or SD_E*. */
int sd_source_dump(sd_buf *out, const char *path, sd_diags *diags);

#endif
