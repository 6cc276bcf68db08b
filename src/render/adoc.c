/* SPDX-License-Identifier: Apache-2.0 */
/* adoc.c - text made inert for AsciiDoc (asciidoctor): what the adoc
 * format's templates print with {{x}}, its constraint words and its
 * anchors. In: any bytes. Out: AsciiDoc that renders exactly those bytes as
 * text: no markup, passthrough, macro, attribute reference, preprocessor
 * directive or block of the text's own is ever read as such. */
#include "render_int.h"

#include <stdio.h>

/* Characters that start inline markup wherever they are: quotes (* _ ` #
 * ^ ~), passthroughs (+), attribute references ({ }), macros and anchors
 * ([ ]), index terms and (C) ( ), cells (|), cross references (< >),
 * escapes (\), character references (&), curly apostrophes ('). */
static const char always[] = "\\{}[]*_`#^~+|<>&'()";

/* Pairs that are markup only together: -- and -> (dashes, arrows), => and
 * ... (replacements), :: and ;; (description lists), $$ (passthrough), :/
 * (a URL, which would link up to the next ';' of an escape). The first of
 * the pair is escaped. */
static int pair(char c, char next)
{
    switch (c) {
    case '-': return next == '-' || next == '>';
    case '=': return next == '>';
    case '.': return next == '.';
    case ':': return next == ':' || next == '/';
    case ';': return next == ';';
    case '$': return next == '$';
    default: return 0;
    }
}

/* {{x}} of the adoc templates: each markup character as a numeric
 * character reference (asciidoctor writes it back as the character, after
 * every substitution that could have read it), each line break as a hard
 * break with {empty} opening the next line (so no line of the text starts a
 * block, a list, a comment or a directive). A template puts a value after
 * something on its line, never at a line's start. */
void sd_render__adoc_escape(sd_buf *b, const char *s, size_t n)
{
    size_t i, start = 0;

    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        int nl = c == '\n' || c == '\r';
        if (!nl && !(c && strchr(always, c)) && !pair((char)c, i + 1 < n ? s[i + 1] : '\0'))
            continue;
        sd_buf_put(b, s + start, i - start);
        start = i + 1;
        if (nl) {
            if (c == '\r' && i + 1 < n && s[i + 1] == '\n')
                start = ++i + 1;
            sd_buf_puts(b, " +\n{empty}");
        } else {
            sd_buf_printf(b, "&#%d;", c);
        }
    }
    sd_buf_put(b, s + start, n - start);
}

/* A code span: monospace (unconstrained, so any neighbour is allowed)
 * around the escaped text. */
void sd_render__adoc_code(sd_buf *b, const char *s, size_t n)
{
    sd_buf_puts(b, "``");
    sd_render__adoc_escape(b, s, n);
    sd_buf_puts(b, "``");
}

/* An AsciiDoc block ID from an anchor, in place: "sd-" then the anchor
 * with every byte but ASCII letters, digits, '_', '.' and '-' as '_'
 * (asciidoctor's ID syntax; the caller keeps the result unique). */
void sd_render__adoc_id(sd_buf *b)
{
    if (b->len < 3 || memcmp(b->ptr, "sd-", 3) != 0) {
        sd_buf_puts(b, "sd-");   /* rotate the prefix to the front */
        if (sd_buf_failed(b))
            return;
        memmove(b->ptr + 3, b->ptr, b->len - 3);
        memcpy(b->ptr, "sd-", 3);
    }
    for (size_t i = 3; i < b->len; i++) {
        unsigned char c = (unsigned char)b->ptr[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
              c == '.' || c == '-'))
            b->ptr[i] = '_';
    }
}
