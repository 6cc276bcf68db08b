/* SPDX-License-Identifier: Apache-2.0 */
/* test_mustache.c - src/mustache.c beyond the spec: exact error positions,
 * partial confinement, limits, numbers, falsey values, determinism. */
#include "harness.h"
#include "mustache.h"

#include "val.h"
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* Compile `tmpl`, expect failure with `code`, return the diagnostic line. */
static char *compile_error(const char *tmpl, int code)
{
    sd_diags d = SD_DIAGS_INIT;
    sd_mustache *t = NULL;
    char *line = NULL;
    int err = sd_mustache_compile(&t, "t.mustache", tmpl, strlen(tmpl), &d);

    INT_EQ(err, code);
    OK(t == NULL);
    INT_EQ(d.count, 1);
    if (d.count)
        line = sd_diag_format(&d.items[0]);
    sd_mustache_free(t);
    sd_diags_release(&d);
    return line;
}

#define COMPILE_ERR(tmpl, code, msg) do { char *l_ = compile_error(tmpl, code); \
    STR_EQ(l_, msg); free(l_); } while (0)

/* Render `tmpl` over JSON text `data` with registry `reg` (may be NULL).
 * Returns the output (caller frees) and the status in *err; the first
 * diagnostic line goes to *diag (caller frees) when there is one. */
static char *render(const char *tmpl, const char *data, sd_mustache_partials *reg,
                    int *err, char **diag)
{
    sd_diags d = SD_DIAGS_INIT;
    sd_mustache *t = NULL;
    sd_buf out = SD_BUF_INIT;
    sd_val_error jerr;
    sd_val *j = sd_val_loads(data, SD_VAL_DECODE_ANY, &jerr);
    char *s;

    OK(j != NULL);
    *err = sd_mustache_compile(&t, "t.mustache", tmpl, strlen(tmpl), &d);
    if (*err == 0)
        *err = sd_mustache_render(&out, t, j, reg, &d);
    if (diag)
        *diag = d.count ? sd_diag_format(&d.items[0]) : NULL;
    s = sd_buf_detach(&out);
    sd_mustache_free(t);
    sd_diags_release(&d);
    sd_val_decref(j);
    return s;
}

#define RENDERS(tmpl, data, want) do { int e_; char *s_ = render(tmpl, data, NULL, &e_, NULL); \
    INT_EQ(e_, 0); STR_EQ(s_, want); free(s_); } while (0)

static void test_syntax_errors(void)
{
    COMPILE_ERR("{{#a}}\nfoo\n", SD_ESYNTAX, "t.mustache:1:1: error: section 'a' is never closed");
    COMPILE_ERR("x\n  {{#list}}\n  {{#item}}\n  {{/list}}\n", SD_ESYNTAX,
                "t.mustache:4:3: error: closing tag 'list' does not match section 'item' opened at 3:3");
    COMPILE_ERR("ab {{/a}}", SD_ESYNTAX, "t.mustache:1:4: error: closing tag 'a' has no open section");
    COMPILE_ERR("ab\n  {{x", SD_ESYNTAX, "t.mustache:2:3: error: unclosed tag: no '}}' after '{{'");
    COMPILE_ERR("{{{x}}", SD_ESYNTAX, "t.mustache:1:1: error: unclosed tag: no '}}}' after '{{'");
    COMPILE_ERR("a\n\n {{=<% %>=}} <%x}}", SD_ESYNTAX, "t.mustache:3:14: error: unclosed tag: no '%>' after '<%'");
    COMPILE_ERR("a {{=<%=}}", SD_ESYNTAX,
                "t.mustache:1:3: error: invalid set-delimiter tag '<%': expected two delimiters "
                "without spaces or '=', like {{=<% %>=}}");
    COMPILE_ERR("{{= a b c =}}", SD_ESYNTAX,
                "t.mustache:1:1: error: invalid set-delimiter tag 'a b c': expected two delimiters "
                "without spaces or '=', like {{=<% %>=}}");
    COMPILE_ERR("{{=a= b=}}", SD_ESYNTAX,
                "t.mustache:1:1: error: invalid set-delimiter tag 'a= b': expected two delimiters "
                "without spaces or '=', like {{=<% %>=}}");
    COMPILE_ERR("x{{ }}", SD_ESYNTAX, "t.mustache:1:2: error: tag has no name");
    COMPILE_ERR("{{a..b}}", SD_ESYNTAX, "t.mustache:1:1: error: invalid name 'a..b': empty part in a dotted name");
    COMPILE_ERR("{{a b}}", SD_ESYNTAX, "t.mustache:1:1: error: invalid name 'a b': names cannot contain spaces");
    COMPILE_ERR("{{<p}}{{$b}}x{{/p}}", SD_ESYNTAX,
                "t.mustache:1:14: error: closing tag 'p' does not match block 'b' opened at 1:7");
    COMPILE_ERR("{{<p}}\n", SD_ESYNTAX, "t.mustache:1:1: error: parent 'p' is never closed");
    /* a multi-line comment moves the position of what follows */
    COMPILE_ERR("{{! one\ntwo }} {{/x}}", SD_ESYNTAX, "t.mustache:2:8: error: closing tag 'x' has no open section");
}

