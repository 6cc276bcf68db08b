/* test_dialect.c - the comment dialects of values files: keys commented
 * out (commented.h). */
#include "harness.h"
#include "commented.h"
#include "emit.h"

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
        sd_buf_printf(&b, "%s%s|%s|%d:%d|", i ? "; " : "", k->path, k->key, k->loc.line, k->loc.column);
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

TEST_MAIN(test_sibling, test_child, test_block, test_prose, test_malformed, test_under)
