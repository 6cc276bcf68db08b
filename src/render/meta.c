/* meta.c - the page's metadata: title, chart and CRD fields as Markdown
 * cells, links kept only when their scheme is safe. */
#include "render_int.h"
#include "emit.h"
#include "markdown.h"
#include "sd.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* --- page metadata -------------------------------------------------------------- */

static void safe_url(json_t *o, const char *k, const char *out_k)
{
    const char *u = str(o, k);
    if (u && *u && sd_markdown_url_ok(u) && !strpbrk(u, " <>\"'`\n"))
        set_str(o, out_k, u);
}

void sd_render__page_meta(view *v, json_t *model)
{
    json_t *chart = json_object_get(model, "chart"), *crd = json_object_get(model, "crd");
    if (json_is_object(crd)) {
        static const char *const ccells[][2] = { { "group", "md_group" }, { "scope", "md_scope" },
                                                 { "kind", "md_kind" } };
        for (size_t c = 0; c < 3; c++) {
            const char *cs = str(crd, ccells[c][0]);
            if (cs && *cs) {
                sd_buf mb = SD_BUF_INIT;
                if (c == 0)
                    sd_render__md_code(&mb, cs, strlen(cs));
                else
                    sd_render__md_text(&mb, cs, strlen(cs));
                set_buf(crd, ccells[c][1], &mb);
                sd_buf_release(&mb);
            }
        }
    }
    json_t *ytt = json_object_get(model, "ytt"), *src = json_object_get(model, "source");
    json_t *x;
    size_t i;
    const char *title = NULL;

    if (json_is_object(chart)) {
        title = str(chart, "name");
        safe_url(chart, "home", "home_href");
        json_t *srcs = json_object_get(chart, "sources"), *list = json_array();
        json_array_foreach(srcs, i, x) {
            json_t *o = json_pack("{s:O}", "url", x);
            sd_buf b = SD_BUF_INIT;
            if (json_is_string(x))
                safe_url(o, "url", "href");
            if (str(o, "href"))
                sd_buf_printf(&b, "<%s>", str(o, "href"));
            else if (json_is_string(x))
                sd_render__md_text(&b, json_string_value(x), json_string_length(x));
            set_buf(o, "md_url", &b);
            sd_buf_release(&b);
            json_array_append_new(list, o);
        }
        json_object_set_new_nocheck(chart, "source_list", list);
        json_array_foreach(json_object_get(chart, "maintainers"), i, x) {
            safe_url(x, "url", "href");
            const char *e = str(x, "email");
            if (e && *e && !strpbrk(e, " <>\"'`\n:") && strchr(e, '@')) {
                sd_buf b = SD_BUF_INIT;
                sd_buf_printf(&b, "mailto:%s", e);
                set_str(x, "mailto", b.ptr);
                sd_buf_release(&b);
            }
            static const char *const cells[][3] = { { "name", "md_name", NULL },
                                                    { "email", "md_email", "mailto" },
                                                    { "url", "md_url", "href" } };
            for (size_t c = 0; c < 3; c++) {
                const char *s = str(x, cells[c][0]);
                if (s && *s) {
                    sd_buf b = SD_BUF_INIT;
                    if (cells[c][2] && str(x, cells[c][2]))
                        sd_buf_printf(&b, "<%s>", s);   /* checked: no space, <, > or quote */
                    else
                        sd_render__md_text(&b, s, strlen(s));
                    set_buf(x, cells[c][1], &b);
                    sd_buf_release(&b);
                }
            }
        }
        json_array_foreach(json_object_get(chart, "dependencies"), i, x) {
            static const char *const cells[][2] = { { "repository", "md_repository" }, { "name", "md_name" },
                                                    { "version", "md_version" }, { "alias", "md_alias" },
                                                    { "condition", "md_condition" } };
            for (size_t c = 0; c < sizeof cells / sizeof cells[0]; c++) {
                const char *s = str(x, cells[c][0]);
                if (s && *s) {
                    sd_buf b = SD_BUF_INIT;
                    sd_render__md_text(&b, s, strlen(s));
                    set_buf(x, cells[c][1], &b);
                    sd_buf_release(&b);
                }
            }
            safe_url(x, "repository", "repository_href");
        }
        if (json_array_size(json_object_get(chart, "maintainers")))
            json_object_set_new_nocheck(chart, "has_maintainers", json_true());
        if (json_array_size(json_object_get(chart, "dependencies")))
            json_object_set_new_nocheck(chart, "has_dependencies", json_true());
        if (json_array_size(list))
            json_object_set_new_nocheck(chart, "has_sources", json_true());
        if (str(chart, "description") && *str(chart, "description") && !v->html) {
            sd_render__md_defang(&v->tmp, str(chart, "description"), strlen(str(chart, "description")));
            set_buf(chart, "md_description", &v->tmp);
        }
        if (str(chart, "description") && *str(chart, "description") && v->html) {
            sd_render__description_html(&v->tmp, str(chart, "description"), strlen(str(chart, "description")));
            set_buf(chart, "description_html", &v->tmp);
        }
    }
    if (json_is_object(crd)) {
        json_t *names = json_object_get(crd, "names");
        title = str(names, "kind");
        if (!title)
            title = str(crd, "name");
    }
    if (!title && json_is_object(ytt))
        title = str(ytt, "title") ? str(ytt, "title") : str(ytt, "name");
    if (!title) {
        const char *t = str(json_object_get(model, "root"), "title");
        if (t && *t && flag(json_object_get(model, "root"), "title_explicit"))
            title = t;
    }
    if (!title) {
        const char *p = str(src, "path");
        const char *slash = p ? strrchr(p, '/') : NULL;
        title = slash && slash[1] ? slash + 1 : p ? p : "schema";
    }
    set_str(model, "page_title", title);
    sd_render__md_text(&v->tmp, title, strlen(title));
    set_buf(model, "md_title", &v->tmp);
    if (json_is_object(chart)) {
        static const char *const f[][2] = { { "version", "md_chart_version" }, { "appVersion", "md_chart_app_version" },
                                            { "type", "md_chart_type" }, { "kubeVersion", "md_chart_kube_version" } };
        for (size_t k = 0; k < 4; k++) {
            const char *t = str(chart, f[k][0]);
            if (t && *t) {
                if (k == 3)
                    sd_render__md_code(&v->tmp, t, strlen(t));   /* helm-docs: Kubernetes: `>=1.19.0-0` */
                else
                    sd_render__md_text(&v->tmp, t, strlen(t));
                set_buf(chart, f[k][1], &v->tmp);
            }
        }
    }
    set_str(model, "generator", "schemadoc " SD_VERSION);
    {
        const char *kind = str(src, "kind");
        if (kind) {
            char k[32];
            snprintf(k, sizeof k, "kind_%s", kind);
            json_object_set_new(model, k, json_true());
        }
    }
}