static void test_nesting_limit(void)
{
    sd_buf b = SD_BUF_INIT;
    int i;
    char *l;
    for (i = 0; i <= SD_MUSTACHE_MAX_NESTING; i++)
        sd_buf_puts(&b, "{{#a}}");
    l = compile_error(b.ptr, SD_ELIMIT);
    STR_EQ(l, "t.mustache:1:1201: error: sections nested deeper than 200");
    free(l);
    sd_buf_release(&b);
}

static void test_stack_limit(void)
{
    sd_mustache_partials *reg = NULL;
    sd_diags d = SD_DIAGS_INIT;
    sd_buf p = SD_BUF_INIT;
    char *s, *diag;
    int i, err;

    /* 150 sections per partial level: the product of the two limits is
     * far more than the C stack should take, so the sum is bounded */
    for (i = 0; i < 150; i++)
        sd_buf_puts(&p, "{{#a}}");
    sd_buf_puts(&p, "{{>p}}");
    for (i = 0; i < 150; i++)
        sd_buf_puts(&p, "{{/a}}");
    INT_EQ(sd_mustache_partials_new(&reg, 0), 0);
    INT_EQ(sd_mustache_partials_add(reg, "p", p.ptr, p.len, &d), 0);
    s = render("{{>p}}", "{\"a\":true}", reg, &err, &diag);
    INT_EQ(err, SD_ELIMIT);
    STR_EQ(diag, "p:1:217: error: sections and partials nested deeper than 2000");
    free(s);
    free(diag);
    /* no registry: partials render as nothing */
    RENDERS("[{{>p}}]", "{}", "[]");
    sd_buf_release(&p);
    sd_mustache_partials_free(reg);
    sd_diags_release(&d);
}

/* A registry's escape function replaces HTML's for {{x}} (an output
 * format's own escaping: adoc's); {{{x}}} and {{&x}} stay raw. */
static void bracket(sd_buf *b, const char *s, size_t n)
{
    sd_buf_putc(b, '[');
    sd_buf_put(b, s, n);
    sd_buf_putc(b, ']');
}

static void test_escape_fn(void)
{
    sd_mustache_partials *reg = NULL;
    char *s, *diag = NULL;
    int err;

    INT_EQ(sd_mustache_partials_new(&reg, 0), 0);
    INT_EQ(sd_mustache_partials_escape(reg) == NULL, 1);
    sd_mustache_partials_set_escape(reg, bracket);
    s = render("{{a}} {{{a}}} {{&a}} {{n}}", "{\"a\":\"<x>\",\"n\":[1]}", reg, &err, &diag);
    INT_EQ(err, 0);
    STR_EQ(s, "[<x>] <x> <x> [[1]]");
    free(s);
    free(diag);
    sd_mustache_partials_set_escape(reg, NULL);
    s = render("{{a}}", "{\"a\":\"<x>\"}", reg, &err, &diag);
    STR_EQ(s, "&lt;x&gt;");
    free(s);
    free(diag);
    sd_mustache_partials_free(reg);
}

