/* SPDX-License-Identifier: Apache-2.0 */
/* test_k8s_places.c - where templates hand values whole to a Kubernetes
 * type (src/k8s/places.c): each construct in a small template (the key
 * above, on the same line, `with` + `toYaml .`, nindent/indent, list
 * items, if/range/end lines and comments between, `---` and `kind:`,
 * block scalars, named templates included with `.`, a values path or a
 * dict), each workload kind's pod spec, the other places, conflicts and
 * values tested for list or map; a chart directory; hostile text and
 * linear time. The corpus charts are measured by tests/suite-k8s-places.sh. */
#include "harness.h"
#include "places.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CORE "io.k8s.api.core.v1."

/* The places of the template texts t[0..n). */
static void scan(sd_k8s_places *p, const char *const *t, size_t n)
{
    const char *names[8] = { "templates/a.yaml", "templates/_b.tpl", "templates/c.yaml", "d", "e", "f", "g", "h" };
    size_t lens[8];
    for (size_t i = 0; i < n && i < 8; i++)
        lens[i] = strlen(t[i]);
    *p = (sd_k8s_places)SD_K8S_PLACES_INIT;
    OK(sd_k8s_places_scan_texts(p, names, t, lens, n) == 0);
}

/* 1 when `ptr` is placed at `type` (list or not) after scanning `text`. */
static int placed2(const char *text, const char *text2, const char *ptr, const char *type, int list)
{
    sd_k8s_places p;
    const char *t[2] = { text, text2 };
    scan(&p, t, text2 ? 2 : 1);
    const sd_k8s_place *x = sd_k8s_places_find(&p, ptr);
    int r = x && type && !strcmp(x->type, type) && x->list == list;
    if (!type)
        r = x == NULL;
    if (!r)
        fprintf(stderr, "  %s: %s%s\n", ptr, x ? x->type : "(no place)", x && x->list ? " list" : "");
    sd_k8s_places_release(&p);
    return r;
}

#define PLACED(t, ptr, type, list) OK(placed2(t, NULL, ptr, type, list))
#define NO_PLACE(t, ptr) OK(placed2(t, NULL, ptr, NULL, 0))

static const char deploy[] =
    "apiVersion: apps/v1\n"
    "kind: Deployment\n"
    "metadata:\n"
    "  name: x\n"
    "  labels:\n"
    "    {{- include \"x.labels\" . | nindent 4 }}\n"
    "spec:\n"
    "  template:\n"
    "    metadata:\n"
    "      {{- with .Values.podAnnotations }}\n"
    "      annotations:\n"
    "        {{- toYaml . | nindent 8 }}\n"
    "      {{- end }}\n"
    "    spec:\n"
    "      # the pod's own security context\n"
    "      {{- if .Values.podSecurityContext }}\n"
    "      securityContext:\n"
    "        {{- toYaml .Values.podSecurityContext | nindent 8 }}\n"
    "      {{- end }}\n"
    "      containers:\n"
    "        - name: {{ .Chart.Name }}\n"
    "          image: \"{{ .Values.image.repository }}:{{ .Values.image.tag }}\"\n"
    "          securityContext:\n"
    "            {{- toYaml .Values.securityContext | nindent 12 }}\n"
    "          livenessProbe: {{- toYaml .Values.livenessProbe | nindent 12 }}\n"
    "          resources:\n"
    "{{ toYaml .Values.resources | indent 12 }}\n"
    "          {{- with .Values.env }}\n"
    "          env:\n"
    "            {{- toYaml . | nindent 12 }}\n"
    "          {{- end }}\n"
    "          ports:\n"
    "            - name: http\n"
    "              containerPort: 80\n"
    "            {{- with .Values.extraPorts }}\n"
    "            {{- toYaml . | nindent 12 }}\n"
    "            {{- end }}\n"
    "      {{- with .Values.nodeSelector }}\n"
    "      nodeSelector:\n"
    "        {{- toYaml . | nindent 8 }}\n"
    "      {{- end }}\n"
    "      {{- with .Values.tolerations }}\n"
    "      tolerations:\n"
    "      {{- toYaml . | nindent 6 }}\n"
    "      {{- end }}\n"
    "      affinity: {{ toYaml .Values.affinity | nindent 8 }}\n";

