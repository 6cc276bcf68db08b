/* SPDX-License-Identifier: Apache-2.0 */
/* render_page.c - find the templates (data directory or the copies built
 * into the binary), pick the theme, compile the top-level template and
 * render the view model with it (see render.h). */
#include "render.h"
#include "render_int.h"
#include "alloc.h"
#include "diff.h"
#include "file.h"
#include "mustache.h"
#include "sd.h"
#include "sha256.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* The data directory: the first of $SCHEMADOC_DATA, the executable's
 * directory, its parent, PREFIX/share/schemadoc next to it, and the current
 * directory that holds templates/html.mustache. Caller frees; NULL when
 * none does (then the embedded copies are used). */
static char *find_data_dir(void)
{
    char exe[PATH_MAX], *slash;
    const char *env = getenv("SCHEMADOC_DATA");
    sd_buf b = SD_BUF_INIT;
    const char *cands[5];
    char parent[PATH_MAX + 4], share[PATH_MAX + 32];
    size_t n = 0;
    ssize_t len;

    if (env && *env)
        cands[n++] = env;
    if ((len = readlink("/proc/self/exe", exe, sizeof exe - 1)) > 0) {
        exe[len] = '\0';
        if ((slash = strrchr(exe, '/'))) {
            *slash = '\0';
            cands[n++] = exe;
            snprintf(parent, sizeof parent, "%s/..", exe);
            cands[n++] = parent;
            snprintf(share, sizeof share, "%s/../share/schemadoc", exe);
            cands[n++] = share;
        }
    }
    cands[n++] = ".";
    for (size_t i = 0; i < n; i++) {
        sd_buf_clear(&b);
        sd_buf_printf(&b, "%s/templates/html.mustache", cands[i]);
        if (is_file(b.ptr)) {
            sd_buf_release(&b);
            return strdup(cands[i]);
        }
    }
    sd_buf_release(&b);
    return NULL;
}

static int valid_theme_name(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_')
            return 0;
    return 1;
}

static int embedded_has_theme(const char *name)
{
    char prefix[300];
    snprintf(prefix, sizeof prefix, "themes/%s/", name);
    for (size_t i = 0; i < sd_assets_count; i++)
        if (strncmp(sd_assets[i].name, prefix, strlen(prefix)) == 0)
            return 1;
    return 0;
}

/* Register the embedded files under `prefix` (e.g. "themes/compact/") by
 * their partial names, skipping names already registered (`seen`) or
 * present as files in `shadow_dir`. */
static int add_embedded(sd_mustache_partials *reg, const char *prefix, sd_val *seen,
                        const char *shadow_dir, sd_diags *diags)
{
    size_t pl = strlen(prefix);
    for (size_t i = 0; i < sd_assets_count; i++) {
        const sd_asset *a = &sd_assets[i];
        size_t nl = strlen(a->name);
        int err;
        if (strncmp(a->name, prefix, pl) != 0 || nl < pl + 9)
            continue;
        char *name = strndup(a->name + pl, nl - pl - 9);  /* drop ".mustache" */
        if (!name)
            return SD_ENOMEM;
        if (sd_val_object_get(seen, name)) {
            free(name);
            continue;
        }
        if (shadow_dir) {
            sd_buf p = SD_BUF_INIT;
            sd_buf_printf(&p, "%s/%s.mustache", shadow_dir, name);
            int shadowed = sd_file_present(p.ptr);  /* a FIFO there fails when read */
            sd_buf_release(&p);
            if (shadowed) {
                free(name);
                continue;
            }
        }
        sd_val_object_set_new(seen, name, sd_val_true());
        err = sd_mustache_partials_add(reg, name, (const char *)a->data, a->len, diags);
        free(name);
        if (err < 0)
            return err;
    }
    return 0;
}

static int read_file(sd_buf *out, const char *path, sd_diags *diags)
{
    return sd_file_read_buf(out, path, SD_FILE_MAX, 0, diags);
}

/* The link of one location "FILE:LINE:COL" under `url`: FILE
 * percent-encoded below it with "#LLINE"; a location that is itself a URL
 * links to that document. NULL for a file outside the base ("../"). */
