/* SPDX-License-Identifier: Apache-2.0 */
/* test_span.c - tree/span.c: where a key or value written in YAML or JSON
 * ends, from the text at its start: scalars as written (quoted, plain,
 * across lines), flow collections across lines, block scalars and block
 * collections to their last line, keys alone; columns in code points
 * (CJK, emoji), CRLF, a tape's NUL-ended strings. */
#include "harness.h"
#include "span.h"

#include <string.h>

/* The end of what starts at line:col of `text`, as "L:C" (or "-" when the
 * position is not in the text). */
static const char *end_of(const char *text, size_t len, int line, int col, int what)
{
    static char out[32];
    sd_span_text l;
    int el, ec;
    if (sd_span_text_init(&l, text, len) != 0)
        return "oom";
    if (sd_span_end(&l, line, col, what, &el, &ec) < 0)
        snprintf(out, sizeof out, "-");
    else
        snprintf(out, sizeof out, "%d:%d", el, ec);
    sd_span_text_release(&l);
    return out;
}
#define END(t, l, c, w) end_of((t), strlen(t), (l), (c), (w))

static void test_scalars(void)
{
    const char *t = "a: plain text # c\n"
                    "b: \"quo\\\"ted\"  \n"
                    "c: 'it''s'\n"
                    "d: folded\n"
                    "  more words\n"
                    "\n"
                    "  last\n"
                    "e: 1\n"
                    "f: \"two\n"
                    "  lines\"\n"
                    "g: &x !!str tagged\n"
                    "h: it's, [not] flow\n";
    STR_EQ(END(t, 1, 4, SD_SPAN_VALUE), "1:14");   /* the comment is no part of it */
    STR_EQ(END(t, 1, 1, SD_SPAN_KEY), "1:2");
    STR_EQ(END(t, 2, 4, SD_SPAN_VALUE), "2:14");   /* an escaped quote inside */
    STR_EQ(END(t, 3, 4, SD_SPAN_VALUE), "3:11");   /* '' inside single quotes */
    STR_EQ(END(t, 4, 4, SD_SPAN_VALUE), "7:7");    /* a plain scalar over three lines */
    STR_EQ(END(t, 8, 4, SD_SPAN_VALUE), "8:5");
    STR_EQ(END(t, 9, 4, SD_SPAN_VALUE), "10:9");   /* a quoted scalar over two */
    STR_EQ(END(t, 11, 4, SD_SPAN_VALUE), "11:19"); /* its properties included */
    STR_EQ(END(t, 12, 4, SD_SPAN_VALUE), "12:20"); /* brackets inside a plain scalar */
    STR_EQ(END(t, 99, 1, SD_SPAN_VALUE), "-");
    STR_EQ(END(t, 1, 99, SD_SPAN_VALUE), "-");
}

static void test_collections(void)
{
    const char *t = "image:\n"                  /* 1 */
                    "  repo: x\n"               /* 2 */
                    "  # a comment\n"           /* 3 */
                    "  tag: y   # c\n"          /* 4 */
                    "\n"                        /* 5 */
                    "list:\n"                   /* 6 */
                    "- a\n"                     /* 7 */
                    "- b: 1\n"                  /* 8 */
                    "  c: 2\n"                  /* 9 */
                    "flow: {a: [1, \"]\",\n"    /* 10 */
                    "   2], b: 'x'}  # c\n"     /* 11 */
                    "txt: |-\n"                 /* 12 */
                    "  one\n"                   /* 13 */
                    "\n"                        /* 14 */
                    "    two  \n"               /* 15 */
                    "\n"                        /* 16 */
                    "end: 1\n";                 /* 17 */
    STR_EQ(END(t, 2, 3, SD_SPAN_VALUE), "4:9");    /* the mapping: its first key to its last value */
    STR_EQ(END(t, 2, 3, SD_SPAN_KEY), "2:7");      /* the key alone */
    STR_EQ(END(t, 7, 1, SD_SPAN_VALUE), "9:7");    /* a sequence at its key's indentation */
    STR_EQ(END(t, 8, 3, SD_SPAN_VALUE), "9:7");    /* a mapping in a sequence */
    STR_EQ(END(t, 9, 6, SD_SPAN_VALUE), "9:7");
    STR_EQ(END(t, 10, 7, SD_SPAN_VALUE), "11:15"); /* a flow mapping over two lines */
    STR_EQ(END(t, 10, 11, SD_SPAN_VALUE), "11:6"); /* a flow sequence in it, "]" quoted */
    STR_EQ(END(t, 11, 11, SD_SPAN_VALUE), "11:14");/* a scalar inside the flow mapping */
    STR_EQ(END(t, 11, 4, SD_SPAN_VALUE), "11:5");  /* "2" ends at "]" there */
    STR_EQ(END(t, 12, 6, SD_SPAN_VALUE), "15:8");  /* a block scalar to its last line */
    STR_EQ(END(t, 1, 1, SD_SPAN_VALUE), "17:7");   /* the root mapping, whole */
}

