/* SPDX-License-Identifier: Apache-2.0 */
/* test_dialect.c - the comment dialects of values files: their table
 * (dialect.h), keys commented out (commented.h), the `@schema` dialects
 * (atschema.h) and the schema made from them (gen.h). */
#include "harness.h"
#include "annot.h"
#include "atschema.h"
#include "commented.h"
#include "emit.h"
#include "gen.h"

#include <stdlib.h>
#include <string.h>

static sd_doc *load(const char *name, const char *text)
{
    sd_diags d = SD_DIAGS_INIT;
    sd_doc *doc = NULL;
    sd_doc_load_mem(&doc, name, text, strlen(text), SD_FMT_YAML, NULL, &d);
    sd_diags_release(&d);
    return doc;
}

/* The commented-out keys of `text`, one "parent|key|line:col|value" per
 * key, joined with "; ". */
static char *ckeys(const char *text)
{
    sd_doc *d = load("values.yaml", text);
    sd_ckeys ck;
    sd_buf b = SD_BUF_INIT;

    if (!d)
        return strdup("(no document)");
    if (sd_ckeys_scan(&ck, d) < 0) {
        sd_doc_free(d);
        return strdup("(out of memory)");
    }
    for (size_t i = 0; i < ck.n; i++) {
        const sd_ckey *k = &ck.items[i];
        sd_buf_puts(&b, i ? "; " : "");
        sd_cpath_text(&b, k->path);
        sd_buf_printf(&b, "|%s|%d:%d|", k->key, k->loc.line, k->loc.column);
        sd_emit_json(&b, NULL, k->value, 0, 0);
    }
    sd_ckeys_release(&ck);
    sd_doc_free(d);
    return sd_buf_detach(&b);
}

#define CK_EQ(text, want) do { char *got_ = ckeys(text); STR_EQ(got_, want); free(got_); } while (0)

/* `# minAvailable: 1` with its '#' where the map's keys start */
static void test_sibling(void)
{
    /* an example that writes the path again from the map it is in
     * (grafana's global.imagePullSecrets) is no key `global.global` */
    CK_EQ("global:\n"
          "  imageRegistry: null\n"
          "  # global:\n"
          "  #   imagePullSecrets:\n"
          "  #   - name: pullSecret1\n"
          "  imagePullSecrets: []\n",
          "");
    CK_EQ("podDisruptionBudget:\n"
          "  enabled: false\n"
          "  # minAvailable: 1\n"
          "  # maxUnavailable: 25%\n"
          "replicas: 1\n",
          "podDisruptionBudget|minAvailable|3:5|1; podDisruptionBudget|maxUnavailable|4:5|\"25%\"");
    /* before the first key of the map, and at the root between keys */
    CK_EQ("securityContext:\n"
          "  # capabilities:\n"
          "  #   drop: [ALL]\n"
          "  readOnlyRootFilesystem: true\n"
          "# nameOverride: \"\"\n"
          "image: x\n",
          "securityContext|capabilities|2:5|{\"drop\":[\"ALL\"]}; |nameOverride|5:3|\"\"");
    /* a commented block that writes a real map again adds its keys under
     * the real map, across a sentence about the key (grafana's
     * `# server:` / `# The full public facing url ...` / `#    root_url:`
     * below a real grafana.ini.server) */
    CK_EQ("grafana.ini:\n"
          "  server:\n"
          "    domain: x\n"
          "  # server:\n"
          "  # The full public facing url you use in browser, used for redirects\n"
          "  #    root_url:\n"
          "  # https://grafana.com/docs/grafana/latest/auth/github/\n"
          "  # auth.github:\n"
          "  #    enabled: false\n",
          "\"grafana.ini\".server|root_url|6:8|null; \"grafana.ini\"|auth.github|8:5|{\"enabled\":false}");
    /* a sentence after a key with a value of its own ends the block: the
     * key after it is a block of its own (a.z), not a.y.z */
    CK_EQ("a:\n  x: 1\n  # y: 2\n  # Some words here\n  #   z: 3\n",
          "a|y|3:5|2; a|z|5:7|3");
    /* typed as YAML types the value */
    CK_EQ("a:\n  x: 1\n  # n: 3\n  # s: Prefix\n  # b: true\n  # f: 1.5\n  # z:\n",
          "a|n|3:5|3; a|s|4:5|\"Prefix\"; a|b|5:5|true; a|f|6:5|1.5; a|z|7:5|null");
}

