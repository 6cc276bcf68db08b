/* SPDX-License-Identifier: Apache-2.0 */
/* test_render.c - the pieces of the page renderers that are easy to get
 * subtly wrong: the JSON->YAML emitter, the Markdown sanitizer, README
 * region splicing and the unified diff. */
#include "harness.h"
#include "emit.h"
#include "md_to_html.h"
#include "readme.h"
#include "render.h"
#include "render_int.h"
#include "model.h"
#include "source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *yaml(const char *json)
{
    sd_val_error e;
    sd_val *v = sd_val_loads(json, SD_VAL_DECODE_ANY, &e);
    sd_buf b = SD_BUF_INIT;
    if (!v)
        return strdup("(bad json)");
    sd_emit_yaml(&b, v, 0);
    sd_val_decref(v);
    return sd_buf_detach(&b);
}

#define YAML_EQ(json, want) do { char *y_ = yaml(json); STR_EQ(y_, want); free(y_); } while (0)

static void test_yaml_scalars(void)
{
    YAML_EQ("1", "1\n");
    YAML_EQ("1.5", "1.5\n");
    YAML_EQ("2.0", "2.0\n");
    YAML_EQ("true", "true\n");
    YAML_EQ("null", "null\n");
    YAML_EQ("\"nginx\"", "nginx\n");
    YAML_EQ("\"\"", "\"\"\n");
    YAML_EQ("\"true\"", "\"true\"\n");
    YAML_EQ("\"yes\"", "\"yes\"\n");
    YAML_EQ("\"1.0\"", "\"1.0\"\n");
    YAML_EQ("\"0755\"", "\"0755\"\n");
    YAML_EQ("\"a: b\"", "\"a: b\"\n");
    YAML_EQ("\"a #b\"", "\"a #b\"\n");
    YAML_EQ("\"a#b\"", "a#b\n");
    YAML_EQ("\"*x\"", "\"*x\"\n");
    YAML_EQ("\"- x\"", "\"- x\"\n");
    YAML_EQ("\" lead\"", "\" lead\"\n");
    YAML_EQ("\"tab\\tx\"", "\"tab\\tx\"\n");
    YAML_EQ("\"</script>\"", "</script>\n");
}

static void test_yaml_blocks(void)
{
    YAML_EQ("\"a\\nb\\n\"", "|\n  a\n  b\n");
    YAML_EQ("\"a\\nb\"", "|-\n  a\n  b\n");
    YAML_EQ("\"a\\n\\nb\\n\\n\"", "|+\n  a\n\n  b\n\n");
    YAML_EQ("\" a\\nb\"", "\" a\\nb\"\n");
}

static void test_yaml_containers(void)
{
    YAML_EQ("{}", "{}\n");
    YAML_EQ("[]", "[]\n");
    YAML_EQ("{\"a\":1,\"b\":{\"c\":\"x\"}}", "a: 1\nb:\n  c: x\n");
    YAML_EQ("{\"l\":[1,2]}", "l:\n- 1\n- 2\n");
    YAML_EQ("[{\"a\":1,\"b\":2},[3,4],{}]", "- a: 1\n  b: 2\n- - 3\n  - 4\n- {}\n");
    YAML_EQ("{\"k\":\"x\\ny\"}", "k: |-\n  x\n  y\n");
    YAML_EQ("{\"a b\":1,\"true\":2,\"\":3}", "a b: 1\n\"true\": 2\n\"\": 3\n");
    YAML_EQ("[{\"s\":\"l1\\nl2\\n\"}]", "- s: |\n    l1\n    l2\n");
}

static char *md(const char *s)
{
    sd_buf b = SD_BUF_INIT;
    sd_markdown_to_html(&b, s, strlen(s));
    return sd_buf_detach(&b);
}

#define MD_EQ(in, want) do { char *m_ = md(in); STR_EQ(m_, want); free(m_); } while (0)