static void test_code_points(void)
{
    /* 日 is 3 bytes, 😀 4; columns count code points */
    const char *t = "\xE6\x97\xA5\xF0\x9F\x98\x80: \"\xE6\x97\xA5\xF0\x9F\x98\x80\"\r\n"
                    "k: [\xF0\x9F\x98\x80,\r\n"
                    "  \xE6\x97\xA5]\r\n";
    STR_EQ(END(t, 1, 1, SD_SPAN_KEY), "1:3");
    STR_EQ(END(t, 1, 5, SD_SPAN_VALUE), "1:9");
    STR_EQ(END(t, 2, 4, SD_SPAN_VALUE), "3:5");    /* \r\n: the \r is the line break's */
    STR_EQ(END(t, 2, 5, SD_SPAN_VALUE), "2:6");
}

static void test_json(void)
{
    /* a JSON file: every line inside the object is in flow context, and a
     * tape ends its strings with NULs where the closing quotes were */
    char t[] = "{\n  \"a\": 1,\n  \"b\": [true,\n    null],\n  \"c\": \"x\"\n}\n";
    STR_EQ(END(t, 2, 8, SD_SPAN_VALUE), "2:9");
    STR_EQ(END(t, 3, 8, SD_SPAN_VALUE), "4:10");
    STR_EQ(END(t, 5, 3, SD_SPAN_KEY), "5:6");
    STR_EQ(END(t, 1, 1, SD_SPAN_VALUE), "6:2");
    char *q = strstr(t, "\"c\"");
    q[2] = '\0';   /* as sd_tape_parse leaves it */
    STR_EQ(end_of(t, sizeof t - 1, 5, 3, SD_SPAN_KEY), "5:6");
    STR_EQ(end_of(t, sizeof t - 1, 5, 8, SD_SPAN_VALUE), "5:11");
}

static void test_tokens(void)
{
    /* a loader's error: the token, not the mapping a key begins */
    const char *t = "a: 1\na: 2\nb: [1, 2\n";
    STR_EQ(END(t, 2, 1, SD_SPAN_TOKEN), "2:2");
    STR_EQ(END(t, 2, 1, SD_SPAN_VALUE), "3:9");   /* as a value: the mapping on */
    STR_EQ(END(t, 3, 4, SD_SPAN_TOKEN), "3:9");   /* unclosed: to its line's end */
    STR_EQ(END(t, 1, 5, SD_SPAN_VALUE), "1:5");   /* at the end of a line: nothing */
}

/* Any text, any position, any mode: an answer inside the text, never
 * before the start (texts of YAML's significant characters, CJK, NULs
 * and unclosed quotes and brackets; under ASan in `make check`). */
static void test_any_text(void)
{
    static const char *const atoms[] = { " ", "  ", "\n", "\r\n", "-", "- ", ":", ": ", "#", " #", "'", "\"",
                                         "\\", "[", "]", "{", "}", ",", "|", ">-", "&a ", "!t ", "? ", "x",
                                         "key", "\xE6\x97\xA5", "\xF0\x9F\x98\x80", "\xF0", "\t", "---", "\0" };
    unsigned long seed = 12345;
    t_case_mark m = t_case_begin();
    for (int round = 0; round < 4000; round++) {
        char text[256];
        size_t len = 0;
        int natoms = (int)(seed % 40) + 1;
        for (int a = 0; a < natoms; a++) {
            seed = seed * 6364136223846793005UL + 1442695040888963407UL;
            const char *s = atoms[(seed >> 33) % (sizeof atoms / sizeof *atoms)];
            size_t n = strcmp(s, "\0") ? strlen(s) : 1;
            if (len + n >= sizeof text)
                break;
            memcpy(text + len, s, n);
            len += n;
        }
        sd_span_text l;
        OK(sd_span_text_init(&l, text, len) == 0);
        for (int line = 1; line <= (int)l.n + 1; line++)
            for (int col = 1; col <= 80; col++)
                for (int what = 0; what < 3; what++) {
                    int el, ec;
                    if (sd_span_end(&l, line, col, what, &el, &ec) < 0)
                        continue;
                    OK(el > line || (el == line && ec >= col));
                    OK(el <= (int)l.n && ec >= 1);
                }
        sd_span_text_release(&l);
    }
    t_case_end(m);
}

TEST_MAIN(test_scalars, test_collections, test_code_points, test_json, test_tokens, test_any_text)
