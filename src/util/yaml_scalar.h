/* SPDX-License-Identifier: Apache-2.0 */
/* yaml_scalar.h - what a plain (unquoted, untagged) YAML scalar is: null,
 * a boolean, an integer, a float or a string. YAML leaves that to a schema,
 * and the tools whose reading schemadoc must match use three: Helm reads
 * values with go-yaml v2, helm-docs with yaml.v3, Bitnami's readme-generator
 * with the YAML 1.2 core schema. One reader for all three
 * (docs/yaml-typing.md has their rules side by side); the loader
 * (load/load.c), the parameter rows (rows/rows.c) and helm-docs'
 * toYaml/fromYaml (gotmpl/gotmpl_yaml.c) ask it. */
#ifndef SD_YAML_SCALAR_H
#define SD_YAML_SCALAR_H

#include <stddef.h>

/** Whose rules. */
enum sd_yaml_rules {
    SD_YAML_GO_V2,   /* go-yaml v2, YAML 1.1's words: Helm, and every YAML file schemadoc loads */
    SD_YAML_GO_V3,   /* yaml.v3: only true/false are booleans; dates are timestamps */
    SD_YAML_CORE12   /* the YAML 1.2 core schema (npm yaml): no underscores, 017 is decimal */
};

/** What the scalar is. */
enum sd_yaml_type {
    SD_YAML_STR,
    SD_YAML_NULL,
    SD_YAML_BOOL,
    SD_YAML_INT,
    SD_YAML_UINT,      /* an integer above int64's range that fits uint64 (Go's uint64) */
    SD_YAML_FLOAT,
    SD_YAML_TIMESTAMP  /* yaml.v3 only: 2001-12-14, 2001-12-14T21:59:43Z...; the text stays the value */
};

typedef struct sd_yaml_scalar {
    enum sd_yaml_type  type;
    int                b;   /* SD_YAML_BOOL */
    long long          i;   /* SD_YAML_INT */
    unsigned long long u;   /* SD_YAML_UINT */
    double             f;   /* SD_YAML_FLOAT (also inf and nan) */
} sd_yaml_scalar;

/** The type and value of the plain scalar `s` (`len` bytes, not
 *  necessarily NUL-terminated) under `rules`. */
sd_yaml_scalar sd_yaml_scalar_read(const char *s, size_t len, enum sd_yaml_rules rules);

#endif