static sd_val *location_href(const char *url, const char *at)
{
    const char *end = at + strlen(at), *c1, *c2;
    sd_buf b = SD_BUF_INIT;
    long line = 0;

    /* split off ":LINE:COL" */
    for (c2 = end; c2 > at && isdigit((unsigned char)c2[-1]); c2--)
        ;
    if (c2 > at && c2 < end && c2[-1] == ':') {
        for (c1 = c2 - 1; c1 > at && isdigit((unsigned char)c1[-1]); c1--)
            ;
        if (c1 > at && c1 < c2 - 1 && c1[-1] == ':') {
            line = strtol(c1, NULL, 10);
            end = c1 - 1;
        }
    }
    if (strstr(at, "://")) {
        if (strncmp(at, "https://", 8) != 0 && strncmp(at, "http://", 7) != 0)
            return NULL;
        sd_buf_put(&b, at, (size_t)(end - at));
    } else {
        size_t n = strlen(url);
        if (!strncmp(at, "../", 3) || at[0] == '/' || end == at)
            return NULL;
        while (n && url[n - 1] == '/')
            n--;
        sd_buf_put(&b, url, n);
        sd_buf_putc(&b, '/');
        for (const char *p = at; p < end; p++) {
            unsigned char ch = (unsigned char)*p;
            if (isalnum(ch) || strchr("-._~/", ch))
                sd_buf_putc(&b, (char)ch);
            else
                sd_buf_printf(&b, "%%%02X", ch);
        }
        if (line > 0)
            sd_buf_printf(&b, "#L%ld", line);
    }
    if (sd_buf_failed(&b)) {
        sd_buf_release(&b);
        return NULL;
    }
    sd_val *r = sd_val_stringn(b.ptr, b.len);
    sd_buf_release(&b);
    return r;
}

/* Give every "defined_at" and "value_at" a "..._href" under `url`. */
static void link_locations(sd_val *x, const char *url, int depth)
{
    static const char *const keys[] = { "defined_at", "value_at", NULL };
    const char *k;
    sd_val *v;
    size_t i;

    if (depth > 400)
        return;
    if (sd_val_is_array(x)) {
        sd_val_array_foreach(x, i, v)
            link_locations(v, url, depth + 1);
        return;
    }
    if (!sd_val_is_object(x))
        return;
    for (const char *const *key = keys; *key; key++) {
        const char *at = sd_val_string_value(sd_val_object_get(x, *key));
        sd_val *href;
        char name[32];
        if (at && (href = location_href(url, at))) {
            snprintf(name, sizeof name, "%s_href", *key);
            sd_val_object_set_new(x, name, href);
        }
    }
    sd_val_object_foreach(x, k, v)
        if (sd_val_is_object(v) || sd_val_is_array(v))
            link_locations(v, url, depth + 1);
}

/* A page's templates: the theme's registry of partials and the top template
 * (the format's, or --template's). */
struct sd_templates {
    sd_render_opts opts;          /* borrowed strings */
    sd_mustache_partials *reg;
    sd_mustache *custom;          /* --template, compiled */
    const sd_mustache *top;
};
typedef sd_templates page;

static void page_close(page *pg)
{
    sd_mustache_free(pg->custom);
    sd_mustache_partials_free(pg->reg);
}

/* Find and compile the templates, and every partial they name. 0, or an
 * error reported in `diags`; page_close() either way. */
