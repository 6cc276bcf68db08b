/* SPDX-License-Identifier: Apache-2.0 */
/* helmdocs.c - a chart's README.md.gotmpl, run as helm-docs runs it: the
 * model's chart metadata and rows become helm-docs' template data (its
 * chartTemplateData: .Name ... .Values, .Sections, .Files), helm-docs' named
 * templates are defined first and the chart's file may replace any of them,
 * and the output gets helm-docs' Markdown clean-up. The named templates
 * below are written for schemadoc to print exactly what helm-docs v1.14
 * prints (pkg/document/template.go was read for their output, not copied). */
#include "helmdocs.h"
#include "gotmpl.h"
#include "render_int.h"
#include "sd.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_FILES 10000
#define MAX_FILE_BYTES ((size_t)16 << 20)
#define MAX_WALK_DEPTH 32

/* The row cells, one definition each, used by every Markdown table. */
#define ROW "| {{ .Key }} | {{ .Type }} | {{ if .Default }}{{ .Default }}{{ else }}{{ .AutoDefault }}{{ end }}" \
            " | {{ if .Description }}{{ .Description }}{{ else }}{{ .AutoDescription }}{{ end }} |"
#define TABLE_HEAD "| Key | Type | Default | Description |\n|-----|------|---------|-------------|"
#define BADGE(label, field) \
    "![" label ": {{ ." field " }}](https://img.shields.io/badge/" label "-{{ ." field \
    " | replace \"-\" \"--\" }}-informational?style=flat-square) "
#define HTML_HEAD "<table>\n\t<thead>\n\t\t<th>Key</th>\n\t\t<th>Type</th>\n\t\t<th>Default</th>\n" \
                  "\t\t<th>Description</th>\n\t</thead>\n\t<tbody>\n"
/* Inside raw HTML (an HTML block) a backslash escape is literal: what
 * md_of() escaped as "\<" is written "&lt;" there. */
#define IN_HTML " | replace \"\\\\<\" \"&lt;\""
#define HTML_CELLS(ind) \
    ind "<td>{{ .Key" IN_HTML " }}</td>\n" ind "<td>{{ .Type" IN_HTML " }}</td>\n" \
    ind "<td>{{ template \"chart.valueDefaultColumnRender\" . }}</td>\n" \
    ind "<td>{{ if .Description }}{{ .Description" IN_HTML " }}{{ else }}{{ .AutoDescription" IN_HTML " }}{{ end }}</td>\n"

