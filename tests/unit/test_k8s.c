/* SPDX-License-Identifier: Apache-2.0 */
/* test_k8s.c - the Kubernetes types (src/k8s/, issue 43): the embedded
 * definitions, their names and addresses; quantities and IntOrString as
 * the API server parses them; the typed keys and the check. */
#include "harness.h"
#include "k8s.h"
#include "synth.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <stdio.h>
#include <string.h>

static void test_types_embedded(void)
{
    sd_k8s_types *t = NULL;
    const char *full = NULL;
    sd_buf b = SD_BUF_INIT;

    INT_EQ(sd_k8s_types_open(&t), 0);
    OK(t != NULL);
    OK(sd_k8s_types_def(t, "io.k8s.api.core.v1.Toleration", 30, &full) != NULL);
    OK(sd_k8s_types_def(t, "Affinity", 8, &full) != NULL);
    STR_EQ(full, "io.k8s.api.core.v1.Affinity");
    OK(sd_k8s_types_def(t, "policy/v1.PodDisruptionBudgetSpec", 33, &full) != NULL);
    STR_EQ(full, "io.k8s.api.policy.v1.PodDisruptionBudgetSpec");
    OK(sd_k8s_types_def(t, "MetricSpec", 10, &full) != NULL);
    STR_EQ(full, "io.k8s.api.autoscaling.v2.MetricSpec");
    OK(sd_k8s_types_def(t, "Deployment", 10, NULL) == NULL);   /* not in the subset */
    /* the closure: what the roots reach is there too */
    OK(sd_k8s_types_def(t, "io.k8s.apimachinery.pkg.api.resource.Quantity", 45, NULL) != NULL);
    OK(sd_k8s_types_def(t, "NodeSelectorRequirement", 23, NULL) != NULL);
    STR_EQ(sd_k8s_types_ref(t, "https://example.org/_definitions.json#/definitions/io.k8s.api.core.v1.ResourceRequirements"),
           "io.k8s.api.core.v1.ResourceRequirements");
    STR_EQ(sd_k8s_types_ref(t, "$k8s/_definitions.json#/definitions/io.k8s.api.core.v1.Probe"),
           "io.k8s.api.core.v1.Probe");
    STR_EQ(sd_k8s_types_ref(t, "k8s-api.json#/core.v1.Lifecycle"), "io.k8s.api.core.v1.Lifecycle");
    OK(sd_k8s_types_ref(t, "#/$defs/resources") == NULL);
    OK(sd_k8s_types_ref(t, "Probe") == NULL);
    sd_k8s_type_label(&b, "io.k8s.api.core.v1.ResourceRequirements");
    STR_EQ(b.ptr, "ResourceRequirements (core/v1)");
    sd_buf_clear(&b);
    sd_k8s_type_url(&b, "io.k8s.api.core.v1.ResourceRequirements");
    STR_EQ(b.ptr, "https://kubernetes.io/docs/reference/generated/kubernetes-api/v1.36/#resourcerequirements-v1-core");
    sd_buf_clear(&b);
    OK(sd_k8s_ref_label(&b, NULL, "def-io.k8s.api.core.v1.Toleration"));
    STR_EQ(b.ptr, "Toleration (core/v1)");
    sd_buf_clear(&b);
    OK(sd_k8s_ref_label(NULL, &b, "#/$defs/io.k8s.api.core.v1.Probe"));
    STR_EQ(b.ptr, "https://kubernetes.io/docs/reference/generated/kubernetes-api/v1.36/#probe-v1-core");
    OK(!sd_k8s_ref_label(NULL, NULL, "#/$defs/io.k8s.api.core.v1.Probe/properties/exec"));
    OK(!sd_k8s_ref_label(NULL, NULL, "def-resources"));
    sd_buf_clear(&b);
    OK(sd_k8s_ref_label(&b, NULL, "def-io.k8s.apimachinery.pkg.api.resource.Quantity"));
    STR_EQ(b.ptr, "Quantity");
    sd_buf_clear(&b);
    OK(sd_k8s_ref_label(&b, NULL, "def-io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector"));
    STR_EQ(b.ptr, "LabelSelector (meta/v1)");
    sd_buf_clear(&b);
    sd_k8s_type_label(&b, "io.k8s.api.autoscaling.v2.MetricSpec");
    STR_EQ(b.ptr, "MetricSpec (autoscaling/v2)");
    sd_buf_release(&b);
    sd_k8s_types_free(t);
}

