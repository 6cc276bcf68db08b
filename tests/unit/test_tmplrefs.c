/* SPDX-License-Identifier: Apache-2.0 */
/* test_tmplrefs.c - the values paths a chart's templates use
 * (src/helm/tmplrefs.c): handed on whole through toYaml, toJson, tpl,
 * include, template, through with/range and $variables and the root
 * context ($, $root := .); ranged over; read key by key; checksums and
 * `toYaml .Values` free nothing; linear time and memory on big templates. */
#include "harness.h"
#include "tmplrefs.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* The use of the dotted path `path` ("a.b", "[]" for a list index) after
 * scanning `text`. */
static unsigned use_of(const char *text, const char *path)
{
    sd_tmplrefs r = SD_TMPLREFS_INIT;
    char buf[256], *seg[32];
    size_t n = 0;
    unsigned u;

    OK(sd_tmplrefs_scan(&r, text, strlen(text)) == 0);
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf; *p && n < 32;) {
        char *e = strchr(p, '.');
        if (e)
            *e = '\0';
        seg[n++] = strcmp(p, "[]") ? p : NULL;
        if (!e)
            break;
        p = e + 1;
    }
    u = sd_tmplrefs_use(&r, (const char *const *)seg, *path ? n : 0);
    sd_tmplrefs_release(&r);
    return u;
}

#define WHOLE(t, p) OK(use_of(t, p) & SD_TREF_WHOLE)
#define NOT_WHOLE(t, p) OK(!(use_of(t, p) & SD_TREF_WHOLE))
#define READ(t, p) OK(use_of(t, p) & SD_TREF_READ)
#define NOT_READ(t, p) OK(!(use_of(t, p) & SD_TREF_READ))

static void test_whole(void)
{
    const char *t = "data:\n  config.yaml: |\n    {{- toYaml .Values.server.global | nindent 4 }}\n";
    WHOLE(t, "server.global");
    WHOLE(t, "server.global.anything.below");
    NOT_WHOLE(t, "server");
    NOT_WHOLE(t, "server.replicaCount");
    WHOLE("{{ .Values.cfg | toJson }}", "cfg.x");
    WHOLE("{{ tpl .Values.extra . }}", "extra");
    WHOLE("{{ include \"common.tplvalues.render\" (dict \"value\" .Values.podLabels \"context\" $) }}",
          "podLabels.a");
    WHOLE("{{ template \"x\" .Values.sub }}", "sub.k");
    WHOLE("{{ .Values.a | default dict | toYaml }}", "a.b");
    WHOLE("{{ toYaml (omit .Values.a \"x\") }}", "a.b");
    WHOLE("{{ toYaml (index .Values \"a-b\" \"c\") }}", "a-b.c.d");
    WHOLE("{{ toYaml $.Values.a }}", "a.z");
    WHOLE("{{ with concat .Values.a .Values.b }}{{ toYaml . }}{{ end }}", "b.x");   /* the items of both */
}

static void test_dot_and_vars(void)
{
    WHOLE("{{- with .Values.podAnnotations }}\n  annotations:\n    {{- toYaml . | nindent 4 }}\n{{- end }}",
          "podAnnotations.x");
    WHOLE("{{ with .Values.a }}{{ with .b }}{{ toYaml . }}{{ end }}{{ end }}", "a.b.c");
    NOT_WHOLE("{{ with .Values.a }}{{ with .b }}{{ toYaml . }}{{ end }}{{ end }}", "a.c");
    WHOLE("{{ $cfg := .Values.server.config }}{{ toYaml $cfg }}", "server.config.k");
    WHOLE("{{ $s := .Values.server }}{{ toYaml $s.config }}", "server.config.k");
    WHOLE("{{- range $name, $route := .Values.route }}{{ toYaml $route.filters }}{{ end }}",
          "route.main.filters.x");
    WHOLE("{{ range .Values.extraObjects }}{{ tpl (toYaml .) $ }}{{ end }}", "extraObjects.[].a");
    /* else of a with: the dot is the outer one again */
    NOT_WHOLE("{{ with .Values.a }}{{ else }}{{ toYaml . }}{{ end }}", "a.x");
    /* after end, the dot is back at the root */
    NOT_WHOLE("{{ with .Values.a }}{{ end }}{{ toYaml .b }}", "a.b");
    /* a variable declared inside a block goes with it */
    NOT_WHOLE("{{ with .Values.x }}{{ $v := .Values.a }}{{ end }}{{ toYaml $v }}", "a.b");
}

