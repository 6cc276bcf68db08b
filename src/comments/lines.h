/* SPDX-License-Identifier: Apache-2.0 */
/* lines.h - what each line of a YAML text holds, for the comment dialects
 * that read comments by their place (keys commented out, foot comments):
 * content, blanks only, or a comment alone; and where its text starts. */
#ifndef SD_LINES_H
#define SD_LINES_H

#include "node.h"

enum { SD_LINE_CONTENT = 0, SD_LINE_BLANK = 1, SD_LINE_COMMENT = 2 };

typedef struct sd_lines {
    unsigned char *state;   /* per line, 1-based: SD_LINE_* */
    int           *indent;  /* per line: the column of its first non-blank (0: none) */
    size_t         n;       /* lines + 1 */
} sd_lines;

/** Classify every line of `doc`'s text. Returns 0 or SD_ENOMEM (then `out`
 *  is empty; sd_lines_release() is still safe). */
int sd_lines_scan(sd_lines *out, const sd_doc *doc);
/** SD_LINE_* of line `l`; SD_LINE_BLANK past the end. */
int sd_lines_state(const sd_lines *ls, int l);
/** 1 when every line strictly between `from` and `to` is blank. */
int sd_lines_blank_between(const sd_lines *ls, int from, int to);
void sd_lines_release(sd_lines *ls);

#endif