/* under the key above: its value is `{}` or null */
static void test_child(void)
{
    /* `lifecycle: {}` and an example written on the next lines, one level in */
    CK_EQ("deployment:\n"
          "  lifecycle: {}\n"
          "  # preStop:\n"
          "  #   sleep:\n"
          "  #     seconds: 20\n"
          "  # postStart: {}\n"
          "  replicas: 1\n",
          "deployment.lifecycle|preStop|3:5|{\"sleep\":{\"seconds\":20}}; deployment.lifecycle|postStart|6:5|{}");
    /* the '#' indented past a null key */
    CK_EQ("nodeSelector:\n  # kubernetes.io/os: linux\nother: 1\n",
          "nodeSelector|kubernetes.io/os|2:5|\"linux\"");
    /* after a blank line, `{}` no longer takes the next key */
    CK_EQ("resources: {}\n\n# nameOverride: x\n", "|nameOverride|3:3|\"x\"");
    /* "For example:" above a key whose value is empty, indented within the comment */
    CK_EQ("# Resources for the pod.\n"
          "# For example:\n"
          "#  requests:\n"
          "#    cpu: 10m\n"
          "resources: {}\n",
          "resources|requests|3:4|{\"cpu\":\"10m\"}");
    /* ... unless the block writes that key itself */
    CK_EQ("# For example:\n#  extraEnv:\n#  - name: A\nextraEnv: []\n", "");
}

/* blank lines and comments inside a commented block */
static void test_block(void)
{
    CK_EQ("controllers: {}\n"
          "#   main:\n"
          "#     # -- enable it\n"
          "#     enabled: true\n"
          "\n"
          "#     # -- the type\n"
          "#     type: deployment\n"
          "service: {}\n",
          "controllers|main|2:5|{\"enabled\":true,\"type\":\"deployment\"}");
    /* keys commented out twice: the first counts; a real key wins */
    CK_EQ("a:\n  enabled: true\n  # enabled: false\n  # x: 1\n  # x: 2\n", "a|x|4:5|1");
}

/* prose, list examples and other dialects' lines are not keys */
static void test_prose(void)
{
    CK_EQ("# Note: this is important\n"
          "# ref: https://kubernetes.io/docs/concepts/\n"
          "## @param image.tag The tag\n"
          "# -- (int) The count\n"
          "# @schema type: integer\n"
          "# Requirements:\n"
          "#   - Kubernetes 1.30\n"
          "# overwrite: If set, use those instead of the defaults.\n"
          "# merge: merge them with all of the defaults\n"
          "# SPDX-License-Identifier: APACHE-2.0\n"
          "# http://example.com: not a key\n"
          "count: 1\n", "");
    /* list items and what is indented under them */
    CK_EQ("extraVolumes: []\n"
          "# - name: foo\n"
          "#   hostPath:\n"
          "#     path: /x\n"
          "#   ## a comment\n"
          "#   # readOnly: true\n"
          "other: 1\n", "");
    /* an environment variable is a key (ALL_CAPS), a capitalised word is not */
    CK_EQ("env:\n  A: 1\n  # HTTP_PROXY: http://proxy:8080\n  # Default: the first one\n",
          "env|HTTP_PROXY|3:5|\"http://proxy:8080\"");
}