/* One entry per parse, as helm-docs parses its templates in groups. */
static const char *const named_templates[] = {
    "{{ define \"chart.name\" }}{{ .Name }}{{ end }}",
    "{{ define \"chart.header\" }}# {{ .Name }}\n{{ end }}",
    "{{ define \"chart.deprecationWarning\" }}{{ if .Deprecated }}> **:exclamation: This Helm Chart is deprecated!**{{ end }}{{ end }}",
    "{{ define \"chart.version\" }}{{ .Version }}{{ end }}",
    "{{ define \"chart.versionBadge\" }}" BADGE("Version", "Version") "{{ end }}",
    "{{ define \"chart.type\" }}{{ .Type }}{{ end }}",
    "{{ define \"chart.typeBadge\" }}{{ if .Type }}![Type: {{ .Type }}](https://img.shields.io/badge/Type-{{ .Type }}"
        "-informational?style=flat-square) {{ end }}{{ end }}",
    "{{ define \"chart.appVersion\" }}{{ .AppVersion }}{{ end }}",
    "{{ define \"chart.appVersionBadge\" }}{{ if .AppVersion }}" BADGE("AppVersion", "AppVersion") "{{ end }}{{ end }}",
    "{{ define \"chart.badgesSection\" }}{{ template \"chart.versionBadge\" . }}{{ template \"chart.typeBadge\" . }}"
        "{{ template \"chart.appVersionBadge\" . }}{{ end }}",
    "{{ define \"chart.description\" }}{{ if .Description }}{{ .Description }}{{ end }}{{ end }}",
    "{{ define \"chart.homepage\" }}{{ .Home }}{{ end }}",
    "{{ define \"chart.homepageLine\" }}{{ if .Home }}**Homepage:** <{{ .Home }}>{{ end }}{{ end }}",
    "{{ define \"chart.maintainersHeader\" }}## Maintainers{{ end }}",
    "{{ define \"chart.maintainersTable\" }}| Name | Email | Url |\n| ---- | ------ | --- |"
        "{{ range .Maintainers }}\n| {{ .Name }} | {{ if .Email }}<{{ .Email }}>{{ end }} | "
        "{{ if .Url }}<{{ .Url }}>{{ end }} |{{ end }}{{ end }}",
    "{{ define \"chart.maintainersSection\" }}{{ if .Maintainers }}{{ template \"chart.maintainersHeader\" . }}\n\n"
        "{{ template \"chart.maintainersTable\" . }}{{ end }}{{ end }}",
    "{{ define \"chart.sourcesHeader\" }}## Source Code{{ end }}",
    "{{ define \"chart.sourcesList\" }}{{ range .Sources }}\n* <{{ . }}>{{ end }}{{ end }}",
    "{{ define \"chart.sourcesSection\" }}{{ if .Sources }}{{ template \"chart.sourcesHeader\" . }}\n"
        "{{ template \"chart.sourcesList\" . }}{{ end }}{{ end }}",
    "{{ define \"chart.requirementsHeader\" }}## Requirements{{ end }}",
    "{{ define \"chart.kubeVersion\" }}{{ .KubeVersion }}{{ end }}",
    "{{ define \"chart.kubeVersionLine\" }}{{ if .KubeVersion }}Kubernetes: `{{ .KubeVersion }}`{{ end }}{{ end }}",
    "{{ define \"chart.requirementsTable\" }}| Repository | Name | Version |\n|------------|------|---------|"
        "{{ range .Dependencies }}\n| {{ .Repository }} | {{ if .Alias }}{{ .Alias }}({{ .Name }}){{ else }}{{ .Name }}{{ end }}"
        " | {{ .Version }} |{{ end }}{{ end }}",
    "{{ define \"chart.requirementsSection\" }}{{ if or .Dependencies .KubeVersion }}"
        "{{ template \"chart.requirementsHeader\" . }}\n\n"
        "{{ if .KubeVersion }}{{ template \"chart.kubeVersionLine\" . }}\n\n{{ end }}"
        "{{ if .Dependencies }}{{ template \"chart.requirementsTable\" . }}{{ end }}{{ end }}{{ end }}",
    "{{ define \"chart.valuesHeader\" }}## Values{{ end }}",
    "{{ define \"chart.valuesTable\" }}{{ if .Sections.Sections }}"
        "{{ range .Sections.Sections }}\n\n### {{ .SectionName }}\n\n" TABLE_HEAD
            "{{ range .SectionItems }}\n" ROW "{{ end }}{{ end }}"
        "{{ with .Sections.DefaultSection }}{{ if .SectionItems }}\n\n### {{ .SectionName }}\n\n" TABLE_HEAD
            "{{ range .SectionItems }}\n" ROW "{{ end }}{{ end }}{{ end }}"
        "{{ else }}" TABLE_HEAD "{{ range .Values }}\n" ROW "{{ end }}{{ end }}{{ end }}",
    "{{ define \"chart.valuesTableMd\" }}{{ template \"chart.valuesTable\" . }}{{ end }}",
    "{{ define \"chart.valuesSection\" }}{{ if .Values }}{{ template \"chart.valuesHeader\" . }}\n\n"
        "{{ template \"chart.valuesTable\" . }}{{ end }}{{ end }}",
    "{{ define \"chart.valuesSectionMd\" }}{{ template \"chart.valuesSection\" . }}{{ end }}",
    "{{ define \"chart.valueDefaultColumnRender\" }}"
        "{{- $v := default .Default .AutoDefault }}{{ $lang := .NotationType }}"
        "{{- if and (hasPrefix \"`\" $v) (hasSuffix \"`\" $v) }}"
        "{{ $v = toPrettyJson (fromJson (trimAll \"`\" (default .Default .AutoDefault))) }}{{ $lang = \"json\" }}{{ end -}}"
        "<pre lang=\"{{ $lang }}\">\n"
        "{{ if eq $lang \"tpl\" }}{{ .Key" IN_HTML " }}: |{{ $v" IN_HTML " | nindent 2 }}{{ else }}{{ $v" IN_HTML " }}{{ end }}\n</pre>\n{{ end }}",
    "{{ define \"chart.valueDefaultColumnRenderHtml\" }}{{ template \"chart.valueDefaultColumnRender\" . }}{{ end }}",
    "{{ define \"chart.valuesTableHtml\" }}\n{{ if .Sections.Sections }}"
        "{{ range .Sections.Sections }}\n<h3>{{ .SectionName" IN_HTML " }}</h3>\n" HTML_HEAD
            "{{- range .SectionItems }}\n\t\t<tr>\n" HTML_CELLS("\t\t\t") "\t\t</tr>\n\t{{- end }}\n\t</tbody>\n</table>"
        "{{ end }}\n"
        "{{ if .Sections.DefaultSection.SectionItems }}\n<h3>{{ .Sections.DefaultSection.SectionName" IN_HTML " }}</h3>\n" HTML_HEAD
            "{{- range .Sections.DefaultSection.SectionItems }}\n\t<tr>\n" HTML_CELLS("\t\t") "\t</tr>\n\t{{- end }}\n"
            "\t</tbody>\n</table>\n{{ end }}\n"
        "{{ else }}\n" HTML_HEAD
            "{{- range .Values }}\n\t\t<tr>\n" HTML_CELLS("\t\t\t") "\t\t</tr>\n\t{{- end }}\n\t</tbody>\n</table>\n"
        "{{ end }}\n{{ end }}",
    "{{ define \"chart.valuesSectionHtml\" }}\n{{ if .Sections }}\n{{ template \"chart.valuesHeader\" . }}\n"
        "{{ template \"chart.valuesTableHtml\" . }}\n{{ end }}\n{{ end }}",
    "{{ define \"chart.extras\" }}{{ range .Extras }}\n### {{ .Title }}\n{{ .MarkDown }}\n\n{{ end }}{{ end }}",
    "{{ define \"helm-docs.version\" }}{{ if .HelmDocsVersion }}{{ .HelmDocsVersion }}{{ end }}{{ end }}",
    "{{ define \"helm-docs.versionFooter\" }}{{ if .HelmDocsVersion }}\n"
        "----------------------------------------------\n"
        "Autogenerated from chart metadata using [helm-docs v{{ .HelmDocsVersion }}]"
        "(https://github.com/norwoodj/helm-docs/releases/v{{ .HelmDocsVersion }}){{ end }}{{ end }}",
    NULL
};