static void test_values(void)
{
    RENDERS("{{a}} {{b}} {{c}} {{d}} {{e}} {{f}}", "{\"a\":1.21,\"b\":85,\"c\":2.0,\"d\":0.1,\"e\":-3,\"f\":1e300}",
            "1.21 85 2 0.1 -3 1e+300");
    RENDERS("{{t}} {{f}} [{{n}}] [{{missing}}]", "{\"t\":true,\"f\":false,\"n\":null}", "true false [] []");
    RENDERS("{{o}} {{{a}}}", "{\"o\":{\"k\":\"<v>\",\"n\":[1,2]},\"a\":[1,\"x\"]}",
            "{&quot;k&quot;:&quot;&lt;v&gt;&quot;,&quot;n&quot;:[1,2]} [1,\"x\"]");
    /* the spec's escaping set: & < > " (apostrophes pass) */
    RENDERS("{{s}}|{{{s}}}|{{&s}}", "{\"s\":\"<a href='x'>&\\\"</a>\"}",
            "&lt;a href='x'&gt;&amp;&quot;&lt;/a&gt;|<a href='x'>&\"</a>|<a href='x'>&\"</a>");
    /* data is never parsed as a template */
    RENDERS("{{x}}|{{{x}}}", "{\"x\":\"{{#y}}boom{{/y}}{{>p}}\",\"y\":true}",
            "{{#y}}boom{{/y}}{{&gt;p}}|{{#y}}boom{{/y}}{{>p}}");
    /* array indices in dotted names, after the first part */
    RENDERS("{{items.1.name}}|{{items.9.name}}", "{\"items\":[{\"name\":\"a\"},{\"name\":\"b\"}]}", "b|");
}

static void test_falsey(void)
{
    const char *t = "{{#v}}T{{/v}}{{^v}}F{{/v}}";
    RENDERS(t, "{\"v\":false}", "F");
    RENDERS(t, "{\"v\":null}", "F");
    RENDERS(t, "{\"v\":[]}", "F");
    RENDERS(t, "{}", "F");
    RENDERS(t, "{\"v\":\"\"}", "T");
    RENDERS(t, "{\"v\":0}", "T");
    RENDERS(t, "{\"v\":{}}", "T");
    RENDERS(t, "{\"v\":[0,0]}", "TT");
}

static void test_deterministic(void)
{
    const char *tmpl = "{{#list}}<{{name}}:{{#tags}}{{.}},{{/tags}}>{{/list}}";
    sd_val *data = sd_val_loads("{\"list\":[{\"name\":\"a\",\"tags\":[\"x\",\"y\"]},{\"name\":\"b\",\"tags\":[]}]}", 0, NULL);
    sd_diags d = SD_DIAGS_INIT;
    sd_mustache *t = NULL;
    sd_buf a = SD_BUF_INIT, b = SD_BUF_INIT;

    INT_EQ(sd_mustache_compile(&t, "t", tmpl, strlen(tmpl), &d), 0);
    INT_EQ(sd_mustache_render(&a, t, data, NULL, &d), 0);
    INT_EQ(sd_mustache_render(&b, t, data, NULL, &d), 0);
    STR_EQ(a.ptr, "<a:x,y,><b:>");
    STR_EQ(b.ptr, a.ptr);
    sd_buf_release(&a);
    sd_buf_release(&b);
    sd_mustache_free(t);
    sd_val_decref(data);
    sd_diags_release(&d);
}

static void test_output_cap(void)
{
    const char *tmpl = "{{#l}}0123456789{{/l}}";
    sd_val *data = sd_val_loads("{\"l\":[1,2,3,4,5,6,7,8,9,10,11,12]}", 0, NULL);
    sd_diags d = SD_DIAGS_INIT;
    sd_mustache *t = NULL;
    sd_buf out;
    char *l;

    sd_buf_init(&out, 50);
    INT_EQ(sd_mustache_compile(&t, "t", tmpl, strlen(tmpl), &d), 0);
    INT_EQ(sd_mustache_render(&out, t, data, NULL, &d), SD_ELIMIT);
    l = d.count ? sd_diag_format(&d.items[0]) : NULL;
    STR_EQ(l, "t: error: output larger than 50 bytes");
    free(l);
    sd_buf_release(&out);
    sd_mustache_free(t);
    sd_val_decref(data);
    sd_diags_release(&d);
}