/* what does not parse gives nothing, and never a crash */
static void test_malformed(void)
{
    CK_EQ("a:\n  x: 1\n  # foo: [unclosed\n  # bar: {a: \n", "");
    /* the YAML before a line that breaks it still counts */
    CK_EQ("a:\n  x: 1\n  # foo: 1\n  #   bad: [\n", "a|foo|3:5|1");
    CK_EQ("a:\n  x: 1\n  # foo: 1\n  # bar:\n  #     - [\n", "a|foo|3:5|1; a|bar|4:5|null");
    CK_EQ("# a: 1\n#\tb: 2\n", "|a|1:3|1");
    CK_EQ("# only: comments\n", "|only|1:3|\"comments\"");
    CK_EQ("", "");
    CK_EQ("# a: 1\nplain scalar\n", "|a|1:3|1");
    CK_EQ("#\n#\n# :\n# - \n# \"unterminated: x\n# 'a': 1\n", "|a|6:3|1");
    CK_EQ("a: &x\n  b: 1\n  # c: 2\nd: *x\n", "a|c|3:5|2");
}

/* the map of commented keys under a parent, and what is an example */
static void test_under(void)
{
    sd_doc *d = load("values.yaml", "pdb:\n  enabled: false\n  # minAvailable: 1\n"
                                    "# extra:\n#   nested: {k: v}\n");
    sd_ckeys ck;
    INT_EQ(sd_ckeys_scan(&ck, d), 0);
    const sd_node *pdb = sd_node_get(sd_doc_root(d), "pdb");
    const sd_node *m = sd_ckeys_under(&ck, pdb);
    OK(m && m->kind == SD_MAP && m->n == 1);
    const sd_node *v = m ? sd_node_get(m, "minAvailable") : NULL;
    OK(v && v->kind == SD_INT && v->num.i == 1);
    INT_EQ(v ? v->loc.line : 0, 3);
    INT_EQ(v ? v->loc.column : 0, 19);
    OK(sd_ckeys_is_commented(&ck, v));
    OK(!sd_ckeys_is_commented(&ck, pdb));
    const sd_node *root = sd_ckeys_under(&ck, sd_doc_root(d));
    const sd_node *ex = root ? sd_node_get(root, "extra") : NULL;
    OK(ex && sd_ckeys_is_commented(&ck, sd_node_get(ex, "nested")));
    OK(sd_ckeys_under(&ck, sd_node_get(pdb, "enabled")) == NULL);
    sd_ckeys_release(&ck);
    sd_doc_free(d);
    /* no values, no comments */
    INT_EQ(sd_ckeys_scan(&ck, NULL), 0);
    INT_EQ((long long)ck.n, 0);
    OK(sd_ckeys_under(&ck, NULL) == NULL);
    sd_ckeys_release(&ck);
}

/* ---- the `@schema` dialects and the generator ------------------------------ */

/* The schema of `text` as `flavour` reads it, written in schemadoc's order
 * compactly (NULL: out of memory); the diagnostics, one a line, in *diag. */
static char *gen_with(const char *text, int flavour, int exact, const char *example)
{
    sd_doc *d = load("values.yaml", text), *ex = example ? load("ci.yaml", example) : NULL;
    sd_diags dg = SD_DIAGS_INIT;
    sd_gen_opts o;
    sd_buf b = SD_BUF_INIT, w = SD_BUF_INIT;

    memset(&o, 0, sizeof o);
    o.flavour = flavour;
    o.exact = exact;
    if (ex) {
        o.examples = (const sd_doc *const *)&ex;
        o.nexamples = 1;
    }
    sd_doc *s = d ? sd_gen_schema((const sd_doc *const *)&d, 1, &o, NULL, &dg) : NULL;
    if (s) {
        sd_gen_write(&w, s, SD_GEN_NATIVE, &o);
        sd_emit_json(&b, s, sd_doc_root(s), 0, 0);
    }
    for (size_t i = 0; i < dg.count; i++) {
        char *line = sd_diag_format(&dg.items[i]);
        sd_buf_printf(&b, "\n%s", line ? line : "?");
        free(line);
    }
    sd_doc_free(s);
    sd_doc_free(d);
    sd_doc_free(ex);
    sd_diags_release(&dg);
    sd_buf_release(&w);
    return sd_buf_detach(&b);
}

