/* SPDX-License-Identifier: Apache-2.0 */
/* k8s.h - Kubernetes types for chart values (issue 43; docs/k8s.md).
 *
 * The types: a subset of the Kubernetes API's OpenAPI document, release
 * 1.36 (src/k8s/k8s_types.json, made by gen-types.py, embedded at build
 * time), parsed on first use into an sd_doc. The typed keys: which values
 * paths of a chart are of which Kubernetes type, and on what evidence
 * (k8s_evidence.c). The check: a values subtree against its type, as the
 * API server would take it (k8s_check.c).
 *
 * In: a chart's values, its schema, its `@schema` annotations and the
 * template places (places.h). Out: typed keys, and findings appended to an
 * sd_vresult in the validator's shape. */
#ifndef SD_K8S_H
#define SD_K8S_H

#include "buf.h"
#include "node.h"
#include "places.h"
#include "validate.h"

#include <stddef.h>

/* The embedded definitions, {"definitions": {...}}, gzip-compressed
 * (embed-types.sh); sd_k8s_types_open() inflates them. */
extern const unsigned char sd_k8s__types_gz[];
extern const size_t sd_k8s__types_gz_len;

/** The Kubernetes API release the types come from. */
#define SD_K8S_RELEASE "1.36"

typedef struct sd_k8s_types sd_k8s_types;

/** Parse the embedded definitions. Returns 0 with *out set (the caller
 *  frees it with sd_k8s_types_free()), or SD_ENOMEM. */
int sd_k8s_types_open(sd_k8s_types **out);
void sd_k8s_types_free(sd_k8s_types *t);

/** The definition named `name`, full ("io.k8s.api.core.v1.Toleration") or
 *  short ("Toleration", "core/v1.Toleration"), or NULL; *full (may be NULL)
 *  gets its full name. Borrowed from `t`. */
const sd_node *sd_k8s_types_def(const sd_k8s_types *t, const char *name, size_t len,
                                const char **full);
/** The full name of the definition a `$ref` string points at, when its
 *  last segment names one of ours ("...#/definitions/io.k8s.api.core.v1.Probe",
 *  "$k8s/...", bjw-s' "k8s-api.json#/core.v1.Probe"), or NULL. Borrowed. */
const char *sd_k8s_types_ref(const sd_k8s_types *t, const char *ref);

/** Append "ResourceRequirements (core/v1)" for full name `full`. */
void sd_k8s_type_label(sd_buf *out, const char *full);
/** Append the API reference's address for `full`:
 *  https://kubernetes.io/docs/reference/generated/kubernetes-api/v1.36/#resourcerequirements-v1-core */
void sd_k8s_type_url(sd_buf *out, const char *full);

/** When the last segment of `ref` (a `$ref`, a model's ref id) is a
 *  Kubernetes definition's full name ("#/$defs/io.k8s.api.core.v1.Probe"):
 *  append its label and API reference address (either may be NULL) and
 *  return 1; else 0. Needs no types: the pages name what a schema says. */
int sd_k8s_ref_label(sd_buf *label, sd_buf *url, const char *ref);

/* ---- the typed keys (k8s_evidence.c) ------------------------------------- */

/** What made a key typed, strongest first. */
enum sd_k8s_evidence {
    SD_K8S_EXPLICIT = 1,  /* a $ref into the Kubernetes schema, `$k8s/...`, or
                             an `@schema` annotation naming the type */
    SD_K8S_TEMPLATE = 2,  /* the chart's templates hand it whole to a typed place */
    SD_K8S_NAME     = 3   /* its name is the field's, its default validates */
};

typedef struct sd_k8s_key {
    const char *ptr;      /* the values path, a JSON pointer: "/server/resources" */
    const char *type;     /* the full definition name */
    int         list;     /* 1: a list of `type` */
    int         evidence; /* enum sd_k8s_evidence */
    const char *why;      /* the evidence in words, for findings */
    const char *omit;     /* keys the templates take out before writing the
                             value (places.h), one per line; NULL: none */
} sd_k8s_key;

typedef struct sd_k8s_keys {
    sd_k8s_key *v;
    size_t      n, cap;
    sd_arena    arena;    /* the strings */
} sd_k8s_keys;

#define SD_K8S_KEYS_INIT { NULL, 0, 0, SD_ARENA_INIT }

/** Inputs of the typing; any may be NULL. */
typedef struct sd_k8s_chart {
    const sd_doc          *values;  /* the chart's values.yaml (defaults, annotations) */
    const sd_node         *schema;  /* its values.schema.json root, or NULL */
    const sd_k8s_places   *places;  /* the templates' places (evidence 2) */
} sd_k8s_chart;

/** Type the keys of `in` into `out` (SD_K8S_KEYS_INIT), each with the
 *  strongest evidence that applies; a key an `@schema` annotation switches
 *  off (`k8s: off`) is left out. Returns 0 or SD_ENOMEM. */
int sd_k8s_keys_scan(sd_k8s_keys *out, const sd_k8s_types *t, const sd_k8s_chart *in);
/** The typed key of `ptr`, or NULL. */
const sd_k8s_key *sd_k8s_keys_find(const sd_k8s_keys *k, const char *ptr);
void sd_k8s_keys_release(sd_k8s_keys *k);

/* ---- the made schema (k8s_schema.c) -------------------------------------- */

/** In `doc`, a made schema: each key of `keys` whose property it has
 *  becomes a `$ref` to `#/$defs/<full type name>` (a list: `items` of it),
 *  its description and default kept, and the definitions it needs are
 *  bundled under `$defs`. Returns 0 or SD_ENOMEM. */
int sd_k8s_schema_bundle(sd_doc *doc, const sd_k8s_types *t, const sd_k8s_keys *keys);

/** The made schema of a chart typed: the keys `values` (its values.yaml)
 *  and its templates in `chart_dir` (may be NULL) prove (no schema of its
 *  own: it is being made), bundled into `schema` as above; or, with
 *  `open` (the schema every command makes for a chart that ships none),
 *  each such key's property left open for validate's layer. Returns 0 or
 *  SD_ENOMEM. */
int sd_k8s_type_schema(sd_doc *schema, const sd_doc *values, const char *chart_dir, int open);

/** The places of `chart_dir`'s templates (evidence 2) into `out`, released
 *  with sd_k8s_chart_places_release(). Returns 0 or SD_ENOMEM. */
int sd_k8s_chart_places(sd_k8s_places *out, const char *chart_dir);
void sd_k8s_chart_places_release(sd_k8s_places *p);

/* ---- the check (k8s_check.c) --------------------------------------------- */

/** Check `value` (the subtree at key `k`) against its type: a value the API
 *  server rejects is an error, an unknown field a warning with the closest
 *  field. `dkey` is the dotted key of `k->ptr`. Findings go to `res`.
 *  Returns the number of findings, or SD_ENOMEM. */
int sd_k8s_check(const sd_k8s_types *t, const sd_k8s_key *k, const sd_node *value,
                 const char *dkey, sd_vresult *res);

#endif