/* --- .Files: the chart directory's regular files ----------------------------------- */

typedef struct hfiles {
    char *base;            /* the chart directory as given */
    char **rel;            /* relative paths, '/'-separated */
    size_t n, cap;
    int walked;
} hfiles;

static int walk_dir(hfiles *f, const char *rel, int depth)
{
    char path[4096];
    DIR *d;
    struct dirent *e;
    if (depth > MAX_WALK_DEPTH)
        return 0;
    snprintf(path, sizeof path, "%s%s%s", f->base, *rel ? "/" : "", rel);
    if (!(d = opendir(path)))
        return 0;
    while ((e = readdir(d)) && f->n < MAX_FILES) {
        char sub[4096], full[8192];
        struct stat st;
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if ((size_t)snprintf(sub, sizeof sub, "%s%s%s", rel, *rel ? "/" : "", e->d_name) >= sizeof sub ||
            (size_t)snprintf(full, sizeof full, "%s/%s", f->base, sub) >= sizeof full)
            continue;
        /* lstat: symbolic links are neither followed nor listed, so
         * nothing outside the chart directory can be read */
        if (lstat(full, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            walk_dir(f, sub, depth + 1);
        } else if (S_ISREG(st.st_mode)) {
            if (f->n == f->cap) {
                size_t cap = f->cap ? f->cap * 2 : 64;
                char **v = realloc(f->rel, cap * sizeof *v);
                if (!v)
                    break;
                f->rel = v;
                f->cap = cap;
            }
            if (!(f->rel[f->n] = strdup(sub)))
                break;
            f->n++;
        }
    }
    closedir(d);
    return 0;
}

static void files_walk(hfiles *f)
{
    if (!f->walked) {
        f->walked = 1;
        walk_dir(f, "", 0);
    }
}

/* filepath.Clean of a relative name; NULL when it leaves the directory. */
static char *clean_rel(const char *name, size_t n)
{
    char *out = malloc(n + 2), *seg[1024];
    size_t ns = 0, i = 0, o = 0;
    char *tmp = malloc(n + 1);
    if (!out || !tmp) {
        free(out);
        free(tmp);
        return NULL;
    }
    memcpy(tmp, name, n);
    tmp[n] = '\0';
    for (char *s = strtok(tmp, "/"); s; s = strtok(NULL, "/")) {
        if (!strcmp(s, "."))
            continue;
        if (!strcmp(s, "..")) {
            if (!ns) {
                free(out);
                free(tmp);
                return NULL;
            }
            ns--;
            continue;
        }
        if (ns < 1024)
            seg[ns++] = s;
    }
    for (i = 0; i < ns; i++) {
        size_t l = strlen(seg[i]);
        if (i)
            out[o++] = '/';
        memcpy(out + o, seg[i], l);
        o += l;
    }
    out[o] = '\0';
    free(tmp);
    return out;
}

static long find_file(hfiles *f, const char *rel)
{
    for (size_t i = 0; i < f->n; i++)
        if (!strcmp(f->rel[i], rel))
            return (long)i;
    return -1;
}

static int read_file(sd_gval *out, sd_gcall *c, hfiles *f, size_t i)
{
    char path[8192];
    FILE *fp = NULL;
    struct stat st;
    int fd;
    snprintf(path, sizeof path, "%s/%s", f->base, f->rel[i]);
    /* O_NOFOLLOW|O_NONBLOCK and fstat: the file read is the regular file
     * listed, and a FIFO swapped in since the listing cannot block open() */
    if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)) < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
        !(fp = fdopen(fd, "rb"))) {
        if (fd >= 0 && !fp)
            close(fd);
        *out = sd_gstr_static("", 0);
        return 0;
    }
    if ((size_t)st.st_size > MAX_FILE_BYTES) {
        fclose(fp);
        return sd_gcall_fail(c, "file '%s' is larger than the limit of %zu bytes", f->rel[i], MAX_FILE_BYTES);
    }
    char *buf = sd_gheap_alloc(sd_gcall_heap(c), (size_t)st.st_size + 1);
    if (!buf) {
        fclose(fp);
        return sd_gcall_fail(c, "file '%s' does not fit in the template's memory", f->rel[i]);
    }
    size_t got = fread(buf, 1, (size_t)st.st_size, fp);
    fclose(fp);
    out->kind = SD_G_STR;
    out->sub = 0;
    out->u.s.p = buf;
    out->u.s.n = got;
    return 0;
}