static int has(const char *hay, const char *needle)
{
    int ok = hay && strstr(hay, needle) != NULL;
    if (!ok)
        fprintf(stderr, "    no %s in %s\n", needle, hay ? hay : "(null)");
    return ok;
}

static char *gen(const char *text, int flavour, char **diag)
{
    if (diag)
        *diag = NULL;
    return gen_with(text, flavour, 0, NULL);
}

/* helm-docs types in the tools' readings: schemadoc's precedence, unless
 * the tool's exact bytes are asked for; the chart's ci/ values widen */
static void test_precedence_tools(void)
{
    const char *v = "# -- (int) Buffer size\nbuf:  # @schema minimum: 0\nport: 80  # @schema maximum: 9\n";
    char *r = gen_with(v, SD_GEN_HVSJ, 0, NULL);
    OK(has(r, "\"buf\":{\"description\":\"Buffer size\",\"type\":[\"integer\",\"null\"],\"minimum\":0}"));
    free(r);
    r = gen_with(v, SD_GEN_HVSJ, 1, NULL);   /* the tool: helm-docs only with useHelmDocs */
    OK(has(r, "\"buf\":{\"type\":\"null\",\"minimum\":0}"));
    free(r);
    r = gen_with("mode: auto\nname: x\nenv: {}\nn: 1\n", SD_GEN_NATIVE, 0,
                 "mode: true\nname: 0\nenv: [a]\nn: null\n");
    OK(has(r, "\"mode\":{\"type\":[\"string\",\"boolean\"]"));
    OK(has(r, "\"name\":{\"type\":[\"string\",\"integer\"]"));
    OK(has(r, "\"env\":{\"type\":[\"object\",\"array\"]}"));
    OK(has(r, "\"n\":{\"type\":\"integer\""));   /* a null takes the key out */
    free(r);
}

/* helm-values-schema-json: malformed parts are warnings at their place,
 * the rest is read */
static void test_hvsj_malformed(void)
{
    char *r = gen("a: 1 # @schema minimum: x; maximum: 5\n"
                  "b: 2 # @schema frobnicate: 1; minimum: 0\n"
                  "c: [] # @schema uniqueItems: maybe; item: string\n"
                  "d: {} # @schema patternProperties: {a: [; minProperties: 1\n"
                  "e: x # @schema ; ; type: [string, null]\n", SD_GEN_HVSJ, NULL);
    OK(has(r, "\"a\":{\"type\":\"integer\",\"maximum\":5}"));
    OK(has(r, "values.yaml:1:16: warning: `@schema minimum`: expected a number; the part is left out"));
    OK(has(r, "values.yaml:2:16: warning: `@schema frobnicate`: not an annotation helm-values-schema-json knows"));
    OK(has(r, "\"b\":{\"type\":\"integer\",\"minimum\":0}"));
    OK(has(r, "values.yaml:3:17: warning: `@schema uniqueItems`: expected true or false"));
    OK(has(r, "\"items\":{\"type\":\"string\"}"));
    OK(has(r, "values.yaml:4:"));
    OK(has(r, "is not YAML"));
    OK(has(r, "\"minProperties\":1"));
    OK(has(r, "\"e\":{\"type\":[\"string\",\"null\"]}"));
    free(r);
    /* below a helm-docs line the tool reads a part as description */
    r = gen("# -- the count\n# @schema minimum: 1\nn: 1\n", SD_GEN_HVSJ, NULL);
    OK(has(r, "values.yaml:2:11: warning: `# @schema` below a helm-docs `# --` line"));
    OK(has(r, "\"description\":\"the count\""));
    free(r);
}

/* helm-schema: an unclosed block, a block that is not YAML or not a map:
 * warnings at the comment, the other keys still read */
