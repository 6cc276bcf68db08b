/* SPDX-License-Identifier: Apache-2.0 */
/* rows.h - the flat parameter rows of a chart, as helm-docs or Bitnami's
 * readme-generator would list them (docs/annotations.md is the spec). */
#ifndef SD_ROWS_H
#define SD_ROWS_H

#include "annot.h"

#include "val.h"

/** A new JSON array of rows {key, type, default_text, description, section,
 *  required?...} for the values document `values` read with annotations `a`.
 *  Returns NULL when out of memory. */
sd_val *sd_rows_build(const sd_doc *values, const sd_annots *a);


#endif