static void test_markdown(void)
{
    MD_EQ("*a*", "<p><em>a</em></p>\n");
    MD_EQ("[x](https://e.org)", "<p><a href=\"https://e.org\">x</a></p>\n");
    MD_EQ("[x](javascript:alert(1))", "<p>x</p>\n");
    MD_EQ("[x](JAVASCRIPT:alert(1))", "<p>x</p>\n");
    MD_EQ("[x](vbscript:x)", "<p>x</p>\n");
    MD_EQ("[x](data:text/html,hi)", "<p>x</p>\n");
    MD_EQ("[x](./rel#a)", "<p><a href=\"./rel#a\">x</a></p>\n");
    MD_EQ("[x](mailto:a@b.org)", "<p><a href=\"mailto:a@b.org\">x</a></p>\n");
    MD_EQ("![alt](http://e.org/i.png)", "<p>alt</p>\n");
    MD_EQ("a <b onclick=x>c</b>", "<p>a &lt;b onclick=x&gt;c&lt;/b&gt;</p>\n");
    MD_EQ("<script>alert(1)</script>", "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n");
    MD_EQ("see https://e.org", "<p>see <a href=\"https://e.org\">https://e.org</a></p>\n");
    MD_EQ("| a | b |\n|---|---|\n| 1 | 2 |", "<table>\n<thead>\n<tr>\n<th>a</th>\n<th>b</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>1</td>\n<td>2</td>\n</tr>\n</tbody>\n</table>\n");
    OK(sd_markdown_url_ok("https://x"));
    OK(sd_markdown_url_ok("/a:b"));
    OK(sd_markdown_url_ok("#x"));
    OK(!sd_markdown_url_ok(" javascript:x"));
    OK(!sd_markdown_url_ok("java\tscript:x"));
    OK(!sd_markdown_url_ok("file:///etc/passwd"));
}

static char *splice(const char *old, const char *gen, int *err)
{
    sd_buf b = SD_BUF_INIT;
    sd_diags d = SD_DIAGS_INIT;
    *err = sd_readme_splice(&b, old, strlen(old), gen, strlen(gen), "R.md", &d);
    sd_diags_release(&d);
    return sd_buf_detach(&b);
}

static void test_readme_splice(void)
{
    int err;
    char *s;
    s = splice("", "G\n", &err);
    STR_EQ(s, "<!-- schemadoc:start -->\nG\n<!-- schemadoc:end -->\n"); INT_EQ(err, 0); free(s);
    s = splice("intro", "G\n", &err);
    STR_EQ(s, "intro\n\n<!-- schemadoc:start -->\nG\n<!-- schemadoc:end -->\n"); free(s);
    s = splice("a\r\n<!-- schemadoc:start -->\r\nold\r\n  <!-- schemadoc:end -->\r\nz", "G\n", &err);
    STR_EQ(s, "a\r\n<!-- schemadoc:start -->\r\nG\n  <!-- schemadoc:end -->\r\nz"); free(s);
    s = splice("<!-- schemadoc:start -->\n<!-- schemadoc:end -->\n", "G", &err);
    STR_EQ(s, "<!-- schemadoc:start -->\nG\n<!-- schemadoc:end -->\n"); free(s);
    s = splice("x <!-- schemadoc:start --> inline\n", "G\n", &err);   /* not alone on its line */
    STR_EQ(s, "x <!-- schemadoc:start --> inline\n\n<!-- schemadoc:start -->\nG\n<!-- schemadoc:end -->\n"); free(s);
    s = splice("<!-- schemadoc:start -->\nx\n", "G\n", &err);
    INT_EQ(err, SD_ESYNTAX); free(s);
    s = splice("<!-- schemadoc:end -->\n<!-- schemadoc:start -->\n", "G\n", &err);
    INT_EQ(err, SD_ESYNTAX); free(s);
}