static void test_helmschema_malformed(void)
{
    char *r = gen("# @schema\n# type: [string\n# @schema\nbad: x\n"
                  "# @schema\n# - a list\n# @schema\nlist: y\n"
                  "# @schema\n# type: integer\n# @schema\ngood: 1\n"
                  "# @schema\n# minimum: 1\nopen: 2\n", SD_GEN_HELMSCHEMA, NULL);
    OK(has(r, "values.yaml:2:3: warning: the `# @schema` block is not YAML"));
    OK(has(r, "values.yaml:6:1: warning: the `# @schema` block is not a map of JSON Schema keywords"));
    OK(has(r, "values.yaml:13:1: warning: this `# @schema` block is not closed before the key"));
    OK(has(r, "\"good\":{\"title\":\"good\",\"type\":\"integer\",\"default\":1}"));
    OK(has(r, "\"bad\":{\"title\":\"bad\",\"type\":\"string\""));
    free(r);
}

/* schemadoc's own reading: @schema over helm-docs over the default */
static void test_precedence(void)
{
    char *r = gen("# -- (int) Buffer size\nbuf:\n"
                  "# -- (string) A name\nname: 3\n"
                  "# -- (int) replicas\nreplicas: 1 # @schema minimum: 0; type: [integer, string]\n"
                  "pdb:\n  enabled: false\n  # minAvailable: 1\n"
                  "labels: {}\n", SD_GEN_NATIVE, NULL);
    /* helm-docs type over a null default: that type or null */
    OK(has(r, "\"buf\":{\"description\":\"Buffer size\",\"markdownDescription\":\"Buffer size\",\"type\":[\"integer\",\"null\"]}"));
    /* a declared type that leaves out the default's own is widened by it */
    OK(has(r, "\"type\":[\"string\",\"integer\"]"));
    /* @schema wins over helm-docs */
    OK(has(r, "\"minimum\":0"));
    /* a key commented out: an optional property typed from its value */
    OK(has(r, "\"minAvailable\":{\"type\":\"integer\"}"));
    /* `{}` that nothing types: free-form */
    OK(has(r, "\"labels\":{\"type\":\"object\"}"));
    free(r);
    /* Bitnami modifiers */
    r = gen("## @param tls.certs [array,nullable] Certificates\ntls:\n  certs:\n", SD_GEN_AUTO, NULL);
    OK(has(r, "\"certs\":{\"description\":\"Certificates\""));
    OK(has(r, "\"type\":[\"array\",\"null\"]"));
    free(r);
}

/* one file that mixes both tools' `@schema` dialects (and helm-docs): each
 * key's annotation is read whatever tool wrote it; a block's YAML is
 * neither a commented-out key nor description text */
static void test_mixed(void)
{
    const char *v = "# -- How many pods\nreplicaCount: # @schema type:[integer, null]; minimum: 1\n"
                    "# -- Worker threads\n# @schema\n# type: [integer, \"null\"]\n# minimum: 1\n# @schema\nworkers:\n"
                    "# -- Pull policy\n# @schema enum:[A, B]\npull: A\n";
    char *r = gen(v, SD_GEN_AUTO, NULL);
    OK(has(r, "\"replicaCount\":{\"description\":\"How many pods\",\"markdownDescription\":\"How many pods\","
              "\"type\":[\"integer\",\"null\"],\"minimum\":1}"));
    OK(has(r, "\"workers\":{\"description\":\"Worker threads\",\"markdownDescription\":\"Worker threads\","
              "\"type\":[\"integer\",\"null\"],\"minimum\":1}"));
    OK(has(r, "\"pull\":{\"description\":\"Pull policy\",\"markdownDescription\":\"Pull policy\",\"type\":\"string\","
              "\"enum\":[\"A\",\"B\"]"));
    OK(r && !strstr(r, "\"minimum\":{"));   /* the block's lines are no keys */
    free(r);
    CK_EQ("a: 1\n# @schema\n# type: integer\n# minimum: 1\n# @schema\nb: 2\n# c: 3\n", "|c|7:3|3");
}

