/* SPDX-License-Identifier: Apache-2.0 */
/* places.h - where a chart's templates put a values path in a manifest of a
 * known Kubernetes type (issue 43, evidence 2: "the templates").
 *
 * `{{- toYaml .Values.resources | nindent 12 }}` under `resources:` of a
 * container of a Deployment's pod template hands `.Values.resources` whole
 * to a field of type ResourceRequirements (core/v1). This reader works out
 * the manifest path of each such action from the template text around it
 * (the keys and indentation above it, through if/with/range, `include`d
 * named templates of the chart, the document's `kind:`), and records the
 * values path with the Kubernetes definition it lands on. A values path
 * placed at two places of different types gets no place (it is dropped,
 * and counted in `conflicts`).
 *
 * In: a chart directory (templates/ read as tmplrefs.c reads it: regular
 * files only, never leaving the chart, same bounds). Out: the places; all
 * strings live in the places' arena; sd_k8s_places_release() frees all. */
#ifndef SD_K8S_PLACES_H
#define SD_K8S_PLACES_H

#include "arena.h"

#include <stddef.h>

typedef struct sd_k8s_place {
    const char *ptr;    /* the values path as a JSON pointer ("/server/resources");
                           "*": any key or index (a path ranged over) */
    const char *type;   /* the definition it lands on, as named in the
                           Kubernetes OpenAPI document
                           ("io.k8s.api.core.v1.ResourceRequirements") */
    int         list;   /* 1: the value is a list of `type` (tolerations,
                           env, volumes); 0: the value is a `type` */
    const char *file;   /* the template file (relative to the chart) */
    int         line, col; /* of the action that hands the value, 1-based */
    const char *where;  /* the manifest path, for the finding's evidence:
                           "Deployment spec.template.spec.containers[].resources" */
    const char *omit;   /* keys the template takes out of the value before
                           writing it (`omit .Values.livenessProbe "enabled"`),
                           one per line; NULL: none */
} sd_k8s_place;

typedef struct sd_k8s_places {
    sd_k8s_place *v;
    size_t        n, cap;
    size_t        conflicts;  /* values paths dropped: two places, two types */
    sd_arena      arena;
    size_t        either;     /* values paths dropped: the templates test
                                 whether they are a list or a map
                                 (`kindIs "map"`, `typeOf`), so either is taken */
} sd_k8s_places;

#define SD_K8S_PLACES_INIT { NULL, 0, 0, 0, SD_ARENA_INIT, 0 }

/** Read `chart_dir`/templates into `out` (initialised with
 *  SD_K8S_PLACES_INIT). No templates/ is not an error (no places).
 *  Returns 0 or SD_ENOMEM. */
int sd_k8s_places_scan_dir(sd_k8s_places *out, const char *chart_dir);

/** As sd_k8s_places_scan_dir() over `n` template texts given in memory:
 *  names[i] (its file name, for the places' `file`), texts[i] of lens[i]
 *  bytes; a named template of one text may be included by another.
 *  Returns 0 or SD_ENOMEM. */
int sd_k8s_places_scan_texts(sd_k8s_places *out, const char *const *names,
                             const char *const *texts, const size_t *lens, size_t n);

/** The place of `ptr` (a JSON pointer), or NULL. A place's path written
 *  inside `{{ range }}` over a values list or map has "*" for the key or
 *  index (the segments sidecars, *, resources): "*" matches any segment
 *  of `ptr`. */
const sd_k8s_place *sd_k8s_places_find(const sd_k8s_places *p, const char *ptr);

void sd_k8s_places_release(sd_k8s_places *p);

#endif