static void test_partials_memory(void)
{
    sd_mustache_partials *reg = NULL;
    sd_diags d = SD_DIAGS_INIT;
    char *s, *diag;
    int err;

    INT_EQ(sd_mustache_partials_new(&reg, 0), 0);
    INT_EQ(sd_mustache_partials_add(reg, "self", "[{{>self}}]", 11, &d), 0);
    INT_EQ(sd_mustache_partials_add(reg, "loop", "{{<loop}}{{$a}}{{$a}}x{{/a}}{{/a}}{{/loop}}", 43, &d), 0);
    INT_EQ(sd_mustache_partials_add(reg, "p", "{{$a}}{{/a}}", 12, &d), 0);

    /* spec: an unknown partial renders nothing when the registry is not strict */
    s = render("<{{>nope}}>", "{}", reg, &err, NULL);
    INT_EQ(err, 0);
    STR_EQ(s, "<>");
    free(s);

    s = render("x\n {{>self}}", "{}", reg, &err, &diag);
    INT_EQ(err, SD_ELIMIT);
    STR_EQ(diag, "self:1:2: error: partials nested deeper than 100 (is 'self' recursive?)");
    free(s);
    free(diag);

    s = render("{{<p}}{{$a}}{{$a}}x{{/a}}{{/a}}{{/p}}", "{}", reg, &err, &diag);
    INT_EQ(err, SD_ELIMIT);
    STR_EQ(diag, "t.mustache:1:13: error: blocks nested deeper than 100 (does block 'a' include itself?)");
    free(s);
    free(diag);

    /* a broken partial is reported where it is broken */
    err = sd_mustache_partials_add(reg, "broken", "ok\n{{#x}}", 9, &d);
    INT_EQ(err, SD_ESYNTAX);
    s = d.count ? sd_diag_format(&d.items[0]) : NULL;
    STR_EQ(s, "broken:2:1: error: section 'x' is never closed");
    free(s);

    sd_diags_release(&d);
    sd_mustache_partials_free(reg);
}