/* helm-docs and Bitnami lines that are not quite right: the rest is read */
static void test_helmdocs_bitnami_malformed(void)
{
    char *r = gen("# -- (int Buffer size\nbuf: 1\n# --\nempty: 2\n# -- (bool) good\nok: true\n",
                  SD_GEN_NATIVE, NULL);
    OK(has(r, "\"buf\":{\"description\":\"(int Buffer size\""));   /* no type: the text is the description */
    OK(has(r, "\"empty\":{\"type\":\"integer\""));
    OK(has(r, "\"ok\":{\"description\":\"good\",\"markdownDescription\":\"good\",\"type\":\"boolean\""));
    free(r);
    r = gen("## @param\n## @param a [array Unclosed\n## @param b [frob] Unknown modifier\n## @param c [string] C\n"
            "a: [1]\nb: 2\nc: x\n", SD_GEN_NATIVE, NULL);
    OK(has(r, "\"c\":{\"description\":\"C\""));
    OK(has(r, "\"b\":{\"description\":\"Unknown modifier\""));
    OK(has(r, "\"a\":{"));
    free(r);
}

/* A list's items: the union of every item's schema (issue 39), in
 * schemadoc's reading and helm-values-schema-json's (not under --like,
 * where a later item's type replaces an earlier's as the tool does) */
static void test_items_union(void)
{
    const char *v = "relabel: [{regex: true, x: 1}, {regex: foo, y: [a]}]\nports: [80, http]\n"
                    "deep: [{a: {b: 1}}, {a: {b: x, c: null}}]\nsame: [{n: 1, p: ok}, {n: 2, p: ok}]\n";
    char *r = gen_with(v, SD_GEN_NATIVE, 0, NULL);
    OK(has(r, "\"regex\":{\"type\":[\"boolean\",\"string\"]}"));
    OK(has(r, "\"x\":{\"type\":\"integer\",\"default\":1}"));
    OK(has(r, "\"y\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}"));
    OK(has(r, "\"ports\":{\"type\":\"array\",\"items\":{\"type\":[\"integer\",\"string\"]}}"));
    OK(has(r, "\"b\":{\"type\":[\"integer\",\"string\"]}"));
    OK(has(r, "\"c\":{}"));                    /* a null: any value */
    OK(has(r, "\"p\":{\"type\":\"string\",\"default\":\"ok\"}"));   /* a default both items share */
    OK(has(r, "\"n\":{\"type\":\"integer\"}"));                     /* defaults that differ: none */
    free(r);
    r = gen_with("# @schema\nrelabel: [{regex: true}, {regex: foo}] # @schema minItems: 1\n", SD_GEN_HVSJ, 0, NULL);
    OK(has(r, "\"regex\":{\"type\":[\"boolean\",\"string\"]}"));
    free(r);
    r = gen_with("relabel: [{regex: true}, {regex: foo}] # @schema minItems: 1\n", SD_GEN_HVSJ, 1, NULL);
    OK(has(r, "\"regex\":{\"type\":\"string\"}"));   /* the tool's own merge */
    free(r);
}

/* A `""` default (or a list of them) holds the place: a README's YAML
 * examples widen it, and nothing else */
