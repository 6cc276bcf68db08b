/* SPDX-License-Identifier: Apache-2.0 */
/* md_page.c - the one Markdown path (render.h sd_render_markdown): what
 * `schemadoc SOURCE --format md [--readme FILE]` writes and the library's
 * "md" page is: a chart's helm-docs template when it has one
 * (README.md.gotmpl, or --gotmpl FILE), else schemadoc's Markdown page;
 * into a README between the schemadoc markers, or into its "## Parameters"
 * section. A README with none of these is refused: a second document is
 * never appended. */
#include "file.h"
#include "helmdocs.h"
#include "readme.h"
#include "render.h"
#include "sd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_TEMPLATE ((size_t)16 << 20)
#define MAX_README ((size_t)64 << 20)

/* Read a regular file of at most `max` bytes into `out`. *exists is set to
 * 0 for a missing file (not an error when exists != NULL). */
static int read_text(sd_buf *out, const char *path, size_t max, int *exists, sd_diags *diags)
{
    if (exists) {
        *exists = sd_file_present(path);
        if (!*exists)
            return 0;
    }
    return sd_file_read_buf(out, path, max, 0, diags);
}

int sd_render_md_confine(sd_render_md_opts *o, const char *source, char **held, sd_diags *diags)
{
    const char **paths[3] = { &o->readme, &o->gotmpl, &o->output };
    static const char *const what[3] = { "README", "template", "output file" };
    struct stat st;
    int r;

    for (int i = 0; i < 3; i++)
        held[i] = NULL;
    if (stat(source, &st) != 0 || !S_ISDIR(st.st_mode))
        return 0;   /* a schema file, a CRD: no chart directory to keep to */
    for (int i = 0; i < 3; i++) {
        if (!*paths[i] || strcmp(*paths[i], "-") == 0)
            continue;
        if ((r = sd_file_confine(&held[i], source, *paths[i], what[i], diags)) < 0)
            return r;
        *paths[i] = held[i];
    }
    return 0;
}

/* Not a symbolic link: a chart's own README.md.gotmpl that links elsewhere
 * (~/.ssh/id_rsa) must not be copied into its README. Anything else there
 * (a FIFO, a directory) is taken, and refused loudly when read (file.h). */
static int is_plain_file(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 && !S_ISLNK(st.st_mode);
}

/* The helm-docs template to run for a chart in `dir` (NULL: not a chart),
 * or NULL (a new string). */
static char *gotmpl_for(const char *dir, const sd_render_opts *ro, const sd_render_md_opts *o)
{
    sd_buf p = SD_BUF_INIT;

    if (o->gotmpl)
        return strdup(o->gotmpl);
    if (!dir || ro->template_file || ro->theme)
        return NULL;
    sd_buf_printf(&p, "%s/README.md.gotmpl", dir);
    if (sd_buf_failed(&p) || !is_plain_file(p.ptr)) {
        sd_buf_release(&p);
        return NULL;
    }
    return sd_buf_detach(&p);
}

/* The helm-docs template to run for `model`, or NULL (a new string). */
static char *gotmpl_path(sd_val *model, const sd_render_opts *ro, const sd_render_md_opts *o)
{
    const char *kind = sd_val_string_value(sd_val_object_get(sd_val_object_get(model, "source"), "kind"));
    const char *dir = sd_val_string_value(sd_val_object_get(sd_val_object_get(model, "chart"), "dir"));
    return gotmpl_for(kind && !strcmp(kind, "chart") ? dir : NULL, ro, o);
}

int sd_render_md_reads_schema(const char *chart_dir, const sd_render_opts *ro, const sd_render_md_opts *o)
{
    sd_diags quiet = SD_DIAGS_INIT;
    sd_buf text = SD_BUF_INIT;
    char *tpl = gotmpl_for(chart_dir, ro, o);
    int r = 1;

    /* (a template that cannot be read says so when it is run) */
    if (tpl && chart_dir && read_text(&text, tpl, MAX_TEMPLATE, NULL, &quiet) == 0)
        r = sd_helmdocs_reads_values(text.ptr, text.len);
    sd_diags_release(&quiet);
    sd_buf_release(&text);
    free(tpl);
    return r;
}

