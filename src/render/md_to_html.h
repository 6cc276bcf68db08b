/* SPDX-License-Identifier: Apache-2.0 */
/* md_to_html.h - Markdown descriptions to safe HTML through cmark-gfm.
 *
 * GitHub-flavoured: tables, autolinks and strikethrough on. Raw HTML is
 * dropped (CMARK_OPT_DEFAULT, never CMARK_OPT_UNSAFE); link destinations
 * other than http:, https:, mailto: and relative ones are removed; images
 * become their alt text, so a page never loads anything from the network. */
#ifndef SD_MD_TO_HTML_H
#define SD_MD_TO_HTML_H

#include "buf.h"

#include <stddef.h>

/** Append the HTML rendering of `len` bytes of Markdown `md` to `out`.
 *  Returns 0, or SD_ENOMEM (cmark failed; `out` is unchanged). */
int sd_markdown_to_html(sd_buf *out, const char *md, size_t len);
/** Whether `url` may be a link target: http(s), mailto, or relative
 *  (no scheme). Leading whitespace and control characters count against it. */
int sd_markdown_url_ok(const char *url);

#endif