static void test_partials_dirs(void)
{
    char root[] = "/tmp/sd_mustache_XXXXXX", p[512];
    sd_mustache_partials *reg = NULL, *lax = NULL;
    sd_diags d = SD_DIAGS_INIT;
    sd_mustache *t = NULL;
    char *s, *diag;
    int err;

    OK(mkdtemp(root) != NULL);
    snprintf(p, sizeof p, "%s/theme", root);
    mkdir(p, 0777);
    snprintf(p, sizeof p, "%s/theme/sub", root);
    mkdir(p, 0777);
    snprintf(p, sizeof p, "%s/base", root);
    mkdir(p, 0777);
    snprintf(p, sizeof p, "%s/theme/head.mustache", root);
    OK(t_write_file(p, NULL, "theme head {{x}}") == 0);
    snprintf(p, sizeof p, "%s/base/head.mustache", root);
    OK(t_write_file(p, NULL, "base head") == 0);
    snprintf(p, sizeof p, "%s/base/foot.mustache", root);
    OK(t_write_file(p, NULL, "base foot") == 0);
    snprintf(p, sizeof p, "%s/theme/sub/row.mustache", root);
    OK(t_write_file(p, NULL, "row") == 0);
    snprintf(p, sizeof p, "%s/secret.mustache", root);
    OK(t_write_file(p, NULL, "secret") == 0);
    snprintf(p, sizeof p, "%s/theme/link.mustache", root);
    {
        char target[512];
        snprintf(target, sizeof target, "%s/secret.mustache", root);
        OK(symlink(target, p) == 0);
    }

    INT_EQ(sd_mustache_partials_new(&reg, SD_MUSTACHE_STRICT), 0);
    snprintf(p, sizeof p, "%s/theme", root);
    INT_EQ(sd_mustache_partials_add_dir(reg, p), 0);
    snprintf(p, sizeof p, "%s/base", root);
    INT_EQ(sd_mustache_partials_add_dir(reg, p), 0);

    /* theme first, then base; subdirectories are fine */
    s = render("{{>head}}|{{>foot}}|{{>sub/row}}|{{>*n}}", "{\"x\":1,\"n\":\"foot\"}", reg, &err, NULL);
    INT_EQ(err, 0);
    STR_EQ(s, "theme head 1|base foot|row|base foot");
    free(s);

    /* names that would leave the directories */
    {
        static const char *const bad[] = { "../secret", "/etc/passwd", "sub/../head", "./head",
                                           "sub//row", "sub/", "a\\b" };
        for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
            char tmpl[64];
            snprintf(tmpl, sizeof tmpl, "{{>%s}}", bad[i]);
            s = render(tmpl, "{}", reg, &err, &diag);
            INT_EQ(err, SD_EDENIED);
            OK(diag && strstr(diag, "t.mustache:1:1: error: partial name '") == diag);
            free(s);
            free(diag);
        }
    }
    /* dynamic names are checked too */
    s = render("a{{>*n}}", "{\"n\":\"../secret\"}", reg, &err, &diag);
    INT_EQ(err, SD_EDENIED);
    STR_EQ(diag, "t.mustache:1:2: error: partial name '../secret' is not allowed: "
                 "it must be a relative path without '.' or '..' parts");
    free(s);
    free(diag);
    /* a symbolic link out of the directory */
    s = render("{{>link}}", "{}", reg, &err, &diag);
    INT_EQ(err, SD_EDENIED);
    OK(diag && strstr(diag, "error: partial 'link' resolves outside '") != NULL);
    free(s);
    free(diag);

    /* strict: unknown partials are errors at the tag */
    s = render("one\n  {{>nope}}", "{}", reg, &err, &diag);
    INT_EQ(err, SD_ENOTFOUND);
    snprintf(p, sizeof p, "t.mustache:2:3: error: unknown partial 'nope' (no nope.mustache in '%s/theme', '%s/base')",
             root, root);
    STR_EQ(diag, p);
    free(s);
    free(diag);
    /* ... but a dynamic name that resolves to nothing renders nothing (spec) */
    s = render("[{{>*missing}}]", "{}", reg, &err, NULL);
    INT_EQ(err, 0);
    STR_EQ(s, "[]");
    free(s);

    /* preload finds an unknown partial the data would never reach */
    {
        const char *tmpl = "{{#never}}\n{{>head}}{{>gone}}\n{{/never}}";
        INT_EQ(sd_mustache_compile(&t, "t.mustache", tmpl, strlen(tmpl), &d), 0);
        INT_EQ(sd_mustache_partials_preload(reg, t, &d), SD_ENOTFOUND);
        INT_EQ(d.count, 1);
        s = d.count ? sd_diag_format(&d.items[0]) : NULL;
        OK(s && strncmp(s, "t.mustache:2:10: error: unknown partial 'gone'", 46) == 0);
        free(s);
        sd_mustache_free(t);
        sd_diags_release(&d);
    }
    /* a lax registry leaves unknown names alone */
    INT_EQ(sd_mustache_partials_new(&lax, 0), 0);
    {
        const char *tmpl = "{{>gone}}";
        INT_EQ(sd_mustache_compile(&t, "t.mustache", tmpl, strlen(tmpl), &d), 0);
        INT_EQ(sd_mustache_partials_preload(lax, t, &d), 0);
        sd_mustache_free(t);
    }

    sd_mustache_partials_free(reg);
    sd_mustache_partials_free(lax);
    sd_diags_release(&d);
    snprintf(p, sizeof p, "rm -rf '%s'", root);
    OK(system(p) == 0);
}

static void test_inheritance_reaches_partials(void)
{
    sd_mustache_partials *reg = NULL;
    sd_diags d = SD_DIAGS_INIT;
    char *s;
    int err;

    INT_EQ(sd_mustache_partials_new(&reg, 0), 0);
    INT_EQ(sd_mustache_partials_add(reg, "header", "<head>{{$title}}T{{/title}}</head>\n", 35, &d), 0);
    INT_EQ(sd_mustache_partials_add(reg, "base", "{{>header}}<body>{{$body}}B{{/body}}</body>\n", 45, &d), 0);
    s = render("{{<base}}{{$title}}{{name}}{{/title}}{{/base}}", "{\"name\":\"Mine\"}", reg, &err, NULL);
    INT_EQ(err, 0);
    STR_EQ(s, "<head>Mine</head>\n<body>B</body>\n");
    free(s);
    sd_mustache_partials_free(reg);
    sd_diags_release(&d);
}