static void test_constructs(void)
{
    PLACED(deploy, "/podSecurityContext", CORE "PodSecurityContext", 0);     /* key above, through if */
    PLACED(deploy, "/securityContext", CORE "SecurityContext", 0);           /* in a container */
    PLACED(deploy, "/livenessProbe", CORE "Probe", 0);                        /* on the key's line */
    PLACED(deploy, "/resources", CORE "ResourceRequirements", 0);             /* indent, at column 0 */
    PLACED(deploy, "/env", CORE "EnvVar", 1);                                 /* with + toYaml . */
    PLACED(deploy, "/extraPorts", CORE "ContainerPort", 1);                   /* more items of a list */
    PLACED(deploy, "/tolerations", CORE "Toleration", 1);                     /* a list at its key's column */
    PLACED(deploy, "/affinity", CORE "Affinity", 0);
    NO_PLACE(deploy, "/nodeSelector");     /* an open map of strings: left out */
    NO_PLACE(deploy, "/podAnnotations");   /* metadata: no type */
    NO_PLACE(deploy, "/image/repository"); /* a scalar inside a string */
}

static void test_places_where(void)
{
    sd_k8s_places p;
    const char *t[1] = { deploy };
    scan(&p, t, 1);
    const sd_k8s_place *x = sd_k8s_places_find(&p, "/resources");
    OK(x != NULL);
    if (x) {
        STR_EQ(x->where, "Deployment spec.template.spec.containers[].resources");
        STR_EQ(x->file, "templates/a.yaml");
        INT_EQ(x->line, 27);
        INT_EQ(x->col, 1);
    }
    INT_EQ(p.conflicts, 0);
    /* sorted by pointer */
    for (size_t i = 1; i < p.n; i++)
        OK(strcmp(p.v[i - 1].ptr, p.v[i].ptr) < 0);
    sd_k8s_places_release(&p);
}