static void test_names_and_reads(void)
{
    const char *t = "{{- range $name, $r := .Values.route }}{{ if $r.enabled }}{{ $r.kind }}{{ end }}{{ end }}";
    OK(use_of(t, "route") & SD_TREF_NAMES);
    READ(t, "route.redirect.enabled");
    READ(t, "route.main.kind");
    NOT_READ(t, "route.main.kidn");
    READ("{{ .Values.imageRenderer.podLabels }}", "imageRenderer.podLabels");
    READ("{{ .Values.imageRenderer.podLabels }}", "imageRenderer");
    READ("{{ if hasKey .Values.a \"b\" }}{{ end }}", "a.b");
    READ("{{ dig \"x\" \"y\" \"\" .Values.a }}", "a.x.y");
    READ("{{ .Values.a.b | default 1 }}", "a.b");
    NOT_READ("{{/* .Values.commented.out */}}", "commented");
    NOT_READ("{{- /* a comment with }} in it? no: */ -}}", "in");
    READ("{{ \"{{ .Values.notreal }}\" }}{{ .Values.real }}", "real");
    NOT_READ("{{ \"{{ .Values.notreal }}\" }}", "notreal");
}

/* A value read key by key is not free-form, even when also handed on
 * whole; a checksum and the whole .Values hand nothing on. */
static void test_not_free(void)
{
    const char *t = "{{ include \"img\" (dict \"imageRoot\" .Values.image) }}{{ .Values.image.pullPolicy }}";
    NOT_WHOLE(t, "image.tag");
    NOT_WHOLE("checksum/config: {{ toYaml .Values.config | sha256sum }}", "config.x");
    NOT_WHOLE("{{ toYaml .Values | sha256sum }}", "a");
    NOT_WHOLE("{{ toYaml .Values }}", "a.b");
    NOT_WHOLE("{{ .Values.replicaCount }}", "replicaCount");
    /* ranging over a list of maps whose keys are read: not free-form */
    NOT_WHOLE("{{ range .Values.ports }}{{ .name }}{{ end }}", "ports.[].name");
}

/* Broken and hostile text: never a crash, no unbounded growth. */
static void test_hostile(void)
{
    static const char *const bad[] = {
        "{{", "}}", "{{ with", "{{ end }}{{ end }}{{ end }}", "{{ \"unterminated",
        "{{ (((((( .Values.a", "{{ $ := }}", "{{ range $a, $b, $c := .Values.x }}",
        "{{ .Values.a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.aa.bb.cc }}",
        "{{/* never closed", "{{ index .Values }}", "{{ dig }}", "{{ toYaml ) }}", "{{-}}", "{{- -}}"
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        sd_tmplrefs r = SD_TMPLREFS_INIT;
        OK(sd_tmplrefs_scan(&r, bad[i], strlen(bad[i])) == 0);
        sd_tmplrefs_release(&r);
    }
    /* a NUL byte inside an action (the fuzzer's hang: no token made progress) */
    {
        static const char nul[] = "{{ toYaml .Values.a \0\0 x }}{{ .Values.b }}";
        sd_tmplrefs r = SD_TMPLREFS_INIT;
        OK(sd_tmplrefs_scan(&r, nul, sizeof nul - 1) == 0);
        OK(r.n >= 1);   /* the action Helm would refuse is skipped; .Values.b is read */
        sd_tmplrefs_release(&r);
    }
    /* 10,000 nested withs and as many ends */
    size_t n = 10000;
    char *deep = malloc(n * 40 + 1), *p = deep;
    for (size_t i = 0; i < n; i++)
        p += sprintf(p, "{{ with .Values.a%zu }}", i % 7);
    for (size_t i = 0; i < n; i++)
        p += sprintf(p, "{{ end }}");
    sd_tmplrefs r = SD_TMPLREFS_INIT;
    OK(sd_tmplrefs_scan(&r, deep, strlen(deep)) == 0);
    OK(r.n <= 8);
    sd_tmplrefs_release(&r);
    free(deep);
}

/* The root context bound to variables, and copies and merges of maps
 * (issue 39 section 3). */