static const sd_gobj_class files_class;

static void base64(sd_buf *b, const char *s, size_t n)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n; i += 3) {
        unsigned long x = (unsigned long)u[i] << 16 | (i + 1 < n ? (unsigned long)u[i + 1] << 8 : 0) |
                          (i + 2 < n ? u[i + 2] : 0);
        char q[4] = { tab[x >> 18], tab[(x >> 12) & 63], i + 1 < n ? tab[(x >> 6) & 63] : '=',
                      i + 2 < n ? tab[x & 63] : '=' };
        sd_buf_put(b, q, 4);
    }
}

static sd_gval new_files(sd_gcall *c, hfiles *parent, char **rel, size_t n)
{
    hfiles *g = sd_gheap_alloc(sd_gcall_heap(c), sizeof *g);
    if (!g)
        return sd_gmissing();
    g->base = parent->base;
    g->rel = rel;
    g->n = g->cap = n;
    g->walked = 1;
    return sd_gobj_new(sd_gcall_heap(c), &files_class, g);
}

static int files_method(sd_gval *out, sd_gcall *c, void *self, const char *name,
                        const sd_gval *argv, int argc)
{
    hfiles *f = self;
    sd_gheap *h = sd_gcall_heap(c);
    int want = !strcmp(name, "Get") || !strcmp(name, "GetBytes") || !strcmp(name, "Glob") ||
               !strcmp(name, "Lines") ? 1 : !strcmp(name, "AsConfig") || !strcmp(name, "AsSecrets") ? 0 : -1;
    if (want < 0)
        return 1;
    if (argc != want)
        return sd_gcall_fail(c, "wrong number of args for %s: want %d got %d", name, want, argc);
    if (want && argv[0].kind != SD_G_STR)
        return sd_gcall_fail(c, "wrong type for value; expected string; got %s", sd_gval_type_name(argv[0]));
    files_walk(f);
    if (!strcmp(name, "Get") || !strcmp(name, "GetBytes")) {
        char *rel = clean_rel(argv[0].u.s.p, argv[0].u.s.n);
        long i = rel && !memchr(argv[0].u.s.p, '\0', argv[0].u.s.n) ? find_file(f, rel) : -1;
        free(rel);
        if (i < 0) {
            *out = sd_gstr_static("", 0);
            return 0;
        }
        return read_file(out, c, f, (size_t)i);
    }
    if (!strcmp(name, "Lines")) {
        /* helm-docs looks the path up as given, so only "CHARTDIR/x" finds x */
        size_t bl = strlen(f->base);
        sd_gval l = sd_glist_new(h, 0);
        *out = l;
        if (argv[0].u.s.n <= bl + 1 || memcmp(argv[0].u.s.p, f->base, bl) || argv[0].u.s.p[bl] != '/')
            return 0;
        char *rel = clean_rel(argv[0].u.s.p + bl + 1, argv[0].u.s.n - bl - 1);
        long i = rel ? find_file(f, rel) : -1;
        free(rel);
        sd_gval text;
        if (i < 0 || read_file(&text, c, f, (size_t)i) < 0)
            return i < 0 ? 0 : -1;
        for (size_t a = 0;;) {
            const char *nl = memchr(text.u.s.p + a, '\n', text.u.s.n - a);
            size_t e = nl ? (size_t)(nl - text.u.s.p) : text.u.s.n;
            sd_glist_push(h, l, sd_gstr_static(text.u.s.p + a, e - a));
            if (!nl)
                break;
            a = e + 1;
        }
        return 0;
    }
    if (!strcmp(name, "Glob")) {
        /* gotmpl_glob.c: no backtracking, its work counted as steps */
        char *pat = clean_rel(argv[0].u.s.p, argv[0].u.s.n);
        char **rel = sd_gheap_alloc(h, (f->n ? f->n : 1) * sizeof *rel);
        sd_gotmpl_glob *g = NULL;
        size_t n = 0;
        int r = 0;
        if (!rel || (pat && sd_gotmpl_glob_compile(&g, pat, strlen(pat)) < 0)) {
            free(pat);
            return sd_gcall_fail(c, "out of memory");
        }
        for (size_t i = 0; g && i < f->n && r == 0; i++) {
            unsigned long long work = 0;
            int m = sd_gotmpl_glob_match(g, f->rel[i], strlen(f->rel[i]), &work);
            if (m < 0)
                r = sd_gcall_fail(c, "out of memory");
            else if ((r = sd_gcall_steps(c, work)) == 0 && m)
                rel[n++] = f->rel[i];
        }
        sd_gotmpl_glob_free(g);
        free(pat);
        if (r)
            return r;
        *out = new_files(c, f, rel, n);
        return 0;
    }
    /* AsConfig / AsSecrets: YAML of base name -> content (or base64) */
    if (!f->n) {
        *out = sd_gstr_static("", 0);
        return 0;
    }
    sd_gval m = sd_gmap_new(h);
    for (size_t i = 0; i < f->n; i++) {
        sd_gval text;
        const char *slash = strrchr(f->rel[i], '/');
        const char *bn = slash ? slash + 1 : f->rel[i];
        if (read_file(&text, c, f, i) < 0)
            return -1;
        if (name[2] == 'S') {
            sd_buf b64 = SD_BUF_INIT;
            base64(&b64, text.u.s.p, text.u.s.n);
            text = sd_gstr(h, b64.ptr, b64.len);
            sd_buf_release(&b64);
        }
        sd_gmap_set(h, m, bn, strlen(bn), text);
    }
    sd_buf y = SD_BUF_INIT;
    sd_gval_yaml(&y, m);
    if (y.len && y.ptr[y.len - 1] == '\n')
        y.len--;
    *out = sd_gstr(h, y.ptr, y.len);
    sd_buf_release(&y);
    return 0;
}

