/* SPDX-License-Identifier: Apache-2.0 */
/* meta.c - the page's metadata: title, chart and CRD fields as Markdown
 * cells, links kept only when their scheme is safe. */
#include "render_int.h"
#include "emit.h"
#include "md_to_html.h"
#include "sd.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* --- page metadata -------------------------------------------------------------- */

static void safe_url(sd_val *o, const char *k, const char *out_k)
{
    const char *u = str(o, k);
    if (u && *u && sd_markdown_url_ok(u) && !strpbrk(u, " <>\"'`\n"))
        set_str(o, out_k, u);
}

void sd_render__page_meta(view *v, sd_val *model)
{
    sd_val *chart = sd_val_object_get(model, "chart"), *crd = sd_val_object_get(model, "crd");
    if (sd_val_is_object(crd)) {
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
    sd_val *ytt = sd_val_object_get(model, "ytt"), *src = sd_val_object_get(model, "source");
    sd_val *x;
    size_t i;
    const char *title = NULL;

    if (sd_val_is_object(chart)) {
        title = str(chart, "name");
        safe_url(chart, "home", "home_href");
        sd_val *srcs = sd_val_object_get(chart, "sources"), *list = sd_val_array();
        sd_val_array_foreach(srcs, i, x) {
            sd_val *o = sd_val_objectv(1, "url", sd_val_incref(x));
            sd_buf b = SD_BUF_INIT;
            if (sd_val_is_string(x))
                safe_url(o, "url", "href");
            if (str(o, "href"))
                sd_buf_printf(&b, "<%s>", str(o, "href"));
            else if (sd_val_is_string(x))
                sd_render__md_text(&b, sd_val_string_value(x), sd_val_string_length(x));
            set_buf(o, "md_url", &b);
            sd_buf_release(&b);
            sd_val_array_append_new(list, o);
        }
        sd_val_object_set_new_nocheck(chart, "source_list", list);
        sd_val_array_foreach(sd_val_object_get(chart, "maintainers"), i, x) {
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
        sd_val_array_foreach(sd_val_object_get(chart, "dependencies"), i, x) {
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
        if (sd_val_array_size(sd_val_object_get(chart, "maintainers")))
            sd_val_object_set_new_nocheck(chart, "has_maintainers", sd_val_true());
        if (sd_val_array_size(sd_val_object_get(chart, "dependencies")))
            sd_val_object_set_new_nocheck(chart, "has_dependencies", sd_val_true());
        if (sd_val_array_size(list))
            sd_val_object_set_new_nocheck(chart, "has_sources", sd_val_true());
        if (str(chart, "description") && *str(chart, "description") && v->md) {
            sd_render__md_defang(&v->tmp, str(chart, "description"), strlen(str(chart, "description")));
            set_buf(chart, "md_description", &v->tmp);
        }
        if (str(chart, "description") && *str(chart, "description") && v->html) {
            sd_render__description_html(&v->tmp, str(chart, "description"), strlen(str(chart, "description")));
            set_buf(chart, "description_html", &v->tmp);
        }
    }
    if (sd_val_is_object(crd)) {
        sd_val *names = sd_val_object_get(crd, "names");
        title = str(names, "kind");
        if (!title)
            title = str(crd, "name");
    }
    if (!title && sd_val_is_object(ytt))
        title = str(ytt, "title") ? str(ytt, "title") : str(ytt, "name");
    if (!title) {
        const char *t = str(sd_val_object_get(model, "root"), "title");
        if (t && *t && flag(sd_val_object_get(model, "root"), "title_explicit"))
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
    if (sd_val_is_object(chart)) {
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
            sd_val_object_set_new(model, k, sd_val_true());
        }
    }
}