static void test_root_context(void)
{
    WHOLE("{{ $root := . }}{{ $root.Values.server.global | toYaml }}", "server.global.x");
    NOT_WHOLE("{{ $root := . }}{{ $root.Values.server.global | toYaml }}", "server.x");
    WHOLE("{{ $ := . }}{{ toYaml $.Values.a }}", "a.b");
    WHOLE("{{ $root := . }}{{ with .Values.a }}{{ toYaml $root.Values.b }}{{ end }}", "b.c");
    WHOLE("{{ range .Values.list }}{{ $r := $ }}{{ toYaml $r.Values.cfg }}{{ end }}", "cfg.k");
    WHOLE("{{ with .Values.x }}{{ $r := $ }}{{ $r.Values.y | toJson }}{{ end }}", "y.z");
    /* a variable bound to the root, then to something else */
    NOT_WHOLE("{{ $r := . }}{{ $r = .Values.q }}{{ toYaml $r.Values.y }}", "y.z");
    WHOLE("{{ $r := . }}{{ $r = .Values.q }}{{ toYaml $r.Values.y }}", "q.Values.y.z");
    NOT_WHOLE("{{ $root := . }}{{ toYaml $root.Values }}", "a.b");
    WHOLE("{{ define \"x\" }}{{ $ := . }}{{ toYaml $.Values.d }}{{ end }}", "d.e");
    NOT_WHOLE("{{ $root := . }}{{ toYaml $root.Release }}", "Release.x");
    WHOLE("{{ deepCopy .Values.x | toYaml }}", "x.k");
    WHOLE("{{ $c := merge (deepCopy .Values.a) .Values.b }}{{ toYaml $c }}", "a.k");
    WHOLE("{{ $c := merge (deepCopy .Values.a) .Values.b }}{{ toYaml $c }}", "b.k");
    WHOLE("{{ mergeOverwrite (dict) .Values.a .Values.b | toYaml }}", "b.k");
    WHOLE("{{ .Values.a | default .Values.b | toYaml }}", "b.k");
    READ("{{ $root := . }}{{ $root.Values.server.port }}", "server.port");
    READ("{{ $r := $ }}{{ index $r.Values \"a-b\" \"c\" }}", "a-b.c");
}

/* A map written out whole (toYaml, toJson, tpl) is free-form even where a
 * template reads one key of it; one handed to a named template is not. */
static void test_dump_and_read(void)
{
    const char *t = "{{ if .Values.config.service.pipelines }}{{ .Values.config | toYaml }}{{ end }}";
    WHOLE(t, "config.exporters.debug");
    WHOLE(t, "config.service.telemetry");
    WHOLE("{{ .Values.j.mode }}{{ toJson .Values.j }}", "j.level");
    WHOLE("{{ if .Values.t.enabled }}{{ tpl (toYaml .Values.t) . }}{{ end }}", "t.x");
    WHOLE("{{ with .Values.c }}{{ .a }}{{ toYaml . }}{{ end }}", "c.b");
    NOT_WHOLE("{{ include \"img\" .Values.image }}{{ .Values.image.tag }}", "image.x");
    NOT_WHOLE("{{ .Values.config.a }}{{ toYaml .Values.config | sha256sum }}", "config.b");
    /* tpl's context is not written out */
    NOT_WHOLE("{{ with .Values.w }}{{ tpl .tmpl . }}{{ end }}", "w.x");
    WHOLE("{{ with .Values.w }}{{ tpl .tmpl . }}{{ end }}", "w.tmpl");
}

/* What Helm's lexer says: a field chain after a call, trim markers, raw
 * strings over lines; an action Helm would refuse is skipped, not the rest. */
static void test_lexer(void)
{
    WHOLE("{{ toYaml (.Values.a).b }}", "a.b.c");
    NOT_WHOLE("{{ toYaml (.Values.a).b }}", "a.c");
    WHOLE("{{- toYaml .Values.a -}}", "a.x");
    NOT_READ("{{ tpl `{{ .Values.notreal }}\n{{ .Values.x }}` . }}", "notreal");
    READ("{{ .Values.a \x01 }}{{ .Values.b }}", "b");
    NOT_READ("{{ .Values.a \x01 }}{{ .Values.b }}", "a");
    READ("{{ \"unterminated }}{{ .Values.b }}", "b");
    READ("{{/* a */}}{{ .Values.b }}", "b");
}

/* Seconds of CPU that scanning `text` takes; the trie's key bytes in *keys. */
static double scan_time(const char *text, size_t *keys, size_t *nodes)
{
    sd_tmplrefs r = SD_TMPLREFS_INIT;
    clock_t c0 = clock();
    OK(sd_tmplrefs_scan(&r, text, strlen(text)) == 0);
    double t = (double)(clock() - c0) / CLOCKS_PER_SEC;
    *keys = 0;
    for (size_t i = 0; i < r.nnodes; i++)
        *keys += r.nodes[i].len;
    *nodes = r.nnodes;
    sd_tmplrefs_release(&r);
    return t;
}