/* The committed subset is the closure gen-types.py writes: every $ref of
 * it lands inside it (tests/suite-k8s.sh checks it is current). */
static void walk_refs(const sd_k8s_types *t, const sd_node *n, int *missing)
{
    if (!n)
        return;
    if (n->kind == SD_MAP)
        for (uint32_t i = 0; i < n->n; i++) {
            const sd_node *v = n->items[i].value;
            if (!strcmp(n->items[i].key->str, "$ref") && v->kind == SD_STR)
                *missing += sd_k8s_types_ref(t, v->str) == NULL;
            else
                walk_refs(t, v, missing);
        }
    else if (n->kind == SD_SEQ)
        for (uint32_t i = 0; i < n->n; i++)
            walk_refs(t, n->items[i].value, missing);
}

static void test_types_closure(void)
{
    sd_k8s_types *t = NULL;
    int missing = 0;
    const char *roots[] = { "ResourceRequirements", "Affinity", "Toleration", "SecurityContext",
                            "PodSecurityContext", "Probe", "Lifecycle", "EnvVar", "EnvFromSource",
                            "Volume", "VolumeMount", "LocalObjectReference", "ServicePort",
                            "ContainerPort", "TopologySpreadConstraint", "Container" };
    INT_EQ(sd_k8s_types_open(&t), 0);
    for (size_t i = 0; i < sizeof roots / sizeof *roots; i++) {
        const sd_node *d = sd_k8s_types_def(t, roots[i], strlen(roots[i]), NULL);
        OK(d != NULL);
        walk_refs(t, d, &missing);
    }
    INT_EQ(missing, 0);
    sd_k8s_types_free(t);
}

/* resource.ParseQuantity's grammar, through the validator's format table */
static void test_quantity_format(void)
{
    static const char *const good[] = { "500m", "1Gi", "1e3", "0.5", ".5", "5.", "1", "+1.5Gi",
                                        "-2", "100Ki", "2E", "1E-2", "3e+4", "7n", "1u", "1k", "64M" };
    static const char *const bad[] = { "2 cores", "half", "", "1K", "1GB", ".", "-", "1e", "1e1.5",
                                       "1Mi ", " 1", "1.2.3", "e3", "1ki", "0x10", "1Gib" };
    int id = sd_format_id("quantity");
    OK(id >= 0);
    for (size_t i = 0; i < sizeof good / sizeof *good; i++)
        if (!sd_format_check(id, good[i], strlen(good[i]))) {
            OK(0);
            fprintf(stderr, "  quantity '%s' refused\n", good[i]);
        }
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (sd_format_check(id, bad[i], strlen(bad[i]))) {
            OK(0);
            fprintf(stderr, "  quantity '%s' accepted\n", bad[i]);
        }
    OK(1);
}

static void test_int_or_string_format(void)
{
    int id = sd_format_id("int-or-string");
    OK(id >= 0);
    OK(sd_format_check(id, "http-port", 9));
    OK(sd_format_check(id, "http", 4));
    OK(sd_format_check(id, "25%", 3));
    OK(!sd_format_check(id, "80", 2));          /* a port name needs a letter */
    OK(!sd_format_check(id, "HTTP", 4));
    OK(!sd_format_check(id, "a-very-long-port-name", 21));
    OK(!sd_format_check(id, "-http", 5));
    OK(!sd_format_check(id, "my--port", 8));
    OK(!sd_format_check(id, "%", 1));
}

/* Each evidence types its key and is recorded; the strongest wins; an
 * empty default proves nothing; `k8s: off` switches a key off. */
