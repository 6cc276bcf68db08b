/* SPDX-License-Identifier: Apache-2.0 */
/* bncheck.h - Bitnami readme-generator's metadata check: every value of
 * values.yaml has its `## @param`, every `@param` names a value
 * (readme-generator refuses to write the README otherwise). */
#ifndef SD_BNCHECK_H
#define SD_BNCHECK_H

#include "annot.h"
#include "diag.h"

/** Check the Bitnami annotations `a` against `values` as readme-generator
 *  does (docs/annotations.md 2.2): the values flattened to paths (`a.b`,
 *  `a[0].b`; empty maps and lists, and lists of strings only, are values
 *  themselves), less those under a `@skip` path or under a `@param` with
 *  modifiers (a prefix of the path's text); each left without a `@param`,
 *  and each `@param` (not `@extra`, without modifiers, not skipped) naming
 *  no value, is an error at its line in `diags` (a warning when `lenient`).
 *  Returns the number of errors (0 when lenient), or SD_ENOMEM. */
int sd_bncheck(const sd_doc *values, const sd_annots *a, int lenient, sd_diags *diags);

#endif