static const sd_gobj_class files_class = { "document.files", files_method };

/* --- the data ----------------------------------------------------------------------- */

static sd_gval str_of(sd_gheap *h, sd_val *j)
{
    char buf[64];
    if (sd_val_is_string(j))
        return sd_gstr(h, sd_val_string_value(j), sd_val_string_length(j));
    if (sd_val_is_integer(j)) {
        snprintf(buf, sizeof buf, "%" SD_VAL_INTEGER_FORMAT, sd_val_integer_value(j));
        return sd_gstrz(h, buf);
    }
    if (sd_val_is_real(j)) {
        snprintf(buf, sizeof buf, "%.17g", sd_val_real_value(j));
        return sd_gstrz(h, buf);
    }
    if (sd_val_is_boolean(j))
        return sd_gstrz(h, sd_val_is_true(j) ? "true" : "false");
    return sd_gstr_static("", 0);
}

static void set(sd_gheap *h, sd_gval s, const char *k, sd_gval v)
{
    sd_gmap_set(h, s, k, strlen(k), v);
}

static void set_gstr(sd_gheap *h, sd_gval s, const char *k, sd_val *obj, const char *jk)
{
    set(h, s, k, str_of(h, sd_val_object_get(obj, jk)));
}

/* A text of the chart that the templates write into Markdown: as it is,
 * but with what would be live where raw HTML is rendered, or would start
 * an HTML block, escaped (md_cells.c sd_render__md_defang); ordinary text
 * is unchanged, as helm-docs writes it. */
static sd_gval md_of(sd_gheap *h, sd_val *j)
{
    if (!sd_val_is_string(j))
        return str_of(h, j);
    sd_buf b = SD_BUF_INIT;
    /* no line is taken for code in a fence: a template may write it into
     * raw HTML (valuesTableHtml), where no fence is one */
    sd_render__md_defang_cell(&b, sd_val_string_value(j), sd_val_string_length(j));
    sd_gval g = sd_buf_failed(&b) ? str_of(h, j) : sd_gstr(h, b.ptr, b.len);
    sd_buf_release(&b);
    return g;
}

static int cmp_deps(const void *x, const void *y)
{
    sd_val *a = *(sd_val *const *)x, *b = *(sd_val *const *)y;
    char ka[2048], kb[2048];
    snprintf(ka, sizeof ka, "%s/%s", sd_val_string_value(sd_val_object_get(a, "repository")) ? sd_val_string_value(sd_val_object_get(a, "repository")) : "",
             sd_val_string_value(sd_val_object_get(a, "name")) ? sd_val_string_value(sd_val_object_get(a, "name")) : "");
    snprintf(kb, sizeof kb, "%s/%s", sd_val_string_value(sd_val_object_get(b, "repository")) ? sd_val_string_value(sd_val_object_get(b, "repository")) : "",
             sd_val_string_value(sd_val_object_get(b, "name")) ? sd_val_string_value(sd_val_object_get(b, "name")) : "");
    return strcmp(ka, kb);
}