/* The spec's "Failed Lookup" (partials, dynamic names): empty; a WARN
 * registry says so once per name, a STRICT one fails. */
static void test_failed_lookup(void)
{
    sd_mustache_partials *reg = NULL;
    char *s, *diag = NULL;
    int err;

    INT_EQ(sd_mustache_partials_new(&reg, SD_MUSTACHE_WARN), 0);
    s = render("\"{{>text}}\"", "{}", reg, &err, &diag);
    INT_EQ(err, 0);
    STR_EQ(s, "\"\"");
    OK(diag != NULL && strstr(diag, "warning: unknown partial 'text' renders as nothing") != NULL);
    free(s);
    free(diag);
    diag = NULL;
    s = render("\"{{>*dynamic}}\"", "{\"dynamic\":\"content\"}", reg, &err, &diag);
    INT_EQ(err, 0);
    STR_EQ(s, "\"\"");
    OK(diag != NULL && strstr(diag, "'content'") != NULL);
    free(s);
    free(diag);
    sd_mustache_partials_free(reg);

    INT_EQ(sd_mustache_partials_new(&reg, SD_MUSTACHE_STRICT), 0);
    diag = NULL;
    s = render("\"{{>text}}\"", "{}", reg, &err, &diag);
    INT_EQ(err, SD_ENOTFOUND);
    OK(diag != NULL && strstr(diag, "error: unknown partial 'text'") != NULL);
    free(s);
    free(diag);
    sd_mustache_partials_free(reg);
}

static void test_indentation(void)
{
    sd_mustache_partials *reg = NULL;
    sd_diags d = SD_DIAGS_INIT;
    char *s;
    int err;

    INT_EQ(sd_mustache_partials_new(&reg, 0), 0);
    INT_EQ(sd_mustache_partials_add(reg, "row", "<tr>\n  <td>{{v}}</td>\n</tr>\n", 28, &d), 0);
    INT_EQ(sd_mustache_partials_add(reg, "table", "<table>\n  {{#rows}}\n  {{>row}}\n  {{/rows}}\n</table>\n", 52, &d), 0);
    /* nested standalone partials add up their indentation; data lines are not indented */
    s = render("<body>\n  {{>table}}\n</body>\n", "{\"rows\":[{\"v\":\"a\\nb\"}]}", reg, &err, NULL);
    INT_EQ(err, 0);
    STR_EQ(s, "<body>\n  <table>\n    <tr>\n      <td>a\nb</td>\n    </tr>\n  </table>\n</body>\n");
    free(s);
    sd_mustache_partials_free(reg);
    sd_diags_release(&d);
}

/* sd_mustache_may_read: a template it clears renders the same with and
 * without the top-level "rows" (the CLI builds a chart's model without them
 * for such a page); one it does not clear is one that could differ. */
