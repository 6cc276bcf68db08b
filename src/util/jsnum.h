/* SPDX-License-Identifier: Apache-2.0 */
/* jsnum.h - a number as JavaScript prints it.
 *
 * The rules document (validate/rules.c) is read by the form's interpreter,
 * which compares numbers with the text JavaScript would print for them;
 * this writes that text in C. */
#ifndef SD_JSNUM_H
#define SD_JSNUM_H

#include "buf.h"

/** Append what JavaScript's String(d) prints (ECMA-262 Number::toString)
 *  to `b`: the shortest digits that read back as `d`, in plain notation
 *  from 1e-6 to 1e21, else in exponent notation (`1.5e+300`). NaN is
 *  written `null` and the infinities `1e999` / `-1e999` (which JSON.parse
 *  reads back as infinities). A failed allocation sets `b`'s flag. */
void sd_jsnum_put(sd_buf *b, double d);

#endif
