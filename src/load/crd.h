/* SPDX-License-Identifier: Apache-2.0 */
/* crd.h - Kubernetes CustomResourceDefinitions: where their schemas are.
 *
 * In: a loaded file whose documents may be CRDs. Out: for each CRD its
 * group, kind and versions, each version with its openAPIV3Schema node
 * (apiextensions.k8s.io/v1 `spec.versions[].schema`, or v1beta1's
 * `spec.validation` shared by every version) and that node's JSON pointer
 * in the file ("#/0/spec/versions/1/schema/openAPIV3Schema", the document
 * index first). The one place that knows the CRD layout: the model, the
 * validator and the rules all read it from here. */
#ifndef SD_CRD_H
#define SD_CRD_H

#include "node.h"

typedef struct sd_crd_version {
    const sd_node *node;      /* the spec.versions[] entry; NULL for a v1beta1
                                 CRD without a versions list */
    const sd_node *name;      /* the version's name node (spec.version for
                                 v1beta1 without versions), or NULL */
    const sd_node *schema;    /* openAPIV3Schema, or NULL when there is none */
    char          *schema_ptr;/* its pointer in the file, owned; NULL without schema */
    int            served, storage, deprecated;
} sd_crd_version;

typedef struct sd_crd {
    const sd_node  *root;     /* the CRD document */
    size_t          docidx;   /* its index in the file's stream */
    const char     *group;    /* spec.group, or NULL; borrowed */
    const char     *kind;     /* spec.names.kind, or NULL; borrowed */
    sd_crd_version *versions; /* at least one (a pseudo-version for v1beta1
                                 without a versions list) */
    size_t          nversions;
} sd_crd;

typedef struct sd_crds {
    sd_crd *items;
    size_t  n;
} sd_crds;

#define SD_CRDS_INIT { NULL, 0 }

/** 1 if `root` is a CustomResourceDefinition document. */
int sd_crd_is(const sd_node *root);
/** 1 if any document of `doc` is a CRD. */
int sd_doc_has_crd(const sd_doc *doc);

/** Read the layout of every CRD document of `doc` (borrowed: it must
 *  outlive *out). Returns 0 or SD_ENOMEM; free with sd_crds_release(). */
int sd_crds_read(sd_crds *out, const sd_doc *doc);
void sd_crds_release(sd_crds *c);

/** The version an instance document is checked against: the one its
 *  apiVersion names (`group/version`, and its kind when both say one),
 *  else the first version, or the last storage version when there is one.
 *  Sets *crd_out when not NULL. Borrowed; NULL when there is no CRD. */
const sd_crd_version *sd_crds_for(const sd_crds *c, const sd_node *instance,
                                  const sd_crd **crd_out);

#endif