static void test_may_read(void)
{
    static const struct { const char *t; int reads; } cases[] = {
        { "{{title}}{{#groups}}<{{.}}>{{/groups}}", 0 },
        { "{{#groups}}{{#.}}{{.}}{{/.}}{{/groups}}", 0 },
        { "{{rows}}", 1 },
        { "{{#groups}}{{#rows}}x{{/rows}}{{/groups}}", 1 },   /* found below the item */
        { "{{groups.rows}}{{a.rows.0}}", 1 },
        { "{{^rows}}none{{/rows}}", 1 },
        { "{{.}}", 1 },
        { "{{{.}}}", 1 },
        { "{{^missing}}{{.}}{{/missing}}", 1 },
        { "{{#.}}{{.}}{{/.}}", 1 },
        { "{{#groups}}{{>dot}}{{/groups}}", 0 },
        { "{{>dot}}", 1 },
        { "{{>uses}}", 1 },
        { "{{>self}}{{>none}}", 0 },
        { "{{>*title}}", 1 },
        { "{{<parent}}{{$b}}{{rows}}{{/b}}{{/parent}}", 1 },
        { "{{<parent}}{{$b}}x{{/b}}{{/parent}}", 0 },
        { "{{<reads}}{{/reads}}", 1 },
        { "{{$b}}{{#rows}}x{{/rows}}{{/b}}", 1 },
        { "{{>missing}}", 0 },
    };
    sd_mustache_partials *reg = NULL;
    sd_diags d = SD_DIAGS_INIT;
    int differ = 0;

    INT_EQ(sd_mustache_partials_new(&reg, 0), 0);
    INT_EQ(sd_mustache_partials_add(reg, "uses", "{{#rows}}{{.}}{{/rows}}", 23, &d), 0);
    INT_EQ(sd_mustache_partials_add(reg, "dot", "{{.}}", 5, &d), 0);
    INT_EQ(sd_mustache_partials_add(reg, "self", "[{{#groups}}{{>self}}{{/groups}}]", 33, &d), 0);
    INT_EQ(sd_mustache_partials_add(reg, "none", "{{title}}", 9, &d), 0);
    INT_EQ(sd_mustache_partials_add(reg, "parent", "({{$b}}{{/b}})", 14, &d), 0);
    INT_EQ(sd_mustache_partials_add(reg, "reads", "({{$b}}{{rows}}{{/b}})", 22, &d), 0);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        sd_mustache *t = NULL;
        char *with, *without;
        int e1, e2;
        INT_EQ(sd_mustache_compile(&t, "t", cases[i].t, strlen(cases[i].t), &d), 0);
        if (!t)
            continue;
        if (sd_mustache_may_read(t, reg, "rows") != cases[i].reads) {
            fprintf(stderr, "  may_read(%s) is not %d\n", cases[i].t, cases[i].reads);
            OK(0);
        }
        with = render(cases[i].t, "{\"title\":\"none\",\"groups\":[\"g\"],\"rows\":[1]}", reg, &e1, NULL);
        without = render(cases[i].t, "{\"title\":\"none\",\"groups\":[\"g\"]}", reg, &e2, NULL);
        if (e1 == 0 && e2 == 0 && strcmp(with, without) != 0)
            differ++;
        if (!cases[i].reads)
            STR_EQ(with, without);
        free(with);
        free(without);
        sd_mustache_free(t);
    }
    OK(differ >= 10);   /* the data tells the two apart */
    sd_diags_release(&d);
    sd_mustache_partials_free(reg);
}

/* List items of 8 to 32 members asked about three times or more are
 * indexed by the names' hashes (mustache_render.c, top_get): every name
 * still finds its own member, a missing one falls to the frames below, and
 * an item's index is not another's. */
static void test_indexed_items(void)
{
    static const char tmpl[] = "{{#items}}[{{k0}}{{k5}}{{k11}}{{top}}{{#k3}}<{{.}}{{k7}}>{{/k3}}{{^nope}}-{{/nope}}]{{/items}}";
    sd_buf data = SD_BUF_INIT;
    char *s;
    int err;
    sd_buf_puts(&data, "{\"top\":\"T\",\"items\":[");
    for (int i = 0; i < 3; i++) {
        sd_buf_puts(&data, i ? ",{" : "{");
        for (int k = 0; k < 12; k++)
            sd_buf_printf(&data, "%s\"k%d\":\"%c%d\"", k ? "," : "", k, 'a' + i, k);
        sd_buf_puts(&data, "}");
    }
    sd_buf_puts(&data, ",{\"k0\":\"small\"}]}");
    s = render(tmpl, data.ptr, NULL, &err, NULL);
    INT_EQ(err, 0);
    STR_EQ(s, "[a0a5a11T<a3a7>-][b0b5b11T<b3b7>-][c0c5c11T<c3c7>-][smallT-]");
    free(s);
    sd_buf_release(&data);
}

TEST_MAIN(test_indexed_items, test_may_read, test_syntax_errors, test_nesting_limit, test_stack_limit, test_escape_fn, test_values, test_falsey, test_deterministic,
          test_output_cap, test_partials_memory, test_partials_dirs, test_inheritance_reaches_partials,
          test_indentation, test_failed_lookup)