static sd_gval value_row(sd_gheap *h, sd_val *r)
{
    sd_gval s = sd_gstruct_new(h, "document.valueRow");
    sd_val *dt = sd_val_object_get(r, "default_text"), *desc = sd_val_object_get(r, "description");
    sd_gval dtext = md_of(h, dt), dsc = md_of(h, desc), empty = sd_gstr_static("", 0);
    int dauto = sd_val_is_true(sd_val_object_get(r, "default_auto"));
    sd_val *ad = sd_val_object_get(r, "auto_default"), *as = sd_val_object_get(r, "auto_description");
    int dfield = sd_val_is_true(sd_val_object_get(r, "description_field"));
    const char *sec = sd_val_string_value(sd_val_object_get(r, "section"));

    set(h, s, "Key", md_of(h, sd_val_object_get(r, "key")));
    set(h, s, "Type", md_of(h, sd_val_object_get(r, "type")));
    set_gstr(h, s, "NotationType", r, "notation");
    set(h, s, "AutoDefault", dauto ? dtext : ad ? str_of(h, ad) : empty);
    set(h, s, "Default", dauto ? empty : dtext);
    set(h, s, "AutoDescription", as ? md_of(h, as) : dfield ? empty : dsc);
    set(h, s, "Description", dfield ? dsc : empty);
    set(h, s, "Section", sec ? sd_gstrz(h, sec) : empty);
    set(h, s, "Column", sd_gint(sd_val_integer_value(sd_val_object_get(r, "column"))));
    set(h, s, "LineNumber", sd_gint(sd_val_integer_value(sd_val_object_get(r, "line"))));
    set(h, s, "Dependency", empty);
    set(h, s, "IsGlobal", sd_gbool(0));
    return s;
}

static sd_gval section(sd_gheap *h, const char *name, size_t cap)
{
    sd_gval s = sd_gstruct_new(h, "document.section");
    sd_buf b = SD_BUF_INIT;
    sd_render__md_defang(&b, name, strlen(name));   /* a heading's text (md_of) */
    set(h, s, "SectionName", sd_buf_failed(&b) ? sd_gstrz(h, name) : sd_gstr(h, b.ptr, b.len));
    sd_buf_release(&b);
    set(h, s, "SectionItems", sd_glist_new(h, cap));
    return s;
}

static sd_gval build_data(sd_gheap *h, sd_val *model, const char *version, hfiles *files)
{
    sd_val *ch = sd_val_object_get(model, "chart"), *rows = sd_val_object_get(model, "rows"), *x;
    sd_gval d = sd_gstruct_new(h, "document.chartTemplateData");
    size_t i;

    if (!ch)
        ch = sd_val_object();
    else
        sd_val_incref(ch);
    set_gstr(h, d, "ApiVersion", ch, "apiVersion");
    set_gstr(h, d, "AppVersion", ch, "appVersion");
    set_gstr(h, d, "KubeVersion", ch, "kubeVersion");
    set_gstr(h, d, "Name", ch, "name");
    set(h, d, "Deprecated", sd_gbool(sd_val_is_true(sd_val_object_get(ch, "deprecated"))));
    set(h, d, "Description", md_of(h, sd_val_object_get(ch, "description")));
    set_gstr(h, d, "Version", ch, "version");
    set_gstr(h, d, "Home", ch, "home");
    set_gstr(h, d, "Type", ch, "type");
    sd_gval src = sd_glist_new(h, 0);
    sd_val_array_foreach(sd_val_object_get(ch, "sources"), i, x)
        if (sd_val_is_string(x))
            sd_glist_push(h, src, str_of(h, x));
    set(h, d, "Sources", src);
    set_gstr(h, d, "Engine", ch, "engine");
    sd_gval mts = sd_glist_new(h, 0);
    sd_val_array_foreach(sd_val_object_get(ch, "maintainers"), i, x) {
        sd_gval m = sd_gstruct_new(h, "helm.ChartMetaMaintainer");
        set_gstr(h, m, "Email", x, "email");
        set_gstr(h, m, "Name", x, "name");
        set_gstr(h, m, "Url", x, "url");
        sd_glist_push(h, mts, m);
    }
    set(h, d, "Maintainers", mts);
    /* dependencies, sorted by "repository/name" (chart_info.go) */
    sd_val *deps = sd_val_object_get(ch, "dependencies");
    size_t nd = sd_val_array_size(deps);
    sd_val **dv = malloc((nd ? nd : 1) * sizeof *dv);
    sd_gval dl = sd_glist_new(h, nd);
    if (dv) {
        for (i = 0; i < nd; i++)
            dv[i] = sd_val_array_get(deps, i);
        qsort(dv, nd, sizeof *dv, cmp_deps);
        for (i = 0; i < nd; i++) {
            sd_gval dep = sd_gstruct_new(h, "helm.ChartRequirementsItem");
            set_gstr(h, dep, "Name", dv[i], "name");
            set_gstr(h, dep, "Version", dv[i], "version");
            set_gstr(h, dep, "Repository", dv[i], "repository");
            set_gstr(h, dep, "Alias", dv[i], "alias");
            sd_glist_push(h, dl, dep);
        }
        free(dv);
    }
    set(h, d, "Dependencies", dl);
    set_gstr(h, d, "ChartDirectory", ch, "dir");
    set(h, d, "HelmDocsVersion", sd_gstrz(h, version ? version : ""));
    /* .Values and .Sections: rows in key order; sections in order of appearance */
    sd_gval vals = sd_glist_new(h, sd_val_array_size(rows));
    sd_gval secs = sd_gstruct_new(h, "document.sections");
    sd_gval other = section(h, "Other Values", 0), seclist = sd_glist_new(h, 0);
    sd_val_array_foreach(rows, i, x) {
        sd_gval r = value_row(h, x);
        const char *sn = sd_val_string_value(sd_val_object_get(x, "section"));
        sd_glist_push(h, vals, r);
        if (!sn || !*sn) {
            sd_glist_push(h, sd_gmap_get(other, "SectionItems", 12), r);
            continue;
        }
        size_t k;
        for (k = 0; k < seclist.u.l->n; k++) {
            sd_gval nm = sd_gmap_get(seclist.u.l->items[k], "SectionName", 11);
            if (nm.u.s.n == strlen(sn) && !memcmp(nm.u.s.p, sn, nm.u.s.n))
                break;
        }
        if (k == seclist.u.l->n)
            sd_glist_push(h, seclist, section(h, sn, 4));
        sd_glist_push(h, sd_gmap_get(seclist.u.l->items[k], "SectionItems", 12), r);
    }
    set(h, secs, "DefaultSection", other);
    set(h, secs, "Sections", seclist);
    set(h, d, "Values", vals);
    set(h, d, "Sections", secs);
    set(h, d, "Extras", sd_glist_new(h, 0));
    set(h, d, "Files", sd_gobj_new(h, &files_class, files));
    set(h, d, "SkipVersionFooter", sd_gbool(0));
    sd_val_decref(ch);
    return d;
}

