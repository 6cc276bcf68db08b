/* SPDX-License-Identifier: Apache-2.0 */
/* rules.h - the validator's compiled program as data (`schemadoc rules`):
 * one JSON document per source, with named entry points, that the
 * JavaScript interpreter src/form/rules.js runs with the same verdicts and
 * messages as sd_validate(). The format is documented field by field in
 * docs/rules.md ("rules": 1).
 *
 * In: compiled validators (borrowed) and what each entry means. Out: JSON
 * text, plus warnings (a pattern that ECMA-262 reads differently from
 * PCRE2, or refuses) both in the document and in `diags`. */
#ifndef SD_RULES_H
#define SD_RULES_H

#include "buf.h"
#include "diag.h"
#include "node.h"
#include "validate.h"

/** One entry point of a rules document. Everything is borrowed. */
typedef struct sd_rules_entry {
    const char         *name;      /* "values", "charts/<alias>", "<group>/<version>", "schema" */
    const sd_validator *val;       /* the compiled program (entries may share one) */
    size_t              root;      /* the program's entry point (sd_validator_add()) */
    const char         *alias;     /* subchart entries: the parent's key holding its values */
    const sd_node      *defaults;  /* subcharts: the subchart's values.yaml; ytt: the data values'
                                      defaults (or NULL) */
    const char         *group, *version, *kind;  /* CRD entries (else NULL) */
} sd_rules_entry;

typedef struct sd_rules_opts {
    const char *source;            /* SOURCE as given on the command line */
    const char *kind;              /* "chart", "crd", "ytt" or "schema" */
    const char *fallback;          /* CRDs: the entry used when no apiVersion matches */
    int         formats;           /* enum sd_format_mode the validators were compiled with */
    int         draft;             /* --draft (0: none) */
    int         default_draft;     /* dialect without $schema (0: 2020-12) */
    const char *extra;             /* members written after "fallback" (",\n \"k8s\": {...}"), or NULL */
} sd_rules_opts;

/** Append the rules document for `entries` to `out`. Pattern warnings are
 *  added to `diags` (severity warning) and listed in the document. Returns
 *  0, or SD_ENOMEM / SD_ELIMIT (from `out`'s cap) with an error in `diags`. */
int sd_rules_export(sd_buf *out, const sd_rules_entry *entries, size_t n,
                    const sd_rules_opts *opts, sd_diags *diags);

#endif