static void test_evidence(void)
{
    static const char values[] =
        "resources:\n  limits:\n    cpu: 500m\n"          /* 3: name and default */
        "emptyResources: {}\n"
        "resources2: {}  # @schema k8s: ResourceRequirements\n"   /* 1: annotation */
        "nested:\n  tolerations:\n    - operator: Exists\n"     /* 3, nested, a list */
        "badDefault:\n  resources:\n    limits:\n      cpu: lots\n"  /* fails: no type */
        "affinity: {}\n"                                     /* empty: no type */
        "fromSchema: {}\n"                                   /* 1: the schema's $ref */
        "placed: {}\n"                                       /* 2: the templates */
        "env:\n  FOO: bar\n"                                 /* a map, not a list: no type */
        "securityContext:\n  fsGroup: 1000\n"               /* the pod's, by its default */
        "livenessProbe:  # @schema k8s: off\n  exec:\n    command: [true]\n"
        "sub:\n  affinity:\n    nodeAffinity:  # @schema additionalProperties: false\n      x: 1\n"
        "sub2:\n  resources:\n    limits:\n      cpu: 1  # @schema minimum: 1\n";  /* annotated: no name typing */
    static const char schema[] =
        "{\"properties\": {\"fromSchema\": {\"$ref\": \"https://x/_definitions.json#/definitions/io.k8s.api.core.v1.Affinity\"},"
        " \"resources\": {\"$ref\": \"#/$defs/res\"}},"
        " \"$defs\": {\"res\": {\"$ref\": \"$k8s/_definitions.json#/definitions/io.k8s.api.core.v1.ResourceRequirements\"}}}";
    sd_diags d = SD_DIAGS_INIT;
    sd_doc *v = NULL, *s = NULL;
    sd_k8s_types *t = NULL;
    sd_k8s_keys k = SD_K8S_KEYS_INIT;
    sd_k8s_places pl = SD_K8S_PLACES_INIT;
    sd_k8s_place one = { "/placed", "io.k8s.api.core.v1.Affinity", 0, "templates/deployment.yaml", 20, 9,
                         "Deployment spec.template.spec.affinity", NULL };
    const sd_k8s_key *x;

    pl.v = &one;
    pl.n = 1;
    INT_EQ(sd_doc_load_mem(&v, "values.yaml", values, sizeof values - 1, SD_FMT_YAML, NULL, &d), 0);
    INT_EQ(sd_doc_load_mem(&s, "values.schema.json", schema, sizeof schema - 1, SD_FMT_JSON, NULL, &d), 0);
    INT_EQ(sd_k8s_types_open(&t), 0);
    sd_k8s_chart in = { v, sd_doc_root(s), &pl };
    INT_EQ(sd_k8s_keys_scan(&k, t, &in), 0);
    OK((x = sd_k8s_keys_find(&k, "/resources")) != NULL);
    if (x) {
        /* the schema's $ref (through a local one) outranks the name */
        INT_EQ(x->evidence, SD_K8S_EXPLICIT);
        STR_EQ(x->type, "io.k8s.api.core.v1.ResourceRequirements");
    }
    OK(sd_k8s_keys_find(&k, "/emptyResources") == NULL);
    OK((x = sd_k8s_keys_find(&k, "/resources2")) && x->evidence == SD_K8S_EXPLICIT &&
       strstr(x->why, "@schema annotation"));
    OK((x = sd_k8s_keys_find(&k, "/nested/tolerations")) && x->evidence == SD_K8S_NAME && x->list == 1 &&
       strstr(x->why, "its name and its default"));
    OK(sd_k8s_keys_find(&k, "/badDefault/resources") == NULL);
    OK(sd_k8s_keys_find(&k, "/affinity") == NULL);
    OK((x = sd_k8s_keys_find(&k, "/fromSchema")) && x->evidence == SD_K8S_EXPLICIT &&
       !strcmp(x->type, "io.k8s.api.core.v1.Affinity"));
    OK((x = sd_k8s_keys_find(&k, "/placed")) && x->evidence == SD_K8S_TEMPLATE &&
       strstr(x->why, "templates/deployment.yaml:20"));
    OK(sd_k8s_keys_find(&k, "/env") == NULL);
    OK((x = sd_k8s_keys_find(&k, "/securityContext")) && !strcmp(x->type, "io.k8s.api.core.v1.PodSecurityContext"));
    OK(sd_k8s_keys_find(&k, "/livenessProbe") == NULL);
    OK(sd_k8s_keys_find(&k, "/sub2/resources") == NULL);
    INT_EQ(k.n, 6);

    /* the check: findings with the user's position and the evidence */
    static const char user[] = "resources:\n  limits:\n    cpu: 2 cores\n  requets: {}\n";
    sd_doc *u = NULL;
    sd_vresult r = SD_VRESULT_INIT;
    INT_EQ(sd_doc_load_mem(&u, "user.yaml", user, sizeof user - 1, SD_FMT_YAML, NULL, &d), 0);
    x = sd_k8s_keys_find(&k, "/resources");
    INT_EQ(sd_k8s_check(t, x, sd_node_get(sd_doc_root(u), "resources"), "resources", &r), 2);
    INT_EQ(r.count, 1);
    INT_EQ(r.nwarnings, 1);
    if (r.count == 1 && r.nwarnings == 1) {
        STR_EQ(r.items[0].path, "/resources/limits/cpu");
        STR_EQ(r.items[0].key, "resources.limits.cpu");
        INT_EQ(r.items[0].loc.line, 3);
        OK(strstr(r.items[0].message, "expected a Kubernetes quantity such as 500m") != NULL);
        STR_EQ(r.warnings[0].key, "resources.requets");
        OK(strstr(r.warnings[0].message, "did you mean `requests`?") != NULL);
    }
    sd_vresult_release(&r);
    /* a key typed Quantity itself: a number or a quantity string */
    sd_k8s_key q = { "/size", "io.k8s.apimachinery.pkg.api.resource.Quantity", 0, SD_K8S_EXPLICIT, "a test", NULL };
    INT_EQ(sd_k8s_check(t, &q, sd_node_get(sd_node_get(sd_doc_root(u), "resources"), "limits"), "size", NULL), 1);
    INT_EQ(sd_k8s_check(t, &q, sd_node_get(sd_node_get(sd_node_get(sd_doc_root(v), "resources"), "limits"), "cpu"),
                        "size", NULL), 0);
    sd_doc_free(u);
    sd_k8s_keys_release(&k);
    sd_k8s_types_free(t);
    sd_doc_free(v);
    sd_doc_free(s);
    sd_diags_release(&d);
}

