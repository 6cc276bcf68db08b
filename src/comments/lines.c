/* SPDX-License-Identifier: Apache-2.0 */
/* lines.c - what each line of a YAML text holds (see lines.h). */
#include "lines.h"
#include "alloc.h"

#include <stdlib.h>
#include <string.h>

int sd_lines_scan(sd_lines *out, const sd_doc *d)
{
    size_t lines = 2;
    const char *p = d->text, *end = d->text + d->text_len;

    memset(out, 0, sizeof *out);
    for (const char *q = p; q < end && (q = memchr(q, '\n', (size_t)(end - q))); q++)
        lines++;
    out->state = calloc(lines + 1, 1);
    out->indent = calloc(lines + 1, sizeof *out->indent);
    if (!out->state || !out->indent) {
        sd_lines_release(out);
        sd_alloc_note_failure();
        return SD_ENOMEM;
    }
    out->n = lines;
    for (size_t line = 1; p <= end && line <= lines; line++) {
        /* the first non-blank: what precedes it is blanks, one column each */
        const char *q = p, *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            nl = end;
        while (q < nl && (*q == ' ' || *q == '\t' || *q == '\r'))
            q++;
        out->state[line] = q < nl ? SD_LINE_CONTENT : SD_LINE_BLANK;
        out->indent[line] = q < nl ? (int)(q - p) + 1 : 0;
        p = nl + 1;
    }
    for (size_t i = 0; i < d->ncomments; i++)
        if (d->comments[i].own_line && d->comments[i].line >= 1 && (size_t)d->comments[i].line < lines)
            out->state[d->comments[i].line] = SD_LINE_COMMENT;
    return 0;
}

int sd_lines_state(const sd_lines *ls, int l)
{
    return l >= 1 && (size_t)l < ls->n ? ls->state[l] : SD_LINE_BLANK;
}

int sd_lines_blank_between(const sd_lines *ls, int from, int to)
{
    for (int l = from + 1; l < to; l++)
        if (l < 1 || (size_t)l >= ls->n || ls->state[l] != SD_LINE_BLANK)
            return 0;
    return 1;
}

void sd_lines_release(sd_lines *ls)
{
    free(ls->state);
    free(ls->indent);
    memset(ls, 0, sizeof *ls);
}