static char *diff(const char *a, const char *b, size_t *n)
{
    sd_buf o = SD_BUF_INIT;
    *n = sd_readme_diff(&o, a, strlen(a), b, strlen(b), "f");
    return sd_buf_detach(&o);
}

static void test_diff(void)
{
    size_t n;
    char *s;
    s = diff("a\nb\n", "a\nb\n", &n);
    STR_EQ(s, ""); INT_EQ(n, 0); free(s);
    s = diff("a\nb\nc\n", "a\nB\nc\n", &n);
    STR_EQ(s, "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"); INT_EQ(n, 2); free(s);
    s = diff("", "x\n", &n);
    STR_EQ(s, "--- a/f\n+++ b/f\n@@ -0,0 +1 @@\n+x\n"); free(s);
    s = diff("x", "x\n", &n);
    STR_EQ(s, "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-x\n\\ No newline at end of file\n+x\n"); free(s);
    /* two changes far apart make two hunks */
    s = diff("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "one\n2\n3\n4\n5\n6\n7\n8\n9\nten\n", &n);
    STR_EQ(s, "--- a/f\n+++ b/f\n@@ -1,4 +1,4 @@\n-1\n+one\n 2\n 3\n 4\n@@ -7,4 +7,4 @@\n 7\n 8\n 9\n-10\n+ten\n"); free(s);
}

/* The description fast path against cmark: one-line texts built from the
 * bytes that matter, each one the fast path takes rendered both ways. */
static void test_plain_text(void)
{
    static const char *const parts[] = {
        "a", "HPA", "[x]", "[", "]", "(", ")", "](", "] (", ":", "/", "//", "://", "www.", "WwW.",
        "w", "x.y", "http", "https", "ftp", "\"", "'", " ", "\xc3\xa9", "`", "*", "_", "<", ">",
        "&", "&amp;", "-", "1.", "+", "mailto:", "e@x", "[y](z)", "!", "~", "|", "=", "#", "\\",
        "[^1]", "[a][b]", "[a]: /u", "...", ",", "\t", "\n",
        "`", "`", "`a`", "`x y`", "` z`", "`w `", "``", "`a_b*c`", "` y `", "`<b>`", "`&`", "`\\`", "`\"`",
    };
    unsigned fast = 0, slow = 0, same = 0, spans = 0;
    for (int k = 0; k < 30000; k++) {
        sd_buf in = SD_BUF_INIT, a = SD_BUF_INIT, b = SD_BUF_INIT;
        unsigned nw = 1 + t_rnd(6);
        if (k % 4)
            sd_buf_puts(&in, "Text ");
        for (unsigned w = 0; w < nw; w++)
            sd_buf_puts(&in, parts[t_rnd(sizeof parts / sizeof *parts)]);
        if (sd_render__plain_text(in.ptr, in.len)) {
            fast++;
            spans += memchr(in.ptr, '`', in.len) != NULL;
            sd_render__description_html(&a, in.ptr, in.len);
            sd_markdown_to_html(&b, in.ptr, in.len);
            if (strcmp(a.ptr, b.ptr) == 0)
                same++;
            else if (fast - same <= 3)
                STR_EQ(a.ptr, b.ptr);   /* shows the first few */
        } else {
            slow++;
        }
        sd_buf_release(&in);
        sd_buf_release(&a);
        sd_buf_release(&b);
    }
    if (!(fast > 2000 && slow > 2000 && spans > 300))
        fprintf(stderr, "  fast %u (code spans %u), slow %u\n", fast, spans, slow);
    OK(fast > 2000 && slow > 2000);   /* both paths seen */
    OK(same == fast);
    OK(spans > 300);   /* code spans among them */
    OK(sd_render__plain_text("Enable [HPA] for x", 18));
    OK(sd_render__plain_text("Generic key:value pairs", 23));
    OK(!sd_render__plain_text("Deploy a [VPA](https://e.org/) here", 35));
    OK(!sd_render__plain_text("Ref: https://e.org", 18));
    OK(!sd_render__plain_text("See www.e.org", 13));
    OK(sd_render__plain_text("One of `Exact` or `Prefix`", 26));
    OK(!sd_render__plain_text("Unclosed `x", 11));
}

/* The built-in html themes never read the model's "rows", so that the CLI
 * builds a chart's html page without them; the md templates do. */
static void test_theme_reads(void)
{
    static const struct { const char *format, *theme, *reads; int rows; } pages[] = {
        { "html", "default", "groups", 0 }, { "html", "compact", "groups", 0 },
        { "md", "default", "row_sections", 1 },
    };
    for (size_t i = 0; i < sizeof pages / sizeof *pages; i++) {
        sd_render_opts ro;
        sd_templates *pg = NULL;
        sd_diags d = SD_DIAGS_INIT;
        memset(&ro, 0, sizeof ro);
        ro.format = pages[i].format;
        ro.theme = pages[i].theme;
        INT_EQ(sd_templates_open(&pg, &ro, &d), 0);
        if (pg) {
            INT_EQ(sd_templates_reads(pg, "rows"), pages[i].rows);
            INT_EQ(sd_templates_reads(pg, pages[i].reads), 1);   /* and it can say yes */
        }
        sd_templates_free(pg);
        sd_diags_release(&d);
    }
}

/* A nested values file: its defaults are shared, not copied once per level
 * (sd_node_to_val_memo), and the YAML of each node's default (its size times
 * its depth in all) is made only for templates that may read it: the md
 * theme does not, html does, and so does a custom md template that asks. */
static sd_val *nested_model(const char *dir)
{
    static const char *const values =
        "# -- a\na:\n  # -- b\n  b:\n    c: [\"x\", {d: 1}]\n    e: text\nf: 2\n";
    sd_source *src = NULL;
    sd_diags d = SD_DIAGS_INIT;
    sd_val *m = NULL;

    OK(t_write_file(dir, "Chart.yaml", "apiVersion: v2\nname: n\nversion: 1.0.0\n") == 0);
    OK(t_write_file(dir, "values.yaml", values) == 0);
    if (sd_source_open(&src, dir, NULL, &d) == 0)
        m = sd_model_build(src, NULL, &d);
    INT_EQ((int)(d.errors + d.warnings), 0);   /* (a note: the schema is made) */
    sd_source_free(src);
    sd_diags_release(&d);
    return m;
}

static sd_val *prop(sd_val *node, const char *key)
{
    size_t i;
    sd_val *x;
    sd_val_array_foreach(sd_val_object_get(node, "properties"), i, x) {
        const char *k = sd_val_string_value(sd_val_object_get(x, "key"));
        if (k && !strcmp(k, key))
            return x;
    }
    return NULL;
}

static int count_key(const sd_val *v, const char *key)
{
    int n = 0;
    size_t i;
    const char *k;
    sd_val *x;
    if (sd_val_is_array(v))
        sd_val_array_foreach(v, i, x)
            n += count_key(x, key);
    if (sd_val_is_object(v)) {
        n += sd_val_object_get(v, key) != NULL;
        sd_val_object_foreach(v, k, x)
            n += count_key(x, key);
    }
    return n;
}

static void test_nested_defaults(void)
{
    char dir[] = "/tmp/sd-test-render-XXXXXX";
    static const struct { const char *format, *template_file; int yaml; } pages[] = {
        { "md", NULL, 0 }, { "html", NULL, 1 }, { "md", "custom", 1 },
    };
    sd_val *m, *a, *b, *c;

    if (!mkdtemp(dir)) {
        OK(0);
        return;
    }
    m = nested_model(dir);
    OK(m != NULL);
    a = prop(sd_val_object_get(m, "root"), "a");
    b = prop(a, "b");
    c = prop(b, "c");
    OK(a && b && c);
    /* the same values, not equal copies */
    OK(sd_val_object_get(a, "default") != NULL);
    OK(sd_val_object_get(sd_val_object_get(sd_val_object_get(m, "root"), "default"), "a") == sd_val_object_get(a, "default"));
    OK(sd_val_object_get(sd_val_object_get(a, "default"), "b") == sd_val_object_get(b, "default"));
    OK(sd_val_object_get(sd_val_object_get(b, "default"), "c") == sd_val_object_get(c, "default"));
    OK(sd_val_object_get(sd_val_object_get(b, "default"), "e") == sd_val_object_get(prop(b, "e"), "default"));
    /* one string for a node's id and its path (and a top-level key), one
     * list for every node of one type */
    OK(sd_val_object_get(a, "id") != NULL && sd_val_object_get(a, "id") == sd_val_object_get(a, "path"));
    OK(sd_val_object_get(a, "key") == sd_val_object_get(a, "path"));
    OK(sd_val_object_get(b, "id") == sd_val_object_get(b, "path"));
    STR_EQ(sd_val_string_value(sd_val_object_get(b, "path")), "a.b");
    STR_EQ(sd_val_string_value(sd_val_object_get(b, "key")), "b");
    OK(sd_val_object_get(a, "type") != NULL && sd_val_object_get(a, "type") == sd_val_object_get(b, "type"));
    OK(sd_val_object_get(c, "type") != sd_val_object_get(b, "type"));
    STR_EQ(sd_val_string_value(sd_val_array_get(sd_val_object_get(c, "type"), 0)), "array");
    /* a row's key and description are its node's id and description */
    {
        sd_val *rows = sd_val_object_get(m, "rows"), *r;
        size_t i, shared = 0;
        OK(sd_val_array_size(rows) >= 2);
        sd_val_array_foreach(rows, i, r) {
            const char *k = sd_val_string_value(sd_val_object_get(r, "key"));
            sd_val *n = !k ? NULL : !strcmp(k, "a") ? a : !strcmp(k, "a.b") ? b : NULL;
            if (n) {
                OK(sd_val_object_get(r, "key") == sd_val_object_get(n, "id"));
                OK(sd_val_object_get(n, "description") != NULL &&
                   sd_val_object_get(r, "description") == sd_val_object_get(n, "description"));
                shared++;
            }
        }
        INT_EQ(shared, 2);
    }
    sd_val_decref(m);

    for (size_t i = 0; i < sizeof pages / sizeof *pages; i++) {
        char tpl[300];
        sd_render_opts ro;
        sd_buf out = SD_BUF_INIT;
        sd_diags d = SD_DIAGS_INIT;
        memset(&ro, 0, sizeof ro);
        ro.format = pages[i].format;
        if (pages[i].template_file) {
            snprintf(tpl, sizeof tpl, "%s/t.mustache", dir);
            OK(t_write_file(tpl, NULL, "{{#groups}}{{#sections}}{{#entries}}{{display}}={{default_yaml}};{{/entries}}{{/sections}}{{/groups}}") == 0);
            ro.template_file = tpl;
        }
        if (!(m = nested_model(dir)))
            continue;
        INT_EQ(sd_render(&out, m, &ro, &d), 0);
        INT_EQ(count_key(m, "default_yaml") > 0, pages[i].yaml);
        if (pages[i].template_file)
            OK(strstr(out.ptr, "a.b.e=text;") != NULL);
        sd_val_decref(m);
        sd_buf_release(&out);
        sd_diags_release(&d);
    }
    {
        char path[300];
        static const char *const files[] = { "Chart.yaml", "values.yaml", "t.mustache" };
        for (size_t i = 0; i < 3; i++) {
            snprintf(path, sizeof path, "%s/%s", dir, files[i]);
            remove(path);
        }
        rmdir(dir);
    }
}

TEST_MAIN(test_nested_defaults, test_theme_reads, test_yaml_scalars, test_yaml_blocks, test_yaml_containers, test_markdown, test_plain_text,
          test_readme_splice, test_diff)