static int page_open(page *pg, const sd_render_opts *opts, sd_diags *diags)
{
    const char *format = opts->format ? opts->format : "html";
    const char *theme = opts->theme ? opts->theme : "default";
    char *data = find_data_dir();
    sd_mustache_partials *reg = NULL;
    sd_mustache *custom = NULL;
    const sd_mustache *top = NULL;
    sd_val *seen = sd_val_object();
    sd_buf path = SD_BUF_INIT, text = SD_BUF_INIT;
    sd_loc loc = { theme, 0, 0 };
    int err, theme_is_dir = strchr(theme, '/') != NULL || theme[0] == '.';

    if ((err = sd_mustache_partials_new(&reg, SD_MUSTACHE_STRICT)) < 0)
        goto done;
    if (sd_outfmt_find(format))   /* the format's {{x}} escaping (outfmt.def) */
        sd_mustache_partials_set_escape(reg, sd_outfmt_find(format)->escape);
    if (theme_is_dir) {
        if (!is_dir(theme)) {
            err = sd_diag_error(diags, SD_ENOTFOUND, loc, "theme directory not found");
            goto done;
        }
        sd_mustache_partials_add_dir(reg, theme);
    } else if (!valid_theme_name(theme)) {
        err = sd_diag_error(diags, SD_ENOTFOUND, loc,
                            "invalid theme name: use a name (letters, digits, '-', '_') or a directory path");
        goto done;
    }
    if (data) {
        if (!theme_is_dir) {
            sd_buf_printf(&path, "%s/themes/%s", data, theme);
            if (!is_dir(path.ptr)) {
                err = sd_diag_error(diags, SD_ENOTFOUND, loc,
                                    "unknown theme (no directory '%s'); built-in themes: default, compact", path.ptr);
                goto done;
            }
            sd_mustache_partials_add_dir(reg, path.ptr);
        }
        sd_buf_clear(&path);
        sd_buf_printf(&path, "%s/themes/default", data);
        sd_mustache_partials_add_dir(reg, path.ptr);
        sd_buf_clear(&path);
        sd_buf_printf(&path, "%s/templates", data);
        err = sd_mustache_partials_add_dir(reg, path.ptr);
    } else {
        if (!theme_is_dir) {
            if (!embedded_has_theme(theme)) {
                err = sd_diag_error(diags, SD_ENOTFOUND, loc, "unknown theme; built-in themes: default, compact");
                goto done;
            }
            sd_buf_printf(&path, "themes/%s/", theme);
            if ((err = add_embedded(reg, path.ptr, seen, NULL, diags)) < 0)
                goto done;
        }
        if ((err = add_embedded(reg, "themes/default/", seen, theme_is_dir ? theme : NULL, diags)) < 0 ||
            (err = add_embedded(reg, "templates/", seen, theme_is_dir ? theme : NULL, diags)) < 0)
            goto done;
    }
    if (err < 0)
        goto done;
    if (opts->template_file) {
        char *dir = strdup(opts->template_file), *slash;
        if (!dir) {
            err = SD_ENOMEM;
            goto done;
        }
        if ((slash = strrchr(dir, '/')))
            *slash = '\0';
        else
            strcpy(dir, ".");
        sd_mustache_partials_add_dir(reg, dir);
        free(dir);
        if ((err = read_file(&text, opts->template_file, diags)) < 0 ||
            (err = sd_mustache_compile(&custom, opts->template_file, text.ptr, text.len, diags)) < 0)
            goto done;
        top = custom;
    } else {
        sd_loc l = { format, 0, 0 };
        if ((err = sd_mustache_partials_get(&top, reg, format, l, diags)) < 0)
            goto done;
        if (!top) {
            err = sd_diag_error(diags, SD_ENOTFOUND, l, "no template for format '%s' in theme '%s'", format, theme);
            goto done;
        }
    }
    err = sd_mustache_partials_preload(reg, top, diags);
done:
    pg->opts = *opts;
    pg->reg = reg;
    pg->custom = custom;
    pg->top = top;
    sd_val_decref(seen);
    sd_buf_release(&path);
    sd_buf_release(&text);
    free(data);
    return err;
}

/* The html page's script, the theme's html/script partial rendered for
 * `model`, as `page_script`, and its SHA-256 as `script_hash`: the page's
 * Content-Security-Policy allows that one script and no other (no
 * 'unsafe-inline'), so an escaping slip can never run script. Only when the
 * template reads page_script. */
