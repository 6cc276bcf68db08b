/* SPDX-License-Identifier: Apache-2.0 */
/* test_k8s.c - the Kubernetes types (src/k8s/, issue 43): the embedded
 * definitions, their names and addresses; quantities and IntOrString as
 * the API server parses them; the typed keys and the check. */
#include "harness.h"
#include "k8s.h"

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

TEST_MAIN(test_types_embedded, test_types_closure, test_quantity_format, test_int_or_string_format)
