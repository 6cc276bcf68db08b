/* SPDX-License-Identifier: Apache-2.0 */
/* places_table.c - manifest places -> the Kubernetes definition found
 * there (issue 43's list): the fields of a pod spec and of its containers
 * under each workload's pod template, a Service's ports, a
 * PodDisruptionBudget's spec and a HorizontalPodAutoscaler's metrics.
 * In: a kind and a dotted manifest path ("spec.template.spec.containers[]
 * .resources"); out: the definition's name in the Kubernetes OpenAPI
 * document (../shared/corpus/kubernetes/swagger.json) and whether the
 * place holds a list of it. nodeSelector is left out: Kubernetes keeps it
 * an open map of strings, no definition. */
#include "places_int.h"

#include <string.h>

#define CORE "io.k8s.api.core.v1."

typedef struct place_def { const char *field; const char *type; int list; } place_def;

static const place_def pod_fields[] = {
    { "affinity", CORE "Affinity", 0 },
    { "tolerations", CORE "Toleration", 1 },
    { "securityContext", CORE "PodSecurityContext", 0 },
    { "volumes", CORE "Volume", 1 },
    { "imagePullSecrets", CORE "LocalObjectReference", 1 },
    { "topologySpreadConstraints", CORE "TopologySpreadConstraint", 1 },
    { "containers", CORE "Container", 1 },
    { "initContainers", CORE "Container", 1 },
    { NULL, NULL, 0 }
};

static const place_def container_fields[] = {
    { "resources", CORE "ResourceRequirements", 0 },
    { "securityContext", CORE "SecurityContext", 0 },
    { "livenessProbe", CORE "Probe", 0 },
    { "readinessProbe", CORE "Probe", 0 },
    { "startupProbe", CORE "Probe", 0 },
    { "lifecycle", CORE "Lifecycle", 0 },
    { "env", CORE "EnvVar", 1 },
    { "envFrom", CORE "EnvFromSource", 1 },
    { "ports", CORE "ContainerPort", 1 },
    { "volumeMounts", CORE "VolumeMount", 1 },
    { NULL, NULL, 0 }
};

/* kind -> where its pod spec is */
static const char *const pod_spec_at[][2] = {
    { "Deployment", "spec.template.spec" },
    { "StatefulSet", "spec.template.spec" },
    { "DaemonSet", "spec.template.spec" },
    { "ReplicaSet", "spec.template.spec" },
    { "Job", "spec.template.spec" },
    { "CronJob", "spec.jobTemplate.spec.template.spec" },
    { "Pod", "spec" },
    { NULL, NULL }
};

/* kind, path -> the other places */
static const char *const other[][4] = {
    { "Service", "spec.ports", CORE "ServicePort", "1" },
    { "PodDisruptionBudget", "spec", "io.k8s.api.policy.v1.PodDisruptionBudgetSpec", "0" },
    { "HorizontalPodAutoscaler", "spec.metrics", "io.k8s.api.autoscaling.v2.MetricSpec", "1" },
    { NULL, NULL, NULL, NULL }
};

static int eq(const char *a, size_t an, const char *b)
{
    return strlen(b) == an && !memcmp(a, b, an);
}

static int in(const place_def *t, const char *f, size_t n, const char **type, int *list)
{
    for (; t->field; t++)
        if (eq(f, n, t->field)) {
            *type = t->type;
            *list = t->list;
            return 1;
        }
    return 0;
}

/* The place `path[0..n)` (no trailing "[]") of a document of `kind`. */
static int lookup(const char *kind, const char *path, size_t n, const char **type, int *list)
{
    for (size_t i = 0; other[i][0]; i++)
        if (!strcmp(kind, other[i][0]) && eq(path, n, other[i][1])) {
            *type = other[i][2];
            *list = other[i][3][0] == '1';
            return 1;
        }
    for (size_t i = 0; pod_spec_at[i][0]; i++) {
        size_t pn = strlen(pod_spec_at[i][1]);
        if (strcmp(kind, pod_spec_at[i][0]) || n <= pn + 1 || memcmp(path, pod_spec_at[i][1], pn) ||
            path[pn] != '.')
            continue;
        const char *f = path + pn + 1;
        size_t fn = n - pn - 1;
        static const char *const lists[] = { "containers[].", "initContainers[].", NULL };
        for (size_t k = 0; lists[k]; k++) {
            size_t ln = strlen(lists[k]);
            if (fn > ln && !memcmp(f, lists[k], ln))
                return in(container_fields, f + ln, fn - ln, type, list);
        }
        return in(pod_fields, f, fn, type, list);
    }
    return 0;
}

int sd_k8s__place_type(const char *kind, const char *path, const char **type, int *list)
{
    size_t n = strlen(path);
    if (!kind || !*kind)
        return 0;
    if (n > 2 && !memcmp(path + n - 2, "[]", 2)) {
        /* an item of a list place: one of its type */
        if (!lookup(kind, path, n - 2, type, list) || !*list)
            return 0;
        *list = 0;
        return 1;
    }
    return lookup(kind, path, n, type, list);
}
