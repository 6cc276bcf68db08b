/* SPDX-License-Identifier: Apache-2.0 */
/* test_buf.c - util/buf.c's writers: Go's encoding/json string writer
 * (sd_buf_put_go_json), the one that helm-docs' toJson (gotmpl/) and the
 * Go tools' schemas (schemagen/gen_out.c) share, byte for byte as Go; and the
 * Markdown code-span writer (sd_buf_put_md_code) of the md page and the
 * diff's tables. */
#include "harness.h"
#include "buf.h"

static void go_json(const char *s, size_t n, int html, const char *want, int line)
{
    sd_buf b = SD_BUF_INIT;
    sd_buf_put_go_json(&b, s, n, html);
    if (!b.ptr || strcmp(b.ptr, want) != 0) {
        t_failed++;
        fprintf(stderr, "%s:%d: go json: got %s, expected %s\n", __FILE__, line, b.ptr ? b.ptr : "(null)", want);
    } else {
        t_passed++;
    }
    sd_buf_release(&b);
}
#define GO(lit, html, want) go_json(lit, sizeof lit - 1, html, want, __LINE__)

/* What json.Marshal (html 1) and an Encoder with SetEscapeHTML(false)
 * (html 0) write for each string. \b and \f are \u0008 and \u000c as
 * before Go 1.22 (helm-docs' and the tools' releases this matches). */
static void test_go_json(void)
{
    GO("", 1, "\"\"");
    GO("plain text", 1, "\"plain text\"");
    GO("a\"b\\c/d", 1, "\"a\\\"b\\\\c/d\"");
    GO("\n\r\t", 1, "\"\\n\\r\\t\"");
    GO("\x01\x1f\x7f", 1, "\"\\u0001\\u001f\x7f\"");      /* DEL is not escaped */
    GO("\b\f", 1, "\"\\u0008\\u000c\"");
    GO("a\0b", 1, "\"a\\u0000b\"");
    GO("<a>&", 1, "\"\\u003ca\\u003e\\u0026\"");
    GO("<a>&", 0, "\"<a>&\"");
    GO("\xe2\x80\xa8\xe2\x80\xa9", 0, "\"\\u2028\\u2029\"");   /* always, even without html */
}

/* UTF-8 as written; each byte that starts no valid sequence one U+FFFD. */
static void test_go_json_utf8(void)
{
    GO("\xc3\xa9 \xf0\x9f\x98\x80 \xe2\x82\xac", 1, "\"\xc3\xa9 \xf0\x9f\x98\x80 \xe2\x82\xac\"");
    GO("\xff", 1, "\"\\ufffd\"");
    GO("\xe2\x82" "A", 1, "\"\\ufffd\\ufffdA\"");               /* cut */
    GO("\xc0\xaf", 1, "\"\\ufffd\\ufffd\"");                    /* overlong */
    GO("\xed\xa0\x80", 1, "\"\\ufffd\\ufffd\\ufffd\"");         /* surrogate */
    GO("\xf4\x90\x80\x80", 1, "\"\\ufffd\\ufffd\\ufffd\\ufffd\""); /* past U+10FFFF */
    GO("x\xe2\x80", 1, "\"x\\ufffd\\ufffd\"");                  /* cut at the end */
}

static void md_code(const char *s, unsigned flags, const char *want, int line)
{
    sd_buf b = SD_BUF_INIT;
    sd_buf_put_md_code(&b, s, strlen(s), flags);
    if (!b.ptr || strcmp(b.ptr, want) != 0) {
        t_failed++;
        fprintf(stderr, "%s:%d: md code: got %s, expected %s\n", __FILE__, line, b.ptr ? b.ptr : "(null)", want);
    } else {
        t_passed++;
    }
    sd_buf_release(&b);
}
#define MDC(s, flags, want) md_code(s, flags, want, __LINE__)

/* The fence is one backtick longer than the longest run inside; a space
 * pads the text when it starts or ends with a backtick (else the fence
 * would grow) or starts with a space (else CommonMark strips one from each
 * end); line endings are spaces; a cell also escapes '|' and tabs. */
static void test_md_code(void)
{
    MDC("", 0, "``");
    MDC("a", 0, "`a`");
    MDC("a`b", 0, "``a`b``");
    MDC("a``b`", 0, "``` a``b` ```");
    MDC("`a", 0, "`` `a ``");
    MDC(" a ", 0, "`  a  `");
    MDC("a\nb\rc\td|e", 0, "`a b c\td|e`");
    MDC("a\nb\rc\td|e", SD_MD_CODE_CELL, "`a b c d\\|e`");
    MDC("|`|", SD_MD_CODE_CELL, "``\\|`\\|``");
}

TEST_MAIN(test_go_json, test_go_json_utf8, test_md_code)