static void test_kinds(void)
{
    static const char *const kinds[][2] = {
        { "StatefulSet", "spec:\n  template:\n    spec:\n" },
        { "DaemonSet", "spec:\n  template:\n    spec:\n" },
        { "ReplicaSet", "spec:\n  template:\n    spec:\n" },
        { "Job", "spec:\n  template:\n    spec:\n" },
        { "CronJob", "spec:\n  jobTemplate:\n    spec:\n      template:\n        spec:\n" },
        { "Pod", "spec:\n" },
    };
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
        char t[1024];
        int ind = 0;
        for (const char *c = kinds[i][1]; *c; c++)
            ind = *c == '\n' ? 0 : ind + 1;
        /* the pod spec's fields are 2 deeper than its last key */
        size_t depth = 0;
        for (const char *c = kinds[i][1]; *c; c++)
            depth += *c == '\n';
        int d = (int)(2 * depth);
        snprintf(t, sizeof t,
                 "kind: %s\n%s%*sinitContainers:\n%*s- name: init\n%*sresources: {{ toYaml .Values.init.resources | nindent %d }}\n"
                 "%*svolumes: {{ toYaml .Values.volumes | nindent %d }}\n",
                 kinds[i][0], kinds[i][1], d, "", d + 2, "", d + 4, "", d + 6, d, "", d + 2);
        t_case_mark m = t_case_begin();
        PLACED(t, "/init/resources", CORE "ResourceRequirements", 0);
        PLACED(t, "/volumes", CORE "Volume", 1);
        t_case_end(m);
        (void)ind;
    }
    /* a kind the table does not know, a kind written by a value */
    NO_PLACE("kind: Rollout\nspec:\n  template:\n    spec:\n      affinity: {{ toYaml .Values.a | nindent 8 }}\n", "/a");
    NO_PLACE("kind: {{ .Values.kind }}\nspec:\n  template:\n    spec:\n      affinity: {{ toYaml .Values.a | nindent 8 }}\n", "/a");
    /* the other places */
    PLACED("kind: Service\nspec:\n  ports:\n    - port: 80\n    {{- toYaml .Values.svc.extraPorts | nindent 4 }}\n",
           "/svc/extraPorts", CORE "ServicePort", 1);
    PLACED("kind: PodDisruptionBudget\nspec:\n  {{- toYaml .Values.pdb | nindent 2 }}\n", "/pdb",
           "io.k8s.api.policy.v1.PodDisruptionBudgetSpec", 0);
    PLACED("kind: HorizontalPodAutoscaler\nspec:\n  metrics:\n{{ toYaml .Values.hpa.metrics | indent 4 }}\n", "/hpa/metrics",
           "io.k8s.api.autoscaling.v2.MetricSpec", 1);
    /* containers, image pull secrets, spread constraints, a whole container */
    PLACED("kind: Pod\nspec:\n  containers:\n  {{- toYaml .Values.sidecars | nindent 2 }}\n", "/sidecars", CORE "Container", 1);
    PLACED("kind: Pod\nspec:\n  containers:\n    - name: a\n      {{- toYaml .Values.main | nindent 6 }}\n", "/main", CORE "Container", 0);
    PLACED("kind: Pod\nspec:\n  imagePullSecrets: {{ toYaml .Values.ps | nindent 4 }}\n", "/ps", CORE "LocalObjectReference", 1);
    PLACED("kind: Pod\nspec:\n  topologySpreadConstraints:\n    {{- toYaml .Values.t | nindent 4 }}\n", "/t",
           CORE "TopologySpreadConstraint", 1);
    PLACED("kind: Pod\nspec:\n  containers:\n    - name: a\n      lifecycle:\n        {{- toYaml .Values.l | nindent 8 }}\n"
           "      envFrom:\n        {{- toYaml .Values.ef | nindent 8 }}\n      volumeMounts:\n        {{- toYaml .Values.vm | nindent 8 }}\n"
           "      startupProbe:\n        {{- toYaml .Values.sp | nindent 8 }}\n",
           "/ef", CORE "EnvFromSource", 1);
}

static void test_documents(void)
{
    /* `---` ends the Deployment: the ConfigMap's resources key is no place */
    const char *t = "kind: Deployment\nspec:\n  template:\n    spec:\n      affinity: {{ toYaml .Values.a | nindent 8 }}\n"
                    "---\nkind: ConfigMap\nspec:\n  template:\n    spec:\n      affinity: {{ toYaml .Values.b | nindent 8 }}\n";
    PLACED(t, "/a", CORE "Affinity", 0);
    NO_PLACE(t, "/b");
    /* a block scalar's text is no YAML of the manifest */
    NO_PLACE("kind: Pod\nspec:\n  affinity: |\n    {{- toYaml .Values.a | nindent 4 }}\n", "/a");
    NO_PLACE("kind: Pod\nspec:\n  x: |\n    affinity:\n      {{- toYaml .Values.a | nindent 6 }}\n", "/a");
    /* a key after the block scalar is one again */
    PLACED("kind: Pod\nspec:\n  x: |\n    y\n  affinity:\n    {{- toYaml .Values.a | nindent 4 }}\n", "/a", CORE "Affinity", 0);
    /* a comment and template comments between */
    PLACED("kind: Pod\nspec:\n  affinity:\n  # c\n  {{/* note */}}\n    {{- toYaml .Values.a | nindent 4 }}\n", "/a",
           CORE "Affinity", 0);
    /* a template comment is no key, even with a colon in it */
    PLACED("kind: Pod\nspec:\n  affinity:\n{{/* a: b */}}\n{{- /* c: d\n e: f */ -}}\n    {{- toYaml .Values.a | nindent 4 }}\n", "/a",
           CORE "Affinity", 0);
    NO_PLACE("kind: Pod\nspec:\n  affinity:\n{{/* unclosed: x\n    {{- toYaml .Values.a | nindent 4 }}\n", "/a");
    /* a key a level up ends the place: the action is at spec's level */
    NO_PLACE("kind: Pod\nspec:\n  affinity:\n    x: 1\n  {{- toYaml .Values.a | nindent 2 }}\n", "/a");
}