static int run_gotmpl(sd_buf *out, sd_val *model, const char *path, const sd_render_md_opts *o,
                      sd_diags *diags)
{
    sd_buf text = SD_BUF_INIT, old = SD_BUF_INIT;
    const char *kind = sd_val_string_value(sd_val_object_get(sd_val_object_get(model, "source"), "kind"));
    const char *target = o->readme ? o->readme : (o->output && strcmp(o->output, "-") ? o->output : NULL);
    char *version = NULL;
    int r, exists = 0;

    if (!kind || strcmp(kind, "chart") != 0)
        return sd_diag_error(diags, SD_EUSAGE, (sd_loc){ path, 0, 0 },
                             "a helm-docs template needs a chart directory as SOURCE");
    if ((r = read_text(&text, path, MAX_TEMPLATE, NULL, diags)) < 0)
        goto done;
    /* the footer's version: --helm-docs-version, else the one the current
     * file was written with (docs/gotmpl.md) */
    if (o->helm_docs_version)
        version = strdup(o->helm_docs_version);
    else if (target && read_text(&old, target, MAX_README, &exists, diags) == 0 && exists)
        version = sd_helmdocs_footer_version(old.ptr, old.len);
    sd_helmdocs_opts ho = { .version = version };
    r = sd_helmdocs_render(out, model, path, text.ptr, text.len, &ho, diags);
done:
    free(version);
    sd_buf_release(&text);
    sd_buf_release(&old);
    return r;
}

int sd_render_markdown(sd_buf *out, sd_val *model, const sd_render_opts *ro,
                       const sd_render_md_opts *o, sd_diags *diags)
{
    sd_buf old = SD_BUF_INIT, gen = SD_BUF_INIT;
    char *tpl = gotmpl_path(model, ro, o);
    int r, exists = 0;

    if (tpl) {
        r = run_gotmpl(out, model, tpl, o, diags);
        free(tpl);
        return r;
    }
    if (!o->readme)
        return sd_render(out, model, ro, diags);
    if ((r = read_text(&old, o->readme, MAX_README, &exists, diags)) < 0)
        goto done;
    if (!sd_readme_has_markers(old.ptr, old.len)) {
        /* readme-generator's rule: the Parameters section is replaced in place */
        r = sd_readme_params(out, old.ptr, old.len, model, o->readme, diags);
        if (r != SD_ENOTFOUND)
            goto done;
        size_t k = 0;
        while (k < old.len && (old.ptr[k] == ' ' || old.ptr[k] == '\t' || old.ptr[k] == '\r' || old.ptr[k] == '\n'))
            k++;
        if (exists && k < old.len) {
            r = sd_diag_error(diags, SD_ENOTFOUND, (sd_loc){ o->readme, 0, 0 },
                              "no place for the generated documentation: add a line '" SD_README_START
                              "' and a line '" SD_README_END "' around where it should go (or a "
                              "'## Parameters' section, or a README.md.gotmpl in the chart)");
            goto done;
        }
        /* a new (or blank) README: the page between the markers */
    }
    if ((r = sd_render(&gen, model, ro, diags)) < 0)
        goto done;
    if (sd_buf_failed(&gen)) {
        r = sd_diag_error(diags, sd_buf_error(&gen), (sd_loc){ NULL, 0, 0 }, "out of memory");
        goto done;
    }
    r = sd_readme_splice(out, exists ? old.ptr : "", exists ? old.len : 0, gen.ptr, gen.len,
                         o->readme, diags);
done:
    sd_buf_release(&old);
    sd_buf_release(&gen);
    return r;
}
