/* SPDX-License-Identifier: Apache-2.0 */
/* test_lsp.c - what `schemadoc lsp` stands on: schemadoc_validate_text()
 * (one source opened, many unsaved texts checked, merged over values.yaml)
 * and the positions of src/lsp/position.c in the three encodings. */
#include "harness.h"
#include "schemadoc.h"
#include "lsp_int.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_validate_text(void)
{
    char dir[] = "/tmp/sd-test-lsp-XXXXXX", name[600], cmd[700];
    schemadoc_source *src = NULL;
    schemadoc_diags *d = schemadoc_diags_new();
    char *json = NULL;

    OK(mkdtemp(dir) != NULL);
    OK(t_write_file(dir, "Chart.yaml", "apiVersion: v2\nname: t\nversion: 1.0.0\n") == 0);
    OK(t_write_file(dir, "values.yaml", "name: x\nport: 80\n") == 0);
    OK(t_write_file(dir, "values.schema.json", "{\"type\": \"object\", \"required\": [\"name\", \"port\"], "
                    "\"properties\": {\"name\": {\"type\": \"string\"}, \"port\": {\"type\": \"integer\"}}}") == 0);
    snprintf(name, sizeof name, "%s/unsaved.yaml", dir);
    OK(schemadoc_open(&src, dir, NULL, d) == 0);
    /* `name` comes from values.yaml: no required error; the file is never read */
    for (int i = 0; i < 50; i++)
        INT_EQ(schemadoc_validate_text(NULL, NULL, src, name, "port: 8080\n", 11, 0, NULL, d), 0);
    INT_EQ(schemadoc_validate_text(&json, NULL, src, name, "# x\nport: \"x\"\n", 14, 0, NULL, d), 1);
    OK(json && strstr(json, "\"line\": 2, \"column\": 7, \"endLine\": 2, \"endColumn\": 10, \"keyword\": \"type\""));
    schemadoc_free(json);
    size_t n = schemadoc_diags_count(d);
    OK(n > 0 && schemadoc_diags_file(d, n - 1) && !strcmp(schemadoc_diags_file(d, n - 1), name));
    INT_EQ(schemadoc_diags_line(d, n - 1), 2);
    INT_EQ(schemadoc_diags_end_line(d, n - 1), 2);
    INT_EQ(schemadoc_diags_end_column(d, n - 1), 10);   /* "x" with its quotes */
    /* ends across lines, in code points: a block scalar, a flow mapping
     * opened on an earlier line, a key with CJK and emoji */
    {
        static const char t[] = "port: |\n  \xE6\x97\xA5\xE6\x9C\xAC\n  \xF0\x9F\x98\x80x\n"
                                "name: {a: 1,\n  b: [2,\n    3]}\n\xE6\x97\xA5\xF0\x9F\x98\x80: 1\n";
        size_t m = schemadoc_diags_count(d);
        INT_EQ(schemadoc_validate_text(NULL, NULL, src, name, t, sizeof t - 1, 0, NULL, d), 1);
        int seen = 0;
        for (size_t i = m; i < schemadoc_diags_count(d); i++) {
            const char *ip = schemadoc_diags_instance_ptr(d, i);
            int l = schemadoc_diags_line(d, i), c = schemadoc_diags_column(d, i);
            int el = schemadoc_diags_end_line(d, i), ec = schemadoc_diags_end_column(d, i);
            if (ip && !strcmp(ip, "/port") && ++seen)
                OK(l == 1 && c == 7 && el == 3 && ec == 5);     /* "|" to after "😀x" */
            if (ip && !strcmp(ip, "/name") && ++seen)
                OK(l == 4 && c == 7 && el == 6 && ec == 8);     /* "{" to after "]}" */
        }
        INT_EQ(seen, 2);
    }
    /* values.yaml as edited: the text is the defaults, `name` is gone */
    snprintf(name, sizeof name, "%s/values.yaml", dir);
    INT_EQ(schemadoc_validate_text(&json, NULL, src, name, "port: 80\n", 9, SD_TEXT_DEFAULTS, NULL, d), 1);
    OK(json && strstr(json, "\"keyword\": \"required\""));
    schemadoc_free(json);
    INT_EQ(schemadoc_validate_text(NULL, NULL, src, name, "name: z\nport: 80\n", 17, SD_TEXT_DEFAULTS, NULL, d), 0);
    /* a YAML error in the text is an input error at its place */
    OK(schemadoc_validate_text(NULL, NULL, src, name, "port: [1\n", 9, 0, NULL, d) < 0);
    OK(schemadoc_validate_text(NULL, NULL, src, NULL, "", 0, 0, NULL, d) == SD_EUSAGE);
    schemadoc_close(src);
    schemadoc_diags_free(d);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    OK(system(cmd) == 0);
}

static void test_positions(void)
{
    sd_lsp_doc d;
    /* "a😀日b\r\nx": 😀 is 4 bytes, 2 UTF-16 units, 1 code point; 日 3, 1, 1 */
    const char *t = "a\xF0\x9F\x98\x80\xE6\x97\xA5" "b\r\nx";
    long l, c;
    memset(&d, 0, sizeof d);
    sd_buf_puts(&d.text, t);
    INT_EQ(sd_lsp__offset(&d, 0, 3, SD_LSP_UTF16), 5);   /* after the emoji */
    INT_EQ(sd_lsp__offset(&d, 0, 2, SD_LSP_UTF16), 1);   /* inside it: its start */
    INT_EQ(sd_lsp__offset(&d, 0, 2, SD_LSP_UTF32), 5);
    INT_EQ(sd_lsp__offset(&d, 0, 8, SD_LSP_UTF8), 8);
    INT_EQ(sd_lsp__offset(&d, 0, 99, SD_LSP_UTF16), 9);  /* past the end of the line: before \r\n */
    INT_EQ(sd_lsp__offset(&d, 1, 1, SD_LSP_UTF16), 12);
    INT_EQ(sd_lsp__offset(&d, 7, 0, SD_LSP_UTF16), 12);  /* past the last line: the end */
    sd_lsp__position(&d, 8, SD_LSP_UTF16, &l, &c);
    OK(l == 0 && c == 4);
    sd_lsp__position(&d, 8, SD_LSP_UTF8, &l, &c);
    OK(l == 0 && c == 8);
    sd_lsp__position(&d, 8, SD_LSP_UTF32, &l, &c);
    OK(l == 0 && c == 3);
    sd_lsp__position(&d, 11, SD_LSP_UTF16, &l, &c);
    OK(l == 1 && c == 0);
    INT_EQ(sd_lsp__loc_offset(&d, 1, 4), 8);              /* column 4 in code points: b */
    INT_EQ(sd_lsp__span_end(&d, 0, SD_SPAN_KEY), 9);
    INT_EQ(sd_lsp__span_end(&d, 0, SD_SPAN_VALUE), 12);   /* a plain scalar at the top continues on "x" */
    free(d.lines);
    sd_lsp__span_forget(&d);
    sd_buf_release(&d.text);
}

TEST_MAIN(test_validate_text, test_positions)