static void test_range_and_conflicts(void)
{
    const char *t = "kind: Pod\nspec:\n  containers:\n  {{- range $name, $c := .Values.sidecars }}\n"
                    "    - name: {{ $name }}\n      resources: {{ toYaml $c.resources | nindent 8 }}\n  {{- end }}\n";
    PLACED(t, "/sidecars/*/resources", CORE "ResourceRequirements", 0);
    PLACED(t, "/sidecars/redis/resources", CORE "ResourceRequirements", 0);   /* "*" matches a key */
    PLACED(t, "/sidecars/0/resources", CORE "ResourceRequirements", 0);       /* and an index */
    NO_PLACE(t, "/sidecars/a/b/resources");
    /* concat: each list's items are of the type */
    t = "kind: Pod\nspec:\n  {{- with concat .Values.a .Values.b }}\n  tolerations:\n  {{- toYaml . | nindent 2 }}\n  {{- end }}\n";
    PLACED(t, "/a", CORE "Toleration", 1);
    PLACED(t, "/b", CORE "Toleration", 1);
    /* an item written whole after its dash */
    t = "kind: Pod\nspec:\n  topologySpreadConstraints:\n  {{- range .Values.tsc }}\n  - {{ toYaml . | nindent 4 | trim }}\n"
        "    labelSelector: {}\n  {{- end }}\n";
    PLACED(t, "/tsc/0", CORE "TopologySpreadConstraint", 0);
    NO_PLACE("kind: Pod\nspec:\n  containers:\n  - name: {{ toYaml .Values.n }}\n", "/n");
    /* two places, two types: dropped and counted */
    sd_k8s_places p;
    const char *two[1] = { "kind: Pod\nspec:\n  securityContext: {{ toYaml .Values.sc | nindent 4 }}\n"
                           "  containers:\n    - name: a\n      securityContext: {{ toYaml .Values.sc | nindent 8 }}\n"
                           "      resources: {{ toYaml .Values.r | nindent 8 }}\n"
                           "    - name: b\n      resources: {{ toYaml .Values.r | nindent 8 }}\n" };
    scan(&p, two, 1);
    OK(sd_k8s_places_find(&p, "/sc") == NULL);
    INT_EQ(p.conflicts, 1);
    OK(sd_k8s_places_find(&p, "/r") != NULL);   /* two places, one type: kept once */
    INT_EQ(p.n, 1);
    sd_k8s_places_release(&p);
    /* a value tested for a list or a map */
    const char *either[1] = { "{{- define \"env\" }}{{ if kindIs \"map\" . }}{{ range $k, $v := . }}\n- name: {{ $k }}\n"
                              "{{ end }}{{ else }}{{ toYaml . }}{{ end }}{{ end }}\n"
                              "kind: Pod\nspec:\n  containers:\n    - name: a\n      env: {{ include \"env\" .Values.env | nindent 8 }}\n" };
    scan(&p, either, 1);
    OK(sd_k8s_places_find(&p, "/env") == NULL);
    INT_EQ(p.either, 1);
    sd_k8s_places_release(&p);
}

