/* SPDX-License-Identifier: Apache-2.0 */
/* places_int.h - shared by the files of the places reader (places.c) and
 * its table of manifest places (places_table.c). */
#ifndef SD_K8S_PLACES_INT_H
#define SD_K8S_PLACES_INT_H

/** The Kubernetes definition at `path` (dotted keys, "[]" after a list's
 *  key for its items: "spec.template.spec.containers[].resources") of a
 *  document of `kind`: 1 with *type (static) and *list (1: a list of it),
 *  or 0 when the place has no known type. */
int sd_k8s__place_type(const char *kind, const char *path, const char **type, int *list);

#endif