static void test_placeholder(void)
{
    static const char readme[] = "# c\n\n```yaml\nsasl:\n  passwords: [pass1]\n  name: [x]\nhosts:\n"
                                 "  - {name: a}\n```\n\n```\nsasl: {passwords: 1}\n```\n~~~yml\nport: x\n~~~\n";
    sd_doc *ex[4], *d = load("values.yaml", "sasl:\n  passwords: \"\"\n  name: x\nhosts: [\"\"]\nport: 80\n");
    size_t n = sd_gen_readme_examples(ex, 4, readme, sizeof readme - 1, "README.md");
    INT_EQ(n, 2);
    sd_gen_opts o;
    memset(&o, 0, sizeof o);
    o.flavour = SD_GEN_NATIVE;
    o.readme = (const sd_doc *const *)ex;
    o.nreadme = n;
    sd_diags dg = SD_DIAGS_INIT;
    sd_buf b = SD_BUF_INIT;
    sd_doc *s = d ? sd_gen_schema((const sd_doc *const *)&d, 1, &o, NULL, &dg) : NULL;
    if (s)
        sd_emit_json(&b, s, sd_doc_root(s), 0, 0);
    OK(has(b.ptr, "\"passwords\":{\"default\":\"\",\"type\":[\"string\",\"array\"]}"));
    OK(has(b.ptr, "\"name\":{\"default\":\"x\",\"type\":\"string\"}"));      /* no placeholder */
    OK(has(b.ptr, "\"hosts\":{\"items\":{\"type\":[\"string\",\"object\"]},\"type\":\"array\"}"));
    OK(has(b.ptr, "\"port\":{\"default\":80,\"type\":\"integer\"}"));         /* port: x, no placeholder */
    for (size_t i = 0; i < n; i++)
        sd_doc_free(ex[i]);
    sd_doc_free(s);
    sd_doc_free(d);
    sd_diags_release(&dg);
    sd_buf_release(&b);
}

/* A comment block indented deeper than the key after it closes the
 * previous map (yaml.v3): not the key's head comment; and a
 * `# @schema.root` block apart from the first key (a blank line between)
 * is still the root block (issue 39) */
static void test_head_deeper(void)
{
    const char *v = "a:\n  b: 1\n  # c: 2\n  # -- not d's\n# @schema additionalProperties: true\nd: {}\n"
                    "e:\n  f: 1\n  # @schema minimum: 5\ne2: 2\n";
    char *r = gen_with(v, SD_GEN_HVSJ, 0, NULL);   /* helm-docs on: the file has `# --` */
    OK(has(r, "\"d\":{\"type\":\"object\",\"additionalProperties\":true}"));
    OK(has(r, "\"e2\":{\"type\":\"integer\"}"));
    OK(r && !strstr(r, "not d's"));
    free(r);
    const char *root = "# @schema.root\n# title: My chart\n# description: What it does\n# @schema.root\n\n"
                       "# @schema\n# type: integer\n# @schema\nreplicas: 1\n";
    r = gen_with(root, SD_GEN_AUTO, 1, NULL);
    OK(has(r, "\"title\":\"My chart\""));
    OK(has(r, "\"description\":\"What it does\""));
    free(r);
}

/* hostile and odd input never crashes and keeps the rest */
static void test_gen_odd(void)
{
    static const char *const odd[] = {
        "", "# @schema\n", "a: 1 # @schema\n", "a: 1 # @schema :\n", "a: 1 # @schema type:\n",
        "# @schema.root\n# title: x\n", "# @schema.root\n# title: x\n# @schema.root\na: 1\n",
        "a: &x {b: 1}\nc: *x # @schema type: object\n", "- 1\n- 2 # @schema type: string\n",
        "a: 1 # @schema $ref: $k8s\n", "a: 1 # @schema $ref: $k8s/x.json\n", "x: 1 # @schema item: object; itemProperties: {a: {type: string}}; itemRequired: [a]\n",
        "a: 1 # @schema enum: [a, [b], {c: d}]; examples: x, \"y, z\"\n", "a: 1 # @schema allOf: {}\n",
        "scalar root\n", "# @schema\n# $ref: missing.json#/a\n# @schema\na: 1\n"
    };
    for (size_t i = 0; i < sizeof odd / sizeof *odd; i++)
        for (int f = SD_GEN_AUTO; f <= SD_GEN_HELMSCHEMA; f++) {
            char *r = gen(odd[i], f, NULL);
            OK(r != NULL && r[0] == '{');
            free(r);
        }
}

/* dialects.def: a row per dialect, each with a name the view finds it by
 * and a reader; tried in order, the last row takes every other file; the
 * scan reads as the row it is given, or as the file's own */