/* The made schema: typed keys become $refs to bundled $defs; the patterns
 * that stand for the quantity and IntOrString formats there agree with
 * quantity.c on every sample of the two tests above. */
static void test_schema_bundle(void)
{
    static const char values[] = "resources:\n  limits:\n    cpu: 500m\nports: []\n"
                                 "tolerations:\n  - operator: Exists\n";
    static const char schema[] = "{\"properties\": {\"resources\": {\"type\": \"object\", \"description\": \"R\"},"
                                 " \"tolerations\": {\"type\": \"array\"}, \"ports\": {\"type\": \"array\"}}}";
    static const char *const samples[] = { "500m", "1Gi", "1e3", "0.5", ".5", "5.", "1", "+1.5Gi", "-2", "100Ki",
                                           "2E", "1E-2", "3e+4", "7n", "1u", "1k", "64M", "2 cores", "half", "",
                                           "1K", "1GB", ".", "-", "1e", "1e1.5", "1Mi ", " 1", "1.2.3", "e3", "1ki",
                                           "0x10", "1Gib", "http-port", "http", "25%", "80", "HTTP",
                                           "a-very-long-port-name", "-http", "my--port", "%", "a1234567890123x" };
    sd_diags d = SD_DIAGS_INIT;
    sd_doc *v = NULL, *s = NULL, *j = NULL;

    INT_EQ(sd_doc_load_mem(&v, "values.yaml", values, sizeof values - 1, SD_FMT_YAML, NULL, &d), 0);
    INT_EQ(sd_doc_load_mem(&j, "made.json", schema, sizeof schema - 1, SD_FMT_JSON, NULL, &d), 0);
    /* a made schema is a document built in code (gen.h) */
    s = sd_synth_new("made");
    sd_synth_set_root(s, sd_synth_copy(s, sd_doc_root(j)));
    INT_EQ(sd_k8s_type_schema(s, v, NULL, 0), 0);
    const sd_node *root = sd_doc_root(s), *p = sd_node_get(root, "properties"), *defs = sd_node_get(root, "$defs");
    STR_EQ(sd_node_str(sd_node_get(sd_node_get(p, "resources"), "$ref")), "#/$defs/io.k8s.api.core.v1.ResourceRequirements");
    STR_EQ(sd_node_str(sd_node_get(sd_node_get(p, "resources"), "description")), "R");
    STR_EQ(sd_node_str(sd_node_get(sd_node_get(sd_node_get(p, "tolerations"), "items"), "$ref")),
           "#/$defs/io.k8s.api.core.v1.Toleration");
    OK(sd_node_get(sd_node_get(p, "ports"), "$ref") == NULL);   /* an empty default: untyped */
    OK(sd_node_get(defs, "io.k8s.api.core.v1.ResourceClaim") != NULL);   /* the closure */
    const char *qre = sd_node_str(sd_node_get(sd_node_get(defs, "io.k8s.apimachinery.pkg.api.resource.Quantity"), "pattern"));
    OK(qre != NULL);
    int qid = sd_format_id("quantity"), iid = sd_format_id("int-or-string"), rid = sd_format_id("regex");
    OK(qre && sd_format_check(rid, qre, strlen(qre)));
    /* the IntOrString pattern is only bundled where a type needs it: a Probe does */
    sd_k8s_types *t = NULL;
    sd_k8s_keys k = SD_K8S_KEYS_INIT;
    sd_k8s_key probe = { "/resources", "io.k8s.api.core.v1.Probe", 0, SD_K8S_EXPLICIT, "a test", NULL };
    INT_EQ(sd_k8s_types_open(&t), 0);
    k.v = &probe;
    k.n = 1;
    INT_EQ(sd_k8s_schema_bundle(s, t, &k), 0);
    const char *ire = sd_node_str(sd_node_get(sd_node_get(defs, "io.k8s.apimachinery.pkg.util.intstr.IntOrString"), "pattern"));
    OK(ire != NULL);
    for (size_t i = 0; qre && ire && i < sizeof samples / sizeof *samples; i++) {
        const char *x = samples[i];
        int ec = 0;
        size_t eo = 0;
        void *q = sd_regex_compile(qre, strlen(qre), &ec, &eo), *r = sd_regex_compile(ire, strlen(ire), &ec, &eo);
        OK(q && r);
        if (!q || !r)
            break;
        pcre2_match_data *md = pcre2_match_data_create(4, NULL);
        int qm = pcre2_match(q, (PCRE2_SPTR)x, strlen(x), 0, 0, md, NULL) >= 0;
        int im = pcre2_match(r, (PCRE2_SPTR)x, strlen(x), 0, 0, md, NULL) >= 0;
        if (qm != sd_format_check(qid, x, strlen(x)) || im != sd_format_check(iid, x, strlen(x))) {
            OK(0);
            fprintf(stderr, "  '%s': pattern %d/%d, format %d/%d\n", x, qm, im, sd_format_check(qid, x, strlen(x)),
                    sd_format_check(iid, x, strlen(x)));
        }
        pcre2_match_data_free(md);
        pcre2_code_free(q);
        pcre2_code_free(r);
    }
    k.v = NULL;
    k.n = 0;
    sd_k8s_keys_release(&k);
    sd_k8s_types_free(t);
    sd_doc_free(v);
    sd_doc_free(s);
    sd_doc_free(j);
    sd_diags_release(&d);
}

TEST_MAIN(test_schema_bundle, test_types_embedded, test_types_closure, test_quantity_format, test_int_or_string_format,
          test_evidence)
