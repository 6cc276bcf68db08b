/* infer.h - derive a JSON Schema from example values (seed 001, and the
 * inference rules of seed 004 Part 4): a map gives an object with its keys,
 * a list an array whose items look like its first item (an empty list: an
 * array of anything), null any type, scalars their own type. Each schema
 * node keeps the position of the value it was derived from. */
#ifndef SD_INFER_H
#define SD_INFER_H

#include "annot.h"
#include "node.h"

/** A new synthetic document holding the derived schema (draft 2020-12, or
 *  draft-07 when `draft` is 7) of `values`' first document, with helm-docs /
 *  Bitnami descriptions from `a` (may be NULL). Freed with sd_doc_free();
 *  NULL when out of memory. */
sd_doc *sd_infer_schema(const sd_doc *values, const sd_annots *a, int draft);

#endif
