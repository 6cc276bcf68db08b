/* render_page.c - find the templates (data directory or the copies built
 * into the binary), pick the theme, compile the top-level template and
 * render the view model with it (see render.h). */
#include "render.h"
#include "mustache.h"
#include "sd.h"

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
static int add_embedded(sd_mustache_partials *reg, const char *prefix, json_t *seen,
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
        if (json_object_get(seen, name)) {
            free(name);
            continue;
        }
        if (shadow_dir) {
            sd_buf p = SD_BUF_INIT;
            sd_buf_printf(&p, "%s/%s.mustache", shadow_dir, name);
            int shadowed = is_file(p.ptr);
            sd_buf_release(&p);
            if (shadowed) {
                free(name);
                continue;
            }
        }
        json_object_set_new(seen, name, json_true());
        err = sd_mustache_partials_add(reg, name, (const char *)a->data, a->len, diags);
        free(name);
        if (err < 0)
            return err;
    }
    return 0;
}

static int read_file(sd_buf *out, const char *path, sd_diags *diags)
{
    FILE *f = fopen(path, "rb");
    char chunk[65536];
    size_t n;
    sd_loc loc = { path, 0, 0 };

    if (!f)
        return sd_diag_error(diags, SD_ENOTFOUND, loc, "cannot open file: %s", strerror(errno));
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        sd_buf_put(out, chunk, n);
    fclose(f);
    return sd_buf_failed(out) ? sd_diag_error(diags, SD_ENOMEM, loc, "out of memory") : 0;
}

int sd_render(sd_buf *out, json_t *model, const sd_render_opts *opts, sd_diags *diags)
{
    const char *format = opts->format ? opts->format : "html";
    const char *theme = opts->theme ? opts->theme : "default";
    char *data = find_data_dir();
    sd_mustache_partials *reg = NULL;
    sd_mustache *custom = NULL;
    const sd_mustache *top = NULL;
    json_t *seen = json_object();
    sd_buf path = SD_BUF_INIT, text = SD_BUF_INIT;
    sd_loc loc = { theme, 0, 0 };
    int err, theme_is_dir = strchr(theme, '/') != NULL || theme[0] == '.';

    if ((err = sd_mustache_partials_new(&reg, SD_MUSTACHE_STRICT)) < 0)
        goto done;
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
    if ((err = sd_mustache_partials_preload(reg, top, diags)) < 0)
        goto done;
    /* the form's page data is made by sd_render_form (form.c) */
    if (strcmp(format, "form") != 0 && (err = sd_render_view(model, strcmp(format, "md") != 0)) < 0) {
        sd_diag_error(diags, err, (sd_loc){ NULL, 0, 0 }, "out of memory");
        goto done;
    }
    err = sd_mustache_render(out, top, model, reg, diags);
done:
    sd_mustache_free(custom);
    sd_mustache_partials_free(reg);
    json_decref(seen);
    sd_buf_release(&path);
    sd_buf_release(&text);
    free(data);
    return err;
}
