/* SPDX-License-Identifier: Apache-2.0 */
/* span.h - where a value or a key written in YAML (or JSON) text ends,
 * found from the text at its start: nodes keep only where they start (a
 * struct sd_node stays small), and a report that wants a range asks here.
 *
 * In: a document's text and a position (1-based line, column in code
 * points, as sd_loc). Out: the position just past the last character of
 * what is written there, in the same units:
 *   - a plain or quoted scalar as written, quotes included, also when it
 *     spans lines (a folded plain scalar, a quoted one);
 *   - a flow collection to its closing bracket, across lines;
 *   - a block scalar (`|`, `>`) to its last line of content;
 *   - a block mapping (its first key is where it starts) or a block
 *     sequence (its first `-`) to its last line;
 *   - a key (SD_SPAN_KEY): the key alone. */
#ifndef SD_SPAN_H
#define SD_SPAN_H

#include <stddef.h>

/** A text's lines, and where each starts in flow collections and quotes. */
typedef struct sd_span_text {
    const char    *text;    /* borrowed */
    size_t         len;
    size_t        *start;   /* start[i]: the offset of line i (0-based) */
    int           *depth;   /* flow collections open at the start of line i */
    unsigned char *quote;   /* the quote a scalar open at line i's start began with, or 0 */
    size_t         n;
} sd_span_text;

/** Index the `len` bytes of `text` (borrowed: it must outlive `l`). A NUL
 *  closes a quoted scalar as its quote would (a tape ends its strings so).
 *  Returns 0, or SD_ENOMEM with `l` empty. Release with sd_span_text_release(). */
int  sd_span_text_init(sd_span_text *l, const char *text, size_t len);
void sd_span_text_release(sd_span_text *l);

/** What a position names: the value that starts there, the key written
 *  there, or the token there (a loader's error: a key or a scalar alone, a
 *  flow collection or a quoted scalar whole). */
enum sd_span_what { SD_SPAN_VALUE = 0, SD_SPAN_KEY = 1, SD_SPAN_TOKEN = 2 };

/** The end of what starts at `line`:`column` of `l` (see the top of this
 *  file) in *end_line, *end_column: 1-based, the column in code points,
 *  just past the last character (a range's exclusive end). Returns 0, or -1
 *  (the outputs 0) when the position is not in the text. */
int sd_span_end(const sd_span_text *l, int line, int column, int what, int *end_line, int *end_column);

#endif
