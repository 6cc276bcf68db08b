/* SPDX-License-Identifier: Apache-2.0 */
/* entity.h - HTML character references in plain text (`MongoDB&reg;`,
 * `&#174;`, `&#xAE;`) -> the characters they stand for. Schema titles are
 * plain text that chart authors write for HTML forms (Bitnami's Kubeapps
 * schemas): descriptions are Markdown and cmark decodes their references;
 * titles get the same treatment here. */
#ifndef SD_ENTITY_H
#define SD_ENTITY_H

/** `s` with every character reference HTML5 names in its common table
 *  (amp, lt, gt, quot, apos, nbsp, reg, copy, trade, the dashes, quotes,
 *  arrows and symbols charts use), and every numeric one (decimal or hex,
 *  a valid Unicode scalar value), replaced by its UTF-8; anything else is
 *  left as written. A new string the caller frees, or NULL when out of
 *  memory. */
char *sd_entity_decode(const char *s);
/** The same, appended to `b` (failure is sticky in `b`). */
struct sd_buf;
void sd_entity_decode_buf(struct sd_buf *b, const char *s);

#endif