static void test_named_templates(void)
{
    const char *pod = "kind: Deployment\nspec:\n  template:\n    spec:\n      {{- include \"x.pod\" . | nindent 6 }}\n"
                      "      containers:\n        - name: a\n          {{- include \"x.res\" .Values.main | nindent 10 }}\n"
                      "          volumeMounts: {{- include \"render\" (dict \"value\" .Values.vm \"context\" $) | nindent 12 }}\n";
    const char *helpers = "{{- define \"x.pod\" -}}\n"
                          "{{- with .Values.tolerations }}\ntolerations:\n  {{- toYaml . | nindent 2 }}\n{{- end }}\n"
                          "volumes: {{ include \"render\" (dict \"value\" $.Values.volumes \"context\" $) | nindent 2 }}\n"
                          "{{- end }}\n"
                          "{{- define \"x.res\" -}}\nresources: {{ toYaml .resources | nindent 2 }}\n{{- end }}\n"
                          "{{- define \"render\" -}}\n{{- $value := typeIs \"string\" .value | ternary .value (.value | toYaml) }}\n"
                          "{{- tpl $value .context }}\n{{- end -}}\n";
    OK(placed2(pod, helpers, "/tolerations", CORE "Toleration", 1));
    OK(placed2(pod, helpers, "/volumes", CORE "Volume", 1));                /* through two includes */
    OK(placed2(pod, helpers, "/main/resources", CORE "ResourceRequirements", 0));   /* the dot: .Values.main */
    OK(placed2(pod, helpers, "/vm", CORE "VolumeMount", 1));                /* a dict's "value" */
    /* the place names the line where the values path is written */
    sd_k8s_places p;
    const char *t[2] = { pod, helpers };
    scan(&p, t, 2);
    const sd_k8s_place *x = sd_k8s_places_find(&p, "/vm");
    OK(x && !strcmp(x->file, "templates/a.yaml") && x->line == 9);
    x = sd_k8s_places_find(&p, "/tolerations");
    OK(x && !strcmp(x->file, "templates/_b.tpl") && x->line == 4);
    sd_k8s_places_release(&p);
    /* a named template never included places nothing; one including itself ends */
    NO_PLACE("{{ define \"p\" }}kind: Pod\nspec:\n  affinity: {{ toYaml .Values.a | nindent 4 }}\n{{ end }}", "/a");
    const char *loop = "{{ define \"l\" }}affinity:\n  {{- include \"l\" . | nindent 2 }}\n{{ end }}"
                       "kind: Pod\nspec:\n  {{- include \"l\" . | nindent 2 }}\n";
    NO_PLACE(loop, "/a");
    /* `omit` takes the chart's switches out of the value: the place says
     * which (Bitnami's probes), through an include's dict and written
     * directly; no omit: NULL */
    const char *probes = "kind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n        - name: a\n"
                         "          livenessProbe: {{- include \"render\" (dict \"value\" (omit .Values.livenessProbe \"enabled\") \"context\" $) | nindent 12 }}\n"
                         "          readinessProbe: {{- omit .Values.readinessProbe \"enabled\" \"extra\" | toYaml | nindent 12 }}\n"
                         "          startupProbe: {{- toYaml .Values.startupProbe | nindent 12 }}\n";
    t[0] = probes;
    t[1] = helpers;
    scan(&p, t, 2);
    x = sd_k8s_places_find(&p, "/livenessProbe");
    OK(x && !strcmp(x->type, CORE "Probe") && x->omit && !strcmp(x->omit, "enabled\n"));
    x = sd_k8s_places_find(&p, "/readinessProbe");
    OK(x && x->omit && !strcmp(x->omit, "enabled\nextra\n"));
    x = sd_k8s_places_find(&p, "/startupProbe");
    OK(x && x->omit == NULL);
    sd_k8s_places_release(&p);
    /* tpl's own text is a string, not a value of the type */
    NO_PLACE("kind: Pod\nspec:\n  containers:\n  {{- tpl .Values.extraContainers . | nindent 2 }}\n", "/extraContainers");
}

static void test_dir(void)
{
    char dir[] = "/tmp/sd-k8s-places-XXXXXX", sub[300];
    sd_k8s_places p = SD_K8S_PLACES_INIT;

    OK(mkdtemp(dir) != NULL);
    OK(sd_k8s_places_scan_dir(&p, dir) == 0);   /* no templates/: no place */
    INT_EQ(p.n, 0);
    sd_k8s_places_release(&p);
    snprintf(sub, sizeof sub, "%s/templates", dir);
    OK(mkdir(sub, 0700) == 0);
    OK(t_write_file(sub, "deployment.yaml", deploy) == 0);
    OK(sd_k8s_places_scan_dir(&p, dir) == 0);
    const sd_k8s_place *x = sd_k8s_places_find(&p, "/tolerations");
    OK(x && !strcmp(x->file, "templates/deployment.yaml"));
    sd_k8s_places_release(&p);
    snprintf(sub, sizeof sub, "rm -rf '%s'", dir);
    OK(system(sub) == 0);
}