/* Issue 41 item 8: every path handed on whole was compared with every other
 * (2.2 MB of templates: 29 s), and every path stored its prefix bound by
 * `with` (a 495 KB template: 6.3 GB). Linear now, and the keys are stored
 * once: the trie's key bytes are at most the text's. */
static void test_linear(void)
{
    size_t n = 60000, keys, nodes;
    char *t = malloc(n * 64 + 1), *p = t;
    for (size_t i = 0; i < n; i++)
        p += sprintf(p, "{{ include \"t\" .Values.k%05zu }}{{ .Values.r%05zu.x }}\n", i, i);
    double secs = scan_time(t, &keys, &nodes);
    printf("# 60,000 maps handed on whole, %zu bytes: %.3f s, %zu nodes\n", strlen(t), secs, nodes);
    OK(secs < 2.0);
    OK(nodes == 2 * n + n + 1);

    /* the keys of a map ranged over, each with maps handed on whole, and
     * as many keys read elsewhere: "*" matches all of them */
    p = t;
    p += sprintf(p, "{{ range $k, $v := .Values }}");
    for (size_t i = 0; i < 20000; i++)
        p += sprintf(p, "{{ include \"x\" $v.a%05zu }}", i);
    p += sprintf(p, "{{ end }}");
    for (size_t i = 0; i < 20000; i++)
        p += sprintf(p, "{{ .Values.b%05zu.c }}", i);
    secs = scan_time(t, &keys, &nodes);
    printf("# 20,000 maps handed on whole under \"*\", 20,000 read: %.3f s\n", secs);
    OK(secs < 2.0);
    OK(use_of(t, "b00001.c") & SD_TREF_READ);
    free(t);

    /* a 470 KB prefix bound by `with` and 4,000 keys read below it */
    size_t plen = 23 * 20004 + 64;
    t = malloc(plen + 4000 * 16 + 64);
    p = t + sprintf(t, "{{ with .Values");
    for (int i = 0; i < 23; i++) {
        p += sprintf(p, ".p%02d", i);
        memset(p, 'x', 20000);
        p += 20000;
    }
    p += sprintf(p, " }}");
    for (size_t i = 0; i < 4000; i++)
        p += sprintf(p, "{{ .r%04zu }}", i);
    sprintf(p, "{{ end }}");
    secs = scan_time(t, &keys, &nodes);
    printf("# a %zu-byte prefix and 4,000 keys below it: %.3f s, %zu key bytes\n", strlen(t), secs, keys);
    OK(keys <= strlen(t));
    OK(nodes == 23 + 4000 + 1);
    free(t);
}

static void test_dir(void)
{
    char dir[] = "/tmp/sd-tmplrefs-XXXXXX", sub[300];
    sd_tmplrefs r = SD_TMPLREFS_INIT;
    const char *seg[] = { "config", "a" };

    OK(mkdtemp(dir) != NULL);
    OK(sd_tmplrefs_scan_dir(&r, dir) == 0);
    OK(!r.has_templates);
    sd_tmplrefs_release(&r);
    snprintf(sub, sizeof sub, "%s/templates", dir);
    OK(mkdir(sub, 0700) == 0);
    OK(t_write_file(sub, "cm.yaml", "data: {{ toYaml .Values.config }}") == 0);
    OK(t_write_file(sub, "_helpers.tpl", "{{ define \"x\" }}{{ .Values.name }}{{ end }}") == 0);
    OK(sd_tmplrefs_scan_dir(&r, dir) == 0);
    OK(r.has_templates);
    INT_EQ(r.files, 2);
    OK(sd_tmplrefs_use(&r, seg, 2) & SD_TREF_WHOLE);
    seg[0] = "name";
    OK(sd_tmplrefs_use(&r, seg, 1) & SD_TREF_READ);
    sd_tmplrefs_release(&r);
    snprintf(sub, sizeof sub, "rm -rf '%s'", dir);
    OK(system(sub) == 0);
}

TEST_MAIN(test_whole, test_dot_and_vars, test_names_and_reads, test_not_free, test_hostile, test_root_context,
          test_dump_and_read, test_lexer, test_linear, test_dir)