/* --- running ---------------------------------------------------------------------------- */

/* The first `nl` bytes of `needle` in `hay` (`n` bytes), or NULL. */
static const char *find_mem(const char *hay, size_t n, const char *needle, size_t nl)
{
    for (size_t i = 0; nl && i + nl <= n; i++)
        if (hay[i] == needle[0] && !memcmp(hay + i, needle, nl))
            return hay + i;
    return NULL;
}

/* Whether `body` (`n` bytes) reads the rows (.Values, .Sections) itself or
 * calls a template whose name is in `names` (NUL-separated, `nn` of them). */
static int body_reads(const char *body, size_t n, const char *names, size_t nn)
{
    static const char *const calls[] = { "template \"", "include \"" };
    if (find_mem(body, n, ".Values", 7) || find_mem(body, n, ".Sections", 9))
        return 1;
    for (size_t c = 0; c < 2; c++) {
        size_t cl = strlen(calls[c]);
        for (const char *p = body; (p = find_mem(p, n - (size_t)(p - body), calls[c], cl)); p += cl) {
            const char *q = p + cl, *e = memchr(q, '"', n - (size_t)(q - body));
            const char *nm = names;
            for (size_t k = 0; e && k < nn; k++, nm += strlen(nm) + 1)
                if ((size_t)(e - q) == strlen(nm) && !memcmp(q, nm, (size_t)(e - q)))
                    return 1;
        }
    }
    return 0;
}

int sd_helmdocs_reads_values(const char *text, size_t len)
{
    static const char def[] = "{{ define \"";
    struct tdef { const char *name, *body; size_t nl, bl; unsigned char in; } defs[128];
    size_t nd = 0, nn = 0;
    sd_buf names = SD_BUF_INIT;
    int more = 1, r;

    /* helm-docs' own named templates, one define each (an entry may hold
     * several: each runs to the next) */
    for (size_t i = 0; i < sizeof named_templates / sizeof *named_templates && named_templates[i]; i++)
        for (const char *d = strstr(named_templates[i], def); d && nd < 128; d = strstr(d + 1, def)) {
            const char *q = d + sizeof def - 1, *e = strchr(q, '"'), *next = strstr(q, def);
            if (!e)
                continue;
            defs[nd++] = (struct tdef){ q, d, (size_t)(e - q), next ? (size_t)(next - d) : strlen(d), 0 };
        }
    /* those that read the rows, directly or through one another */
    while (more) {
        more = 0;
        for (size_t i = 0; i < nd; i++) {
            if (defs[i].in || !body_reads(defs[i].body, defs[i].bl, names.ptr, nn))
                continue;
            defs[i].in = 1;
            more = 1;
            sd_buf_put(&names, defs[i].name, defs[i].nl);
            sd_buf_putc(&names, '\0');
            nn++;
        }
    }
    r = sd_buf_failed(&names) ? 1 : body_reads(text, len, names.ptr, nn);
    sd_buf_release(&names);
    return r;
}