static void test_dialect_table(void)
{
    sd_diags d = SD_DIAGS_INIT;
    sd_annots a;

    INT_EQ(SD_DIALECT_COUNT, 2);
    for (size_t i = 0; i < SD_DIALECT_COUNT; i++) {
        const sd_dialect *r = &sd_dialects[i];
        OK(r->name && *r->name && r->read);
        OK((r->detect == NULL) == (i + 1 == SD_DIALECT_COUNT));
        OK(sd_dialect_find(r->name) == r);
    }
    OK(sd_dialect_find("helm-schema") == NULL && sd_dialect_find(NULL) == NULL);
    OK(sd_dialects[SD_DIALECT_BITNAMI].check != NULL && sd_dialects[SD_DIALECT_HELMDOCS].check == NULL);

    /* one `## @param` line makes a Bitnami file; a `# @param` does not */
    sd_doc *bn = load("values.yaml", "## @section Main\n## @param a The a\na: 1\n# -- the b\nb: 2\n");
    sd_doc *hd = load("values.yaml", "# -- The a\na: 1\n# @param a (one #: prose)\nb: 2\n");
    OK(bn && hd);
    OK(sd_dialect_detect(bn) == &sd_dialects[SD_DIALECT_BITNAMI]);
    OK(sd_dialect_detect(hd) == &sd_dialects[SD_DIALECT_HELMDOCS]);
    OK(sd_dialect_detect(NULL) == &sd_dialects[SD_DIALECT_COUNT - 1]);
    /* both kinds: the one the file uses more (kube-prometheus-stack: one
     * stray `## @param` among 40 `# --`) */
    sd_doc *mixed = load("values.yaml", "## @param a The a\na: 1\n# -- the b\nb: 2\n# -- the c\nc: 3\n");
    OK(mixed && sd_dialect_detect(mixed) == &sd_dialects[SD_DIALECT_HELMDOCS]);
    sd_doc_free(mixed);

    INT_EQ(sd_annots_scan(&a, bn, NULL, &d), 0);
    OK(a.dialect == &sd_dialects[SD_DIALECT_BITNAMI]);
    OK(sd_annots_get(&a, "a") && sd_annots_get(&a, "a")->description &&
       !strcmp(sd_annots_get(&a, "a")->description, "The a"));
    OK(sd_annots_get(&a, "b") == NULL);   /* readme-generator reads no `# --` */
    sd_annots_release(&a);
    /* the same file read as the helm-docs row: the `# --` counts */
    INT_EQ(sd_annots_scan(&a, bn, &sd_dialects[SD_DIALECT_HELMDOCS], &d), 0);
    OK(a.dialect == &sd_dialects[SD_DIALECT_HELMDOCS]);
    OK(sd_annots_get(&a, "b") && sd_annots_get(&a, "b")->description &&
       !strcmp(sd_annots_get(&a, "b")->description, "the b"));
    sd_annots_release(&a);
    /* no values: the last row, nothing read */
    INT_EQ(sd_annots_scan(&a, NULL, NULL, &d), 0);
    OK(a.dialect == &sd_dialects[SD_DIALECT_COUNT - 1] && a.n == 0);
    sd_annots_release(&a);

    /* `# @schema` annotations: one test, for files of either dialect */
    sd_doc *at = load("values.yaml", "## @param a x\na: 1 # @schema type: integer\n");
    OK(sd_dialect_at_schema(at) && !sd_dialect_at_schema(hd) && !sd_dialect_at_schema(NULL));
    sd_doc_free(at);
    sd_doc_free(bn);
    sd_doc_free(hd);
    sd_diags_release(&d);
}

TEST_MAIN(test_dialect_table, test_sibling, test_child, test_block, test_prose, test_malformed, test_under, test_hvsj_malformed,
          test_helmschema_malformed, test_precedence, test_mixed, test_precedence_tools, test_helmdocs_bitnami_malformed, test_items_union,
          test_placeholder, test_head_deeper, test_gen_odd)