static int page_script(page *pg, sd_val *model, sd_diags *diags)
{
    const sd_mustache *t = NULL;
    sd_buf text = SD_BUF_INIT;
    char hash[45];
    int err;

    if (!sd_mustache_may_read(pg->top, pg->reg, "page_script") && !sd_mustache_may_read(pg->top, pg->reg, "script_hash"))
        return 0;
    if ((err = sd_mustache_partials_get(&t, pg->reg, "html/script", (sd_loc){ "html/script", 0, 0 }, diags)) < 0)
        return err;
    if (t && (err = sd_mustache_render(&text, t, model, pg->reg, diags)) < 0) {
        sd_buf_release(&text);
        return err;
    }
    if (sd_buf_failed(&text)) {
        sd_buf_release(&text);
        return sd_diag_error(diags, SD_ENOMEM, (sd_loc){ NULL, 0, 0 }, "out of memory");
    }
    sd_sha256_base64(hash, text.ptr, text.len);
    sd_val_object_set_new_nocheck(model, "page_script", sd_val_stringn(text.ptr, text.len));
    sd_val_object_set_new_nocheck(model, "script_hash", sd_val_string(hash));
    sd_buf_release(&text);
    return 0;
}

/* Render `model` with the open page's templates. */
static int render_open_page(sd_buf *out, page *pg, sd_val *model, int view, sd_diags *diags)
{
    const sd_render_opts *opts = &pg->opts;
    const sd_outfmt *f = sd_outfmt_find(opts->format ? opts->format : "html");
    int markup = f ? f->markup : SD_MARKUP_HTML;   /* a template of no row's: html */
    int err;

    /* a format without a view (the form's page data is made by
     * sd_render_form, form.c) */
    if (view && markup != SD_MARKUP_NONE &&
        (err = sd_render__view(model, markup,
                               sd_mustache_may_read(pg->top, pg->reg, "default_yaml") ||
                                   sd_mustache_may_read(pg->top, pg->reg, "default_block"))) < 0)
        return sd_diag_error(diags, err, (sd_loc){ NULL, 0, 0 }, "out of memory");
    if (opts->source_url)
        link_locations(model, opts->source_url, 0);
    if (f && (f->flags & SD_OUTFMT_SCRIPT) && (err = page_script(pg, model, diags)) < 0)
        return err;
    return sd_mustache_render(out, pg->top, model, pg->reg, diags);
}

static int render_page(sd_buf *out, sd_val *model, const sd_render_opts *opts, int view,
                       sd_diags *diags)
{
    page pg;
    int err;

    memset(&pg, 0, sizeof pg);
    if ((err = page_open(&pg, opts, diags)) == 0)
        err = render_open_page(out, &pg, model, view, diags);
    page_close(&pg);
    return err;
}

int sd_templates_open(sd_templates **out, const sd_render_opts *opts, sd_diags *diags)
{
    int err;
    if (!(*out = calloc(1, sizeof **out))) {
        sd_alloc_note_failure();
        return sd_diag_error(diags, SD_ENOMEM, (sd_loc){ NULL, 0, 0 }, "out of memory");
    }
    if ((err = page_open(*out, opts, diags)) < 0) {
        sd_templates_free(*out);
        *out = NULL;
    }
    return err;
}

int sd_templates_reads(const sd_templates *pg, const char *name)
{
    return sd_mustache_may_read(pg->top, pg->reg, name);
}

int sd_templates_render(sd_buf *out, sd_templates *pg, sd_val *model, sd_diags *diags)
{
    return render_open_page(out, pg, model, 1, diags);
}

void sd_templates_free(sd_templates *pg)
{
    if (pg) {
        page_close(pg);
        free(pg);
    }
}

int sd_render(sd_buf *out, sd_val *model, const sd_render_opts *opts, sd_diags *diags)
{
    return render_page(out, model, opts, 1, diags);
}

int sd_render_data(sd_buf *out, sd_val *data, const sd_render_opts *opts, sd_diags *diags)
{
    return render_page(out, data, opts, 0, diags);
}

int sd_render_diff(sd_buf *out, sd_val *diff, const char *format, const char *theme,
                   const char *generator, sd_diags *diags)
{
    sd_render_opts ro = { .format = "diff/html", .theme = theme };
    int err;
    if (!strcmp(format, "json"))
        return sd_diff_write_json(out, diff);
    if (!strcmp(format, "md"))
        return sd_diff_write_md(out, diff);
    if (strcmp(format, "html"))
        return SD_EUSAGE;
    if ((err = sd_diff_view(diff, generator)) < 0)
        return err;
    return sd_render_data(out, diff, &ro, diags);
}