static void test_hostile(void)
{
    static const char *const texts[] = {
        "", "{{", "}}", "{{ end }}{{ end }}", "{{ define }}", "{{ include }}", "{{ include \"\" }}",
        "kind:", "kind: \n---\n---", "- - - -\n-", ":\n:\n  :", "\"a: b", "'", "a: |\n\n\n",
        "{{ define \"a\" }}{{ include \"a\" . }}{{ end }}{{ include \"a\" . }}",
        "{{- toYaml .Values.a | nindent 99999999999999999999 }}", "{{ toYaml .Values.a | indent -3 }}",
        "kind: Pod\nspec:\n  affinity: {{ toYaml (index .Values \"a/b~c\") | nindent 4 }}\n",
        "\x01\x02\r\n\t{{ toYaml . }}\x01", "{{ range .Values.x }}{{ range . }}{{ toYaml . }}{{ end }}{{ end }}",
    };
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        sd_k8s_places p;
        const char *t[1] = { texts[i] };
        scan(&p, t, 1);
        sd_k8s_places_release(&p);
    }
    /* a pointer is escaped */
    PLACED("kind: Pod\nspec:\n  affinity: {{ toYaml (index .Values \"a/b~c\") | nindent 4 }}\n", "/a~1b~0c",
           CORE "Affinity", 0);
    /* keys 2,000 deep and lines of 100,000 bytes */
    size_t n = 2000;
    char *t = malloc(n * 2100 + 200000), *q = t;
    q += sprintf(q, "kind: Pod\nspec:\n");
    for (size_t i = 0; i < n; i++)
        q += sprintf(q, "%*sk%zu:\n", (int)(2 + 2 * i % 4000), "", i);
    memset(q, 'x', 100000);
    q += 100000;
    sprintf(q, ": {{ toYaml .Values.a }}\n");
    sd_k8s_places p;
    const char *tt[1] = { t };
    scan(&p, tt, 1);
    INT_EQ(p.n, 0);
    sd_k8s_places_release(&p);
    free(t);
}

/* Twice the text, about twice the time: no step grows with the square. */
static double scan_secs(size_t copies, size_t *places)
{
    static const char unit[] =
        "---\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n        - name: a\n"
        "          resources: {{ toYaml .Values.r%zu | nindent 12 }}\n"
        "          {{- include \"c\" .Values.c%zu | nindent 10 }}\n";
    char *t = malloc(copies * (sizeof unit + 16) + 200), *q = t;
    q += sprintf(q, "{{ define \"c\" }}env: {{ toYaml .env | nindent 2 }}{{ end }}\n");
    for (size_t i = 0; i < copies; i++)
        q += sprintf(q, unit, i, i);
    sd_k8s_places p;
    const char *tt[1] = { t };
    clock_t c0 = clock();
    scan(&p, tt, 1);
    double s = (double)(clock() - c0) / CLOCKS_PER_SEC;
    *places = p.n;
    sd_k8s_places_release(&p);
    free(t);
    return s;
}

static void test_linear(void)
{
    size_t n1, n2;
    double a = scan_secs(10000, &n1), b = scan_secs(40000, &n2);
    printf("# 10,000 documents: %.3f s, %zu places; 40,000: %.3f s, %zu places\n", a, n1, b, n2);
    INT_EQ(n1, 20000);
    INT_EQ(n2, 80000);
    OK(b < 8 * a + 0.5);
    OK(b < 10.0);
}

TEST_MAIN(test_constructs, test_places_where, test_kinds, test_documents, test_range_and_conflicts,
          test_named_templates, test_dir, test_hostile, test_linear)