/* helm-docs' applyMarkDownFormat: " \n" -> "\n", then "\n{3,}" -> "\n\n" */
static void markdown_format(sd_buf *out, const char *s, size_t n)
{
    sd_buf a = SD_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == ' ' && i + 1 < n && s[i + 1] == '\n')
            continue;
        sd_buf_putc(&a, s[i]);
    }
    for (size_t i = 0; i < a.len; ) {
        if (a.ptr[i] == '\n') {
            size_t j = i;
            while (j < a.len && a.ptr[j] == '\n')
                j++;
            sd_buf_put(out, "\n\n", j - i >= 3 ? 2 : j - i);
            i = j;
        } else {
            sd_buf_putc(out, a.ptr[i++]);
        }
    }
    if (sd_buf_failed(&a) && !sd_buf_failed(out))
        out->failed = sd_buf_error(&a);
    sd_buf_release(&a);
}

static int run(sd_buf *out, sd_val *model, const char *file, const char *text, size_t len,
               const char *tmpl_name, const sd_helmdocs_opts *opts, int format, sd_diags *diags)
{
    sd_gotmpl *set = NULL;
    sd_gheap *heap = NULL;
    hfiles files;
    sd_buf raw = SD_BUF_INIT;
    int r;

    memset(&files, 0, sizeof files);
    const char *dir = sd_val_string_value(sd_val_object_get(sd_val_object_get(model, "chart"), "dir"));
    files.base = strdup(dir ? dir : ".");
    if (!files.base || sd_gotmpl_new(&set, file) < 0 || !(heap = sd_gheap_new(opts ? opts->heap_cap : 0))) {
        r = sd_diag_error(diags, SD_ENOMEM, (sd_loc){ file, 0, 0 }, "out of memory");
        goto done;
    }
    for (const char *const *t = named_templates; *t; t++)
        if ((r = sd_gotmpl_parse(set, "(helm-docs templates)", *t, strlen(*t), diags)) < 0)
            goto done;
    if (text && (r = sd_gotmpl_parse(set, file, text, len, diags)) < 0)
        goto done;
    sd_gval data = build_data(heap, model, opts ? opts->version : NULL, &files);
    if (sd_gheap_failed(heap)) {
        r = sd_diag_error(diags, sd_gheap_failed(heap), (sd_loc){ file, 0, 0 }, "out of memory");
        goto done;
    }
    if ((r = sd_gotmpl_execute(&raw, set, tmpl_name, data, heap, opts ? opts->limits : NULL, diags)) < 0)
        goto done;
    if (format)
        markdown_format(out, raw.ptr, raw.len);
    else
        sd_buf_put(out, raw.ptr, raw.len);
    if (sd_buf_error(out) == SD_EIO)
        r = SD_EIO;   /* writing ahead failed (buf.h spill): its owner says why */
    else if (sd_buf_failed(out))
        r = sd_diag_error(diags, sd_buf_error(out), (sd_loc){ file, 0, 0 }, "the output is too large");
done:
    sd_buf_release(&raw);
    sd_gheap_free(heap);
    sd_gotmpl_free(set);
    for (size_t i = 0; i < files.n; i++)
        free(files.rel[i]);
    free(files.rel);
    free(files.base);
    return r;
}

int sd_helmdocs_render(sd_buf *out, sd_val *model, const char *file, const char *text,
                       size_t len, const sd_helmdocs_opts *opts, sd_diags *diags)
{
    size_t mark = out->len;
    int r = run(out, model, file, text, len, NULL, opts, 1, diags);
    if (r < 0)
        sd_buf_truncate(out, mark);
    return r;
}

int sd_helmdocs_values_table(sd_buf *out, sd_val *model, sd_diags *diags)
{
    return run(out, model, "(helm-docs templates)", NULL, 0, "chart.valuesTable", NULL, 0, diags);
}

char *sd_helmdocs_footer_version(const char *text, size_t len)
{
    static const char mark[] = "Autogenerated from chart metadata using [helm-docs v";
    const size_t ml = sizeof mark - 1;
    char *found = NULL;
    for (size_t i = 0; i + ml <= len; i++) {
        if (text[i] != 'A' || memcmp(text + i, mark, ml) != 0)
            continue;
        size_t s = i + ml, e = s;
        while (e < len && text[e] != ']' && text[e] != '\n' && e - s < 64)
            e++;
        if (e < len && text[e] == ']' && e > s) {
            free(found);
            if ((found = malloc(e - s + 1))) {
                memcpy(found, text + s, e - s);
                found[e - s] = '\0';
            }
        }
        i = e;
    }
    return found;
}
