/* SPDX-License-Identifier: Apache-2.0 */
/* site_index.c - the index page of a charts repository (render.h
 * sd_render_index): `schemadoc --recursive DIR -o SITE/` lists every chart
 * with its version, description and deprecation, linked to its page,
 * through templates/index/html.mustache or index/md.mustache of the
 * theme, as every page is made. The walk, the processes and reading each
 * Chart.yaml stay in the command line (cli/cmd_recursive.c).
 *
 * In: the list of charts (render.h). Out: the page appended to a buffer.
 * Escaping is the templates' (html) and md_cells.c's (md), never this
 * file's own. */
#include "render.h"
#include "render_int.h"

#include <stdio.h>
#include <string.h>

/* A link below SITE: every byte but the unreserved ones and '/'
 * percent-encoded. */
static void put_href(sd_buf *b, const char *s)
{
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || strchr("-._~/", ch))
            sd_buf_putc(b, (char)ch);
        else
            sd_buf_printf(b, "%%%02X", ch);
    }
}

/* Markdown table cell text of member `k` of `chart` as `md_k`. */
static void md_field(sd_val *chart, const char *k, const char *md_k, sd_buf *tmp)
{
    const char *s = str(chart, k);
    sd_buf_clear(tmp);
    if (s)
        sd_render__md_text(tmp, s, strlen(s));
    sd_val_object_set_new(chart, md_k, sd_val_stringn_nocheck(tmp->ptr, tmp->len));
}

int sd_render_index(sd_buf *out, sd_val *charts, const char *format, const char *theme,
                    const char *generator, sd_diags *diags)
{
    sd_render_opts ro = { .format = !strcmp(format, "md") ? "index/md" : "index/html", .theme = theme };
    sd_val *data = sd_val_object(), *c;
    sd_buf tmp = SD_BUF_INIT;
    size_t i;
    int err;

    if (strcmp(format, "md") && strcmp(format, "html")) {
        sd_val_decref(data);
        return SD_EUSAGE;
    }
    sd_val_array_foreach(charts, i, c) {
        const char *name = str(c, "name"), *path = str(c, "path"), *href = str(c, "href");
        name = name ? name : path ? path : "";
        sd_val_object_set_new(c, "title", sd_val_stringn_nocheck(name, strlen(name)));
        if (href) {
            sd_buf_clear(&tmp);
            put_href(&tmp, href);
            sd_val_object_set_new(c, "href", sd_val_stringn(tmp.ptr, tmp.len));
        }
        md_field(c, "title", "md_title", &tmp);
        md_field(c, "version", "md_version", &tmp);
        md_field(c, "description", "md_description", &tmp);
    }
    sd_val_object_set_new(data, "generator", sd_val_string(generator ? generator : "schemadoc"));
    sd_val_object_set(data, "charts", charts);
    if (sd_buf_failed(&tmp))
        err = sd_diag_error(diags, SD_ENOMEM, (sd_loc){ NULL, 0, 0 }, "out of memory");
    else
        err = sd_render_data(out, data, &ro, diags);
    sd_buf_release(&tmp);
    sd_val_decref(data);
    return err;
}
